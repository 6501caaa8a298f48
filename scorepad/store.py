"""All SQL lives here. Rows go in and out as the core's dataclasses; the schema is sqlite-utils migrations.

Every change runs in one transaction. Recording a hand takes the write lock first (BEGIN IMMEDIATE), so the
check "is this still hand N?" and the insert cannot interleave with another phone's.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime

import sqlite_utils
from sqlite_utils import Migrations

from .rules import Rules
from .scoring import Hand

migrations = Migrations("scorepad")


@migrations(transactional=False)
def m001_wal(db: sqlite_utils.Database) -> None:
    # WAL lets phones read the sheet while a hand is written; it cannot be switched inside a transaction.
    db.execute("PRAGMA journal_mode=WAL")


@migrations()
def m002_games_and_hands(db: sqlite_utils.Database) -> None:
    db.executescript("""
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        created_at TEXT NOT NULL
    ) STRICT;
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        created_at TEXT NOT NULL,
        rules TEXT NOT NULL,                    -- the complete Rules the game started with, as JSON
        team_0 TEXT NOT NULL,
        team_1 TEXT NOT NULL,
        seat_0 INTEGER REFERENCES players(id),  -- seats clockwise; 0 and 2 are team 0
        seat_1 INTEGER REFERENCES players(id),
        seat_2 INTEGER REFERENCES players(id),
        seat_3 INTEGER REFERENCES players(id),
        first_dealer INTEGER NOT NULL CHECK (first_dealer BETWEEN 0 AND 3),
        rematch_of INTEGER REFERENCES games(id),
        -- a summary of the sheet, kept with every change, so lists need not re-score every game
        total_0 INTEGER NOT NULL DEFAULT 0,
        total_1 INTEGER NOT NULL DEFAULT 0,
        hands_count INTEGER NOT NULL DEFAULT 0,
        winner INTEGER CHECK (winner IN (0, 1)),
        finished_at TEXT,
        version INTEGER NOT NULL DEFAULT 0      -- bumped on every change: the sheet's ETag
    ) STRICT;
    CREATE INDEX games_by_state ON games (finished_at, created_at);
    CREATE TABLE hands (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,                   -- order of play; a deleted hand keeps its place in history
        token TEXT NOT NULL UNIQUE,             -- the form's one-time token: a retried POST stores nothing new
        kind TEXT NOT NULL CHECK (kind IN ('played', 'throw_in', 'no_marriage', 'renege', 'redeal')),
        bidder INTEGER NOT NULL CHECK (bidder IN (0, 1)),
        bidder_seat INTEGER CHECK (bidder_seat BETWEEN 0 AND 3),
        bid INTEGER NOT NULL,
        trump TEXT CHECK (trump IN ('S', 'H', 'D', 'C')),
        meld_0 INTEGER NOT NULL,
        meld_1 INTEGER NOT NULL,
        counters_0 INTEGER,
        counters_1 INTEGER,
        renege_team INTEGER CHECK (renege_team IN (0, 1)),
        forced INTEGER NOT NULL DEFAULT 0 CHECK (forced IN (0, 1)),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT,
        UNIQUE (game_id, seq)
    ) STRICT;
    CREATE TABLE hand_edits (
        id INTEGER PRIMARY KEY,
        hand_id INTEGER NOT NULL REFERENCES hands(id),
        at TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('recorded', 'edited', 'deleted')),
        before TEXT,                            -- the hand as JSON, before and after the change
        after TEXT,
        summary TEXT NOT NULL                   -- what changed, in words
    ) STRICT;
    CREATE INDEX hand_edits_by_hand ON hand_edits (hand_id, id);
    """)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def connect(path: str) -> sqlite_utils.Database:
    conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 10000")
    return db


def migrate(path: str) -> None:
    db = connect(path)
    try:
        migrations.apply(db)
    finally:
        db.close()


@contextlib.contextmanager
def write_lock(db: sqlite_utils.Database):
    """One transaction holding SQLite's write lock from its first statement (BEGIN IMMEDIATE)."""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.rollback()
        raise
    else:
        db.conn.execute("COMMIT")


