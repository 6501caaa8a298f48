"""The marks a database carries for its replica (table `replica_marks`, made by m021), and the checks a restore
drill runs on a copy put back from the replica.

- `database`: who this database is, a random identity made once. Backups and the replica carry it, so a copy
  put back says whose it is, and a Scorepad never streams into another database's replica.
- `writer`: the Scorepad that last began writing the replica (an id made at each start, its machine's name).
  A Scorepad starts writing only where the replica's writer is the one its own database last knew; a copy whose
  writer is another is being written by another Scorepad (an old Pi still running beside its replacement).
- `share`: the mount point a folder replica was on, when it was not the database's own disk: a share that is
  not mounted then is never written into.
- `changed`: when the database last changed wholesale (a restore, an import): the server drills after it.

A restore from a backup keeps the live database's marks (they say where its replica is, not what its games
are); a restore from the replica takes the replica's (the new card carries on writing that replica).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .connection import now, write_lock

TABLE = "replica_marks"
DATABASE, WRITER, SHARE, CHANGED = "database", "writer", "share", "changed"
CARRIED = (DATABASE, WRITER, SHARE)  # what a restore from the replica takes from the copy


@dataclass(frozen=True)
class Writer:
    """A Scorepad writing the replica: the id it made when it started, its machine's name, since when."""

    id: str
    host: str
    since: str

    def said(self) -> str:
        return f"the Scorepad on {self.host}" if self.host else "another Scorepad"


def marks(db) -> dict[str, str]:
    """Every mark the database has (name -> value); {} for a database made before m021."""
    try:
        return dict(db.execute(f"SELECT name, value FROM {TABLE}").fetchall())
    except sqlite3.OperationalError:  # no such table: an older Scorepad's database
        return {}


def identity(db) -> str | None:
    return marks(db).get(DATABASE)


def writer(db) -> Writer | None:
    return _writer(marks(db).get(WRITER))


def _writer(value: str | None) -> Writer | None:
    if not value:
        return None
    try:
        data = json.loads(value)
        return Writer(str(data["id"]), str(data.get("host", "")), str(data.get("since", "")))
    except (ValueError, KeyError, TypeError):
        return None


def _put(db, name: str, value: str, schema: str = "main") -> None:
    db.execute(f"INSERT INTO {schema}.{TABLE} (name, value, at) VALUES (?, ?, ?) "
               "ON CONFLICT (name) DO UPDATE SET value = excluded.value, at = excluded.at", [name, value, now()])


def claim(db, who: Writer) -> None:
    """Mark `who` as the Scorepad writing the replica: one transaction, shipped to the replica like any change."""
    with write_lock(db):
        _put(db, WRITER, json.dumps({"id": who.id, "host": who.host, "since": who.since}))


def share(db) -> dict | None:
    """The share a folder replica was last seen on: {"folder": ..., "mount": ...}; None when never seen on one."""
    value = marks(db).get(SHARE)
    try:
        found = json.loads(value) if value else None
    except ValueError:
        return None
    return found if isinstance(found, dict) and "folder" in found and "mount" in found else None


def keep_share(db, folder: str, mount: str | None) -> None:
    """Remember the mount point `folder` (a folder replica) lies on, or forget it (None: on the database's disk)."""
    with write_lock(db):
        if mount is None:
            db.execute(f"DELETE FROM {TABLE} WHERE name = ?", [SHARE])
        else:
            _put(db, SHARE, json.dumps({"folder": folder, "mount": mount}))


def mark_changed(db, what: str, schema: str = "main") -> None:
    """Inside the caller's transaction: the database (attached as `schema`) changed wholesale (`what`: a
    restore, an import)."""
    _put(db, CHANGED, json.dumps({"what": what, "at": now()}), schema)


def changed(db) -> str | None:
    """The last wholesale change's mark, as stored (compared, never parsed, by the server)."""
    return marks(db).get(CHANGED)


# --- what a database holds ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Summary:
    """What a database holds, for a person to recognise it: its games and hands, its last hand, whose it is."""

    games: int
    hands: int
    last_hand_at: datetime | None
    identity: str | None
    writer: Writer | None

    def said(self) -> str:
        games = f"{self.games:,} game{'s' if self.games != 1 else ''}"
        hands = f"{self.hands:,} hand{'s' if self.hands != 1 else ''}"
        last = (f", the last recorded {self.last_hand_at.astimezone():%a %-d %b %Y %H:%M:%S}"
                if self.last_hand_at else "")
        by = f", written by {self.writer.said()}" if self.writer else ""
        return f"{games} and {hands}{last}{by}"


def summarize(db) -> Summary:
    games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    hands, last = db.execute("SELECT count(*), max(created_at) FROM hands WHERE deleted_at IS NULL").fetchone()
    return Summary(games, hands, _time(last), identity(db), writer(db))


def summarize_file(path: Path, private: bool = False) -> Summary:
    """What the database file at `path` holds (opened read-only; `private`: a copy nobody writes, read as it
    lies, without looking for a log beside it)."""
    with contextlib.closing(_open(Path(path), immutable=private)) as db:
        return summarize(db)


