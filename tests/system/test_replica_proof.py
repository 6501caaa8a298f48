"""The replica proves itself, for real: the server replicates with Litestream while phones record, and the replica
is broken as a household breaks one: its disk full or made unwritable, a second Scorepad given the same place, a
password in REPLICA_URL, an emoji in its path. Each time: said on the pages within a minute, never called fine
while it cannot be put back, and restorable with every hand acknowledged before. A place wiped, dropped or replaced
while Scorepad runs is test_replica_heals.py's."""

import os
import re
import shutil
import stat
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.system.helpers import Phone
from tests.system.replica_helpers import (
    environment,
    every_hand_restorable,
    health,
    immutable,
    may_mount,
    mounted,
    proven_after,
    readable_by_others,
    record,
    replicated_server,
    restore_from_replica,
    sftp_server,
    tokens,
    wait_for,
)

pytestmark = pytest.mark.slow

MINUTE = 60


def test_health_is_never_fine_while_the_replica_cannot_be_put_back(tmp_path):
    """Its files gone and its folder unwritable (so starting it over fails too): a warning on every page within a
    minute, and not once "fine" from then on."""
    nas, instance = tmp_path / "nas", tmp_path / "instance"
    with replicated_server(instance, environment(instance, str(nas))) as (base, _):
        wait_for(base, proven_after(0))
        record(base, seconds=1, phones=1)
        # its files moved out and the folder made unwritable at once, then deleted: Litestream, which writes every
        # second, must not make a new ltx folder in between (a folder then there, with a gap in it, which only the
        # next drill sees: an hour later)
        (nas / "ltx").rename(tmp_path / "ltx-wiped")
        if not immutable(nas):
            pytest.skip("chattr +i is not supported here")
        shutil.rmtree(tmp_path / "ltx-wiped")
        try:
            # found by a drill (it cannot be put back) or, first, by its plan: then starting it over fails on the
            # unwritable folder (Litestream cannot start). Either way a warning that says why, never fine again
            body, took, seen = wait_for(base, lambda b: b["replica_state"] in ("drill failed", "cannot start"),
                                        MINUTE)
            said = "cannot be put back" if body["replica_state"] == "drill failed" else "Operation not permitted"
            assert said in body["replica_warning"]
            print(f"\nthe warning came {took:.1f} s after the replica broke")
            for _ in range(10):
                seen.append(health(base))
                time.sleep(0.5)
            failed = next(n for n, b in enumerate(seen) if b["replica_state"] != "proven")
            assert not any(b["replica_ok"] for b in seen[failed:])
            page = Phone(base).get("/")
            assert ("cannot be put back" if said == "cannot be put back" else "not running") in page
        finally:
            immutable(nas, on=False)


def test_two_scorepads_given_one_replica_are_told_apart_on_both_machines(tmp_path):
    """Before: both reported a healthy replica, and a restore gave a damaged database or the other's games."""
    url, first, second = str(tmp_path / "nas"), tmp_path / "old-pi", tmp_path / "new-pi"
    with replicated_server(first, environment(first, url)) as (old_pi, _):
        wait_for(old_pi, proven_after(0))
        answered = record(old_pi, seconds=2, phones=1)
        with replicated_server(second, environment(second, url)) as (new_pi, _):
            refused, took, _ = wait_for(new_pi, lambda b: b["replica_state"] == "refused", MINUTE)
            assert "is not this Scorepad's: it holds another Scorepad's database" in refused["replica_warning"]
            theirs = record(new_pi, seconds=1, phones=1)
            told, told_in, _ = wait_for(old_pi, lambda b: bool(b.get("replica_warning")), MINUTE)
            assert "Another Scorepad" in told["replica_warning"] and told["replica_state"] == "proven"
            print(f"\nthe new Pi refused the place in {took:.1f} s; the old Pi said so {told_in:.1f} s later")
        answered += record(old_pi, seconds=1, phones=1)
        time.sleep(3)
    card = tmp_path / "card"
    done = restore_from_replica(card, environment(card, url))
    assert done.returncode == 0, done.stderr
    assert re.search(r"It holds \d+ games? and \d+ hands, the last recorded .*, written by the Scorepad on ",
                     done.stdout)
    restored = tokens(card / "scorepad.db")
    assert {t for t, _ in answered} <= restored and not {t for t, _ in theirs} & restored


@pytest.mark.parametrize("how", ["full", "unwritable"])
def test_a_replica_that_cannot_be_written_is_a_warning_within_a_minute_saying_why(tmp_path, how):
    """Before: warned about only after 10 minutes, as "not reached"."""
    nas, instance = tmp_path / "nas", tmp_path / "instance"
    nas.mkdir()
    if how == "full" and not may_mount(tmp_path / "probe"):
        pytest.skip("a full disk needs a small tmpfs mounted, and this sandbox may not mount")
    with contextlib_for(how, nas) as folder:
        with replicated_server(instance, environment(instance, str(folder))) as (base, _):
            wait_for(base, proven_after(0))
            if how == "full":
                subprocess.run(["dd", "if=/dev/zero", f"of={nas}/filler", "bs=64k"], capture_output=True)
            elif not immutable(folder / "ltx" / "0", folder / "ltx"):
                pytest.skip("chattr +i is not supported here")
            try:
                record(base, seconds=2, phones=1)
                said = "is full" if how == "full" else "does not let Scorepad write"
                body, took, _ = wait_for(base, lambda b: said in (b.get("replica_warning") or ""), MINUTE)
                print(f"\n{how}: said {took:.1f} s after the first hand that could not be written")
                assert body["replica_ok"] is False and said in Phone(base).get("/about")
            finally:
                immutable(folder / "ltx" / "0", folder / "ltx", on=False)
            if how == "unwritable":
                back = time.time()
                wait_for(base, proven_after(back), 3 * MINUTE)  # Litestream's retries back off: 1 s, 2 s, 4 s ...


