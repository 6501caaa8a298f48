"""A club's seasons and specials: a new season and its settings, a special tallied at a table, and what a night's
and a season's pages read (standings across nights, the specials with who and when, the prize lists). Each change
is one function, one transaction under the write lock; the math is the core's (`club.season_standings`,
`club.prize_list`).

A team is one team across a season by its name (as the director registers it, "Aces" or "Ann & Bo"): its players
are those it first registered with; a player registered with it later in their place sits in for one of them, a
substitute, who plays for the team (its wins and points are the team's) and is listed as one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.club import (
    MOST_NIGHTS,
    SPECIALS,
    TALLIED,
    ByeRule,
    ClubError,
    NightScore,
    Prize,
    prize_list,
    season_standings,
)
from ..core.inputs import name_key
from ..core.ratings import POOLS, START_MU
from ..store import clubs, seasons
from ..store.clubs import ClubTable, Night
from ..store.connection import write_lock
from ..store.seasons import Season, Special
from . import ratings
from .club import Place, night_standings
from .errors import Conflict, NotFound, Refused

# --- the director's changes ----------------------------------------------------------------------------------

def _checked(name: str, best_of: int | None, min_nights: int | None, specials: tuple[str, ...],
             bye_rule: str = "winners", bye_points: int | None = None, improved_min_nights: int | None = None,
             last_place: bool = False, ratings: str = "all") -> dict:
    errors = {}
    if not name:
        errors["season_name"] = "A season has a name."
    if best_of is not None and not 1 <= best_of <= MOST_NIGHTS:
        errors["best_of"] = f"Count from 1 to {MOST_NIGHTS} best nights, or leave it blank for every night."
    if min_nights is None or not 1 <= min_nights <= MOST_NIGHTS:
        errors["min_nights"] = f"Rank after 1 to {MOST_NIGHTS} nights."
    if any(kind not in SPECIALS for kind in specials) or len(set(specials)) != len(specials):
        errors["specials"] = "Choose among the specials listed, each once."
    try:
        ByeRule(bye_rule, bye_points if bye_rule == "fixed" else None)
    except ClubError as refused:
        errors["bye_points" if bye_rule == "fixed" else "bye_rule"] = str(refused)
    if improved_min_nights is not None and not 1 <= improved_min_nights <= MOST_NIGHTS:
        errors["improved_min_nights"] = f"Most improved after 1 to {MOST_NIGHTS} nights, or blank for none."
    if ratings not in POOLS or ratings == "home":
        errors["ratings"] = "Rate the season by every game, or by club games only."
    if errors:
        raise Refused(errors=errors)
    return {"name": name, "best_of": best_of, "min_nights": min_nights,
            "specials": tuple(k for k in SPECIALS if k in specials), "bye_rule": bye_rule,
            "bye_points": bye_points if bye_rule == "fixed" else None, "improved_min_nights": improved_min_nights,
            "last_place": bool(last_place), "ratings": ratings}


def new_season(db, name: str, best_of: int | None, min_nights: int | None, specials: tuple[str, ...],
               director_night: int | None = None, **more) -> Season:
    """A new season starts: nights made from now on count in it. It is directed by the director of
    `director_night` (the night it was started from; None: its own first night's). Raises Refused beside each
    field."""
    settings = _checked(name, best_of, min_nights, specials, **more)
    with write_lock(db):
        return seasons.load_season(db, seasons.create_season(db, director_night=director_night, **settings))


def change_season(db, season_id: int, name: str, best_of: int | None, min_nights: int | None,
                  specials: tuple[str, ...], **more) -> Season:
    """The season's settings change; its standings follow at once (its nights made from now on take its bye rule;
    a night made keeps its own). Raises NotFound and Refused."""
    settings = _checked(name, best_of, min_nights, specials, **more)
    with write_lock(db):
        if seasons.load_season(db, season_id) is None:
            raise NotFound("There is no such season.")
        seasons.change_season(db, season_id, **settings)
        return seasons.load_season(db, season_id)


def directing_night(db, season: Season) -> int | None:
    """The night whose director directs the season: the night it was started from, or (a season a database began
    with, or that night gone) its first night. None while it has no night."""
    if season.director_night is not None and clubs.load_night(db, season.director_night) is not None:
        return season.director_night
    return seasons.first_night(db, season.id)


def current_season(db) -> Season:
    """The season new nights count in (a database has one from its first migration to seasons on; should it have
    none, one is made)."""
    season = seasons.current_season(db)
    if season is None:
        with write_lock(db):
            season = seasons.current_season(db) or seasons.load_season(
                db, seasons.create_season(db, "First season", None, 1, tuple(SPECIALS)))
    return season


# --- at a table ----------------------------------------------------------------------------------------------

def tally_special(db, game_id: int, hand: int | None, player_id: int | None, kind: str) -> Special:
    """A special melded at a club table, tallied with one tap: for the player, in the hand being played (`hand`,
    its number, or one recorded already: never a hand past the table's next). Tallied twice, it is there once.
    Raises NotFound (no club table), Refused (a special the club does not tally, a player not at the table, a hand
    the table does not play) and Conflict (the table's round is over)."""
    with write_lock(db):
        at = clubs.table_of_game(db, game_id)
        if at is None:
            raise NotFound("This game is not played at a club table.")
        night = clubs.load_night(db, at["night_id"])
        season = seasons.load_season(db, night.season_id) if night.season_id else None
        if kind not in TALLIED or (season is not None and kind not in season.specials):
            raise Refused("The club does not tally that special: the director chooses which, on the season's "
                          "settings.")
        if player_id is None or player_id not in clubs.table_sides(db, game_id):
            raise Refused("Choose a player at this table.")
        played = clubs.table(db, at["id"])[1].hands_count
        last = played + 1 if night.round_end != "hands" else min(played + 1, night.round_size)
        if hand is None or not 1 <= hand <= last:
            raise Refused(f"A special is tallied in a hand this table plays: hand {last} or one before it."
                          if hand is not None else "Which hand was it melded in?")
        if at["ended_at"] is not None or night.closed_at:
            raise Conflict(f"Round {at['round']} at table {at['table_no']} is over: no more specials are tallied "
                           "here.")
        seasons.add_special(db, night.id, at["id"], hand, player_id, kind)
        return next(s for s in seasons.specials_of_table(db, at["id"])
                    if (s.hand, s.player_id, s.kind) == (hand, player_id, kind))


def take_back_special(db, game_id: int, special_id: int) -> None:
    """A special tapped by mistake is taken back, at its table while its round plays. Raises NotFound and
    Conflict."""
    with write_lock(db):
        at = clubs.table_of_game(db, game_id)
        if at is None:
            raise NotFound("This game is not played at a club table.")
        if at["ended_at"] is not None:
            raise Conflict(f"Round {at['round']} at table {at['table_no']} is over: its specials stand.")
        if not any(s.id == special_id for s in seasons.specials_of_table(db, at["id"])):
            raise NotFound("That special is not tallied at this table.")
        seasons.remove_special(db, special_id, at["night_id"])


@dataclass(frozen=True)
class TableSpecials:
    """What a club table's hand form offers: the specials the club tallies, the table's players (id, name) and
    those tallied here so far."""

    kinds: tuple[str, ...]
    players: tuple[tuple[int, int, str], ...]  # (seat, id, name)
    tallied: tuple[Special, ...]
    open: bool


def table_specials(db, game_id: int) -> TableSpecials | None:
    """The specials of the club table a game is played at; None for a game of no club table, or a season that
    tallies none."""
    at = clubs.table_of_game(db, game_id)
    if at is None:
        return None
    night = clubs.load_night(db, at["night_id"])
    season = seasons.load_season(db, night.season_id) if night.season_id else None
    kinds = tuple(k for k in TALLIED if season is None or k in season.specials)
    if not kinds:
        return None
    players = seasons.table_players(db, game_id)
    open_ = at["ended_at"] is None and not night.closed_at
    return TableSpecials(kinds, players, tuple(seasons.specials_of_table(db, at["id"])), open_)


# --- reading a night and a season ----------------------------------------------------------------------------

@dataclass(frozen=True)
class NightRead:
    """A night as a season reads it: the night, its standings, and each player's games and series."""

    night: Night
    places: list[Place]
    entrants: list
    games: list[tuple[str, int]]  # (player's name, their side's points) a player a table
    series: dict[str, int]  # player's name -> their total over the night, at tables
    tables: list[ClubTable] = field(default_factory=list)


def read_night(db, night: Night) -> NightRead:
    entrants = clubs.entrants(db, night.id)
    tables = clubs.tables(db, night.id)
    places = night_standings(db, night, entrants, tables)
    games, series = _games_and_series(tables)
    return NightRead(night, places, entrants, games, series, tables)


def _games_and_series(tables: list[ClubTable]) -> tuple[list[tuple[str, int]], dict[str, int]]:
    games, series = [], {}
    for table in tables:
        if table.unplayed:
            continue  # no hand played there: no game
        points, _ = table.result
        for seat, name in enumerate(table.players):
            if name:
                games.append((name, points[seat % 2]))
                series[name] = series.get(name, 0) + points[seat % 2]
    return games, series


def night_prizes(db, night: Night, read: NightRead | None = None) -> list[Prize]:
    """The night's prize list: its first places (and last, where its season gives one) and the specials its
    season tallies."""
    read = read or read_night(db, night)
    season = seasons.load_season(db, night.season_id) if night.season_id else None
    kinds = season.specials if season else tuple(SPECIALS)
    tallies = [(s.player, s.kind) for s in seasons.specials_of_nights(db, [night.id])]
    places = [(p.rank, p.name) for p in read.places]
    return prize_list(places, kinds, tallies, read.games, read.series.items(),
                      last_place=bool(season and season.last_place))


def night_specials(db, night: Night) -> list[Special]:
    return seasons.specials_of_nights(db, [night.id])


@dataclass(frozen=True)
class SeasonLine:
    """A line of a season's standings: a player, or a team with its players and substitutes."""

    rank: int | None
    name: str
    wins: int
    points: int
    played: int
    counted: tuple[int, ...]  # the nights that count, by id
    members: tuple[str, ...] = ()
    substitutes: tuple[str, ...] = ()  # "Cy for Bo (12 Nov)"


@dataclass(frozen=True)
class SeasonPage:
    season: Season
    nights: list[Night]
    players: list[SeasonLine]
    teams: list[SeasonLine]
    specials: list[Special]
    prizes: list[Prize]
    night_names: dict[int, str] = field(default_factory=dict)
    ladder: list = field(default_factory=list)  # services.ratings.Rung of the season's players, best first
    hidden: list[Night] = field(default_factory=list)  # nights whose standings wait for their director to reveal
    director_night: int | None = None  # the night whose director directs the season

    @property
    def over(self) -> bool:
        """Every night of the season is closed (and none hides its standings)."""
        return bool(self.nights) and all(n.closed_at for n in self.nights) and not self.hidden


def season_page(db, season_id: int) -> SeasonPage:
    """Everything a season's page, wall and print show. A night whose standings are hidden counts in none of it
    until its director reveals them. Raises NotFound."""
    season = seasons.load_season(db, season_id)
    if season is None:
        raise NotFound("There is no such season.")
    nights = [clubs.load_night(db, i) for i in seasons.season_nights(db, season_id)]
    shown = [night for night in nights if not night.standings_hidden]
    reads = [read_night(db, night) for night in shown]
    players = _player_lines(reads, season)
    teams = _team_lines(reads, season)
    specials = seasons.specials_of_nights(db, [n.id for n in shown])
    games = [g for r in reads for g in r.games]
    series = [(name, total) for r in reads for name, total in r.series.items()]
    ranked = teams if teams and all(r.night.kind == "partners" for r in reads) else players
    pool = season.ratings
    improved = _most_improved(db, reads, season) if season.improved_min_nights is not None else None
    prizes = prize_list([(line.rank, line.name) for line in ranked], season.specials,
                        [(s.player, s.kind) for s in specials], games, series, last_place=season.last_place,
                        improved=improved)
    season_players = {pid for r in reads for e in r.entrants for pid in e.player_ids}
    return SeasonPage(season, nights, players, teams, specials, prizes, {n.id: n.name for n in nights},
                      ratings.ladder(db, players=season_players, pool=pool),
                      [night for night in nights if night.standings_hidden], directing_night(db, season))


def _most_improved(db, reads: list[NightRead], season: Season) -> list[tuple[str, float]]:
    """(name, how far their rating rose over the season) for each player of at least the season's least number of
    nights for it: from their rating before their first game of the season to after their last (in the season's
    pool of games: every game, or the club's)."""
    nights_played: dict[int, int] = {}
    names: dict[int, str] = {}
    for read in reads:
        for entrant in read.entrants:
            if entrant.last_round is not None and entrant.last_round < entrant.first_round:
                continue  # withdrawn before playing a round
            for player_id, name in zip(entrant.player_ids, entrant.player_names, strict=True):
                nights_played[player_id] = nights_played.get(player_id, 0) + 1
                names[player_id] = name
    season_games = {t.game_id for read in reads for t in read.tables}
    folded = ratings.all_ratings(db, season.ratings)
    rises = []
    for player_id, count in nights_played.items():
        if count < season.improved_min_nights:
            continue
        steps = folded.history(player_id)
        at = [i for i, step in enumerate(steps) if step.game_id in season_games]
        if not at:
            continue
        before = steps[at[0] - 1].mu if at[0] else START_MU
        rises.append((names[player_id], steps[at[-1]].mu - before))
    return rises


def _player_lines(reads: list[NightRead], season: Season) -> list[SeasonLine]:
    """Each player's nights: a player's own result, or their team's (a substitute's too)."""
    names, scores = {}, []
    for read in reads:
        by_number = {e.number: e for e in read.entrants}
        for place in read.places:
            entrant = by_number[place.number]
            for player_id, name in zip(entrant.player_ids, entrant.player_names, strict=True):
                names[player_id] = name
                scores.append(NightScore(read.night.id, player_id, place.wins, place.points))
    return [SeasonLine(s.rank, names[s.entrant], s.wins, s.points, s.played, s.counted)
            for s in _ranked(scores, season)]


def _team_lines(reads: list[NightRead], season: Season) -> list[SeasonLine]:
    """Teams across the season's partners nights, one team by its name: its first registration's players are
    its members, anyone registered with it later in a member's place a substitute for that member. (Two teams of
    one name in one night, which an older Scorepad let be registered, are two teams: the second by its number.)"""
    names, members, subs, scores = {}, {}, {}, []
    for read in reads:
        if read.night.kind != "partners":
            continue
        by_number = {e.number: e for e in read.entrants}
        tonight = set()
        for place in read.places:
            entrant = by_number[place.number]
            key, name = name_key(entrant.name), entrant.name
            if key in tonight:
                key, name = f"{key}\n{entrant.number}", f"{entrant.name} (number {entrant.number})"
            tonight.add(key)
            names.setdefault(key, name)
            regular = members.setdefault(key, dict(zip(entrant.player_ids, entrant.player_names, strict=True)))
            missing = [name for pid, name in regular.items() if pid not in entrant.player_ids]
            for pid, player in zip(entrant.player_ids, entrant.player_names, strict=True):
                if pid not in regular:
                    stood_for = missing.pop(0) if missing else "a member"
                    subs.setdefault(key, []).append(f"{player} for {stood_for} ({read.night.name})")
            scores.append(NightScore(read.night.id, key, place.wins, place.points))
    return [SeasonLine(s.rank, names[s.entrant], s.wins, s.points, s.played, s.counted,
                       tuple(members[s.entrant].values()), tuple(subs.get(s.entrant, ())))
            for s in _ranked(scores, season)]


def _ranked(scores: list[NightScore], season: Season):
    try:
        return season_standings(scores, season.best_of, season.min_nights)
    except ClubError:  # settings the forms refuse, from an older or imported copy: every night counts
        return season_standings(scores)


# --- what the season pages read -------------------------------------------------------------------------------
# The web reads seasons through these, as it changes them through the functions above: the store stays below.

def season_under_way(db) -> Season | None:
    """The season new nights count in, or None where none was ever made (read only: nothing is made here)."""
    return seasons.current_season(db)


def season_of(db, night: Night) -> Season | None:
    """The season a night counts in."""
    return seasons.load_season(db, night.season_id) if night.season_id else None


def all_seasons(db) -> list[Season]:
    return seasons.all_seasons(db)


def season_etag(db, season_id: int) -> str | None:
    """The season page's ETag: it moves with the season and with every night of it."""
    return seasons.season_etag(db, season_id)
