"""Which backups are kept, when the next is due, and how an age is said: tables of dates and a fake clock."""

from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.core.retention import age_in_words, in_future, is_due, is_stale, to_remove, wait_before_next

NOW = datetime(2026, 11, 22, 10, 0)


def days(*dates: str) -> dict[str, datetime]:
    """Backups named by their date, each made at 03:00 that day."""
    return {d: datetime.fromisoformat(d) + timedelta(hours=3) for d in dates}


RETENTION = [  # (what, backups, how many of the newest are kept, removed)
    ("none yet", [], 14, []),
    ("fewer than the number kept", ["2026-11-20", "2026-11-21"], 14, []),
    ("beyond the number kept, a month keeps only its newest", ["2026-11-01", "2026-11-02", "2026-11-03"], 1,
     ["2026-11-01", "2026-11-02"]),
    ("the newest of each earlier month stays", ["2026-09-10", "2026-09-30", "2026-10-05", "2026-10-31",
                                                "2026-11-20", "2026-11-21"], 2, ["2026-09-10", "2026-10-05"]),
    ("a month's newest is the last day it had a backup", ["2026-10-01", "2026-10-15", "2026-11-21"], 1,
     ["2026-10-01"]),
    ("a year apart keeps both", ["2025-11-21", "2026-11-21"], 1, []),
    ("the same month of another year is another month", ["2025-11-01", "2025-11-02", "2026-11-21"], 1,
     ["2025-11-01"]),
    ("keeping none still keeps one a month", ["2026-11-20", "2026-11-21"], 0, ["2026-11-20"]),
]


@pytest.mark.parametrize(("taken", "keep_last", "removed"), [r[1:] for r in RETENTION], ids=[r[0] for r in RETENTION])
def test_the_newest_backups_and_one_a_month_are_kept(taken, keep_last, removed):
    assert to_remove(days(*taken), keep_last) == removed


def test_two_backups_of_the_same_second_are_told_apart_by_name():
    same = datetime(2026, 11, 21, 3, 0)
    assert to_remove({"b": same, "a": same, "c": same}, keep_last=1) == ["a", "b"]


def test_a_year_of_daily_backups_and_one_after_each_game_night_keeps_two_weeks_and_one_a_month():
    kept: dict[str, datetime] = {}
    start = datetime(2026, 1, 1, 3, 0)
    for day in range(365):
        clock = start + timedelta(days=day)
        kept[f"daily-{day:03}"] = clock
        if clock.weekday() == 4:  # Friday: a game night, a backup after each of its two games
            kept[f"game-{day:03}-1"] = clock + timedelta(hours=18)
            kept[f"game-{day:03}-2"] = clock + timedelta(hours=19)
        for name in to_remove(kept, keep_last=14):
            del kept[name]
    newest = sorted(kept.values())[-14:]
    assert newest[0] >= datetime(2026, 12, 17)  # the last 14, a Friday's two extra among them
    older_months = {(t.year, t.month) for t in kept.values() if t < newest[0]}
    assert len(kept) == 14 + len(older_months)
    assert older_months == {(2026, m) for m in range(1, 12)}
    assert all(t.day >= 28 for t in kept.values() if t < newest[0])  # each month's own last backup


times = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1))


@given(st.dictionaries(st.text(min_size=1, max_size=4), times, max_size=60), st.integers(0, 20))
def test_pruning_keeps_the_newest_each_month_and_is_done_after_once(taken, keep_last):
    removed = to_remove(taken, keep_last)
    kept = {name: t for name, t in taken.items() if name not in removed}
    assert len(kept) >= min(len(taken), keep_last)
    assert {(t.year, t.month) for t in kept.values()} == {(t.year, t.month) for t in taken.values()}
    if taken:
        assert max(taken.values()) in kept.values()
    assert to_remove(kept, keep_last) == []


DUE = [  # (what, the last backup that worked, due now?)
    ("never backed up", None, True),
    ("an hour ago", NOW - timedelta(hours=1), False),
    ("a minute short of a day", NOW - timedelta(hours=23, minutes=59), False),
    ("a day ago to the minute", NOW - timedelta(days=1), True),
    ("a week ago", NOW - timedelta(days=7), True),
    ("in the future: the clock was set back", NOW + timedelta(days=30), True),
]


@pytest.mark.parametrize(("last", "due"), [r[1:] for r in DUE], ids=[r[0] for r in DUE])
def test_a_backup_is_due_a_day_after_the_last_one_that_worked(last, due):
    assert is_due(last, NOW) is due


