"""Backups of the live database, and putting one back while phones keep recording.

A backup is one self-contained SQLite file, written under a name nobody else holds and never over anything
but an earlier backup. A restore checks the backup on a private copy (is it ours, is it sound, is it from this
Scorepad or an older one, which is then brought up to date), and then, under the write lock the server's
phones wait for, copies the live database aside and replaces its contents in one transaction: every hand a
phone was told is saved is either in that safety copy or waited and landed in the restored database.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from ..core import house_time
from . import files, hand_ids, replica_marks
from .connection import connect, write_lock
from .readable import first_unreadable
from .schema import migrate, migrations, rescore_disagreeing

SQLITE_HEADER = b"SQLite format 3\x00"
RESTORING = "restoring"  # the name the prepared backup is attached under, beside the live database


class BackupRefused(Exception):
    """A backup or restore that did not happen; the message says why, and what (if anything) was written."""


@dataclass(frozen=True)
class Prepared:
    """A backup checked and, if it was older, brought up to date: a private copy, never the user's file."""

    source: Path
    copy: Path
    upgraded: bool
    tables: dict[str, tuple[str, ...]]
    rescored: tuple[int, ...] = ()  # games whose kept totals disagreed with their hands, scored again from them


@dataclass(frozen=True)
class Restored:
    safety_copy: Path
    lock_seconds: float  # how long phones' saves had to wait
    upgraded: bool
    rescored: tuple[int, ...] = ()  # see Prepared


# --- backup ---------------------------------------------------------------------------------------------------

def backup(live_path: str, target: str, replace: bool = False) -> Path:
    """Write a consistent copy of the live database (safe while the app runs) to `target`, which must be a
    file in an existing folder. An existing file is never written over, except an earlier Scorepad backup when
    `replace` is true, and then only once the new copy is complete. Raises BackupRefused; returns the path."""
    path = Path(target)
    _refuse_target(live_path, path, replace)
    files.clear_leftovers(path.parent)  # what an earlier backup here, killed midway, left
    try:
        with _written_aside(live_path, path.parent) as partial:
            if replace and path.exists():
                os.replace(partial, path)  # the earlier backup goes only now, when the new one is complete
                files.sync_folder(path.parent)
            else:
                files.name_as(partial, path)
    except FileExistsError:
        raise BackupRefused(f"{path} appeared while Scorepad was writing it. Nothing was written.") from None
    except (OSError, sqlite3.Error) as exc:
        raise BackupRefused(f"Could not write {path} ({_reason(exc)}). Nothing was written.") from None
    return path


PARTIAL = files.PARTIAL  # a backup being written: a hidden name, so a kill leaves nothing that looks like a backup


def backup_into(live_path: str, folder: str | Path) -> Path:
    """A backup in `folder` (made if missing) under a new name, scorepad-<local time>.db: never over another.
    It is written under a hidden name and takes its own only when complete: a process killed mid-backup
    leaves no half backup under a backup's name (a hidden file, cleared by the next run)."""
    try:
        return _new_copy(live_path, Path(folder), "scorepad")
    except (OSError, sqlite3.Error) as exc:
        raise BackupRefused(f"Could not write into {folder} ({_reason(exc)}). Nothing was written.") from None


def _refuse_target(live_path: str, path: Path, replace: bool) -> None:
    if not Path(live_path).is_file():
        raise BackupRefused(f"There is no database at {live_path} to back up. Nothing was written.")
    if path.is_dir():
        raise BackupRefused(f"{path} is a folder. Name a file inside it, for example "
                            f"{path / 'scorepad-backup.db'}. Nothing was written.")
    if not path.parent.is_dir():
        raise BackupRefused(f"The folder {path.parent} does not exist (is the drive plugged in?). "
                            "Nothing was written.")
    if not path.exists():
        return
    if path.resolve() == Path(live_path).resolve():
        raise BackupRefused(f"{path} is the live database itself. Choose another file. Nothing was written.")
    if not is_scorepad_file(path):
        raise BackupRefused(f"{path} already exists and is not a Scorepad backup: Scorepad will not write over "
                            "it. Choose another name. Nothing was written.")
    if not replace:
        raise BackupRefused(f"{path} is an earlier Scorepad backup. To write over it, add --force. "
                            "Nothing was written.")


