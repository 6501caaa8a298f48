"""A restore and the hands around it. A hand's id is given once, ever: after a restore took away the hands
recorded since its backup, the next hand recorded took one of their ids, and a form opened before the restore (an
Undo still on a phone's screen, an edit) changed or deleted that new hand. And a game with no hand yet is not
taken for one whose kept totals disagree."""

import contextlib
import random
import sqlite3

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS, seated
from scorepad.core.scoring import Hand
from scorepad.services import transfer
from scorepad.services.errors import NotFound
from scorepad.store import backups, connection, games, hand_ids, schema
from tests.services.helpers import record, start
from tests.store.helpers import export_of

US_MAKE_50 = Hand(0, 50, (0, 0), (50, 0))
THEM_MAKE_60 = Hand(1, 60, (10, 40), (20, 30))


def backup_of(live, folder):
    path = folder / "before-hand-2.db"
    with contextlib.closing(sqlite3.connect(live)) as conn:
        backups.copy_database(conn, path)
    return path


@pytest.fixture
def restored(db, live, tmp_path):
    """Hand 2 recorded after a backup and taken away by restoring it: (game, the id hand 2 had)."""
    game_id = start(db)
    record(db, game_id, US_MAKE_50)
    backup = backup_of(live, tmp_path)
    record(db, game_id, US_MAKE_50)
    gone = games.live_hands(db, game_id)[1].id
    backups.restore(str(backup), str(live))
    assert len(games.live_hands(db, game_id)) == 1
    return game_id, gone


def test_a_hand_recorded_after_a_restore_never_takes_the_id_of_one_it_took_away(db, restored):
    game_id, gone = restored
    record(db, game_id, THEM_MAKE_60)
    new = games.live_hands(db, game_id)[1]
    assert new.id > gone
    assert hand_ids.highest(db) == new.id


def test_a_stale_undo_or_edit_of_a_hand_a_restore_took_away_leaves_the_new_hand_alone(db, restored):
    game_id, gone = restored
    record(db, game_id, THEM_MAKE_60)
    with pytest.raises(NotFound):  # the Undo still on a phone's screen: that hand is in no game now
        services.delete_hand(db, game_id, gone, only_if_last=True)
    with pytest.raises(NotFound):  # an edit form opened before the restore
        services.edit_hand(db, game_id, gone, Hand(0, 65, (30, 12), (30, 20)), edits_seen=0)
    assert [stored.hand for stored in games.live_hands(db, game_id)] == [US_MAKE_50, THEM_MAKE_60]


def test_a_second_restore_of_an_older_backup_keeps_the_highest_id_of_all(db, live, restored, tmp_path):
    game_id, gone = restored
    record(db, game_id, THEM_MAKE_60)
    newest = games.live_hands(db, game_id)[1].id
    backups.restore(str(tmp_path / "before-hand-2.db"), str(live))
    record(db, game_id, THEM_MAKE_60)
    assert games.live_hands(db, game_id)[1].id > newest > gone


def test_an_import_after_a_restore_numbers_its_hands_above_every_id_given(db, restored):
    _, gone = restored
    (game_id,) = transfer.import_document(db, export_of(random.Random(7), 1))
    assert min(stored.id for stored in games.live_hands(db, game_id)) > gone


@pytest.mark.parametrize(("preset", "sides", "each"), [("three-handed", 3, 1), ("double-deck", 3, 2)])
def test_a_game_of_three_sides_with_no_hand_yet_is_not_scored_again_by_a_restore(db, live, tmp_path, preset, sides,
                                                                              each):
    """Its third total was stored NULL: every restore said "1 game(s) kept totals that disagreed"."""
    start(db, seated(PRESETS[preset], sides, each), teams=tuple("ABC"[:sides]))
    assert schema.rescore_disagreeing(db) == []
    assert backups.restore(str(backup_of(live, tmp_path)), str(live)).rescored == ()


def test_a_restore_that_replaces_the_file_keeps_the_highest_id_too(db, live, tmp_path):
    """A live database whose tables are not today's (an upgrade that could not finish) is replaced as a file,
    not row by row: the ids it gave were forgotten with it."""
    game_id = start(db)
    record(db, game_id, US_MAKE_50)
    backup = backup_of(live, tmp_path)
    record(db, game_id, US_MAKE_50)
    gone = games.live_hands(db, game_id)[1].id
    db.execute("CREATE TABLE stray (x)")  # no longer the tables this Scorepad makes
    db.close()
    backups.restore(str(backup), str(live))
    after = connection.connect(str(live))
    try:
        record(after, game_id, THEM_MAKE_60)
        assert games.live_hands(after, game_id)[1].id > gone
    finally:
        after.close()