def _time(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


# --- a copy put back from the replica, checked against the live database -------------------------------------

@dataclass(frozen=True)
class CopyCheck:
    """What a drill found in a copy of the replica. `damage` lists what is wrong with it as a database; `missing`
    counts the live database's hands and games, up to the copy's moment, that it lacks."""

    damage: tuple[str, ...]
    summary: Summary | None
    missing: int
    behind: bool  # its schema is older than the live database's (an upgrade not yet shipped)
    bytes: int


def check_copy(copy: Path, live_path: str) -> CopyCheck:
    """Check a database put back from the replica (a private scratch file, opened read-only) as a drill does:
    SQLite's integrity check, Scorepad's tables, links between rows, whose it is, and whether it holds every hand
    and game the live database had up to its moment (hands are never deleted: a deleted hand keeps its row)."""
    size = copy.stat().st_size
    with contextlib.closing(_open(copy, immutable=True)) as db:
        try:
            problems = [row[0] for row in db.execute("PRAGMA integrity_check(5)")]
        except sqlite3.DatabaseError as exc:
            problems = [str(exc)]
        if problems != ["ok"]:
            return CopyCheck(tuple(problems), None, 0, False, size)
        try:
            broken = db.execute("SELECT count(*) FROM pragma_foreign_key_check").fetchone()[0]
            summary = summarize(db)
            copy_tables = _tables(db)
            copy_migrations = _migrations(db)
        except sqlite3.DatabaseError as exc:
            return CopyCheck((f"it is not a Scorepad database ({exc})",), None, 0, False, size)
    with contextlib.closing(_open(Path(live_path))) as live:
        live_tables, live_migrations = _tables(live), _migrations(live)
        behind = set(copy_migrations) < set(live_migrations)
        damage = []
        if broken:
            damage.append(f"links between its rows are broken ({broken} found)")
        if not behind and copy_tables != live_tables:
            damage.append("its tables are not this Scorepad's")
        if damage or behind:
            return CopyCheck(tuple(damage), summary, 0, behind, size)
        live.execute("ATTACH DATABASE ? AS copy", [f"{copy.resolve().as_uri()}?mode=ro&immutable=1"])
        missing = _missing(live)
    return CopyCheck((), summary, missing, False, size)


def _missing(live) -> int:
    """The live rows up to the copy's last ones that the copy lacks. Rows get ids in the order they are written,
    one writer at a time: every live row with an id up to the copy's largest was written before its moment."""
    missing = live.execute(
        "SELECT count(*) FROM main.hands h WHERE h.id <= (SELECT coalesce(max(id), 0) FROM copy.hands) "
        "AND NOT EXISTS (SELECT 1 FROM copy.hands c WHERE c.token = h.token)").fetchone()[0]
    missing += live.execute(
        "SELECT count(*) FROM main.games g WHERE g.id <= (SELECT coalesce(max(id), 0) FROM copy.games) "
        "AND NOT EXISTS (SELECT 1 FROM copy.games c WHERE c.id = g.id AND c.created_at = g.created_at)").fetchone()[0]
    return missing


def _open(path: Path, immutable: bool = False) -> sqlite3.Connection:
    options = "mode=ro&immutable=1" if immutable else "mode=ro"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{options}", uri=True, timeout=10)


def _tables(db) -> dict[str, tuple[str, ...]]:
    from .backups import table_shapes  # one definition of which tables are Scorepad's

    return table_shapes(db)


def _migrations(db) -> list[str]:
    try:
        return [row[0] for row in db.execute("SELECT name FROM _sqlite_migrations WHERE migration_set = 'scorepad'")]
    except sqlite3.OperationalError:
        return []


def hands_only_in_live(copy: Path, live_path: str, limit: int = 12) -> tuple[int, list[tuple[int, int, str]]]:
    """The live database's hands a copy lacks (recorded after its moment): how many, and the first `limit` of
    them as (game, hand number, recorded at), oldest first. Read before a restore replaces them, to say where
    they are kept."""
    with contextlib.closing(_open(Path(live_path))) as live:
        live.execute("ATTACH DATABASE ? AS copy", [f"{copy.resolve().as_uri()}?mode=ro&immutable=1"])
        only = ("FROM main.hands h WHERE h.deleted_at IS NULL "
                "AND NOT EXISTS (SELECT 1 FROM copy.hands c WHERE c.token = h.token)")
        count = live.execute(f"SELECT count(*) {only}").fetchone()[0]
        first = live.execute(f"SELECT h.game_id, h.seq, h.created_at {only} ORDER BY h.id LIMIT ?", [limit]).fetchall()
    return count, [tuple(row) for row in first]


# --- a note between Scorepads (see `services.replica_notes`) --------------------------------------------------

def write_note(path: Path, text: str) -> None:
    """A new small database at `path` holding `text`, in WAL mode (Litestream follows a database's log)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("CREATE TABLE note (value TEXT NOT NULL)")
        db.execute("INSERT INTO note VALUES (?)", [text])
        db.commit()


def read_note(path: Path) -> str | None:
    """The text a note database at `path` holds (a private copy, read as it lies); None when it holds none."""
    with contextlib.closing(_open(Path(path), immutable=True)) as db:
        found = db.execute("SELECT value FROM note").fetchone()
    return found[0] if found else None