def _new_copy(live_path: str, folder: Path, stem: str, whole: bool = True) -> Path:
    """A complete copy of the live database in `folder` (made if missing), named stem-<local time>[-n].db. With
    `whole` (a backup), a copy whose rows' links are broken is refused (see `_written_aside`)."""
    folder.mkdir(parents=True, exist_ok=True)
    with _written_aside(live_path, folder, whole) as partial:
        return files.name_new(partial, _names(folder, stem))


@contextlib.contextmanager
def _written_aside(live_path: str, folder: Path, whole: bool = True) -> Iterator[Path]:
    """A complete copy of the live database, on disk under a hidden name in `folder`, for the block to name;
    whatever the block leaves under the hidden name is removed. With `whole`, a copy whose rows' links are
    broken is refused: `restore` would refuse it, and a backup that cannot be put back must not pass for one.
    (A safety copy before an upgrade or a restore is kept whatever it holds.)"""
    with files.being_written(folder) as partial:
        with contextlib.closing(sqlite3.connect(live_path, timeout=10)) as source:
            copy_database(source, partial)
        broken = _broken_links(partial) if whole else {}
        if broken:
            where = ", ".join(f"{count} in {table}" for table, count in sorted(broken.items()))
            raise BackupRefused(f"{live_path} has broken links between its rows ({where}): a backup of it would "
                                "not restore. Nothing was written.")
        yield partial


def _broken_links(path: Path) -> dict[str, int]:
    """Rows whose link to another row leads nowhere, counted by table, in the database at `path` (read only)."""
    with contextlib.closing(_open_readonly(path)) as conn:
        return dict(conn.execute("SELECT \"table\", count(*) FROM pragma_foreign_key_check GROUP BY 1").fetchall())


def _reason(exc: Exception) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


def copy_database(source: sqlite3.Connection, path: Path) -> None:
    """A consistent snapshot of `source` (SQLite's online backup, one read transaction) into the empty file
    `path`, kept as one file with no -wal beside it, and on disk before this returns."""
    with contextlib.closing(sqlite3.connect(path)) as copy:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")
    files.sync_folder(path.parent)


def _names(folder: Path, stem: str):
    """The names a new file takes, first to last free: stem-<local time>.db, then stem-<local time>-2.db..."""
    stamp = _stamp()
    return lambda n: folder / (f"{stem}-{stamp}.db" if n == 1 else f"{stem}-{stamp}-{n}.db")


def _stamp() -> str:
    # The house's clock: the family picks a backup by when it was made, at their table.
    return house_time.wall_clock().strftime("%Y%m%d-%H%M%S")


def is_scorepad_file(path: Path) -> bool:
    """True when `path` is a SQLite file that Scorepad's migrations have been applied to."""
    try:
        with path.open("rb") as file:
            if file.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                return False
        with contextlib.closing(_open_readonly(path)) as conn:
            return bool(_migrations_applied(conn))
    except (OSError, sqlite3.Error):
        return False


def _open_readonly(path: Path) -> sqlite3.Connection:
    # A file with no -wal beside it is complete in itself: read it as it lies, which leaves no -shm or -wal
    # next to the user's file. With a -wal, SQLite must read that too, and the read-only mode is the way.
    wal = path.with_name(path.name + "-wal")
    options = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{options}", uri=True)


def _migrations_applied(conn) -> list[str]:
    """Names of the Scorepad migrations recorded in the database, [] when there are none."""
    db = conn if isinstance(conn, sqlite_utils.Database) else sqlite_utils.Database(conn)
    return [m.name for m in migrations.applied(db)]


# --- before an upgrade ----------------------------------------------------------------------------------------

