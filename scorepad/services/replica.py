"""A copy off the machine, every second: Litestream streams the database's write-ahead log to a replica (a folder
on another disk, an SFTP server, an S3 bucket), and puts the database back from there.

Off unless a place is named: REPLICA_URL in instance/config.py, or SCOREPAD_REPLICA_URL / REPLICA_URL in the
environment (blank means off). This module holds the place and what Litestream is told about it, and the
commands that read the replica (its plan, its span of moments, a restore into a private folder); the server's
supervision of `litestream replicate` (`services.replication`) and the restore drill that proves the replica
(`services.replica_drill`) build on it.

Secrets: a password written in REPLICA_URL is never shown (`Place.shown`), never logged (`Place.masked`), and
reaches Litestream only through a config file that only Scorepad's user can read (0600, in a private folder
removed afterwards), never on a command line another user's `ps` could read. The S3 keys stay in the
environment; the SSH key is named by its path, which is not shown either.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

from ..core import house_time, litestream_output
from ..core.litestream_output import Meaning

SYNC_INTERVAL = "1s"  # Litestream's default, said here: the hands at risk when the card dies are the last second's
KINDS = {"sftp": "SFTP", "s3": "S3"}  # besides a folder
CONFIG_NAME = "litestream.yml"
RESTORE_SECONDS = 600


class ReplicaRefused(Exception):
    """A read of the replica (a restore, its plan) that did not happen; the message says why. Nothing was changed."""

    why = ""  # the reason alone, in the household's words, for a sentence of the caller's


class NothingThere(ReplicaRefused):
    """The replica holds nothing yet (a new place), or nothing at the moment asked for."""


class CannotReach(ReplicaRefused):
    """The replica could not be reached (a NAS asleep, a server down, a refused login)."""


class CannotPutBack(ReplicaRefused):
    """The replica holds files, but no whole database can be put back from them (a gap, missing files)."""


def _refused(kind: type[ReplicaRefused], message: str, why: str) -> ReplicaRefused:
    refused = kind(message)
    refused.why = why
    return refused


# A password in an address without a scheme ("pi:S3cret@nas.local:22/srv"): `urlsplit` takes "pi" for the scheme.
_BARE_USERINFO = re.compile(r"^(?P<user>[^:/@\s]+):(?P<password>[^@]*)@")


@dataclass(frozen=True)
class Place:
    """Where the replica is: `url` as the family wrote it, and what Litestream needs besides."""

    url: str
    ssh_key: str | None = None  # REPLICA_SSH_KEY: the private key an sftp:// replica logs in with
    host_key: str | None = None  # REPLICA_SSH_HOST_KEY: the server's public key (a line of known_hosts)

    @property
    def kind(self) -> str:
        scheme = urlsplit(self.url).scheme if "://" in self.url else ""
        return scheme if scheme in KINDS else "folder"

    @property
    def folder(self) -> Path | None:
        """A folder replica's folder (a whole path), else None."""
        if self.kind != "folder" or self.problem():
            return None
        return Path(os.path.abspath(os.path.expanduser(self.url.removeprefix("file://"))))

    def secrets(self) -> tuple[str, ...]:
        """What must never be shown: the password in the address (as written and decoded), the SSH key's path."""
        found = []
        password = urlsplit(self.url).password if "://" in self.url else None
        bare = None if "://" in self.url else _BARE_USERINFO.match(self.url)
        for secret in (password, bare["password"] if bare else None):
            if secret:
                found += [secret, unquote(secret)]
        for key in (self.ssh_key,):
            if key:
                found += [key, os.path.abspath(os.path.expanduser(key))]
        return tuple(dict.fromkeys(found))

    def masked(self, text: str) -> str:
        """`text` (a line of Litestream's, an error) without this place's secrets."""
        return litestream_output.mask(text, self.secrets())

    def shown(self) -> str:
        """The address for a page or a log: any password written in it is replaced by "…"."""
        return self.masked(self.url)

    def problem(self) -> str | None:
        """Why Litestream could not use this place, when it is plainly wrong; None when it may be right."""
        scheme = urlsplit(self.url).scheme
        if "://" in self.url and scheme not in (*KINDS, "file"):
            return (f"REPLICA_URL {self.shown()} is not a folder, an sftp:// address or an s3:// bucket "
                    "(Scorepad does not stream to another kind of place)")
        if self.kind == "folder" and not os.path.isabs(os.path.expanduser(self.url.removeprefix("file://"))):
            if _BARE_USERINFO.match(self.url) or re.match(r"^[^/:@\s]+@[^/:\s]+:", self.url):
                return (f"REPLICA_URL {self.shown()} is neither a folder nor an address: for an SFTP server, "
                        f"write it as sftp://{self.shown().split('@', 1)[0]}@host:22/folder")
            return (f"REPLICA_URL {self.shown()} is a folder, but not a whole path: start it at / "
                    "(for example /mnt/nas)")
        return None

    def replica_config(self) -> dict:
        """Litestream's `replica:` section for this place."""
        settings: dict = {"sync-interval": SYNC_INTERVAL}
        if self.kind == "folder":
            return {"type": "file", "path": str(self.folder), **settings}
        settings["url"] = self.url
        if self.kind == "sftp":
            if self.ssh_key:
                settings["key-path"] = os.path.abspath(os.path.expanduser(self.ssh_key))
            if self.host_key:
                settings["host-key"] = self.host_key
        return settings

    def child(self, name: str) -> Place:
        """A place inside this one (the notes Scorepads leave each other beside the replica's files)."""
        if self.kind == "folder":
            return Place(str(self.folder / name), self.ssh_key, self.host_key)
        parts = urlsplit(self.url)
        path = parts.path.rstrip("/") + "/" + name
        return Place(urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment)), self.ssh_key,
                     self.host_key)

    def environment(self) -> dict[str, str]:
        """The environment Litestream runs in: this one, except AWS_CA_BUNDLE for an S3 endpoint over plain
        http (a NAS on the home network). Litestream 0.5's S3 client refuses to start at all when that variable
        is set (some machines set it for a proxy), and plain http has no certificates to check."""
        env = dict(os.environ)
        endpoint = dict(parse_qsl(urlsplit(self.url).query)).get("endpoint", "")
        if self.kind == "s3" and endpoint.startswith("http://"):
            env.pop("AWS_CA_BUNDLE", None)
        return env


