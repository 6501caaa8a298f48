"""A copy off the machine, every second: Litestream streams the database's write-ahead log to a replica (a folder
on another disk, an SFTP server, an S3 bucket), and puts the database back from there.

Off unless a place is named: REPLICA_URL in instance/config.py, or SCOREPAD_REPLICA_URL / REPLICA_URL in the
environment. The server (`python -m scorepad`, which `make run` and the service start) runs `litestream
replicate` as a child it supervises, with a config it writes from these settings:

- a child, not a parent (`litestream replicate -exec`): Scorepad knows at every moment whether the replication
  runs and says so on every page; a Litestream that stops is started again (after 1 s, 2 s, ... up to a
  minute), and a Litestream that cannot start at all (not installed, a bad address) is a warning, never a
  server that does not start. The child dies with the server (the kernel sends it SIGTERM, so it syncs one
  last time, even when the server is killed), so a restart never leaves two copies streaming one database.
- restores change the database through SQLite (one transaction, `store.backups.put_back`), and upgrades run
  their migrations through SQLite too: the write-ahead log Litestream follows stays continuous, and it ships a
  restore or an upgrade as it ships a hand.

How far behind the replica is comes from Litestream itself: its control socket says when it last brought the
replica up to date (every second while it can reach it, whether or not anything was written).
"""

from __future__ import annotations

import contextlib
import ctypes
import http.client
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from ..core import house_time

_logger = logging.getLogger(__name__)

SYNC_INTERVAL = "1s"  # Litestream's default, said here: the hands at risk when the card dies are the last second's
UNREACHED = timedelta(minutes=10)  # a replica not reached for this long is a warning on every page
LOOK_SECONDS = 2  # how often the server asks Litestream how it is doing
RESTART_MAX_SECONDS = 60
KINDS = {"sftp": "SFTP", "s3": "S3"}  # besides a folder


class ReplicaRefused(Exception):
    """A restore from the replica that did not happen; the message says why. Nothing was changed."""


@dataclass(frozen=True)
class Place:
    """Where the replica is: `url` as the family wrote it, and what Litestream needs besides."""

    url: str
    ssh_key: str | None = None  # REPLICA_SSH_KEY: the private key an sftp:// replica logs in with
    host_key: str | None = None  # REPLICA_SSH_HOST_KEY: the server's public key (a line of known_hosts)

    @property
    def kind(self) -> str:
        scheme = urlsplit(self.url).scheme
        return scheme if scheme in KINDS else "folder"

    def problem(self) -> str | None:
        """Why Litestream could not use this place, when it is plainly wrong; None when it may be right."""
        scheme = urlsplit(self.url).scheme
        if "://" in self.url and scheme not in (*KINDS, "file"):
            return (f"REPLICA_URL {self.shown()} is not a folder, an sftp:// address or an s3:// bucket "
                    "(Scorepad does not stream to another kind of place).")
        if self.kind == "folder" and not Path(self.url.removeprefix("file://")).expanduser().is_absolute():
            return f"REPLICA_URL {self.url} is a folder, but not a whole path: start it at / (for example /mnt/nas)."
        return None

    def replica_config(self) -> dict:
        """Litestream's `replica:` section for this place."""
        settings: dict = {"sync-interval": SYNC_INTERVAL}
        if self.kind == "folder":
            folder = self.url.removeprefix("file://")
            return {"type": "file", "path": str(Path(folder).expanduser().resolve()), **settings}
        settings["url"] = self.url
        if self.kind == "sftp":
            if self.ssh_key:
                settings["key-path"] = str(Path(self.ssh_key).expanduser().resolve())
            if self.host_key:
                settings["host-key"] = self.host_key
        return settings

    def environment(self) -> dict[str, str]:
        """The environment Litestream runs in: this one, except AWS_CA_BUNDLE for an S3 endpoint over plain
        http (a NAS on the home network). Litestream 0.5's S3 client refuses to start at all when that variable
        is set (some machines set it for a proxy), and plain http has no certificates to check."""
        env = dict(os.environ)
        endpoint = dict(parse_qsl(urlsplit(self.url).query)).get("endpoint", "")
        if self.kind == "s3" and endpoint.startswith("http://"):
            env.pop("AWS_CA_BUNDLE", None)
        return env

    def shown(self) -> str:
        """The address for a page: a password written in it is not shown."""
        parts = urlsplit(self.url)
        if parts.password:
            return self.url.replace(f":{parts.password}@", ":…@", 1)
        return self.url


