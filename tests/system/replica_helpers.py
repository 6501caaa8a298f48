"""The replica tests' real things: a Scorepad server replicating to REPLICA_URL, phones that remember when each
hand was acknowledged, an OpenSSH server and an S3 API (moto) on loopback, and the card that dies."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from tests.helpers import ROOT
from tests.system.helpers import HAND, Phone, free_port

LOSS_BOUND_SECONDS = 5  # Litestream reads the log every second and ships it every second; a loaded machine is slower


def environment(instance: Path, url: str, **extra: str) -> dict:
    # the supervisor at four times a household's pace (a look every half second, the plan every 5 s): the tests
    # wait on what it does, not on its timers
    env = {**os.environ, "SCOREPAD_INSTANCE": str(instance), "REPLICA_URL": url, "PYTHONUNBUFFERED": "1",
           "SCOREPAD_REPLICA_PACE": "4", **extra}
    for name in ("SCOREPAD_PASSCODE", "SCOREPAD_DATABASE", "SCOREPAD_REPLICA_URL"):
        env.pop(name, None)
    return env


@contextmanager
def replicated_server(instance: Path, env: dict):
    """`python -m scorepad` on a loopback port with its data in `instance`, replicating as `env` says."""
    instance.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log = open(instance.parent / f"server-{port}.log", "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen([sys.executable, "-m", "scorepad", "--host", "127.0.0.1", "--port", str(port),
                                "--no-qr", "--threads", "8"], cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/rules/", timeout=1).read()
            break
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError("the server did not start: " + (instance.parent / log.name).read_text()) from None
            time.sleep(0.1)
    try:
        yield base, process
    finally:
        for child in children(process.pid):
            with _gone():
                os.kill(child, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        log.close()


@contextmanager
def _gone():
    try:
        yield
    except ProcessLookupError:
        pass


def children(pid: int) -> list[int]:
    """The processes `pid` started (Litestream, for the server)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(n) for n in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def replicating(pid: int) -> list[int]:
    """Of those, the `litestream replicate` ones (not a drill's `litestream restore`, which may be running too)."""
    found = []
    for child in children(pid):
        try:
            if b"replicate" in Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0"):
                found.append(child)
        except OSError:
            continue
    return found


def health(base: str) -> dict:
    with urllib.request.urlopen(base + "/healthz", timeout=5) as response:
        return json.loads(response.read())


def wait_until_reached(base: str, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        body = health(base)
        if body.get("replica_reached_at"):
            return body
        time.sleep(0.5)
    raise AssertionError(f"the replica was never reached: {health(base)}")


# Between two hands a phone waits this long: some 15 hands a second from each phone, a table's evening every few
# seconds, while Litestream syncs every second (so every sync still carries hands). Without a pause one phone keeps
# the server's core busy (68 hands a second), which the replica's tests paid for in processor time and nothing
# else; the test of a replica started over while phones record without a pause still records without one (pause=0).
PAUSE = 0.05


def record(base: str, seconds: float, phones: int = 2, pause: float = PAUSE, at_least: int = 0,
           ) -> list[tuple[str, float]]:
    """Phones record hands for `seconds`, and on until `at_least` are acknowledged (a busy machine answers fewer a
    second; a minute at most); each hand acknowledged (303), with the moment its answer came."""
    answered: list[tuple[str, float]] = []
    stop = threading.Event()

    def keep(phone: Phone, game_id: int) -> None:
        while not stop.is_set():
            try:
                form = phone.hand_form(game_id)
                if phone.post(f"/games/{game_id}/hands", {**form, **HAND}) == 303:
                    answered.append((form["token"], time.time()))
            except (OSError, http.client.HTTPException):
                return
            stop.wait(pause)

    players = [Phone(base) for _ in range(phones)]
    threads = [threading.Thread(target=keep, args=(p, p.new_game())) for p in players]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    deadline = time.monotonic() + 60
    while len(answered) < at_least and time.monotonic() < deadline and any(t.is_alive() for t in threads):
        time.sleep(0.05)
    stop.set()
    for thread in threads:
        thread.join(15)
    return answered


def card_dies(process: subprocess.Popen, instance: Path) -> float:
    """Litestream and the server gone at one instant (kill -9, nothing flushed), then the data folder: the
    moment it happened."""
    kids = children(process.pid)
    died = time.time()
    for pid in [*kids, process.pid]:
        with _gone():
            os.kill(pid, signal.SIGKILL)
    process.wait(10)
    shutil.rmtree(instance)
    return died


def restore_from_replica(instance: Path, env: dict, *extra: str) -> subprocess.CompletedProcess:
    """`flask --app scorepad restore --from-replica --yes` on a fresh data folder (a new card)."""
    instance.mkdir(parents=True, exist_ok=True)
    return subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", "restore", "--from-replica", "--yes",
                           *extra], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def tokens(database: Path) -> set[str]:
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return {row[0] for row in db.execute("SELECT token FROM hands")}


