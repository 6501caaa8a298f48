"""Backups by themselves, as the service keeps them: after the hand that wins a game (beside the save, never in
its way), once a day by a fake clock, and a failure recorded and shown, never raised to the player."""

import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import club
from scorepad.services.backups import AFTER_GAME, DAILY, Backups, register
from scorepad.store import autobackup, clubs, connection, games
from tests.services.helpers import first_thread_cannot_start, record

TO_100 = replace(PRESETS["double-deck"], target=100)
MADE = Hand(0, 50, (0, 0), (50, 0))  # Us +50: the second one wins a game to 100


class Clock:
    """A clock the test moves."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def backups(live, tmp_path) -> Backups:
    """The database's backups, registered as the app registers them."""
    backups = Backups(str(live), [tmp_path / "backups"])
    register(backups)
    return backups


def backups_in(folder: Path) -> list[str]:
    return sorted(autobackup.taken_in(folder))


def test_the_hand_that_wins_a_game_is_followed_by_a_backup_holding_it(db, backups, tmp_path):
    game_id = services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0)
    record(db, game_id)
    backups.wait()
    assert backups_in(tmp_path / "backups") == []  # a hand that decides nothing: no backup
    assert record(db, game_id).winner == 0
    backups.wait()
    [name] = backups_in(tmp_path / "backups")
    assert backups.status().reason == AFTER_GAME and backups.status().problem is None
    copy = connection.connect(str(tmp_path / "backups" / name))
    try:
        assert games.load_game(copy, game_id).winner == 0
    finally:
        copy.close()


THEM = Hand(1, 50, (0, 0), (0, 50))  # Them +50
SET = Hand(0, 50, (0, 0), (10, 40))  # Us set: -50


def _ends_by_an_edit(db, game_id):
    record(db, game_id, MADE)
    hand_id = games.live_hands(db, game_id)[-1].id + 1
    record(db, game_id, THEM)
    return services.edit_hand(db, game_id, hand_id, MADE)  # Us 100: won


def _ends_by_a_delete(db, game_id):
    record(db, game_id, SET)
    set_id = games.live_hands(db, game_id)[0].id
    record(db, game_id, MADE)
    record(db, game_id, MADE)  # Us 50
    return services.delete_hand(db, game_id, set_id)  # Us 100: won


def _ends_by_a_restore(db, game_id):
    record(db, game_id, MADE)
    first = games.live_hands(db, game_id)[0].id
    record(db, game_id, THEM)
    services.delete_hand(db, game_id, first)
    record(db, game_id, MADE)  # Us 50
    return services.restore_hand(db, game_id, first)  # Us 100: won


@pytest.mark.parametrize("change", [_ends_by_an_edit, _ends_by_a_delete, _ends_by_a_restore],
                         ids=["an edit", "a delete", "a restore"])
def test_a_change_that_ends_a_game_is_followed_by_a_backup_as_a_winning_hand_is(db, backups, tmp_path, change):
    game_id = services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0)
    assert change(db, game_id).winner == 0
    backups.wait()
    [name] = backups_in(tmp_path / "backups")
    assert backups.status().reason == AFTER_GAME
    copy = connection.connect(str(tmp_path / "backups" / name))
    try:
        assert games.load_game(copy, game_id).winner == 0
    finally:
        copy.close()


def test_a_club_round_the_director_ends_is_followed_by_a_backup_of_its_games(db, backups, tmp_path):
    night = club.create_night(db, name="Club", kind="progressive", rules=PRESETS["double-deck"], round_end="time",
                              round_size=50, rounds=2, tie_breaks=("wins", "points"))
    for name in ("Al", "Bo", "Cy", "Di"):
        club.register(db, night.id, (name,))
    club.start_round(db, night.id)
    [table] = clubs.tables(db, night.id, 1)
    record(db, table.game_id, MADE)
    backups.wait()
    assert backups_in(tmp_path / "backups") == []
    assert club.end_round(db, night.id) == 1
    backups.wait()
    [name] = backups_in(tmp_path / "backups")
    copy = connection.connect(str(tmp_path / "backups" / name))
    try:
        assert games.load_game(copy, table.game_id).finished_at is not None
    finally:
        copy.close()


