"""The server's copy off the machine: `litestream replicate` run as a supervised child, and the replica's health
built on proof.

The server (`python -m scorepad`) starts one `Replication`; its thread looks every couple of seconds and acts on
the state the core's table (`core.replica_states`) says the replica is in:

- CHECKING: before writing anything, a restore drill puts the replica back into a scratch file: empty (a new
  place) or this database's, it is claimed (the writer mark) and written to; another database's, or another
  Scorepad's writing, is refused and a note left beside it for the other Scorepad to show; a replica that cannot
  be put back is started over.
- while Litestream writes: its log lines are read as they come (a full disk, a refusal, no answer become the
  warning within a second); the replica's plan is asked every PLAN_SECONDS (a wiped place, a gap after a share
  dropped show there); a drill proves it at start, every DRILL_EVERY, after a restore or an import, and after
  starting over; a folder replica whose share is no longer mounted is not written into.
- HEALING: Litestream stopped, its local state reset, a new snapshot of the whole database written, Litestream
  started again, and a drill to prove it.

Litestream is a child, not a parent: it dies with the server (the kernel sends it SIGTERM, so it syncs one last
time even when the server is killed), so a restart never leaves two copies streaming one database. Its config
(which may hold a password) lives in a private folder beside the database, 0600, removed when the server stops.
"""

from __future__ import annotations

import contextlib
import ctypes
import http.client
import json
import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..core import litestream_output, replica_states
from ..core.litestream_output import Meaning
from ..core.replica_states import Event, Health, State
from ..store import connection, replica_marks
from . import replica, replica_drill, replica_folder, replica_notes

_logger = logging.getLogger(__name__)

CHECK_SECONDS = 2  # how often the supervisor looks: Litestream's answers, the share, the database's marks
PLAN_SECONDS = 20  # how often it asks whether the replica could be put back (a listing: cheap)
NOTES_SECONDS = 30  # how often it reads the notes other Scorepads left beside the replica
DRILL_EVERY = timedelta(hours=1)
# A replica started over is proven once more this soon after its first proof: that proof saw the new snapshot and
# little after it, and it is the Litestream that carries on from the snapshot (a run of its own) whose writes on
# top of it the next restore reads. Damage there is then said within minutes, not an hour.
AGAIN_AFTER_START_OVER = timedelta(minutes=2)
FIRST_SYNC_SECONDS = 30  # after Litestream starts, the first drill waits this long at most for its first sync
SETTLE_SECONDS = 5  # ... and at least this long: what a phone saved just before is in it
QUIET_AFTER_RESTART = timedelta(seconds=30)  # Litestream started again: the replica did not change, no hurry
RESTART_MAX_SECONDS = 60
# Litestream stopped for longer than this (a share away, a server that cannot be reached): the log is let go (it
# would grow without end) and Litestream, when it starts again, starts the replica over instead of carrying on.
HOLD_SECONDS = 180
NOTE_AGAIN = timedelta(hours=1)  # a refused Scorepad leaves its note again at most this often


@dataclass(frozen=True)
class Pace:
    """The supervisor's timers, in seconds: a household's by default. A test's server runs `faster(n)` (the same
    steps in an n-th of the time: REPLICA_PACE, see `web.shell.replica.pace`), so that what a family waits minutes
    for a test waits seconds for, and nothing else changes."""

    check: float = CHECK_SECONDS
    plan: float = PLAN_SECONDS
    notes: float = NOTES_SECONDS
    first_sync: float = FIRST_SYNC_SECONDS
    settle: float = SETTLE_SECONDS
    quiet_after_restart: float = QUIET_AFTER_RESTART.total_seconds()
    restart_max: float = RESTART_MAX_SECONDS
    hold: float = HOLD_SECONDS

    def faster(self, times: float) -> Pace:
        return Pace(**{f.name: getattr(self, f.name) / times for f in fields(self)})