def loss_window(answered: list[tuple[str, float]], restored: set[str], died: float) -> float:
    """Seconds before the loss in which acknowledged hands did not reach the replica (0: none lost). Every hand
    acknowledged before that is in the restored database (asserted)."""
    missing = [at for token, at in answered if token not in restored]
    if not missing:
        return 0.0
    window = died - min(missing)
    kept_after = [at for token, at in answered if token in restored and at > min(missing)]
    assert not kept_after or max(kept_after) >= min(missing)  # the replica is a prefix in time, not a sieve
    return window


def restored_moment(output: str) -> str:
    return re.search(r"as it was at ([\d-]+ [\d:]+) \(transaction (\w+)\)", output)[0]


# --- an OpenSSH server on loopback ------------------------------------------------------------------------------

def sshd_program() -> str:
    program = shutil.which("sshd") or "/usr/sbin/sshd"
    assert Path(program).is_file(), ("The SFTP replica test needs OpenSSH's server: `make test` installs it "
                                     "(apt-get install openssh-server).")
    return program


@contextmanager
def sftp_server(folder: Path):
    """sshd on a loopback port, as this user, with a host key and a client key made for the test. Yields the
    port, the client's private key and the host's public key."""
    folder.mkdir(parents=True)
    host_key, client_key = folder / "host_key", folder / "client_key"
    for key in (host_key, client_key):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    (folder / "authorized_keys").write_text((folder / "client_key.pub").read_text())
    port = free_port()
    config = folder / "sshd_config"
    config.write_text("\n".join([
        f"Port {port}", "ListenAddress 127.0.0.1", f"HostKey {host_key}",
        f"AuthorizedKeysFile {folder / 'authorized_keys'}", "PasswordAuthentication no",
        "KbdInteractiveAuthentication no", "PermitRootLogin prohibit-password", "StrictModes no", "UsePAM no",
        f"PidFile {folder / 'sshd.pid'}", "Subsystem sftp internal-sftp", ""]))
    Path("/run/sshd").mkdir(exist_ok=True)  # its privilege separation folder
    with open(folder / "sshd.log", "wb") as log:
        process = subprocess.Popen([sshd_program(), "-D", "-e", "-f", str(config)], stdout=subprocess.DEVNULL,
                                   stderr=log)
        try:
            _wait_for_port(port, process)
            yield port, client_key, (folder / "host_key.pub").read_text().strip()
        finally:
            process.terminate()
            process.wait(10)


def _wait_for_port(port: int, process: subprocess.Popen) -> None:
    import socket

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} stopped (exit status {process.returncode})")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


# --- an S3 API on loopback ---------------------------------------------------------------------------------------

@contextmanager
def s3_server(bucket: str):
    """moto's S3 in server mode on a loopback port, with `bucket` made. Yields its endpoint."""
    port = free_port()
    program = Path(sys.executable).with_name("moto_server")
    process = subprocess.Popen([str(program), "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        _wait_for_port(port, process)
        endpoint = f"http://127.0.0.1:{port}"
        request = urllib.request.Request(f"{endpoint}/{bucket}", method="PUT")
        urllib.request.urlopen(request, timeout=10).read()
        yield endpoint
    finally:
        process.terminate()
        process.wait(10)


S3_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test"}  # moto takes any


# --- the replica proving itself (tests/system/test_replica_proof.py) ----------------------------------------------

def wait_for(base: str, wanted, seconds: float = 60, every: float = 0.5) -> tuple[dict, float, list[dict]]:
    """Poll /healthz until `wanted(health)`; (that health, the seconds it took, every health seen). Raises when
    it does not come within `seconds`."""
    began, seen = time.monotonic(), []
    while True:
        body = health(base)
        seen.append(body)
        if wanted(body):
            return body, time.monotonic() - began, seen
        if time.monotonic() - began > seconds:
            raise AssertionError(f"not within {seconds} s; last seen: {body}")
        time.sleep(every)


@contextmanager
def states_seen(base: str, every: float = 0.2):
    """The replica's states /healthz said while the block ran, in order (one after another, each once): what the
    phones recording meanwhile did not see, a replica healed within the seconds they recorded."""
    seen: list[str] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError, ValueError):
                state = health(base)["replica_state"]
                if not seen or seen[-1] != state:
                    seen.append(state)
            stop.wait(every)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        yield seen
    finally:
        stop.set()
        watcher.join(10)


def proven_after(moment: float):
    """A /healthz body whose replica was proven restorable by a drill after `moment` (time.time())."""
    def wanted(body: dict) -> bool:
        at = body.get("replica_proven_at")
        return body.get("replica_state") == "proven" and at is not None and \
            datetime.fromisoformat(at).timestamp() >= int(moment)
    return wanted


def wipe_bucket(endpoint: str, bucket: str, prefix: str) -> int:
    """Delete every object under `prefix` in moto's bucket (as a person emptying a folder in a bucket would)."""
    import boto3

    s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", **{
        "aws_access_key_id": "test", "aws_secret_access_key": "test"})
    keys = [item["Key"] for item in s3.list_objects_v2(Bucket=bucket, Prefix=prefix).get("Contents", [])]
    for key in keys:
        s3.delete_object(Bucket=bucket, Key=key)
    return len(keys)


