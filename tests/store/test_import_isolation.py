"""An import and everything else that writes the whole database: a restore landing at any moment of an import
loses none of the restored hands, an import cut off at any moment leaves the database as if it never began, and
a backup is never written of a database that would not restore."""

import contextlib
import json
import random
import sqlite3
import subprocess
import sys
import textwrap
from unittest import mock

import pytest

from scorepad.core.errors import ImportRefused
from scorepad.services import transfer
from scorepad.store import backups, connection, imports
from tests.helpers import ROOT
from tests.import_kills import kill_imports, report
from tests.store.helpers import export_of


def hands_of(path) -> dict[str, tuple]:
    """Every hand of the database at `path`, by token: its game's creation, its place and its numbers."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return {token: rest for token, *rest in conn.execute(
            """SELECT h.token, g.created_at, h.seq, h.bid, h.meld_0, h.meld_1, h.counters_0, h.counters_1,
                      h.deleted_at FROM hands h JOIN games g ON g.id = h.game_id""")}


def broken_links(path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return len(conn.execute("PRAGMA foreign_key_check").fetchall())


@pytest.fixture
def backup_file(new_database, tmp_path):
    """A backup holding 12 games and their hands: more games than the live database will have, so that the
    restored games take the ids an import going on meanwhile may think are its own."""
    path = new_database(tmp_path / "other" / "scorepad.db")
    db = connection.connect(str(path))
    try:
        transfer.import_document(db, export_of(random.Random(101), 12))
    finally:
        db.close()
    return backups.backup(str(path), str(tmp_path / "backup.db"))


@pytest.mark.parametrize("moment", range(6))
def test_a_restore_landing_at_any_moment_of_an_import_keeps_every_restored_hand(new_database, backup_file, moment):
    live = str(new_database())
    restored = hands_of(backup_file)
    data = export_of(random.Random(7), 8)
    original, entered = imports.write_lock, []

    @contextlib.contextmanager
    def restore_first(db):
        """Before the import's `moment`-th write, a restore lands (from the command line, say)."""
        if len(entered) == moment:
            backups.restore(str(backup_file), live)
        entered.append(1)
        with original(db):
            yield db

    db = connection.connect(live)
    try:
        with mock.patch.object(imports, "write_lock", restore_first):
            try:
                ids = transfer.import_document(db, data)
            except ImportRefused:
                ids = []
        if len(entered) <= moment:  # the import was done before that moment: the restore comes after it
            backups.restore(str(backup_file), live)
            ids = []
    finally:
        db.close()
    now = hands_of(live)
    assert {token: now.get(token) for token in restored} == restored
    imported = {h["token"] for g in data["games"] for h in g["hands"]}
    assert set(now) - set(restored) in (set(), imported)  # the import is all there, or none of it
    assert (set(now) - set(restored) == imported) == bool(ids)
    assert broken_links(live) == 0


CUT_OFF = textwrap.dedent("""
    import contextlib, json, os, sys
    from unittest import mock
    from scorepad.services import transfer
    from scorepad.store import connection, imports

    live, document, moment = sys.argv[1], sys.argv[2], int(sys.argv[3])
    original, done = imports.write_lock, []

    @contextlib.contextmanager
    def cut_off(db):
        with original(db):
            yield db
        done.append(1)
        if len(done) == moment:
            os._exit(9)  # the power goes: no cleanup, no rollback, nothing after this commit

    db = connection.connect(live)
    with mock.patch.object(imports, "write_lock", cut_off):
        transfer.import_document(db, json.load(open(document)))
    """)


# Each moment is a process started and killed: the quick loop cuts one import midway, the slow run after every commit
@pytest.mark.parametrize("moment", [pytest.param(1, marks=pytest.mark.slow), 2, pytest.param(3, marks=pytest.mark.slow),
                                    pytest.param(4, marks=pytest.mark.slow)])
def test_an_import_cut_off_after_any_of_its_commits_leaves_a_database_that_backs_up_and_restores(
        new_database, tmp_path, moment):
    live = new_database()
    document = tmp_path / "export.json"
    document.write_text(json.dumps(export_of(random.Random(13), 10)))
    before = hands_of(live)
    subprocess.run([sys.executable, "-c", CUT_OFF, str(live), str(document), str(moment)], cwd=ROOT, check=False,
                   timeout=120)
    after = hands_of(live)
    imported = {h["token"] for g in json.loads(document.read_text())["games"] for h in g["hands"]}
    assert set(after) - set(before) in (set(), imported)
    assert broken_links(live) == 0
    copy = backups.backup(str(live), str(tmp_path / "after-the-cut.db"))
    target = new_database(tmp_path / "elsewhere" / "scorepad.db")
    backups.restore(str(copy), str(target))
    assert hands_of(target) == after



def test_imports_killed_and_restores_landing_meanwhile_lose_nothing_a_small_example(new_database, tmp_path):
    """A few rounds of `tests.import_kills` (the system tests run it at full size)."""
    figures = kill_imports(new_database(), tmp_path, rounds=6, games=30, seed=4)
    assert (figures.lost, figures.half_imports, figures.broken) == ([], [], []), report(figures)
    assert figures.backups == figures.imports >= 6  # a backup after every round (more rounds if no kill landed)
