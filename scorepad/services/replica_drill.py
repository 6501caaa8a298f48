"""The restore drill: proof that the replica can be put back, not the assumption that it can.

The replica's latest state is restored by Litestream into a private scratch file beside the database, and
checked as a restore would need it: SQLite's integrity check, Scorepad's own tables and the links between its
rows, whose database it is (`replica_marks`), and that it holds every game and hand the live database had up to
its moment. Then the scratch file is deleted. The outcome is one of the core's events (`replica_states`), with
the household's words for it and, for a drill that passed, its `Proof`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from ..core.replica_states import Event, Proof
from ..store import connection, replica_marks
from . import replica


@dataclass(frozen=True)
class Outcome:
    """What a drill found: the event it is, why (in words), its proof when it passed, and what the copy held."""

    event: Event
    why: str | None = None
    proof: Proof | None = None
    held: replica_marks.Summary | None = None


def drill(place: replica.Place, live_path: str, clock: Callable[[], datetime]) -> Outcome:
    """Restore the replica's latest state into a scratch file, check it against the live database, delete it."""
    began, started = clock(), time.monotonic()
    try:
        with replica.restored(place, live_path, gently=True) as got:
            checked = replica_marks.check_copy(got.path, live_path)
            written_at = got.written_at
    except replica.NothingThere:
        return Outcome(Event.REPLICA_EMPTY, "it holds nothing yet")
    except replica.CannotReach as refused:
        return Outcome(Event.UNREACHABLE, refused.why or str(refused))
    except replica.CannotPutBack as refused:
        return Outcome(Event.DRILL_FAILED, refused.why or str(refused))
    except replica.ReplicaRefused as refused:
        return Outcome(Event.CANNOT_RUN, refused.why or str(refused))
    except (OSError, sqlite3.Error) as exc:
        return Outcome(Event.DRILL_FAILED, f"the copy could not be checked ({exc})")
    return judge(checked, _live_marks(live_path), clock(), began, time.monotonic() - started, written_at)


def _live_marks(live_path: str) -> tuple[str | None, replica_marks.Writer | None]:
    with contextlib.closing(connection.connect(live_path)) as db:
        return replica_marks.identity(db), replica_marks.writer(db)


def judge(checked: replica_marks.CopyCheck, live: tuple[str | None, replica_marks.Writer | None], now: datetime,
          began: datetime, seconds: float, written_at: datetime | None) -> Outcome:
    """What a checked copy means, given the live database's identity and writer."""
    if checked.damage:
        return Outcome(Event.DRILL_FAILED, "what came back is damaged: " + "; ".join(checked.damage))
    held = checked.summary
    identity, writer = live
    if held is not None and held.identity and identity and held.identity != identity:
        return Outcome(Event.ANOTHER_OWNER, f"it holds another Scorepad's database ({held.said()})", held=held)
    if held is not None and held.writer and (writer is None or held.writer.id != writer.id):
        return Outcome(Event.ANOTHER_OWNER, f"{held.writer.said()} writes to it (since "
                       f"{_when(held.writer.since)}), and what it holds is not this Scorepad's latest", held=held)
    if checked.missing:
        return Outcome(Event.DRILL_FAILED, f"it lacks {checked.missing} of the hands and games recorded before "
                                           "its last one", held=held)
    return Outcome(Event.DRILL_PASSED, proof=_proof(checked, began, seconds, written_at), held=held)


def _proof(checked: replica_marks.CopyCheck, at: datetime, seconds: float, moment: datetime | None) -> Proof:
    held = checked.summary
    return Proof(at, moment, held.games if held else 0, held.hands if held else 0,
                 held.last_hand_at if held else None, round(seconds, 2), checked.bytes)


def _when(stamp: str) -> str:
    try:
        return f"{datetime.fromisoformat(stamp).astimezone():%a %-d %b %H:%M}"
    except ValueError:
        return stamp or "a while"


MARGIN_BYTES = 64 * 2**20


def room_for_scratch(live_path: str) -> str | None:
    """None when the disk beside the database has room for the drill's scratch file (the database's size and a
    margin); else why not, in words. A drill must never fill the disk the live database needs to grow."""
    try:
        stats = os.statvfs(os.path.dirname(os.path.abspath(live_path)))
        needed = int(os.path.getsize(live_path) * 1.2) + MARGIN_BYTES
    except OSError:
        return None
    free = stats.f_bavail * stats.f_frsize
    if free >= needed:
        return None
    return (f"there is no room to put it back for a check: that needs {needed / 2**20:.0f} MB beside the "
            f"database, and {free / 2**20:.0f} MB are free")
