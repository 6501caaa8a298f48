"""Club nights: each change a director or a table makes is a function here, in one transaction holding the write
lock, raising one of `errors` when refused. Each table's game is a game like any other (the store's own
`create_game`, the same rules, the same game page); this module keeps the night around them: who registered,
who sits where each round (the core's movement), when a round ends, who confirmed a score, and what the
director changed."""

from __future__ import annotations

import csv
import hashlib
import io
import secrets
from dataclasses import dataclass
from functools import lru_cache

from ..core.club import (
    KINDS,
    LATEST,
    MOST_ROUNDS,
    SEATS,
    TIE_BREAKS,
    ClubError,
    Round,
    TableResult,
    movement,
    round_rules,
    standings,
    time_up,
)
from ..core.inputs import name_key
from ..core.rules import Rules
from ..core.words import number
from ..store import clubs, connection, games, seasons
from ..store import players as store_players
from ..store.clubs import ClubTable, Entrant, Night
from .committed import after_commit
from .errors import Conflict, NotFound, Refused
from .transfer import cell


@dataclass(frozen=True)
class Place:
    """A line of the standings."""

    rank: int
    number: int
    name: str
    wins: int
    points: int
    high_round: int | None
    played: int
    byes: int


@dataclass(frozen=True)
class Seat:
    """Where a player sits in the round under way, for their phone: a table, or a bye."""

    round: int
    table: ClubTable | None  # None: a bye this round
    seat: str = ""
    partner: str = ""
    opponents: tuple[str, ...] = ()
    bye: str = ""  # on a bye: the player's or team's name, as the director's page says it

    @property
    def may_confirm(self) -> bool:
        """Whether this player's tap confirms the table's score (see `may_confirm`)."""
        return self.table is not None and may_confirm(self.table, SEATS.index(self.seat) % 2)

    @property
    def confirmers(self) -> str:
        return confirmers(self.table) if self.table else ""


@dataclass(frozen=True)
class Confirmed:
    night_id: int
    table_no: int
    already: bool = False


# --- the director's changes --------------------------------------------------------------------------------

def create_night(db, *, name: str, kind: str, rules: Rules, round_end: str, round_size: int | None,
                 rounds: int | None, tie_breaks: tuple[str, ...]) -> Night:
    """A new night (its name cleaned and checked already); returns it, with the director's key. Raises Refused
    with a message beside each field that cannot be taken."""
    errors = {}
    if kind not in KINDS:
        errors["kind"] = "Choose partners or progressive."
    if rounds is None or not 1 <= rounds <= MOST_ROUNDS:
        errors["rounds"] = f"A night is from 1 to {MOST_ROUNDS} rounds."
    if not tie_breaks or any(key not in TIE_BREAKS for key in tie_breaks) or len(set(tie_breaks)) != len(tie_breaks):
        errors["tie_breaks"] = "Rank by wins, points or the highest round, each once."
    if round_size is None:
        errors["round_size"] = "Say how many hands, what target, or how many minutes."
    else:
        try:
            round_rules(rules, round_end, round_size)
        except ClubError as refused:
            errors["round_size"] = str(refused)
    if errors:
        raise Refused(errors=errors)
    with connection.write_lock(db):
        season = seasons.current_season(db)  # a night counts in the season under way
        night_id = clubs.create_night(db, name=name, kind=kind, rules=rules, round_end=round_end,
                                            round_size=round_size, rounds=rounds, tie_breaks=tuple(tie_breaks),
                                            director_key=secrets.token_urlsafe(12),
                                            season_id=season.id if season else None, movement=LATEST)
        return clubs.load_night(db, night_id)


