"""A game's ETag as the phones' polls ask it, every three seconds from every phone: read once and kept while
nothing is written to the database, so the quick answer to an unchanged poll (`web.games.unchanged_polls`) needs no
query.

A query per poll was what the poll cost under load: each call into SQLite lets the interpreter go to another thread
and wait to have it back, and with eight phones asking at once on two cores a poll cost ten times its own work. A
mark of the database (`store.connection.change_mark`: this process's writes, and the log file any process's write
goes through) costs one look at a file. What is kept under a mark is asked again after MAX_AGE whatever the mark
says: a write by another process within the file system's clock tick is seen then."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from ..store import connection

MAX_AGE = 2.0  # seconds: at most this late for another process's write the log's clock could not tell apart
KEPT = 4096  # games; past it, all are read again

_SEEN: dict[tuple[str, int], tuple[tuple, float, str | None]] = {}
_LOCK = threading.Lock()  # only around the dict's upkeep; the reads themselves go on side by side


def game_etag(path: str, game_id: int, read: Callable[[], str | None], clock=time.monotonic) -> str | None:
    """The ETag of game `game_id` in the database at `path` now (None: no such game): kept, or `read`."""
    mark = connection.change_mark(path)  # before the read: a write after it moves the mark
    now = clock()
    seen = _SEEN.get((path, game_id))
    if seen is not None and seen[0] == mark and now - seen[1] < MAX_AGE:
        return seen[2]
    etag = read()
    with _LOCK:
        if len(_SEEN) >= KEPT:
            _SEEN.clear()
        _SEEN[(path, game_id)] = (mark, now, etag)
    return etag


def forget() -> None:
    """Keep nothing (a test)."""
    with _LOCK:
        _SEEN.clear()


def census() -> dict:
    return {"games": len(_SEEN)}