def test_a_change_that_leaves_a_game_unfinished_takes_no_backup(db, backups, tmp_path):
    game_id = services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0)
    record(db, game_id, MADE)
    services.edit_hand(db, game_id, games.live_hands(db, game_id)[0].id, THEM)
    backups.wait()
    assert backups_in(tmp_path / "backups") == []


def test_the_save_does_not_wait_for_its_backup(db, backups, monkeypatch):
    started, release = threading.Event(), threading.Event()
    real_take = autobackup.take

    def slow_take(*args, **kwargs):
        started.set()
        release.wait(10)
        return real_take(*args, **kwargs)
    monkeypatch.setattr(autobackup, "take", slow_take)
    game_id = services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0)
    record(db, game_id)
    assert record(db, game_id).winner == 0  # answered while its backup is still held up
    assert started.wait(10) and backups.status().succeeded_at is None
    release.set()
    backups.wait()
    assert backups.status().succeeded_at is not None


def test_games_that_end_while_a_backup_runs_make_one_more_copy_holding_them_all(db, backups, tmp_path, monkeypatch):
    # A club's tables end within a minute of each other: the copy running goes on, one more follows it with
    # every game ended meanwhile, and no copy queues behind that one (each is the whole database).
    copying, release = threading.Event(), threading.Event()
    real_take, taken = autobackup.take, []

    def held_take(*args, **kwargs):
        taken.append(kwargs["reason"])
        if len(taken) == 1:
            copying.set()
            release.wait(10)
        return real_take(*args, **kwargs)
    monkeypatch.setattr(autobackup, "take", held_take)
    game_ids = [services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0) for _ in range(5)]
    record(db, game_ids[0])
    record(db, game_ids[0])
    assert copying.wait(10)  # the first game's copy is running
    for game_id in game_ids[1:]:
        record(db, game_id)
        assert record(db, game_id).winner == 0
    release.set()
    backups.wait()
    assert len(taken) == 2 and len(backups_in(tmp_path / "backups")) == 2
    copy = connection.connect(str(tmp_path / "backups" / backups.status().file.rsplit("/", 1)[-1]))
    try:
        assert [games.load_game(copy, game_id).winner for game_id in game_ids] == [0] * 5
    finally:
        copy.close()


def test_a_backup_that_fails_after_a_game_is_recorded_not_raised(db, live, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder should be")
    backups = Backups(str(live), [blocked])
    register(backups)
    game_id = services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0)
    record(db, game_id)
    assert record(db, game_id).winner == 0
    backups.wait()
    assert games.load_game(db, game_id).hands_count == 2
    assert "Nothing was written" in backups.status().problem
    assert backups.warning() == "The last backup failed."