def register(db, night_id: int, names: tuple[str, ...], team: str = "") -> int:
    """A player (progressive) or a team of two (partners) joins the night, by names cleaned and checked already;
    returns the number they are given. Raises NotFound, Conflict (the night has started) and Refused."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        if night.round or night.closed_at:
            raise Conflict("The first round has started: the players are seated for the whole night.")
        wanted = 2 if night.kind == "partners" else 1
        names = tuple(name for name in names if name)
        if len(names) != wanted:
            raise Refused(errors={f"player_{len(names)}" if len(names) < wanted else "player_0":
                                  "A team is two players." if wanted == 2 else "Choose a player."})
        if wanted == 2 and name_key(names[0]) == name_key(names[1]):
            raise Refused(errors={"player_1": "A team is two different players."})
        taken = {name_key(name): (name, e.number) for e in clubs.entrants(db, night_id)
                 for name in e.player_names}
        for i, name in enumerate(names):
            if name_key(name) in taken:
                registered, number = taken[name_key(name)]
                raise Refused(errors={f"player_{i}": f"{registered} is registered already, as number {number}."})
        ids = tuple(store_players.player_for(db, name) for name in names)
        return clubs.add_entrant(db, night_id, team or " & ".join(names), ids)


def start_round(db, night_id: int, starting: int | None = None) -> int:
    """The next round starts: every table's game is made, its players seated by the movement. The tables of the
    round before that are over keep their result from now on. Returns the round's number. `starting` is the
    round the director's page offered to start: when that round has started already (from another tab or
    phone) nothing changes. Raises NotFound, Conflict (started already, tables still playing, the night over)
    and Refused (too few registered)."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        _open(night)
        if starting is not None and night.round >= starting:
            raise Conflict(f"Round {night.round} has already started (from another tab or phone): "
                           "here is the night as it is now.")
        if night.round >= night.rounds:
            played = "The night's one round is" if night.rounds == 1 else f"All {night.rounds} rounds are"
            raise Conflict(f"{played} played: close the night to see the final standings.")
        entrants = clubs.entrants(db, night_id)
        try:
            plan = _round_plan(night, entrants)
        except ClubError as refused:
            raise Refused(str(refused)) from None
        if night.round:
            playing = [t.table_no for t in clubs.tables(db, night_id, night.round) if not t.over]
            if playing:
                them = "them" if len(playing) > 1 else "it"
                raise Conflict(f"{_tables_words(playing)} still playing: wait for {them}, or end the round where "
                               "the tables stand.")
            ended = _end_tables(db, night)
        else:
            ended = []
        number = night.round + 1
        rules = round_rules(night.rules, night.round_end, night.round_size)
        by_number = {e.number: e for e in entrants}
        for table_no, seated in enumerate(plan[number - 1].tables, start=1):
            seats, players, teams = _seating(night.kind, seated, by_number)
            game_id = games.create_game(db, rules, teams, players, first_dealer=(table_no - 1) % 4)
            clubs.add_table(db, night_id, number, table_no, game_id, seats)
        clubs.start_round(db, night_id, number)
    after_commit(db, ended=ended)
    return number


