"""All SQL lives here. Rows go in and out as the core's dataclasses; the schema is sqlite-utils migrations.

Every change runs in one transaction. Recording a hand takes the write lock first (BEGIN IMMEDIATE), so the
check "is this still hand N?" and the insert cannot interleave with another phone's.
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import sqlite3
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime

import sqlite_utils
from sqlite_utils import Migrations

from .document import ImportedGame
from .errors import ImportRefused, ScorepadError
from .rules import Rules
from .scoring import Hand, play_game

migrations = Migrations("scorepad")
_logger = logging.getLogger(__name__)


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


@migrations()
def m003_results_and_seats(db: sqlite_utils.Database) -> None:
    """Each hand's points and outcome kept beside it, and who sat where as rows: records are then plain SQL.
    The points are left empty: scoring is today's code, which fills them after migrating (`rescore_stale`)."""
    db.executescript("""
    ALTER TABLE hands ADD COLUMN points_0 INTEGER;
    ALTER TABLE hands ADD COLUMN points_1 INTEGER;
    ALTER TABLE hands ADD COLUMN outcome TEXT;
    CREATE TABLE game_seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        team INTEGER NOT NULL CHECK (team IN (0, 1)),
        player_id INTEGER NOT NULL REFERENCES players(id),
        PRIMARY KEY (game_id, seat)
    ) STRICT;
    CREATE INDEX game_seats_by_player ON game_seats (player_id, game_id);
    CREATE INDEX hands_live ON hands (game_id, deleted_at, seq);
    CREATE INDEX games_by_created ON games (created_at);
    """)
    for seat in range(4):
        db.execute(f"INSERT INTO game_seats SELECT id, {seat}, {seat % 2}, seat_{seat} FROM games "
                   f"WHERE seat_{seat} IS NOT NULL")


_RESULTS_SQL = """
INSERT INTO team_results (game_id, team, hands, sum_meld, max_points, hands_bid, made, went_set, sum_bid)
SELECT g.id, t.team,
       count(h.id),
       coalesce(sum(CASE t.team WHEN 0 THEN h.meld_0 ELSE h.meld_1 END), 0),
       max(CASE t.team WHEN 0 THEN h.points_0 ELSE h.points_1 END),
       count(h.id) FILTER (WHERE h.bidder = t.team),
       count(h.id) FILTER (WHERE h.bidder = t.team AND h.outcome = 'made'),
       count(h.id) FILTER (WHERE h.bidder = t.team AND h.outcome = 'set'),
       coalesce(sum(h.bid) FILTER (WHERE h.bidder = t.team), 0)
FROM games g CROSS JOIN (SELECT 0 AS team UNION ALL SELECT 1) t
LEFT JOIN hands h ON h.game_id = g.id AND h.deleted_at IS NULL AND h.kind != 'redeal'
WHERE {where} GROUP BY g.id, t.team;
INSERT INTO seat_results (game_id, seat, hands_bid, made, went_set, sum_bid)
SELECT h.game_id, h.bidder_seat, count(*), count(*) FILTER (WHERE h.outcome = 'made'),
       count(*) FILTER (WHERE h.outcome = 'set'), sum(h.bid)
FROM hands h JOIN games g ON g.id = h.game_id
WHERE h.deleted_at IS NULL AND h.kind != 'redeal' AND h.bidder_seat IS NOT NULL AND {where}
GROUP BY h.game_id, h.bidder_seat;
"""


@migrations()
def m004_game_summaries(db: sqlite_utils.Database) -> None:
    """Each game's figures per team and per seat, kept with every re-score: records then read one row a game,
    not every hand, and stay fast after years of evenings. The tables start empty: a game without its rows is
    re-scored after migrating (`rescore_stale`), which writes them."""
    db.executescript("""
    CREATE TABLE team_results (
        game_id INTEGER NOT NULL REFERENCES games(id),
        team INTEGER NOT NULL CHECK (team IN (0, 1)),
        hands INTEGER NOT NULL, sum_meld INTEGER NOT NULL, max_points INTEGER,
        hands_bid INTEGER NOT NULL, made INTEGER NOT NULL, went_set INTEGER NOT NULL, sum_bid INTEGER NOT NULL,
        PRIMARY KEY (game_id, team)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE seat_results (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        hands_bid INTEGER NOT NULL, made INTEGER NOT NULL, went_set INTEGER NOT NULL, sum_bid INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX games_finished_order ON games (finished_at, id);
    """)


@migrations()
def m005_records_counter(db: sqlite_utils.Database) -> None:
    """A number that changes whenever any record could: records are cached under it."""
    db.executescript("""
    CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
    INSERT INTO counters (name, value) VALUES ('records', 0);
    """)


@migrations()
def m006_per_player_records(db: sqlite_utils.Database) -> None:
    """Whether each seat's game is finished and won, kept on the seat, and a records version per player: the
    records list reads one index, and a finished game refreshes only its four players' records."""
    db.executescript("""
    ALTER TABLE game_seats ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game_seats ADD COLUMN won INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE players ADD COLUMN records_version INTEGER NOT NULL DEFAULT 0;
    UPDATE game_seats SET
        finished = (SELECT finished_at IS NOT NULL FROM games WHERE id = game_seats.game_id),
        won = coalesce((SELECT winner = game_seats.team FROM games WHERE id = game_seats.game_id), 0);
    CREATE INDEX game_seats_records ON game_seats (player_id, finished, won);
    """)