# --- games --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameRecord:
    id: int
    created_at: str
    rules: Rules
    teams: tuple[str, str]
    players: tuple[str | None, str | None, str | None, str | None]
    first_dealer: int
    version: int
    totals: tuple[int, int]
    hands_count: int
    winner: int | None
    finished_at: str | None
    rematch_of: int | None

    @property
    def etag(self) -> str:
        return f'"g{self.id}-v{self.version}"'

    @property
    def has_players(self) -> bool:
        return any(self.players)


def _player_id(db, name: str | None) -> int | None:
    if not name:
        return None
    row = db.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()
    if row:
        return row[0]
    return db["players"].insert({"name": name, "created_at": now()}).last_pk


def create_game(db, rules: Rules, teams: tuple[str, str], players, first_dealer: int,
                rematch_of: int | None = None) -> int:
    with db.atomic():
        seat_ids = [_player_id(db, name) for name in players]
        return db["games"].insert({
            "created_at": now(),
            "rules": json.dumps(rules.to_dict()),
            "team_0": teams[0], "team_1": teams[1],
            **{f"seat_{i}": seat_ids[i] for i in range(4)},
            "first_dealer": first_dealer,
            "rematch_of": rematch_of,
        }).last_pk


_GAME_SELECT = """
SELECT g.*, p0.name AS name_0, p1.name AS name_1, p2.name AS name_2, p3.name AS name_3
FROM games g
LEFT JOIN players p0 ON p0.id = g.seat_0 LEFT JOIN players p1 ON p1.id = g.seat_1
LEFT JOIN players p2 ON p2.id = g.seat_2 LEFT JOIN players p3 ON p3.id = g.seat_3
"""


def _game(row: dict) -> GameRecord:
    return GameRecord(
        id=row["id"], created_at=row["created_at"], rules=Rules.from_dict(json.loads(row["rules"])),
        teams=(row["team_0"], row["team_1"]),
        players=tuple(row[f"name_{i}"] for i in range(4)),
        first_dealer=row["first_dealer"], version=row["version"],
        totals=(row["total_0"], row["total_1"]), hands_count=row["hands_count"],
        winner=row["winner"], finished_at=row["finished_at"], rematch_of=row["rematch_of"],
    )


def _rows(db, sql: str, params=()) -> list[dict]:
    cursor = db.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


MAX_ID = 2**63 - 1  # SQLite's largest integer: a larger id in a URL is simply not there


def load_game(db, game_id: int) -> GameRecord | None:
    if not 0 < game_id <= MAX_ID:
        return None
    rows = _rows(db, _GAME_SELECT + " WHERE g.id = ?", [game_id])
    return _game(rows[0]) if rows else None


def game_version(db, game_id: int) -> int | None:
    if not 0 < game_id <= MAX_ID:
        return None
    row = db.execute("SELECT version FROM games WHERE id = ?", [game_id]).fetchone()
    return row[0] if row else None


def list_games(db, finished: bool, limit: int = 20) -> list[GameRecord]:
    where = "g.finished_at IS NOT NULL" if finished else "g.finished_at IS NULL"
    order = "g.finished_at DESC" if finished else "g.created_at DESC"
    return [_game(r) for r in _rows(db, f"{_GAME_SELECT} WHERE {where} ORDER BY {order}, g.id DESC LIMIT ?",
                                    [limit])]


def player_names(db) -> list[str]:
    return [r[0] for r in db.execute("SELECT name FROM players ORDER BY name COLLATE NOCASE").fetchall()]


def save_summary(db, game_id: int, totals, hands_count: int, winner: int | None) -> None:
    """Keep the game's summary in step with its sheet, and bump its version (inside the caller's transaction)."""
    db.execute(
        """UPDATE games SET total_0 = ?, total_1 = ?, hands_count = ?, winner = ?,
           finished_at = CASE WHEN ? IS NULL THEN NULL ELSE COALESCE(finished_at, ?) END,
           version = version + 1 WHERE id = ?""",
        [totals[0], totals[1], hands_count, winner, winner, now(), game_id])


