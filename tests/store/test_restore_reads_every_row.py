"""A backup that passes SQLite's checks (tables, columns, integrity, foreign keys) but holds a row the pages
cannot read is refused by restore, with a sentence naming the first such row; the live database is untouched."""

import shutil
import sqlite3

import pytest

from scorepad.store import backups, connection, readable, schema
from tests.helpers import FIXTURES

HISTORIC = sorted((FIXTURES / "historic").glob("*.db"))
CLUB = FIXTURES / "historic" / "bbc0be9-club-table-end.db"  # games of every kind and a club night

# What a hostile or unlucky backup held, each a 500 on some page (or a start that died) before: the SQL that
# makes it, and the words the refusal must name it by.
UNREADABLE = {
    "rules that are not JSON": ("UPDATE games SET rules = 'nope' WHERE id = 3", "game 3: its rules"),
    "rules that are a list": ("UPDATE games SET rules = '[1, 2]' WHERE id = 2", "game 2: its rules"),
    "a club round past its rounds": ("UPDATE club_nights SET round = 5", "club night 1: it is at round 5 of 2"),
    "a round with tables past the night's": ("UPDATE club_nights SET round = 1",
                                             "table 1 of round 2 of club night 1: the night is at round 1"),
    "an entrant number that is not there": ("UPDATE club_tables SET entrant_1 = 99 WHERE round = 1",
                                            "entrant 99 is seated there"),
    "round_size 2^63-1": ("UPDATE club_nights SET round_size = 9223372036854775807",
                          "club night 1: its rounds cannot be played"),
    "round_size 2^63-1 on the clock": ("UPDATE club_nights SET round_size = 9223372036854775807, round_end = 'time'",
                                       "club night 1: its rounds cannot be played"),
    "created_at = 'yesterday'": ("UPDATE games SET created_at = 'yesterday' WHERE id = 4",
                                 "game 4's created_at: 'yesterday' is not a time"),
    "a night created 'yesterday'": ("UPDATE club_nights SET created_at = 'yesterday'",
                                    "club night 1's created_at: 'yesterday' is not a time"),
    "a history line that is not JSON": ("UPDATE hand_edits SET after = 'x{' WHERE id = 7",
                                        "line 7 of the history of hand"),
    "a history line that is a list": ("UPDATE hand_edits SET before = '[]' WHERE id = 8",
                                      "line 8 of the history of hand"),
    "a history line at no time": ("UPDATE hand_edits SET at = 'soon' WHERE id = 9", "line 9 of the history"),
    "a winner past the sides": ("UPDATE games SET winner = 3 WHERE id = 1", "game 1: its winner, side 3"),
    "ranked by luck": ("UPDATE club_nights SET tie_breaks = 'luck'", "club night 1: it ranks by 'luck'"),
    "a first dealer past the seats": ("UPDATE games SET first_dealer = 6 WHERE id = 1",
                                      "game 1: its first dealer, seat 6"),
    "a season started 'soon'": ("UPDATE club_seasons SET started_at = 'soon'",
                                "season 1's started_at: 'soon' is not a time"),
    "a season tallying nines": ("UPDATE club_seasons SET specials = 'double_run,nines'",
                                "season 1: it tallies 'nines'"),
    "a special at no time": ("INSERT INTO club_specials (night_id, table_id, hand, player_id, kind, at) "
                             "SELECT night_id, id, 1, confirmed_by, 'double_run', 'later' FROM club_tables "
                             "WHERE confirmed_by IS NOT NULL LIMIT 1", "of club night 1: 'later' is not a time"),
}


@pytest.fixture
def good_backup(tmp_path):
    path = tmp_path / "good.db"
    shutil.copyfile(CLUB, path)
    schema.migrate(str(path))
    return path


@pytest.mark.parametrize("case", UNREADABLE, ids=list(UNREADABLE))
def test_a_backup_with_a_row_the_pages_cannot_read_is_refused_naming_the_row(tmp_path, live, good_backup, case):
    sql, named = UNREADABLE[case]
    bad = tmp_path / "bad.db"
    shutil.copyfile(good_backup, bad)
    with sqlite3.connect(bad) as db:
        db.executescript(sql)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    before = live.read_bytes()
    with pytest.raises(backups.BackupRefused) as refused:
        backups.restore(str(bad), str(live))
    message = str(refused.value)
    assert named in message
    assert message.startswith(f"{bad} holds a row Scorepad cannot read: ")
    assert message.endswith("Nothing was changed.")
    assert live.read_bytes() == before
    assert not list(live.parent.glob("before-restore-*"))


def test_a_backup_whose_every_row_reads_is_restored(live, good_backup):
    backups.restore(str(good_backup), str(live))
    db = connection.connect(str(live))
    try:
        assert readable.first_unreadable(db) is None
        assert db.execute("SELECT count(*) FROM club_tables").fetchone() == (2,)
    finally:
        db.close()


@pytest.mark.parametrize("path", HISTORIC, ids=[path.stem for path in HISTORIC])
def test_every_database_scorepad_ever_made_reads_row_by_row(tmp_path, path):
    copy = tmp_path / path.name
    shutil.copyfile(path, copy)
    schema.migrate(str(copy))
    db = connection.connect(str(copy))
    try:
        assert readable.first_unreadable(db) is None
    finally:
        db.close()
