"""RULES.md §4: what is refused, which field it names, and what the message says is allowed."""

from dataclasses import replace

import pytest

from scorepad.core.errors import InvalidHand
from scorepad.core.rules import PRESETS, most_one_hand_melds
from scorepad.core.scoring import Hand, score_hand, validate_hand

DD = PRESETS["double-deck"]
SHG = PRESETS["double-deck-shg"]
SINGLE = PRESETS["single-deck"]
BICYCLE = PRESETS["double-pack-bicycle"]

REFUSED = [
    ("counters that add up to 48", DD, Hand(0, 50, (20, 20), (20, 28)),
     {"counters": "Counters must add up to 50; these add up to 48."}),
    ("negative counters", DD, Hand(0, 50, (20, 20), (-5, 55)),
     {"counters_0": "Counters can't be negative.",
      "counters_1": "55 counters is more than the whole hand holds; the most is 50."}),
    ("counters as text", DD, Hand(0, 50, (20, 20), ("lots", 20)),
     {"counters_0": "Counters must be a whole number (0 or more)."}),
    ("missing counters on a played hand", DD, Hand(0, 50, (20, 20)),
     {"counters": "Enter the counters each team took (together 50)."}),
    ("counters off the step in single deck", SINGLE, Hand(0, 250, (100, 0), (125, 125)),
     {"counters_0": "Counters are counted in steps of 10: 120 or 130, not 125.",
      "counters_1": "Counters are counted in steps of 10: 120 or 130, not 125."}),
    ("counters on a throw-in", DD, Hand(0, 50, (20, 20), (25, 25), kind="throw_in"),
     {"counters": "Counters are entered only for a played hand, not for a throw-in."}),
    ("a bid below the minimum", DD, Hand(0, 45, (20, 20), (25, 25)),
     {"bid": "Bid must be at least 50."}),
    ("a bid of 63", DD, Hand(0, 63, (20, 20), (25, 25)),
     {"bid": "Bids from 60 go up in steps of 5: 60 or 65, not 63."}),
    ("a bid of 105 under tournament steps", SHG, Hand(0, 105, (80, 20), (25, 25)),
     {"bid": "Bids from 100 go up in steps of 10: 100 or 110, not 105."}),
    ("a bid of 505 in Bicycle", BICYCLE, Hand(0, 505, (200, 20), (250, 250)),
     {"bid": "Bids from 500 go up in steps of 10: 500 or 510, not 505."}),
    ("an absurd bid", DD, Hand(0, 99999, (20, 20), (25, 25)),
     {"bid": "A bid of 99,999 is more than any hand can make; the most is 1,000."}),
    ("a bid as text", DD, Hand(0, "fifty", (20, 20), (25, 25)),
     {"bid": "Bid must be a whole number, 50 or more."}),
    ("a bid of True", DD, Hand(0, True, (20, 20), (25, 25)),
     {"bid": "Bid must be a whole number, 50 or more."}),
    ("negative meld", DD, Hand(0, 50, (-1, 20), (25, 25)),
     {"meld_0": "Meld can't be negative."}),
    ("meld off the step in single deck", SINGLE, Hand(0, 250, (155, 0), (250, 0)),
     {"meld_0": "Meld is counted in steps of 10: 150 or 160, not 155."}),
    ("absurd meld", DD, Hand(0, 50, (20, 5000), (25, 25)),
     {"meld_1": "A meld of 5,000 is more than any hand can hold; one hand melds at most 914 under the family "
                "double-deck values."}),
    ("no bidding team", DD, Hand(2, 50, (20, 20), (25, 25)),
     {"bidder": "Choose the team that won the bid."}),
    ("an unknown kind", DD, Hand(0, 50, (20, 20), (25, 25), kind="misdeal"),
     {"kind": "Choose what happened: played, throw-in, no marriage, renege or quadruple run."}),
    ("a renege without a team", DD, Hand(0, 50, (20, 20), kind="renege"),
     {"renege_team": "Choose the team that reneged."}),
    ("a reneging team on a played hand", DD, Hand(0, 50, (20, 20), (25, 25), renege_team=1),
     {"renege_team": "Only a renege names the team that reneged."}),
    ("a redeal where the dealer is stuck", DD, Hand(0, 0, (0, 0), kind="redeal"),
     {"kind": "These rules have no redeal: when everyone passes, the dealer is stuck with the minimum "
              "bid of 50."}),
    ("a forced bid above the minimum", DD, Hand(0, 55, (20, 20), (25, 25), forced=True),
     {"forced": "A bid forced on the dealer is the minimum, 50."}),
    ("a forced bid where all-pass is redealt", BICYCLE, Hand(0, 500, (200, 20), (250, 250), forced=True),
     {"forced": "Under these rules nobody is stuck: when everyone passes, the hand is redealt."}),
]


