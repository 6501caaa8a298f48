"""RULES.md §1 as data: each preset holds the table's values; variants check themselves; rules in words."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.core.errors import InvalidRules
from scorepad.core.rules import PRESETS, Rules, allowed_kinds, can_be_stuck, limits
from scorepad.core.rules_in_words import describe

# The §1 table, column by column (field: (double-deck, shg, bicycle, gamerules, single-deck)).
ORDER = ["double-deck", "double-deck-shg", "double-pack-bicycle", "double-deck-gamerules", "single-deck"]
SEATED = ["three-handed", "three-handed-double", "two-handed"]  # the presets that bring their own seating
SIX_ONLY = ["six-handed-triple"]  # three decks: six players, by Scorepad's own numbers
TABLE = {
    "deck": ("double", "double", "double", "double", "single"),
    "hand_points": (50, 50, 500, 50, 250),
    "counter_step": (1, 1, 10, 1, 10),
    "meld_step": (1, 1, 10, 1, 10),
    "min_bid": (50, 50, 500, 50, 250),
    "bid_steps": (((50, 1), (60, 5)), ((50, 1), (60, 5), (100, 10)), ((500, 10),), ((50, 1),), ((250, 10),)),
    "all_pass": ("dealer_stuck", "dealer_stuck", "redeal", "dealer_stuck", "dealer_stuck"),
    "min_meld": (20, 20, 0, 0, 0),
    "save_counters": (20, 20, 1, 0, 1),
    "unsaved_counters_score": (False, True, True, True, True),
    "opponents_score_when_made": (True, True, True, False, True),
    "set_penalty": ("bid", "bid", "bid", "meld_and_counters", "bid"),
    "throw_in_penalty": ("bid", "bid", "bid", "meld", "bid"),
    "throw_in_award": ("meld_plus_bonus", "meld", "meld", "nothing", "meld"),
    "no_marriage": ("throw_in", "no_meld", "throw_in", "throw_in", "throw_in"),
    "forced_no_marriage_meld_only": (True, False, False, False, False),
    "auto_throw_in_margin": (None, 50, None, None, 250),
    "auto_throw_in_below_min_meld": (False, True, False, False, False),
    "target": (500, 500, 3550, 500, 1500),
    "floor": (None, None, None, -500, None),
    "hands_limit": (None, None, None, None, None),
    "meld_table": ("002", "tournament", "000", "tournament-once", "004"),
    "max_bid": (None, None, None, 500, None),
    "card_count": ("aces_tens_kings",) * 5,
    "card_bonus": (20, 20, 200, 20, 100),  # renege and throw-in award: 2/5 of the hand's counters
}
# What each preset lets a hand be, and whether its dealer can be stuck (the hand form shows just these).
HANDS = {
    "allowed_kinds": tuple(("played", "throw_in", "no_marriage", "renege") + (("redeal",) if redeal else ())
                           + (("quad_run",) if run_wins else ())
                           for redeal, run_wins in ((False, True), (False, False), (True, False), (False, False),
                                                    (False, False))),
    "can_be_stuck": (True, True, False, True, True),
}


@pytest.mark.parametrize("option", TABLE)
def test_every_preset_holds_the_rules_md_table(option):
    assert tuple(getattr(PRESETS[name], option) for name in ORDER) == TABLE[option]


@pytest.mark.parametrize("question", HANDS)
def test_every_preset_says_which_hands_it_has(question):
    ask = {"allowed_kinds": allowed_kinds, "can_be_stuck": can_be_stuck}[question]
    assert tuple(ask(PRESETS[name]) for name in ORDER) == HANDS[question]


@pytest.mark.parametrize(("all_pass", "kinds", "stuck"), [
    ("redeal", ("played", "throw_in", "no_marriage", "renege", "redeal"), False),
    ("dealer_stuck", ("played", "throw_in", "no_marriage", "renege"), True),
])
def test_a_house_rule_for_all_pass_decides_redeal_or_stuck_dealer(all_pass, kinds, stuck):
    for rules in filter(lambda rules: rules.bidding, PRESETS.values()):
        variant = replace(rules, all_pass=all_pass)
        played = tuple(kind for kind in allowed_kinds(variant) if kind != "quad_run")  # the meld table's to say
        assert (played, can_be_stuck(variant)) == (kinds, stuck)


def test_the_default_preset_is_first():
    assert list(PRESETS) == ORDER + SEATED + SIX_ONLY


def test_house_rules_are_a_replace_away():
    variant = replace(PRESETS["double-deck"], target=1000, floor=-1000, hands_limit=4)
    assert (variant.target, variant.floor, variant.hands_limit) == (1000, -1000, 4)
    assert PRESETS["double-deck"].target == 500  # the preset itself is untouched


@pytest.mark.parametrize(("change", "problem"), [
    ({"target": 0}, "The game score must be a whole number from 1 to 100,000."),
    ({"floor": 100}, "The losing floor must be a whole number from −100,000 to −1 (or none)."),
    ({"hands_limit": 0}, "A fixed number of hands must be a whole number from 1 to 1,000 (or none)."),
    ({"set_penalty": "double"}, "set_penalty must be one of bid, meld_and_counters, chips, not 'double'."),
    ({"counter_step": 3}, "The counter step must divide the hand's 50 counter points: 1, 2, 5, 10, 25 or 50."),
    ({"bid_steps": ((60, 5), (50, 1))}, "Bid steps must be in ascending order."),
    ({"min_meld": -1}, "The meld needed to be on the board must be a whole number from 0 to 1,000."),
    ({"meld_table": "house"}, "meld_table must be one of 002, tournament, 000, 004, 004-plain, tournament-once, "
                                 "triple, not 'house'."),
])
def test_a_variant_that_makes_no_sense_is_refused(change, problem):
    with pytest.raises(InvalidRules) as caught:
        replace(PRESETS["double-deck"], **change)
    assert problem in caught.value.problems


TABLE_FOR_THE_OTHER_DECK = "That meld table is for the other deck: single-deck tables go with single deck."


@pytest.mark.parametrize(("preset", "table", "fits"), [
    ("double-deck", "004", False),
    ("double-deck", "004-plain", False),
    ("double-pack-bicycle", "004", False),
    ("single-deck", "002", False),
    ("single-deck", "tournament", False),
    ("single-deck", "000", False),
    ("double-deck", "000", True),
    ("double-deck-gamerules", "002", True),
    ("single-deck", "004-plain", True),
])
def test_the_meld_table_must_fit_the_deck(preset, table, fits):
    if fits:
        assert replace(PRESETS[preset], meld_table=table).meld_table == table
        assert Rules.from_dict(PRESETS[preset].to_dict() | {"meld_table": table}).meld_table == table
        return
    with pytest.raises(InvalidRules) as caught:
        replace(PRESETS[preset], meld_table=table)
    assert caught.value.options == {"meld_table": TABLE_FOR_THE_OTHER_DECK}
    with pytest.raises(InvalidRules, match="for the other deck"):  # an import's rules, too
        Rules.from_dict(PRESETS[preset].to_dict() | {"meld_table": table})


def test_a_kept_game_with_a_table_for_the_other_deck_still_opens():
    snapshot = PRESETS["double-deck"].to_dict() | {"meld_table": "004"}
    assert Rules.from_dict(snapshot, kept=True).meld_table == "004"


# Every whole-number house rule has a range: a minimum bid of 999,999 or a game to a trillion is a slip.
OUT_OF_RANGE = [
    ("double-deck", {"min_bid": 999_999}, "min_bid", "The minimum bid must be a whole number from 1 to 1,000."),
    ("double-deck", {"target": 10**12}, "target", "The game score must be a whole number from 1 to 100,000."),
    ("double-deck", {"floor": -(10**9)}, "floor", "from −100,000 to −1 (or none)"),
    ("double-deck", {"hands_limit": 5000}, "hands_limit", "from 1 to 1,000 (or none)"),
    ("double-deck", {"min_meld": 10**6}, "min_meld", "from 0 to 1,000"),
    ("double-deck", {"save_counters": 51}, "save_counters",
     "The counters needed to save meld must be a whole number from 0 to 50."),
    ("double-deck", {"auto_throw_in_margin": 10**6}, "auto_throw_in_margin", "from 0 to 1,000 (or none)"),
    ("double-deck", {"counter_step": 0}, "counter_step", "The counter step must be a whole number from 1 to 50."),
    ("double-deck", {"counter_step": 7}, "counter_step", "must divide the hand's 50 counter points"),
    ("double-pack-bicycle", {"counter_step": 30}, "counter_step", "1, 2, 4, 5, 10, 20, 25, 50, 100, 125, 250 or 500"),
    ("double-deck", {"meld_step": 10**6}, "meld_step", "The meld step must be a whole number from 1 to 50."),
    ("double-deck", {"hand_points": 10**6}, "hand_points", "from 1 to 500"),
    ("single-deck", {"target": 1_000_001}, "target", "from 1 to 1,000,000"),
    ("double-deck", {"bid_steps": tuple((n, 1) for n in range(50, 70))}, "bid_steps", "1 to 10 (from, step) pairs"),
    ("double-deck", {"bid_steps": ((50, 1), (10**9, 5))}, "bid_steps", "whole numbers up to 1,000"),
    ("double-deck", {"min_bid": True}, "min_bid", "The minimum bid must be a whole number"),
]


@pytest.mark.parametrize(("preset", "change", "option", "problem"), OUT_OF_RANGE)
def test_house_rule_numbers_out_of_range_are_refused_and_blamed_on_their_option(preset, change, option, problem):
    with pytest.raises(InvalidRules) as caught:
        replace(PRESETS[preset], **change)
    assert problem in caught.value.options[option]


@pytest.mark.parametrize(("name", "scale"), [("double-deck", 1), ("double-pack-bicycle", 10), ("single-deck", 10)])
def test_the_largest_game_score_grows_with_the_scale_of_the_deck(name, scale):
    rules = PRESETS[name]
    assert rules.scale == scale
    assert replace(rules, target=100_000 * scale).target == 100_000 * scale
    assert limits(rules)["target"] == (1, 100_000 * scale)


WHOLE = st.one_of(st.none(), st.integers(-(10**15), 10**15), st.integers(-3, 1100))


@given(preset=st.sampled_from(ORDER), changes=st.fixed_dictionaries({}, optional={
    name: WHOLE for name in ("target", "hands_limit", "floor", "min_bid", "min_meld", "save_counters",
                             "auto_throw_in_margin", "counter_step", "meld_step")}))
def test_any_variant_is_refused_or_within_every_range(preset, changes):
    try:
        rules = replace(PRESETS[preset], **changes)
    except InvalidRules as refused:
        assert refused.problems and set(refused.options) <= set(changes)
        return
    for name, (low, high) in limits(rules).items():
        value = getattr(rules, name)
        assert value is None or low <= value <= high, name


def test_a_kept_game_started_before_the_ranges_still_opens_but_an_import_is_held_to_them():
    snapshot = PRESETS["double-deck"].to_dict() | {"target": 10**12, "min_bid": 999_999}
    with pytest.raises(InvalidRules, match="The minimum bid must be"):
        Rules.from_dict(snapshot)
    kept = Rules.from_dict(snapshot, kept=True)
    assert (kept.target, kept.min_bid) == (10**12, 999_999)
    assert any("999,999" in line for line in describe(kept))
    for broken in ({"target": "500"}, {"set_penalty": "double"}, {"counter_step": 3}):
        with pytest.raises(InvalidRules):
            Rules.from_dict(PRESETS["double-deck"].to_dict() | broken, kept=True)


@pytest.mark.parametrize("name", ORDER)
def test_a_snapshot_round_trips_through_a_dict(name):
    rules = replace(PRESETS[name], target=250)
    assert Rules.from_dict(rules.to_dict()) == rules


def test_a_snapshot_with_unknown_options_is_refused():
    data = PRESETS["double-deck"].to_dict() | {"jokers": True}
    with pytest.raises(InvalidRules, match="Unknown rule option"):
        Rules.from_dict(data)


def test_bid_step_at_follows_the_steps():
    shg = PRESETS["double-deck-shg"]
    assert [shg.bid_step_at(b) for b in (50, 59, 60, 95, 100, 250)] == [1, 1, 5, 5, 10, 10]


WORDS = {
    "double-deck": [
        "Game is 500; if both teams reach it on the same hand, the bidders win.",
        "The minimum bid is 50; bids go up by any whole number below 60, then in multiples of 5 from 60.",
        "A team needs 20 meld to be on the board; less counts nothing.",
        "To save its meld, a team must take 20 counters.",
        "A team that takes fewer than 20 counters scores nothing at all.",
        "Bidders may throw in their hand: they lose the bid, and the opponents score their meld (if on the "
        "board) plus 20 for the cards.",
        "If the bid was forced on the dealer and the bidders have no marriage in trump, the opponents get only "
        "their meld, without the 20 for the cards; a forced bid thrown in for any other reason scores as any "
        "throw-in.",
    ],
    "double-deck-shg": [
        "The minimum bid is 50; bids go up by any whole number below 60, then in multiples of 5 below 100, "
        "then in multiples of 10 from 100.",
        "A team that does not save its meld still scores the counters it took.",
        "A bid more than 50 above the bidders' meld cannot be made: the hand is an automatic throw-in.",
        "Bidders with less than 20 meld throw in automatically.",
        "A bidder with no marriage in trump is set before play: they lose the bid, neither side scores meld, "
        "and the opponents score nothing.",
    ],
    "double-pack-bicycle": [
        "If everyone passes, the hands are thrown in and the next dealer deals; nobody scores.",
        "To save its meld, a team must win a trick with a counter in it, or the last trick.",
        "Game is 3,550; if both teams reach it on the same hand, the bidders win.",
    ],
    "double-deck-gamerules": [
        "When the bidders make their bid, the opponents score nothing.",
        "A set bidder loses their own meld and counters.",
        "A team at −500 or below loses.",
        "Meld counts without taking any counters.",
    ],
    "single-deck": [
        "Deck: 48 cards, with 9s. Cards taken in tricks count: aces, tens and kings 10 each, the last trick 10; "
        "250 counter points a hand, counted in steps of 10.",
        "Bidders whose meld is more than 250 short of the bid are not \u201con the board\u201d: they cannot make "
        "it, and the hand is scored as a throw-in.",
        "Game is 1,500; if both teams reach it on the same hand, the bidders win.",
    ],
}


@pytest.mark.parametrize("name", ORDER)
def test_rules_in_words_say_what_the_preset_does(name):
    lines = describe(PRESETS[name])
    for sentence in WORDS[name]:
        assert sentence in lines
    assert all(line.endswith(".") for line in lines)


def test_rules_in_words_follow_house_rules():
    lines = describe(replace(PRESETS["double-deck"], hands_limit=4, set_penalty="chips", check_bid_steps=False))
    assert ("The game is 4 hands (redeals not counted); the higher total wins, and a tie plays one more hand "
            "until it breaks.") in lines
    assert any("chip scoring" in line for line in lines)
    assert "The minimum bid is 50; any whole number above it is a bid (steps are not checked)." in lines


def test_three_decks_are_for_six_players_and_count_meld_up_to_six_of_a_kind():
    from scorepad.core.meld import count_meld
    from scorepad.core.rules import counter_worth

    triple = PRESETS["six-handed-triple"]
    assert (triple.deck, triple.hand_points, triple.min_bid, triple.target) == ("triple", 75, 75, 750)
    assert counter_worth(triple) == (1, 3)  # 72 counters of 1, the last trick 3
    assert replace(triple, sides=3, players_per_side=2).players == 6
    with pytest.raises(InvalidRules, match="for six"):
        replace(triple, players_per_side=2)
    assert describe(triple)[0].startswith("These numbers are Scorepad\u2019s own")
    six_aces = count_meld(" ".join(["A" + suit for suit in "SHDC"] * 6), "S", "triple", 6)
    assert ("Sextuple aces around", 500) in six_aces.items
