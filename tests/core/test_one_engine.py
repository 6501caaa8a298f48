"""One scoring engine for every table: each rule of a hand and of the game's end is one function, and a hand of
two teams goes through the same functions as a hand of three sides, of players on their own or of two players
bidding. Only the words differ (two teams are "Bidders" and "Opponents"), and they live in one place."""

import inspect
from dataclasses import replace

import pytest

from scorepad.core import scoring
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, play_game, score_hand

RULE_FUNCTIONS = ("_score", "_played", "_throw_in", "_no_marriage", "_renege", "_award", "_lose_bid", "_tally",
                  "decide_winner", "_first_to_target", "_at_the_floor", "_leader_after_last_hand")
FUNCTIONS = {name for name, value in vars(scoring).items() if inspect.isfunction(value)}

TWO_TEAMS = PRESETS["double-deck"]
TABLES = {
    "two teams of two": TWO_TEAMS,
    "two teams of three": replace(TWO_TEAMS, players_per_side=3),
    "three partnerships": replace(TWO_TEAMS, sides=3),
    "three players": replace(PRESETS["three-handed"], auto_throw_in_margin=None),
    "two players bidding": replace(PRESETS["three-handed"], sides=2),
}


def test_each_rule_is_one_function_with_no_copy_for_other_tables():
    assert set(RULE_FUNCTIONS) <= FUNCTIONS
    copies = [name for name in FUNCTIONS if name.endswith(("_sides", "_teams", "_two", "_n"))
              and not name == "_two_teams"]
    assert not copies, f"rules written twice: {copies}"
    twins = [name for name in FUNCTIONS if any(name != rule and name.startswith(rule + "_") and
                                               name.removeprefix(rule + "_") in ("sides", "teams", "n")
                                               for rule in RULE_FUNCTIONS)]
    assert not twins


def _hands(rules):
    """One hand of every kind the table has, each valid under `rules`."""
    n, low, points = rules.sides, rules.min_bid, rules.hand_points
    step = rules.counter_step
    counters = (points - (n - 1) * step, *([step] * (n - 1)))
    meld = (low // 2 - low // 2 % rules.meld_step,) * n
    return {
        "made": Hand(0, low, (low,) * n, counters),
        "set": Hand(0, low, (0,) * n, tuple(reversed(counters))),
        "throw_in": Hand(0, low, meld, kind="throw_in"),
        "no_marriage": Hand(0, low, meld, kind="no_marriage"),
        "renege_by_bidders": Hand(0, low, meld, kind="renege", renege_team=0),
        "renege_by_others": Hand(0, low, meld, kind="renege", renege_team=1),
    }


def _calls(monkeypatch, run) -> set[str]:
    called = set()
    for name in RULE_FUNCTIONS:
        original = getattr(scoring, name)

        def recorder(*args, _name=name, _original=original, **kwargs):
            called.add(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(scoring, name, recorder)
    run()
    monkeypatch.undo()
    return called


@pytest.mark.parametrize("kind", list(_hands(TWO_TEAMS)))
@pytest.mark.parametrize("table", [name for name in TABLES if name != "two teams of two"])
def test_two_teams_and_every_other_table_go_through_the_same_functions(monkeypatch, table, kind):
    def scored(rules):
        hand = _hands(rules)[kind]
        return _calls(monkeypatch, lambda: play_game(rules, [hand]))

    other = TABLES[table]
    # a renege by one of three sides leaves a third side, which scores its meld: the award, one call more
    third_side = {"_award"} if kind == "renege_by_others" and other.sides > 2 else set()
    assert scored(TWO_TEAMS) == scored(other) - third_side


def test_the_sentences_differ_only_in_how_the_sides_are_named():
    hand = Hand(0, 50, (30, 30), (30, 20))
    teams = score_hand(TWO_TEAMS, hand).explanation
    players = score_hand(replace(PRESETS["double-deck"], players_per_side=3), hand).explanation
    assert teams == players
    assert teams[0].startswith("Bidders' meld 30") and teams[-1].startswith("Opponents score")


def test_a_losing_floor_ends_a_game_of_two_players_as_it_ends_one_of_two_teams():
    rules = replace(PRESETS["three-handed"], sides=2, floor=-500)
    set_hand = Hand(0, 250, (0, 0), (0, 250))
    state = play_game(rules, [set_hand, set_hand], ("Ann", "Bob"))
    assert (state.winner, state.decided_on) == (1, 2)
    assert state.reason == "Ann fell to −500, at or below the losing floor of −500; Bob wins (−500 to 500)."
