"""Full size, no hooks: an 80 MB database, and the real commands killed with SIGKILL at random moments. A restore
(`flask --app scorepad restore --yes`) and a server starting on an older database (its copy before the upgrade)
leave no half file under a name a family would restore, no private copy in the temporary folder, and nothing
the next run does not clear. (tests/web/test_killed_copies.py: the same, small, each kill placed halfway.)"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorepad.core.rules import PRESETS
from scorepad.store import backups, connection, schema
from tests.helpers import ROOT
from tests.system.helpers import free_port

pytestmark = pytest.mark.slow

KILLS = 6


RULES = json.dumps(PRESETS["double-deck"].to_dict())


def eighty_megabytes(path: Path, upgrade_pending: bool = False) -> int:
    """A database of about 80 MB (800 games with bulky team names, and rules a restore can read, as it reads
    every row); returns how many games it holds."""
    with contextlib.closing(connection.connect(str(path))) as db:
        if upgrade_pending:
            schema.migrations.apply(db, stop_before=schema.migrations.pending(db)[-1].name)
        else:
            schema.migrations.apply(db)
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.executemany("INSERT INTO games (created_at, rules, team_0, team_1, first_dealer) VALUES (?, ?, ?, ?, 0)",
                       [("2025-01-01T20:00:00+00:00", RULES, f"Us {n} " + os.urandom(50_000).hex(), "Them")
                        for n in range(800)])
    assert path.stat().st_size > 75_000_000
    return 800


def sound(path: Path) -> int:
    """The games in a database that opens whole; fails on half a file."""
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            assert db.execute("PRAGMA integrity_check(1)").fetchone() == ("ok",), path
            return db.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error as exc:  # half a file, with the journal of a copy cut short beside it
        raise AssertionError(f"{path.name} does not open whole: {exc}") from None


def env_for(data: Path, temp: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    return {**env, "SCOREPAD_INSTANCE": str(data), "TMPDIR": str(temp), "PYTHONUNBUFFERED": "1"}


def killed_after(command: list[str], env: dict, seconds: float) -> bool:
    """Run `command`, SIGKILL it after `seconds`; True when it was still running then."""
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(seconds)
    alive = process.poll() is None
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    return alive


def killed_while_copying(command: list[str], env: dict, folder: Path, seconds: float) -> bool:
    """Run `command`; once a copy appears in `folder` (under any name), wait `seconds` and SIGKILL it. True when
    the kill landed while a hidden copy was there (being written)."""
    before = ours(folder, "*", ".*")
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while ours(folder, "*", ".*") == before and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(seconds)
    midway = bool(ours(folder, ".partial-*"))
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    return midway


def timed(command: list[str], env: dict) -> float:
    started = time.monotonic()
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, timeout=300)
    return time.monotonic() - started


def _copy_time(database: Path, copy: Path) -> float:
    """What a copy of `database` takes here. The quicker of two is taken: one timed while another test's burst
    holds the processor would put the kills after the server's own copy ends, and none would land in it."""
    started = time.monotonic()
    backups.backup(str(database), str(copy))
    took = time.monotonic() - started
    copy.unlink()
    return took


def ours(folder: Path, *patterns: str) -> list[Path]:
    return sorted(p for pattern in patterns for p in folder.glob(pattern))


@pytest.fixture
def folders(tmp_path):
    data, temp = tmp_path / "data", tmp_path / "temp"
    data.mkdir()
    temp.mkdir()
    return data, temp


def test_restores_of_80_mb_killed_at_random_leave_no_half_copy_and_nothing_the_next_run_keeps(folders, tmp_path):
    data, temp = folders
    env = env_for(data, temp)
    games = eighty_megabytes(tmp_path / "saved.db")
    flask = [sys.executable, "-m", "flask", "--app", "scorepad"]
    subprocess.run([*flask, "init-db"], cwd=ROOT, env=env, check=True, capture_output=True)
    restore = [*flask, "restore", "--yes", str(tmp_path / "saved.db")]
    took = timed(restore, env)  # one whole restore: the kills land within that time
    rng = random.Random(21)
    killed = 0
    for _ in range(KILLS):
        killed += killed_after(restore, env, rng.uniform(0.3, took))
        assert sound(data / "scorepad.db") in (0, games)  # the database as it was, or the backup: never between
        for copy in ours(data, "before-restore-*"):
            assert sound(copy) in (0, games), f"{copy.name} is half a copy"
        assert list(temp.iterdir()) == [], "a restore's private copy is in the temporary folder"
    assert killed >= KILLS // 2, f"only {killed} of {KILLS} kills landed while a restore ran ({took:.1f} s)"
    subprocess.run([*flask, "backup"], cwd=ROOT, env=env, check=True, capture_output=True)  # the next run
    assert ours(data, ".partial-*", ".scorepad-work-*") == []
    assert ours(data / "backups", ".partial-*") == []
    assert len(ours(data, "before-restore-*")) <= 14  # the safety copies are kept as backups are


def test_a_server_killed_at_random_while_copying_80_mb_before_an_upgrade_leaves_no_half_copy(folders):
    data, temp = folders
    env = env_for(data, temp)
    games = eighty_megabytes(data / "scorepad.db", upgrade_pending=True)
    serve = [sys.executable, "-m", "scorepad", "--host", "127.0.0.1", "--port", str(free_port()), "--no-qr"]
    took = min(_copy_time(data / "scorepad.db", temp / "timed.db") for _ in range(2))  # the kills land within it
    rng = random.Random(9)
    midway = 0
    for _ in range(KILLS):
        # within the first half of that time: the server's copy, timed while the machine was busier or quieter than
        # when it copies, may take half as long, and a kill after it ends lets the upgrade through (no more kills)
        midway += killed_while_copying(serve, env, data / "backups", rng.uniform(0, took / 2))
        for copy in ours(data / "backups", "before-upgrade-*"):
            assert sound(copy) == games, f"{copy.name} is half a copy"
        with contextlib.closing(connection.connect(str(data / "scorepad.db"))) as db:
            if not schema.pending_migrations(db):
                break  # that start got through: the next has nothing to copy
    assert midway, "no kill landed while the copy was being written"
    assert sound(data / "scorepad.db") == games
    subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", "init-db"], cwd=ROOT, env=env, check=True,
                   capture_output=True)  # the next run
    copies = ours(data / "backups", "before-upgrade-*")
    assert copies and all(sound(copy) == games for copy in copies)
    assert ours(data, ".partial-*", ".scorepad-work-*") == [] and ours(data / "backups", ".partial-*") == []
