"""A backup is never written of a database that would not restore, and what an import cut off by an older
Scorepad left (hands whose game was never written) goes when the database, or a backup of it, is brought up to
date."""

import contextlib
import sqlite3

import pytest

from scorepad.store import backups, schema


def broken_links(path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return len(conn.execute("PRAGMA foreign_key_check").fetchall())


def orphan_hands(path) -> None:
    """What an import cut off by the code before this one left: hands, their history and their figures under a
    game id no game has, and the game ids it had kept."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("""INSERT INTO hands (id, game_id, seq, token, kind, bidder, bid, meld_0, meld_1, counters_0,
                        counters_1, created_at, updated_at) VALUES (900, 99, 1, 'cut-off-1', 'played', 0, 50, 20, 0,
                        30, 20, '2026-11-01T19:00:00+00:00', '2026-11-01T19:00:00+00:00')""")
        conn.execute("""INSERT INTO hand_edits (hand_id, at, action, summary)
                        VALUES (900, '2026-11-01T19:00:00+00:00', 'recorded', 'Recorded.')""")
        conn.execute("""INSERT INTO team_results (game_id, team, hands, sum_meld, hands_bid, made, went_set, sum_bid)
                        VALUES (99, 0, 1, 20, 1, 1, 0, 50)""")
        conn.execute("INSERT INTO counters (name, value) VALUES ('import_reserved_game_id', 120)")
        conn.commit()


def test_a_backup_is_never_written_of_a_database_whose_links_are_broken(new_database, tmp_path):
    live = new_database()
    orphan_hands(live)
    with pytest.raises(backups.BackupRefused, match=r"broken links between its rows \(.*in hands.*\): a backup "
                                                    r"of it would not restore\. Nothing was written\."):
        backups.backup(str(live), str(tmp_path / "copy.db"))
    assert not (tmp_path / "copy.db").exists()
    folder = tmp_path / "backups"
    with pytest.raises(backups.BackupRefused, match="would not restore"):
        backups.backup_into(str(live), folder)
    assert list(folder.iterdir()) == []


def test_what_a_cut_off_import_left_goes_on_upgrade_and_its_backups_restore(new_database, tmp_path):
    """A database (and every backup of it) from before imports moved in with one transaction may hold what one
    cut off left: bringing it up to date clears it, so such a backup restores."""
    live = new_database()
    orphan_hands(live)
    with contextlib.closing(sqlite3.connect(live)) as conn:
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm015_drop_what_cut_off_imports_left'")
        conn.commit()
        old_backup = tmp_path / "old-backup.db"
        backups.copy_database(conn, old_backup)
    target = new_database(tmp_path / "elsewhere" / "scorepad.db")
    assert backups.restore(str(old_backup), str(target)).upgraded
    schema.migrate(str(live))
    for path in (live, target):
        assert broken_links(path) == 0
        with contextlib.closing(sqlite3.connect(path)) as conn:
            assert conn.execute("SELECT count(*) FROM hands").fetchone()[0] == 0
            assert conn.execute("SELECT count(*) FROM hand_edits").fetchone()[0] == 0
            assert conn.execute("SELECT count(*) FROM team_results").fetchone()[0] == 0
            assert conn.execute("SELECT count(*) FROM counters WHERE name LIKE 'import%'").fetchone()[0] == 0
    backups.backup(str(live), str(tmp_path / "now.db"))
