"""A Scorepad export read as a stranger's document. Pure: no Flask, no database, no clock of its own.

`read` turns a file's bytes into JSON values without letting a hostile file crash the reader (nesting deeper
than Python recurses, integers of thousands of digits, a key given twice). `check` holds the whole document to
the rules the forms enforce (every field's type and range, names, dates, each hand under its game's rules, each
hand's history), replays every game, and returns the games ready to write; or it raises `ImportRefused` with one
sentence naming the game, the hand and the field. Nothing is written until every game has passed.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from . import counted
from .errors import GameOver, ImportRefused, InvalidHand, InvalidRules
from .hands import ADDED_COLUMNS, HAND_COLUMNS, HAND_EXPORT_FIELDS, SIDE_COLUMNS, hand_to_history
from .inputs import MAX_DIGITS as MAX_TYPED_DIGITS
from .inputs import MAX_ID, NotANumber, clean_name, name_key, name_problem, whole_number
from .rules import Rules
from .scoring import KINDS, GameState, Hand, play_game, validate_hand
from .seats import team_of
from .words import team_in_data

FORMAT, VERSION = "scorepad", 4
# Version 1 is version 2 before tables of every size: two teams of two, so its rule sets have no seating.
# Version 3 is version 2 with the club nights (`scorepad.core.document_nights`).
READS = (1, 2, 3, 4)

# Limits: far above what years of a family's evenings hold, far below what would tire a Raspberry Pi.
MAX_GAMES = 20_000
MAX_HANDS = 2_000  # in one game, deleted hands included
MAX_EDITS = 200  # lines in one hand's history
MAX_TOKEN = 64  # the hand form keeps no more of its token
MAX_SUMMARY = 1_000  # an edit in words: every field changed, with long names
MAX_SNAPSHOT = 6_000  # a hand written as JSON in its history, with the cards the meld calculator counted
MAX_RULE_TEXT = 200  # a rule set's title, and its line on who plays it that way
MAX_RULE_NUMBER = 10**MAX_TYPED_DIGITS - 1  # any bid, score or target a rule set names: what a form takes
MAX_BID_STEPS = 20
MAX_STAMP = 40  # characters of a date and time
MAX_DIGITS = 19  # a JSON integer longer than this is no Scorepad number (SQLite stops at 19, Python at 4,300)
_HUGE = 10**MAX_DIGITS
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)  # before Scorepad: an earlier date is a clock that was never set

DOCUMENT_FIELDS = ("format", "version", "exported_at", "games", "club_nights", "club_seasons")
GAME_FIELDS = ("id", "created_at", "rules", "teams", "players", "first_dealer", "rematch_of", "finished_at",
               "totals", "winner", "hands", "abandoned_at")
# Fields added after the first exports: a game without them was never ended unfinished.
GAME_ADDED = ("abandoned_at",)
HAND_FIELDS = ("seq", "token", *HAND_EXPORT_FIELDS, "created_at", "updated_at", "deleted_at", "edits")
EDIT_FIELDS = ("at", "action", "before", "after", "summary")
# A hand in its history, as the store writes it: the columns of the hands table, in their order.
SNAPSHOT_FIELDS = HAND_COLUMNS
ACTIONS = ("recorded", "edited", "deleted", "restored")
TRUMPS = (None, "S", "H", "D", "C")

# Every option of a rule set, by the kind of JSON value it holds (a test keeps this in step with `Rules`).
RULE_TEXTS = ("preset", "title", "played_by", "deck", "all_pass", "set_penalty", "throw_in_penalty",
              "throw_in_award", "no_marriage", "meld_table", "card_count")
RULE_NUMBERS = ("hand_points", "counter_step", "meld_step", "min_bid", "min_meld", "save_counters", "target",
                "sides", "players_per_side")
RULE_OPTIONAL_NUMBERS = ("auto_throw_in_margin", "floor", "hands_limit", "max_bid")
# Options added after the first exports: a file without them takes the default, as every game before did.
RULE_ADDED = ("card_count", "max_bid")
RULE_FLAGS = ("check_bid_steps", "unsaved_counters_score", "opponents_score_when_made",
              "forced_no_marriage_meld_only", "auto_throw_in_below_min_meld", "bidding")
# The seating a version 1 rule set leaves out: every game was two teams of two, bidding.
SEATING_OF_VERSION_1 = {"sides": 2, "players_per_side": 2, "bidding": True}
DECK_OF_MELD_TABLE = {"002": "double", "tournament": "double", "000": "double", "004": "single",
                      "004-plain": "single", "tournament-once": "double", "triple": "triple"}

# A redeal is recorded as nothing at all: nobody bid, nobody melded, nobody scored.
REDEAL = {"bidder": 0, "bidder_seat": None, "bid": 0, "trump": None, "meld": (0, 0), "counters": None,
          "renege_team": None, "forced": False}
# validate_hand's fields, as the document names them
FIELD_OF_PROBLEM = {f"{name}_{side}": name for name in ("meld", "counters") for side in range(4)}


@dataclass(frozen=True)
class ImportedEdit:
    at: str
    action: str
    before: str | None  # the hand as JSON, written the way the store writes it
    after: str | None
    summary: str


@dataclass(frozen=True)
class ImportedHand:
    seq: int
    token: str
    hand: Hand
    created_at: str
    updated_at: str
    deleted_at: str | None
    edits: tuple[ImportedEdit, ...]


@dataclass(frozen=True)
class ImportedGame:
    """A game that passed every check, its dates in UTC and its names cleaned, with the replay of its sheet."""

    number: int  # its place in the document, from 1
    rules: Rules
    teams: tuple[str, ...]  # one per side
    players: tuple[str | None, ...]  # one per seat
    first_dealer: int
    created_at: str
    finished_at: str | None
    rematch_index: int | None  # the place (from 0) of the earlier game in the document it is a rematch of
    hands: tuple[ImportedHand, ...]
    state: GameState  # the fold of its live hands: totals, winner, each live hand's result
    abandoned_at: str | None = None  # ended unfinished ("End this game unfinished"): nobody won it
    source_id: int | None = None  # its id in the file, by which a club night's table names it

    @property
    def live_hands(self) -> list[ImportedHand]:
        return [h for h in self.hands if h.deleted_at is None]


# --- reading ----------------------------------------------------------------------------------------------

class _TooLong:
    """A JSON integer of more digits than Python will read (4,300): kept as its length."""

    def __init__(self, digits: int):
        self.digits = digits


class _Twice(dict):
    """A JSON object that was given a key twice (json.loads alone would silently keep the last value)."""

    def __init__(self, pairs: list):
        super().__init__(pairs)
        seen: set = set()
        self.twice = next(k for k, _ in pairs if k in seen or seen.add(k))


def _object(pairs: list) -> dict:
    value = dict(pairs)
    return value if len(value) == len(pairs) else _Twice(pairs)


def _integer(text: str) -> int | _TooLong:
    return int(text) if len(text) <= MAX_DIGITS else _TooLong(len(text.lstrip("-")))


def _loads(raw: bytes | str):
    try:
        return json.loads(raw, object_pairs_hook=_object)
    except ValueError:
        # Perhaps only a number Python refuses to read: read again, slowly, each integer kept as its length if
        # it is long, so that the refusal can name its field. Anything else is refused again here.
        return json.loads(raw, object_pairs_hook=_object, parse_int=_integer)


def read(raw: bytes | str) -> dict:
    """The document in a file, its header checked (ours, our version, a list of games); raises ImportRefused."""
    if not raw.strip():
        raise ImportRefused("This file is empty: there is nothing in it to import. Nothing was imported.")
    try:
        document = _loads(raw)
    except RecursionError:
        raise ImportRefused("This export is damaged: it is nested deeper than any export is. "
                            "Nothing was imported.") from None
    except UnicodeDecodeError:  # before ValueError, of which it is one
        raise ImportRefused("This is not a Scorepad export: it is not JSON, nor text at all (a picture, a zip file "
                            "or another program's document?). Nothing was imported.") from None
    except json.JSONDecodeError as exc:
        raise ImportRefused(f"This is not a Scorepad export: it is not JSON (it stops making sense at line "
                            f"{exc.lineno}, column {exc.colno}). Nothing was imported.") from None
    except ValueError:
        raise ImportRefused("This is not a Scorepad export: it is not JSON. Nothing was imported.") from None
    check_header(document)
    return document


def check_header(document) -> None:
    """The document says it is a Scorepad export of the version this Scorepad reads, with a list of games."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused("This is not a Scorepad export: it does not say it is one. Nothing was imported.")
    version = document.get("version")
    if type(version) is not int or version not in READS:
        raise ImportRefused(f"This export is version {_show(version)}; this Scorepad reads versions "
                            f"{', '.join(map(str, READS[:-1]))} and {READS[-1]}. Nothing was imported.")
    if not isinstance(document.get("games"), list):
        raise ImportRefused("This export is damaged: it has no list of games. Nothing was imported.")
    try:
        _fields(document, DOCUMENT_FIELDS, "an export", optional=("exported_at", "club_nights", "club_seasons"))
        for field, since in (("club_nights", 3), ("club_seasons", 4)):
            if field in document and version < since:
                raise _Wrong(f"{field} came with version {since}, but this export says it is version {version}.")
        _list(document["games"], "games", MAX_GAMES)
    except _Wrong as wrong:
        raise ImportRefused(f"This export is damaged: {wrong} Nothing was imported.") from None