def place_from(config) -> Place | None:
    """The replica's place from the app's config (instance/config.py, or SCOREPAD_REPLICA_URL), else the
    REPLICA_URL environment variable; None when replication is off (unset, or only blanks)."""
    for url in (config.get("REPLICA_URL"), os.environ.get("REPLICA_URL")):
        if url is not None and str(url).strip():
            return Place(str(url).strip(), ssh_key=str(config.get("REPLICA_SSH_KEY") or "").strip() or None,
                         host_key=str(config.get("REPLICA_SSH_HOST_KEY") or "").strip() or None)
    return None


def binary() -> str | None:
    """The litestream program: the one installed beside this Python (`pip install '.[replica]'`), else on PATH."""
    beside = Path(sys.executable).with_name("litestream")
    return str(beside) if beside.is_file() else shutil.which("litestream")


NOT_INSTALLED = ("Litestream is not installed. Install it with `make install` (or `.venv/bin/pip install "
                 "'.[replica]'`) and restart Scorepad")


# --- Litestream's config --------------------------------------------------------------------------------------

def write_config(place: Place, live_path: str, folder: Path, socket_path: str | None = None,
                 level: str = "warn") -> Path:
    """Litestream's config for the database at `live_path`, written into `folder` as JSON (which is YAML too),
    readable by this user only (0600): it may hold the replica's password. Written as UTF-8, never with \\u
    escapes, so any path works (Litestream's YAML reader refuses the escapes JSON writes for an emoji). Run it
    with -no-expand-env, so a `$` in a path stays a `$`. Raises ReplicaRefused for a path that is not text."""
    config: dict = {"logging": {"level": level, "stderr": True},
                    "dbs": [{"path": os.path.abspath(live_path), "replica": place.replica_config()}]}
    if socket_path:
        config["socket"] = {"enabled": True, "path": socket_path, "permissions": 0o600}
    try:
        data = json.dumps(config, indent=1, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ReplicaRefused(f"A path for the replica ({place.shown()}, or the database's {live_path!r}) holds "
                             "bytes that are not text in this system's encoding: Litestream cannot be told it. "
                             "Rename the folder.") from None
    path = Path(folder) / CONFIG_NAME
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.fchmod(fd, 0o600)  # an older, wider file of the same name is narrowed first
        os.write(fd, data)
    finally:
        os.close(fd)
    return path


@contextlib.contextmanager
def private_folder(near: str) -> Iterator[Path]:
    """A folder only this user can enter (0700), beside the database at `near` (on its disk: never a temporary
    folder in memory, or another user's), removed when the block ends; a process killed meanwhile leaves it for
    the next start to clear (`files.clear_leftovers`)."""
    from ..store import files

    with files.private_folder(Path(os.path.abspath(near)).parent) as folder:
        yield Path(folder)


# --- running Litestream's commands -----------------------------------------------------------------------------

def _lower_priority() -> None:  # pragma: no cover - runs in the child, between fork and exec
    with contextlib.suppress(OSError):
        os.nice(10)


def run(place: Place, args: list[str], timeout: float = RESTORE_SECONDS,
        gently: bool = False) -> subprocess.CompletedProcess:
    """`litestream ARGS` with the place's environment; `gently` at a lower priority than the server (a drill
    must not slow a phone's save). Raises ReplicaRefused when Litestream is not installed or takes too long."""
    program = binary()
    if program is None:
        raise _refused(ReplicaRefused, f"{NOT_INSTALLED}. Nothing was changed.", NOT_INSTALLED)
    try:
        return subprocess.run([program, *args], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, env=place.environment(),
                              preexec_fn=_lower_priority if gently else None)
    except subprocess.TimeoutExpired:
        why = f"Litestream did not answer within {timeout:.0f} s"
        raise _refused(CannotReach, f"{why} ({place.shown()}). Nothing was changed.", why) from None
    except OSError as exc:
        raise _refused(ReplicaRefused, f"Litestream could not run ({exc}). Nothing was changed.",
                       f"Litestream could not run ({exc})") from None


def _said(place: Place, done: subprocess.CompletedProcess) -> str:
    lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    last = lines[-1] if lines else f"exit status {done.returncode}"
    return place.masked(last.removeprefix("Error: "))


# --- what the replica holds ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """What a restore would put back: up to transaction `txid`, written by Litestream at `written_at`."""

    txid: str
    written_at: datetime | None


def _stamp(moment: datetime) -> str:
    """A moment as Litestream reads it (RFC 3339 in UTC, with a four-digit year even for the year 999)."""
    utc = moment.astimezone(UTC)
    return f"{utc.year:04d}-{utc:%m-%dT%H:%M:%S}Z"


def plan(place: Place, config: Path, live_path: str, at: datetime | None = None, gently: bool = False) -> Plan:
    """The restore Litestream would do (its latest moment, or the one at `at`), without writing anything.
    Raises NothingThere, CannotReach or CannotPutBack, in words."""
    moment = ["-timestamp", _stamp(at)] if at else []
    done = run(place, ["restore", "-config", str(config), "-no-expand-env", "-dry-run", "-json", *moment,
                       os.path.abspath(live_path)], gently=gently)
    if done.returncode != 0:
        raise _refusal(place, config, live_path, done, at)
    try:
        found = json.loads(done.stdout)
        written = _time(found["files"][-1]["timestamp"])
        return Plan(str(found["max_txid"]), written)
    except (ValueError, KeyError, IndexError, TypeError):
        why = f"Litestream's plan could not be read ({place.masked(done.stdout[:200])!r})"
        raise _refused(CannotPutBack, f"{why}. Nothing was changed.", why) from None


def _refusal(place: Place, config: Path, live_path: str, done: subprocess.CompletedProcess,
             at: datetime | None) -> ReplicaRefused:
    """Why a restore (or its plan) failed, as the right kind of refusal."""
    said = _said(place, done)
    meaning = litestream_output.meaning_of(said)
    when = f" as it was at {said(at)}" if at else ""
    if meaning in (Meaning.UNREACHABLE, Meaning.REFUSED):
        why = litestream_output.in_words(said)
        return _refused(CannotReach, f"The replica {place.shown()} cannot be reached: {why}. Nothing was changed.",
                        why)
    if meaning is Meaning.HISTORY and at is None and not listing(place, config, live_path):
        return _refused(NothingThere, f"There is nothing to restore from {place.shown()} (it is empty: "
                                      f"{said}). Nothing was changed.", "it is empty")
    if meaning is Meaning.HISTORY and at is not None:
        return _refused(NothingThere, f"There is nothing to restore from {place.shown()}{when} ({said}). "
                                      "Nothing was changed.", f"nothing there{when}")
    why = litestream_output.in_words(said) if meaning is Meaning.HISTORY else \
        f"its files do not make a whole database ({said})"
    return _refused(CannotPutBack, f"There is nothing to restore from {place.shown()}{when}: {why}. Nothing was "
                                   "changed.", why)


def listing(place: Place, config: Path, live_path: str) -> list[dict]:
    """Every file the replica holds, at every level ([] when it holds none, or cannot be listed). Raises
    CannotReach when it cannot be reached."""
    done = run(place, ["ltx", "-config", str(config), "-no-expand-env", "-json", "-level", "all",
                       os.path.abspath(live_path)], timeout=120)
    if done.returncode != 0:
        said = _said(place, done)
        if litestream_output.meaning_of(said) in (Meaning.UNREACHABLE, Meaning.REFUSED):
            why = litestream_output.in_words(said)
            raise _refused(CannotReach, f"The replica {place.shown()} cannot be reached: {why}. Nothing was "
                                        "changed.", why)
        return []
    try:
        found = json.loads(done.stdout or "[]")
    except ValueError:
        return []
    return found if isinstance(found, list) else []


def span_of(place: Place, live_path: str) -> tuple[datetime, datetime] | None:
    """The first and the last moment the replica can be put back to; None when it holds nothing. Raises
    CannotReach."""
    with private_folder(live_path) as work:
        return span(place, write_config(place, live_path, work), live_path)


def span(place: Place, config: Path, live_path: str) -> tuple[datetime, datetime] | None:
    """The first and the last moment the replica can be put back to; None when it holds nothing."""
    files = listing(place, config, live_path)
    starts = [_time(f.get("timestamp")) for f in files if f.get("level") == 9 or _txid(f.get("min_txid")) == 1]
    ends = [_time(f.get("timestamp")) for f in files]
    starts, ends = [s for s in starts if s], [e for e in ends if e]
    if not starts or not ends:
        return None
    return min(starts), max(ends)


def _txid(text) -> int:
    try:
        return int(str(text), 16)
    except ValueError:
        return -1


def _time(text) -> datetime | None:
    try:
        return datetime.fromisoformat(str(text).replace("Z", "+00:00")).astimezone(UTC)
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True)
class FromReplica:
    """A database Litestream restored from the replica, in a private folder, and the moment it holds."""

    path: Path
    txid: str
    written_at: datetime | None  # when Litestream wrote the last change it holds