def migrate_after_backup(live_path: str, folder: str | Path) -> Path | None:
    """Bring the live database up to date (`migrate`), first keeping a copy of it in `folder` (made if missing)
    as before-upgrade-<local time>.db when this Scorepad is about to change its schema. Returns that copy, None
    when there was nothing to upgrade (a new database, or one up to date). Raises BackupRefused, and changes
    nothing, when the copy cannot be made: no upgrade without a way back."""
    copy = None
    folder = Path(folder)
    try:
        needed = _needs_upgrade(Path(live_path))
    except sqlite3.Error as exc:
        raise BackupRefused(f"Scorepad cannot open {live_path} ({exc}). Nothing was changed. To put a backup in "
                            f"its place: {RESTORE_COMMAND} {folder / 'scorepad-<time>.db'}") from None
    if needed:
        try:
            copy = _new_copy(live_path, folder, "before-upgrade", whole=False)
        except (OSError, sqlite3.Error) as exc:
            raise BackupRefused(f"Scorepad was about to bring {live_path} up to date, but could not keep a copy "
                                f"of it in {folder} first ({_reason(exc)}). Nothing was changed.") from None
    try:
        migrate(live_path)
    except Exception as exc:  # noqa: BLE001 - a migration is arbitrary code: whatever it raises, say the way back
        raise BackupRefused(upgrade_failed(live_path, exc, copy)) from exc
    return copy


# What a person types to put a backup back (README, "Backups"); the service and the container run it as theirs.
RESTORE_COMMAND = ".venv/bin/flask --app scorepad restore"


def upgrade_failed(live_path: str, exc: Exception, copy: Path | None) -> str:
    """Words for an upgrade that could not finish. Each migration is one transaction with its record, so the
    database is as the last one that finished left it; the copy kept before the upgrade is the way back."""
    said = f"Scorepad could not bring {live_path} up to date ({exc.__class__.__name__}: {exc})."
    if copy is None:
        return f"{said} Nothing was changed."
    return (f"{said} The database is as it was before the step that failed, and a copy of it as it was before "
            f"this upgrade is kept in {copy}. To go back, return to the Scorepad you had before (for example "
            f"git checkout of its version) and put that copy back with: {RESTORE_COMMAND} {copy}")


def _needs_upgrade(live: Path) -> bool:
    """An existing Scorepad database that lacks some of today's migrations."""
    if not live.is_file() or live.stat().st_size == 0:
        return False
    with contextlib.closing(sqlite3.connect(live, timeout=10)) as conn:
        db = sqlite_utils.Database(conn)
        return bool(migrations.applied(db)) and bool(migrations.pending(db))


# --- checking a backup ----------------------------------------------------------------------------------------

@contextlib.contextmanager
def prepare(backup_path: str, work_in: str | Path | None = None) -> Iterator[Prepared]:
    """Check a backup on a private copy and bring it up to date; the copy is gone when the block ends.
    Raises BackupRefused (nothing was changed) when it is not a sound backup of this or an older Scorepad.
    The user's file is only ever opened read-only.

    The copy is made in a hidden folder in `work_in` (the live database's folder, for `restore`: on its disk,
    not in a temporary folder that may be memory, or private to a service); by default the system's
    temporary folder. A restore killed midway leaves it behind, and the next start or run clears it
    (`files.clear_leftovers`)."""
    source = Path(backup_path)
    parent = Path(work_in) if work_in is not None else Path(tempfile.gettempdir())
    with contextlib.ExitStack() as stack:
        try:
            work = stack.enter_context(files.private_folder(parent))
        except OSError as exc:
            raise _refused(source, f"could not be checked: Scorepad cannot write in {parent} "
                                   f"({exc.strerror or exc})") from None
        copy, reference = Path(work) / "backup.db", Path(work) / "reference.db"
        _private_copy(source, copy)
        migrate(str(reference))
        with contextlib.closing(connect(str(reference))) as ref:
            known, tables = _migrations_applied(ref), table_shapes(ref)
        upgraded = _upgrade(source, copy, known)
        with contextlib.closing(connect(str(copy))) as db:
            _check_shape(source, db, tables)
            _check_rows(source, db)
            rescored = tuple(rescore_disagreeing(db))
        yield Prepared(source, copy, upgraded, tables, rescored)


def _refused(source: Path, why: str) -> BackupRefused:
    return BackupRefused(f"{source} {why}. Nothing was changed.")


