"""Scorepad as an appliance: the service file verified and its start command run, the Dockerfile linted and its
start command and health check run without a container engine, a backup killed midway, and an upgrade of a
database from an older Scorepad started the way `git pull && make run` starts it."""

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from scorepad.store import autobackup, connection, games, schema
from tests.helpers import FIXTURES, ROOT
from tests.system.appliance import as_here, dockerfile, exec_form, image_env, running, without_scorepad_settings
from tests.system.helpers import free_port

pytestmark = pytest.mark.slow


def backed_up(health: dict) -> bool:
    return health["last_backup_age_seconds"] is not None  # the first daily backup, taken beside the first pages


# --- the service ----------------------------------------------------------------------------------------------

@pytest.fixture
def unit(tmp_path) -> dict[str, list[str]]:
    """The service file `make unit` renders for this clone, verified by systemd-analyze; its settings by name."""
    path = tmp_path / "scorepad.service"
    subprocess.run(["make", "--no-print-directory", "-s", "unit", f"UNIT={path}", "PORT=8000"], cwd=ROOT,
                   check=True)
    verified = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
    assert verified.returncode == 0, verified.stderr
    settings: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            name, value = line.split("=", 1)
            settings.setdefault(name, []).append(value)
    return settings


def test_the_service_starts_at_boot_under_its_own_user_restarts_on_failure_and_keeps_data_outside(unit):
    assert unit["WantedBy"] == ["multi-user.target"]
    assert (unit["User"], unit["Restart"], unit["StateDirectory"]) == (["scorepad"], ["on-failure"], ["scorepad"])
    environment = dict(pair.split("=", 1) for pair in shlex.split(" ".join(unit["Environment"])))
    assert environment["SCOREPAD_INSTANCE"] == "/var/lib/scorepad"
    assert not Path(environment["SCOREPAD_INSTANCE"]).is_relative_to(ROOT)
    assert shlex.split(unit["ExecStart"][0])[0] == str(ROOT / ".venv" / "bin" / "python")


def test_the_services_start_command_serves_with_its_data_in_the_data_folder(unit, tmp_path):
    command = shlex.split(unit["ExecStart"][0])
    port = free_port()
    command[command.index("--port") + 1] = str(port)
    data = tmp_path / "var-lib-scorepad"  # systemd makes it (StateDirectory); a test has no systemd
    data.mkdir()
    env = {**without_scorepad_settings(), "SCOREPAD_INSTANCE": str(data)}
    with running(command, env, port, cwd=data, until=backed_up) as health:
        assert (health["ok"], health["migrations"]) == (True, "current")
    assert {"scorepad.db", "secret_key", "backups"} <= {p.name for p in data.iterdir()}
    assert len(autobackup.taken_in(data / "backups")) == 1  # the first daily backup, taken at start


# --- the container --------------------------------------------------------------------------------------------

def test_the_dockerfile_passes_hadolint():
    linted = subprocess.run([str(Path(sys.executable).parent / "hadolint"), "Dockerfile"], cwd=ROOT,
                            capture_output=True, text=True)
    assert linted.returncode == 0, linted.stdout + linted.stderr


def test_the_image_is_slim_runs_as_its_own_user_and_keeps_the_data_on_a_volume():
    found = dockerfile()
    assert re.fullmatch(r"python:3\.1[1-9]-slim", found["FROM"][0])
    [user] = found["USER"]
    assert user.split(":")[0] not in ("root", "0")
    assert f"--uid {user.split(':')[0]}" in " ".join(found["RUN"])  # the user the image makes, by number
    assert json.loads(found["VOLUME"][0]) == [image_env()["SCOREPAD_INSTANCE"]]
    assert found["EXPOSE"] == [image_env()["SCOREPAD_PORT"]]
    assert "--interval" in found["HEALTHCHECK"][0]
    assert exec_form(found["HEALTHCHECK"][0].split(" CMD ", 1)[1]) == ["python", "-m", "scorepad", "--check"]


def test_the_containers_start_command_serves_and_its_health_check_passes_then_fails_when_it_stops(tmp_path):
    found = dockerfile()
    data, port = tmp_path / "data", free_port()
    data.mkdir()  # the volume
    env = {**without_scorepad_settings(), **image_env(), "SCOREPAD_INSTANCE": str(data), "SCOREPAD_PORT": str(port)}
    check = as_here(exec_form(found["HEALTHCHECK"][0].split(" CMD ", 1)[1]))
    with running(as_here(exec_form(found["CMD"][0])), env, port, cwd=tmp_path, until=backed_up) as health:
        assert health["ok"] is True
        assert subprocess.run(check, env={**os.environ, **env}, capture_output=True).returncode == 0
    assert subprocess.run(check, env={**os.environ, **env}, capture_output=True).returncode == 1
    assert (data / "scorepad.db").is_file() and (data / "backups" / "status.json").is_file()