def test_an_unexpected_error_in_a_backup_is_recorded_too(live, tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the disk went away")
    monkeypatch.setattr(autobackup, "take", broken)
    status = Backups(str(live), [tmp_path / "backups"]).take(DAILY)
    assert status.problem == "The backup failed (RuntimeError: the disk went away)."


def test_the_daily_backup_is_taken_once_a_day_by_the_clock(live, tmp_path):
    clock = Clock(datetime(2026, 11, 22, 3, 0, tzinfo=UTC))
    backups = Backups(str(live), [tmp_path / "backups"], clock=clock)
    taken = []
    for hours in (0, 1, 23, 24, 30, 48):
        clock.now = datetime(2026, 11, 22, 3, 0, tzinfo=UTC) + timedelta(hours=hours)
        if backups.take_if_due():
            taken.append(hours)
    assert taken == [0, 24, 48]
    assert backups.status().reason == DAILY


def test_the_status_outlives_a_restart(live, tmp_path):
    clock = Clock(datetime(2026, 11, 22, 3, 0, tzinfo=UTC))
    Backups(str(live), [tmp_path / "backups"], clock=clock).take(DAILY)
    again = Backups(str(live), [tmp_path / "backups"], clock=clock)
    assert again.status().succeeded_at == clock.now
    assert not again.take_if_due()


WARNINGS = [  # (what, the status, the warning every page shows)
    ("a backup an hour ago", autobackup.Status(succeeded_at=datetime(2026, 11, 22, 9, 0, tzinfo=UTC)), None),
    ("none yet on a new install", autobackup.Status(), None),
    ("the last one failed", autobackup.Status(succeeded_at=datetime(2026, 11, 22, 9, 0, tzinfo=UTC),
                                              problem="The folder is full."), "The last backup failed."),
    ("its second copy failed", autobackup.Status(succeeded_at=datetime(2026, 11, 22, 9, 0, tzinfo=UTC),
                                                 attempted_at=datetime(2026, 11, 22, 9, 0, tzinfo=UTC),
                                                 problem="The folder /media/usb is not there."),
     "The last backup was made, but a copy of it failed."),
    ("two daily ones missed", autobackup.Status(succeeded_at=datetime(2026, 11, 20, 9, 0, tzinfo=UTC)),
     "No backup in two days."),
]


@pytest.mark.parametrize(("status", "warning"), [r[1:] for r in WARNINGS], ids=[r[0] for r in WARNINGS])
def test_every_page_warns_when_the_backups_need_a_look(live, tmp_path, status, warning):
    folder = tmp_path / "backups"
    folder.mkdir()
    autobackup.write_status(folder, status)
    backups = Backups(str(live), [folder], clock=Clock(datetime(2026, 11, 22, 10, 0, tzinfo=UTC)))
    assert backups.warning() == warning


def test_backups_named_in_the_future_are_said_until_the_clock_reaches_them(live, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    for name in ("scorepad-20261121-030000.db", "scorepad-20270601-200000.db", "scorepad-20270601-210000.db"):
        (folder / name).write_bytes(b"SQLite format 3\x00 a backup")
    clock = Clock(datetime(2026, 11, 22, 10, 0).astimezone())  # backups are named in local time
    backups = Backups(str(live), [folder], clock=clock)
    assert backups.in_future() == ["scorepad-20270601-200000.db", "scorepad-20270601-210000.db"]
    assert backups.warning() == "2 backups are named with a time in the future: is this machine's clock right?"
    clock.now = datetime(2027, 6, 1, 19, 30).astimezone()
    backups.take_if_due()  # the daily look, within the hour (a backup, or none yet)
    assert backups.in_future() == ["scorepad-20270601-210000.db"]  # an hour's slack: the autumn's clock change
    assert backups.warning() == "1 backup is named with a time in the future: is this machine's clock right?"
    clock.now = datetime(2027, 6, 1, 20, 1).astimezone()
    backups.take_if_due()
    assert backups.in_future() == [] and backups.warning() is None
    assert backups.in_future() == [] and backups.warning() is None


def test_the_backups_prune_the_safety_copies_restores_kept_beside_the_database(live, tmp_path):
    for day in range(1, 21):
        (live.parent / f"before-restore-202611{day:02}-200000.db").write_bytes(b"SQLite format 3\x00 a copy")
    Backups(str(live), [tmp_path / "backups"], keep_last=5).take(DAILY)
    assert sorted(autobackup.taken_in(live.parent, autobackup.SAFETY_COPIES)) == [
        f"before-restore-202611{day:02}-200000.db" for day in range(16, 21)]


def test_a_copy_whose_thread_cannot_start_does_not_stop_the_next_games_copy(db, backups, tmp_path, monkeypatch):
    first_thread_cannot_start(monkeypatch, "scorepad-backup")
    first, second = (services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0) for _ in range(2))
    record(db, first)
    assert record(db, first).winner == 0  # saved, and said so, though its copy could not be started
    record(db, second)
    assert record(db, second).winner == 0
    backups.wait()
    [name] = backups_in(tmp_path / "backups")
    copy = connection.connect(str(tmp_path / "backups" / name))
    try:
        assert [games.load_game(copy, g).winner for g in (first, second)] == [0, 0]
    finally:
        copy.close()


# --- a big database's after-game copies, spaced ------------------------------------------------------------------

@pytest.fixture
def big(live, monkeypatch):
    """The database as big as a club's seasons (its size read as over BIG_DATABASE_BYTES)."""
    import os

    from scorepad.services import backups as backups_service

    real = os.path.getsize
    monkeypatch.setattr(os.path, "getsize", lambda path: backups_service.BIG_DATABASE_BYTES + 1
                        if os.path.realpath(path) == os.path.realpath(live) else real(path))
    return live


def test_a_big_databases_copy_after_a_game_begins_a_minute_after_the_last_and_holds_every_game_since(
        db, big, backups, tmp_path):
    from scorepad.services.backups import AFTER_GAME_SPACING

    first = services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0)
    record(db, first)
    assert backups.spacing_left() == 0  # never copied: the first game's copy begins at once
    record(db, first)  # won
    backups.wait()
    assert len(backups_in(tmp_path / "backups")) == 1
    assert 59 < backups.spacing_left() <= AFTER_GAME_SPACING.total_seconds()
    won = [first]
    for _ in range(2):  # two more games won within the minute: one copy, still to come, holds both
        won.append(services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0))
        record(db, won[-1])
        record(db, won[-1])
    assert len(backups_in(tmp_path / "backups")) == 1
    assert sum(thread.is_alive() for thread in backups._threads) == 1
    backups.wait()  # as a server stopping does: the copy still to come is taken now
    assert len(backups_in(tmp_path / "backups")) == 2
    backups.wait()  # begun by itself: its file is in place a moment before its status says so
    copy = connection.connect(backups.status().file)  # the copy just taken
    try:
        assert [games.load_game(copy, g).winner for g in won] == [0, 0, 0]
    finally:
        copy.close()