def refresh_results(db, game_id: int) -> None:
    db.execute("DELETE FROM team_results WHERE game_id = ?", [game_id])
    db.execute("DELETE FROM seat_results WHERE game_id = ?", [game_id])
    for statement in _RESULTS_SQL.strip().split(";\n"):
        if statement.strip():
            db.execute(statement.format(where="g.id = ?").rstrip(";"), [game_id])


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


_LOCAL = threading.local()


def pooled(path: str) -> sqlite_utils.Database:
    """This thread's connection to `path`, opened once and kept: a server thread serves many requests, and
    opening a connection per request (and closing the last one, which checkpoints the WAL) costs more than
    most requests do."""
    pool = getattr(_LOCAL, "pool", None)
    if pool is None:
        pool = _LOCAL.pool = {}
    db = pool.get(path)
    if db is None:
        db = pool[path] = connect(path)
    return db


def release(db: sqlite_utils.Database) -> None:
    """Hand a pooled connection back after a request: nothing may stay open in it."""
    if db.conn.in_transaction:
        db.conn.rollback()


def forget_pool() -> None:
    """Close this thread's connections (a restore replaces the file under them)."""
    for db in getattr(_LOCAL, "pool", {}).values():
        db.close()
    _LOCAL.pool = {}


def connect(path: str) -> sqlite_utils.Database:
    conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 10000")
    return db


def migrate(path: str) -> None:
    """Bring any Scorepad database, of any schema ever shipped, up to date: apply the migrations it lacks, then
    re-score with today's code the games whose derived figures are missing. A database that needs nothing is
    only read."""
    db = connect(path)
    try:
        migrations.apply(db)
        rescore_stale(db)
    finally:
        db.close()


# Migrations are frozen history and never score: each hand's points and outcome, a game's totals and winner, and
# its per-team and per-seat summaries are derived by today's code. Every write re-scores its game and writes the
# summaries, so a game with live hands but no summary row is one no code of today has scored (m003 leaves the
# points empty, m004 the summaries). The check walks the games' ids once against team_results' primary key; with
# no ORDER BY it reads the ids from an index, not the wide rows (4 ms, not 12, for 10,000 games).
_STALE_GAMES = """
SELECT g.id FROM games g
WHERE NOT EXISTS (SELECT 1 FROM team_results t WHERE t.game_id = g.id)
  AND EXISTS (SELECT 1 FROM hands h WHERE h.game_id = g.id AND h.deleted_at IS NULL)"""


def rescore_stale(db) -> list[int]:
    """Re-score every game no code of today has scored, in one transaction; returns the ids re-scored. A game
    today's rules refuse to fold is left as it was stored (and logged), so one odd old game cannot lock a
    family out of all the others."""
    if db.execute(_STALE_GAMES + " LIMIT 1").fetchone() is None:
        return []  # the usual start-up: no write, no lock
    done = []
    with write_lock(db):
        for (game_id,) in db.execute(_STALE_GAMES).fetchall():  # again, under the lock: another may have been first
            try:
                with db.atomic():
                    rescore(db, load_game(db, game_id), live_hands(db, game_id))
                done.append(game_id)
            except ScorepadError as exc:
                _logger.warning("Game %s kept as stored: today's rules cannot re-score it (%s)", game_id, exc)
    return done


@contextlib.contextmanager
def write_lock(db: sqlite_utils.Database):
    """One transaction holding SQLite's write lock from its first statement (BEGIN IMMEDIATE)."""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.conn.execute("COMMIT")
    except BaseException:
        # a COMMIT refused (a full disk) leaves the transaction open: what follows must not read its writes
        if db.conn.in_transaction:
            db.conn.rollback()
        raise


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
    bump_records(db)
    return db["players"].insert({"name": name, "created_at": now()}).last_pk


def create_game(db, rules: Rules, teams: tuple[str, str], players, first_dealer: int,
                rematch_of: int | None = None, created_at: str | None = None) -> int:
    with db.atomic():
        seat_ids = [_player_id(db, name) for name in players]
        game_id = _insert_game(db, {
            "created_at": now(),
            "rules": json.dumps(rules.to_dict()),
            "team_0": teams[0], "team_1": teams[1],
            **{f"seat_{i}": seat_ids[i] for i in range(4)},
            "first_dealer": first_dealer,
            "rematch_of": rematch_of,
            **({"created_at": created_at} if created_at else {}),
        })
        for seat, player_id in enumerate(seat_ids):
            if player_id is not None:
                db["game_seats"].insert({"game_id": game_id, "seat": seat, "team": seat % 2,
                                         "player_id": player_id})
        return game_id


def _insert_game(db, row: dict) -> int:
    """A new game under the next free id, chosen inside the insert itself (so under the write lock): past every
    game, and past the ids an import in progress has reserved for the games whose hands it is writing."""
    marks = ", ".join("?" * len(row))
    return db.execute(f"INSERT INTO games (id, {', '.join(row)}) VALUES (({_NEXT_GAME_ID}), {marks})",
                      list(row.values())).lastrowid


