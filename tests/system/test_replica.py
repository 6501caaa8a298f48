"""The copy off the machine, for real: the server replicates with Litestream while phones record, the card dies
(everything killed at once, the data folder deleted) or the server is killed, and `restore --from-replica` on
a fresh folder has every hand acknowledged up to the last second or two before the loss, and says the moment
it restored to. Against a folder, an OpenSSH server and an S3 API, all on this machine."""

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorepad.store import backups
from tests.helpers import FIXTURES, ROOT
from tests.system.replica_helpers import (
    LOSS_BOUND_SECONDS,
    S3_CREDENTIALS,
    card_dies,
    children,
    environment,
    health,
    loss_window,
    record,
    replicated_server,
    replicating,
    restore_from_replica,
    restored_moment,
    s3_server,
    sftp_server,
    tokens,
    wait_until_reached,
)

pytestmark = pytest.mark.slow


def _card_dies_and_comes_back(tmp_path, url: str, **extra: str) -> float:
    """Phones record while the server replicates to `url`; the card dies; a new card gets the replica's
    database. Returns the loss window (seconds of acknowledged hands not on the replica)."""
    instance, fresh = tmp_path / "instance", tmp_path / "new-card"
    with replicated_server(instance, environment(instance, url, **extra)) as (base, process):
        wait_until_reached(base)
        answered = record(base, seconds=4, at_least=21)
        died = card_dies(process, instance)
    done = restore_from_replica(fresh, environment(fresh, url, **extra))
    assert done.returncode == 0, done.stderr + done.stdout
    print(f"\n{restored_moment(done.stdout)}")
    window = loss_window(answered, tokens(fresh / "scorepad.db"), died)
    kind = url.split("://")[0] if "://" in url else "folder"
    print(f"{kind}: {len(answered)} hands acknowledged, loss window {window:.2f} s")
    assert len(answered) > 20
    assert window <= LOSS_BOUND_SECONDS
    return window


def test_a_folder_replica_has_every_hand_but_the_last_seconds_when_the_card_dies(tmp_path):
    _card_dies_and_comes_back(tmp_path, str(tmp_path / "nas" / "scorepad"))


def test_an_sftp_replica_has_every_hand_but_the_last_seconds_when_the_card_dies(tmp_path):
    with sftp_server(tmp_path / "ssh") as (port, key, host_key):
        _card_dies_and_comes_back(tmp_path, f"sftp://root@127.0.0.1:{port}{tmp_path}/remote/scorepad",
                                  SCOREPAD_REPLICA_SSH_KEY=str(key), SCOREPAD_REPLICA_SSH_HOST_KEY=host_key)


def test_an_s3_replica_has_every_hand_but_the_last_seconds_when_the_card_dies(tmp_path):
    with s3_server("scorepad") as endpoint:
        _card_dies_and_comes_back(tmp_path, f"s3://scorepad/pi?endpoint={endpoint}&region=us-east-1"
                                            "&forcePathStyle=true", **S3_CREDENTIALS)


def test_a_killed_server_loses_nothing_it_acknowledged(tmp_path):
    """kill -9 of the server alone: its Litestream is told (SIGTERM from the kernel) and ships what it can, so the
    replica lacks at most the last second or two; the card still holds every hand, and once the server is back
    its Litestream ships the rest: a new card restored then has every hand acknowledged."""
    instance, url = tmp_path / "instance", str(tmp_path / "nas")
    with replicated_server(instance, environment(instance, url)) as (base, process):
        wait_until_reached(base)
        answered = record(base, seconds=3)
        killed = time.time()
        process.kill()
        process.wait(10)
        time.sleep(3)  # Litestream's last sync on its way out
    first = restore_from_replica(tmp_path / "card-a", environment(tmp_path / "card-a", url))
    assert first.returncode == 0, first.stderr
    assert loss_window(answered, tokens(tmp_path / "card-a" / "scorepad.db"), killed) <= LOSS_BOUND_SECONDS
    assert {token for token, _ in answered} <= tokens(instance / "scorepad.db")  # nothing acknowledged is lost
    with replicated_server(instance, environment(instance, url)) as (base, process):
        wait_until_reached(base)
        time.sleep(3)
    done = restore_from_replica(tmp_path / "card-b", environment(tmp_path / "card-b", url))
    assert done.returncode == 0, done.stderr
    assert {token for token, _ in answered} <= tokens(tmp_path / "card-b" / "scorepad.db")


def test_replication_goes_on_through_a_restore_and_at_names_an_earlier_moment(tmp_path):
    """`flask restore` while the server replicates: the restore goes in through SQLite, so Litestream ships it
    as one more change, and the hands after it too. --at takes the replica back to before the restore."""
    instance, fresh, url = tmp_path / "instance", tmp_path / "new-card", str(tmp_path / "nas")
    env = environment(instance, url)
    saved = tmp_path / "saved.db"
    with replicated_server(instance, env) as (base, process):
        wait_until_reached(base)
        before = record(base, seconds=2, phones=1)
        backups.backup(str(instance / "scorepad.db"), str(saved))
        between = record(base, seconds=2, phones=1)
        time.sleep(2)
        moment = time.strftime("%Y-%m-%d %H:%M:%S")
        time.sleep(1.5)
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", "restore", "--yes", str(saved)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        after = record(base, seconds=2, phones=1)
        time.sleep(3)
        assert health(base)["replica"] == "running"
        card_dies(process, instance)
    done = restore_from_replica(fresh, environment(fresh, url))
    assert done.returncode == 0, done.stderr
    restored = tokens(fresh / "scorepad.db")
    assert {t for t, _ in before + after} <= restored
    assert not {t for t, _ in between} & restored  # the restore put them aside, on the replica too

    earlier = tmp_path / "earlier-card"
    done = restore_from_replica(earlier, environment(earlier, url), "--at", moment)
    assert done.returncode == 0, done.stderr
    assert {t for t, _ in before + between} <= tokens(earlier / "scorepad.db")
    assert not {t for t, _ in after} & tokens(earlier / "scorepad.db")
    assert "as it was at" in done.stdout


