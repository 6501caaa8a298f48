"""What a database carries for its replica, and what a restore drill checks in a copy put back from it: whose
database it is, whether it is whole, whether it holds every hand the live database had before its moment. And
restores: one from a backup keeps the live database's marks, one from the replica takes the replica's, and a
backup whose kept totals disagree with its hands is scored again from them."""

import contextlib
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.store import backups, connection, games, replica_marks, schema

DD = replace(PRESETS["double-deck"], target=100_000)
MADE_50 = Hand(0, 50, (0, 0), (50, 0))


def fresh(path: Path) -> Path:
    """A database migrated here, from nothing: it gets an identity of its own (the tests' template is one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    schema.migrate(str(path))
    return path


def play(path: Path, hands: int, name: str = "Us") -> int:
    with contextlib.closing(connection.connect(str(path))) as db:
        game_id = games.create_game(db, DD, (name, "Them"), ["Ann", "Bob", "Cat", "Dan"], 0)
        for n in range(hands):
            with connection.write_lock(db):
                games.insert_hand(db, game_id, f"{name}-{game_id}-{n}", replace(MADE_50, trump="S", bidder_seat=0))
                games.rescore(db, games.load_game(db, game_id), games.live_hands(db, game_id))
        return game_id


def copy_of(live: Path, to: Path) -> Path:
    with contextlib.closing(sqlite3.connect(live)) as source:
        backups.copy_database(source, to)
    return to


def marks(path: Path) -> dict:
    with contextlib.closing(connection.connect(str(path))) as db:
        return replica_marks.marks(db)


def test_every_new_database_is_someone_of_its_own(tmp_path):
    first, second = fresh(tmp_path / "a.db"), fresh(tmp_path / "b.db")
    assert len(marks(first)["database"]) == 32
    assert marks(first)["database"] != marks(second)["database"]


def test_a_writer_is_marked_and_read_back(tmp_path):
    live = fresh(tmp_path / "live.db")
    with contextlib.closing(connection.connect(str(live))) as db:
        assert replica_marks.writer(db) is None
        replica_marks.claim(db, replica_marks.Writer("abc", "pi-kitchen", "2026-11-25T18:00:00+00:00"))
        assert replica_marks.writer(db) == replica_marks.Writer("abc", "pi-kitchen", "2026-11-25T18:00:00+00:00")
        assert replica_marks.writer(db).said() == "the Scorepad on pi-kitchen"


def test_a_copy_of_the_live_database_passes_and_says_what_it_holds(tmp_path):
    live = fresh(tmp_path / "live.db")
    play(live, 3)
    checked = replica_marks.check_copy(copy_of(live, tmp_path / "copy.db"), str(live))
    assert checked.damage == () and checked.missing == 0 and not checked.behind
    assert (checked.summary.games, checked.summary.hands) == (1, 3)
    assert checked.summary.identity == marks(live)["database"]


def test_a_copy_from_before_the_last_hands_still_passes(tmp_path):
    live = fresh(tmp_path / "live.db")
    play(live, 2)
    copy = copy_of(live, tmp_path / "copy.db")
    play(live, 4)  # recorded after the copy's moment: not expected in it
    assert replica_marks.check_copy(copy, str(live)).missing == 0


def test_a_copy_lacking_a_hand_from_before_its_moment_is_caught(tmp_path):
    live = fresh(tmp_path / "live.db")
    play(live, 3)
    copy = copy_of(live, tmp_path / "copy.db")
    with contextlib.closing(sqlite3.connect(copy)) as db:
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute("DELETE FROM hand_edits WHERE hand_id = (SELECT min(id) FROM hands)")
        db.execute("DELETE FROM hands WHERE id = (SELECT min(id) FROM hands)")
        db.commit()
    assert replica_marks.check_copy(copy, str(live)).missing == 1


def test_a_damaged_copy_is_caught(tmp_path):
    live = fresh(tmp_path / "live.db")
    play(live, 30)
    copy = copy_of(live, tmp_path / "copy.db")
    with contextlib.closing(sqlite3.connect(copy)) as db:
        page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'hands'").fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    with copy.open("r+b") as file:
        file.seek((page - 1) * size)
        file.write(b"\xff" * 16)  # the page's header: not a page any more
    assert replica_marks.check_copy(copy, str(live)).damage


def test_another_databases_copy_is_told_by_its_identity(tmp_path):
    live, other = fresh(tmp_path / "live.db"), fresh(tmp_path / "other.db")
    play(other, 2, "Others")
    checked = replica_marks.check_copy(copy_of(other, tmp_path / "copy.db"), str(live))
    assert checked.summary.identity != marks(live)["database"]
    assert "1 game and 2 hands" in checked.summary.said()


def test_the_live_hands_a_copy_lacks_are_listed(tmp_path):
    live = fresh(tmp_path / "live.db")
    play(live, 2)
    copy = copy_of(live, tmp_path / "copy.db")
    game = play(live, 3, "Later")
    count, first = replica_marks.hands_only_in_live(copy, str(live), limit=2)
    assert count == 3 and [row[0] for row in first] == [game, game]


# --- restores and the marks -----------------------------------------------------------------------------------

def test_a_restore_from_a_backup_keeps_the_live_databases_marks_and_says_it_changed(tmp_path):
    live, other = fresh(tmp_path / "live.db"), fresh(tmp_path / "other.db")
    with contextlib.closing(connection.connect(str(live))) as db:
        replica_marks.claim(db, replica_marks.Writer("mine", "pi", "now"))
    play(other, 2, "Others")
    before = marks(live)
    backups.restore(str(copy_of(other, tmp_path / "backup.db")), str(live))
    after = marks(live)
    assert after["database"] == before["database"] and after["writer"] == before["writer"]
    assert "restored from a backup" in after["changed"]


def test_a_restore_from_the_replica_takes_the_replicas_marks(tmp_path):
    new_card, old_card = fresh(tmp_path / "new.db"), fresh(tmp_path / "old.db")
    with contextlib.closing(connection.connect(str(old_card))) as db:
        replica_marks.claim(db, replica_marks.Writer("old", "pi-old", "then"))
    play(old_card, 2)
    with backups.prepare(str(copy_of(old_card, tmp_path / "from-replica.db"))) as prepared:
        backups.put_back(prepared, str(new_card), from_replica=True)
    assert marks(new_card)["database"] == marks(old_card)["database"]
    assert marks(new_card)["writer"] == marks(old_card)["writer"]
    assert "restored from the replica" in marks(new_card)["changed"]


def test_an_import_says_the_database_changed_wholesale(tmp_path):
    import random

    from scorepad.services import transfer
    from tests.store.helpers import export_of

    live = fresh(tmp_path / "live.db")
    before = marks(live).get("changed")
    with contextlib.closing(connection.connect(str(live))) as db:
        transfer.import_document(db, export_of(random.Random(1), 3))
    assert "an import" in marks(live)["changed"] and marks(live)["changed"] != before


# --- a backup whose kept totals disagree with its hands --------------------------------------------------------

def test_a_restored_backup_whose_totals_disagree_with_its_hands_is_scored_again_from_them(tmp_path):
    live = fresh(tmp_path / "live.db")
    game = play(live, 3)
    backup = copy_of(live, tmp_path / "backup.db")
    with contextlib.closing(sqlite3.connect(backup)) as db:
        (right,) = db.execute("SELECT total_0 FROM games WHERE id = ?", [game]).fetchone()
        db.execute("UPDATE games SET total_0 = 19999, hands_count = 9 WHERE id = ?", [game])
        db.commit()
    restored = backups.restore(str(backup), str(live))
    assert restored.rescored == (game,)
    with contextlib.closing(sqlite3.connect(live)) as db:
        assert db.execute("SELECT total_0, hands_count FROM games WHERE id = ?", [game]).fetchone() == (right, 3)


def test_a_database_scorepad_wrote_has_nothing_to_score_again(tmp_path):
    live = fresh(tmp_path / "live.db")
    play(live, 5)
    play(live, 0, "Empty")
    with contextlib.closing(connection.connect(str(live))) as db:
        assert schema.rescore_disagreeing(db) == []


@pytest.mark.slow
def test_no_historic_database_has_totals_that_disagree_once_brought_up_to_date(tmp_path):
    from tests.helpers import FIXTURES

    for old in sorted((FIXTURES / "historic").glob("*.db")):
        path = tmp_path / old.name
        shutil.copyfile(old, path)
        schema.migrate(str(path))
        with contextlib.closing(connection.connect(str(path))) as db:
            assert schema.rescore_disagreeing(db) == [], old.name