# --- hands ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StoredHand:
    id: int
    seq: int
    hand: Hand
    trump: str | None
    bidder_seat: int | None
    created_at: str
    updated_at: str
    edits: int = 0  # changes after it was recorded


@dataclass(frozen=True)
class HandEntry:
    """A hand as the form gives it: the core's Hand plus what is kept only for the record."""

    hand: Hand
    trump: str | None = None
    bidder_seat: int | None = None
    extra: dict = field(default_factory=dict)


def _hand_columns(entry: HandEntry) -> dict:
    h = entry.hand
    counters = h.counters or (None, None)
    return {
        "kind": h.kind, "bidder": h.bidder, "bidder_seat": entry.bidder_seat, "bid": h.bid,
        "trump": entry.trump, "meld_0": h.meld[0], "meld_1": h.meld[1],
        "counters_0": counters[0], "counters_1": counters[1],
        "renege_team": h.renege_team, "forced": int(h.forced),
    }


def _stored(row: dict) -> StoredHand:
    counters = None if row["counters_0"] is None else (row["counters_0"], row["counters_1"])
    hand = Hand(row["bidder"], row["bid"], (row["meld_0"], row["meld_1"]), counters, row["kind"],
                row["renege_team"], bool(row["forced"]))
    return StoredHand(row["id"], row["seq"], hand, row["trump"], row["bidder_seat"], row["created_at"],
                      row["updated_at"], row.get("edits", 0))


def live_hands(db, game_id: int) -> list[StoredHand]:
    return [_stored(r) for r in _rows(db, """
        SELECT h.*, (SELECT count(*) FROM hand_edits e WHERE e.hand_id = h.id AND e.action = 'edited') AS edits
        FROM hands h WHERE h.game_id = ? AND h.deleted_at IS NULL ORDER BY h.seq""", [game_id])]


def hand_by_token(db, token: str) -> dict | None:
    rows = _rows(db, "SELECT id, game_id FROM hands WHERE token = ?", [token])
    return rows[0] if rows else None


def insert_hand(db, game_id: int, token: str, entry: HandEntry) -> int:
    """Inside the caller's write lock: the hand goes after every other, with its 'recorded' history line."""
    seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM hands WHERE game_id = ?", [game_id]).fetchone()[0]
    at = now()
    hand_id = db["hands"].insert({"game_id": game_id, "seq": seq, "token": token, **_hand_columns(entry),
                                  "created_at": at, "updated_at": at}).last_pk
    _log(db, hand_id, "recorded", None, entry, "Recorded.", at)
    return hand_id


def update_hand(db, hand_id: int, entry: HandEntry, summary: str, before: HandEntry) -> None:
    at = now()
    db["hands"].update(hand_id, {**_hand_columns(entry), "updated_at": at})
    _log(db, hand_id, "edited", before, entry, summary, at)


def delete_hand(db, hand_id: int, before: HandEntry) -> None:
    at = now()
    db["hands"].update(hand_id, {"deleted_at": at, "updated_at": at})
    _log(db, hand_id, "deleted", before, None, "Deleted.", at)


def _entry_json(entry: HandEntry | None) -> str | None:
    return None if entry is None else json.dumps(_hand_columns(entry))


def _log(db, hand_id, action, before, after, summary, at) -> None:
    db["hand_edits"].insert({"hand_id": hand_id, "at": at, "action": action, "before": _entry_json(before),
                             "after": _entry_json(after), "summary": summary})


def hand_history(db, game_id: int) -> dict[int, list[dict]]:
    """Every change to every hand of a game, deleted hands included: hand id -> [{at, action, summary}]."""
    history: dict[int, list[dict]] = {}
    for row in _rows(db, """SELECT e.hand_id, e.at, e.action, e.summary FROM hand_edits e
                            JOIN hands h ON h.id = e.hand_id WHERE h.game_id = ? ORDER BY e.id""", [game_id]):
        history.setdefault(row["hand_id"], []).append(row)
    return history


def deleted_hands(db, game_id: int) -> list[dict]:
    return _rows(db, """SELECT id, seq, bid, bidder, kind, deleted_at FROM hands
                        WHERE game_id = ? AND deleted_at IS NOT NULL ORDER BY seq""", [game_id])