def test_a_copy_a_clock_put_back_seems_to_have_begun_later_waits_no_more_than_the_minute(big, tmp_path):
    from scorepad.services.backups import AFTER_GAME_SPACING

    now = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    copies = Backups(str(big), [tmp_path / "b"], clock=lambda: now)
    copies._began = now + timedelta(hours=5)
    assert copies.spacing_left() == AFTER_GAME_SPACING.total_seconds()
    copies._began = now - timedelta(seconds=45)
    assert copies.spacing_left() == 15


def test_a_game_finished_while_a_copy_is_under_way_waits_for_the_minute_from_when_that_copy_began(
        big, tmp_path, monkeypatch):
    """The copy's status comes once it is over: the minute is counted from when it began, or a game finished
    during a copy would have its own copy at once behind it."""
    from scorepad.services.backups import AFTER_GAME_SPACING

    copies = Backups(str(big), [tmp_path / "b"])
    said = []
    real_take = autobackup.take

    def take(*args, **kwargs):
        said.append(copies.spacing_left())  # a game finished now, while this copy runs
        return real_take(*args, **kwargs)

    monkeypatch.setattr(autobackup, "take", take)
    copies.take(AFTER_GAME)
    assert said and said[0] > AFTER_GAME_SPACING.total_seconds() - 5


def test_a_small_databases_copy_after_a_game_begins_at_once_however_recent_the_last(db, backups):
    game_id = services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0)
    record(db, game_id)
    record(db, game_id)
    backups.wait()
    assert backups.spacing_left() == 0


def test_a_spaced_copy_begins_by_itself_once_its_time_is_over(db, big, backups, tmp_path, monkeypatch):
    """The path a running server takes: nobody waits for the copy, it begins when its spacing is over."""
    import time

    from scorepad.services import backups as backups_service

    monkeypatch.setattr(backups_service, "AFTER_GAME_SPACING", timedelta(seconds=0.5))
    for _ in range(2):
        game_id = services.start_game(db, TO_100, ("Us", "Them"), (None,) * 4, 0)
        record(db, game_id)
        record(db, game_id)  # won: the first copy at once, the second half a second after the first began
    deadline = time.monotonic() + 10
    while len(backups_in(tmp_path / "backups")) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(backups_in(tmp_path / "backups")) == 2
    backups.wait()  # begun by itself: its file is in place a moment before its status says so
    copy = connection.connect(backups.status().file)
    try:
        assert games.load_game(copy, game_id).winner == 0
    finally:
        copy.close()


def test_a_status_file_with_a_time_of_no_zone_spaces_nothing_and_raises_nothing(big, tmp_path):
    copies = Backups(str(big), [tmp_path / "b"])
    copies._began = datetime(2026, 12, 1, 20, 0)  # as a status file edited by hand may say
    copies._status = copies._status.__class__(succeeded_at=datetime(2026, 12, 1, 20, 0))
    copies.replicated = lambda: True
    assert copies.spacing_left() == 0
    assert copies.after_game_due()