def _private_copy(source: Path, copy: Path) -> None:
    if not source.exists():
        raise _refused(source, "does not exist")
    if source.is_dir():
        raise _refused(source, "is a folder, not a backup file")
    try:
        with source.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise _refused(source, f"cannot be read ({exc.strerror or exc})") from None
    if header != SQLITE_HEADER:
        raise _refused(source, "is not a Scorepad backup: it is not a database file at all")
    try:
        with contextlib.closing(_open_readonly(source)) as conn:
            copy_database(conn, copy)
    except sqlite3.Error as exc:
        raise _refused(source, f"is damaged ({exc})") from None
    with contextlib.closing(sqlite3.connect(copy)) as conn:
        try:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check(5)")]
        except sqlite3.DatabaseError as exc:
            problems = [str(exc)]
    if problems != ["ok"]:
        raise _refused(source, f"is damaged ({'; '.join(problems)})")


def _upgrade(source: Path, copy: Path, known: list[str]) -> bool:
    """Bring an older Scorepad backup's copy up to date; True when it needed it."""
    try:
        with contextlib.closing(connect(str(copy))) as db:
            applied = _migrations_applied(db)
    except sqlite3.Error as exc:
        raise _refused(source, f"is damaged ({exc})") from None
    if not applied:
        raise _refused(source, "is not a Scorepad backup: it is a database, but not one Scorepad made")
    newer = [name for name in applied if name not in known]
    if newer:
        raise _refused(source, f"was made by a newer Scorepad (it has changes this one does not know: "
                               f"{', '.join(newer)}). Update Scorepad, then restore it")
    if set(applied) == set(known):
        return False
    try:
        migrate(str(copy))
    except Exception as exc:  # noqa: BLE001 - a migration is arbitrary code; whatever it raises, nothing changes
        raise _refused(source, f"is an older Scorepad backup that could not be brought up to date "
                               f"({exc.__class__.__name__}: {exc})") from None
    return True


def table_shapes(db) -> dict[str, tuple[str, ...]]:
    """Every table (SQLite's own and Litestream's aside) and its columns, sorted: what the shape of the database
    is. Litestream, replicating (see `services.replica`), keeps two tables of its own in the live database and
    so in every copy of it: they are neither checked nor restored."""
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                      "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
                                      "AND name NOT LIKE '\\_litestream\\_%' ESCAPE '\\' ORDER BY name")]
    return {name: tuple(sorted(r[1] for r in db.execute("SELECT * FROM pragma_table_info(?)", [name])))
            for name in names}


def _check_shape(source: Path, db, expected: dict[str, tuple[str, ...]]) -> None:
    tables = table_shapes(db)
    if tables != expected:
        missing = sorted(set(expected) - set(tables))
        extra = sorted(set(tables) - set(expected))
        changed = sorted(t for t in set(tables) & set(expected) if tables[t] != expected[t])
        detail = "; ".join(part for part in (
            f"missing tables: {', '.join(missing)}" if missing else "",
            f"tables Scorepad does not have: {', '.join(extra)}" if extra else "",
            f"different columns in: {', '.join(changed)}" if changed else "") if part)
        raise _refused(source, f"does not have the tables this Scorepad makes ({detail})")
    broken = db.execute("SELECT count(*) FROM pragma_foreign_key_check").fetchone()[0]
    if broken:
        raise _refused(source, f"is damaged (links between its rows are broken: {broken} found)")


def _check_rows(source: Path, db) -> None:
    """Every row read as the pages read it: a backup that would make a page fail is not put in place."""
    unreadable = first_unreadable(db)
    if unreadable:
        raise _refused(source, f"holds a row Scorepad cannot read: {unreadable}")


# --- putting it back --------------------------------------------------------------------------------------------

def restore(backup_path: str, live_path: str) -> Restored:
    """Check a backup and put it in place of the live database's contents (see `put_back`)."""
    with prepare(backup_path) as prepared:
        return put_back(prepared, live_path)