@pytest.mark.parametrize(("rules", "hand", "errors"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused_hand_names_the_field_and_what_is_allowed(rules, hand, errors):
    assert validate_hand(rules, hand) == errors
    with pytest.raises(InvalidHand) as caught:
        score_hand(rules, hand)
    assert caught.value.errors == errors


ACCEPTED = [
    ("a bid of 59", DD, Hand(0, 59, (20, 20), (25, 25))),
    ("a bid of 105 in 002, where steps stay at 5", DD, Hand(0, 105, (80, 20), (25, 25))),
    ("a bid of 63 with step checking off", replace(DD, check_bid_steps=False), Hand(0, 63, (20, 20), (25, 25))),
    ("any whole bid in gamerules", PRESETS["double-deck-gamerules"], Hand(0, 101, (80, 20), (25, 25))),
    ("an automatic throw-in without counters", SHG, Hand(0, 80, (25, 30))),
    ("a redeal where all-pass is redealt", BICYCLE, Hand(0, 0, (0, 0), kind="redeal")),
    ("a forced minimum bid", DD, Hand(0, 50, (20, 20), (25, 25), forced=True)),
    ("meld and counters given as lists", DD, Hand(0, 50, [20, 20], [25, 25])),
    ("a counter step of 5 as a Bicycle house rule", replace(BICYCLE, counter_step=5),
     Hand(0, 500, (200, 20), (255, 245))),
]


@pytest.mark.parametrize(("rules", "hand"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_accepted_hand_validates(rules, hand):
    assert validate_hand(rules, hand) == {}
    score_hand(rules, hand)


def test_every_mistake_is_reported_at_once():
    errors = validate_hand(DD, Hand(5, 63, (-1, "x"), (20, 20), kind="played"))
    assert set(errors) == {"bidder", "bid", "meld_0", "meld_1", "counters"}


# Only the dealer can be stuck: by seat when the bidder's seat is kept, by team when only teams are.
# (dealer, bidder_seat, bidder team, refused?)
STUCK = [
    ("the dealer's own seat", 2, 2, 0, False),
    ("the dealer's partner", 2, 0, 0, True),
    ("an opponent of the dealer", 2, 1, 1, True),
    ("the dealer's team, seats not kept", 3, None, 1, False),
    ("the other team, seats not kept", 3, None, 0, True),
    ("a dealer nobody knows", None, 1, 1, False),
]


@pytest.mark.parametrize(("dealer", "seat", "team", "refused"), [c[1:] for c in STUCK], ids=[c[0] for c in STUCK])
def test_only_the_dealer_can_be_stuck_with_the_bid(dealer, seat, team, refused):
    hand = Hand(team, 50, (20, 20), (25, 25), forced=True)
    errors = validate_hand(DD, hand, dealer=dealer, bidder_seat=seat)
    assert errors == ({"forced": "Only the dealer can be stuck with the bid when everyone passes."} if refused else {})
    assert validate_hand(DD, replace(hand, forced=False), dealer=dealer, bidder_seat=seat) == {}


def test_a_forced_bid_that_is_wrong_anyway_says_what_is_wrong_with_the_bid_first():
    errors = validate_hand(DD, Hand(0, 55, (20, 20), (25, 25), forced=True), dealer=1, bidder_seat=0)
    assert errors == {"forced": "A bid forced on the dealer is the minimum, 50."}


def test_scoring_a_hand_judges_the_dealer_too():
    with pytest.raises(InvalidHand) as caught:
        score_hand(DD, Hand(0, 50, (20, 20), (25, 25), forced=True), dealer=1, bidder_seat=0)
    assert set(caught.value.errors) == {"forced"}


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_a_meld_too_large_to_take_says_the_most_a_hand_melds_which_is_below_what_is_refused(key):
    """The form asks "is this right?" of a meld past what one hand melds, and refuses one past what the field
    takes at all. The refusal must say the same most as the question (a form that said "the most is 1,000" and
    then asked of 1,000 "at most 914" contradicted itself), and that most must be one the field takes."""
    rules = PRESETS[key]
    most = most_one_hand_melds(rules)
    meld = (rules.max_value + rules.meld_step,) + (0,) * (rules.sides - 1)
    refused = validate_hand(rules, Hand(0, rules.min_bid, meld, None))["meld_0"]
    assert f"at most {most:,} under" in refused
    assert f"{rules.max_value:,}." not in refused
    assert most < rules.max_value


def test_rules_whose_field_takes_less_than_a_hand_melds_say_the_field_s_own_most():
    """An import's rules may count fewer hand points (20): the field then takes less than one hand melds, and the
    refusal said a most above the value it refused ("410 is more than … at most 914")."""
    rules = replace(PRESETS["double-deck"], hand_points=20)
    assert most_one_hand_melds(rules) > rules.max_value
    refused = validate_hand(rules, Hand(0, rules.min_bid, (rules.max_value + 10, 0), None))["meld_0"]
    assert refused.endswith(f"the most is {rules.max_value:,}.")
