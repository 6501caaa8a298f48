"""The bid chips: the minimum, and the bids the game's own hands were won at, the latest first, filled up with the
usual steps above the minimum while the game has too few; only bids the rules take, in order of value."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.core.bids import CHIPS, bid_chips
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import bid_error

DOUBLE = PRESETS["double-deck"]
SINGLE = PRESETS["single-deck"]


@pytest.mark.parametrize(("rules", "bids", "chips"), [
    # a new game: the steps above the minimum
    (DOUBLE, [], [50, 51, 52, 55, 60]),
    (SINGLE, [], [250, 260, 270, 300, 350]),
    (PRESETS["six-handed-triple"], [], [75, 76, 77, 80, 85]),
    # the bids of the game, the latest first, in order of value
    (DOUBLE, [50, 52, 60, 65, 55, 70, 65], [50, 55, 60, 65, 70]),
    (DOUBLE, [65, 70, 75, 80, 85, 90], [50, 75, 80, 85, 90]),
    # a few bids so far: the usual steps fill the rest
    (DOUBLE, [65], [50, 51, 52, 55, 65]),
    (DOUBLE, [65, 70], [50, 51, 52, 65, 70]),
    (DOUBLE, [51, 51, 51], [50, 51, 52, 55, 60]),
    # hands nobody bid, and the minimum itself, are no chip of their own
    (DOUBLE, [None, 50, None], [50, 51, 52, 55, 60]),
    (SINGLE, [300, 350, 400], [250, 260, 300, 350, 400]),
    # a bid the rules no longer take (a house rule changed its steps, a cap) is not offered
    (replace(DOUBLE, max_bid=60), [65, 58], [50, 51, 52, 55, 58]),
])
def test_the_chips_are_the_minimum_and_the_bids_this_game_makes(rules, bids, chips):
    assert bid_chips(rules, bids) == chips


def test_a_table_bidding_high_late_in_a_game_gets_its_bids_as_one_tap():
    assert {65, 70} <= set(bid_chips(DOUBLE, [50, 55, 60, 65, 60, 70, 65]))


@given(st.sampled_from(sorted(PRESETS)), st.lists(st.one_of(st.none(), st.integers(-10, 5_000)), max_size=40))
def test_the_chips_are_always_few_sorted_distinct_and_bids_a_save_takes(key, bids):
    rules = PRESETS[key]
    chips = bid_chips(rules, bids)
    assert chips[0] == rules.min_bid and len(chips) <= CHIPS
    assert chips == sorted(set(chips))
    assert all(bid_error(rules, chip) is None for chip in chips)
