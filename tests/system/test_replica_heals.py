"""The replica heals itself, for real: Litestream replicates while phones record, and the place it writes to is
broken as a household breaks it: its folder wiped (a folder, an SFTP server, a bucket), its share dropped and
mounted again (a bind mount where this test may mount), a folder replaced and the old one put back. Each time:
said on the pages within a minute, and restorable again within a minute with every hand acknowledged before.
(Apart from test_replica_proof.py so that the two halves run on two test workers at once.)"""

import subprocess
import threading
import time

import pytest

from tests.system.replica_helpers import (
    a_place,
    drop_share,
    environment,
    every_hand_restorable,
    may_mount,
    mounted,
    proven_after,
    record,
    replicated_server,
    states_seen,
    wait_for,
    wipe,
)

pytestmark = pytest.mark.slow

MINUTE = 60


@pytest.mark.parametrize("kind", ["folder", "sftp", "s3"])
def test_a_replica_wiped_while_scorepad_runs_is_restorable_again_within_a_minute(tmp_path, kind):
    """Before: Litestream went on writing only the newest changes into the emptied place, `restore --from-replica`
    found "no matching backup files" until it was restarted, and /healthz said 1.9 s behind, no warning."""
    instance = tmp_path / "instance"
    with a_place(kind, tmp_path) as (url, extra, wipe):
        with replicated_server(instance, environment(instance, url, **extra)) as (base, _):
            wait_for(base, proven_after(0))
            answered = record(base, seconds=2, phones=1)
            with states_seen(base) as seen:
                wiped = time.time()
                wipe()
                answered += record(base, seconds=2, phones=1)
                body, took, _ = wait_for(base, proven_after(wiped + 1), MINUTE)
            print(f"\n{kind}: restorable again {took:.1f} s after the wipe (states: {' → '.join(seen)})")
            assert "healing" in seen or "healed" in seen
            answered += record(base, seconds=1, phones=1)
            time.sleep(3)
            every_hand_restorable(tmp_path, url, answered, **extra)


def test_a_share_that_drops_and_is_mounted_again_is_not_written_into_meanwhile(tmp_path):
    """Before: Litestream wrote into the empty mount point on the local disk, the replica skipped those changes,
    and every later restore failed ("non-contiguous ltx files") while About said "running, 0.4 s behind"."""
    if not may_mount(tmp_path / "probe"):
        pytest.skip("this sandbox may not mount: the replaced-folder test stands in for it")
    share, mount_point, instance = tmp_path / "share", tmp_path / "nas", tmp_path / "instance"
    share.mkdir()
    mount_point.mkdir()
    url = str(mount_point / "scorepad")
    with mounted("--bind", str(share), target=mount_point):
        with replicated_server(instance, environment(instance, url)) as (base, _):
            wait_for(base, proven_after(0))
            answered = record(base, seconds=2, phones=1)
            drop_share(mount_point)
            body, took, _ = wait_for(base, lambda b: b["replica_state"] == "share not mounted", 10)
            assert "not mounted" in body["replica_warning"] and body["replica_ok"] is False
            written = sorted(str(p) for p in mount_point.rglob("*"))
            answered += record(base, seconds=3, phones=1)
            time.sleep(3)
            assert sorted(str(p) for p in mount_point.rglob("*")) == written  # the empty mount point: untouched
            back = time.time()
            subprocess.run(["mount", "--bind", str(share), str(mount_point)], check=True)
            body, took, _ = wait_for(base, proven_after(back), MINUTE)
            print(f"\nrestorable again {took:.1f} s after the share came back")
            answered += record(base, seconds=1, phones=1)
            time.sleep(3)
            every_hand_restorable(tmp_path, url, answered)


