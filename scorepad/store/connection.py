"""Opening the database: a connection, one kept per thread for reuse, the write lock, and the store's clock."""

from __future__ import annotations

import contextlib
import itertools
import os
import sqlite3
import threading
import time
import weakref
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

MAX_ID = 2**63 - 1  # SQLite's largest integer: a larger id in a URL is simply not there
# Each connection's own page cache (SQLite's default is 2 MiB): a server keeps one connection a thread, sixteen
# and more, and the pages they read are in the system's file cache anyway. 128 KiB, not 512: the server on the
# bench's 10,000 games held 4.5 MiB less once warmed and 3.5 MiB less at the end of every kind of load, serving
# each kind as fast (game pages 316 a second against 271 and 281, the mix 287 against 265 and 319).
CACHE_KIB = 128

_LOCAL = threading.local()
_WRITERS: dict[str, threading.RLock] = {}  # a database file's path -> the lock its writers in this process share
_WRITERS_OF: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # a connection made here -> that lock
_WRITERS_LOCK = threading.Lock()
_PATHS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # a connection -> the file it is connected to

# Folding the log (SQLite's checkpoint after a commit): a write folds the WAL into the database once it holds this
# many pages, SQLite's own default; 0 while the log is held (`hold_log`).
FOLD_AFTER_PAGES = 1000
_HELD: set[str] = set()  # the databases (by `_key`) whose log no writer here may fold now
_FOLDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # a connection -> (its database's key, its setting)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def connect(path: str) -> sqlite_utils.Database:
    conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    _WRITERS_OF[db] = _writers(path)
    _FOLDS[db] = (_key(path), None)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 10000")
    db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    return db


def staging(live_path: str) -> sqlite_utils.Database:
    """A private database with no file name (SQLite removes it when the connection closes, and a process killed
    leaves nothing of it anywhere) with the database at `live_path` attached as `live`. Its transactions queue
    on `live_path`'s write lock, as every writer to that database does."""
    db = sqlite_utils.Database(sqlite3.connect("", timeout=10, check_same_thread=False))
    _WRITERS_OF[db] = _writers(live_path)
    _FOLDS[db] = (_key(live_path), None)
    db.execute("PRAGMA busy_timeout = 10000")
    db.execute("ATTACH DATABASE ? AS live", [live_path])
    return db


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


def _key(path: str) -> str:
    return path if path.startswith(":memory:") or path.startswith("file:") else str(Path(path).resolve())


def _writers(path: str) -> threading.RLock:
    """The lock this process's writers to `path` queue on (an RLock: a writer may open a second connection)."""
    with _WRITERS_LOCK:
        return _WRITERS.setdefault(_key(path), threading.RLock())


def hold_log(path: str) -> None:
    """From the next write on, no writer in this process folds the log of the database at `path` into it.

    Litestream follows the database by reading its log (the WAL). While it runs, it folds the log itself (a fold
    of ours racing its own as the log starts over put a damaged transaction into the replica). While it is stopped
    and is to carry on where it stopped (started again, handing over from the run that wrote a new snapshot), a
    fold followed by the next write starting the log over would take changes it never read out of the log for
    good; Litestream 0.5 can then take the log of after for the one it knew and carry on, and the replica puts
    back a damaged database. Unfolded, the log only grows, and SQLite starts a log over only once all of it was
    folded."""
    with _WRITERS_LOCK:
        _HELD.add(_key(path))


def let_log_go(path: str) -> None:
    """Writers fold the log of the database at `path` again (as SQLite would by itself)."""
    with _WRITERS_LOCK:
        _HELD.discard(_key(path))


def log_held(path: str) -> bool:
    return _key(path) in _HELD


def _fold_as_told(db) -> None:
    """Set this connection's folding as the log's hold says, before it writes (a pragma only when it changes)."""
    try:
        key, setting = _FOLDS.get(db) or (None, None)
    except TypeError:  # a connection made elsewhere (a test's stand-in): SQLite's own folding
        return
    if key is None:
        return
    wanted = 0 if key in _HELD else FOLD_AFTER_PAGES
    if wanted != setting:
        db.conn.execute(f"PRAGMA wal_autocheckpoint = {wanted}")
        _FOLDS[db] = (key, wanted)


def _queue_of(db):
    try:
        return _WRITERS_OF.get(db) or contextlib.nullcontext()
    except TypeError:  # a connection made elsewhere (a test's stand-in): SQLite's own waiting only
        return contextlib.nullcontext()


@contextlib.contextmanager
def snapshot(db: sqlite_utils.Database):
    """Reads that see the database at one moment (one read transaction), so that what they read together
    hangs together even while another phone writes; inside a writer's transaction, simply that transaction."""
    if db.conn.in_transaction:
        yield db
        return
    db.conn.execute("BEGIN")
    try:
        yield db
    finally:
        if db.conn.in_transaction:
            db.conn.execute("COMMIT")


