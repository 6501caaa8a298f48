"""Club nights in the core: the movement of both formats, what a bye is worth, and the standings."""

import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.club import (
    ClubError,
    Round,
    TableResult,
    bye_score,
    movement,
    partners_of,
    round_rules,
    standings,
    time_up,
)
from scorepad.rules import PRESETS

TABLES = range(3, 21)


def everyone_once(night, players):
    """Each round seats every player once, or gives them a bye, never both."""
    for number, round_ in enumerate(night):
        seated = [p for table in round_.tables for p in table]
        assert Counter(seated + list(round_.byes)) == Counter(players), f"round {number + 1}"


def partnerships(night) -> list[frozenset]:
    return [pair for round_ in night for table in round_.tables for pair in partners_of(table)]


# --- progressive -------------------------------------------------------------------------------------------

def test_north_stays_south_moves_down_one_table_east_up_one_and_west_up_two():
    first, second = movement("progressive", range(12), 2)
    assert first.tables == ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11))
    assert second.tables == ((0, 9, 6, 7), (4, 1, 10, 11), (8, 5, 2, 3))


@pytest.mark.parametrize("tables", TABLES)
@pytest.mark.parametrize("spare", [0, 1, 2, 3])
def test_a_progressive_night_seats_everyone_every_round_bar_the_byes(tables, spare):
    players = [f"p{i}" for i in range(4 * tables + spare)]
    night = movement("progressive", players, 6)
    everyone_once(night, players)
    assert all(len(round_.tables) == tables and len(round_.byes) == spare for round_ in night)


@pytest.mark.parametrize("tables", TABLES)
def test_the_fixed_plan_alone_never_repeats_a_partner_for_as_many_rounds_as_there_are_tables(tables):
    players = list(range(4 * tables))
    night = movement("progressive", players, tables)
    pairs = partnerships(night)
    assert len(pairs) == len(set(pairs))
    assert all(round_.tables[t][0] == players[4 * t] for round_ in night for t in range(tables))  # North stays


@pytest.mark.parametrize("tables", TABLES)
def test_past_the_plan_a_search_still_gives_everyone_new_partners_for_twice_as_many_rounds_as_tables(tables):
    players = list(range(4 * tables + tables % 4))
    pairs = partnerships(movement("progressive", players, 2 * tables))
    assert len(pairs) == len(set(pairs))


@settings(max_examples=40, deadline=None)
@given(tables=st.integers(3, 20), spare=st.integers(0, 3), data=st.data())
def test_progressive_partners_never_repeat_when_it_can_be_avoided(tables, spare, data):
    rounds = data.draw(st.integers(1, min(2 * tables, 12)))
    players = list(range(4 * tables + spare))
    night = movement("progressive", players, rounds)
    everyone_once(night, players)
    pairs = partnerships(night)
    assert len(pairs) == len(set(pairs))


@settings(max_examples=40, deadline=None)
@given(tables=st.integers(3, 20), spare=st.integers(1, 3), rounds=st.integers(1, 12))
def test_byes_pass_round_so_nobody_sits_out_twice_before_everyone_has_once(tables, spare, rounds):
    players = list(range(4 * tables + spare))
    night = movement("progressive", players, rounds)
    for upto in range(1, rounds + 1):
        sat_out = Counter(p for round_ in night[:upto] for p in round_.byes)
        counts = [sat_out[p] for p in players]
        assert max(counts) - min(counts) <= 1


@pytest.mark.parametrize(("count", "byes"), [
    (13, ((12,), (11,), (10,))),
    (14, ((12, 13), (10, 11), (8, 9))),
    (15, ((12, 13, 14), (9, 10, 11), (6, 7, 8))),
])
def test_one_to_three_spare_players_sit_out_from_the_last_registered_up(count, byes):
    night = movement("progressive", range(count), 3)
    assert tuple(tuple(sorted(round_.byes)) for round_ in night) == byes


def test_a_player_back_from_a_bye_takes_the_seat_of_the_one_who_sits_out():
    first, second = movement("progressive", range(13), 2)
    assert first.byes == (12,) and second.byes == (11,)
    planned = (4, 1, 10, 11)  # table 2 by the plan: West 11 (moved up two) is the next to sit out
    assert second.tables[1] == planned[:3] + (12,)


# --- partners ----------------------------------------------------------------------------------------------

def test_a_teams_stay_and_b_teams_move_up_one_table():
    night = movement("partners", "ABCDEF", 3)
    assert [round_.tables for round_ in night] == [
        (("A", "D"), ("B", "E"), ("C", "F")),
        (("A", "F"), ("B", "D"), ("C", "E")),
        (("A", "E"), ("B", "F"), ("C", "D")),
    ]


@pytest.mark.parametrize("tables", TABLES)
@pytest.mark.parametrize("odd", [0, 1])
def test_a_partners_night_seats_every_team_every_round_and_no_two_meet_twice(tables, odd):
    teams = [f"t{i}" for i in range(2 * tables - odd)]
    night = movement("partners", teams, tables)
    everyone_once(night, teams)
    meetings = [frozenset(table) for round_ in night for table in round_.tables]
    assert len(meetings) == len(set(meetings))
    assert all(len(round_.byes) == odd for round_ in night)
    if odd:  # the bye goes round: every round someone else
        assert len({round_.byes for round_ in night}) == tables


# --- refusals ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "players", "rounds"), [
    ("progressive", "ABC", 2), ("partners", "A", 2), ("progressive", "ABCDA", 2), ("progressive", "ABCD", 0),
    ("howell", "ABCD", 2),
])
def test_a_night_that_cannot_be_seated_is_refused_with_a_reason(kind, players, rounds):
    with pytest.raises(ClubError):
        movement(kind, players, rounds)


