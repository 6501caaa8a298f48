"""Games grouped by evening. Pure: times in, groups out.

An evening runs from 06:00 to 06:00 the next morning, local time: a game started at half past one at night
belongs to the evening before, as the players remember it.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

EVENING_STARTS = time(6, 0)
# The evenings a search may name: a date far outside them (9999-12-31) would overflow the evening's end.
FIRST_EVENING, LAST_EVENING = date(2000, 1, 1), date(2099, 12, 31)


def evening_of(moment: datetime) -> date:
    """The evening a game started at `moment` (local, aware or naive) belongs to."""
    shifted = moment - timedelta(hours=EVENING_STARTS.hour, minutes=EVENING_STARTS.minute)
    return shifted.date()


def clock_words(moment: datetime, now: datetime) -> str:
    """A moment as a clock on the wall says it ("00:12") when it is tonight's (the evening `now` is in, or less
    than twelve hours from `now`, like the end of a round under way); another day's with its date. Both aware
    and in the same (local) zone."""
    tonight = evening_of(moment) == evening_of(now) or abs(moment - now) < timedelta(hours=12)
    return moment.strftime("%H:%M" if tonight else "%Y-%m-%d %H:%M")


def evening_bounds(first: date | None, last: date | None, tz) -> tuple[datetime | None, datetime | None]:
    """The moments (aware, in `tz`) from the start of evening `first` to the end of evening `last`. Dates from
    FIRST_EVENING to LAST_EVENING give moments that convert to any time zone; the view refuses others."""
    start = datetime.combine(first, EVENING_STARTS, tz) if first else None
    end = datetime.combine(last + timedelta(days=1), EVENING_STARTS, tz) if last else None
    return start, end


def search_bounds(first: date | None, last: date | None, tz) -> tuple[datetime | None, datetime | None]:
    """The moments (aware, in `tz`) a search for evenings `first` to `last` covers: those evenings, and those
    calendar days too, so that a game started at 04:09 on the 27th is found by the 26th (its evening) and by the
    27th (the date on a clock). Dates as `evening_bounds` takes them."""
    start, end = evening_bounds(first, last, tz)
    return (datetime.combine(first, time(0, 0), tz) if first else None), end


def played_words(moment: datetime) -> str:
    """When a game started, as a list says it: "Thu 26 Nov 2026, 19:05"; past midnight with its evening, "Thu 26 Nov
    2026, 04:09 after midnight", so the date said is the evening the game is listed and found under."""
    evening = evening_of(moment)
    if evening == moment.date():
        return f"{moment:%a %-d %b %Y, %H:%M}"
    return f"{evening:%a %-d %b %Y}, {moment:%H:%M} after midnight"


def group_by_evening(items, moment_of) -> list[tuple[date, list]]:
    """[(evening, items)], newest evening first, items keeping their order within it."""
    groups: dict[date, list] = {}
    for item in items:
        groups.setdefault(evening_of(moment_of(item)), []).append(item)
    return sorted(groups.items(), key=lambda pair: pair[0], reverse=True)