# --- checking ---------------------------------------------------------------------------------------------

def check(document, now: datetime) -> list[ImportedGame]:
    """Every game of `document` checked as the forms would check it, and replayed. `now` (aware) bounds the
    dates: none may be later than a day after it. Raises ImportRefused naming the game, the hand, the field."""
    check_header(document)
    checker = _Checker(now + timedelta(days=1))
    if "exported_at" in document:
        try:
            checker.moment(document["exported_at"], "exported_at")
        except _Wrong as wrong:
            raise ImportRefused(f"This export is damaged: {wrong} Nothing was imported.") from None
    return [checker.game(data, number) for number, data in enumerate(document["games"], start=1)]


class _Wrong(Exception):
    """What is wrong with a field, in words; the caller says where (game, hand, edit)."""


def _refused(where: str, wrong: _Wrong) -> ImportRefused:
    return ImportRefused(f"{where}: {wrong} Nothing was imported.")


class _Checker:
    """One pass over a document: remembers what must be unique across it (game ids, hand tokens)."""

    def __init__(self, latest: datetime):
        self.latest = latest
        self.ids: dict[int, int] = {}  # a game's id in the file -> its place in the document
        self.tokens: set[str] = set()
        # Answers already given: a hand's dates are often one moment, and a hand's history often repeats it.
        self.moments: dict[str, str] = {}
        self.snapshots: dict[str, str] = {}  # for the game being checked (its rules)

    def game(self, data, number: int) -> ImportedGame:
        where = f"Game {number}"
        try:
            _fields(data, GAME_FIELDS, "a game", optional=GAME_ADDED)
            source_id = self.game_id(data["id"])
            rules = _rules(data["rules"])
            teams, players = _teams(data["teams"], rules.sides), _players(data["players"], rules.players)
            first_dealer = _choice(data["first_dealer"], "first_dealer", tuple(range(rules.players)))
            created_at = self.moment(data["created_at"], "created_at")
            finished_at = None if data["finished_at"] is None else self.moment(data["finished_at"], "finished_at")
            abandoned_at = self.abandoned_at(data.get("abandoned_at"))
            rematch_of = None if data["rematch_of"] is None else _whole(data["rematch_of"], "rematch_of", 1, MAX_ID)
            totals = _pair(data["totals"], "totals", sides=rules.sides)
            winner = None if data["winner"] is None else _choice(data["winner"], "winner", tuple(range(rules.sides)))
            listed = _list(data["hands"], "hands", MAX_HANDS)
        except _Wrong as wrong:
            raise _refused(where, wrong) from None
        self.snapshots = {}
        hands = tuple(self.hand(rules, hand, seq, where) for seq, hand in enumerate(listed, start=1))
        state = _replay(rules, hands, teams, where)
        try:
            _agrees(state, totals, winner, finished_at)
            if abandoned_at is not None and winner is not None:
                raise _Wrong("abandoned_at must be null for a game that was won: only a game nobody has won is "
                             "ended unfinished.")
        except _Wrong as wrong:
            raise _refused(where, wrong) from None
        self.ids[source_id] = number - 1
        # a rematch of a game that is not in the file (an export of one game) is simply a game
        return ImportedGame(number, rules, teams, players, first_dealer, created_at, finished_at,
                            self.ids.get(rematch_of), hands, state, abandoned_at, source_id)

    def abandoned_at(self, value) -> str | None:
        """When the game was ended unfinished, or None (left out by a file from before games could be)."""
        return None if value is None else self.moment(value, "abandoned_at")

    def game_id(self, value) -> int:
        source_id = _whole(value, "id", 1, MAX_ID)
        if source_id in self.ids:
            raise _Wrong(f"id {source_id} is also the id of game {self.ids[source_id] + 1}; each game has its own.")
        return source_id

    def hand(self, rules: Rules, data, seq: int, game: str) -> ImportedHand:
        where = f"{game}, hand {seq}"
        try:
            _fields(data, HAND_FIELDS, "a hand", optional=("dix_only", "meld_counted"))
            if _whole(data["seq"], "seq", 1, MAX_HANDS) != seq:
                raise _Wrong(f"seq is {data['seq']}, but it is hand {seq} of the list: hands are numbered "
                             "1, 2, 3 … in order, each number once.")
            token = self.token(data["token"])
            # a live hand is judged by the core when its game is replayed: once is enough
            hand = _play(rules, data, validate=data["deleted_at"] is not None)
            created_at = self.moment(data["created_at"], "created_at")
            updated_at = self.moment(data["updated_at"], "updated_at")
            deleted_at = None if data["deleted_at"] is None else self.moment(data["deleted_at"], "deleted_at")
            # The hand as its history writes it: a snapshot that is exactly this text is this hand, judged here or
            # when the game is replayed, and need not be read and judged again (an export's last one always is).
            written = json.dumps(hand_to_history(hand))
            edits = tuple(self.edit(rules, edit, n, written)
                          for n, edit in enumerate(_list(data["edits"], "edits", MAX_EDITS), start=1))
        except _Wrong as wrong:
            raise _refused(where, wrong) from None
        return ImportedHand(seq, token, hand, created_at, updated_at, deleted_at, edits)

    def token(self, value) -> str:
        token = _text(value, "token", MAX_TOKEN)
        if not token:
            raise _Wrong("token is empty; every hand has one (it keeps a retried save from counting twice).")
        if token in self.tokens:
            raise _Wrong(f"token {_show(token)} is also another hand's; each hand has its own.")
        self.tokens.add(token)
        return token

    def edit(self, rules: Rules, data, n: int, written: str | None = None) -> ImportedEdit:
        try:
            _fields(data, EDIT_FIELDS, "an edit")
            at = self.moment(data["at"], "at")
            action = data["action"]
            if not isinstance(action, str) or action not in ACTIONS:
                raise _Wrong(f"action must be one of {', '.join(ACTIONS)}, not {_show(action)}.")
            before = self.snapshot(rules, data["before"], "before", written)
            after = self.snapshot(rules, data["after"], "after", written)
            if action == "recorded" and before is not None:
                raise _Wrong("before must be null: there was no hand before it was recorded.")
            if action == "deleted" and after is not None:
                raise _Wrong("after must be null: there is no hand after it was deleted.")
            if action == "restored" and before is not None:
                raise _Wrong("before must be null: the hand was off the sheet before it was restored.")
            summary = _text(data["summary"], "summary", MAX_SUMMARY)
        except _Wrong as wrong:
            raise _Wrong(f"a broken history: edit {n}: {wrong}") from None
        return ImportedEdit(at, action, before, after, summary)

    def snapshot(self, rules: Rules, value, field: str, written: str | None = None) -> str | None:
        if value is None:
            return None
        if value == written:
            return written
        if not isinstance(value, str):  # nor a key to remember it by
            return _snapshot(rules, value, field)
        if value not in self.snapshots:
            self.snapshots[value] = _snapshot(rules, value, field)
        return self.snapshots[value]

    def moment(self, value, field: str) -> str:
        """A date and time with its zone, between 2000 and tomorrow, written as the app writes one: UTC, to the
        second (a date past year 9999 in UTC would break every page that shows it)."""
        if isinstance(value, str) and value in self.moments:
            return self.moments[value]
        example = "like 2026-11-20T19:30:00+00:00"
        if not isinstance(value, str):
            raise _Wrong(f"{field} must be a date and time {example}, not {_show(value)}.")
        try:
            moment = datetime.fromisoformat(value) if len(value) <= MAX_STAMP else None
        except ValueError:
            moment = None
        if moment is None:
            raise _Wrong(f"{field} {_show(value)} is not a date and time {example}.")
        if moment.utcoffset() is None:
            raise _Wrong(f"{field} {_show(value)} has no time zone (add one, {example}).")
        if not EARLIEST <= moment <= self.latest:  # comparing is safe; converting 9999-12-31-14:00 is not
            raise _Wrong(f"{field} {_show(value)} is not between {EARLIEST:%Y-%m-%d} and "
                         f"{self.latest:%Y-%m-%d}.")
        self.moments[value] = moment.astimezone(UTC).isoformat(timespec="seconds")
        return self.moments[value]


