"""The copy off this machine (the replica Litestream streams to) as the household sees it: what it is doing, what
it last proved, and the words every page says about it.

Everything that decides the replica's state lives in this file, as data (h11's `_state.py` habit):
`TRANSITIONS` says where each event takes each state, `RUNS_LITESTREAM` in which states Litestream streams, and
`WARNS` which states every page warns about. The services watch Litestream and the replica and report what they
saw as events; `step` folds an event into the `Health`, and `warning` and `summary` say it in words. Pure: no
clock (the caller says when), no files, no processes.

Health is proof, not assumption: the copy is "proven" only when a restore drill put it back in a scratch file and
checked it (`Proof`); "streaming" says only that Litestream is writing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import Enum


class State(Enum):
    """What the replication is doing. The values are the words /healthz gives."""

    OFF = "off"  # no REPLICA_URL
    CANNOT_START = "cannot start"  # a place Litestream cannot use, or no Litestream
    CHECKING = "checking"  # looking at what the replica holds before writing to it
    STREAMING = "streaming"  # writing; not yet proven since it began
    PROVEN = "proven"  # writing, and the last drill put it back and found it whole
    TROUBLE = "trouble"  # Litestream says it cannot write (a full disk, a refusal, no answer)
    HEALING = "healing"  # starting the replica over with a new snapshot
    HEALED = "healed"  # started over; its first drill is still to come
    DRILL_FAILED = "drill failed"  # it cannot be put back, and starting over did not help (yet)
    RESTARTING = "restarting"  # Litestream stopped; it is started again
    NOT_MOUNTED = "share not mounted"  # the replica's folder is the empty mount point of a share: not written into
    UNREACHABLE = "unreachable"  # the replica could not be reached to check it before writing
    REFUSED = "refused"  # it holds another database, or another Scorepad writes to it: not written into
    STOPPED = "stopped"  # the server is stopping


class Event(Enum):
    """What the services saw."""

    CANNOT_RUN = "cannot run"  # the place is unusable, Litestream is missing or would not start
    REPLICA_EMPTY = "replica empty"  # nothing there yet to put back (a new replica)
    DRILL_PASSED = "drill passed"  # put back into a scratch file, and whole (see `Proof`)
    DRILL_FAILED = "drill failed"  # it could not be put back, or what came back was not whole
    ANOTHER_OWNER = "another owner"  # what came back is another database, or another Scorepad's writing
    UNREACHABLE = "unreachable"  # the drill could not reach the replica
    HISTORY_LOST = "history lost"  # its files have a gap or are gone (a wiped folder, a share that dropped)
    TROUBLE = "trouble"  # Litestream reported that it cannot write
    SYNCED = "synced"  # Litestream brought the replica up to date since the trouble
    HEALED = "healed"  # a new snapshot was written and Litestream runs again
    HEAL_FAILED = "heal failed"
    LITESTREAM_EXITED = "litestream exited"
    LITESTREAM_STARTED = "litestream started"  # again, after it exited
    SHARE_MISSING = "share missing"
    SHARE_BACK = "share back"
    RETRY = "retry"  # the time came to look again
    STOPPING = "stopping"


S, E = State, Event

# While Litestream writes, these events mean the same in every such state.
_WHILE_WRITING = {
    E.DRILL_PASSED: S.PROVEN,
    E.DRILL_FAILED: S.HEALING,  # start it over by itself, then drill again
    E.ANOTHER_OWNER: S.REFUSED,
    E.HISTORY_LOST: S.HEALING,
    E.UNREACHABLE: S.TROUBLE,
    E.TROUBLE: S.TROUBLE,
    E.LITESTREAM_EXITED: S.RESTARTING,
    E.CANNOT_RUN: S.CANNOT_START,  # Litestream would not start again (its config could not be written, say)
    E.SHARE_MISSING: S.NOT_MOUNTED,
    E.STOPPING: S.STOPPED,
}

# (state, event) -> the next state. An event a state does not list changes nothing (a late report from a
# Litestream already stopped, a drill's answer after the share went): the tests hold every pair.
TRANSITIONS: dict[State, dict[Event, State]] = {
    S.OFF: {},
    S.CANNOT_START: {E.RETRY: S.CHECKING, E.STOPPING: S.STOPPED},
    S.CHECKING: {
        E.REPLICA_EMPTY: S.STREAMING,
        E.DRILL_PASSED: S.PROVEN,
        E.DRILL_FAILED: S.HEALING,
        E.HISTORY_LOST: S.HEALING,
        E.ANOTHER_OWNER: S.REFUSED,
        E.UNREACHABLE: S.UNREACHABLE,
        E.CANNOT_RUN: S.CANNOT_START,
        E.SHARE_MISSING: S.NOT_MOUNTED,
        E.STOPPING: S.STOPPED,
    },
    S.STREAMING: dict(_WHILE_WRITING),
    S.PROVEN: dict(_WHILE_WRITING),
    # A drill that passes while Litestream cannot write proves the past, not that writing works again.
    S.TROUBLE: {**_WHILE_WRITING, E.DRILL_PASSED: S.TROUBLE, E.SYNCED: S.STREAMING},
    S.HEALING: {E.HEALED: S.HEALED, E.HEAL_FAILED: S.DRILL_FAILED, E.CANNOT_RUN: S.CANNOT_START,
                E.SHARE_MISSING: S.NOT_MOUNTED, E.STOPPING: S.STOPPED},
    # Started over and still failing: say so, and look again later rather than start over in a loop.
    S.HEALED: {**_WHILE_WRITING, E.DRILL_FAILED: S.DRILL_FAILED, E.HISTORY_LOST: S.DRILL_FAILED},
    S.DRILL_FAILED: {E.RETRY: S.CHECKING, E.DRILL_PASSED: S.PROVEN, E.ANOTHER_OWNER: S.REFUSED,
                     E.LITESTREAM_EXITED: S.RESTARTING, E.CANNOT_RUN: S.CANNOT_START, E.SHARE_MISSING: S.NOT_MOUNTED,
                     E.STOPPING: S.STOPPED},
    S.RESTARTING: {E.LITESTREAM_STARTED: S.STREAMING, E.CANNOT_RUN: S.CANNOT_START,
                   E.SHARE_MISSING: S.NOT_MOUNTED, E.STOPPING: S.STOPPED},
    # Back from a share that dropped: what was written meanwhile may be missing from it (Litestream may have written
    # it into the empty mount point, or SQLite folded it into the database while nothing copied it), so the
    # replica is started over with a new snapshot, which a drill then proves: never carried on across the gap.
    S.NOT_MOUNTED: {E.SHARE_BACK: S.HEALING, E.STOPPING: S.STOPPED},
    S.UNREACHABLE: {E.RETRY: S.CHECKING, E.SHARE_MISSING: S.NOT_MOUNTED, E.STOPPING: S.STOPPED},
    S.REFUSED: {E.RETRY: S.CHECKING, E.SHARE_MISSING: S.NOT_MOUNTED, E.STOPPING: S.STOPPED},
    S.STOPPED: {},
}

# The states in which Litestream runs; in every other one it is stopped (or never started).
RUNS_LITESTREAM = frozenset({S.STREAMING, S.PROVEN, S.TROUBLE, S.HEALED, S.DRILL_FAILED})

# The states every page warns about. STREAMING and PROVEN warn only when the replica has not been reached for
# a while (`UNREACHED`); CHECKING, OFF and STOPPED never do.
WARNS = frozenset({S.CANNOT_START, S.TROUBLE, S.HEALING, S.HEALED, S.DRILL_FAILED, S.RESTARTING, S.NOT_MOUNTED,
                   S.UNREACHABLE, S.REFUSED})

# The states that wait for a RETRY, and how long after entering them it comes.
RETRY_AFTER: dict[State, timedelta] = {
    S.CANNOT_START: timedelta(minutes=1),
    S.UNREACHABLE: timedelta(minutes=1),
    S.DRILL_FAILED: timedelta(minutes=10),
    S.REFUSED: timedelta(minutes=5),
}

UNREACHED = timedelta(minutes=10)  # written to, but not reached for this long: a warning all the same
STALE_PROOF = timedelta(hours=3)  # written to, but not proven for this long (drills skipped): a warning
VISITOR_SHOWN = timedelta(days=1)  # how long a note from a refused Scorepad stays a warning here
HISTORY_KEPT = 12  # what About lists of what happened


@dataclass(frozen=True)
class Proof:
    """A drill that passed: the replica put back into a scratch file at `at`, whole, holding this database's
    games and hands up to its moment."""

    at: datetime
    moment: datetime | None  # when Litestream wrote the last change the copy holds
    games: int
    hands: int
    last_hand_at: datetime | None  # when the last hand it holds was recorded
    seconds: float  # how long the drill took
    bytes: int  # the scratch file's size (the disk it needed for that while)


@dataclass(frozen=True)
class Happening:
    """Something About lists: when, and what, in words."""

    at: datetime
    what: str


@dataclass(frozen=True)
class Visitor:
    """Another Scorepad that was given this replica's place, found it this one's, and did not write into it."""

    at: datetime
    host: str
    why: str


@dataclass(frozen=True)
class Health:
    """The replica's state since `since`, why (for a state that needs saying), the last proof, what happened
    lately (newest first), when Litestream last brought it up to date, and the last Scorepad refused its place."""

    state: State
    since: datetime
    why: str | None = None
    proof: Proof | None = None
    history: tuple[Happening, ...] = ()
    reached_at: datetime | None = None
    visitor: Visitor | None = None

    @property
    def runs_litestream(self) -> bool:
        return self.state in RUNS_LITESTREAM

    def retry_due(self, now: datetime) -> bool:
        """Whether the RETRY this state waits for is due."""
        wait = RETRY_AFTER.get(self.state)
        return wait is not None and now - self.since >= wait


def begin(at: datetime, configured: bool) -> Health:
    """The health before anything happened: OFF without a replica, CHECKING with one."""
    return Health(S.CHECKING if configured else S.OFF, at)


# What the history says when an event moves the replica into a state (None: nothing worth a line).
_SAID: dict[State, str] = {
    S.CANNOT_START: "could not start: {why}",
    S.TROUBLE: "Litestream reported: {why}",
    S.HEALING: "started over with a new snapshot: {why}",
    S.DRILL_FAILED: "could not be put back, even after starting over: {why}",
    S.RESTARTING: "Litestream stopped ({why}); started again",
    S.NOT_MOUNTED: "not written to: {why}",
    S.UNREACHABLE: "could not be reached: {why}",
    S.REFUSED: "not written to: {why}",
}


def step(health: Health, event: Event, at: datetime, *, why: str | None = None, proof: Proof | None = None) -> Health:
    """The health after `event` (at `at`; `why` in the household's words, `proof` for a drill that passed).
    An event the state does not take leaves it as it was, except that a proof is always kept and a sync
    always noted."""
    if event is E.DRILL_PASSED and proof is not None:
        health = replace(health, proof=proof)
    if event is E.SYNCED:
        if health.reached_at is not None and at <= health.reached_at:
            return health  # nothing new
        health = replace(health, reached_at=at)
        if at <= health.since:
            return health  # a sync from before the state began (before the trouble) says nothing of it
    target = TRANSITIONS[health.state].get(event)
    if target is None:
        return health
    if target is health.state and why in (None, health.why):
        return health  # the same state again (a drill passes every hour): it keeps its `since`
    said = _SAID.get(target)
    history = health.history
    if said is not None and (target is not health.state or why != health.why):
        brief = (why or "no reason given").split(" (", 1)[0]  # the list says what; the warning says it whole
        history = (Happening(at, said.format(why=brief)), *history)[:HISTORY_KEPT]
    elif target is S.PROVEN and health.state in (S.HEALED, S.DRILL_FAILED):
        history = (Happening(at, "put back and checked again: restorable"), *history)[:HISTORY_KEPT]
    return replace(health, state=target, since=at, why=why, history=history)


def visited(health: Health, at: datetime, host: str, why: str) -> Health:
    """The health once a note from another Scorepad (refused this replica's place at `at`) was read."""
    if health.visitor is not None and health.visitor.at >= at:
        return health
    said = Happening(at, f"the Scorepad on {host or 'another machine'} was given this place too, and did not "
                         "write into it")
    return replace(health, visitor=Visitor(at, host, why), history=(said, *health.history)[:HISTORY_KEPT])


# --- in words ------------------------------------------------------------------------------------------------

def _clock(moment: datetime | None) -> str:
    return moment.astimezone().strftime("%a %-d %b %H:%M:%S") if moment else "an unknown moment"


def held(proof: Proof) -> str:
    """What a proven copy held, in words: "312 games and 6,240 hands, the last hand recorded Tue 25 Nov 18:03:20"."""
    games = f"{proof.games:,} game{'s' if proof.games != 1 else ''}"
    hands = f"{proof.hands:,} hand{'s' if proof.hands != 1 else ''}"
    last = f", the last hand recorded {_clock(proof.last_hand_at)}" if proof.last_hand_at else ""
    return f"{games} and {hands}{last}"


# Each warning state's sentence; {where} is the replica's place as it may be shown (no password in it).
_WARNING: dict[State, str] = {
    S.CANNOT_START: "The copy off this machine is not running: {why}.",
    S.TROUBLE: "The copy on {where} is not being written: {why}. Changes since {since} are only on this machine "
               "(and in its backups) until it is.",
    S.HEALING: "The copy on {where} could not be put back ({why}): Scorepad is starting it over with a new copy "
               "of everything.",
    S.HEALED: "The copy on {where} was started over at {since} ({why}); it is being put back to check it.",
    S.DRILL_FAILED: "The copy on {where} cannot be put back: {why}. Scorepad tries again by itself; the backups "
                    "on this machine are not affected.",
    S.RESTARTING: "The copy off this machine stopped ({why}); it is started again.",
    S.NOT_MOUNTED: "The copy is not being written: {why}. Scorepad waits for the share and carries on by itself "
                   "when it is back.",
    S.UNREACHABLE: "The copy on {where} cannot be reached: {why}. Scorepad tries again every minute.",
    S.REFUSED: "The copy on {where} is not this Scorepad's: {why}. Scorepad does not write into it: give each "
               "Scorepad its own REPLICA_URL.",
}


def warning(health: Health, where: str, now: datetime) -> str | None:
    """The sentence every page shows when the replica needs a look; None when all is well (or none is set up)."""
    if health.state in WARNS:
        why = (health.why or "no reason given").rstrip(". ")
        return _WARNING[health.state].format(where=where, why=why, since=_clock(health.since))
    if health.state in (S.STREAMING, S.PROVEN):
        last = health.reached_at or health.since
        if now - last >= UNREACHED:
            minutes = int((now - last).total_seconds() // 60)
            return (f"The copy on {where} has not been reached for {minutes} minutes." if health.reached_at else
                    f"The copy on {where} has not been reached since the server started, {minutes} minutes ago.")
    if health.state is S.PROVEN and health.proof and now - health.proof.at >= STALE_PROOF:
        return (f"The copy on {where} has not been put back to check it since {_clock(health.proof.at)} "
                "(see the server's log for why).")
    visitor = health.visitor
    if visitor is not None and health.state in (S.STREAMING, S.PROVEN) and now - visitor.at < VISITOR_SHOWN:
        return (f"Another Scorepad (on {visitor.host or 'another machine'}) was given this copy's place too, "
                f"{where}, and found this Scorepad's games there at {_clock(visitor.at)}: it did not write into "
                "it, so it has no copy off its machine. Give each Scorepad its own REPLICA_URL.")
    return None


def is_fine(health: Health, now: datetime) -> bool:
    """Whether the household may rely on the copy now: proven by a drill, written to, nothing to warn about."""
    return health.state is S.PROVEN and health.proof is not None and warning(health, "", now) is None


# What the replica is doing, for About's "Now" line: one sentence for every state.
_NOW: dict[State, str] = {
    S.OFF: "No copy off this machine.",
    S.CANNOT_START: "Not running: {why}.",
    S.CHECKING: "Looking at what it holds before writing to it.",
    S.STREAMING: "Written to within a second of every change; its check is still to come.",
    S.PROVEN: "Written to within a second of every change, and restorable.",
    S.TROUBLE: "Not being written since {since}: {why}.",
    S.HEALING: "Being started over: {why}.",
    S.HEALED: "Started over at {since} ({why}); being put back to check it.",
    S.DRILL_FAILED: "Cannot be put back: {why}.",
    S.RESTARTING: "Litestream stopped ({why}); it is started again.",
    S.NOT_MOUNTED: "Not written to: {why}.",
    S.UNREACHABLE: "Cannot be reached: {why}.",
    S.REFUSED: "Not written to: {why}.",
    S.STOPPED: "Stopped with the server.",
}


def summary(health: Health, now: datetime) -> str:
    """One sentence for About: what the replica is doing now."""
    why = (health.why or "no reason given").rstrip(". ")
    return _NOW[health.state].format(why=why, since=_clock(health.since))