def place_from(config) -> Place | None:
    """The replica's place from the app's config (instance/config.py, or SCOREPAD_REPLICA_URL), else the
    REPLICA_URL environment variable; None when replication is off."""
    url = config.get("REPLICA_URL") or os.environ.get("REPLICA_URL")
    if not url:
        return None
    return Place(str(url).strip(), ssh_key=config.get("REPLICA_SSH_KEY") or None,
                 host_key=config.get("REPLICA_SSH_HOST_KEY") or None)


def binary() -> str | None:
    """The litestream program: the one installed beside this Python (`pip install '.[replica]'`), else on PATH."""
    beside = Path(sys.executable).with_name("litestream")
    return str(beside) if beside.is_file() else shutil.which("litestream")


def write_config(place: Place, live_path: str, folder: Path, socket_path: str | None = None) -> Path:
    """Litestream's config for the database at `live_path`, written into `folder` as `.litestream.yml` (JSON,
    which is YAML too); run with -no-expand-env, so a `$` in a path stays a `$`."""
    config: dict = {"logging": {"level": "warn", "stderr": True},
                    "dbs": [{"path": str(Path(live_path).resolve()), "replica": place.replica_config()}]}
    if socket_path:
        config["socket"] = {"enabled": True, "path": socket_path, "permissions": 0o600}
    path = folder / ".litestream.yml"
    path.write_text(json.dumps(config, indent=1))
    return path


def _socket_path(folder: Path) -> tuple[str, str | None]:
    """Where Litestream's control socket goes: beside the database, or in a temporary folder when that path is
    too long for a socket (about 100 bytes). Returns the path and a folder to remove afterwards."""
    beside = str(folder / ".litestream.sock")
    if len(beside.encode()) < 100:
        return beside, None
    private = tempfile.mkdtemp(prefix="scorepad-litestream-")
    return os.path.join(private, "control.sock"), private


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


def ask(socket_path: str, path: str) -> dict:
    """GET `path` from Litestream's control socket; its JSON answer. Raises OSError when it does not answer."""
    conn = _UnixConnection(socket_path)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
    except http.client.HTTPException as exc:
        raise OSError(str(exc)) from None
    finally:
        conn.close()
    return json.loads(body or b"{}")


@dataclass(frozen=True)
class Status:
    """How the replication is doing, for About, the footer and /healthz."""

    place: str
    running: bool
    since: datetime  # when the server started the replication
    reached_at: datetime | None  # the last moment the replica held everything written before it
    problem: str | None  # why it is not running, when it is not

    def behind_seconds(self, now: datetime) -> float | None:
        """How many seconds of writes the replica may lack: since it was last brought up to date."""
        return max((now - self.reached_at).total_seconds(), 0.0) if self.reached_at else None