HOUSEHOLD = Pace()


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, between fork and exec
    """The child gets SIGTERM when the thread that started it ends (the server stopping, or killed)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float = 2):
        super().__init__("localhost", timeout=timeout)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def ask(socket_path: str, path: str, body: dict | None = None, timeout: float = 2) -> dict:
    """GET (or POST `body` to) `path` on Litestream's control socket; its JSON answer. Raises OSError when it
    does not answer."""
    conn = _UnixConnection(socket_path, timeout)
    try:
        if body is None:
            conn.request("GET", path)
        else:
            conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = conn.getresponse().read()
    except http.client.HTTPException as exc:
        raise OSError(str(exc)) from None
    finally:
        conn.close()
    return json.loads(answer or b"{}")


class Replication:
    """The replica of the database at `live_path` at `place`: Litestream supervised, the replica proven."""

    def __init__(self, place: replica.Place, live_path: str, clock: Callable[[], datetime] = _utc_now,
                 drill_every: timedelta = DRILL_EVERY, pace: Pace = HOUSEHOLD):
        self.place, self.live_path, self.clock = place, live_path, clock
        self.drill_every, self.pace = drill_every, pace
        self.since = clock()
        self._health = replica_states.begin(self.since, configured=True)
        self._lock = threading.RLock()
        self._stop, self._wake = threading.Event(), threading.Event()
        self._threads: list[threading.Thread] = []
        self._folders = contextlib.ExitStack()
        self._work: Path | None = None
        self._socket: str | None = None
        self._process: subprocess.Popen | None = None
        self._launched_at: datetime | None = None
        self._halting = False
        self._last_said = ""  # Litestream's last line on stderr (masked): why it exited, when it did
        self._writer = replica_marks.Writer(secrets.token_hex(8), socket.gethostname(), self.since.isoformat())
        self._ours = False  # this run found the replica empty or proved it this database's
        self._share: dict | None = None
        self._generation: str | None = None  # the marker a folder replica carries since this run wrote it
        self._plan_at = 0.0  # monotonic: when the next plan check is due
        self._plan_now = False
        self._drill_pending = False  # a drill as soon as Litestream has synced once
        self._next_drill: datetime | None = None
        self._drilled_at: datetime | None = None
        self._quiet_until: datetime | None = None
        self._changed: str | None = None
        self._notes_at = 0.0
        self._note_left: datetime | None = None
        self._restart_wait = 1
        self._held_at: float | None = None  # monotonic: Litestream last seen running, the log held (`_mind_the_log`)
        self._start_over = False  # Litestream's next start starts the replica over (the log was let go meanwhile)

    # --- what the pages read ----------------------------------------------------------------------------------
    def health(self) -> Health:
        with self._lock:
            return self._health

    @property
    def started(self) -> bool:
        """Whether the server started it (a `flask` command or a test's app never does)."""
        return bool(self._threads)

    @property
    def next_drill(self) -> datetime | None:
        """When the next scheduled drill is due (an hour after the last, by default); None when none is set."""
        return self._next_drill

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    @property
    def runs(self) -> bool:
        """Whether Litestream is writing the replica now."""
        process = self._process
        return process is not None and process.poll() is None

    def look(self) -> None:
        """Ask Litestream when it last brought the replica up to date (every second while it can write)."""
        if not self._socket or not self.runs:
            return
        try:
            listed = ask(self._socket, "/list").get("databases") or []
        except (OSError, ValueError):
            return  # still starting: its socket is not there yet
        for database in listed:
            synced = database.get("last_sync_at")
            if synced:
                at = datetime.fromisoformat(synced.replace("Z", "+00:00")).astimezone(UTC)
                self._apply(Event.SYNCED, at=at)

    # --- the state, moved only by events ----------------------------------------------------------------------
    def _apply(self, event: Event, why: str | None = None, proof=None, at: datetime | None = None) -> Health:
        why = self.place.masked(why) if why else why
        with self._lock:
            before = self._health
            self._health = replica_states.step(before, event, at or self.clock(), why=why, proof=proof)
            after = self._health
        if after.state is not before.state:
            log = _logger.warning if after.state in replica_states.WARNS else _logger.info
            log("Replica %s: %s -> %s%s", self.place.shown(), before.state.value, after.state.value,
                f" ({after.why})" if after.why else "")
            self._wake.set()
        return after

    def _visited(self, note: replica_notes.Note) -> None:
        with self._lock:
            self._health = replica_states.visited(self._health, note.at, note.host, note.why)

    # --- running it -------------------------------------------------------------------------------------------
    def start(self) -> None:
        self._hold()  # from the first write the server serves, until a Litestream has read the log
        thread = threading.Thread(target=self._supervise, name="scorepad-replica", daemon=True)
        self._threads.append(thread)
        thread.start()

    def stop(self, timeout: float = 15) -> None:
        """Stop Litestream: SIGTERM, on which it sends what is left and exits; killed if it takes too long. Its
        config and socket go with it."""
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout)
        self._halt(timeout)  # the log stays held: folded after Litestream stopped, its next start could not carry on
        self._apply(Event.STOPPING)
        self._folders.close()
        self._work = self._socket = None

    def _supervise(self) -> None:
        while not self._stop.is_set():
            try:
                self._tick()
            except Exception:  # noqa: BLE001 - the replica's trouble must never stop the server; it is logged
                _logger.exception("Replica %s: the supervisor's look failed; it looks again", self.place.shown())
            self._wake.wait(self.pace.check)
            self._wake.clear()

    def _prepare_folder(self) -> None:
        folder = Path(os.path.abspath(self.live_path)).parent
        for leftover in (".litestream.yml", ".litestream.sock"):  # an older Scorepad's config (readable by all)
            with contextlib.suppress(OSError):
                (folder / leftover).unlink(missing_ok=True)
        self._work = self._folders.enter_context(replica.private_folder(self.live_path))
        beside = str(self._work / "control.sock")
        if len(beside.encode()) < 100:
            self._socket = beside
        else:  # a socket's path is limited (about 100 bytes): a private temporary folder then
            private = tempfile.mkdtemp(prefix="scorepad-litestream-")
            self._folders.callback(shutil.rmtree, private, True)
            self._socket = os.path.join(private, "control.sock")

    def _tick(self) -> None:
        self._mind_the_log()
        health, now = self.health(), self.clock()
        state = health.state
        if state is State.CHECKING:
            self._probe()
        elif state is State.HEALING:
            self._heal()
        elif state is State.NOT_MOUNTED:
            if not self._share_missing():
                self._apply(Event.SHARE_BACK, "its share was away while changes were made, so it gets a new copy "
                                              "of everything")
        elif state is State.RESTARTING:
            self._restart()
        elif health.retry_due(now):
            self._apply(Event.RETRY)
        elif state in replica_states.RUNS_LITESTREAM:
            self._while_writing(now)
        if self.health().state not in replica_states.RUNS_LITESTREAM and self._process is not None:
            self._halt()
        self._mind_the_log()

    # --- the log Litestream reads -------------------------------------------------------------------------------
    def _mind_the_log(self) -> None:
        """The database's log (the WAL) is folded by Litestream alone while it runs, and held (`connection.hold_log`)
        while it is stopped, so that the Litestream started again carries on where it stopped with nothing folded
        away behind its back. Stopped longer than HOLD_SECONDS, the log is let go (this server's writers fold it
        again), and Litestream's next start starts the replica over.

        Why not this server's writers while Litestream runs: a writer's fold racing Litestream's own (each folds
        at 1,000 pages) as the log starts over put a damaged transaction into the replica now and then (about one
        start-over test in two with two test workers beside it, the database itself whole); Litestream's advice
        for a busy database is the same (litestream.io/tips: turn the application's autocheckpoints off)."""
        if self._stop.is_set():
            return
        if self.runs:
            connection.hold_log(self.live_path)  # the hold's clock runs from when Litestream was last seen running
            self._held_at = time.monotonic()
        elif self._start_over:
            self._let_go()  # nothing to keep: the next start writes a new snapshot
        elif self._held_at is None:
            self._hold()
        elif time.monotonic() - self._held_at > self.pace.hold:
            self._let_go()
            self._start_over = True
            _logger.info("Replica %s: Litestream has been stopped for %d s; the database's log is folded again, and "
                         "the replica is started over when Litestream starts", self.place.shown(), self.pace.hold)

    def _hold(self) -> None:
        if self._held_at is None:
            connection.hold_log(self.live_path)
            self._held_at = time.monotonic()

    def _let_go(self) -> None:
        if self._held_at is not None:
            connection.let_log_go(self.live_path)
            self._held_at = None

    def _while_writing(self, now: datetime) -> None:
        if self._process is None:
            self._launch()
            return
        code = self._process.poll()
        if code is not None:
            said = f": {self._last_said}" if self._last_said else ""
            self._process = None
            self._apply(Event.LITESTREAM_EXITED, f"exit status {code}{said}")
            return
        if self._share_missing():
            self._share_gone()
            return
        if self._folder_changed():
            return
        self.look()
        synced = self._synced_since_launch()
        # A remote replica shows a wipe or a gap by its plan only. A folder one shows a wipe by its marker, and by its
        # plan what the marker cannot: its ltx folder alone deleted and made again by Litestream within the second
        # (the marker left beside it, the files of before gone), which would otherwise wait for the next drill.
        periodic = time.monotonic() >= self._plan_at
        if synced and (self._plan_now or periodic):
            self._check_plan()
        if self._drill_due(now, synced):
            self._drill()
        if time.monotonic() >= self._notes_at:
            self._notes_at = time.monotonic() + self.pace.notes
            self._read_notes()

    # --- Litestream itself ------------------------------------------------------------------------------------
    def _launch(self) -> bool:
        """Start `litestream replicate`; False (and CANNOT_RUN) when it cannot start, or (NOT_MOUNTED) when the
        folder replica's share is not mounted: it would write into the mount point."""
        if self._share_missing():
            self._share_gone()
            return False
        program = replica.binary()
        if program is None:
            self._apply(Event.CANNOT_RUN, replica.NOT_INSTALLED)
            return False
        try:
            if self._start_over:
                failed = self._new_snapshot()
                if failed:
                    self._apply(Event.CANNOT_RUN, f"starting the replica over failed: {failed}")
                    return False
                self._start_over, self._drill_pending = False, True
            config = replica.write_config(self.place, self.live_path, self._work, self._socket)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._socket)  # a socket left by a Litestream that was killed
            if self._stop.is_set():
                return False
            process = subprocess.Popen([program, "replicate", "-config", str(config), "-no-expand-env"],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                       env=self.place.environment(), preexec_fn=_die_with_parent,
                                       start_new_session=True)  # a Ctrl+C is the server's to pass on
        except replica.ReplicaRefused as refused:
            self._apply(Event.CANNOT_RUN, str(refused))
            return False
        except OSError as exc:
            self._apply(Event.CANNOT_RUN, f"Litestream could not start ({exc})")
            return False
        self._process, self._launched_at, self._halting, self._last_said = process, self.clock(), False, ""
        self._plan_at, self._notes_at = time.monotonic() + self.pace.plan, time.monotonic() + self.pace.settle
        reader = threading.Thread(target=self._listen, args=(process,), name="scorepad-replica-log", daemon=True)
        reader.start()
        _logger.info("Replicating %s to %s (Litestream, pid %d)", self.live_path, self.place.shown(), process.pid)
        return True

    def _listen(self, process: subprocess.Popen) -> None:
        """Litestream's log, line by line as it comes: passed on to the server's log without its secrets, and its
        errors made the replica's state (a page's warning) at once."""
        secrets_ = self.place.secrets()
        with process.stderr:  # closed here, at its end: never under a read
            self._read_lines(process, secrets_)

    def _read_lines(self, process: subprocess.Popen, secrets_: tuple[str, ...]) -> None:
        for raw in process.stderr:
            line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
            if not line.strip():
                continue
            heard = litestream_output.hear(line, secrets_)
            self._last_said = heard.words or heard.line
            if self._halting or process is not self._process:
                continue  # what it says while being stopped (its last sync's retries) is not news
            (_logger.warning if heard.level in ("WARN", "ERROR") else _logger.debug)("Litestream: %s", heard.line)
            if heard.meaning is Meaning.HISTORY:
                self._plan_now = True
                self._wake.set()
            elif heard.meaning is not Meaning.NOTHING:
                self._apply(Event.TROUBLE, heard.words)

    def _halt(self, timeout: float = 15, at_once: bool = False) -> None:
        """Stop Litestream (SIGTERM: it sends what is left, then exits); killed if it takes too long, or `at_once`
        where what it would send goes to the wrong place."""
        process, self._halting = self._process, True
        self._process = None
        if process is None:
            return
        if not self._start_over:
            self._hold()  # before it lets go of the log: what is written from now on stays in it
        if process.poll() is None:
            if not (at_once or self._share_missing()):  # whatever stops it, never into a share's mount point
                process.terminate()
                try:
                    process.wait(timeout)
                    return
                except subprocess.TimeoutExpired:
                    pass
            process.kill()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:  # stuck in the kernel (a share hung): it goes when it can
                _logger.warning("Replica %s: Litestream (pid %d) did not exit when killed", self.place.shown(),
                                process.pid)

    def _share_gone(self) -> None:
        """The share dropped: Litestream is killed before the state says so. Stopped gently it would send what it
        has left into the mount point, on this machine's own disk (a CI run saw its last file finished there after
        About said "not mounted"); what it has not sent stays in the held log, for the new copy once it is back."""
        self._halt(at_once=True)
        self._apply(Event.SHARE_MISSING, self._share_words())

    def _restart(self) -> None:
        """Litestream exited: start it again after 1 s, 2 s, ... up to a minute."""
        if self.clock() - self.health().since < timedelta(seconds=self._restart_wait):
            return
        lasted = (self.health().since - self._launched_at) if self._launched_at else timedelta(0)
        self._restart_wait = 1 if lasted > timedelta(seconds=self.pace.restart_max) else \
            min(self._restart_wait * 2, self.pace.restart_max)
        if self._launch():
            self._quiet_until = self.clock() + timedelta(seconds=self.pace.quiet_after_restart)
            self._apply(Event.LITESTREAM_STARTED)

    def _synced_since_launch(self) -> bool:
        reached = self.health().reached_at
        return self._launched_at is not None and reached is not None and reached >= self._launched_at

    # --- looking at the replica --------------------------------------------------------------------------------
    def _probe(self) -> None:
        """Before writing: whose is the replica, and can it be put back?"""
        if self._work is None:
            try:
                self._prepare_folder()
            except OSError as exc:
                self._apply(Event.CANNOT_RUN, f"Scorepad cannot write its private folder beside the database "
                                              f"({exc.strerror or exc})")
                return
        problem = self.place.problem()
        if problem:
            self._apply(Event.CANNOT_RUN, problem)
            return
        if replica.binary() is None:
            self._apply(Event.CANNOT_RUN, replica.NOT_INSTALLED)
            return
        with contextlib.closing(connection.connect(self.live_path)) as db:
            self._share = replica_marks.share(db)
            if self._changed is None:
                self._changed = replica_marks.changed(db)  # what happened before this start is not news
        if self._share_missing():
            self._share_gone()
            return
        room = replica_drill.room_for_scratch(self.live_path)
        outcome = (replica_drill.Outcome(Event.REPLICA_EMPTY, room) if room else
                   replica_drill.drill(self.place, self.live_path, self.clock))
        event = outcome.event
        if event in (Event.DRILL_PASSED, Event.REPLICA_EMPTY, Event.DRILL_FAILED):
            try:
                self._claim()
            except OSError as exc:  # a folder replica that cannot be written: looked at again in a minute
                self._apply(Event.UNREACHABLE, litestream_output.in_words(f"{exc.strerror or exc}"))
                return
            self._ours = event is not Event.DRILL_FAILED
            self._next_drill = self.clock() + self.drill_every if event is Event.DRILL_PASSED else None
        if event is Event.ANOTHER_OWNER:
            self._leave_note(outcome.why)
        self._apply(event, outcome.why, outcome.proof)

    def _claim(self) -> None:
        """Write this Scorepad's writer mark (and the share the folder lies on) into the database: Litestream
        ships it with everything else. A folder replica gets a marker of a new generation."""
        with contextlib.closing(connection.connect(self.live_path)) as db:
            replica_marks.claim(db, self._writer)
            folder = self.place.folder
            if folder is not None:
                mount = replica_folder.share_of(folder, Path(self.live_path))
                if mount is not None or (self._share and self._share.get("folder") == str(folder)):
                    replica_marks.keep_share(db, str(folder), mount)
                self._share = replica_marks.share(db)
                self._generation = replica_folder.write_marker(folder, replica_marks.identity(db) or "",
                                                               self._writer.id)

    def _folder_changed(self) -> bool:
        """Whether a folder replica was emptied, replaced or put back as it was before it was started over (its
        marker gone, or of another generation): then it is started over. A marker of another database or
        writer is for a drill to judge."""
        folder = self.place.folder
        if folder is None or self._generation is None:
            return False
        marker = replica_folder.read_marker(folder)
        if marker is None:
            self._apply(Event.HISTORY_LOST, litestream_output.MISSING_FILES)
            return True
        if marker.get("writer") != self._writer.id:
            self._drill_pending, self._generation = True, None  # whose it is now, the drill says
            return False
        if marker.get("generation") != self._generation:
            self._apply(Event.HISTORY_LOST, "its folder holds an older copy, as when one from before Scorepad "
                                            "started it over is put back")
            return True
        if self._synced_since_launch() and not (folder / "ltx").is_dir():
            self._apply(Event.HISTORY_LOST, litestream_output.MISSING_FILES)
            return True
        return False

    def _share_missing(self) -> bool:
        """Whether the folder replica's share (remembered from when it was written) is not mounted now."""
        folder, share = self.place.folder, self._share
        if folder is None or not share or share.get("folder") != str(folder):
            return False
        return not replica_folder.still_on(folder, share["mount"])

    def _share_words(self) -> str:
        return (f"the share it is on ({self._share['mount']}) is not mounted, and the folder {self.place.shown()} "
                "is then on this machine's own disk")

    def _check_plan(self) -> None:
        """Can the replica be put back at all (a listing, no restore)? A wiped folder, or a gap left by a share
        that dropped, shows here within PLAN_SECONDS."""
        self._plan_now, self._plan_at = False, time.monotonic() + self.pace.plan
        try:
            replica.plan(self.place, self._work / replica.CONFIG_NAME, self.live_path, gently=True)
        except replica.NothingThere:
            self._apply(Event.HISTORY_LOST, litestream_output.MISSING_FILES)
        except replica.CannotPutBack as refused:
            self._apply(Event.HISTORY_LOST, refused.why)
        except replica.CannotReach as refused:
            self._apply(Event.TROUBLE, f"it cannot be reached: {refused.why}")
        except replica.ReplicaRefused as refused:
            _logger.warning("Replica %s: its plan could not be read: %s", self.place.shown(), refused)

    def _drill_due(self, now: datetime, synced: bool) -> bool:
        with contextlib.closing(connection.connect(self.live_path)) as db:
            changed = replica_marks.changed(db)
        if changed != self._changed:  # a restore or an import since the last look
            self._changed, self._drill_pending, self._quiet_until = changed, True, None
        health = self.health()
        if health.state in (State.STREAMING, State.HEALED) and (self._drilled_at is None
                                                                or self._drilled_at < health.since):
            self._drill_pending = True  # written to again (a new replica, after trouble, started over): prove it
        if self._quiet_until is not None and now < self._quiet_until:
            return False
        if self._drill_pending:
            running = (now - self._launched_at).total_seconds() if self._launched_at else 0
            return (synced and running >= self.pace.settle) or running >= self.pace.first_sync
        return self._next_drill is None or now >= self._next_drill

    def _drill(self) -> None:
        self._drill_pending = False
        self._drilled_at = self.clock()
        started_over = self.health().state is State.HEALED
        self._next_drill = self._drilled_at + (min(self.drill_every, AGAIN_AFTER_START_OVER) if started_over
                                               else self.drill_every)
        room = replica_drill.room_for_scratch(self.live_path)
        if room:
            _logger.warning("Replica %s: not put back to check it: %s", self.place.shown(), room)
            return
        if self._socket:
            with contextlib.suppress(OSError, ValueError):  # what is written goes there first, if it can
                ask(self._socket, "/sync", {"path": os.path.abspath(self.live_path), "wait": True, "timeout": 30},
                    timeout=35)
        outcome = replica_drill.drill(self.place, self.live_path, self.clock)
        event = outcome.event
        if event is Event.REPLICA_EMPTY:
            event, outcome = Event.HISTORY_LOST, replica_drill.Outcome(
                Event.HISTORY_LOST, litestream_output.MISSING_FILES)
        if event is Event.CANNOT_RUN:
            _logger.warning("Replica %s: the drill could not run: %s", self.place.shown(), outcome.why)
            return
        if event is Event.DRILL_PASSED:
            self._ours = True
        if event is Event.ANOTHER_OWNER:
            self._leave_note(outcome.why)
        self._apply(event, outcome.why, outcome.proof)
        if outcome.proof:
            _logger.info("Replica %s: put back and checked in %.1f s: %s", self.place.shown(), outcome.proof.seconds,
                         replica_states.held(outcome.proof))

    # --- starting over ------------------------------------------------------------------------------------------
    def _heal(self) -> None:
        """Start the replica over: Litestream stopped, its local state reset, a new snapshot of everything
        written, then it runs again (and a drill proves it). A folder replica proven this database's has its
        broken files moved aside first (its other levels could never be compacted past the gap)."""
        why = self.health().why
        if self._share_missing():
            self._share_gone()
            return
        self._halt()
        try:
            self._claim()
            failed = self._new_snapshot()
        except OSError as exc:
            failed = litestream_output.in_words(exc.strerror or str(exc))
        except replica.ReplicaRefused as refused:
            failed = refused.why or str(refused)
        if failed:
            self._start_over = True  # the next start tries again, and the log is not held meanwhile
            self._let_go()
            self._apply(Event.HEAL_FAILED, f"{why}, and starting it over failed: {failed}")
            return
        self._start_over = False
        self._apply(Event.HEALED, why)

    def _new_snapshot(self) -> str | None:
        """Litestream's local state reset and a new snapshot of the whole database written to the replica (a
        folder replica proven ours has its old files moved aside first); what failed, in words, or None. From here
        until a Litestream started again has read the log, the log is held (`_mind_the_log`): the run that wrote
        the snapshot has exited, and what is written meanwhile must still be in the log for the next one."""
        config = replica.write_config(self.place, self.live_path, self._work)
        if self._ours:
            self._move_aside()
        common = ["-config", str(config), "-no-expand-env"]
        self._hold()
        for args in (["reset", *common, os.path.abspath(self.live_path)],
                     ["replicate", *common, "-once", "-force-snapshot"]):
            done = replica.run(self.place, args, gently=True)
            if done.returncode != 0:
                lines = (done.stderr or done.stdout).strip().splitlines() or [f"exit status {done.returncode}"]
                return litestream_output.in_words(lines[-1], self.place.secrets())
        return None

    def _move_aside(self) -> None:
        folder = self.place.folder
        if folder is None or not (folder / "ltx").is_dir():
            return
        for older in folder.glob("ltx-broken-*"):
            shutil.rmtree(older, ignore_errors=True)
        (folder / "ltx").rename(folder / f"ltx-broken-{self.clock():%Y%m%d-%H%M%S}")

    # --- notes between Scorepads -------------------------------------------------------------------------------
    def _leave_note(self, why: str | None) -> None:
        now = self.clock()
        if self._note_left and now - self._note_left < NOTE_AGAIN:
            return
        with contextlib.closing(connection.connect(self.live_path)) as db:
            identity = replica_marks.identity(db) or ""
        note = replica_notes.Note(identity, self._writer.host, now, why or "")
        if replica_notes.leave(self.place, self.live_path, note):
            self._note_left = now

    def _read_notes(self) -> None:
        folder = self.place.folder
        if folder is not None and not (folder / replica_notes.NOTES).is_dir():
            return  # no Scorepad left one: nothing to ask Litestream
        note = replica_notes.read(self.place, self.live_path)
        if note is None:
            return
        with contextlib.closing(connection.connect(self.live_path)) as db:
            identity = replica_marks.identity(db)
        if note.database != identity or note.host != self._writer.host:
            self._visited(note)
