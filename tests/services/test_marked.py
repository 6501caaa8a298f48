"""What is read at every request, kept while nothing is written (`services.marked`; a game's ETag here): read
again whenever anything was written, by this process or by another, and after MAX_AGE whatever the mark says."""

from __future__ import annotations

import sqlite3

import pytest

from scorepad.core.rules import PRESETS
from scorepad.services import lookups, marked
from scorepad.store import connection, games
from tests.services.helpers import record, start


@pytest.fixture(autouse=True)
def _nothing_kept():
    marked.forget()
    yield
    marked.forget()


class Reads:
    """`read` for a game, counting the queries made."""

    def __init__(self, db, game_id):
        self.db, self.game_id, self.count = db, game_id, 0

    def __call__(self):
        self.count += 1
        return lookups.game_etag(self.db, self.game_id)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_an_etag_is_read_once_while_nothing_is_written(db, live):
    game_id = start(db)
    reads = Reads(db, game_id)
    first = marked.kept(db, game_id, reads)
    assert first == lookups.game_etag(db, game_id)
    assert [marked.kept(db, game_id, reads) for _ in range(5)] == [first] * 5
    assert reads.count == 1


def test_a_write_of_this_process_is_seen_at_the_next_ask(db, live):
    game_id = start(db)
    reads = Reads(db, game_id)
    before = marked.kept(db, game_id, reads)
    record(db, game_id)
    after = marked.kept(db, game_id, reads)
    assert after != before and after == lookups.game_etag(db, game_id)


def test_a_write_of_another_process_is_seen_through_the_log(db, live, monkeypatch):
    game_id = start(db)
    reads = Reads(db, game_id)
    before = marked.kept(db, game_id, reads)
    other = sqlite3.connect(live)  # not this process's writers' queue: as the command line writes
    with other:
        other.execute("UPDATE games SET team_0 = 'Grands' WHERE id = ?", [game_id])
    other.close()
    after = marked.kept(db, game_id, reads)
    assert after != before and after == lookups.game_etag(db, game_id)


def test_what_is_kept_is_read_again_after_max_age_whatever_the_mark(db, live):
    game_id = start(db)
    reads, clock = Reads(db, game_id), Clock()
    marked.kept(db, game_id, reads, clock=clock)
    clock.now += marked.MAX_AGE - 0.01
    marked.kept(db, game_id, reads, clock=clock)
    assert reads.count == 1
    clock.now += 0.02
    marked.kept(db, game_id, reads, clock=clock)
    assert reads.count == 2


def test_a_game_that_is_not_there_is_none_and_games_are_kept_apart(db, live):
    first, second = start(db), start(db)
    assert marked.kept(db, 999_999, Reads(db, 999_999)) is None
    one, two = (marked.kept(db, g, Reads(db, g)) for g in (first, second))
    assert one != two
    assert marked.census() == {"answers": 3}


def test_the_database_files_identity_is_looked_at_once_in_a_while_unless_this_process_writes(db, live, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(connection.time, "monotonic", clock)
    looks = []
    real_stat = connection.os.stat
    monkeypatch.setattr(connection.os, "stat",
                        lambda path, *a, **k: looks.append(str(path)) or real_stat(path, *a, **k))
    game_id = start(db)
    named = connection.database_file(db)
    assert connection.database_file(db) == named and looks.count(str(live)) == 1  # a moment later: the same look
    clock.now += 2 * connection.LOOK_AGAIN_SECONDS
    assert connection.database_file(db) == named and looks.count(str(live)) == 2
    record(db, game_id)  # a write here (a restore writes) and the file is looked at again
    assert connection.database_file(db) == named and looks.count(str(live)) == 3


def test_the_lists_versions_are_kept_and_moved_by_a_write(db, live, monkeypatch):
    asked = []
    real = lookups.games.lists_version
    monkeypatch.setattr(lookups.games, "lists_version", lambda d: asked.append(1) or real(d))
    before = lookups.lists_versions(db)
    assert lookups.lists_versions(db) == before and len(asked) == 1
    start(db)
    assert lookups.lists_versions(db) != before and len(asked) == 2


def test_inside_a_transaction_an_answer_is_read_and_not_kept_for_anyone_else(db, live):
    reader = connection.connect(str(live))
    before = lookups.lists_versions(reader)
    with connection.write_lock(db):
        games.create_game(db, PRESETS["double-deck"], ("Us", "Them"), [None] * 4, 0)
        inside = lookups.lists_versions(db)  # the writer sees its own game, not yet committed
        assert inside != before
        assert lookups.lists_versions(reader) == before  # nobody else is told of it before the commit
    assert lookups.lists_versions(reader) == inside
    reader.close()


def test_a_database_without_its_log_is_marked_by_its_own_file(db, live):
    """A database in rollback-journal mode (a copy restored as a file, before WAL is turned back on) has no log:
    another process's write changes the database file itself."""
    db.close()
    plain = sqlite3.connect(live)
    plain.execute("PRAGMA journal_mode = DELETE")
    plain.close()
    first = connection.change_mark(str(live))
    other = sqlite3.connect(live)
    with other:
        other.execute("UPDATE counters SET value = value + 1 WHERE name = 'lists'")
    other.close()
    assert connection.change_mark(str(live)) != first
