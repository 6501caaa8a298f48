"""What the pages ask of the database at every request (a game's ETag for every phone's poll, every three seconds;
the lists' and records' counters for every list), read once and kept while nothing is written to it.

A query per request was what a poll cost under load: each call into SQLite lets the interpreter go to another thread
and wait to have it back, and with eight phones asking at once on two cores a poll cost ten times its own work. A
mark of the database (`store.connection.change_mark`: this process's writes as they end, and the log file any
process's write goes through) costs no query. What is kept under a mark is read again after MAX_AGE whatever the
mark says: a write by another process within the file system's clock tick is seen then."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from ..store import connection

MAX_AGE = 2.0  # seconds: at most this late for another process's write the log's clock could not tell apart
KEPT = 4096  # answers; past it, all are read again

T = TypeVar("T")
_SEEN: dict[tuple[str, object], tuple[tuple, float, object]] = {}
_LOCK = threading.Lock()  # only around the dict's upkeep; the reads themselves go on side by side


def kept(db, what: object, read: Callable[[], T], clock=time.monotonic) -> T:
    """`read()`, the answer to `what` about the database `db` is connected to: kept from the last time while
    nothing was written since, and not for longer than MAX_AGE. `read` must read only through `db`. Inside a
    transaction it is read, and not kept: a writer's own answer is not yet anybody else's, and a snapshot's may
    be older than the mark."""
    if db.conn.in_transaction:
        return read()
    path = connection.database_path(db)
    mark = connection.change_mark(path)  # before the read: a write after it moves the mark
    now = clock()
    seen = _SEEN.get((path, what))
    if seen is not None and seen[0] == mark and now - seen[1] < MAX_AGE:
        return seen[2]
    answer = read()
    with _LOCK:
        if len(_SEEN) >= KEPT:
            _SEEN.clear()
        _SEEN[(path, what)] = (mark, now, answer)
    return answer


def forget() -> None:
    """Keep nothing (a test)."""
    with _LOCK:
        _SEEN.clear()


def census() -> dict:
    return {"answers": len(_SEEN)}
