"""Writers in one process queue for the database in turn, rather than each sleeping in SQLite's busy handler
and retrying: with a dozen phones saving at once, that left one save waiting seconds behind fresh arrivals."""

import threading

from scorepad.store import connection


def test_a_second_writer_waits_its_turn_instead_of_finding_the_database_locked(new_database):
    path = str(new_database())
    first, second = connection.connect(path), connection.connect(path)
    second.execute("PRAGMA busy_timeout = 0")  # were it left to SQLite, the second would be refused at once
    holding, saved, failed = threading.Event(), threading.Event(), []

    def second_writer():
        try:
            with connection.write_lock(second):
                second.execute("INSERT INTO players (name, created_at) VALUES ('Bo', '2026-11-22T12:00:00+00:00')")
            saved.set()
        except Exception as exc:  # noqa: BLE001 - the failure is what the test reports
            failed.append(exc)

    try:
        with connection.write_lock(first):
            first.execute("INSERT INTO players (name, created_at) VALUES ('Ann', '2026-11-22T12:00:00+00:00')")
            holding.set()
            writer = threading.Thread(target=second_writer)
            writer.start()
            assert not saved.wait(0.2), "the second writer wrote while the first held the lock"
        writer.join(5)
        assert failed == [] and saved.is_set()
        assert [r[0] for r in first.execute("SELECT name FROM players ORDER BY id")] == ["Ann", "Bo"]
    finally:
        first.close()
        second.close()


def test_writers_to_two_different_databases_do_not_wait_for_each_other(new_database, tmp_path):
    one = connection.connect(str(new_database(tmp_path / "one.db")))
    other = connection.connect(str(new_database(tmp_path / "other.db")))
    wrote = threading.Event()

    def other_writer():
        with connection.write_lock(other):
            other.execute("INSERT INTO players (name, created_at) VALUES ('Cy', '2026-11-22T12:00:00+00:00')")
        wrote.set()

    try:
        with connection.write_lock(one):
            threading.Thread(target=other_writer).start()
            assert wrote.wait(5), "a writer to another database waited for this one"
    finally:
        one.close()
        other.close()


def test_a_page_about_to_be_built_waits_while_a_save_holds_the_lock_and_goes_on_when_it_is_done(new_database):
    db = connection.connect(str(new_database()))
    waited, done = threading.Event(), threading.Event()

    def page():
        waited.set()
        connection.writes_first(timeout=5)
        done.set()

    try:
        with connection.write_lock(db):
            reader = threading.Thread(target=page)
            reader.start()
            assert waited.wait(5)
            assert not done.wait(0.2), "the page was built while the save held the lock"
        assert done.wait(5), "the page still waited once the save was done"
        reader.join(5)
        started = threading.Event()
        connection.writes_first(timeout=5)  # nobody writing: no wait at all
        started.set()
        assert started.is_set()
    finally:
        db.close()


def test_a_page_never_waits_longer_than_its_bound_whatever_the_writes(new_database):
    import time

    db = connection.connect(str(new_database()))
    try:
        with connection.write_lock(db):
            began = time.monotonic()
            connection.writes_first(timeout=0.05)
            assert 0.04 <= time.monotonic() - began < 2
    finally:
        db.close()
