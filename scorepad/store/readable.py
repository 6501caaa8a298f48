"""Whether every row of a database reads as the pages read it: a backup can pass SQLite's own checks (tables,
columns, integrity, foreign keys) and still hold a game whose rules are not a rule set, a time that is not a
time or a club table seated with an entrant who is not there. A restore reads every row through the code the
pages use before it accepts a backup, and names the first one that does not read.
"""

from __future__ import annotations

import json
from datetime import datetime

from ..core import house_time
from ..core.club import SPECIALS, TIE_BREAKS, round_rules, time_up
from ..core.club.movement import ClubError
from .clubs import _night
from .connection import rows
from .games import _GAME_SELECT, _game, _stored

_BATCH = 2000  # rows read at a time: years of hands never sit in memory at once


class Unreadable(ValueError):
    """A row the pages could not read; the message names it and says what is wrong."""


def first_unreadable(db) -> str | None:
    """The first row that does not read as the pages read it, in words ("game 12: its rules are not a rule set
    (...)"), or None when every row reads."""
    try:
        for check in (_players, _games, _hands, _hand_edits, _nights, _club_tables, _result_changes, _seasons,
                      _specials):
            check(db)
    except Unreadable as found:
        return str(found)
    return None


def _batches(db, sql: str, key: str = "id"):
    """Every row of `sql` (a SELECT with no WHERE), in order of `key`, a batch at a time."""
    last = 0
    while True:
        found = rows(db, f"{sql} WHERE {key} > ? ORDER BY {key} LIMIT {_BATCH}", [last])
        yield from found
        if len(found) < _BATCH:
            return
        last = found[-1]["id"]


def _time(what: str, value, optional: bool = True) -> None:
    """A stored time as the pages read it (`datetime.fromisoformat`, then the house's clock)."""
    if value is None and optional:
        return
    try:
        house_time.local(datetime.fromisoformat(value))
    except (TypeError, ValueError, OverflowError):
        raise Unreadable(f"{what}: {value!r} is not a time") from None


def _players(db) -> None:
    for row in _batches(db, "SELECT * FROM players"):
        if not isinstance(row["name"], str) or not row["name"].strip():
            raise Unreadable(f"player {row['id']}: the name {row['name']!r} is not a name")


def _games(db) -> None:
    for row in _batches(db, _GAME_SELECT, key="g.id"):
        what = f"game {row['id']}"
        try:
            game = _game(row)
        except Exception as exc:  # noqa: BLE001 - what the page would have met, in words
            raise Unreadable(f"{what}: its rules are not a rule set Scorepad knows ({_said(exc)})") from None
        for column in ("created_at", "finished_at", "abandoned_at"):
            _time(f"{what}'s {column}", row.get(column), optional=column != "created_at")
        if not 0 <= game.first_dealer < game.rules.players:
            raise Unreadable(f"{what}: its first dealer, seat {game.first_dealer}, is not one of its "
                             f"{game.rules.players} seats")
        if game.winner is not None and not 0 <= game.winner < game.rules.sides:
            raise Unreadable(f"{what}: its winner, side {game.winner}, is not one of its {game.rules.sides} sides")


def _hands(db) -> None:
    for row in _batches(db, "SELECT * FROM hands"):
        what = f"hand {row['id']} of game {row['game_id']}"
        try:
            _stored(row)
        except Exception as exc:  # noqa: BLE001
            raise Unreadable(f"{what}: it does not read as a hand ({_said(exc)})") from None
        for column in ("created_at", "updated_at", "deleted_at"):
            _time(f"{what}'s {column}", row[column], optional=column == "deleted_at")


def _hand_edits(db) -> None:
    for row in _batches(db, "SELECT * FROM hand_edits"):
        what = f"line {row['id']} of the history of hand {row['hand_id']}"
        _time(what, row["at"], optional=False)
        for side in ("before", "after"):
            try:
                edit_side(row[side])
            except ValueError as exc:
                raise Unreadable(f"{what}: the hand {side} the change is not readable ({exc})") from None


def edit_side(text: str | None) -> dict:
    """A hand as a line of its history keeps it (before or after a change): a JSON object, {} for none. Raises
    ValueError when the text is not one."""
    if not text:
        return {}
    side = json.loads(text)
    if not isinstance(side, dict):
        raise ValueError(f"{type(side).__name__} where a hand's fields belong")
    return side


def _nights(db) -> None:
    for row in _batches(db, "SELECT * FROM club_nights"):
        what = f"club night {row['id']}"
        try:
            night = _night(row)
        except Exception as exc:  # noqa: BLE001
            raise Unreadable(f"{what}: its rules are not a rule set Scorepad knows ({_said(exc)})") from None
        for column in ("created_at", "round_started_at", "closed_at"):
            _time(f"{what}'s {column}", row[column], optional=column != "created_at")
        try:
            round_rules(night.rules, night.round_end, night.round_size)
            time_up(night.round_started_at, night.round_end, night.round_size)
        except (ClubError, ValueError, OverflowError) as exc:
            raise Unreadable(f"{what}: its rounds cannot be played ({_said(exc)})") from None
        if not 0 <= night.round <= night.rounds:
            raise Unreadable(f"{what}: it is at round {night.round} of {night.rounds}")
        if any(key not in TIE_BREAKS for key in night.tie_breaks):
            raise Unreadable(f"{what}: it ranks by {','.join(night.tie_breaks)!r}, not by "
                             f"{', '.join(TIE_BREAKS)}")


def _club_tables(db) -> None:
    entrants = {}
    for night_id, number in db.execute("SELECT night_id, number FROM club_entrants"):
        entrants.setdefault(night_id, set()).add(number)
    rounds = dict(db.execute("SELECT id, round FROM club_nights").fetchall())
    for row in _batches(db, "SELECT * FROM club_tables"):
        what = f"table {row['table_no']} of round {row['round']} of club night {row['night_id']}"
        if not 1 <= row["round"] <= rounds.get(row["night_id"], 0):
            raise Unreadable(f"{what}: the night is at round {rounds.get(row['night_id'], 0)}")
        for seat in range(4):
            if row[f"entrant_{seat}"] not in entrants.get(row["night_id"], ()):
                raise Unreadable(f"{what}: entrant {row[f'entrant_{seat}']} is seated there, but the night has "
                                 "no entrant of that number")
        for column in ("ended_at", "confirmed_at"):
            _time(f"{what}'s {column}", row[column])


def _result_changes(db) -> None:
    for row in _batches(db, "SELECT * FROM club_result_changes"):
        _time(f"change {row['id']} to the result of club table {row['table_id']}", row["at"], optional=False)


def _seasons(db) -> None:
    for row in _batches(db, "SELECT * FROM club_seasons"):
        what = f"season {row['id']}"
        _time(f"{what}'s started_at", row["started_at"], optional=False)
        unknown = [k for k in row["specials"].split(",") if k and k not in SPECIALS]
        if unknown:
            raise Unreadable(f"{what}: it tallies {', '.join(unknown)!r}, not one of {', '.join(SPECIALS)}")


def _specials(db) -> None:
    for row in _batches(db, "SELECT * FROM club_specials"):
        _time(f"special {row['id']} of club night {row['night_id']}", row["at"], optional=False)


def _said(exc: Exception) -> str:
    return f"{exc.__class__.__name__}: {exc}"
