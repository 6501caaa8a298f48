"""Every row of RULES.md §1, per preset, as a table of hands and the points each team scores.

Each case: (name, preset, hand, expected points (team 0, team 1), expected `made`). Team 0 bids unless the
case says otherwise; the name says which rule it shows.
"""

from dataclasses import replace

import pytest

from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, score_hand

P, T, N, R, D = "played", "throw_in", "no_marriage", "renege", "redeal"

CASES = [
    # --- double-deck (seed 002) -------------------------------------------------------------------------
    ("bid 65 with meld 40 and 25 counters is made (002 §5.C)", "double-deck",
     Hand(0, 65, (40, 12), (25, 25)), (65, 25), True),
    ("bid 65 with meld 40 and 24 counters is set", "double-deck",
     Hand(0, 65, (40, 12), (24, 26)), (-65, 26), False),
    ("bidders' meld 18 is off the board but 50 counters make a bid of 50", "double-deck",
     Hand(0, 50, (18, 0), (50, 0)), (50, 0), True),
    ("opponents with meld 30 and 19 counters score nothing", "double-deck",
     Hand(0, 50, (30, 30), (31, 19)), (61, 0), True),
    ("bidders who take 19 counters lose their meld and are set", "double-deck",
     Hand(0, 50, (30, 0), (19, 31)), (-50, 31), False),
    ("opponents who take 20 counters save meld 25", "double-deck",
     Hand(0, 50, (30, 25), (30, 20)), (60, 45), True),
    ("the second team can bid too", "double-deck",
     Hand(1, 55, (12, 40), (25, 25)), (25, 65), True),
    ("throw-in: bidders lose the bid, opponents get meld plus 20", "double-deck",
     Hand(0, 60, (30, 25), kind=T), (-60, 45), None),
    ("throw-in: opponents' meld off the board still gets the 20", "double-deck",
     Hand(0, 60, (30, 15), kind=T), (-60, 20), None),
    ("no marriage is scored as a throw-in", "double-deck",
     Hand(0, 55, (0, 25), kind=N), (-55, 45), None),
    ("no marriage on a bid forced on the dealer gives the opponents meld only", "double-deck",
     Hand(0, 50, (0, 25), kind=N, forced=True), (-50, 25), None),
    ("renege by bidders: minus the bid, opponents meld plus 20", "double-deck",
     Hand(0, 60, (30, 25), kind=R, renege_team=0), (-60, 45), None),
    ("renege by opponents: bidders plus the bid, opponents minus it", "double-deck",
     Hand(0, 60, (30, 25), kind=R, renege_team=1), (60, -60), None),
    ("renege by the bidding second team", "double-deck",
     Hand(1, 60, (25, 30), kind=R, renege_team=1), (45, -60), None),
    # --- double-deck-shg (seed 001) ----------------------------------------------------------------------
    ("shg: unsaved bidders still score counters but are set", "double-deck-shg",
     Hand(0, 50, (30, 25), (19, 31)), (-50, 56), False),
    ("shg: unsaved opponents still score their counters", "double-deck-shg",
     Hand(0, 50, (30, 30), (35, 15)), (65, 15), True),
    ("shg: throw-in gives opponents their meld only", "double-deck-shg",
     Hand(0, 60, (40, 25), kind=T), (-60, 25), None),
    ("shg: throw-in gives nothing for meld off the board", "double-deck-shg",
     Hand(0, 60, (40, 15), kind=T), (-60, 0), None),
    ("shg: no marriage costs the bid and neither side scores meld", "double-deck-shg",
     Hand(0, 55, (0, 40), kind=N), (-55, 0), None),
    ("shg: a bid more than meld + 50 is an automatic throw-in", "double-deck-shg",
     Hand(0, 80, (25, 30)), (-80, 30), None),
    ("shg: automatic throw-in ignores counters that were typed", "double-deck-shg",
     Hand(0, 80, (25, 30), (40, 10)), (-80, 30), None),
    ("shg: a bid exactly meld + 50 is played", "double-deck-shg",
     Hand(0, 75, (25, 30), (50, 0)), (75, 0), True),
    ("shg: bidders' meld below 20 is an automatic throw-in", "double-deck-shg",
     Hand(0, 50, (15, 30)), (-50, 30), None),
    ("shg: no marriage with low meld is scored as no marriage, not a throw-in", "double-deck-shg",
     Hand(0, 50, (15, 30), kind=N), (-50, 0), None),
    ("shg: renege by bidders", "double-deck-shg",
     Hand(0, 60, (30, 25), kind=R, renege_team=0), (-60, 45), None),
    # --- double-pack-bicycle (seed 000) ------------------------------------------------------------------
    ("bicycle: made 500 scores meld and counters", "double-pack-bicycle",
     Hand(0, 500, (200, 100), (300, 200)), (500, 300), True),
    ("bicycle: opponents without a counter lose their meld", "double-pack-bicycle",
     Hand(0, 500, (200, 100), (500, 0)), (700, 0), True),
    ("bicycle: any counter saves meld", "double-pack-bicycle",
     Hand(0, 500, (300, 100), (490, 10)), (790, 110), True),
    ("bicycle: set costs the bid", "double-pack-bicycle",
     Hand(0, 600, (200, 100), (300, 200)), (-600, 300), False),
    ("bicycle: no minimum meld: 50 counts", "double-pack-bicycle",
     Hand(0, 500, (50, 50), (460, 40)), (510, 90), True),
    ("bicycle: throw-in gives opponents their meld", "double-pack-bicycle",
     Hand(0, 600, (200, 50), kind=T), (-600, 50), None),
    ("bicycle: all pass is a redeal, nobody scores", "double-pack-bicycle",
     Hand(0, 0, (0, 0), kind=D), (0, 0), None),
    ("bicycle: renege by bidders gives opponents meld plus 200", "double-pack-bicycle",
     Hand(0, 600, (200, 50), kind=R, renege_team=0), (-600, 250), None),
    ("bicycle: no marriage is a throw-in", "double-pack-bicycle",
     Hand(0, 550, (0, 120), kind=N), (-550, 120), None),
    # --- double-deck-gamerules (seed 003) -----------------------------------------------------------------
    ("gamerules: opponents score nothing when bidders make it", "double-deck-gamerules",
     Hand(0, 50, (30, 40), (30, 20)), (60, 0), True),
    ("gamerules: a set costs the bidders their meld and counters", "double-deck-gamerules",
     Hand(0, 70, (30, 20), (20, 30)), (-50, 50), False),
    ("gamerules: no minimum meld and nothing needed to save it", "double-deck-gamerules",
     Hand(0, 70, (30, 10), (20, 30)), (-50, 40), False),
    ("gamerules: throw-in costs the bidders their meld, opponents nothing", "double-deck-gamerules",
     Hand(0, 60, (30, 40), kind=T), (-30, 0), None),
    ("gamerules: throw-in with no meld costs nothing", "double-deck-gamerules",
     Hand(0, 60, (0, 40), kind=T), (0, 0), None),
    ("gamerules: no marriage is a throw-in", "double-deck-gamerules",
     Hand(0, 55, (12, 40), kind=N), (-12, 0), None),
    ("gamerules: renege by bidders as in 002", "double-deck-gamerules",
     Hand(0, 60, (30, 10), kind=R, renege_team=0), (-60, 30), None),
    ("gamerules: renege by opponents", "double-deck-gamerules",
     Hand(1, 63, (30, 10), kind=R, renege_team=0), (-63, 63), None),
    # --- single-deck (seed 004) ----------------------------------------------------------------------------
    ("single: made 250 scores meld and counters", "single-deck",
     Hand(0, 250, (150, 60), (150, 100)), (300, 160), True),
    ("single: opponents without a counter lose their meld", "single-deck",
     Hand(0, 250, (150, 60), (250, 0)), (400, 0), True),
    ("single: set costs the bid", "single-deck",
     Hand(0, 350, (150, 60), (190, 60)), (-350, 120), False),
    ("single: a bid more than meld + 250 is not on the board: automatic throw-in", "single-deck",
     Hand(0, 420, (160, 80)), (-420, 80), None),
    ("single: a bid of meld + 250 is played", "single-deck",
     Hand(0, 410, (160, 80), (250, 0)), (410, 0), True),
    ("single: throw-in gives opponents their meld", "single-deck",
     Hand(0, 300, (100, 80), kind=T), (-300, 80), None),
    ("single: renege by bidders gives opponents meld plus 100", "single-deck",
     Hand(0, 300, (100, 80), kind=R, renege_team=0), (-300, 180), None),
]


