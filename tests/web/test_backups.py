"""Backups and restores: refusals that change nothing, names that never collide, caches that move on, an older
backup brought up to date. (Restores while phones record on the real server: tests/system.)"""

import hashlib
import json
import re
import sqlite3
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.store import backups, connection, games, schema
from tests.helpers import parse, safety_copies

DD = replace(PRESETS["double-deck"], target=100_000)  # games that never end, however many hands
MADE_50 = Hand(0, 50, (0, 0), (50, 0))


@pytest.fixture
def live(app) -> Path:
    """The app's database, holding one game of two hands."""
    path = Path(app.config["DATABASE"])
    add_game(path, ("Kept", "Them"), hands=2)
    return path


def add_game(path: Path, teams, hands: int = 1, players=("Ann", "Bob", "Cat", "Dan")) -> int:
    db = connection.connect(str(path))
    try:
        game_id = games.create_game(db, DD, teams, list(players), 0)
        for n in range(hands):
            record_hand(db, game_id, f"{teams[0]}-{game_id}-{n}")
        return game_id
    finally:
        db.close()


def record_hand(db, game_id: int, token: str) -> None:
    with connection.write_lock(db):
        games.insert_hand(db, game_id, token, replace(MADE_50, trump="S", bidder_seat=0))
        games.rescore(db, games.load_game(db, game_id), games.live_hands(db, game_id))