def may_mount(folder: Path) -> bool:
    """Whether this test may mount (root, in a sandbox that allows it): a bind mount tried and undone."""
    source, target = folder / "may-mount-source", folder / "may-mount-target"
    source.mkdir(parents=True, exist_ok=True)
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "--bind", str(source), str(target)], capture_output=True)
    if done.returncode != 0:
        return False
    subprocess.run(["umount", str(target)], check=True)
    return True


@contextmanager
def mounted(*args: str, target: Path):
    """`mount ARGS TARGET` for the block (unmounted after, whatever happens)."""
    subprocess.run(["mount", *args, str(target)], check=True)
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], capture_output=True)


def drop_share(target: Path, within: float = 10) -> None:
    """The share mounted at `target` gone, as a network share drops: `umount`, tried again while the share is busy
    (Litestream has a file of it open for the moment it writes one); if it stays busy, detached at once for every
    new look (`umount -l`), which is what a dropped share is to them."""
    deadline = time.monotonic() + within
    while True:
        done = subprocess.run(["umount", str(target)], capture_output=True, text=True)
        if done.returncode == 0:
            return
        if "busy" not in done.stderr or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    subprocess.run(["umount", "-l", str(target)], check=True)


def immutable(*paths: Path, on: bool = True) -> bool:
    """chattr +i (or -i) the paths: not even root can write there then. False where it is not supported."""
    done = subprocess.run(["chattr", "+i" if on else "-i", *map(str, paths)], capture_output=True)
    return done.returncode == 0


def readable_by_others(root: Path, secret: str) -> list[str]:
    """Files under `root` that any user may read and that hold `secret`."""
    found = []
    for path in root.rglob("*"):
        try:
            if path.is_file() and path.stat().st_mode & 0o004 and secret.encode() in path.read_bytes():
                found.append(str(path))
        except OSError:
            continue
    return found


def wipe(folder: Path) -> None:
    """Delete a replica's folder at one moment, while Litestream may be writing into it: moved aside first (what
    Litestream writes by its path from then on starts a new folder, as after `rm -rf` done at once), then
    deleted. A file Litestream was finishing inside the moved folder can make one pass find it "not empty"."""
    aside = folder.with_name(f"{folder.name}.wiped-{time.monotonic_ns()}")
    folder.rename(aside)
    for _ in range(50):
        shutil.rmtree(aside, ignore_errors=True)
        if not aside.exists():
            return
        time.sleep(0.05)
    raise AssertionError(f"{aside} could not be deleted")


@contextmanager
def a_place(kind: str, tmp_path: Path):
    """(REPLICA_URL, the settings it needs besides, how to wipe it) for a folder, an SFTP server or a bucket."""
    if kind == "folder":
        folder = tmp_path / "nas" / "scorepad"
        yield str(folder), {}, lambda: wipe(folder)
    elif kind == "sftp":
        with sftp_server(tmp_path / "ssh") as (port, key, host_key):
            remote = tmp_path / "remote" / "scorepad"
            yield (f"sftp://root@127.0.0.1:{port}{remote}",
                   {"SCOREPAD_REPLICA_SSH_KEY": str(key), "SCOREPAD_REPLICA_SSH_HOST_KEY": host_key},
                   lambda: wipe(remote))
    else:
        with s3_server("scorepad") as endpoint:
            yield (f"s3://scorepad/pi?endpoint={endpoint}&region=us-east-1&forcePathStyle=true", S3_CREDENTIALS,
                   lambda: wipe_bucket(endpoint, "scorepad", "pi/"))


def every_hand_restorable(tmp_path: Path, url: str, answered, **extra: str) -> None:
    """A new card restored from the replica now has every hand acknowledged in `answered`."""
    card = tmp_path / f"card-{time.monotonic_ns()}"
    done = restore_from_replica(card, environment(card, url, **extra))
    assert done.returncode == 0, done.stderr + done.stdout
    missing = {token for token, _ in answered} - tokens(card / "scorepad.db")
    assert not missing, f"{len(missing)} of {len(answered)} acknowledged hands are not in the replica"