_GAME_SELECT = """
SELECT g.*, p0.name AS name_0, p1.name AS name_1, p2.name AS name_2, p3.name AS name_3
FROM games g
LEFT JOIN players p0 ON p0.id = g.seat_0 LEFT JOIN players p1 ON p1.id = g.seat_1
LEFT JOIN players p2 ON p2.id = g.seat_2 LEFT JOIN players p3 ON p3.id = g.seat_3
"""


def _game(row: dict) -> GameRecord:
    return GameRecord(
        id=row["id"], created_at=row["created_at"], rules=Rules.from_dict(json.loads(row["rules"]), kept=True),
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


def game_ids(db) -> list[int]:
    return [r[0] for r in db.execute("SELECT id FROM games ORDER BY id").fetchall()]


def player_names(db) -> list[str]:
    return [r[0] for r in db.execute("SELECT name FROM players ORDER BY name COLLATE NOCASE").fetchall()]


def rescore(db, game: GameRecord, hands: list[StoredHand], summaries: bool = True):
    """Fold the live hands again and keep what the fold says beside them: each hand's points and outcome,
    the game's totals and winner. Inside the caller's transaction; returns the GameState."""
    state = play_game(game.rules, [h.hand for h in hands], names=game.teams)
    for stored, result in zip(hands, state.results, strict=True):
        kept = (result.points[0], result.points[1], outcome(result))
        if stored.kept != kept:  # most hands score as before: only what changed is written
            db.execute("UPDATE hands SET points_0 = ?, points_1 = ?, outcome = ? WHERE id = ?", [*kept, stored.id])
    save_summary(db, game.id, state.totals, len(hands), state.winner)
    if summaries:
        refresh_results(db, game.id)
    return state


def outcome(result) -> str:
    if result.made is True:
        return "made"
    if result.made is False:
        return "set"
    return result.scored_as


def bump_records(db, game_id: int | None = None, player_id: int | None = None) -> None:
    """Records changed: everyone's list, and the records of the game's players (or of one player)."""
    db.execute("UPDATE counters SET value = value + 1 WHERE name = 'records'")
    if game_id is not None:
        db.execute("UPDATE players SET records_version = records_version + 1 "
                   "WHERE id IN (SELECT player_id FROM game_seats WHERE game_id = ?)", [game_id])
    if player_id is not None:
        db.execute("UPDATE players SET records_version = records_version + 1 WHERE id = ?", [player_id])


def records_version(db) -> int:
    return db.execute("SELECT value FROM counters WHERE name = 'records'").fetchone()[0]


def save_summary(db, game_id: int, totals, hands_count: int, winner: int | None) -> None:
    """Keep the game's summary in step with its sheet, and bump its version (inside the caller's transaction).
    Records count finished games, so they change when a game is, or was, finished."""
    was_finished = db.execute("SELECT finished_at IS NOT NULL FROM games WHERE id = ?", [game_id]).fetchone()[0]
    if was_finished or winner is not None:
        bump_records(db, game_id=game_id)
        db.execute("UPDATE game_seats SET finished = ?, won = coalesce(team = ?, 0) WHERE game_id = ?",
                   [int(winner is not None), winner, game_id])
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
    kept: tuple | None = None  # (points_0, points_1, outcome) as last stored beside the hand


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
                      row["updated_at"], row.get("edits", 0),
                      (row.get("points_0"), row.get("points_1"), row.get("outcome")))


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


class HandDeleted(Exception):
    """The hand is no longer on the sheet: another phone deleted it first."""


class HandChanged(Exception):
    """The hand was edited (on another phone) after the form that would change it was opened."""


def update_hand(db, hand_id: int, entry: HandEntry, summary: str, before: HandEntry,
                edits_seen: int | None = None) -> None:
    """Inside the caller's write lock: the hand's new values, with their 'edited' history line. Raises
    HandDeleted when the hand was deleted meanwhile, and HandChanged when it has had other edits than the
    `edits_seen` its form was opened on: a change nobody saw is never silently overwritten."""
    live = db.execute("""SELECT (SELECT count(*) FROM hand_edits e WHERE e.hand_id = h.id AND e.action = 'edited')
                         FROM hands h WHERE h.id = ? AND h.deleted_at IS NULL""", [hand_id]).fetchone()
    if live is None:
        raise HandDeleted(hand_id)
    if edits_seen is not None and live[0] != edits_seen:
        raise HandChanged(hand_id)
    at = now()
    db["hands"].update(hand_id, {**_hand_columns(entry), "updated_at": at})
    _log(db, hand_id, "edited", before, entry, summary, at)


def delete_hand(db, hand_id: int) -> None:
    """Inside the caller's write lock: the hand leaves the sheet, with one 'deleted' history line holding it
    as it was at that moment. Raises HandDeleted when it had already left (two phones, or two taps)."""
    at = now()
    deleted = db.execute("UPDATE hands SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL",
                         [at, at, hand_id])
    if deleted.rowcount != 1:
        raise HandDeleted(hand_id)
    before = _stored(_rows(db, "SELECT * FROM hands WHERE id = ?", [hand_id])[0])
    _log(db, hand_id, "deleted", HandEntry(before.hand, before.trump, before.bidder_seat), None, "Deleted.", at)