def contents(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return list(db.iterdump())


def teams(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [r[0] for r in db.execute("SELECT team_0 FROM games ORDER BY id")]


def fingerprint(path: Path) -> tuple:
    """The file's bytes and what lies beside it: a read-only look leaves both alone."""
    return hashlib.sha256(path.read_bytes()).hexdigest(), sorted(p.name for p in path.parent.iterdir())


def fail_cleanly(result, *words: str) -> None:
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output


# --- backup ---------------------------------------------------------------------------------------------------

def test_a_backup_taken_while_hands_are_written_is_consistent(live, tmp_path):
    game_id = add_game(live, ("Us", "Them"))
    stop = threading.Event()

    def write():
        writer = connection.connect(str(live))
        n = 0
        while not stop.is_set():
            record_hand(writer, game_id, f"w{n}")
            n += 1
        writer.close()

    thread = threading.Thread(target=write)
    thread.start()
    try:
        copies = [backups.backup(str(live), str(tmp_path / f"copy{i}.db")) for i in range(5)]
    finally:
        stop.set()
        thread.join()
    for target in copies:
        assert backups.is_scorepad_file(target)
        with sqlite3.connect(target) as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            hands, total = copy.execute("SELECT count(*), (SELECT total_0 FROM games WHERE id = ?) FROM hands "
                                        "WHERE game_id = ?", [game_id, game_id]).fetchone()
        assert total == 50 * hands  # the summary and the hands come from one moment: no half-written hand


def files_beside(folder: Path) -> list[Path]:
    """Every file and folder under `folder`, but the live database's own (its -wal comes and goes)."""
    return sorted(p.relative_to(folder) for p in folder.rglob("*") if "live" not in p.relative_to(folder).parts)


def not_a_backup(folder: Path, live: Path) -> Path:
    path = folder / "notes.db"
    path.write_text("Grandma's recipes: not a database.")
    return path


def earlier_backup(folder: Path, live: Path) -> Path:
    return backups.backup(str(live), str(folder / "last-week.db"))


@pytest.mark.parametrize("target, args, why", [
    (not_a_backup, [], "is not a Scorepad backup: Scorepad will not write over it"),
    (not_a_backup, ["--force"], "is not a Scorepad backup: Scorepad will not write over it"),
    (earlier_backup, [], "is an earlier Scorepad backup. To write over it, add --force"),
    (lambda folder, live: live, ["--force"], "is the live database itself"),
    (lambda folder, live: folder / "unplugged-usb" / "scorepad.db", [], "does not exist (is the drive plugged"),
    (lambda folder, live: folder, [], "is a folder. Name a file inside it"),
])
def test_a_backup_that_would_write_over_something_or_nowhere_is_refused_and_writes_nothing(app, live, tmp_path,
                                                                                           target, args, why):
    path = target(tmp_path, live)
    add_game(live, ("After", "Them"))  # so that a backup written over `path` would show
    before, live_before = files_beside(tmp_path), contents(live)
    kept = path.read_bytes() if path.is_file() and path != live else None
    result = app.test_cli_runner().invoke(args=["backup", str(path), *args])
    fail_cleanly(result, why, "Nothing was written")
    assert files_beside(tmp_path) == before
    if kept is not None:
        assert path.read_bytes() == kept
    assert contents(live) == live_before


def test_a_backup_with_force_replaces_an_earlier_backup(app, live, tmp_path):
    target = earlier_backup(tmp_path, live)
    add_game(live, ("After", "Them"))
    result = app.test_cli_runner().invoke(args=["backup", str(target), "--force"])
    assert result.exit_code == 0, result.output
    assert teams(target) == ["Kept", "After"]
    assert sorted(p.name for p in tmp_path.glob("*.db")) == ["last-week.db"]  # no half-made copy left behind


def test_backups_to_the_default_folder_in_the_same_second_never_overwrite_each_other(app, live, monkeypatch):
    monkeypatch.setattr(backups, "_stamp", lambda: "20250101-200000")
    runner = app.test_cli_runner()
    written = []
    for team in ("First", "Second"):
        add_game(live, (team, "Them"))
        result = runner.invoke(args=["backup"])
        assert result.exit_code == 0, result.output
        written.append(Path(re.search(r" to (\S+)$", result.output.strip())[1]))
    assert written[0] != written[1]
    assert teams(written[0]) == ["Kept", "First"]
    assert teams(written[1]) == ["Kept", "First", "Second"]


# --- restore: refusals -------------------------------------------------------------------------------------------

def scorepad_backup(folder: Path, live: Path) -> Path:
    return backups.backup(str(live), str(folder / "backup.db"))


def altered(sql: str):
    def make(folder: Path, live: Path) -> Path:
        path = scorepad_backup(folder, live)
        with sqlite3.connect(path) as db:
            db.executescript(sql)
        return path
    return make


def damaged(folder: Path, live: Path) -> Path:
    path = scorepad_backup(folder, live)
    with sqlite3.connect(path) as db:
        page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'hands'").fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    with path.open("r+b") as file:
        file.seek((page - 1) * size)
        file.write(b"\xff" * 16)  # the page's header: not a page any more
    return path


def strangers_database(folder: Path, live: Path) -> Path:
    path = folder / "other.db"
    with sqlite3.connect(path) as db:
        db.executescript("CREATE TABLE games (id, name); CREATE TABLE hands (id, cards); "
                         "CREATE TABLE hand_edits (id); INSERT INTO games VALUES (1, 'chess');")
    return path


def junk(folder: Path, live: Path) -> Path:
    path = folder / "photo.db"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20)
    return path


def empty(folder: Path, live: Path) -> Path:
    path = folder / "empty.db"
    path.touch()
    return path


def a_folder(folder: Path, live: Path) -> Path:
    path = folder / "backups"
    path.mkdir()
    return path


@pytest.mark.parametrize("make, why", [
    (lambda folder, live: folder / "missing.db", "does not exist"),
    (a_folder, "is a folder, not a backup file"),
    (junk, "is not a Scorepad backup: it is not a database file at all"),
    (empty, "is not a Scorepad backup: it is not a database file at all"),
    (damaged, "is damaged"),
    (strangers_database, "is not a Scorepad backup: it is a database, but not one Scorepad made"),
    (altered("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
             "VALUES ('scorepad', 'm099_from_the_future', '2031-01-01');"),
     "was made by a newer Scorepad (it has changes this one does not know: m099_from_the_future)"),
    (altered("DROP TABLE seat_results;"), "does not have the tables this Scorepad makes (missing tables: "
                                          "seat_results)"),
    (altered("ALTER TABLE hands DROP COLUMN outcome;"), "(different columns in: hands)"),
    (altered("PRAGMA foreign_keys = OFF; UPDATE hands SET game_id = 999;"), "is damaged (links between"),
])
def test_a_restore_of_anything_but_a_sound_scorepad_backup_is_refused_and_changes_nothing(app, live, tmp_path,
                                                                                          make, why):
    path = make(tmp_path, live)
    add_game(live, ("After", "Them"))
    before = contents(live)
    looked_at = fingerprint(path) if path.is_file() else None
    result = app.test_cli_runner().invoke(args=["restore", "--yes", str(path)])
    fail_cleanly(result, why, "Nothing was changed")
    assert contents(live) == before
    assert safety_copies(live) == []
    if looked_at:
        assert fingerprint(path) == looked_at


def test_a_restore_that_fails_after_the_safety_copy_says_where_it_is_and_changes_nothing_else(app, live, tmp_path,
                                                                                              monkeypatch):
    path = scorepad_backup(tmp_path, live)
    add_game(live, ("After", "Them"))
    before = contents(live)

    def interrupted(db, tables):
        db.execute("DELETE FROM hand_edits")  # a start on the swap, which must not stay
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(backups, "_replace_contents", interrupted)
    result = app.test_cli_runner().invoke(args=["restore", "--yes", str(path)])
    [safety] = safety_copies(live)
    fail_cleanly(result, "disk I/O error", "Nothing else changed", f"also kept in {safety}")
    assert contents(live) == before
    assert teams(safety) == ["Kept", "After"]


# --- restore: what it does -----------------------------------------------------------------------------------------

def test_restore_puts_a_backup_back_and_keeps_the_replaced_database(app, live, tmp_path):
    saved = scorepad_backup(tmp_path, live)
    add_game(live, ("After", "Them"), hands=3)
    runner = app.test_cli_runner()
    declined = runner.invoke(args=["restore", str(saved)], input="n\n")
    assert declined.exit_code == 1 and "Aborted" in declined.output
    assert teams(live) == ["Kept", "After"] and safety_copies(live) == []
    result = runner.invoke(args=["restore", "--yes", str(saved)])
    assert result.exit_code == 0, result.output
    assert teams(live) == ["Kept"]
    kept = Path(re.search(r"kept in (\S+)\.$", result.output.strip())[1])
    assert safety_copies(live) == [kept] and teams(kept) == ["Kept", "After"]
    # a hand a phone saved while the backup was being checked is not said to be safe in the restored database
    assert "with every hand recorded until the moment it was replaced" in " ".join(result.output.split())
    with sqlite3.connect(live) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT count(*) FROM hands").fetchone()[0] == 2


def test_two_restores_in_the_same_second_keep_both_safety_copies(live, tmp_path, monkeypatch):
    monkeypatch.setattr(backups, "_stamp", lambda: "20250101-200000")
    saved = scorepad_backup(tmp_path, live)
    kept = []
    for team in ("Lost 1", "Lost 2"):
        add_game(live, (team, "Them"))
        kept.append(backups.restore(str(saved), str(live)).safety_copy)
    assert kept[0] != kept[1] and safety_copies(live) == sorted(kept)
    assert [teams(path) for path in kept] == [["Kept", "Lost 1"], ["Kept", "Lost 2"]]
    assert teams(live) == ["Kept"]


def marks(path: Path) -> dict:
    with sqlite3.connect(path) as db:
        return {"games": dict(db.execute("SELECT id, version FROM games").fetchall()),
                "records": db.execute("SELECT value FROM counters WHERE name = 'records'").fetchone()[0],
                "players": dict(db.execute("SELECT id, records_version FROM players").fetchall())}


def highest(kind: str, *found: dict) -> int:
    return max(max(m[kind].values()) if isinstance(m[kind], dict) else m[kind] for m in found)


@pytest.mark.parametrize("busier", ["live", "backup"])
def test_after_a_restore_every_game_version_and_records_counter_is_above_both_databases(app, live, tmp_path,
                                                                                       busier):
    """Phones poll a game with its version as ETag, and records are cached under counters: after a restore
    none may match a value from before, whichever database had seen more changes."""
    saved = scorepad_backup(tmp_path, live)
    busy = live if busier == "live" else saved
    game_id = add_game(busy, ("Busy", "Them"), hands=0, players=("Eve", "Fay", "Gus", "Hal"))
    db = connection.connect(str(busy))
    for n in range(30):
        record_hand(db, game_id, f"busy-{n}")
    db.close()
    found = [marks(live), marks(saved)]
    client = app.test_client()
    etags = {g: client.get(f"/games/{g}/live").headers["ETag"] for g in found[0]["games"]}
    assert all(client.get(f"/games/{g}/live", headers={"If-None-Match": etag}).status_code == 304
               for g, etag in etags.items())

    assert backups.restore(str(saved), str(live)).safety_copy.exists()
    after = marks(live)
    assert after["games"] and min(after["games"].values()) > highest("games", *found)
    assert after["players"] and min(after["players"].values()) > highest("players", *found)
    assert after["records"] > highest("records", *found)
    for g, etag in etags.items():  # a game the backup has is sent afresh, one it has not is gone
        assert client.get(f"/games/{g}/live", headers={"If-None-Match": etag}).status_code == (
            200 if g in after["games"] else 404)


def old_scorepad_backup(path: Path) -> None:
    """A database as Scorepad made it before game_seats and kept points existed, with a game in progress."""
    db = connection.connect(str(path))
    schema.migrations.apply(db, stop_before="m003_results_and_seats")
    at = "2024-11-02T19:00:00+00:00"
    with db.conn:
        ann = db.execute("INSERT INTO players (name, created_at) VALUES ('Ann', ?)", [at]).lastrowid
        game = db.execute("INSERT INTO games (created_at, rules, team_0, team_1, seat_0, first_dealer) "
                          "VALUES (?, ?, 'Old', 'Them', ?, 0)", [at, json.dumps(DD.to_dict()), ann]).lastrowid
        for seq in (1, 2):
            hand = db.execute("INSERT INTO hands (game_id, seq, token, kind, bidder, bid, meld_0, meld_1, "
                              "counters_0, counters_1, created_at, updated_at) "
                              "VALUES (?, ?, ?, 'played', 0, 50, 0, 0, 50, 0, ?, ?)",
                              [game, seq, f"old-{seq}", at, at]).lastrowid
            db.execute("INSERT INTO hand_edits (hand_id, at, action, summary) VALUES (?, ?, 'recorded', "
                       "'Recorded.')", [hand, at])
    db.close()


def test_an_older_scorepad_backup_is_brought_up_to_date_on_a_copy_and_restored(app, live, tmp_path):
    path = tmp_path / "2024.db"
    old_scorepad_backup(path)
    looked_at = fingerprint(path)
    result = app.test_cli_runner().invoke(args=["restore", "--yes", str(path)])
    assert result.exit_code == 0, result.output
    assert "made by an older Scorepad, brought up to date" in result.output
    assert fingerprint(path) == looked_at  # the user's file is as it was, still at the old schema
    assert teams(live) == ["Old"]
    with sqlite3.connect(live) as db:
        assert db.execute("SELECT total_0, hands_count FROM games").fetchone() == (100, 2)
        assert db.execute("SELECT points_0, outcome FROM hands").fetchall() == [(50, "made")] * 2
        assert db.execute("SELECT player_id FROM game_seats").fetchall() == [(1,)]
    page = app.test_client().get("/games/1")
    assert page.status_code == 200 and "Old" in page.get_data(as_text=True)


def test_restore_keeps_its_safety_copies_as_backups_are_kept_and_leaves_no_work_behind(make_app, tmp_path,
                                                                                      monkeypatch):
    app = make_app(BACKUPS_KEPT=3)
    live = Path(app.config["DATABASE"])
    add_game(live, ("Kept", "Them"))
    saved = scorepad_backup(tmp_path, live)
    earlier = [f"before-restore-202611{day:02}-200000.db" for day in range(1, 6)]
    for name in earlier:
        (live.parent / name).write_bytes(saved.read_bytes())
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", None)  # asked again, as a new process would
    beside = sorted(p.name for p in live.parent.iterdir() if not p.name.startswith("before-restore-"))
    result = app.test_cli_runner().invoke(args=["restore", "--yes", str(saved)])
    assert result.exit_code == 0, result.output
    kept = Path(re.search(r"kept in (\S+)\.$", result.output.strip())[1])
    assert safety_copies(live) == [live.parent / earlier[-2], live.parent / earlier[-1], kept]
    assert sorted(p.name for p in live.parent.iterdir() if not p.name.startswith("before-restore-")) == beside
    assert list(temp.iterdir()) == []  # its private copy was never in the temporary folder


def test_a_backup_whose_kept_totals_disagree_with_its_hands_is_restored_with_totals_from_its_hands(app, client, live,
                                                                                                   tmp_path):
    """A backup edited by hand (or damaged) kept 19,999 for a game whose hands make 100: the lists would have
    believed it while the game's page shows 100. It is scored again from its hands as it is restored."""
    path = scorepad_backup(tmp_path, live)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET total_0 = 19999")
    result = app.test_cli_runner().invoke(args=["restore", "--yes", str(path)])
    assert result.exit_code == 0, result.output
    assert "kept totals that disagreed with their hands" in result.output
    for page in ("/", "/history/"):
        text = client.get(page).get_data(as_text=True)
        assert "19,999" not in text and "19999" not in text
    teams = parse(client.get("/")).select_one(".game-item .teams").get_text(" ", strip=True)
    assert teams.startswith("Kept 100 :")  # its two hands, as the game's own page folds them