def put_back(prepared: Prepared, live_path: str, from_replica: bool = False) -> Restored:
    """Replace the live database's contents with the prepared backup, while the server runs.

    Under one write lock (the server's writers wait for it): the live database is copied aside into a new
    before-restore-<time>.db next to it, then every table is replaced, all in one transaction. Every game's
    version and every records counter end up above any value either database had, so no phone keeps a page
    of the replaced database as "not modified". The live database keeps its replica's marks, unless the backup
    is the replica's own database (`from_replica`): then it takes the replica's, and carries on writing it (see
    `replica_marks`). Raises BackupRefused, saying where the safety copy is when one was made; the live database
    is then as it was."""
    live = Path(live_path)
    with contextlib.ExitStack() as stack:
        try:
            aside = stack.enter_context(files.being_written(live.parent))
        except OSError as exc:
            raise BackupRefused(f"Could not make a safety copy next to {live} ({exc.strerror or exc}). "
                                "Nothing was changed.") from None
        if not _takes_rows(live, prepared.tables):
            return _put_file_back(prepared, live, aside)
        return _put_back(prepared, live, aside, from_replica)


def _put_back(prepared: Prepared, live: Path, aside: Path, from_replica: bool) -> Restored:
    db = connect(str(live))
    safety = None
    try:
        db.execute(f"ATTACH DATABASE ? AS {RESTORING}", [str(prepared.copy)])
        # The rows go in exactly as the prepared copy has them, whose links `prepare` checked. Checking them
        # again row by row would hold the lock for minutes on years of games: deleting a game looks for games
        # that are its rematch, and no index serves that. (This pragma is ignored inside a transaction.)
        db.execute("PRAGMA foreign_keys = OFF")
        with write_lock(db):
            locked = time.monotonic()
            # The safety copy is whole under its name before a row is replaced; a kill while it is being
            # written leaves only a hidden file, which the next run clears.
            _copy_aside(str(live), aside)
            safety = files.name_new(aside, _names(live.parent, "before-restore"))
            _replace_contents(db, prepared.tables)
            _carry_marks(db, from_replica)
        held = time.monotonic() - locked
    except (OSError, sqlite3.Error) as exc:
        if safety is None:
            raise BackupRefused(f"Could not restore {prepared.source} ({exc}). Nothing was changed.") from None
        raise BackupRefused(f"Could not restore {prepared.source} ({exc}). Nothing else changed: the database "
                            f"is as it was, and a copy of it is also kept in {safety}.") from None
    finally:
        db.close()
    return Restored(safety, held, prepared.upgraded, prepared.rescored)


def _takes_rows(live: Path, tables: dict[str, tuple[str, ...]]) -> bool:
    """Whether the live database has today's tables, to take the backup's rows in place of its own. One that
    cannot be opened, or that an upgrade could not finish, is replaced as a file instead (no server runs on it:
    it would not have started)."""
    try:
        with contextlib.closing(sqlite3.connect(f"{live.resolve().as_uri()}?mode=ro", uri=True, timeout=10)) as conn:
            return table_shapes(conn) == tables
    except sqlite3.Error:
        return False


def _put_file_back(prepared: Prepared, live: Path, aside: Path) -> Restored:
    """The prepared backup becomes the live database file: the live one is kept first as the safety copy (as
    SQLite reads it, with its write-ahead log, or byte for byte when it does not open), the backup is written
    complete under a hidden name, the old log goes (it belongs to the old file), and one rename puts it in
    place. A kill at any moment leaves the old database or the restored one, and the safety copy."""
    safety = None
    try:
        try:
            with contextlib.closing(sqlite3.connect(live, timeout=10)) as reader:
                copy_database(reader, aside)
        except sqlite3.Error:
            shutil.copyfile(live, aside)
        safety = files.name_new(aside, _names(live.parent, "before-restore"))
        with files.being_written(live.parent) as incoming:
            with contextlib.closing(_open_readonly(prepared.copy)) as source:
                copy_database(source, incoming)
            _carry_hand_ids(live, incoming)
            for leftover in ("-wal", "-shm"):
                live.with_name(live.name + leftover).unlink(missing_ok=True)
            os.replace(incoming, live)
        files.sync_folder(live.parent)
    except (OSError, sqlite3.Error) as exc:
        kept = f"The database as it was is kept in {safety}." if safety else "Nothing was changed."
        raise BackupRefused(f"Could not restore {prepared.source} ({exc}). {kept}") from None
    return Restored(safety, 0.0, prepared.upgraded, prepared.rescored)