def rematch_for(db, game_id: int) -> int | None:
    """The game already started as this game's rematch, if any: a second tap on Rematch goes there."""
    row = db.execute("SELECT id FROM games WHERE rematch_of = ? ORDER BY id LIMIT 1", [game_id]).fetchone()
    return row[0] if row else None


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


# --- history and records ------------------------------------------------------------------------------------

# Records are read far more often than they change (only when a game finishes, or a finished one is edited,
# or a name changes): each answer is kept under the records counter it was computed at.
_CACHE: dict = {}
_CACHE_LOCK = threading.Lock()


def _versions(db, player_ids) -> tuple:
    marks = ", ".join("?" * len(player_ids))
    return tuple(db.execute(f"SELECT id, records_version FROM players WHERE id IN ({marks}) ORDER BY id",
                            list(player_ids)).fetchall())


def _cached(db, kind: str, key, compute, players=None):
    """`compute(db, key)` kept until the records it depends on change: those of `players`, or any."""
    path = db.execute("PRAGMA database_list").fetchone()[2]
    version = _versions(db, players) if players else records_version(db)
    slot = (path, kind, key)
    with _CACHE_LOCK:
        hit = _CACHE.get(slot)
    if hit is not None and hit[0] == version:
        return copy.deepcopy(hit[1])
    value = compute(db, key) if key is not None else compute(db)
    with _CACHE_LOCK:
        if len(_CACHE) > 2048:
            _CACHE.clear()
        _CACHE[slot] = (version, value)
    return copy.deepcopy(value)

def history_games(db, player_id: int | None = None, start: str | None = None, end: str | None = None,
                  limit: int = 200, before: str | None = None) -> list[GameRecord]:
    """Games newest first, optionally only those a player sat in, started within [start, end) (UTC ISO), and
    (for the next page) started before `before`."""
    where, params = [], []
    if before:
        where.append("g.created_at < ?")
        params.append(before)
    if player_id is not None:
        # EXISTS lets SQLite walk games newest first and stop at the page's end, however long the history
        where.append("EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.player_id = ?)")
        params.append(player_id)
    if start:
        where.append("g.created_at >= ?")
        params.append(start)
    if end:
        where.append("g.created_at < ?")
        params.append(end)
    sql = _GAME_SELECT + (" WHERE " + " AND ".join(where) if where else "") + \
        " ORDER BY g.created_at DESC, g.id DESC LIMIT ?"
    return [_game(r) for r in _rows(db, sql, [*params, limit])]


def players(db) -> list[dict]:
    """Every player with finished games and wins, for the records page."""
    return _cached(db, "players", None, _players)


def player_choices(db) -> list[dict]:
    return _rows(db, "SELECT id, name FROM players ORDER BY name COLLATE NOCASE")


def _players(db, _=None) -> list[dict]:
    return _rows(db, """
        SELECT p.id, p.name, coalesce(sum(s.finished), 0) AS games, coalesce(sum(s.won), 0) AS wins
        FROM players p LEFT JOIN game_seats s ON s.player_id = p.id
        GROUP BY p.id ORDER BY p.name COLLATE NOCASE""")


def player(db, player_id: int) -> dict | None:
    rows = _rows(db, "SELECT id, name FROM players WHERE id = ?", [player_id]) if 0 < player_id <= MAX_ID else []
    return rows[0] if rows else None


# A "side" is one player, or two partners, sitting on one team of a game. Its figures come from the per-game
# summaries (team_results, seat_results): one row a game, however many hands. A player's own bids are its
# seat's; a partnership's are its team's.
_STREAK = """(SELECT coalesce(max(c), 0) FROM (SELECT count(*) AS c FROM (
    SELECT (winner = team) AS won,
           row_number() OVER (ORDER BY finished_at, game_id)
           - row_number() OVER (PARTITION BY winner = team ORDER BY finished_at, game_id) AS run
    FROM side WHERE finished_at IS NOT NULL) WHERE won GROUP BY run))"""


def side_record(db, player_ids: list[int]) -> dict:
    """Games, wins, win rate, hands bid, made, set, average bid, average meld, biggest hand, longest
    winning streak, for one player or a partnership, over every finished game."""
    return _cached(db, "side", tuple(player_ids), _side_record, players=tuple(player_ids))