WAITS = [  # (what, the last backup that worked, how long to sleep)
    ("never backed up", None, timedelta(0)),
    ("due now", NOW - timedelta(days=2), timedelta(0)),
    ("due in ten minutes", NOW - timedelta(hours=23, minutes=50), timedelta(minutes=10)),
    ("due tomorrow: look again within the hour", NOW - timedelta(hours=1), timedelta(hours=1)),
]


@pytest.mark.parametrize(("last", "wait"), [r[1:] for r in WAITS], ids=[r[0] for r in WAITS])
def test_the_scheduler_sleeps_until_the_next_backup_is_due_but_never_more_than_an_hour(last, wait):
    assert wait_before_next(last, NOW) == wait


STALE = [
    ("never backed up", None, True),
    ("yesterday", NOW - timedelta(days=1), False),
    ("two days ago: two daily backups missed", NOW - timedelta(days=2), True),
]


@pytest.mark.parametrize(("last", "stale"), [r[1:] for r in STALE], ids=[r[0] for r in STALE])
def test_the_family_is_warned_when_two_daily_backups_were_missed(last, stale):
    assert is_stale(last, NOW) is stale


AGES = [
    (timedelta(seconds=0), "just now"),
    (timedelta(seconds=59), "just now"),
    (timedelta(minutes=1), "1 minute ago"),
    (timedelta(minutes=59, seconds=59), "59 minutes ago"),
    (timedelta(hours=2, minutes=30), "2 hours ago"),
    (timedelta(days=1, hours=23), "1 day ago"),
    (timedelta(days=40), "40 days ago"),
    (timedelta(minutes=-5), "just now"),  # a clock set back says nothing strange
]


@pytest.mark.parametrize(("age", "words"), AGES, ids=[w for _, w in AGES])
def test_a_backups_age_is_said_in_the_largest_whole_unit(age, words):
    assert age_in_words(NOW - age, NOW) == words


# --- a clock that ran fast ----------------------------------------------------------------------------------------

def test_backups_named_in_the_future_never_push_real_ones_out():
    """A Pi whose date was a year ahead for an evening made 14 backups named in 2027; the clock was put right.
    Every later prune keeps the real backups as if those 14 were not there, and never removes the 14."""
    real = {f"real-{day:02}": datetime(2026, 11, day, 3, 0) for day in range(1, 23)}
    fast = {f"fast-{n:02}": datetime(2027, 11, 21, 19, n) for n in range(14)}
    removed = to_remove({**real, **fast}, keep_last=14, now=NOW)
    assert removed == to_remove(real, keep_last=14, now=NOW) == [f"real-{day:02}" for day in range(1, 9)]
    # Without `now` the names are all there is to go by: the 14 take the newest places
    assert to_remove({**real, **fast}, keep_last=14) == sorted(real)[:-1]


def test_a_daily_prune_for_weeks_after_a_fast_evening_keeps_the_real_last_fourteen():
    kept = {f"fast-{n:02}": datetime(2027, 6, 1, 20, n) for n in range(14)}
    clock = datetime(2026, 11, 1, 3, 0)
    for day in range(60):
        now = clock + timedelta(days=day)
        kept[f"real-{day:02}"] = now
        for name in to_remove(kept, keep_last=14, now=now):
            del kept[name]
    real = sorted(name for name in kept if name.startswith("real-"))
    assert real[-14:] == [f"real-{day:02}" for day in range(46, 60)]  # the last two weeks, every day of them
    assert real[:-14] == ["real-29"]  # November's own last backup
    assert sum(name.startswith("fast-") for name in kept) == 14


FUTURE = [  # (what, a backup's time against NOW, named in the future?)
    ("an hour ago", NOW - timedelta(hours=1), False),
    ("within the hour an autumn clock goes back", NOW + timedelta(minutes=59), False),
    ("two hours ahead", NOW + timedelta(hours=2), True),
    ("next year", NOW + timedelta(days=365), True),
]


@pytest.mark.parametrize(("when", "future"), [r[1:] for r in FUTURE], ids=[r[0] for r in FUTURE])
def test_a_backup_is_named_in_the_future_more_than_an_hour_ahead_of_the_clock(when, future):
    assert (in_future({"b": when}, NOW) == ["b"]) is future


@given(st.dictionaries(st.text(min_size=1, max_size=4), times, max_size=40),
       st.dictionaries(st.text(min_size=5, max_size=6), times, max_size=20), times, st.integers(0, 20))
def test_no_backup_is_removed_because_others_carry_later_names(real, other, now, keep_last):
    future = {name: when for name, when in other.items() if when > now + timedelta(hours=1)}
    real = {name: when for name, when in real.items() if when <= now}
    removed = to_remove({**real, **future}, keep_last, now)
    assert removed == to_remove(real, keep_last, now)
    assert not set(removed) & set(future)