def end_round(db, night_id: int, ending: int | None = None) -> int:
    """The director's clock: every table of the round under way stops where it stands (the higher total wins; a
    tie wins for neither) and takes no more hands. Returns how many tables were still playing. `ending` is the
    round the director's page showed: when another round is under way since, nothing changes (Conflict)."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        _open(night)
        if not night.round:
            raise Conflict("No round has started yet.")
        _as_seen(night, ending, f"round {night.round} was not ended")
        ended = _end_tables(db, night)
    after_commit(db, ended=ended)
    return len(ended)


def close_night(db, night_id: int, seen: int | None = None) -> bool:
    """The night is over: the round under way ends where it stands, and the standings are final. Returns False
    when it was closed already. `seen` is the round the director's page showed: when the night has moved on
    since (another round started, or closed from another tab or phone), nothing changes (Conflict)."""
    with connection.write_lock(db):
        night = _night(db, night_id)
        if night.closed_at:
            if seen is not None:
                raise Conflict("The night was closed already (from another tab or phone).")
            return False
        _as_seen(night, seen, "the night was not closed")
        ended = _end_tables(db, night) if night.round else []
        clubs.close_night(db, night_id)
    after_commit(db, ended=ended)
    return True


def change_result(db, night_id: int, table_id: int, score: tuple[int, int], note: str) -> None:
    """The director puts a table's result right once its round is over; the change is kept and shown beside
    the result. Raises NotFound and Conflict (the table still plays)."""
    with connection.write_lock(db):
        table = _table(db, night_id, table_id)
        if not table.over:
            raise Conflict(f"Table {table.table_no} is still playing: its score is its game's until the round ends.")
        _end_table(db, table)
        before = table.score or table.totals
        if before == score:
            return
        clubs.change_result(db, table.id, before, score, _higher(score), note or "Changed by the director.")
    after_commit(db, moved=[table.game_id])  # its winner may have changed: the records move


# --- at a table --------------------------------------------------------------------------------------------

def confirm(db, table_id: int, player_id: int | None, phone: str | None = None) -> Confirmed:
    """An opponent confirms the table's final score with one tap (a player of the side that did not win; after
    a tie, of either side): from then on only the director can change it. Raises NotFound, Refused (not a
    player of this table, or of the side that won, or a phone that no longer holds the player's name: `phone`, the
    phone's mark, is checked when given) and Conflict (the table still plays)."""
    with connection.write_lock(db):
        found = clubs.table(db, table_id)
        if found is None:
            raise NotFound("There is no such table.")
        night_id, table = found
        sides = clubs.table_sides(db, table.game_id)
        if player_id is None or player_id not in sides:
            raise Refused("Only a player at this table can confirm its score.")
        if phone is not None and not holds(db, night_id, player_id, phone):
            raise Refused("Your name was released by the director: tap your name on your table's card again.")
        if table.confirmed_at:
            return Confirmed(night_id, table.table_no, already=True)
        if not table.over:
            raise Conflict(f"Table {table.table_no} is still playing: confirm the score when its round is over.")
        if not may_confirm(table, sides[player_id]):
            raise Refused(f"The score is for the other side to confirm: waiting for {confirmers(table)} to "
                          "confirm.")
        _end_table(db, table)
        clubs.confirm_table(db, table.id, player_id)
        return Confirmed(night_id, table.table_no)


def may_confirm(table: ClubTable, side: int) -> bool:
    """Whether a player of `side` (0: North and South) may confirm the table's score: the side that did not win
    does, as the opponents sign a paper card; after a tie, either side."""
    winner = table.result[1]
    return winner is None or side != winner


def confirmers(table: ClubTable) -> str:
    """Who may confirm the table's score, in words: 'Bo or Di' (after a tie, any of the four)."""
    winner = table.result[1]
    seats = range(4) if winner is None else (seat for seat in range(4) if seat % 2 != winner)
    names = [table.players[seat] for seat in seats if table.players[seat]]
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else "".join(names)


def game_closed(db, game_id: int) -> str | None:
    """Why a game takes no more changes (its club table's round is over), or None."""
    at = clubs.table_of_game(db, game_id)
    if at is None or at["ended_at"] is None:
        return None
    return (f"Round {at['round']} at table {at['table_no']} is over and its score counts: only the club night's "
            "director can change it now.")


@dataclass(frozen=True)
class TableOutcome:
    """A club table's game as its pages tell it: the night, round and table it is played at, and once it is
    over (its own end, or its round's), what happened, in words."""

    night_id: int
    round: int
    table_no: int
    over: bool
    words: str = ""  # "Round 2 ended on the director's clock: Ann & Cy won, 340 to 290."
    kept: bool = False  # its round is over (confirmed, or stopped): only the director changes its result
    confirmed: bool = False
    time_up: str | None = None  # when the director's clock ends the round under way (None: not by the clock)


def table_outcome(db, game_id: int, teams: tuple[str, ...], reached_end: bool) -> TableOutcome | None:
    """The club table a game is played at, or None for a game of no club night. `teams` are the game's sides'
    names; `reached_end` says whether a fold of its hands has a winner (else a round that is over was stopped on
    the director's clock, or by closing the night)."""
    at = clubs.table_of_game(db, game_id)
    if at is None:
        return None
    night_id, table = clubs.table(db, at["id"])
    if not table.over:
        return TableOutcome(night_id, table.round, table.table_no, over=False, time_up=_round_ends(db, game_id))
    how = f"Round {table.round} is over" if reached_end else f"Round {table.round} ended on the director's clock"
    if clubs.result_changes(db, night_id).get(table.id):
        how += ", and the director changed its result"
    points, winner = table.result
    if winner is None:
        what = f"tied {number(points[0])} to {number(points[1])}: a win for neither"
    else:
        what = f"{teams[winner]} won, {number(points[winner])} to {number(points[1 - winner])}"
    after = (f" Confirmed by {table.confirmed_by}: only the director can change it now." if table.confirmed_at
             else " A player at the table confirms it on their seat card.")
    return TableOutcome(night_id, table.round, table.table_no, over=True, words=f"{how}: {what}.{after}",
                        kept=table.ended_at is not None, confirmed=table.confirmed_at is not None)


def _round_ends(db, game_id: int) -> str | None:
    """When the director's clock ends the round a game is played in, while that round is under way."""
    clock = clubs.clock_of_game(db, game_id)
    if clock and clock["round"] == clock["night_round"] and not clock["closed_at"]:
        return time_up(clock["round_started_at"], clock["round_end"], clock["round_size"])
    return None


# --- who is who: a name claimed on one phone ------------------------------------------------------------------

@dataclass(frozen=True)
class ClaimedName:
    """A name claimed on a phone, for the director: where its player sits in the round under way."""

    player_id: int
    name: str
    claimed_at: str
    where: str  # "Table 3", "Bye", or "" before the first round


def claim_name(db, night_id: int, player_id: int, phone: str) -> str:
    """The phone with the mark `phone` is the player's from now on (a phone follows one player a night: a name it
    claimed before is free again). Returns the player's name. Raises NotFound, and Refused for a player not
    registered tonight, Conflict for a name claimed on another phone: only the director releases that."""
    with connection.write_lock(db):
        _night(db, night_id)
        entrant = next((e for e in clubs.entrants(db, night_id) if player_id in e.player_ids), None)
        player = store_players.player(db, player_id)
        if player is None:
            raise NotFound("There is no such player.")
        if entrant is None:
            raise Refused(f"{player['name']} is not registered tonight: tap a name the director registered, or "
                          "ask the director to register you.")
        mark = _phone_mark(phone)
        held = clubs.claim_of(db, night_id, player_id)
        if held == mark:
            return player["name"]
        if held is not None:
            raise Conflict(f"{player['name']} is already claimed on another phone; ask the director to release it.")
        clubs.release_phone(db, night_id, mark)
        clubs.claim(db, night_id, player_id, mark)
        return player["name"]


def release_name(db, night_id: int, player_id: int) -> bool:
    """The director frees a claimed name: the phone that held it follows nobody now, and any phone may claim it.
    Returns False when it was not claimed (released already, from another tab). Raises NotFound."""
    with connection.write_lock(db):
        _night(db, night_id)
        return clubs.release(db, night_id, player_id)


def holds(db, night_id: int, player_id: int | None, phone: str | None) -> bool:
    """Whether the phone with the mark `phone` holds the player's claim on this night."""
    if player_id is None or not phone:
        return False
    held = clubs.claim_of(db, night_id, player_id)
    return held is not None and secrets.compare_digest(held, _phone_mark(phone))


def claimed_names(db, night: Night) -> list[ClaimedName]:
    """Every name claimed on a phone tonight, in the order claimed, with where its player sits now."""
    entrants = clubs.entrants(db, night.id)
    now = clubs.tables(db, night.id, night.round) if night.round else []
    found = []
    for claimed in clubs.claims(db, night.id):
        entrant = next((e for e in entrants if claimed.player_id in e.player_ids), None)
        table = next((t for t in now if entrant and entrant.number in t.entrants), None)
        where = f"Table {table.table_no}" if table else ("Bye" if night.round else "")
        found.append(ClaimedName(claimed.player_id, claimed.name, claimed.claimed_at, where))
    return found


def _phone_mark(phone: str) -> str:
    """What the database keeps of a phone's mark: a hash, so a copy of the database claims nothing."""
    return hashlib.sha256(f"scorepad phone {phone}".encode()).hexdigest()


# --- reading a night ---------------------------------------------------------------------------------------

def night_standings(db, night: Night, entrants: list[Entrant] | None = None,
                    tables: list[ClubTable] | None = None) -> list[Place]:
    """The standings as they are now: every table's result that counts (live while it plays), and the byes of
    the rounds started."""
    entrants = entrants if entrants is not None else clubs.entrants(db, night.id)
    tables = tables if tables is not None else clubs.tables(db, night.id)
    by_number = {e.number: e for e in entrants}
    results = []
    for table in tables:
        points, winner = table.result
        n, e, s, w = table.entrants
        sides = ((n, s), (e, w)) if night.kind == "progressive" else ((n,), (e,))
        results.append(TableResult(table.round, sides, points, winner, table.over))
    byes = _sat_out(night, entrants, tables)
    ranked = standings(list(by_number), results, byes, night.tie_breaks)
    return [Place(s.rank, s.entrant, by_number[s.entrant].name, s.wins, s.points, s.high_round, s.played, s.byes)
            for s in ranked]


def seat_of(db, night: Night, player_id: int) -> Seat | None:
    """Where the player sits in the round under way; None before the first round or for someone not registered."""
    if not night.round:
        return None
    entrant = next((e for e in clubs.entrants(db, night.id) if player_id in e.player_ids), None)
    if entrant is None:
        return None
    for table in clubs.tables(db, night.id, night.round):
        if entrant.number not in table.entrants:
            continue
        seat = table.entrants.index(entrant.number)
        if night.kind == "partners":
            seat += 2 * entrant.player_ids.index(player_id)
        players = table.players
        opponents = sorted(((seat + 1) % 4, (seat + 3) % 4))  # in seat order: North or East first
        return Seat(night.round, table, SEATS[seat], players[(seat + 2) % 4] or "",
                    tuple(players[other] or "" for other in opponents))
    return Seat(night.round, None, bye=entrant.name)


def round_byes(db, night: Night, entrants: list[Entrant] | None = None) -> list[Entrant]:
    """Who sits out the round under way with a bye; none before the first round."""
    if not night.round:
        return []
    entrants = entrants if entrants is not None else clubs.entrants(db, night.id)
    byes = set(_sat_out(night, entrants, clubs.tables(db, night.id, night.round)).get(night.round, ()))
    return [e for e in entrants if e.number in byes]


def _sat_out(night: Night, entrants: list[Entrant], tables: list[ClubTable]) -> dict[int, tuple[int, ...]]:
    """Round -> the entrants who sat it out, for every round started: those at none of its tables as they were
    made (the movement made them; read back, a round played never changes with the movement's code)."""
    seated: dict[int, set[int]] = {number: set() for number in range(1, night.round + 1)}
    for table in tables:
        seated.setdefault(table.round, set()).update(table.entrants)
    return {number: tuple(e.number for e in entrants if e.number not in at) for number, at in seated.items()}


def table_count(db, night: Night, entrants: list[Entrant] | None = None) -> int:
    """How many tables the night has now: those of the round under way or last played, or before the first
    round the number the first round will have (0 while too few are registered to fill one)."""
    if night.round:
        return len(clubs.tables(db, night.id, night.round))
    entrants = entrants if entrants is not None else clubs.entrants(db, night.id)
    return len(_round_plan(night, entrants)[0].tables) if _seatable(night, entrants) else 0


def _seatable(night: Night, entrants: list[Entrant]) -> bool:
    return len(entrants) >= (4 if night.kind == "progressive" else 2)


def _round_plan(night: Night, entrants: list[Entrant]) -> list[Round]:
    """The night's movement, by the version it was made with: a night under way when a new version came keeps
    its own, so the rounds to come fit those played."""
    return _plan(night.kind, tuple(e.number for e in entrants), night.rounds, night.movement)


# --- the night on paper: the rotation chart and a card a player ----------------------------------------------

@dataclass(frozen=True)
class ChartTable:
    table_no: int
    players: tuple[str, str, str, str]  # by seat, North East South West
    sides: tuple[str, str]  # North and South's name (a team, or the two players), East and West's


@dataclass(frozen=True)
class ChartRound:
    number: int
    tables: tuple[ChartTable, ...]
    byes: tuple[str, ...]  # who sits it out: players, or teams


@dataclass(frozen=True)
class CardLine:
    """A round on a player's card: where they sit, or a bye (table None)."""

    round: int
    table_no: int | None
    seat: str = ""
    partner: str = ""
    against: str = ""  # the other side: a team's name, or the two players


@dataclass(frozen=True)
class GameCard:
    number: int  # the entrant's number
    name: str  # the player's
    team: str  # a partners night's team; "" on a progressive night
    lines: tuple[CardLine, ...]


def rotation_chart(db, night: Night) -> list[ChartRound]:
    """Every round of the night, table by table, as the movement seats the players registered now (the rounds
    played were seated so); [] while too few are registered to fill a table."""
    entrants = clubs.entrants(db, night.id)
    if not _seatable(night, entrants):
        return []
    by_number = {e.number: e for e in entrants}
    chart = []
    for round_no, planned in enumerate(_round_plan(night, entrants), start=1):
        tables = []
        for table_no, seated in enumerate(planned.tables, start=1):
            _, players, sides = _seating(night.kind, seated, by_number)
            tables.append(ChartTable(table_no, players, sides))
        chart.append(ChartRound(round_no, tuple(tables), tuple(by_number[n].name for n in planned.byes)))
    return chart


def game_cards(db, night: Night) -> list[GameCard]:
    """A card for each registered player, in the order they registered: their table, seat, partner and
    opponents every round, or their bye."""
    entrants = clubs.entrants(db, night.id)
    chart = rotation_chart(db, night)
    cards = []
    for entrant in entrants:
        for name in entrant.player_names:
            lines = []
            for round_ in chart:
                table = next((t for t in round_.tables if name in t.players), None)
                if table is None:
                    lines.append(CardLine(round_.number, None))
                    continue
                seat = table.players.index(name)
                lines.append(CardLine(round_.number, table.table_no, SEATS[seat], table.players[(seat + 2) % 4],
                                      table.sides[1 - seat % 2]))
            team = entrant.name if night.kind == "partners" else ""
            cards.append(GameCard(entrant.number, name, team, tuple(lines)))
    return cards


# --- in common ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _plan(kind: str, numbers: tuple[int, ...], rounds: int, version: int) -> list[Round]:
    # the movement is a pure function of these: the director's pages ask for it on every look
    return movement(kind, numbers, rounds, version)


def _seating(kind: str, seated: tuple, by_number: dict[int, Entrant]):
    """(entrant numbers by seat, player names by seat, the two teams' names) of a table of the movement."""
    if kind == "partners":
        a, b = (by_number[n] for n in seated)
        return (a.number, b.number, a.number, b.number), (a.player_names[0], b.player_names[0], a.player_names[1],
                                                          b.player_names[1]), (a.name, b.name)
    names = tuple(by_number[n].name for n in seated)
    return tuple(seated), names, (f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}")


def _end_tables(db, night: Night) -> list[int]:
    """Every table of the round under way that has not ended ends as it stands; returns the games of those that
    still played (their games end now: `committed` backs them up once the change is committed)."""
    ended = []
    for table in clubs.tables(db, night.id, night.round):
        if table.ended_at is not None:
            continue
        if table.game_winner is None:
            ended.append(table.game_id)
        winner = table.game_winner if table.game_winner is not None else _higher(table.totals)
        clubs.end_table(db, table.id, table.totals, winner)
    return ended


def _end_table(db, table: ClubTable) -> None:
    """A table over by its game's win ends with its game's score, if it had not yet (the game ended, and was
    backed up, with the hand that won it)."""
    if table.ended_at is None:
        clubs.end_table(db, table.id, table.totals, table.game_winner)


def _higher(score: tuple[int, int]) -> int | None:
    return None if score[0] == score[1] else int(score[1] > score[0])


def _tables_words(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"Table {numbers[0]} is"
    return "Tables " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]} are"