@contextlib.contextmanager
def write_lock(db: sqlite_utils.Database):
    """One transaction holding SQLite's write lock from its first statement (BEGIN IMMEDIATE).

    The server's threads queue for it in this process first. Left to SQLite alone, a writer that finds the
    database locked sleeps in growing steps (up to 100 ms a try) and keeps losing to writers that arrive fresh:
    with a dozen phones saving at once, one save waited seconds. Another process (a backup, the command line)
    is still waited for by SQLite's busy timeout. While a writer waits or writes, pages about to be built step
    aside (`writes_first`)."""
    global _writes_ended
    with _announced(), _queue_of(db):
        _fold_as_told(db)
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.conn.execute("COMMIT")
        except BaseException:
            # a COMMIT refused (a full disk) leaves the transaction open: what follows must not read its writes
            if db.conn.in_transaction:
                db.conn.rollback()
            raise
        finally:
            _writes_ended = next(_WRITE_COUNT)


# Whether anything was written since a moment, asked without a query (`change_mark`): every write of this process
# is counted as it ends, and another process's write (the command line) goes through the log file
_WRITE_COUNT = itertools.count(1)
_writes_ended = 0
_LOGS: dict[str, str] = {}  # a database's path as given -> its log's (the WAL's) path


def change_mark(path: str) -> tuple:
    """What moves whenever anything is written to the database at `path`: the writes this process ended, and its
    log file (SQLite in WAL mode appends every commit to it, whichever process makes it). Equal marks say nothing
    was written in between: at once for this process's writes through `write_lock`, to within the file system's
    clock for any other (whoever keeps an answer under a mark asks again after a while too). Taken before what it
    vouches for is read."""
    log = _LOGS.get(path)
    if log is None:
        log = _LOGS[path] = _key(path) + "-wal"
    try:
        found = os.stat(log)
    except OSError:
        # no log: a database not in WAL mode (yet) is written in place, so the file itself is what moves
        try:
            found = os.stat(path)
        except OSError:
            return (_writes_ended, None)
        return (_writes_ended, "file", found.st_ino, found.st_size, found.st_mtime_ns)
    return (_writes_ended, found.st_ino, found.st_size, found.st_mtime_ns)


# Writes first. A save holds the write lock across a dozen calls into SQLite, and each call lets Python's other
# threads run: with twenty phones asking for pages without a pause, every return from SQLite waited for the page
# renders of the other threads to hand the interpreter back, and a save took 700 ms while a page took 40. A page
# that is about to be built waits, for a moment at most, while a write is waiting or under way; pages already being
# built go on, so a save waits for a few of them, not for every page asked for meanwhile.
WRITES_FIRST_SECONDS = 0.25  # the most a page waits: never for long, whatever writes keep coming
_WRITES = threading.Condition()
_writers_now = 0


@contextlib.contextmanager
def _announced():
    global _writers_now
    with _WRITES:
        _writers_now += 1
    try:
        yield
    finally:
        with _WRITES:
            _writers_now -= 1
            if not _writers_now:
                _WRITES.notify_all()


def writes_first(timeout: float = WRITES_FIRST_SECONDS) -> None:
    """Wait, at most `timeout`, while a write in this process is waiting for the write lock or holding it: call
    before work that a save should not wait behind (building a page). Never call it while writing."""
    if not _writers_now:  # the usual case, without a lock
        return
    with _WRITES:
        _WRITES.wait_for(lambda: not _writers_now, timeout)


def database_path(db) -> str:
    """The file `db` is connected to (a connection's own never changes: asked once, as pages ask it for their keys
    on every request)."""
    try:
        found = _PATHS.get(db)
    except TypeError:  # a connection made elsewhere that cannot be a weak key: asked each time
        return db.execute("PRAGMA database_list").fetchone()[2]
    if found is None:
        found = _PATHS[db] = db.execute("PRAGMA database_list").fetchone()[2]
    return found


# The database file's identity is looked at once in this long, while this process writes nothing: a look is a system
# call, and each lets the interpreter go to another thread (a file is put in the database's place only by a restore,
# which writes, or with no server running)
LOOK_AGAIN_SECONDS = 0.05
_FILES: dict[str, tuple[float, int, tuple]] = {}  # a path -> (when it was looked at, the writes by then, the answer)


def database_file(db) -> tuple:
    """Which database file `db` is connected to, as a key for what is kept in memory about it: its path, and the
    file's identity on disk (a file put in the path's place is another database, whatever its versions say)."""
    path = database_path(db)
    looked, now = _FILES.get(path), time.monotonic()
    if looked is not None and now - looked[0] < LOOK_AGAIN_SECONDS and looked[1] == _writes_ended:
        return looked[2]  # looked at a moment ago, and nothing written here since (a restore writes)
    try:
        found = os.stat(path)
        named = (path, found.st_dev, found.st_ino)
    except OSError:  # a database with no file (in memory): its path alone
        named = (path,)
    _FILES[path] = (now, _writes_ended, named)
    return named



def analyze(db) -> None:
    """Gather the statistics SQLite's planner chooses indexes by: worth it after a large write."""
    db.execute("ANALYZE")


def created_within(column: str, start: str | None, end: str | None) -> tuple[list[str], list[str]]:
    """The conditions (and their parameters) for rows whose `column` falls within [start, end), UTC ISO; a
    bound left out is no condition."""
    where, params = [], []
    if start:
        where.append(f"{column} >= ?")
        params.append(start)
    if end:
        where.append(f"{column} < ?")
        params.append(end)
    return where, params


def rows(db, sql: str, params=()) -> list[dict]:
    """Every row `sql` gives, each as column name -> value."""
    cursor = db.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