@contextlib.contextmanager
def restored(place: Place, live_path: str, at: datetime | None = None, work_in: Path | None = None,
             gently: bool = False) -> Iterator[FromReplica]:
    """The replica's database (as it was at `at`, else its latest) restored by `litestream restore` into a
    private folder beside the live database (or in `work_in`), gone when the block ends. Raises ReplicaRefused
    (NothingThere, CannotReach, CannotPutBack) when nothing can be put back."""
    if place.problem():
        raise _refused(ReplicaRefused, f"{place.problem()}. Nothing was changed.", place.problem())
    near = str(Path(work_in) / "x") if work_in is not None else live_path
    with private_folder(near) as work:
        config = write_config(place, live_path, work)
        planned = plan(place, config, live_path, at, gently=gently)
        output = work / "from-replica.db"
        done = run(place, ["restore", "-config", str(config), "-no-expand-env", "-txid", planned.txid,
                           "-o", str(output), os.path.abspath(live_path)], gently=gently)
        if done.returncode != 0 or not output.is_file():
            raise _refusal(place, config, live_path, done, at)
        yield FromReplica(output, planned.txid, planned.written_at)


# --- --at: a moment to put the replica back to ----------------------------------------------------------------

FORMS = "2026-11-25 18:03 or 2026-11-25 18:03:20 (this machine's time), or 2026-11-25T17:03:20Z"


