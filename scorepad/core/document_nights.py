"""The club nights of an export (version 3; version 4 adds seasons and specials), read as a stranger's document.
Pure: no Flask, no database.

A night holds its settings, its entrants, and its tables round by round: each table names its game by the game's
id in the same file, the entrants at its four seats, and once its round is over the result that counts, who
confirmed it and every change the director made to it. `check` holds all of it to what Scorepad itself makes
(every field's type and range, a table's players are its entrants', each game at one table at most) and returns
the nights ready to write, or raises `ImportRefused` with one sentence naming the night, the table and the field.
The director's key is not in the file (whoever holds a copy must not direct the night): an imported night is
given a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .club import (
    BYE_RULES,
    KINDS,
    MOST_NIGHTS,
    MOST_ROUNDS,
    SPECIALS,
    TALLIED,
    TIE_BREAKS,
    VERSIONS,
    ByeRule,
    ClubError,
    fits_a_club_table,
    round_rules,
)
from .club.rounds import ROUND_ENDS
from .document import (
    MAX_SUMMARY,
    ImportedGame,
    _Checker,
    _choice,
    _fields,
    _list,
    _name,
    _pair,
    _refused,
    _rules,
    _show,
    _text,
    _whole,
    _Wrong,
)
from .errors import ImportRefused
from .inputs import name_key
from .ratings import POOLS

# Fields a file from an older Scorepad may lack: each has the meaning it had before it was kept.
NIGHT_LATER = ("season", "movement", "bye_rule", "bye_points", "standings_hidden", "unrated")
NIGHT_FIELDS = ("name", "created_at", "kind", "rules", "round_end", "round_size", "rounds", "tie_breaks", "round",
                "round_started_at", "closed_at", "entrants", "tables", *NIGHT_LATER)
ENTRANT_LATER = ("first_round", "last_round")
ENTRANT_FIELDS = ("number", "name", "players", *ENTRANT_LATER)
TABLE_LATER = ("specials", "ended_how", "end_note")
TABLE_FIELDS = ("round", "table_no", "game", "entrants", "ended_at", "score", "winner", "confirmed_at",
                "confirmed_by", "changes", *TABLE_LATER)
SEASON_LATER = ("bye_rule", "bye_points", "improved_min_nights", "last_place", "ratings")
SEASON_FIELDS = ("name", "started_at", "best_of", "min_nights", "specials", *SEASON_LATER)
ENDINGS = ("game", "clock", "stopped")
SPECIAL_FIELDS = ("hand", "player", "kind", "at")
MAX_SEASONS = 500
MAX_SPECIALS = 2_000  # tallied at one table
CHANGE_FIELDS = ("at", "before", "after", "note")

MAX_NIGHTS = 2_000
MAX_ENTRANTS = 400  # a hundred tables of four
MAX_TABLES = MAX_ROUND_TABLES = 200
MAX_CHANGES = 200  # the director's corrections to one table's result
MAX_ROUND_SIZE = 100_000  # what the new-night form takes
MAX_SCORE = 10**9


@dataclass(frozen=True)
class ImportedEntrant:
    number: int
    name: str
    players: tuple[str, ...]  # one player, or a team's two
    first_round: int = 1
    last_round: int | None = None


@dataclass(frozen=True)
class ImportedChange:
    at: str
    before: tuple[int, int] | None
    after: tuple[int, int]
    note: str


@dataclass(frozen=True)
class ImportedSpecial:
    hand: int
    player: str
    kind: str
    at: str


@dataclass(frozen=True)
class ImportedSeason:
    name: str
    started_at: str
    best_of: int | None
    min_nights: int
    specials: tuple[str, ...]
    bye_rule: str = "winners"
    bye_points: int | None = None
    improved_min_nights: int | None = None
    last_place: bool = False
    ratings: str = "all"


@dataclass(frozen=True)
class ImportedTable:
    round: int
    table_no: int
    game: int  # the game's place (from 0) among the document's games
    entrants: tuple[int, int, int, int]  # by seat, North East South West
    ended_at: str | None
    score: tuple[int, int] | None
    winner: int | None
    confirmed_at: str | None
    confirmed_by: str | None
    changes: tuple[ImportedChange, ...]
    specials: tuple[ImportedSpecial, ...] = ()
    ended_how: str | None = None
    end_note: str | None = None


@dataclass(frozen=True)
class ImportedNight:
    number: int  # its place among the document's nights, from 1
    name: str
    created_at: str
    kind: str
    rules: object  # Rules
    round_end: str
    round_size: int
    rounds: int
    tie_breaks: tuple[str, ...]
    round: int
    round_started_at: str | None
    closed_at: str | None
    entrants: tuple[ImportedEntrant, ...]
    tables: tuple[ImportedTable, ...]
    director_key: str = ""  # given on import, never read from a file
    season: str | None = None  # the name of its season among the document's; None: the season under way here
    movement: int = 1  # the movement's version that seats it (a file from before versions: the first)
    bye: ByeRule = ByeRule()
    standings_hidden: bool = False
    unrated: tuple[str, ...] = ()  # players left out of the ratings for the night's games


def check(document: dict, games: list[ImportedGame], now: datetime) -> list[ImportedNight]:
    """The club nights of a document whose games passed `document.check` (a version 1 or 2 file has none).
    Raises ImportRefused naming the night, the table and the field."""
    if "club_nights" not in document:
        return []
    try:
        listed = _list(document["club_nights"], "club_nights", MAX_NIGHTS)
    except _Wrong as wrong:
        raise ImportRefused(f"This export is damaged: {wrong} Nothing was imported.") from None
    checker = _Nights(_Checker(now + timedelta(days=1)), games)
    checker.seasons = {name_key(season.name) for season in check_seasons(document, now)}
    return [checker.night(data, number) for number, data in enumerate(listed, start=1)]


def check_seasons(document: dict, now: datetime) -> list[ImportedSeason]:
    """The seasons of a document (a version 1 to 3 file has none; its nights go into the season under way).
    Raises ImportRefused naming the season and the field."""
    if "club_seasons" not in document:
        return []
    moments = _Checker(now + timedelta(days=1))
    found, names = [], set()
    try:
        listed = _list(document["club_seasons"], "club_seasons", MAX_SEASONS)
    except _Wrong as wrong:
        raise ImportRefused(f"This export is damaged: {wrong} Nothing was imported.") from None
    for number, data in enumerate(listed, start=1):
        try:
            _fields(data, SEASON_FIELDS, "a season", optional=SEASON_LATER)
            name = _name(data["name"], "name")
            if name is None:
                raise _Wrong("name is empty; every season has a name.")
            if name_key(name) in names:
                raise _Wrong(f"{_show(name)} is the name of an earlier season of the file; each is named once.")
            names.add(name_key(name))
            best_of = None if data["best_of"] is None else _whole(data["best_of"], "best_of", 1, MOST_NIGHTS)
            specials = tuple(_one_of(k, "specials", tuple(SPECIALS))
                             for k in _list(data["specials"], "specials", len(SPECIALS)))
            if len(set(specials)) != len(specials):
                raise _Wrong("specials names a special twice.")
            bye = _bye(data)
            improved = data.get("improved_min_nights")
            improved = None if improved is None else _whole(improved, "improved_min_nights", 1, MOST_NIGHTS)
            ratings = _one_of(data.get("ratings", "all"), "ratings", tuple(p for p in POOLS if p != "home"))
            found.append(ImportedSeason(name, moments.moment(data["started_at"], "started_at"), best_of,
                                        _whole(data["min_nights"], "min_nights", 1, MOST_NIGHTS), specials, bye.kind,
                                        bye.points, improved, _flag(data.get("last_place", False), "last_place"),
                                        ratings))
        except _Wrong as wrong:
            raise _refused(f"Season {number}", wrong) from None
    return found


class _Nights:
    def __init__(self, moments: _Checker, games: list[ImportedGame]):
        self.moments = moments
        self.games = games
        self.place = {game.source_id: index for index, game in enumerate(games)}
        self.at_table: dict[int, str] = {}  # a game's place -> the night and table it is played at
        self.seasons: set[str] = set()  # the keys of the names of the document's seasons

    def moment(self, value, field: str, empty: bool = False) -> str | None:
        if empty and value is None:
            return None
        return self.moments.moment(value, field)

    def night(self, data, number: int) -> ImportedNight:
        where = f"Club night {number}"
        try:
            _fields(data, NIGHT_FIELDS, "a club night", optional=NIGHT_LATER)
            season = None if data.get("season") is None else _name(data["season"], "season")
            if season is not None and name_key(season) not in self.seasons:
                raise _Wrong(f"season {_show(season)} is not among the file's seasons.")
            name = _name(data["name"], "name")
            if name is None:
                raise _Wrong("name is empty; every night has a name.")
            kind = _one_of(data["kind"], "kind", KINDS)
            rules = _rules(data["rules"])
            if not fits_a_club_table(rules):
                raise _Wrong("rules must be for two teams of two: a club table seats North, East, South and West.")
            round_end = _one_of(data["round_end"], "round_end", tuple(ROUND_ENDS))
            round_size = _whole(data["round_size"], "round_size", 1, MAX_ROUND_SIZE)
            try:
                round_rules(rules, round_end, round_size)
            except ClubError as refused:
                raise _Wrong(f"round_size {round_size}: {refused}") from None
            rounds = _whole(data["rounds"], "rounds", 1, MOST_ROUNDS)
            tie_breaks = tuple(_one_of(key, "tie_breaks", tuple(TIE_BREAKS))
                               for key in _list(data["tie_breaks"], "tie_breaks", len(TIE_BREAKS)))
            if not tie_breaks or len(set(tie_breaks)) != len(tie_breaks):
                raise _Wrong("tie_breaks must name each of wins, points, high_round at most once, and one at least.")
            played = _whole(data["round"], "round", 0, rounds)
            started_at = self.moment(data["round_started_at"], "round_started_at", empty=True)
            created_at = self.moment(data["created_at"], "created_at")
            closed_at = self.moment(data["closed_at"], "closed_at", empty=True)
            entrants = self.entrants(data["entrants"], kind, rounds)
            movement = _whole(data.get("movement", 1), "movement", VERSIONS[0], VERSIONS[-1])
            bye = _bye(data)
            hidden = _flag(data.get("standings_hidden", False), "standings_hidden")
            players = {name_key(p) for e in entrants for p in e.players}
            unrated = tuple(_name(p, "unrated") for p in _list(data.get("unrated", []), "unrated", MAX_ENTRANTS * 2))
            if any(p is None or name_key(p) not in players for p in unrated):
                raise _Wrong("unrated names someone who is not a player of the night.")
        except _Wrong as wrong:
            raise _refused(where, wrong) from None
        tables = self.tables(data["tables"], where, kind, played, {e.number: e for e in entrants})
        return ImportedNight(number, name, created_at, kind, rules, round_end, round_size, rounds, tie_breaks, played,
                             started_at, closed_at, entrants, tables, season=season, movement=movement, bye=bye,
                             standings_hidden=hidden, unrated=unrated)

    def entrants(self, value, kind: str, rounds: int) -> tuple[ImportedEntrant, ...]:
        found, seen = [], {}
        wanted = 2 if kind == "partners" else 1
        for number, data in enumerate(_list(value, "entrants", MAX_ENTRANTS), start=1):
            try:
                _fields(data, ENTRANT_FIELDS, "an entrant", optional=ENTRANT_LATER)
                first = _whole(data.get("first_round", 1), "first_round", 1, rounds)
                last = data.get("last_round")
                last = None if last is None else _whole(last, "last_round", first - 1, rounds)
                if _whole(data["number"], "number", 1, MAX_ENTRANTS) != number:
                    raise _Wrong(f"number is {data['number']}, but it is entrant {number} of the list: entrants "
                                 "are numbered 1, 2, 3 … in order, as they registered.")
                name = _name(data["name"], "name")
                players = tuple(_name(player, f"players[{i}]")
                                for i, player in enumerate(_list(data["players"], "players", wanted, exactly=True)))
                if name is None or None in players:
                    raise _Wrong("a name is empty; every entrant and each of its players has one.")
                for player in players:
                    if name_key(player) in seen:
                        raise _Wrong(f"{_show(player)} is registered already, as number {seen[name_key(player)]}.")
                    seen[name_key(player)] = number
            except _Wrong as wrong:
                raise _Wrong(f"entrant {number}: {wrong}") from None
            found.append(ImportedEntrant(number, name, players, first, last))
        return tuple(found)

    def tables(self, value, night: str, kind: str, played: int, entrants: dict) -> tuple[ImportedTable, ...]:
        try:
            listed = _list(value, "tables", MAX_TABLES * MOST_ROUNDS)
        except _Wrong as wrong:
            raise _refused(night, wrong) from None
        found, places = [], set()
        for n, data in enumerate(listed, start=1):
            try:
                _fields(data, TABLE_FIELDS, "a table", optional=TABLE_LATER)
                number = _whole(data["round"], "round", 1, MOST_ROUNDS)
                if number > played:
                    raise _Wrong(f"round is {number}, but the night's round (the one under way, or the last one "
                                 f"played) is {played}.")
                table_no = _whole(data["table_no"], "table_no", 1, MAX_ROUND_TABLES)
            except _Wrong as wrong:
                raise _refused(f"{night}, table {n}", wrong) from None
            where = f"{night}, round {number}, table {table_no}"
            if (number, table_no) in places:
                raise _refused(where, _Wrong("it is listed twice; each table of a round is listed once."))
            places.add((number, table_no))
            try:
                found.append(self.table(data, number, table_no, kind, entrants, where))
            except _Wrong as wrong:
                raise _refused(where, wrong) from None
        return tuple(found)

    def table(self, data: dict, number: int, table_no: int, kind: str, entrants: dict, where: str) -> ImportedTable:
        game = self.game(data["game"], where)
        seated = tuple(_whole(e, "entrants", 1, MAX_ENTRANTS) for e in _list(data["entrants"], "entrants", 4,
                                                                             exactly=True))
        missing = [e for e in seated if e not in entrants]
        if missing:
            raise _Wrong(f"entrants names number {missing[0]}, who is not registered for the night.")
        players = _seated_players(kind, seated, entrants)
        names = self.games[game].players
        if tuple(name_key(p) for p in players) != tuple(name_key(n or "") for n in names):
            raise _Wrong(f"its game's players are {', '.join(n or '(nobody)' for n in names)}, but its entrants "
                         f"are {', '.join(players)}.")
        ended_at = self.moment(data["ended_at"], "ended_at", empty=True)
        score = None if data["score"] is None else _pair(data["score"], "score", -MAX_SCORE, MAX_SCORE)
        winner = None if data["winner"] is None else _choice(data["winner"], "winner", (0, 1))
        confirmed_at = self.moment(data["confirmed_at"], "confirmed_at", empty=True)
        confirmed_by = _name(data["confirmed_by"], "confirmed_by")
        changes = tuple(self.change(change, n) for n, change in
                        enumerate(_list(data["changes"], "changes", MAX_CHANGES), start=1))
        ended_how = None if data.get("ended_how") is None else _one_of(data["ended_how"], "ended_how", ENDINGS)
        end_note = None if data.get("end_note") is None else _text(data["end_note"], "end_note", MAX_SUMMARY)
        if ended_at is None and (score is not None or winner is not None or confirmed_at or changes or ended_how
                                 or end_note):
            raise _Wrong("ended_at is null, so the table plays on: score, winner, confirmed_at, ended_how and "
                         "end_note must be null and changes empty.")
        if ended_at is not None and score is None and (self.games[game].live_hands or changes or winner is not None
                                                       or confirmed_at):
            raise _Wrong("score must be the result that counts once the table's round is over (ended_at); only a "
                         "table where no hand was played has none.")
        if confirmed_by is not None and confirmed_at is None:
            raise _Wrong("confirmed_by is given without confirmed_at: a score is confirmed at a moment.")
        if confirmed_by is not None and name_key(confirmed_by) not in {name_key(p) for p in players}:
            raise _Wrong(f"confirmed_by {_show(confirmed_by)} is not a player at this table.")
        specials = tuple(self.special(special, n, players) for n, special in
                         enumerate(_list(data.get("specials", []), "specials", MAX_SPECIALS), start=1))
        if len({(s.hand, name_key(s.player), s.kind) for s in specials}) != len(specials):
            raise _Wrong("specials lists one special twice (the same hand, player and kind).")
        self.at_table[game] = where
        return ImportedTable(number, table_no, game, seated, ended_at, score, winner, confirmed_at, confirmed_by,
                             changes, specials, ended_how, end_note)

    def special(self, data, n: int, players: tuple[str, ...]) -> ImportedSpecial:
        try:
            _fields(data, SPECIAL_FIELDS, "a special")
            hand = _whole(data["hand"], "hand", 1, 10_000)
            player = _name(data["player"], "player")
            if player is None or name_key(player) not in {name_key(p) for p in players}:
                raise _Wrong(f"player {_show(player)} is not a player at this table.")
            kind = _one_of(data["kind"], "kind", tuple(TALLIED))
            return ImportedSpecial(hand, player, kind, self.moment(data["at"], "at"))
        except _Wrong as wrong:
            raise _Wrong(f"special {n}: {wrong}") from None

    def game(self, value, where: str) -> int:
        source_id = _whole(value, "game", 1, 2**63 - 1)
        if source_id not in self.place:
            raise _Wrong(f"game {source_id} is not among the file's games.")
        place = self.place[source_id]
        if place in self.at_table:
            raise _Wrong(f"game {source_id} is also the game of {self.at_table[place].removeprefix('Club ')}; "
                         "each table has its own.")
        rules = self.games[place].rules
        if (rules.sides, rules.players) != (2, 4):
            raise _Wrong(f"game {source_id} is not a game of two teams of two, as a club table's is.")
        return place

    def change(self, data, n: int) -> ImportedChange:
        try:
            _fields(data, CHANGE_FIELDS, "a change")
            at = self.moment(data["at"], "at")
            before = None if data["before"] is None else _pair(data["before"], "before", -MAX_SCORE, MAX_SCORE)
            after = _pair(data["after"], "after", -MAX_SCORE, MAX_SCORE)
            note = _text(data["note"], "note", MAX_SUMMARY)
            if not note.strip():
                raise _Wrong("note is empty; a change says why it was made.")
        except _Wrong as wrong:
            raise _Wrong(f"change {n}: {wrong}") from None
        return ImportedChange(at, before, after, note)


def _seated_players(kind: str, seated: tuple, entrants: dict) -> tuple[str, ...]:
    """The players by seat at a table of these entrants: a progressive night's entrants are its four players; a
    partners night's are two teams, each sitting opposite itself."""
    if kind == "progressive":
        if len(set(seated)) != 4:
            raise _Wrong(f"entrants {list(seated)} name an entrant twice; four players sit at a table.")
        return tuple(entrants[e].players[0] for e in seated)
    north, east, south, west = seated
    if north != south or east != west or north == east:
        raise _Wrong(f"entrants {list(seated)} are not two teams, each opposite itself (North and South, East and "
                     "West).")
    return entrants[north].players[0], entrants[east].players[0], entrants[north].players[1], entrants[east].players[1]


def _bye(data: dict) -> ByeRule:
    """What a bye is worth, from a night's or a season's fields (a file from before it was kept: the winners'
    average)."""
    kind = _one_of(data.get("bye_rule", "winners"), "bye_rule", tuple(BYE_RULES))
    points = data.get("bye_points")
    points = None if points is None else _whole(points, "bye_points", 0, 10_000)
    try:
        return ByeRule(kind, points)
    except ClubError as refused:
        raise _Wrong(f"bye_rule {kind}, bye_points {_show(points)}: {refused}") from None


def _flag(value, field: str) -> bool:
    if type(value) is not bool:
        raise _Wrong(f"{field} must be true or false, not {_show(value)}.")
    return value


def _one_of(value, field: str, options: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in options:
        raise _Wrong(f"{field} must be one of {', '.join(options)}, not {_show(value)}.")
    return value
