"""Work no phone waits for (warming records, figures and ladders ahead of the next look) steps aside while the
server is answering someone.

Python runs one thread at a time: the warming thread folding a player's 3,500 games took the interpreter from
every request answered meanwhile, and at start-up, on 10,000 games, that was 55 s of CPU beside the phones (a
Raspberry Pi's several minutes). Now the web shell counts the requests being answered (`answering`) and the
warming thread, between two pieces of its work, waits until none is (`step_aside`), for a while at most: under
a load that never pauses it still goes on, a piece at a time. A page that waits for warming's own work (the
figures it is computing) says so (`awaited`), and warming does not wait for it: it would be waiting for itself.
"""

from __future__ import annotations

import contextlib
import threading

PATIENCE = 2.0  # the longest warming waits, each time, for a quiet moment

_QUIET = threading.Condition()
_answering = 0  # requests being answered now
_awaited = 0  # of them, those waiting for warming's own work


@contextlib.contextmanager
def answering():
    """Around each request the server answers."""
    global _answering
    with _QUIET:
        _answering += 1
    try:
        yield
    finally:
        with _QUIET:
            _answering -= 1
            _QUIET.notify_all()


@contextlib.contextmanager
def awaited():
    """Around a request's wait for work the warming thread is doing."""
    global _awaited
    with _QUIET:
        _awaited += 1
        _QUIET.notify_all()
    try:
        yield
    finally:
        with _QUIET:
            _awaited -= 1


def _quiet() -> bool:
    return _answering == 0 or _awaited > 0


def step_aside(patience: float = PATIENCE) -> bool:
    """Wait, `patience` at most, until no request is being answered (or one waits for this very work). Call only
    on a thread of work no request waits for, holding nothing a request may wait on. True: it was quiet."""
    if _quiet():  # the usual case, without a lock
        return True
    with _QUIET:
        return _QUIET.wait_for(_quiet, patience)


def census() -> dict:
    """Requests being answered now, and of them those waiting for warming."""
    return {"answering": _answering, "awaiting warming": _awaited}