def _side_record(db, player_ids) -> dict:
    ids = list(dict.fromkeys(player_ids))
    if len(ids) == 1:
        side = """SELECT s.game_id, s.team, s.seat, g.finished_at, g.winner FROM game_seats s
                  JOIN games g ON g.id = s.game_id WHERE s.player_id = ? AND g.finished_at IS NOT NULL"""
        bids, join_bids = "r", "LEFT JOIN seat_results r ON r.game_id = side.game_id AND r.seat = side.seat"
    else:
        side = f"""SELECT s.game_id, s.team, NULL AS seat, g.finished_at, g.winner FROM game_seats s
                   JOIN games g ON g.id = s.game_id
                   WHERE s.player_id IN ({', '.join('?' * len(ids))}) AND g.finished_at IS NOT NULL
                   GROUP BY s.game_id, s.team HAVING count(*) = {len(ids)}"""
        bids, join_bids = "t", ""
    row = _rows(db, f"""WITH side AS MATERIALIZED ({side})
        SELECT count(side.finished_at) AS games,
               count(*) FILTER (WHERE side.winner = side.team) AS wins,
               coalesce(sum({bids}.hands_bid), 0) AS hands_bid,
               coalesce(sum({bids}.made), 0) AS made,
               coalesce(sum({bids}.went_set), 0) AS went_set,
               sum({bids}.sum_bid) * 1.0 / nullif(sum({bids}.hands_bid), 0) AS average_bid,
               sum(t.sum_meld) * 1.0 / nullif(sum(t.hands), 0) AS average_meld,
               max(t.max_points) AS biggest_hand,
               {_STREAK} AS longest_streak
        FROM side JOIN team_results t ON t.game_id = side.game_id AND t.team = side.team {join_bids}""", ids)[0]
    row["win_rate"] = row["wins"] / row["games"] if row["games"] else None
    return row


def partners(db, player_id: int) -> list[dict]:
    """Everyone a player has partnered in a finished game, each with the partnership's record: one query."""
    return _cached(db, "partners", player_id, _partners, players=(player_id,))


def _partners(db, player_id: int) -> list[dict]:
    rows = _rows(db, """
        WITH pairs AS MATERIALIZED (
            SELECT mate.player_id AS partner, me.game_id, me.team, g.finished_at, g.winner
            FROM game_seats me
            JOIN game_seats mate ON mate.game_id = me.game_id AND mate.team = me.team
                                AND mate.player_id != me.player_id
            JOIN games g ON g.id = me.game_id WHERE me.player_id = ? AND g.finished_at IS NOT NULL
        ),
        runs AS (
            SELECT partner, (winner = team) AS won,
                   row_number() OVER (PARTITION BY partner ORDER BY finished_at, game_id)
                   - row_number() OVER (PARTITION BY partner, winner = team ORDER BY finished_at, game_id) AS run
            FROM pairs WHERE finished_at IS NOT NULL
        ),
        streaks AS (
            SELECT partner, max(c) AS longest FROM (SELECT partner, count(*) AS c FROM runs WHERE won
                                                    GROUP BY partner, run) GROUP BY partner
        )
        SELECT p.id, p.name, count(*) AS together, count(pairs.finished_at) AS games,
               count(*) FILTER (WHERE pairs.winner = pairs.team) AS wins,
               sum(t.hands_bid) AS hands_bid, sum(t.made) AS made, sum(t.went_set) AS went_set,
               sum(t.sum_bid) * 1.0 / nullif(sum(t.hands_bid), 0) AS average_bid,
               sum(t.sum_meld) * 1.0 / nullif(sum(t.hands), 0) AS average_meld,
               max(t.max_points) AS biggest_hand, coalesce(streaks.longest, 0) AS longest_streak
        FROM pairs
        JOIN team_results t ON t.game_id = pairs.game_id AND t.team = pairs.team
        JOIN players p ON p.id = pairs.partner
        LEFT JOIN streaks ON streaks.partner = pairs.partner
        GROUP BY pairs.partner ORDER BY together DESC, p.name""", [player_id])
    for row in rows:
        row["win_rate"] = row["wins"] / row["games"] if row["games"] else None
    return rows


def head_to_head(db, side_a: list[int], side_b: list[int]) -> dict:
    """Finished games between two sides (each a player or a partnership) and who won them."""
    return _cached(db, "h2h", (tuple(side_a), tuple(side_b)), lambda db, key: _head_to_head(db, *key),
                   players=tuple(side_a) + tuple(side_b))


def _head_to_head(db, side_a, side_b) -> dict:
    def side_cte(name, ids):
        marks = ", ".join("?" * len(ids))
        return f"""{name} AS (SELECT game_id, team FROM game_seats WHERE player_id IN ({marks})
                   GROUP BY game_id, team HAVING count(*) = {len(ids)})"""
    row = _rows(db, f"""WITH {side_cte('a', side_a)}, {side_cte('b', side_b)}
        SELECT count(*) AS games, coalesce(sum(g.winner = a.team), 0) AS wins_a,
               coalesce(sum(g.winner = b.team), 0) AS wins_b
        FROM a JOIN b ON b.game_id = a.game_id AND b.team != a.team
        JOIN games g ON g.id = a.game_id WHERE g.finished_at IS NOT NULL""", [*side_a, *side_b])[0]
    return row


def rename_player(db, player_id: int, name: str) -> None:
    with db.atomic():
        db.execute("UPDATE players SET name = ? WHERE id = ?", [name, player_id])
        bump_records(db, player_id=player_id)
        db.execute("UPDATE games SET version = version + 1 WHERE id IN "
                   "(SELECT game_id FROM game_seats WHERE player_id = ?)", [player_id])