# --- byes and standings ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("results", "worth"), [
    ([TableResult(1, (("a",), ("b",)), (520, 300), 0), TableResult(1, (("c",), ("d",)), (290, 501), 1)], 511),
    ([TableResult(1, (("a",), ("b",)), (500, 300), 0), TableResult(1, (("c",), ("d",)), (200, 501), 1)], 501),
    ([TableResult(1, (("a",), ("b",)), (500, 300), None, over=False)], None),
    ([TableResult(1, (("a",), ("b",)), (500, 300), 0), TableResult(1, (("c",), ("d",)), (90, 40), None, over=False)],
     None),  # a table still plays: the bye waits for the round's end
    ([], None),
])
def test_a_bye_is_worth_the_average_of_the_rounds_winners_halves_up_once_the_round_is_over(results, worth):
    assert bye_score(results) == worth


def test_standings_count_wins_points_high_round_and_byes():
    results = [TableResult(1, (("A",), ("B",)), (500, 300), 0), TableResult(2, (("A",), ("C",)), (200, 510), 1),
               TableResult(2, (("B",), ("D",)), (120, 80), None, over=False)]
    table = standings("ABCD", results, byes={1: ("C", "D")})
    assert [(s.rank, s.entrant, s.wins, s.points, s.high_round, s.played, s.byes) for s in table] == [
        (1, "C", 2, 1010, 510, 1, 1),
        (2, "A", 1, 700, 500, 2, 0),
        (3, "D", 1, 580, 80, 1, 1),
        (4, "B", 0, 420, 300, 2, 0),
    ]


def test_a_progressive_table_gives_each_partner_the_sides_points():
    result = TableResult(1, (("N", "S"), ("E", "W")), (430, 250), 0)
    table = {s.entrant: (s.wins, s.points) for s in standings("NESW", [result], tie_breaks=("points",))}
    assert table == {"N": (1, 430), "S": (1, 430), "E": (0, 250), "W": (0, 250)}


TIE_CASES = [  # (tie breaks, expected (rank, entrant)) for: A 2 wins 700 points, high round 400; B 2 wins 900
    # high 500; C and D 1 win 900 high 600
    (("wins", "points"), [(1, "B"), (2, "A"), (3, "C"), (3, "D")]),
    (("points", "wins"), [(1, "B"), (2, "C"), (2, "D"), (4, "A")]),
    (("points", "high_round"), [(1, "C"), (1, "D"), (3, "B"), (4, "A")]),
    (("high_round",), [(1, "C"), (1, "D"), (3, "B"), (4, "A")]),
]


@pytest.mark.parametrize(("tie_breaks", "ranked"), TIE_CASES)
def test_ties_are_broken_as_configured_and_those_still_level_share_a_rank(tie_breaks, ranked):
    results = [
        TableResult(1, (("A",), ()), (400, 0), 0), TableResult(2, (("A",), ()), (300, 0), 0),
        TableResult(1, (("B",), ()), (500, 0), 0), TableResult(2, (("B",), ()), (400, 0), 0),
        TableResult(1, (("C",), ()), (600, 0), 0), TableResult(2, (("C",), ()), (300, 900), 1),
        TableResult(1, (("D",), ()), (600, 0), 0), TableResult(2, (("D",), ()), (300, 900), 1),
    ]  # (nobody on the other side: only A to D are ranked)
    table = standings("ABCD", results, tie_breaks=tie_breaks)
    assert [(s.rank, s.entrant) for s in table] == ranked


def test_an_unknown_tie_break_is_refused():
    with pytest.raises(ClubError):
        standings("AB", [], tie_breaks=("luck",))


def test_a_round_is_a_value():
    assert movement("partners", "AB", 1) == [Round((("A", "B"),), ())]


def test_the_club_core_imports_nothing_of_flask_or_the_database():
    code = ("import sys, scorepad.club; bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'flask', 'werkzeug', 'sqlite_utils', 'sqlite3', 'jinja2'}); print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(("end", "size", "started", "up"), [
    ("time", 50, "2026-11-20T19:30:00+00:00", "2026-11-20T20:20:00+00:00"),
    ("time", 50, None, None),
    ("hands", 4, "2026-11-20T19:30:00+00:00", None),
])
def test_the_directors_clock_runs_out_the_rounds_minutes_after_it_started(end, size, started, up):
    assert time_up(started, end, size) == up


@pytest.mark.parametrize(("end", "size", "option", "value"), [
    ("hands", 4, "hands_limit", 4), ("target", 300, "target", 300), ("time", 50, "hands_limit", None),
])
def test_each_tables_game_is_the_rule_set_with_the_rounds_length(end, size, option, value):
    assert getattr(round_rules(PRESETS["double-deck"], end, size), option) == value


@pytest.mark.parametrize(("end", "size"), [("hands", 0), ("time", 0), ("time", 301), ("target", 0), ("darts", 4)])
def test_a_round_length_that_does_not_fit_is_refused(end, size):
    with pytest.raises(ClubError):
        round_rules(PRESETS["double-deck"], end, size)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_club_table_plays_only_rules_for_two_teams_of_two(preset):
    rules = PRESETS[preset]
    if (rules.sides, rules.players_per_side) == (2, 2):
        assert round_rules(rules, "hands", 4).hands_limit == 4
    else:  # its full copy could not come back: a club table seats North, East, South and West
        with pytest.raises(ClubError, match="two teams of two"):
            round_rules(rules, "hands", 4)