def _carry_hand_ids(live: Path, incoming: Path) -> None:
    """The file about to replace `live` numbers no new hand at or below an id `live` gave (see `hand_ids`), as far
    as `live` can be read: a file that does not open, or holds no hands, gives none."""
    try:
        with contextlib.closing(sqlite3.connect(f"{live.resolve().as_uri()}?mode=ro", uri=True, timeout=10)) as old:
            try:
                given = hand_ids.highest(old)
            except sqlite3.OperationalError:  # tables of an older Scorepad: no counters yet
                given = old.execute("SELECT coalesce(max(id), 0) FROM hands").fetchone()[0]
    except sqlite3.Error:
        return
    # closed before the rename: what it wrote is in the file itself, not in a log left beside its old name
    with contextlib.closing(sqlite3.connect(incoming, timeout=10)) as new, new:
        hand_ids.keep_highest(new, given)


def _copy_aside(live_path: str, safety: Path) -> None:
    # A second connection reads while the first holds the write lock: SQLite's backup cannot read through a
    # connection that is writing, and with the lock held nobody can commit between this copy and the swap.
    with contextlib.closing(sqlite3.connect(live_path, timeout=10)) as reader:
        copy_database(reader, safety)


# The tables the version triggers write to are emptied first and filled last: while years of hands go in, the
# triggers find no game, player or counter to write to. (They still run for every row: on 10,000 games the
# phones wait about 0.3 s longer than before there were triggers.)
_BUMPED = ("games", "players", "counters")


def _replace_contents(db, tables: dict[str, tuple[str, ...]]) -> None:
    """Inside the write lock: every table but the replica's marks (see `_carry_marks`) takes the attached
    backup's rows; caches are told everything moved."""
    highest = _highest_mark(db)
    given = max(hand_ids.highest(db, schema) for schema in ("main", RESTORING))
    order = sorted((table for table in tables if table != replica_marks.TABLE), key=lambda table: table in _BUMPED)
    for table in reversed(order):
        db.execute(f'DELETE FROM main."{table}"')
    for table in order:
        names = ", ".join(f'"{c}"' for c in tables[table])
        db.execute(f'INSERT INTO main."{table}" ({names}) SELECT {names} FROM {RESTORING}."{table}"')
    # A trigger takes this row as "everything changed": every version and records counter goes past `highest`
    db.execute("INSERT INTO counters (name, value) VALUES ('lift', ?)", [highest])
    # ... and no hand recorded from now on takes the id of one this restore took away (a form still names it)
    hand_ids.keep_highest(db, given)


def _carry_marks(db, from_replica: bool) -> None:
    """Inside the write lock, after `_replace_contents`: the live database keeps its replica's marks, unless the
    backup is the replica's own database, whose marks it takes (it carries on writing that replica). Either way
    the server is told the database changed wholesale, and drills its replica."""
    if from_replica:
        carried = ", ".join("?" * len(replica_marks.CARRIED))
        db.execute(f"DELETE FROM main.{replica_marks.TABLE} WHERE name IN ({carried})", replica_marks.CARRIED)
        db.execute(f"INSERT INTO main.{replica_marks.TABLE} SELECT * FROM {RESTORING}.{replica_marks.TABLE} "
                   f"WHERE name IN ({carried})", replica_marks.CARRIED)
    replica_marks.mark_changed(db, "restored from the replica" if from_replica else "restored from a backup")


def _highest_mark(db) -> int:
    """The highest game version, records or lists counter, or player records version in either database."""
    def highest(sql: str) -> int:
        return max(db.execute(sql.format(schema=schema)).fetchone()[0] or 0 for schema in ("main", RESTORING))
    return max(highest("SELECT max(version) FROM {schema}.games"),
               highest("SELECT max(value) FROM {schema}.counters WHERE name IN ('records', 'lists')"),
               highest("SELECT max(records_version) FROM {schema}.players"))