class MergeRefused(Exception):
    pass


def merge_players(db, source_id: int, target_id: int) -> None:
    """The same person typed twice: every seat of `source` becomes `target`'s, and `source` goes. Scores are
    not touched. Refused when both sat in one game: one person cannot hold two seats."""
    with db.atomic():
        shared = db.execute("""SELECT a.game_id FROM game_seats a JOIN game_seats b ON a.game_id = b.game_id
                               WHERE a.player_id = ? AND b.player_id = ? LIMIT 1""",
                            [source_id, target_id]).fetchone()
        if shared:
            raise MergeRefused(f"Both played in game {shared[0]}, in different seats: they are two people.")
        db.execute("UPDATE game_seats SET player_id = ? WHERE player_id = ?", [target_id, source_id])
        bump_records(db, player_id=target_id)
        # the target's partners now have a different partner on record
        db.execute("UPDATE players SET records_version = records_version + 1 WHERE id IN (SELECT mate.player_id "
                   "FROM game_seats me JOIN game_seats mate ON mate.game_id = me.game_id WHERE me.player_id = ?)",
                   [target_id])
        for seat in range(4):
            db.execute(f"UPDATE games SET seat_{seat} = ?, version = version + 1 WHERE seat_{seat} = ?",
                       [target_id, source_id])
        db.execute("DELETE FROM players WHERE id = ?", [source_id])
        bump_records(db)


def edits_of_hand(db, hand_id: int) -> list[dict]:
    return _rows(db, "SELECT at, action, before, after, summary FROM hand_edits WHERE hand_id = ? ORDER BY id",
                 [hand_id])


def warm_records(path: str, player_ids: list[int] | None = None) -> None:
    """Compute and cache records ahead of the first look: everyone's at start-up, a game's four players' when it
    finishes. Run on a thread of its own, with a connection of its own."""
    db = connect(path)
    try:
        players(db)
        ids = player_ids if player_ids is not None else [p["id"] for p in player_choices(db)]
        for player_id in ids:
            side_record(db, [player_id])
            partners(db, player_id)
    except sqlite3.Error:
        pass  # warming is a courtesy: the page computes what it needs itself
    finally:
        db.close()


def warm_in_background(path: str, player_ids: list[int] | None = None) -> None:
    threading.Thread(target=warm_records, args=(path, player_ids), daemon=True, name="warm-records").start()


def seated_players(db, game_id: int) -> list[int]:
    return [r[0] for r in db.execute("SELECT player_id FROM game_seats WHERE game_id = ?", [game_id])]


# --- import ---------------------------------------------------------------------------------------------------
# An import writes thousands of games without holding the write lock for long, and all or nothing. Their hands
# and per-team and per-seat figures go in first, in short transactions, under game ids reserved for them: no
# page reaches those but through their game, so nobody sees them. Then the games themselves go in with their
# seats, in one short transaction that makes all of them appear at once. A failure takes the rest out again;
# what an import that was cut off (a power cut) left goes before the next import starts.

IMPORT_BATCH_ROWS = 5_000  # rows written in one transaction: about a twentieth of a second on a laptop
_IMPORTING = threading.Lock()  # one import at a time, so each may clear what a cut-off one left
_RESERVED = "import_reserved_game_id"  # a counters row: the last game id an import in progress has reserved
_NEXT_GAME_ID = ("SELECT max(coalesce((SELECT max(id) FROM games), 0), "
                 f"coalesce((SELECT value FROM counters WHERE name = '{_RESERVED}'), 0)) + 1")

_HAND_INSERT = """INSERT INTO hands (id, game_id, seq, token, kind, bidder, bidder_seat, bid, trump, meld_0, meld_1,
    counters_0, counters_1, renege_team, forced, created_at, updated_at, deleted_at, points_0, points_1, outcome)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"""
_PLAYER = "(SELECT id FROM players WHERE name = ?)"  # names match without regard to case, as in the forms
_GAME_INSERT = f"""INSERT INTO games (id, created_at, rules, team_0, team_1, seat_0, seat_1, seat_2, seat_3,
    first_dealer, rematch_of, total_0, total_1, hands_count, winner, finished_at, version)
    VALUES (?, ?, ?, ?, ?, {_PLAYER}, {_PLAYER}, {_PLAYER}, {_PLAYER}, ?, ?, ?, ?, ?, ?, ?, 1)"""
_SEAT_INSERT = ("INSERT INTO game_seats (game_id, seat, team, player_id, finished, won) "
                f"VALUES (?, ?, ?, {_PLAYER}, ?, ?)")
_FIGURES_INSERTS = {
    "team_results": "INSERT INTO team_results (game_id, team, hands, sum_meld, max_points, hands_bid, made, "
                    "went_set, sum_bid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "seat_results": "INSERT INTO seat_results (game_id, seat, hands_bid, made, went_set, sum_bid) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
}


