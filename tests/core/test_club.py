"""Club nights in the core: what a bye is worth, the standings, a round's rules and refusals."""


import pytest

from scorepad.core.club import (
    ByeRule,
    ClubError,
    Round,
    TableResult,
    bye_score,
    movement,
    round_rules,
    standings,
    time_up,
)
from scorepad.core.rules import PRESETS

# The movement itself (who sits where each round) is tested in test_club_movement.py.


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
        (3, "D", 1, 580, None, 1, 1),  # its one table plays on: no round of its is over yet
        (4, "B", 0, 420, 300, 2, 0),
    ]


def test_before_any_result_everyone_shares_the_first_place_the_one_on_a_bye_too():
    """Round 1 of three teams under way: the team on a bye is not ranked below the tables still playing."""
    results = [TableResult(1, (("A",), ("B",)), (0, 0), None, over=False)]
    for tie_breaks in (("wins", "points", "high_round"), ("points", "wins", "high_round"), ("high_round",)):
        assert [s.rank for s in standings("ABC", results, {1: ("C",)}, tie_breaks)] == [1, 1, 1]


ROUND_1 = [TableResult(1, (("A",), ("B",)), (500, 300), 0), TableResult(1, (("C",), ("D",)), (200, 610), 1)]
ROUND_2 = [TableResult(2, (("A",), ("D",)), (320, 400), 1), TableResult(2, (("B",), ("E",)), (450, 100), 0)]


@pytest.mark.parametrize(("rule", "e_points", "e_wins"), [
    (ByeRule("winners"), 555, 1),  # the average of round 1's winners, 500 and 610
    (ByeRule("own"), 100, 1),  # E's own average of the rounds E played: 100 in round 2
    (ByeRule("fixed", 250), 250, 1),
    (ByeRule("none"), 0, 0),
])
def test_a_bye_is_worth_what_the_club_chose(rule, e_points, e_wins):
    table = {s.entrant: s for s in standings("ABCDE", ROUND_1 + ROUND_2, {1: ("E",), 2: ("C",)}, bye_rule=rule)}
    assert (table["E"].points, table["E"].wins, table["E"].byes, table["E"].played) == (
        e_points + 100, e_wins, 1, 1)


def test_with_no_score_for_a_bye_everyone_is_ranked_by_the_average_of_the_rounds_they_played():
    """C sat round 2 out: 200 in one round is an average of 200; B's 750 over two is 375."""
    table = standings("ABCDE", ROUND_1 + ROUND_2, {1: ("E",), 2: ("C",)}, ("points",), ByeRule("none"))
    assert [(s.entrant, s.average) for s in table] == [
        ("D", 505.0), ("A", 410.0), ("B", 375.0), ("C", 200.0), ("E", 100.0)]


def test_an_own_average_bye_waits_for_a_round_played():
    """E sits out round 1 before playing any: nothing yet to average, so the bye is worth nothing so far."""
    table = {s.entrant: s for s in standings("ABCDE", ROUND_1, {1: ("E",)}, bye_rule=ByeRule("own"))}
    assert (table["E"].points, table["E"].wins) == (0, 0)


@pytest.mark.parametrize(("kind", "points"), [("fixed", None), ("winners", 10), ("fixed", -1), ("luck", None)])
def test_a_bye_rule_that_cannot_be_is_refused(kind, points):
    with pytest.raises(ClubError):
        ByeRule(kind, points)


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