def test_a_replica_folder_replaced_and_put_back_is_restorable_again_within_a_minute(tmp_path):
    """The same drop where no test may mount: the folder replaced by an empty one (a share re-created), then the
    old one put back (the share mounted again, with the files of before the drop)."""
    nas, away, instance = tmp_path / "nas", tmp_path / "nas-away", tmp_path / "instance"
    url = str(nas)
    with replicated_server(instance, environment(instance, url)) as (base, _):
        wait_for(base, proven_after(0))
        answered = record(base, seconds=2, phones=1)
        replaced = time.time()
        nas.rename(away)
        nas.mkdir()
        answered += record(base, seconds=2, phones=1)
        _, took, _ = wait_for(base, proven_after(replaced + 1), MINUTE)
        answered += record(base, seconds=2, phones=1)
        with states_seen(base) as seen:
            put_back = time.time()
            wipe(nas)
            away.rename(nas)
            answered += record(base, seconds=1, phones=1)
            _, took_back, _ = wait_for(base, proven_after(put_back + 1), MINUTE)
        print(f"\nrestorable again {took:.1f} s after the folder was replaced, {took_back:.1f} s after it was put "
              f"back (states: {' → '.join(seen)})")
        assert "healing" in seen or "healed" in seen
        answered += record(base, seconds=1, phones=1)
        time.sleep(3)
        every_hand_restorable(tmp_path, url, answered)


def test_a_folder_replicas_files_deleted_beside_its_marker_are_found_before_the_next_drill(tmp_path):
    """Its ltx folder alone deleted and made again at once (as Litestream does within the second), the marker
    beside it left: the files of before are gone and what Litestream writes next cannot be put back alone. Before:
    proven, and fine on every page, until the next drill an hour later, while every restore failed."""
    nas, instance = tmp_path / "nas", tmp_path / "instance"
    url = str(nas)
    with replicated_server(instance, environment(instance, url)) as (base, _):
        wait_for(base, proven_after(0))
        answered = record(base, seconds=2, phones=1)
        with states_seen(base) as seen:
            deleted = time.time()
            (nas / "ltx").rename(tmp_path / "ltx-deleted")
            (nas / "ltx").mkdir()
            answered += record(base, seconds=2, phones=1)
            _, took, _ = wait_for(base, proven_after(deleted + 1), MINUTE)
        print(f"\nrestorable again {took:.1f} s after its files went (states: {' → '.join(seen)})")
        assert "healing" in seen or "healed" in seen
        answered += record(base, seconds=1, phones=1)
        time.sleep(3)
        every_hand_restorable(tmp_path, url, answered)


HEALS = 4


def test_a_replica_started_over_while_phones_record_without_a_pause_is_put_back_whole_each_time(tmp_path):
    """Before: the new snapshot was written by one Litestream run and read on by the next, started up to 2 s
    later; phones recording in between had the server fold the log into the database and start it over, the next
    Litestream took the new log for the old one, and about one start-over in two put back a damaged database
    ("wrong # of entries in index hands_live"), left so for ten minutes. Now the log is held between the two. And
    after the hand-over, the server's writers folding the log beside Litestream's own folds damaged a transaction
    now and then (with a second test worker beside it); now Litestream folds it alone while it runs."""
    folder, instance = tmp_path / "nas", tmp_path / "instance"
    url = str(folder)
    with replicated_server(instance, environment(instance, url)) as (base, _):
        wait_for(base, proven_after(0))
        answered, stop = [], threading.Event()

        def phones_record():
            while not stop.is_set():
                answered.extend(record(base, seconds=3, phones=2, pause=0))

        phones = threading.Thread(target=phones_record)
        phones.start()
        try:
            time.sleep(4)
            for heal in range(HEALS):
                wiped = time.time()
                wipe(folder)
                proven = proven_after(wiped + 1)
                body, took, _ = wait_for(base, lambda b, proven=proven: proven(b)
                                         or b["replica_state"] == "drill failed", MINUTE)
                assert body["replica_state"] == "proven", f"start-over {heal + 1}: {body['replica_warning']}"
                print(f"\nstart-over {heal + 1}: put back whole {took:.1f} s after the wipe")
        finally:
            stop.set()
            phones.join(30)
        time.sleep(3)
        every_hand_restorable(tmp_path, url, answered)
