"""Backups by themselves: when the next one is due, which ones to keep, and how old the last one is, in words.

Pure decisions over times (no files, no clock: the caller says what "now" is), so a test can walk a year of
backups in a table of dates. The store names and lists the files; the services keep the clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

KEEP_LAST = 14  # the last two weeks of daily backups
EVERY = timedelta(days=1)
STALE = timedelta(days=2)  # a daily backup missed twice: worth a warning on every page
LONGEST_WAIT = timedelta(hours=1)  # a machine that slept, or a clock that was set, is noticed within the hour
# Backups are named in local time, and in autumn the clock goes back an hour: a name up to this far ahead of
# the clock is that hour, not a clock that ran fast.
FUTURE_SLACK = timedelta(hours=1)


def in_future(taken: Mapping[str, datetime], now: datetime) -> list[str]:
    """Of the backups `taken` (name -> when it was made), those named later than `now`: made while the clock
    ran fast (a Pi whose date was wrong for an evening). Sorted by name."""
    return sorted(name for name, when in taken.items() if when > now + FUTURE_SLACK)


def to_remove(taken: Mapping[str, datetime], keep_last: int = KEEP_LAST, now: datetime | None = None) -> list[str]:
    """Of the backups `taken` (name -> when it was made), the names to remove, oldest first: everything but the
    `keep_last` newest and the newest of each calendar month. Ties in time are ordered by name.

    The order comes from the times in the backups' names, and a clock that ran fast makes names that lie. So,
    given `now`, a backup named in the future (`in_future`) is never removed and takes no place among the
    newest or a month's: a real backup is never removed because others carry later names. Once the clock
    reaches its time, it is judged like any other."""
    future = set(in_future(taken, now)) if now is not None else set()
    taken = {name: when for name, when in taken.items() if name not in future}
    newest_first = sorted(taken, key=lambda name: (taken[name], name), reverse=True)
    kept = set(newest_first[:max(keep_last, 0)])
    months_seen: set[tuple[int, int]] = set()
    for name in newest_first:
        month = (taken[name].year, taken[name].month)
        if month not in months_seen:
            months_seen.add(month)
            kept.add(name)
    return [name for name in reversed(newest_first) if name not in kept]


def is_due(last_success: datetime | None, now: datetime, every: timedelta = EVERY) -> bool:
    """Whether a scheduled backup is due: never made, made `every` ago or longer, or made "in the future" (the
    clock was set back, and waiting for it to catch up could mean weeks without a backup)."""
    if last_success is None:
        return True
    return now - last_success >= every or last_success > now


def wait_before_next(last_success: datetime | None, now: datetime, every: timedelta = EVERY) -> timedelta:
    """How long to sleep before looking again: until the next backup is due, never longer than an hour."""
    if is_due(last_success, now, every):
        return timedelta(0)
    return min(last_success + every - now, LONGEST_WAIT)


def is_stale(last_success: datetime | None, now: datetime) -> bool:
    """Whether the family should be warned: no backup in two days (two daily ones missed)."""
    return last_success is None or now - last_success >= STALE


def age_in_words(then: datetime, now: datetime) -> str:
    """'just now', '5 minutes ago', '3 hours ago', '1 day ago': how long ago `then` was, rounded down."""
    seconds = max(int((now - then).total_seconds()), 0)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'} ago"
    return "just now"
