"""An upgrade killed at any moment leaves a database that opens: each migration is one transaction with its
record, a migration an earlier Scorepad committed without its record is recognised and recorded, and an
upgrade that cannot finish names the copy kept before it and the command that puts it back."""

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest
import sqlite_utils

from scorepad.store import backups, connection
from scorepad.store import schema as store_schema
from tests.helpers import FIXTURES

EVERY = store_schema.migrations.pending(sqlite_utils.Database(memory=True))
NOT_TRANSACTIONAL = [m for m in EVERY if not m.transactional]
BEFORE_M010 = FIXTURES / "historic" / "7086eed-dix-only.db"  # m001-m009, made by that commit's own code


def schema(path) -> set:
    with sqlite3.connect(path) as db:
        return set(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))


def applied(path) -> list[str]:
    with sqlite3.connect(path) as db:
        return sorted(r[0] for r in db.execute("SELECT name FROM _sqlite_migrations"))


def contents(path) -> list:
    with sqlite3.connect(path) as db:
        return [db.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
                for table in ("games", "hands", "hand_edits", "players", "game_seats")]


@pytest.fixture
def fresh(tmp_path):
    path = str(tmp_path / "fresh.db")
    store_schema.migrate(path)
    return path


def up_to(path, migration) -> None:
    """A database with every migration before `migration` applied, as sqlite-utils applied them."""
    db = connection.connect(str(path))
    try:
        store_schema.migrations.apply(db, stop_before=migration.name)
    finally:
        db.close()


def test_m010_committed_without_its_record_is_recognised_and_recorded(tmp_path, fresh):
    """What sqlite-utils left when killed between m010's commit and its record: the work done, no record."""
    path = tmp_path / "half.db"
    shutil.copyfile(BEFORE_M010, path)
    m010 = next(m for m in EVERY if m.name == "m010_tables_of_every_size")
    db = connection.connect(str(path))
    try:
        m010.fn(db)  # its work, committed; the power went before the record
    finally:
        db.close()
    store_schema.migrate(str(path))  # raised "The games table is not as m002-m004 made it" before
    assert applied(path) == applied(fresh)
    assert schema(path) == schema(fresh)


@pytest.mark.parametrize("migration", NOT_TRANSACTIONAL, ids=lambda m: m.name)
def test_each_non_transactional_migration_cut_before_its_record_is_finished_at_the_next_start(
        tmp_path, fresh, migration):
    path = tmp_path / "cut.db"
    up_to(path, migration)
    db = connection.connect(str(path))
    try:
        migration.fn(db)  # done as sqlite-utils does it outside a transaction; then the kill
    finally:
        db.close()
    store_schema.migrate(str(path))
    assert applied(path) == applied(fresh)
    assert schema(path) == schema(fresh)


KILLER = textwrap.dedent("""
    import os, signal, sys
    from scorepad.store import schema

    def kill(db, name):
        if name == sys.argv[2]:
            os.kill(os.getpid(), signal.SIGKILL)  # the work done, its record not yet written
        return record(db, name)

    record = schema._record
    schema._record = kill
    schema.migrate(sys.argv[1])
""")


@pytest.mark.parametrize("migration", NOT_TRANSACTIONAL, ids=lambda m: m.name)
def test_a_process_killed_between_a_migrations_work_and_its_record_leaves_a_database_that_upgrades(
        tmp_path, fresh, migration):
    path = tmp_path / "killed.db"
    if migration.name == "m010_tables_of_every_size":
        shutil.copyfile(BEFORE_M010, path)  # games and hands made by the code of that day
    before = contents(path) if path.exists() else None
    run = subprocess.run([sys.executable, "-c", KILLER, str(path), migration.name], capture_output=True,
                         env={**os.environ, "PYTHONPATH": str(FIXTURES.parent.parent)})
    assert run.returncode == -signal.SIGKILL, run.stderr.decode()
    store_schema.migrate(str(path))
    assert applied(path) == applied(fresh)
    assert schema(path) == schema(fresh)
    if before is not None:  # every row kept, its columns as they were (new ones come after them)
        after = contents(path)
        assert len(after[0]) == len(before[0])  # games: their rules now name their seating too
        for rows, old in zip(after[1:], before[1:], strict=True):
            assert [row[:len(old[0])] for row in rows] == old


def test_an_upgrade_that_cannot_finish_names_the_copy_kept_before_it_and_the_command_that_puts_it_back(
        tmp_path, monkeypatch):
    path = tmp_path / "scorepad.db"
    shutil.copyfile(BEFORE_M010, path)
    with sqlite3.connect(path) as db:  # a games table no migration of ours made: m010 cannot rebuild it
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET sql = replace(sql, 'BETWEEN 0 AND 3', 'BETWEEN 0 AND 03') "
                   "WHERE name = 'games'")
    with pytest.raises(backups.BackupRefused) as refused:
        backups.migrate_after_backup(str(path), tmp_path / "backups")
    (copy,) = (tmp_path / "backups").glob("before-upgrade-*.db")
    message = str(refused.value)
    assert f"kept in {copy}" in message
    assert f"flask --app scorepad restore {copy}" in message
    assert "m002-m004" in message  # what went wrong, in the migration's own words
    assert applied(path) == applied(BEFORE_M010)  # m010 and what follows it were not begun


def test_a_database_put_back_as_a_backup_file_is_in_wal_mode_again_once_opened(live, tmp_path):
    """A backup is one file in rollback-journal mode; put back as the database file, it is switched back to WAL
    when the database is next brought up to date (a server's start), though m001 is recorded in it."""
    copied = tmp_path / "copy.db"
    with contextlib.closing(sqlite3.connect(live)) as source:
        backups.copy_database(source, copied)
    with contextlib.closing(sqlite3.connect(copied)) as plain:
        assert plain.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    store_schema.migrate(str(copied))
    with contextlib.closing(sqlite3.connect(copied)) as opened:
        assert opened.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
