"""Backups by themselves: one a day, one after every finished game (a big database's at most one a minute, taking
in every game finished meanwhile), each into the backup folders (the first one, and a second such as a USB stick
or a network share), the old ones pruned by the core's retention rules.

A backup is never the player's problem: it runs beside the save (after its transaction, on a thread of its
own), and one that fails is recorded in the status the about page and the footer show, never raised. Backups
of one database run one at a time.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..core import retention
from ..store import autobackup, backup_files, connection
from ..store import backups as backup_store
from ..store.autobackup import Status

_logger = logging.getLogger(__name__)

DAILY = "daily"
AFTER_GAME = "after a finished game"
RETRY_SECONDS = 600
# With a replica running (see `services.replica`), every hand is already off the machine within a second: a big
# database (a club's seasons) is then copied after a finished game at most once an hour, so that copying 100 MB
# after every game does not compete with the phones for the Pi's CPU. The daily copy is taken as ever.
BIG_DATABASE_BYTES = 20 * 1024 * 1024
REPLICATED_AFTER_GAME_SPACING = timedelta(hours=1)
# Without a replica, a big database's after-game copies are spaced: each begins at least AFTER_GAME_SPACING after
# the backup before it began, and takes in every game finished meanwhile. Copying the bench's 100 MB costs 0.3 s of
# processor and half a second of disk; with games ending every few seconds (a hall at the end of a round, the
# bench's clients) the copies ran back to back, a quarter of a 2-core machine, and recording a hand grew slower as
# the database grew. While the server runs, every finished game is in a backup begun within the minute; a server
# stopping cleanly takes the copy still to come at once (`wait`).
AFTER_GAME_SPACING = timedelta(minutes=1)


def _utc_now() -> datetime:
    return datetime.now(UTC)


class Backups:
    """The backups of the database at `live_path`, into `folders` (the first is made when missing), keeping the
    last `keep_last` and one a month in each. `clock` says what time it is (a test's fake clock)."""

    def __init__(self, live_path: str, folders: Sequence[Path], *, keep_last: int = retention.KEEP_LAST,
                 clock: Callable[[], datetime] = _utc_now):
        self.live_path = live_path
        self.folders = tuple(Path(folder) for folder in folders)
        self.keep_last = keep_last
        self.clock = clock
        self._lock = threading.Lock()
        self._status = autobackup.read_status(self.folders[0])
        self._threads: list[threading.Thread] = []
        self._waiting = False  # a backup asked for by `take_soon` that has not begun to copy yet
        self._waiting_lock = threading.Lock()
        self._hurry = threading.Event()  # set while `wait` waits: a spaced copy begins at once
        self._began = self._status.attempted_at  # when the last backup began (its status comes once it is over)
        self._future = self._named_in_future()
        self.replicated: Callable[[], bool] = lambda: False  # the server sets it when a replica runs

    def _named_in_future(self) -> list[str]:
        return autobackup.in_future(self.folders, self.clock())

    def in_future(self) -> list[str]:
        """The backups named later than the clock says it is (made while it ran fast): kept, and said on the
        pages, until the clock reaches their time. As of the last backup or the last look (within the hour)."""
        return self._future

    def status(self) -> Status:
        """How the last backup went (kept in the first folder, so it outlives a restart)."""
        return self._status

    def take(self, reason: str) -> Status:
        """One backup now, into every folder, then pruning; waits for one already running. Never raises: a
        failure is in the status it returns (and logged)."""
        with self._lock:
            return self._take_holding_lock(reason)

    def _take_holding_lock(self, reason: str) -> Status:
        self._began = self.clock()
        try:
            status = autobackup.take(self.live_path, self.folders, keep_last=self.keep_last,
                                     reason=reason, now=self.clock(), previous=self._status)
        except Exception as exc:  # noqa: BLE001 - whatever went wrong, the players' game goes on
            status = Status(self._status.succeeded_at, self._status.file, self.clock(), reason,
                            f"The backup failed ({exc.__class__.__name__}: {exc}).")
        self._status = status
        self.prune_safety_copies()
        self._future = self._named_in_future()
        if status.problem:
            _logger.warning("Backup (%s) failed: %s", reason, status.problem)
        else:
            _logger.info("Backed up (%s) to %s", reason, status.file)
        return status

    def prune_safety_copies(self) -> None:
        """The copies restores kept beside the database follow the backups' retention (see `autobackup`)."""
        try:
            autobackup.prune_safety_copies(self.live_path, self.keep_last, self.clock())
        except OSError as exc:
            _logger.warning("Could not prune the safety copies beside %s: %s", self.live_path, exc)

    def take_soon(self, reason: str, after: float = 0.0) -> None:
        """A backup on a thread of its own, beginning `after` seconds from now (a spaced after-game copy): the
        caller does not wait for it.

        One that has not begun to copy yet already takes in every change committed before it begins: a second is
        not queued behind it. Twenty tables ending their games within a minute then make two copies (the one
        running and the one that follows it), not twenty copies of a club's 100 MB in a row."""
        thread = threading.Thread(target=self._take_waiting, args=(reason, after), name="scorepad-backup",
                                  daemon=True)
        with self._waiting_lock:
            if self._waiting:
                return
            self._waiting = True
            self._threads = [t for t in self._threads if t.is_alive()] + [thread]
            try:
                thread.start()
            except BaseException:  # no thread to be had: the next finished game must still ask for its copy
                self._waiting = False
                self._threads.remove(thread)
                raise

    def _take_waiting(self, reason: str, after: float = 0.0) -> None:
        if after > 0:
            self._hurry.wait(after)
        with self._lock:
            with self._waiting_lock:
                self._began = self.clock()  # before a change may ask for the next copy, which counts from here
                self._waiting = False  # from here on, a change may not be in this copy: it asks for the next
            self._take_holding_lock(reason)

    def wait(self, timeout: float = 30, *, stopping: bool = False) -> None:
        """Wait for the backups `take_soon` started (a test, or a server stopping cleanly), a spaced one begun at
        once. `stopping`: so is every one asked for from now on (a request still answering as the server stops)."""
        self._hurry.set()
        try:
            with self._waiting_lock:
                threads = list(self._threads)
            for thread in threads:
                thread.join(timeout)
        finally:
            if not stopping:
                self._hurry.clear()

    def _is_big(self) -> bool:
        """Whether the database is over BIG_DATABASE_BYTES (one whose size cannot be read is copied as usual)."""
        try:
            return os.path.getsize(self.live_path) > BIG_DATABASE_BYTES
        except OSError:
            return False

    def _since(self, moment: datetime | None) -> timedelta | None:
        """How long ago `moment` was by the clock; None for never, or for a time a status file written by hand
        gives with no zone (the copy then goes as if there had been none before it)."""
        try:
            return None if moment is None else self.clock() - moment
        except TypeError:
            return None

    def spacing_left(self) -> float:
        """Seconds before a finished game's copy may begin: none for a small database or a first backup, else what
        is left of AFTER_GAME_SPACING since the last backup began (never more, whatever the clock did)."""
        since = self._since(self._began)
        if since is None or not self._is_big():
            return 0.0
        return min(max((AFTER_GAME_SPACING - since).total_seconds(), 0.0), AFTER_GAME_SPACING.total_seconds())

    def after_game_due(self) -> bool:
        """Whether a finished game is copied (at once, or a big database's once its minute is over: `spacing_left`):
        always, except a big database while a replica runs, which is copied at most once every
        REPLICATED_AFTER_GAME_SPACING (see BIG_DATABASE_BYTES)."""
        if not self.replicated() or not self._is_big():
            return True
        since = self._since(self._status.succeeded_at)
        return since is None or since >= REPLICATED_AFTER_GAME_SPACING

    def take_if_due(self) -> bool:
        """The daily backup, when one is due; True when it was taken (whether or not it worked)."""
        if not retention.is_due(self._status.succeeded_at, self.clock()):
            self._future = self._named_in_future()  # the clock may have been put right since the last look
            return False
        self.take(DAILY)
        return True

    def keep_daily(self, stop: threading.Event) -> None:
        """Take the daily backup whenever it is due, until `stop` is set. One that failed is tried again ten
        minutes later, not a day later."""
        while not stop.is_set():
            self.take_if_due()
            wait = retention.wait_before_next(self._status.succeeded_at, self.clock())
            stop.wait(max(wait.total_seconds(), RETRY_SECONDS if self._status.problem else 1))

    def start_daily(self) -> threading.Event:
        """Run `keep_daily` on a background thread; set the event it returns to stop it."""
        stop = threading.Event()
        threading.Thread(target=self.keep_daily, args=(stop,), name="scorepad-daily-backup", daemon=True).start()
        return stop

    def warning(self) -> str | None:
        """A sentence for every page when the backups need a look (the last one failed, or none in two days);
        None when all is well."""
        status = self._status
        if status.problem and status.succeeded_at == status.attempted_at:
            return "The last backup was made, but a copy of it failed."  # the second folder: a stick pulled out
        if status.problem:
            return "The last backup failed."
        if status.succeeded_at and retention.is_stale(status.succeeded_at, self.clock()):
            return "No backup in two days."
        if self._future:
            return future_in_words(len(self._future))
        return None  # a new install's first backup is still to come: the about page says so


def future_in_words(count: int) -> str:
    """The footer's sentence for backups named in the future: a clock that ran fast, or runs slow now."""
    named = "1 backup is" if count == 1 else f"{count} backups are"
    return f"{named} named with a time in the future: is this machine's clock right?"


# The backups of each database the app serves, by its file: the service that records a hand finds them
# from its connection, with no web object passed down.
_BY_DATABASE: dict[str, Backups] = {}


def register(backups: Backups) -> None:
    """Back up `backups.live_path` after every finished game from now on."""
    _BY_DATABASE[os.path.realpath(backups.live_path)] = backups


def after_finished_game(db) -> None:
    """A game was just won on `db`: back it up, without making the caller wait. Nothing when no backups are
    set up for that database (a script, a test of the service alone)."""
    backups = _BY_DATABASE.get(os.path.realpath(connection.database_path(db)))
    if backups is not None and backups.after_game_due():
        backups.take_soon(AFTER_GAME, after=backups.spacing_left())


# --- restoring one, from the browser ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Shelf:
    """One group of backups to choose from: its title, and its files newest first."""

    title: str
    files: list[backup_files.BackupFile]


def shelves(backups: Backups) -> list[Shelf]:
    """Every backup a restore can put back, grouped as About lists them: the backups, their second copies, the
    copies kept before an upgrade, and the copies kept before a restore (the way back from one)."""
    first, second = backups.folders[0], backups.folders[1:]
    found = [Shelf("Backups", backup_files.listed(first, ("scorepad",)))]
    found += [Shelf(f"Second copies, in {folder}", backup_files.listed(folder, ("scorepad",))) for folder in second]
    found.append(Shelf("Kept before an upgrade", backup_files.listed(first, ("before-upgrade",))))
    found.append(Shelf("Kept before a restore", backup_files.listed(Path(backups.live_path).parent,
                                                                    ("before-restore",))))
    return found


def restore_from(backups: Backups, source: Path) -> backup_store.Restored:
    """Put the backup at `source` in place of the live database, as `flask --app scorepad restore` does: the
    same checks on a private copy beside the database (`store.backups.prepare`), the same copy of the database as
    it was kept first as before-restore-<time>.db (`put_back`), and the safety copies then kept as backups are.
    Phones' saves wait for it a moment. Raises `store.backups.BackupRefused` (nothing was changed) when it is not
    a sound backup of this or an older Scorepad."""
    with backup_store.prepare(str(source), work_in=Path(backups.live_path).parent) as prepared:
        restored = backup_store.put_back(prepared, backups.live_path)
    backups.prune_safety_copies()
    _logger.info("Restored %s from the browser; the database as it was is kept in %s", source,
                 restored.safety_copy)
    return restored