# --- a hand ---------------------------------------------------------------------------------------------

def _play(rules: Rules, data: dict, validate: bool = True) -> Hand:
    """The hand in `data` (the document's fields: meld and counters as pairs), as the hand form would take it:
    the core's rules (unless the caller has them judged by a replay), and the bidder's seat on the bidding team."""
    kind = data["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        raise _Wrong(f"kind must be one of {', '.join(KINDS)}, not {_show(kind)}.")
    sides, seats = tuple(range(rules.sides)), tuple(range(rules.players))
    unbid = not rules.bidding and kind != "redeal"  # nobody bids: no bidder and no bid
    bidder = None if unbid and data["bidder"] is None else _choice(data["bidder"], "bidder", sides)
    bidder_seat = None if data["bidder_seat"] is None else _choice(data["bidder_seat"], "bidder_seat", seats)
    trump = data["trump"]
    if not (trump is None or isinstance(trump, str)) or trump not in TRUMPS:
        raise _Wrong(f"trump must be null or one of S, H, D, C, not {_show(trump)}.")
    forced = data["forced"]
    if not isinstance(forced, bool):
        raise _Wrong(f"forced must be true or false, not {_show(forced)}.")
    bid = None if unbid and data["bid"] is None else _int(data["bid"], "bid")
    hand = Hand(bidder, bid, _pair(data["meld"], "meld", sides=rules.sides),
                None if data["counters"] is None else _pair(data["counters"], "counters", sides=rules.sides), kind,
                None if data["renege_team"] is None else _choice(data["renege_team"], "renege_team", sides),
                forced, trump, bidder_seat,
                _flags(data.get("dix_only", [False] * rules.sides), "dix_only", rules.sides),
                _counted(rules, data.get("meld_counted")))
    if validate:
        _judged(validate_hand(rules, hand))
    if kind == "redeal":
        _is_redeal(hand, rules.sides)
    elif bidder_seat is not None and team_of(bidder_seat, rules.sides) != bidder:
        raise _Wrong(f"bidder_seat {bidder_seat} sits on {team_in_data(team_of(bidder_seat, rules.sides))}, but "
                     f"the bidding team (bidder) is {team_in_data(bidder)}.")
    return hand


_SIDES_WORDS = {2: "two", 3: "three", 4: "four"}


def _flags(value, field: str, sides: int = 2) -> tuple[bool, ...]:
    flags = _list(value, field, sides, exactly=True)
    if not all(isinstance(flag, bool) for flag in flags):
        raise _Wrong(f"{field} must be {_SIDES_WORDS.get(sides, sides)} of true or false, one for each side, "
                     f"not {_show(value)}.")
    return tuple(flags)


def _counted(rules: Rules, value) -> tuple | None:
    """What the meld calculator counted for each side, checked as the calculator counts: a trump, at most a hand a
    player of the side, cards the game's deck deals."""
    try:
        counts = counted.from_json(value, rules.sides)
        for count in counts or ():
            wrong = count and counted.problem(count, rules.meld_table, rules.players, rules.players_per_side)
            if wrong:
                raise counted.CountRefused(wrong)
    except counted.CountRefused as refused:
        raise _Wrong(f"meld_counted: {refused}") from None
    return counts


def _judged(problems: dict[str, str]) -> None:
    """The core's first complaint about a hand, if any, under the document's name for the field."""
    if problems:
        field, message = next(iter(problems.items()))
        raise _Wrong(f"{FIELD_OF_PROBLEM.get(field, field)}: {message}")


def _is_redeal(hand: Hand, sides: int = 2) -> None:
    values = {"bidder": hand.bidder, "bidder_seat": hand.bidder_seat, "bid": hand.bid, "trump": hand.trump,
              "meld": hand.meld, "counters": hand.counters, "renege_team": hand.renege_team, "forced": hand.forced}
    for name, blank in {**REDEAL, "meld": (0,) * sides}.items():
        if values[name] != blank or type(values[name]) is not type(blank):
            raise _Wrong(f"{name} must be {json.dumps(blank)} in a redeal: nobody bid and nobody scored.")


def _snapshot(rules: Rules, value, field: str) -> str:
    """A hand in its history: JSON of a hand that is valid under the game's rules, rewritten the way the store
    writes it."""
    text = _text(value, field, MAX_SNAPSHOT, plain=False)  # JSON may be laid out on lines; it is written anew
    try:
        columns = _loads(text)
    except (ValueError, RecursionError):
        raise _Wrong(f"{field} must be null or a hand written as JSON.") from None
    try:
        _fields(columns, SNAPSHOT_FIELDS + SIDE_COLUMNS[:2 * (rules.sides - 2)], "a hand",
                optional=tuple(ADDED_COLUMNS))
        forced = _choice(columns["forced"], "forced", (0, 1))
        mask = _choice(columns.get("dix_only", 0), "dix_only", tuple(range(2 ** rules.sides)))
        columns = {**columns, "dix_only": [bool(mask >> side & 1) for side in range(rules.sides)]}
        pairs = {name: [columns[f"{name}_{side}"] for side in range(rules.sides)] for name in ("meld", "counters")}
        counters = None if pairs["counters"] == [None] * rules.sides else pairs["counters"]
        kept = columns.get("meld_counted")
        try:  # a column's JSON, written as text
            kept = None if kept is None else json.loads(_text(kept, "meld_counted", MAX_SNAPSHOT, plain=False))
        except (ValueError, RecursionError):
            raise _Wrong("meld_counted must be null or JSON.") from None
        hand = _play(rules, {**columns, "meld": pairs["meld"], "counters": counters, "forced": bool(forced),
                             "meld_counted": kept})
    except _Wrong as wrong:
        raise _Wrong(f"{field}: {wrong}") from None
    return json.dumps(hand_to_history(hand))


# --- a game ---------------------------------------------------------------------------------------------

def _rules(data) -> Rules:
    """The game's rule set, every option of the right kind, as consistent as the new-game form makes one."""
    try:
        _fields(data, RULE_TEXTS + RULE_NUMBERS + RULE_OPTIONAL_NUMBERS + RULE_FLAGS + ("bid_steps",), "a rule set",
                optional=RULE_ADDED + tuple(SEATING_OF_VERSION_1))
        missing = [name for name in SEATING_OF_VERSION_1 if name not in data]
        if len(missing) == len(SEATING_OF_VERSION_1):
            data = {**data, **SEATING_OF_VERSION_1}  # a version 1 file: two teams of two, as every game was then
        elif missing:
            raise _Wrong(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing: a rule set gives "
                         "its whole seating (sides, players_per_side, bidding) or none of it.")
        values = {name: _text(data[name], name, MAX_RULE_TEXT) for name in RULE_TEXTS if name in data}
        for name in RULE_NUMBERS:
            values[name] = _whole(data[name], name, -MAX_RULE_NUMBER, MAX_RULE_NUMBER)
        for name in RULE_OPTIONAL_NUMBERS:
            if name not in data:
                continue
            value = data[name]
            values[name] = None if value is None else _whole(value, name, -MAX_RULE_NUMBER, MAX_RULE_NUMBER)
        for name in RULE_FLAGS:
            if not isinstance(data[name], bool):
                raise _Wrong(f"{name} must be true or false, not {_show(data[name])}.")
            values[name] = data[name]
        values["bid_steps"] = [_pair(step, "bid_steps", -MAX_RULE_NUMBER, MAX_RULE_NUMBER)
                               for step in _list(data["bid_steps"], "bid_steps", MAX_BID_STEPS)]
        _table_fits_deck(values)  # the core refuses it too, in the new-game form's words: the file's come first
        return Rules.from_dict(values)
    except InvalidRules as exc:
        raise _Wrong(f"rules that make no sense: {exc}") from None
    except _Wrong as wrong:
        raise _Wrong(f"rules that make no sense: {wrong}") from None


def _table_fits_deck(values: dict) -> None:
    deck = DECK_OF_MELD_TABLE.get(values["meld_table"])
    if deck is not None and values["deck"] in DECK_OF_MELD_TABLE.values() and deck != values["deck"]:
        raise _Wrong(f"meld_table {_show(values['meld_table'])} is for a {deck} deck, but deck is "
                     f"{_show(values['deck'])}.")


def _teams(value, sides: int = 2) -> tuple[str, ...]:
    names = _list(value, "teams", sides, exactly=True)
    teams = tuple(_name(name, f"teams[{i}]") for i, name in enumerate(names))
    for i, team in enumerate(teams):
        if team is None:
            raise _Wrong(f"teams[{i}] is empty; every team has a name.")
    seen: dict[str, int] = {}
    for i, team in enumerate(teams):
        if name_key(team) in seen:
            raise _Wrong(f"teams[{seen[name_key(team)]}] and teams[{i}] are both {_show(team)}: "
                         f"the {'two ' if sides == 2 else ''}teams need different names.")
        seen[name_key(team)] = i
    return teams


def _players(value, seats: int = 4) -> tuple:
    players = tuple(_name(name, f"players[{i}]")
                    for i, name in enumerate(_list(value, "players", seats, exactly=True)))
    seen: dict[str, int] = {}
    for seat, name in enumerate(players):
        if name is None:
            continue
        if name_key(name) in seen:
            raise _Wrong(f"players[{seen[name_key(name)]}] and players[{seat}] are both {_show(name)}: "
                         "a player sits in one seat only.")
        seen[name_key(name)] = seat
    return players


def _name(value, field: str) -> str | None:
    """A team's or a player's name, cleaned as the forms clean one; None for a seat left empty."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Wrong(f"{field} must be a name, not {_show(value)}.")
    name = clean_name(value[:MAX_SNAPSHOT])  # a name a thousand times too long is too long already
    problem = name_problem(name, field)
    if problem:
        raise _Wrong(problem)
    return name or None


def _replay(rules: Rules, hands: tuple[ImportedHand, ...], teams: tuple[str, str], game: str) -> GameState:
    """The fold of the live hands, which judges each of them under the game's rules."""
    live = [h for h in hands if h.deleted_at is None]
    try:
        return play_game(rules, [h.hand for h in live], names=teams)
    except InvalidHand as exc:
        hand, problems = live[exc.hand_number - 1], exc.errors
    except GameOver:
        hand = live[_first_after_win(rules, [h.hand for h in live])]
        raise _refused(f"{game}, hand {hand.seq}", _Wrong("it comes after the hand that won the game; a won game "
                                                          "takes no more hands.")) from None
    try:
        _judged(problems)
    except _Wrong as wrong:
        raise _refused(f"{game}, hand {hand.seq}", wrong) from None


def _first_after_win(rules: Rules, hands: list[Hand]) -> int:
    """The index of the first hand after the game was won, for a list that play_game refused with GameOver:
    a binary search, so that a long game costs a few replays, not one per hand."""
    low, high = 1, len(hands)  # the shortest refused prefix is in [low, high]
    while low < high:
        middle = (low + high) // 2
        try:
            play_game(rules, hands[:middle])
            low = middle + 1
        except GameOver:
            high = middle
    return low - 1


def _agrees(state: GameState, totals: tuple[int, ...], winner: int | None, finished_at: str | None) -> None:
    """The file's summary of a game is what its hands add up to."""
    if tuple(totals) != state.totals:
        raise _Wrong(f"the sheet adds up to {' : '.join(f'{t:,}' for t in state.totals)}, but totals says "
                     f"{' : '.join(f'{t:,}' for t in totals)}.")
    if winner != state.winner:
        said = "nobody" if winner is None else team_in_data(winner)
        won = "nobody has won yet" if state.winner is None else f"{team_in_data(state.winner)} won"
        raise _Wrong(f"winner says {said}, but by its hands {won}.")
    if (finished_at is None) != (winner is None):
        raise _Wrong("finished_at must be null while nobody has won, and the time of the win once a team has.")


# --- fields ---------------------------------------------------------------------------------------------

def _fields(value, names: tuple, what: str, optional: tuple = ()) -> None:
    """`value` is a JSON object with exactly the fields `names` (those in `optional` may be left out)."""
    if type(value) is dict and len(value) == len(names) and all(name in value for name in names):
        return  # the usual case, said first because it is met a million times in a big export
    if not isinstance(value, dict):
        raise _Wrong(f"this is {_show(value)}, not {what} with its fields.")
    if isinstance(value, _Twice):
        raise _Wrong(f"the field {_show(value.twice)} is given twice in {what}; each field is given once.")
    missing = [name for name in names if name not in value and name not in optional]
    if missing:
        raise _Wrong(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing: this does not have "
                     f"the fields of {what}.")
    unknown = [key for key in value if key not in names]
    if unknown:
        raise _Wrong(f"{_show(unknown[0])} is not one of the fields of {what}.")


def _list(value, field: str, most: int, exactly: bool = False) -> list:
    if not isinstance(value, (list, tuple)):  # tuples: a document made in memory, as export_games makes one
        raise _Wrong(f"{field} must be a list, not {_show(value)}.")
    if exactly and len(value) != most:
        raise _Wrong(f"{field} must hold {most}, not {len(value):,}.")
    if len(value) > most:
        raise _Wrong(f"{field} holds {len(value):,}; an import takes at most {most:,}.")
    return value


def _int(value, field: str) -> int:
    """A JSON integer of at most MAX_DIGITS digits (true and false are not numbers here, whatever Python
    thinks; nor are 50.0 and NaN)."""
    if type(value) is int and -_HUGE < value < _HUGE:
        return value
    if isinstance(value, _TooLong) or (type(value) is int and abs(value) >= _HUGE):
        digits = value.digits if isinstance(value, _TooLong) else len(str(abs(value)))
        raise _Wrong(f"{field} is a number of {digits:,} digits; no Scorepad number has more than {MAX_DIGITS} "
                     "digits.")
    raise _Wrong(f"{field} must be a whole number, not {_show(value)}.")


def _whole(value, field: str, low: int, high: int) -> int:
    if type(value) is int and low <= value <= high:
        return value
    try:
        return whole_number(_int(value, field), low=low, high=high, what=field)
    except NotANumber as exc:
        raise _Wrong(str(exc)) from None


def _pair(value, field: str, low: int = -MAX_ID, high: int = MAX_ID, sides: int = 2) -> tuple[int, ...]:
    """Whole numbers, one for each side (the hand's rules judge their range where they have one)."""
    return tuple(_whole(v, field, low, high) for v in _list(value, field, sides, exactly=True))


def _choice(value, field: str, options: tuple[int, ...]) -> int:
    if type(value) is not int or value not in options:
        raise _Wrong(f"{field} must be one of {', '.join(map(str, options))}, not {_show(value)}.")
    return value


def _text(value, field: str, most: int, plain: bool = True) -> str:
    """Text that may be stored and shown: not too long, and (when `plain`) no invisible or control characters
    (a lone surrogate cannot even be written to the database)."""
    if not isinstance(value, str):
        raise _Wrong(f"{field} must be text, not {_show(value)}.")
    if len(value) > most:
        raise _Wrong(f"{field} is {len(value):,} characters long; the most is {most:,}.")
    if plain and not value.isprintable() and any(map(_hidden, value)):
        raise _Wrong(f"{field} holds an invisible or control character.")
    return value


def _hidden(char: str) -> bool:
    # the zero-width joiner stays, as in names: emoji are built with it
    return char != "\u200d" and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn")


def _show(value) -> str:
    """A stranger's value, short and safe to put in a sentence."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, _TooLong) or (isinstance(value, int) and abs(value) >= _HUGE):
        return "a number of many digits"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value[:40] + ("…" if len(value) > 40 else ""))  # repr escapes what is invisible
    return {list: "a list", dict: "an object", _Twice: "an object"}.get(type(value), "something else")