def import_games(db, games: list[ImportedGame]) -> list[int]:
    """Write games that passed `scorepad.document.check`, all or nothing; returns their new ids, in order.

    Each hand's points and outcome, each game's totals and its per-team and per-seat figures are computed here,
    before any lock, exactly as `rescore` keeps them. Hands, their history and the figures go in transactions of
    at most `IMPORT_BATCH_ROWS` rows; the games and their seats in one last transaction of inserts only.
    Raises ImportRefused (409) when the games are already here."""
    if not games:
        return []
    hands = [(index, row) for index, game in enumerate(games) for row in _hand_rows(game)]
    if not _IMPORTING.acquire(timeout=60):
        raise ImportRefused("Another import is being written; try again in a minute. Nothing was imported.", 409)
    writer = connect(database_path(db))
    try:
        _drop_cut_off_import(writer)
        _refuse_known_tokens(writer, games)
        first = _reserve_game_ids(writer, len(games))
        try:
            rows = _summary_rows(first, games)
            writer.execute("PRAGMA foreign_keys = OFF")  # their games come last
            for batch in _batches(hands):
                _write_hands(writer, first, batch)
            for table, sql in _FIGURES_INSERTS.items():
                for chunk in _chunks(rows[table], IMPORT_BATCH_ROWS):
                    with write_lock(writer):
                        writer.conn.executemany(sql, chunk)
            writer.execute("PRAGMA foreign_keys = ON")
            _write_games(writer, rows, {name for game in games for name in game.players if name})
        except BaseException:
            _drop_import(writer, first, first + len(games) - 1)
            raise
    finally:
        writer.close()
        _IMPORTING.release()
    return list(range(first, first + len(games)))


def database_path(db) -> str:
    return db.execute("PRAGMA database_list").fetchone()[2]


def _batches(hands: list):
    """The hands in runs whose rows (each hand and its history lines) fit in one transaction."""
    batch, rows = [], 0
    for hand in hands:
        _, (_, edits) = hand
        size = 1 + len(edits)
        if batch and rows + size > IMPORT_BATCH_ROWS:
            yield batch
            batch, rows = [], 0
        batch.append(hand)
        rows += size
    if batch:
        yield batch


def _hand_rows(game: ImportedGame) -> list[tuple[tuple, list[tuple]]]:
    """(hand columns from seq on, [history lines]) for every hand of a game, live hands scored as `rescore`
    scores them; deleted hands keep no points, as after any re-score."""
    kept = {h.seq: (r.points[0], r.points[1], outcome(r)) for h, r in zip(game.live_hands, game.state.results,
                                                                           strict=True)}
    rows = []
    for h in game.hands:
        counters = h.hand.counters or (None, None)
        rows.append(((h.seq, h.token, h.hand.kind, h.hand.bidder, h.bidder_seat, h.hand.bid, h.trump, h.hand.meld[0],
                      h.hand.meld[1], counters[0], counters[1], h.hand.renege_team, int(h.hand.forced), h.created_at,
                      h.updated_at, h.deleted_at, *kept.get(h.seq, (None, None, None))),
                     [(e.at, e.action, e.before, e.after, e.summary) for e in h.edits]))
    return rows


def _write_hands(db, first: int, batch: list) -> None:
    with write_lock(db):
        base = db.execute("SELECT coalesce(max(id), 0) FROM hands").fetchone()[0]
        db.conn.executemany(_HAND_INSERT, ((base + n, first + index, *columns)
                                           for n, (index, (columns, _)) in enumerate(batch, start=1)))
        db.conn.executemany("INSERT INTO hand_edits (hand_id, at, action, before, after, summary) "
                            "VALUES (?, ?, ?, ?, ?, ?)",
                            ((base + n, *edit) for n, (_, (_, edits)) in enumerate(batch, start=1)
                             for edit in edits))


def _summary_rows(first: int, games: list[ImportedGame]) -> dict[str, list[tuple]]:
    """Every row of the games, their seats and their per-team and per-seat figures, built before the lock is
    taken: the games get the ids from `first` on, and seats name their players (found in the insert)."""
    rows: dict[str, list[tuple]] = {"games": [], "seats": [], "team_results": [], "seat_results": []}
    for game_id, game in enumerate(games, start=first):
        winner = game.state.winner
        rows["games"].append((game_id, game.created_at, json.dumps(game.rules.to_dict()), *game.teams,
                              *game.players, game.first_dealer,
                              None if game.rematch_index is None else first + game.rematch_index,
                              *game.state.totals, len(game.live_hands), winner, game.finished_at))
        rows["seats"] += [(game_id, seat, seat % 2, name, int(winner is not None), int(winner == seat % 2))
                          for seat, name in enumerate(game.players) if name]
        rows["team_results"] += [(game_id, *row) for row in _team_results(game)]
        rows["seat_results"] += [(game_id, *row) for row in _seat_results(game)]
    return rows


