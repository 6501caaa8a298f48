"""While the log is held for Litestream (`connection.hold_log`), no writer here folds it into the database, so
SQLite never starts it over and every change written meanwhile is still in it for Litestream to read; let go,
writers fold it as SQLite would. Before: between the run that wrote a heal's new snapshot and the Litestream
started after it, the server's writes folded the log and started it over, Litestream 0.5 took the new log for the
one it knew, and the replica put back a damaged database (about one heal in two with phones recording)."""

import contextlib
from pathlib import Path

import pytest

from scorepad.store import connection


def _salts(path: str) -> bytes:
    """The WAL header's salts: SQLite draws new ones each time it starts the log over."""
    return Path(path + "-wal").read_bytes()[16:24]


def _write(db, n: int) -> None:
    with connection.write_lock(db):
        db.execute("INSERT INTO players (name, created_at) VALUES (?, '2026-11-27T12:00:00+00:00')", [f"P{n}"])


@pytest.fixture
def small_folds(monkeypatch):
    monkeypatch.setattr(connection, "FOLD_AFTER_PAGES", 1)  # every write folds the log, when it may


@pytest.mark.parametrize("held", [False, True])
def test_a_held_log_is_never_started_over_and_keeps_every_write(new_database, small_folds, held):
    path = str(new_database())
    with contextlib.closing(connection.connect(path)) as writer:
        _write(writer, 0)
        if held:
            connection.hold_log(path)
        try:
            _write(writer, 1)  # a log folded whole before the hold may be started over by the next write: that
            first = _salts(path)  # loses nothing; what is written from then on must stay in it
            for n in range(2, 12):
                _write(writer, n)
        finally:
            connection.let_log_go(path)
        if held:
            assert _salts(path) == first, "the log was started over while held"
            assert writer.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        else:
            assert _salts(path) != first, "writers no longer fold the log by themselves"
        _write(writer, 99)  # let go: the next write folds again
        assert writer.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == connection.FOLD_AFTER_PAGES
        assert writer.execute("SELECT count(*) FROM players").fetchone()[0] >= 13


def test_a_hold_is_by_database_not_by_process(new_database, tmp_path):
    held, other = str(new_database(tmp_path / "held.db")), str(new_database(tmp_path / "other.db"))
    connection.hold_log(held)
    try:
        assert connection.log_held(held) and not connection.log_held(other)
        assert connection.log_held(str(Path(held).parent / "." / Path(held).name))  # the same file, however named
    finally:
        connection.let_log_go(held)
    assert not connection.log_held(held)