def test_the_compose_file_builds_this_image_keeps_its_volume_and_restarts_it():
    compose = (ROOT / "compose.yaml").read_text()
    assert re.search(r"^\s+build: \.$", compose, re.M)
    assert re.search(r"^\s+restart: unless-stopped$", compose, re.M)
    assert re.search(rf"^\s+- scorepad-data:{image_env()['SCOREPAD_INSTANCE']}$", compose, re.M)
    assert re.search(rf"^\s+SCOREPAD_PORT: \"{image_env()['SCOREPAD_PORT']}\"$", compose, re.M)


# --- a backup killed midway -------------------------------------------------------------------------------------

# A backup that copies a few pages at a time, says when it is half done, and waits there to be killed.
SLOW_BACKUP = """
import sys, time
from datetime import UTC, datetime
from pathlib import Path
from scorepad.store import autobackup, backups

def slow_copy(source, path):
    import contextlib, sqlite3
    with contextlib.closing(sqlite3.connect(path)) as copy:
        def progress(status, remaining, total):
            if remaining <= total // 2:  # half of it copied, and some of that on disk already
                print("copying", remaining, total, flush=True)
                time.sleep(60)
        source.backup(copy, pages=16, progress=progress)

backups.copy_database = slow_copy
live, folder = sys.argv[1], Path(sys.argv[2])
autobackup.take(live, [folder], keep_last=14, reason="daily", now=datetime.now(UTC),
                previous=autobackup.read_status(folder))
"""


def contents(path: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return list(db.iterdump())


def years_of_games(live: Path) -> None:
    """Some megabytes of games: more than SQLite keeps in memory while it copies, so a copy cut in half is
    half on disk."""
    with contextlib.closing(connection.connect(str(live))) as db, db.conn:
        for n in range(800):
            db.execute("INSERT INTO games (created_at, rules, team_0, team_1, first_dealer) VALUES (?, ?, ?, ?, 0)",
                       ["2025-01-01T20:00:00+00:00", json.dumps({"note": "x" * 10_000}), f"Us {n}", "Them"])


def test_a_backup_killed_midway_loses_nothing_and_leaves_nothing_that_looks_like_a_backup(new_database, tmp_path):
    live, folder = new_database(), tmp_path / "backups"
    years_of_games(live)
    first = autobackup.take(str(live), [folder], keep_last=14, reason="daily", now=datetime.now(UTC),
                            previous=autobackup.Status())
    before = contents(live)
    process = subprocess.Popen([sys.executable, "-c", SLOW_BACKUP, str(live), str(folder)], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    with process.stdout:
        assert process.stdout.readline().startswith("copying")
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    assert contents(live) == before  # the live database, untouched and whole
    assert list(autobackup.taken_in(folder)) == [Path(first.file).name]  # no half backup under a backup's name
    assert autobackup.read_status(folder) == first
    left = [p for p in folder.iterdir() if p.name.startswith(".partial-")]  # hidden: the copy, and its journal
    assert left
    later = datetime.now(UTC) + timedelta(minutes=11)  # long after: nothing can still be writing it
    again = autobackup.take(str(live), [folder], keep_last=14, reason="daily", now=later, previous=first)
    assert again.problem is None and not any(path.exists() for path in left)
    assert len(autobackup.taken_in(folder)) == 2 and contents(Path(again.file)) == before


# --- git pull && make run ---------------------------------------------------------------------------------------

def test_starting_todays_server_on_an_older_scorepads_database_backs_it_up_then_upgrades_it(tmp_path):
    [historic] = sorted((FIXTURES / "historic").glob("fbb32c8*.db"))
    data = tmp_path / "instance"
    data.mkdir()
    shutil.copyfile(historic, data / "scorepad.db")
    recorded = json.loads(historic.with_suffix(".json").read_text())
    port = free_port()
    command = [sys.executable, "-m", "scorepad", "--host", "127.0.0.1", "--port", str(port), "--no-qr"]
    with running(command, {**without_scorepad_settings(), "SCOREPAD_INSTANCE": str(data)}, port, tmp_path) as health:
        assert health["migrations"] == "current"
    [copy] = (data / "backups").glob("before-upgrade-*.db")
    with contextlib.closing(connection.connect(str(copy))) as db:
        assert [m.name for m in schema.migrations.applied(db)] == recorded["migrations"]
    with contextlib.closing(connection.connect(str(data / "scorepad.db"))) as db:
        assert schema.pending_migrations(db) == []
        assert len(games.game_ids(db)) == len(recorded["games"])
