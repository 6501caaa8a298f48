"""Backups by themselves, on disk: a complete copy in each folder, pruning by name, leftovers of a killed backup
cleared, a status file that survives, and a copy kept before an upgrade changes the schema."""

import contextlib
import fcntl
import os
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from scorepad.store import autobackup, connection, files, schema
from scorepad.store.backups import BackupRefused, migrate_after_backup

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def games_in(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT count(*) FROM games").fetchone()[0]


def applied(path: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [row[0] for row in db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]


def test_a_backup_goes_into_every_folder_whole_and_the_status_says_when(live, tmp_path):
    first, second = tmp_path / "backups", tmp_path / "usb"
    second.mkdir()
    status = autobackup.take(str(live), [first, second], keep_last=14, reason="daily", now=NOW,
                             previous=autobackup.Status())
    assert (status.succeeded_at, status.attempted_at, status.reason, status.problem) == (NOW, NOW, "daily", None)
    for folder in (first, second):
        [name] = autobackup.taken_in(folder)
        assert games_in(folder / name) == 0 and applied(folder / name) == applied(live)
    assert Path(status.file).parent == first
    assert autobackup.read_status(first) == status


def test_a_second_folder_that_is_not_there_is_a_problem_and_is_not_made(live, tmp_path):
    usb = tmp_path / "media" / "usb"
    status = autobackup.take(str(live), [tmp_path / "backups", usb], keep_last=14, reason="daily", now=NOW,
                             previous=autobackup.Status())
    assert status.succeeded_at == NOW  # the first copy is made all the same
    assert "is not there (is the drive plugged in?)" in status.problem
    assert not usb.exists()


def test_a_first_folder_that_cannot_be_written_keeps_the_last_success_and_says_why(live, tmp_path):
    blocked = tmp_path / "backups"
    blocked.write_text("a file where the folder should be")
    before = autobackup.Status(succeeded_at=NOW - timedelta(days=3), file="old.db", attempted_at=NOW - timedelta(3))
    status = autobackup.take(str(live), [blocked], keep_last=14, reason="daily", now=NOW, previous=before)
    assert (status.succeeded_at, status.file, status.attempted_at) == (before.succeeded_at, "old.db", NOW)
    assert "Nothing was written" in status.problem


def fill(folder: Path, *names: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_bytes(b"SQLite format 3\x00 a backup")


PRUNING = [  # (what, files in the folder, kept after pruning to the last 2)
    ("the last two and each earlier month's newest",
     ["scorepad-20260930-030000.db", "scorepad-20261001-030000.db", "scorepad-20261031-030000.db",
      "scorepad-20261121-030000.db", "scorepad-20261122-030000.db"],
     ["scorepad-20260930-030000.db", "scorepad-20261031-030000.db", "scorepad-20261121-030000.db",
      "scorepad-20261122-030000.db"]),
    ("two of the same second are two backups",
     ["scorepad-20261120-030000.db", "scorepad-20261122-030000.db", "scorepad-20261122-030000-2.db"],
     ["scorepad-20261122-030000-2.db", "scorepad-20261122-030000.db"]),
    ("other files are never touched",
     ["notes.txt", "before-upgrade-20250101-030000.db", "scorepad-backup.db", "scorepad-20261101-030000.db",
      "scorepad-20261102-030000.db", "scorepad-20261103-030000.db"],
     ["before-upgrade-20250101-030000.db", "notes.txt", "scorepad-20261102-030000.db",
      "scorepad-20261103-030000.db", "scorepad-backup.db"]),
]


@pytest.mark.parametrize(("files", "kept"), [r[1:] for r in PRUNING], ids=[r[0] for r in PRUNING])
def test_pruning_removes_only_backups_the_retention_rules_let_go(tmp_path, files, kept):
    fill(tmp_path, *files)
    autobackup.prune(tmp_path, keep_last=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == kept


def lying(folder: Path, name: str, content: bytes, age_seconds: float) -> None:
    """A file last written `age_seconds` ago."""
    (folder / name).write_bytes(content)
    os.utime(folder / name, (time.time() - age_seconds,) * 2)


def test_leftovers_of_a_killed_backup_are_cleared_and_a_backup_still_being_written_is_not(tmp_path):
    lying(tmp_path, "scorepad-20261121-030000.db", b"SQLite format 3\x00 a backup", 86400)
    lying(tmp_path, ".partial-20261121-030000.db", b"half a backup", 5)  # its writer is gone: nobody holds it
    lying(tmp_path, ".partial-20261121-030000.db-journal", b"its journal", 5)
    lying(tmp_path, "scorepad-20261121-040000.db", b"", 3600)  # a name reserved and never filled
    lying(tmp_path, "before-upgrade-20261121-040000.db", b"", 3600)
    lying(tmp_path, "scorepad-20261122-095900.db", b"", 5)  # reserved a moment ago: about to be filled
    with files.being_written(tmp_path) as being_written:  # a backup at work, in this or another process
        being_written.write_bytes(b"being written")
        os.utime(being_written, (time.time() - 3600,) * 2)
        assert autobackup.clear_leftovers(tmp_path) == [
            ".partial-20261121-030000.db", ".partial-20261121-030000.db-journal",
            "before-upgrade-20261121-040000.db", "scorepad-20261121-040000.db"]
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            [being_written.name, "scorepad-20261121-030000.db", "scorepad-20261122-095900.db"])
    assert list(autobackup.taken_in(tmp_path)) == ["scorepad-20261121-030000.db"]


@pytest.mark.parametrize("content", ["", "{", "[]", '{"succeeded_at": "yesterday"}', '{"succeeded_at": 5}'])
def test_a_status_file_that_cannot_be_read_is_no_status(tmp_path, content):
    (tmp_path / "status.json").write_text(content)
    assert autobackup.read_status(tmp_path) == autobackup.Status()


def test_a_status_is_replaced_whole_and_leaves_nothing_beside_it(tmp_path):
    first = autobackup.Status(succeeded_at=NOW, file="a.db", attempted_at=NOW, reason="daily")
    autobackup.write_status(tmp_path, first)
    second = autobackup.Status(succeeded_at=NOW, file="a.db", attempted_at=NOW + timedelta(1), reason="daily",
                               problem="The folder is full.")
    autobackup.write_status(tmp_path, second)
    assert autobackup.read_status(tmp_path) == second
    assert [p.name for p in tmp_path.iterdir()] == ["status.json"]


# --- before an upgrade ------------------------------------------------------------------------------------------

def older_scorepad_database(path: Path) -> Path:
    """A database of the Scorepad before the last migration, holding one game."""
    db = connection.connect(str(path))
    try:
        last = schema.migrations.pending(db)[-1].name
        schema.migrations.apply(db, stop_before=last)
        db.execute("INSERT INTO games (created_at, rules, team_0, team_1, first_dealer) "
                   "VALUES ('2025-01-01T20:00:00+00:00', '{}', 'Us', 'Them', 0)")
        db.conn.commit()
    finally:
        db.close()
    return path


def test_an_upgrade_keeps_a_copy_of_the_database_as_it_was_first(tmp_path):
    live = older_scorepad_database(tmp_path / "scorepad.db")
    old_migrations = applied(live)
    copy = migrate_after_backup(str(live), tmp_path / "backups")
    assert copy.parent == tmp_path / "backups" and copy.name.startswith("before-upgrade-")
    assert applied(copy) == old_migrations and games_in(copy) == 1
    assert len(applied(live)) == len(old_migrations) + 1


def test_a_new_database_or_one_up_to_date_needs_no_copy(tmp_path, live):
    assert migrate_after_backup(str(tmp_path / "new.db"), tmp_path / "backups") is None
    assert migrate_after_backup(str(live), tmp_path / "backups") is None
    assert not (tmp_path / "backups").exists()


def test_no_upgrade_without_its_copy(tmp_path):
    live = older_scorepad_database(tmp_path / "scorepad.db")
    before = applied(live)
    (tmp_path / "backups").write_text("a file where the folder should be")
    with pytest.raises(BackupRefused, match="could not keep a copy of it .* Nothing was changed"):
        migrate_after_backup(str(live), tmp_path / "backups")
    assert applied(live) == before


# --- a clock that ran fast, and the safety copies of restores -------------------------------------------------------

def named_daily(folder: Path, stem: str, first: datetime, days: int) -> list[str]:
    """`days` daily files stem-<time>.db from `first` on, each a complete-looking backup; their names."""
    names = [f"{stem}-{(first + timedelta(days=n)):%Y%m%d-%H%M%S}.db" for n in range(days)]
    fill(folder, *names)
    return names


def test_backups_named_in_the_future_do_not_make_a_backup_prune_the_real_ones(live, tmp_path):
    folder, today = tmp_path / "backups", datetime.now().replace(hour=0, minute=0, second=0, microsecond=0)
    real = named_daily(folder, "scorepad", today - timedelta(days=14), 14)  # the last two weeks, to yesterday
    fast = named_daily(folder, "scorepad", today + timedelta(days=200), 14)  # a fast clock's evening
    status = autobackup.take(str(live), [folder], keep_last=14, reason="daily", now=datetime.now(UTC),
                             previous=autobackup.Status())
    assert status.problem is None
    kept = set(autobackup.taken_in(folder))
    assert set(fast) <= kept and set(real[1:]) <= kept  # the new one takes the place of the oldest real one only
    assert Path(status.file).name in kept
    its_month_last = max(name for name in real if name[9:15] == real[0][9:15])  # kept as its month's newest
    assert (real[0] in kept) is (real[0] == its_month_last)
    assert autobackup.in_future([folder]) == sorted(fast)


def test_restores_safety_copies_follow_the_retention_of_backups_in_a_series_of_their_own(tmp_path):
    copies = named_daily(tmp_path, "before-restore", datetime(2026, 10, 1, 21, 0), 50)  # Oct 1 to Nov 19
    backups = named_daily(tmp_path, "scorepad", datetime(2026, 9, 1, 3, 0), 3)
    gone = autobackup.prune_safety_copies(str(tmp_path / "scorepad.db"), keep_last=14, now=NOW)
    left = sorted(autobackup.taken_in(tmp_path, autobackup.SAFETY_COPIES))
    assert left == ["before-restore-20261031-210000.db", *copies[-14:]]
    assert sorted(gone) == sorted(set(copies) - set(left))
    assert sorted(autobackup.taken_in(tmp_path)) == backups  # the backups are not that series


def test_a_writer_whose_new_hidden_file_a_cleaner_took_in_the_moment_before_its_lock_takes_another(tmp_path):
    path = tmp_path / ".partial-made-a-moment-ago.db"
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR)  # made, not yet locked by its writer
    cleaner = os.open(path, os.O_RDONLY)
    fcntl.flock(cleaner, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a cleaner takes it for a leftover
    found = []
    writer = threading.Thread(target=lambda: found.append(files._locked(path, fd)))
    writer.start()
    writer.join(0.2)
    assert writer.is_alive()  # the writer waits for the cleaner to be done
    path.unlink()
    os.close(cleaner)
    writer.join(5)
    os.close(fd)
    assert found == [False]  # its name is gone: `being_written` makes another
    with files.being_written(tmp_path) as partial:
        assert partial.exists() and autobackup.clear_leftovers(tmp_path) == []