def test_replication_goes_on_after_an_upgrade_that_changed_the_schema(tmp_path):
    """An old Scorepad's database, replicated; the new Scorepad migrates it at start (Litestream not yet
    running, the log changed under it): the replica follows the upgraded database, and the hands after it."""
    instance, fresh, url = tmp_path / "instance", tmp_path / "new-card", str(tmp_path / "nas")
    instance.mkdir()
    oldest = sorted((FIXTURES / "historic").glob("fbb32c8*.db"))[0]
    shutil.copyfile(oldest, instance / "scorepad.db")
    with sqlite3.connect(instance / "scorepad.db") as db:
        db.execute("PRAGMA journal_mode = WAL")
    # the old Scorepad's replica: Litestream on the database as it was
    from scorepad.services import replica

    config = replica.write_config(replica.Place(url), str(instance / "scorepad.db"), instance)
    old = subprocess.Popen([replica.binary(), "replicate", "-config", str(config), "-no-expand-env"])
    time.sleep(4)
    old.terminate()
    old.wait(15)
    with replicated_server(instance, environment(instance, url)) as (base, process):
        assert list((instance / "backups").glob("before-upgrade-*.db"))  # it was upgraded
        wait_until_reached(base)
        answered = record(base, seconds=2, phones=1)
        time.sleep(3)
        card_dies(process, instance)
    done = restore_from_replica(fresh, environment(fresh, url))
    assert done.returncode == 0, done.stderr
    assert {t for t, _ in answered} <= tokens(fresh / "scorepad.db")


def test_a_new_card_replicates_again_to_the_same_place(tmp_path):
    """After the card died and the replica's database was put on a new one, the server replicates the new
    card's database to the same place, and a second restore has the hands recorded since."""
    first, second, third, url = tmp_path / "a", tmp_path / "b", tmp_path / "c", str(tmp_path / "nas")
    with replicated_server(first, environment(first, url)) as (base, process):
        wait_until_reached(base)
        earlier = record(base, seconds=2, phones=1)
        time.sleep(3)
        card_dies(process, first)
    assert restore_from_replica(second, environment(second, url)).returncode == 0
    with replicated_server(second, environment(second, url)) as (base, process):
        wait_until_reached(base)
        later = record(base, seconds=2, phones=1)
        time.sleep(3)
        card_dies(process, second)
    done = restore_from_replica(third, environment(third, url))
    assert done.returncode == 0, done.stderr
    assert {t for t, _ in earlier + later} <= tokens(third / "scorepad.db")


def test_a_database_file_replaced_while_the_server_was_stopped_is_replicated_as_the_new_file(tmp_path):
    """The database put back as a file while nothing ran (as `restore` does to one that cannot be opened, or a
    person by hand): Litestream, started again, streams the new file, not the old one's history."""
    instance, fresh, url = tmp_path / "instance", tmp_path / "new-card", str(tmp_path / "nas")
    env = environment(instance, url)
    saved = tmp_path / "saved.db"
    with replicated_server(instance, env) as (base, process):
        wait_until_reached(base)
        kept = record(base, seconds=1.5, phones=1)
        backups.backup(str(instance / "scorepad.db"), str(saved))
        dropped = record(base, seconds=1.5, phones=1)
        litestream = children(process.pid)
        process.terminate()  # a clean stop: Litestream sends the rest, then ends
        process.wait(20)
        deadline = time.monotonic() + 20
        while any(Path(f"/proc/{pid}").exists() for pid in litestream) and time.monotonic() < deadline:
            time.sleep(0.1)
    for leftover in ("-wal", "-shm"):
        (instance / f"scorepad.db{leftover}").unlink(missing_ok=True)
    shutil.copyfile(saved, instance / "scorepad.db")
    with replicated_server(instance, env) as (base, process):
        wait_until_reached(base)
        after = record(base, seconds=1.5, phones=1)
        time.sleep(3)
        card_dies(process, instance)
    done = restore_from_replica(fresh, environment(fresh, url))
    assert done.returncode == 0, done.stderr
    restored = tokens(fresh / "scorepad.db")
    assert {t for t, _ in kept + after} <= restored
    assert not {t for t, _ in dropped} & restored


def test_a_litestream_that_dies_is_started_again_and_catches_up(tmp_path):
    """Litestream killed under the server: the server starts another within seconds, which sends what was
    written meanwhile; /healthz says running again."""
    instance, fresh, url = tmp_path / "instance", tmp_path / "new-card", str(tmp_path / "nas")
    with replicated_server(instance, environment(instance, url)) as (base, process):
        wait_until_reached(base)
        [first] = replicating(process.pid)
        os.kill(first, signal.SIGKILL)
        answered = record(base, seconds=2, phones=1)  # written while no Litestream ran, or a new one
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (replicating(process.pid) and health(base)["replica"] == "running"):
            time.sleep(0.2)
        [second] = replicating(process.pid)
        assert second != first and health(base)["replica"] == "running"
        time.sleep(4)
        card_dies(process, instance)
    done = restore_from_replica(fresh, environment(fresh, url))
    assert done.returncode == 0, done.stderr
    assert {t for t, _ in answered} <= tokens(fresh / "scorepad.db")
