"""`flask --app scorepad restore` and `backup` are the way out of a live database that cannot be brought up to
date or opened: every command loads the app (which upgrades the database first), and neither may die with it."""

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scorepad.store import connection, readable, schema
from tests.helpers import FIXTURES

ROOT = Path(__file__).resolve().parent.parent.parent
GOOD = FIXTURES / "historic" / "bbc0be9-club-table-end.db"


def flask(instance: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SCOREPAD_INSTANCE": str(instance)}
    env.pop("SCOREPAD_DATABASE", None)
    return subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def cannot_be_upgraded(path: Path) -> None:
    """A database from before m010 whose games table no migration of ours made: m010 cannot rebuild it."""
    shutil.copyfile(FIXTURES / "historic" / "7086eed-dix-only.db", path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET sql = replace(sql, 'BETWEEN 0 AND 3', 'BETWEEN 0 AND 03') "
                   "WHERE name = 'games'")


def not_a_database(path: Path) -> None:
    path.write_bytes(b"this is not a database at all, " * 200)


@pytest.fixture
def good_backup(tmp_path):
    path = tmp_path / "good.db"
    shutil.copyfile(GOOD, path)
    schema.migrate(str(path))
    return path


@pytest.mark.parametrize("spoil", [cannot_be_upgraded, not_a_database], ids=["cannot be upgraded", "not a database"])
def test_restore_puts_a_good_backup_in_place_of_a_live_database_that_cannot_be_used(tmp_path, good_backup, spoil):
    instance = tmp_path / "instance"
    instance.mkdir()
    live = instance / "scorepad.db"
    spoil(live)
    spoiled = live.read_bytes()
    done = flask(instance, "restore", "--yes", str(good_backup))
    assert done.returncode == 0, done.stderr
    assert "Restored" in done.stdout
    (safety,) = instance.glob("before-restore-*.db")
    if spoil is not_a_database:
        assert safety.read_bytes() == spoiled  # kept byte for byte: SQLite cannot read it
    else:
        with sqlite3.connect(safety) as db:  # kept as SQLite reads it
            assert db.execute("SELECT count(*) FROM games").fetchone()[0] > 0
    db = connection.connect(str(live))
    try:
        assert schema.pending_migrations(db) == []
        assert db.execute("SELECT count(*) FROM club_tables").fetchone() == (2,)
        assert readable.first_unreadable(db) is None
    finally:
        db.close()
    assert flask(instance, "backup").returncode == 0  # and the database now opens for every command


def test_backup_copies_a_live_database_that_cannot_be_upgraded(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    cannot_be_upgraded(instance / "scorepad.db")
    done = flask(instance, "backup", str(tmp_path / "copy.db"))
    assert done.returncode == 0, done.stderr
    assert "could not bring" in done.stderr  # said, not a traceback
    assert "Traceback" not in done.stderr
    with sqlite3.connect(tmp_path / "copy.db") as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] > 0


def test_pages_under_a_command_say_why_the_database_cannot_be_opened(tmp_path):
    """Loaded by a command (`flask --app scorepad ...`), an app whose database cannot be opened answers every
    page with 503 and the reason: the reason must outlive the `except` block that caught it."""
    import click

    from scorepad import create_app

    live = tmp_path / "live" / "scorepad.db"
    live.parent.mkdir()
    not_a_database(live)
    with click.Context(click.Command("backup")):
        app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(live),
                          "BACKUP_DIR": str(tmp_path / "backups")})
    page = app.test_client().get("/")
    assert page.status_code == 503
    assert "file is not a database" in page.get_data(as_text=True)
