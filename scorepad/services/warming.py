"""Records, figures and ratings computed again ahead of the next look: everyone's at start-up, a game's players'
when its end moves, on one thread a database.

Asks that come while that thread works are merged and done once after it: a club's twenty tables ending within a
minute warm their eighty players in one or two passes, not sixty threads folding the same games side by side and
taking the server's CPU from the phones; and between two pieces of its work the thread steps aside while the server
answers someone (`courtesy`). A pass that fails is a courtesy lost: the page computes what it needs.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterable

from ..store import records
from . import courtesy, figures, ratings

_logger = logging.getLogger(__name__)

EVERYONE = None
_LOCK = threading.Lock()
_WANTED: dict[str, set[int] | None] = {}  # database path -> the players to warm next (None: everyone)
_THREADS: dict[str, threading.Thread] = {}  # database path -> the thread warming it
_PASSES: dict = {"passes": 0, "last": None}  # for /healthz and `make bench`


def warm(path: str, player_ids: Iterable[int] | None = EVERYONE) -> None:
    """Warm the records and figures of `player_ids` (everyone when None) and everyone's ratings, on the
    database's warming thread; started when none runs."""
    path = os.path.realpath(path)  # the server's setting and a connection's own name for the file are one key
    with _LOCK:
        if path in _WANTED:
            wanted = _WANTED[path]
            _WANTED[path] = None if wanted is None or player_ids is None else wanted | set(player_ids)
        else:
            _WANTED[path] = None if player_ids is None else set(player_ids)
        if path in _THREADS:
            return
        thread = _THREADS[path] = threading.Thread(target=_run, args=(path,), daemon=True, name="scorepad-warm")
        try:
            thread.start()
        except BaseException:  # no thread to be had: the next ask must find none running and start one
            del _THREADS[path]
            raise


def wait(timeout: float = 30) -> None:
    """Wait until no database is being warmed (a test)."""
    with _LOCK:
        threads = list(_THREADS.values())
    for thread in threads:
        thread.join(timeout)


def _run(path: str) -> None:
    while True:
        with _LOCK:
            if path not in _WANTED:
                del _THREADS[path]
                return
            wanted = _WANTED.pop(path)
        ids = None if wanted is None else sorted(wanted)
        began, cpu = time.monotonic(), time.thread_time()
        try:  # each piece of the work waits for a quiet moment (see `courtesy`)
            records.warm_records(path, ids, courtesy.step_aside)
            courtesy.step_aside()
            ratings.warm(path)
            figures.warm(path, ids, courtesy.step_aside)
        except Exception as error:  # noqa: BLE001 - a courtesy: never the end of the server's thread
            _logger.warning("Warming the records of %s failed: %s", path, error)
        with _LOCK:
            _PASSES["passes"] += 1
            _PASSES["last"] = {"players": "everyone" if ids is None else len(ids),
                               "seconds": round(time.monotonic() - began, 2),
                               "cpu seconds": round(time.thread_time() - cpu, 2)}


def census() -> dict:
    """Whether a database is being warmed now, the passes made, and what the last one took."""
    with _LOCK:
        return {"warming now": len(_THREADS), **_PASSES}