def _write_games(db, rows: dict[str, list[tuple]], names: set[str]) -> None:
    """The games, their players and seats, in one transaction of inserts: they all appear at once."""
    with write_lock(db):
        at = now()
        db.conn.executemany("INSERT INTO players (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                            ((name, at) for name in sorted(names)))
        db.conn.executemany(_GAME_INSERT, rows["games"])
        db.conn.executemany(_SEAT_INSERT, rows["seats"])
        bump_records(db)
        for chunk in _chunks(sorted(names)):
            db.execute(f"UPDATE players SET records_version = records_version + 1 WHERE name IN "
                       f"({', '.join('?' * len(chunk))})", chunk)
        db.execute("DELETE FROM counters WHERE name = ?", [_RESERVED])


def _scored(game: ImportedGame) -> list[tuple]:
    """(hand, bidder_seat, result, outcome) for the live hands that were dealt and bid, not redealt."""
    return [(h.hand, h.bidder_seat, r, outcome(r)) for h, r in zip(game.live_hands, game.state.results, strict=True)
            if h.hand.kind != "redeal"]


def _team_results(game: ImportedGame) -> list[tuple]:
    """The rows `_RESULTS_SQL` makes in team_results for this game, computed in Python."""
    scored = _scored(game)
    rows = []
    for team in (0, 1):
        bid = [(hand, kept) for hand, _, _, kept in scored if hand.bidder == team]
        rows.append((team, len(scored), sum(hand.meld[team] for hand, *_ in scored),
                     max((result.points[team] for _, _, result, _ in scored), default=None), len(bid),
                     sum(kept == "made" for _, kept in bid), sum(kept == "set" for _, kept in bid),
                     sum(hand.bid for hand, _ in bid)))
    return rows


def _seat_results(game: ImportedGame) -> list[tuple]:
    """The rows `_RESULTS_SQL` makes in seat_results for this game: one for each seat that bid."""
    by_seat: dict[int, list] = {}
    for hand, seat, _, kept in _scored(game):
        if seat is not None:
            by_seat.setdefault(seat, []).append((hand.bid, kept))
    return [(seat, len(bids), sum(kept == "made" for _, kept in bids), sum(kept == "set" for _, kept in bids),
             sum(bid for bid, _ in bids)) for seat, bids in sorted(by_seat.items())]


def _chunks(values: list, size: int = 500):
    for start in range(0, len(values), size):
        yield values[start:start + size]


def _refuse_known_tokens(db, games: list[ImportedGame]) -> None:
    """A hand's token is unique: a game whose hands are here already was imported (or recorded) before."""
    game_of = {h.token: game.number for game in games for h in game.hands}
    for chunk in _chunks(list(game_of)):
        known = db.execute(f"SELECT token FROM hands WHERE token IN ({', '.join('?' * len(chunk))})", chunk)
        first = min((game_of[token] for (token,) in known), default=None)
        if first is not None:
            raise ImportRefused(f"Game {first} is already here: its hands were imported before. "
                                "Nothing was imported.", 409)


def _reserve_game_ids(db, count: int) -> int:
    """Keep `count` game ids for this import (new games are given ids past them); returns the first."""
    with write_lock(db):
        first = db.execute(_NEXT_GAME_ID).fetchone()[0]
        db.execute("INSERT INTO counters (name, value) VALUES (?, ?) "
                   "ON CONFLICT (name) DO UPDATE SET value = excluded.value", [_RESERVED, first + count - 1])
    return first


def _drop_cut_off_import(db) -> None:
    """Clear what an import that was cut off left: hands under the game ids it had reserved, and the reservation.
    Its games were never written, so nobody has seen any of it."""
    row = db.execute("SELECT value FROM counters WHERE name = ?", [_RESERVED]).fetchone()
    if row is not None:
        below = db.execute("SELECT coalesce(max(id), 0) FROM games WHERE id <= ?", [row[0]]).fetchone()[0]
        _drop_import(db, below + 1, row[0])


def _drop_import(db, low: int, high: int) -> None:
    """Take out the hands (and their history) and figures written under game ids [low, high], a batch at a time,
    then the reservation of those ids."""
    while True:
        with write_lock(db):
            ids = [r[0] for r in db.execute("SELECT id FROM hands WHERE game_id BETWEEN ? AND ? LIMIT ?",
                                            [low, high, IMPORT_BATCH_ROWS])]
            for chunk in _chunks(ids):
                marks = ", ".join("?" * len(chunk))
                db.execute(f"DELETE FROM hand_edits WHERE hand_id IN ({marks})", chunk)
                db.execute(f"DELETE FROM hands WHERE id IN ({marks})", chunk)
        if not ids:
            break
    with write_lock(db):
        for table in _FIGURES_INSERTS:
            db.execute(f"DELETE FROM {table} WHERE game_id BETWEEN ? AND ?", [low, high])
        db.execute("DELETE FROM counters WHERE name = ?", [_RESERVED])


def keep_state(db, game_id: int, hands: list[StoredHand], state) -> None:
    """Inside the caller's write lock: keep what a fold of `hands` (the game's live hands, in order) says beside
    them: each hand's points and outcome, the game's totals, winner and figures. `rescore` with the fold done by
    the caller, so that a change folds its game once."""
    for stored, result in zip(hands, state.results, strict=True):
        kept = (result.points[0], result.points[1], outcome(result))
        if stored.kept != kept:  # most hands score as before: only what changed is written
            db.execute("UPDATE hands SET points_0 = ?, points_1 = ?, outcome = ? WHERE id = ?", [*kept, stored.id])
    save_summary(db, game_id, state.totals, len(hands), state.winner)
    refresh_results(db, game_id)