@contextmanager
def contextlib_for(how: str, nas: Path):
    if how == "full":
        with mounted("-t", "tmpfs", "-o", "size=4m", "tmpfs", target=nas):
            yield nas / "scorepad"
    else:
        yield nas


PASSWORD = "S3cretPW-9a7"


def test_no_password_is_on_a_page_in_the_log_or_in_a_file_others_can_read(tmp_path):
    """Before: shown whole on /healthz, About and every footer when written without a scheme, and Litestream's
    config with the password in clear was left 0644 beside the database after the server stopped."""
    instance = tmp_path / "instance"
    with sftp_server(tmp_path / "ssh") as (port, key, host_key):
        url = f"sftp://root:{PASSWORD}@127.0.0.1:{port}{tmp_path / 'remote'}"
        env = environment(instance, url, SCOREPAD_REPLICA_SSH_KEY=str(key), SCOREPAD_REPLICA_SSH_HOST_KEY=host_key)
        with replicated_server(instance, env) as (base, process):
            wait_for(base, lambda b: b.get("replica_state") not in (None, "checking"), MINUTE)
            phone = Phone(base)
            game = phone.new_game()
            pages = [phone.get(path) for path in ("/", "/about", "/healthz", "/rules/", f"/games/{game}")]
            # Litestream's own, and (while a check of the replica runs) the check's, in a folder of its own
            modes = []
            for config in instance.glob(".scorepad-work-*/litestream.yml"):
                try:
                    modes.append((stat.S_IMODE(config.stat().st_mode), stat.S_IMODE(config.parent.stat().st_mode)))
                except FileNotFoundError:
                    pass  # a check's, done since
            assert modes and all(mode == (0o600, 0o700) for mode in modes), modes
            process.terminate()  # systemctl stop: the config goes with the server
            process.wait(60)
        assert not list(instance.glob(".scorepad-work-*")) and not list(instance.glob("*.yml"))
    assert all(PASSWORD not in page for page in pages)
    assert "root:…@127.0.0.1" in pages[1]
    log = "".join(p.read_text(errors="replace") for p in tmp_path.glob("server-*.log"))
    assert PASSWORD not in log and "Replicating" in log
    assert readable_by_others(tmp_path, PASSWORD) == []


def test_a_password_written_without_a_scheme_is_on_no_page_and_in_no_log(tmp_path):
    instance = tmp_path / "instance"
    url = f"pi:{PASSWORD}@nas.local:22/srv/scorepad"
    with replicated_server(instance, environment(instance, url)) as (base, _):
        body, _, _ = wait_for(base, lambda b: b.get("replica_state") == "cannot start", MINUTE)
        pages = [Phone(base).get(path) for path in ("/", "/about", "/rules/")] + [str(body)]
    assert all(PASSWORD not in page for page in pages)
    assert "sftp://pi:…@host:22/folder" in pages[0]  # the footer says how to write it
    assert PASSWORD not in "".join(p.read_text(errors="replace") for p in tmp_path.glob("server-*.log"))


def test_an_emoji_in_the_replicas_path_replicates_and_restores(tmp_path):
    """Before: the config was written with escapes Litestream's YAML reader refuses, and replication stopped for
    good; the footer said only "exit status 1"."""
    instance, url = tmp_path / "Küche 🂡" / "instance", str(tmp_path / "NAS ♠️ 🃏" / "scorepad")
    with replicated_server(instance, environment(instance, url)) as (base, _):
        wait_for(base, proven_after(0), MINUTE)
        answered = record(base, seconds=2, phones=1)
        time.sleep(3)
        assert health(base)["replica_ok"] is True
    every_hand_restorable(tmp_path / "nouvelle carte 🎴", url, answered)


def test_a_restore_from_the_replica_on_a_running_server_names_the_hands_only_in_the_safety_copy(tmp_path):
    instance, url = tmp_path / "instance", str(tmp_path / "nas")
    env = environment(instance, url)
    with replicated_server(instance, env) as (base, _):
        wait_for(base, proven_after(0))
        record(base, seconds=2, phones=1)
        time.sleep(2.5)
        moment = time.strftime("%Y-%m-%d %H:%M:%S")
        time.sleep(1.5)
        later = record(base, seconds=2, phones=1)
        time.sleep(3)
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", "restore", "--from-replica",
                               "--at", moment, "--yes"], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{len(later)} hand(s) recorded here after the replica's moment are not in the restored database" \
        in done.stdout
    assert "they are only in" in done.stdout and "before-restore-" in done.stdout
    assert "It holds 1 game and" in done.stdout
    assert os.path.getsize(instance / "scorepad.db") > 0