def _night(db, night_id: int) -> Night:
    night = clubs.load_night(db, night_id)
    if night is None:
        raise NotFound("There is no such club night.")
    return night


def _as_seen(night: Night, seen: int | None, unchanged: str) -> None:
    """A director's page that showed round `seen` acts on that round only: a stale tab must not end or close the
    round another tab started since."""
    if seen is not None and seen != night.round:
        raise Conflict(f"Round {night.round} has started since that page was opened (from another tab or phone): "
                       f"{unchanged}. Here is the night as it is now.")


def _open(night: Night) -> None:
    if night.closed_at:
        raise Conflict("The night is closed: these are its final standings (a result the director corrects is "
                       "shown beside its table).")


def _table(db, night_id: int, table_id: int) -> ClubTable:
    found = clubs.table(db, table_id)
    if found is None or found[0] != night_id:
        raise NotFound("This night has no such table.")
    return found[1]


# --- the standings as files, and a player's nights ----------------------------------------------------------

STANDINGS_COLUMNS = ("rank", "number", "name", "wins", "points", "high_round", "played", "byes")


def standings_csv(places: list[Place]) -> str:
    """The standings as a spreadsheet reads them: names that look like formulas are kept as text."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(STANDINGS_COLUMNS)
    for place in places:
        writer.writerow([cell(getattr(place, column)) for column in STANDINGS_COLUMNS])
    return out.getvalue()


def standings_document(night: Night, places: list[Place]) -> dict:
    """The standings as JSON: the night, whether they are final, and a line a place."""
    return {"night": night.name, "kind": night.kind, "date": night.created_at, "rounds": night.rounds,
            "rounds_played": night.round, "final": night.closed_at is not None, "ranked_by": list(night.tie_breaks),
            "standings": [{column: getattr(place, column) for column in STANDINGS_COLUMNS} for place in places]}


@dataclass(frozen=True)
class NightPlace:
    night: Night
    place: Place
    of: int  # how many were ranked


def place_of(db, night: Night, player_id: int) -> NightPlace | None:
    """The player's place in the night's standings as they stand, or None for someone not registered."""
    entrants = clubs.entrants(db, night.id)
    mine = next((e.number for e in entrants if player_id in e.player_ids), None)
    if mine is None:
        return None
    places = night_standings(db, night, entrants)
    return NightPlace(night, next(p for p in places if p.number == mine), len(places))


def places_of_player(db, player_id: int) -> list[NightPlace]:
    """Each club night the player registered for, newest first, with their place in it."""
    found = []
    for night in clubs.nights_of_player(db, player_id):
        entrants = clubs.entrants(db, night.id)
        mine = next(e.number for e in entrants if player_id in e.player_ids)
        places = night_standings(db, night, entrants)
        found.append(NightPlace(night, next(p for p in places if p.number == mine), len(places)))
    return found


# --- what the club's pages read ------------------------------------------------------------------------------
# The web reads a night through these, as it changes one through the functions above: the store stays below the
# services.

def nights(db) -> list[Night]:
    """The latest nights, newest first."""
    return clubs.list_nights(db)


def night(db, night_id: int) -> Night | None:
    return clubs.load_night(db, night_id)


def entrants(db, night_id: int) -> list[Entrant]:
    return clubs.entrants(db, night_id)


def tables(db, night_id: int, round_number: int | None = None) -> list[ClubTable]:
    """Every table of the night, or those of one round."""
    return clubs.tables(db, night_id, round_number)


def result_changes(db, night_id: int) -> dict[int, list[dict]]:
    """The director's corrections, by table id."""
    return clubs.result_changes(db, night_id)


def night_etag(db, night_id: int) -> str | None:
    """The whole night's ETag (its version and its games'); None for a night that is not there."""
    versions = clubs.night_version(db, night_id)
    return versions and clubs.night_etag(night_id, *versions)


def seat_etag(db, night_id: int, player_id: int | None) -> str | None:
    """The ETag of one player's seat card: it moves only when what that card shows does."""
    return clubs.seat_etag(db, night_id, player_id)


def player(db, player_id: int) -> dict | None:
    return store_players.player(db, player_id)


def player_names(db) -> list[str]:
    """Every name known, for the register form's suggestions."""
    return store_players.player_names(db)


def claims(db, night_id: int) -> list:
    """The names claimed on a phone tonight (who, and a hash of which phone)."""
    return clubs.claims(db, night_id)