def parse_moment(text: str) -> datetime:
    """--at: '2026-11-25 18:03', '2026-11-25 18:03:20' (the house's clock, see `core.house_time`) or ISO 8601
    with a zone; returned in UTC. Raises ValueError, in words, for an empty value, what is not a moment, or one the
    calendar cannot hold in UTC (the year 1 east of Greenwich, 9999-12-31 west of it)."""
    cleaned = text.strip().replace("T", " ").replace("Z", "+00:00")
    if not cleaned:
        raise ValueError(f"--at is empty: give the moment to put the replica back to, as {FORMS}")
    try:
        moment = datetime.fromisoformat(cleaned)
    except ValueError:
        raise ValueError(f"--at {text!r} is not a moment: give it as {FORMS}") from None
    try:
        if moment.tzinfo is None:
            moment = house_time.local(moment)  # the house's clock, as the family reads it
        return moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise ValueError(f"--at {text!r} is out of range: no replica holds a moment then") from None


def said(moment: datetime) -> str:
    """A moment as a person reads it, on the house's clock (a four-digit year, even the year 999)."""
    try:
        local = house_time.local(moment)
    except (ValueError, OverflowError):
        local = moment
    return f"{local.year:04d}-{local:%m-%d %H:%M:%S}"


def check_moment(moment: datetime, now: datetime, held: tuple[datetime, datetime] | None, where: str) -> None:
    """Refuse, in one line that says what the replica holds, a moment it cannot be put back to: in the future,
    or before its first moment. (A moment after its last change and before now is its latest state.)"""
    holds = f"{where} holds moments from {said(held[0])} to {said(held[1])}" if held else f"{where} holds nothing yet"
    if moment > now:
        raise ValueError(f"--at {said(moment)} is in the future: {holds}.")
    if held is None or moment < held[0]:
        raise ValueError(f"--at {said(moment)} is before the replica's first moment: {holds}.")