def warning(status: Status | None, now: datetime) -> str | None:
    """A sentence for every page when the replica needs a look; None when all is well (or none is set up)."""
    if status is None:
        return None
    if status.problem and not status.running:
        return f"The copy off this machine is not running: {status.problem}"
    last = status.reached_at or status.since
    if now - last >= UNREACHED:
        minutes = int((now - last).total_seconds() // 60)
        return (f"The copy off this machine ({status.place}) has not been reached for {minutes} minutes."
                if status.reached_at else
                f"The copy off this machine ({status.place}) has not been reached since the server started, "
                f"{minutes} minutes ago.")
    return None


def _utc_now() -> datetime:
    return datetime.now(UTC)


class Replication:
    """`litestream replicate` for the database at `live_path`, supervised: started, watched, started again when
    it stops, stopped with the server."""

    def __init__(self, place: Place, live_path: str, clock: Callable[[], datetime] = _utc_now):
        self.place, self.live_path, self.clock = place, live_path, clock
        self.since = clock()
        self._stop = threading.Event()
        self._process: subprocess.Popen | None = None
        self._reached_at: datetime | None = None
        self._problem: str | None = None
        self._socket, self._private = None, None
        self._threads: list[threading.Thread] = []

    # -- what the pages read -------------------------------------------------------------------------------
    def status(self) -> Status:
        process = self._process
        running = process is not None and process.poll() is None
        return Status(self.place.shown(), running, self.since, self._reached_at, self._problem)

    @property
    def started(self) -> bool:
        """Whether the server started it (a `flask` command or a test's app never does)."""
        return bool(self._threads)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    # -- running it ---------------------------------------------------------------------------------------------
    def start(self) -> None:
        folder = Path(self.live_path).resolve().parent
        self._socket, self._private = _socket_path(folder)
        for name, target in (("scorepad-replica", self._supervise), ("scorepad-replica-watch", self._watch)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def _supervise(self) -> None:
        wait = 1
        while not self._stop.is_set():
            started = time.monotonic()
            code = self._run_once()
            if self._stop.is_set():
                break
            if code is not None:
                self._problem = f"Litestream stopped (exit status {code}); it is started again."
                _logger.warning("Litestream stopped (exit status %s): starting it again in %d s", code, wait)
            wait = 1 if time.monotonic() - started > RESTART_MAX_SECONDS else min(wait * 2, RESTART_MAX_SECONDS)
            self._stop.wait(wait)

    def _run_once(self) -> int | None:
        """Run Litestream until it exits; its exit status, or None when it could not start."""
        program = binary()
        if self.place.problem():
            self._problem = self.place.problem()
            return None
        if program is None:
            self._problem = ("Litestream is not installed. Install it with `make install` (or "
                             "`.venv/bin/pip install '.[replica]'`) and restart Scorepad.")
            return None
        try:
            config = write_config(self.place, self.live_path, Path(self.live_path).resolve().parent, self._socket)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._socket)  # a socket left by a Litestream that was killed
            if self._stop.is_set():  # the server is stopping: no new Litestream to outlive it
                return None
            self._process = subprocess.Popen([program, "replicate", "-config", str(config), "-no-expand-env"],
                                             stdin=subprocess.DEVNULL, env=self.place.environment(),
                                             preexec_fn=_die_with_parent,
                                             start_new_session=True)  # a Ctrl+C is the server's to pass on
        except OSError as exc:
            self._problem = f"Litestream could not start ({exc})."
            return None
        _logger.info("Replicating %s to %s (Litestream, pid %d)", self.live_path, self.place.shown(),
                     self._process.pid)
        return self._process.wait()

    def _watch(self) -> None:
        while not self._stop.wait(LOOK_SECONDS):
            self.look()

    def look(self) -> None:
        """Ask Litestream when it last brought the replica up to date."""
        if not self._socket or self._process is None or self._process.poll() is not None:
            return
        try:
            listed = ask(self._socket, "/list").get("databases") or []
        except (OSError, ValueError):
            return  # still starting: its socket is not there yet
        for database in listed:
            synced = database.get("last_sync_at")
            if synced:
                self._reached_at = datetime.fromisoformat(synced.replace("Z", "+00:00")).astimezone(UTC)
                self._problem = None

    def stop(self, timeout: float = 15) -> None:
        """Stop Litestream: SIGTERM, on which it sends what is left and exits; killed if it takes too long."""
        self._stop.set()
        process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        for thread in self._threads:
            thread.join(5)
        if self._private:
            shutil.rmtree(self._private, ignore_errors=True)


# --- putting the replica's database back ----------------------------------------------------------------------

@dataclass(frozen=True)
class FromReplica:
    """A database Litestream restored from the replica, in a private folder, and the moment it holds."""

    path: Path
    txid: str
    written_at: datetime | None  # when Litestream wrote the last change it holds


def parse_moment(text: str) -> datetime:
    """--at: '2026-11-25 18:03', '2026-11-25 18:03:20' (the house's clock, see `core.house_time`) or ISO 8601
    with a zone; returned in UTC. Raises ValueError with the forms it takes."""
    cleaned = text.strip().replace("T", " ").replace("Z", "+00:00")
    try:
        moment = datetime.fromisoformat(cleaned)
    except ValueError:
        raise ValueError(f"--at {text!r} is not a moment: give it as 2026-11-25 18:03 or 2026-11-25 18:03:20 "
                         "(this machine's time), or 2026-11-25T17:03:20Z") from None
    if moment.tzinfo is None:
        moment = house_time.local(moment)  # the house's clock, as the family reads it
    return moment.astimezone(UTC)


def _litestream(place: Place, args: list[str], timeout: float = 600) -> subprocess.CompletedProcess:
    program = binary()
    if program is None:
        raise ReplicaRefused("Litestream is not installed: run `make install` (or `.venv/bin/pip install "
                             "'.[replica]'`) first. Nothing was changed.")
    return subprocess.run([program, *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env=place.environment())


def _said(done: subprocess.CompletedProcess) -> str:
    lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    return lines[-1] if lines else f"exit status {done.returncode}"


@contextlib.contextmanager
def restored(place: Place, live_path: str, at: datetime | None = None,
             work_in: Path | None = None) -> Iterator[FromReplica]:
    """The replica's database (as it was at `at`, else its latest) restored by `litestream restore` into a
    private folder in `work_in` (by default the live database's folder), gone when the block ends. Raises
    ReplicaRefused when there is nothing to restore."""
    from ..store import files

    if place.problem():
        raise ReplicaRefused(f"{place.problem()} Nothing was changed.")
    folder = Path(work_in) if work_in is not None else Path(live_path).resolve().parent
    with files.private_folder(folder) as work:
        config = write_config(place, live_path, Path(work))
        common = ["-config", str(config), "-no-expand-env"]
        moment = ["-timestamp", at.strftime("%Y-%m-%dT%H:%M:%SZ")] if at else []
        database = str(Path(live_path).resolve())
        plan = _plan(_litestream(place, ["restore", *common, "-dry-run", "-json", *moment, database]), place, at)
        output = Path(work) / "from-replica.db"
        done = _litestream(place, ["restore", *common, "-txid", plan.txid, "-o", str(output), database])
        if done.returncode != 0 or not output.is_file():
            raise ReplicaRefused(f"Litestream could not restore from {place.shown()} ({_said(done)}). "
                                 "Nothing was changed.")
        yield FromReplica(output, plan.txid, plan.written_at)


def _plan(done: subprocess.CompletedProcess, place: Place, at: datetime | None) -> FromReplica:
    """The last transaction the restore will hold, and when it was written, from `restore -dry-run -json`."""
    when = f" as it was at {at:%Y-%m-%d %H:%M:%S} UTC" if at else ""
    if done.returncode != 0:
        raise ReplicaRefused(f"There is nothing to restore from {place.shown()}{when} ({_said(done)}). "
                             "Nothing was changed.")
    try:
        plan = json.loads(done.stdout)
        last = plan["files"][-1]
        written = datetime.fromisoformat(last["timestamp"].replace("Z", "+00:00"))
        return FromReplica(Path(), str(plan["max_txid"]), written)
    except (ValueError, KeyError, IndexError, TypeError):
        raise ReplicaRefused(f"Litestream's plan to restore from {place.shown()} could not be read "
                             f"({done.stdout[:200]!r}). Nothing was changed.") from None