@pytest.mark.parametrize(("preset", "hand", "points", "made"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_preset_scores_the_hand_as_rules_md_says(preset, hand, points, made):
    result = score_hand(PRESETS[preset], hand)
    assert result.points == points
    assert result.made is made


def test_chip_scoring_costs_a_set_bidder_nothing_and_gives_the_opponents_the_bid():
    rules = replace(PRESETS["single-deck"], set_penalty="chips")
    result = score_hand(rules, Hand(0, 350, (150, 60), (190, 60)))
    assert result.points == (0, 120 + 350)
    assert result.made is False
    assert "chip scoring" in " ".join(result.explanation)


def test_chip_scoring_gives_the_opponents_the_bid_on_a_throw_in():
    rules = replace(PRESETS["single-deck"], set_penalty="chips")
    assert score_hand(rules, Hand(0, 300, (100, 80), kind=T)).points == (0, 380)


def test_chip_scoring_spares_reneging_opponents_a_negative_score():
    rules = replace(PRESETS["single-deck"], set_penalty="chips")
    assert score_hand(rules, Hand(0, 300, (100, 80), kind=R, renege_team=1)).points == (300, 0)


def test_chip_scoring_on_no_marriage_without_meld_gives_the_opponents_the_bid():
    rules = replace(PRESETS["double-deck-shg"], set_penalty="chips")
    assert score_hand(rules, Hand(0, 55, (0, 40), kind=N)).points == (0, 55)


def test_house_rule_throw_in_award_of_meld_only():
    rules = replace(PRESETS["double-deck"], throw_in_award="meld")
    assert score_hand(rules, Hand(0, 60, (30, 25), kind=T)).points == (-60, 25)


def test_house_rule_throw_in_award_of_nothing():
    rules = replace(PRESETS["double-deck"], throw_in_award="nothing")
    assert score_hand(rules, Hand(0, 60, (30, 25), kind=T)).points == (-60, 0)


def test_house_rule_unsaved_counters_score_in_002():
    rules = replace(PRESETS["double-deck"], unsaved_counters_score=True)
    assert score_hand(rules, Hand(0, 50, (30, 30), (31, 19))).points == (61, 19)


def test_house_rule_minimum_meld_of_zero_counts_small_meld():
    rules = replace(PRESETS["double-deck"], min_meld=0)
    assert score_hand(rules, Hand(0, 50, (18, 12), (32, 18))).points == (50, 0)
    assert score_hand(rules, Hand(0, 50, (18, 12), (30, 20))).points == (-50, 32)


def test_house_rule_opponents_do_not_score_when_bidders_make_it():
    rules = replace(PRESETS["double-deck"], opponents_score_when_made=False)
    assert score_hand(rules, Hand(0, 65, (40, 30), (25, 25))).points == (65, 0)
