"""Evenings (a night's games stay together past midnight) and the score chart's drawing."""

from datetime import date, datetime, timedelta, timezone
from xml.etree import ElementTree

import pytest

from scorepad.core.chart import score_chart
from scorepad.core.evenings import clock_words, evening_bounds, evening_of, group_by_evening

TZ = timezone(timedelta(hours=-5))


@pytest.mark.parametrize(("moment", "evening"), [
    (datetime(2026, 11, 20, 19, 30, tzinfo=TZ), date(2026, 11, 20)),
    (datetime(2026, 11, 20, 23, 59, tzinfo=TZ), date(2026, 11, 20)),
    (datetime(2026, 11, 21, 0, 30, tzinfo=TZ), date(2026, 11, 20)),   # past midnight: still Friday's evening
    (datetime(2026, 11, 21, 5, 59, tzinfo=TZ), date(2026, 11, 20)),
    (datetime(2026, 11, 21, 6, 0, tzinfo=TZ), date(2026, 11, 21)),    # breakfast is a new day
    (datetime(2026, 11, 21, 14, 0, tzinfo=TZ), date(2026, 11, 21)),
])
def test_a_game_belongs_to_the_evening_it_started_in(moment, evening):
    assert evening_of(moment) == evening


def test_games_are_grouped_by_evening_newest_first_across_midnight():
    games = [datetime(2026, 11, 21, 1, 15, tzinfo=TZ), datetime(2026, 11, 20, 22, 0, tzinfo=TZ),
             datetime(2026, 11, 20, 20, 0, tzinfo=TZ), datetime(2026, 11, 14, 21, 0, tzinfo=TZ)]
    groups = group_by_evening(games, lambda g: g)
    assert [(evening, len(items)) for evening, items in groups] == [(date(2026, 11, 20), 3), (date(2026, 11, 14), 1)]
    assert groups[0][1] == games[:3]  # order within the evening is kept


@pytest.mark.parametrize(("now", "moment", "words"), [
    ((2026, 11, 23, 23, 52), (2026, 11, 24, 0, 12), "00:12"),  # a round past midnight ends tonight
    ((2026, 11, 24, 5, 50), (2026, 11, 24, 6, 10), "06:10"),  # over the evening's end, still minutes away
    ((2026, 11, 23, 20, 0), (2026, 11, 23, 21, 30), "21:30"),
    ((2026, 11, 23, 20, 0), (2026, 11, 22, 21, 30), "2026-11-22 21:30"),  # another evening's
    ((2026, 11, 24, 10, 0), (2026, 11, 23, 21, 30), "2026-11-23 21:30"),
])
def test_tonights_times_are_said_as_a_clock_says_them_past_midnight_too(now, moment, words):
    assert clock_words(datetime(*moment, tzinfo=TZ), datetime(*now, tzinfo=TZ)) == words


def test_an_evening_range_runs_from_six_to_six():
    start, end = evening_bounds(date(2026, 11, 20), date(2026, 11, 21), TZ)
    assert start == datetime(2026, 11, 20, 6, 0, tzinfo=TZ)
    assert end == datetime(2026, 11, 22, 6, 0, tzinfo=TZ)
    assert evening_bounds(None, None, TZ) == (None, None)


def test_the_chart_draws_both_lines_the_target_and_the_sets():
    svg = score_chart([(65, 25), (-5, 50), (60, 70)], 500, [(1, 0)], ("Us", "<Them>"))
    root = ElementTree.fromstring(svg)  # well-formed XML: names are escaped
    ns = "{http://www.w3.org/2000/svg}"
    lines = root.findall(f"{ns}polyline")
    assert [line.get("class") for line in lines] == ["line team-0", "line team-1"]
    assert all(len(line.get("points").split()) == 4 for line in lines)  # hand 0 and three hands
    assert root.find(f"{ns}line[@class='target']") is not None
    marks = root.findall(f"{ns}circle")
    assert len(marks) == 1 and marks[0].find(f"{ns}title").text == "Us set on hand 2"
    assert "&lt;Them&gt;" in svg


def test_a_chart_with_no_hands_or_no_target_still_draws():
    root = ElementTree.fromstring(score_chart([], None, [], ("A", "B")))
    assert root.get("aria-label") == "No hands yet."


def test_each_sides_line_differs_by_its_stroke_not_by_colour_alone():
    """A colour-blind player follows each side's line by its dashes (three sides: solid, dashes, dots), none of
    them the target's."""
    root = ElementTree.fromstring(score_chart([(20, 30, 40)], 500, [], ("A", "B", "C")))
    ns = "{http://www.w3.org/2000/svg}"
    dashes = [line.get("stroke-dasharray") for line in root.findall(f"{ns}polyline")]
    assert len(set(dashes)) == 3 and None not in dashes
    assert "4 4" not in dashes  # the target's own


@pytest.mark.parametrize("running", [
    [(65, -40), (200, -40), (560, -40)],  # "−40" just under "0"
    [(10, 5), (30, 20)],  # the highest just over "0" (the target is off the chart here)
    [(-500, 20), (-1000, 40)],
])
def test_the_axis_totals_never_print_over_each_other(running):
    root = ElementTree.fromstring(score_chart(running, None, [], ("Us", "Them")))
    ns = "{http://www.w3.org/2000/svg}"
    axis = sorted(float(t.get("y")) for t in root.findall(f"{ns}text") if t.get("text-anchor") == "end"
                  and not t.text.startswith("hand"))
    assert "0" in [t.text for t in root.findall(f"{ns}text")]
    assert all(b - a >= 16 for a, b in zip(axis, axis[1:], strict=False)), axis
