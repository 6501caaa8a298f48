"""One hand value: the core's Hand carries its trump and bidder's seat for the record, and `scorepad.core.hands`
turns it into the store's columns and the export's fields and back."""

import json
from dataclasses import MISSING, fields, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.core import document
from scorepad.core.hands import (
    HAND_COLUMNS,
    HAND_EXPORT_FIELDS,
    SIDE_COLUMNS,
    hand_from_columns,
    hand_to_columns,
    hand_to_export,
    hand_to_history,
)
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, play_game, score_hand, validate_hand, wrong_for_its_deal
from tests.store.helpers import random_hand

trumps = st.sampled_from([None, "S", "H", "D", "C"])
seats = st.sampled_from([None, 0, 1, 2, 3])


@st.composite
def rules_and_hand(draw):
    """A preset and a valid hand under it."""
    rules = draw(st.sampled_from(list(PRESETS.values())))
    return rules, random_hand(draw(st.randoms(use_true_random=False)), rules)


def test_the_record_fields_come_last_so_every_older_call_still_builds_the_same_hand():
    names = [f.name for f in fields(Hand)]
    assert names[7:9] == ["trump", "bidder_seat"]
    assert all(f.default is not MISSING for f in fields(Hand)[9:]), "a field added later needs a default"
    assert Hand(0, 50, (20, 0), (30, 20), "played", None, True) == Hand(
        bidder=0, bid=50, meld=(20, 0), counters=(30, 20), forced=True, trump=None, bidder_seat=None)


# The JSON a hand's history has always held: an older database's lines must read the same as today's.
@pytest.mark.parametrize(("hand", "written"), [
    (Hand(0, 55, (30, 12), (28, 22), trump="H", bidder_seat=2),
     '{"kind": "played", "bidder": 0, "bidder_seat": 2, "bid": 55, "trump": "H", "meld_0": 30, "meld_1": 12, '
     '"counters_0": 28, "counters_1": 22, "renege_team": null, "forced": 0}'),
    (Hand(1, 50, (0, 20), kind="renege", renege_team=0, forced=True),
     '{"kind": "renege", "bidder": 1, "bidder_seat": null, "bid": 50, "trump": null, "meld_0": 0, "meld_1": 20, '
     '"counters_0": null, "counters_1": null, "renege_team": 0, "forced": 1}'),
    (Hand(0, 250, (150, 10), (250, 0), dix_only=(False, True)),
     '{"kind": "played", "bidder": 0, "bidder_seat": null, "bid": 250, "trump": null, "meld_0": 150, "meld_1": 10, '
     '"counters_0": 250, "counters_1": 0, "renege_team": null, "forced": 0, "dix_only": 2}'),
])
def test_a_hand_as_columns_is_written_byte_for_byte_as_the_history_has_always_kept_it(hand, written):
    assert json.dumps(hand_to_history(hand)) == written
    assert hand_from_columns(json.loads(written)) == hand


@given(rules_and_hand(), trumps, seats)
def test_a_hand_comes_back_from_its_columns_unchanged(drawn, trump, seat):
    hand = replace(drawn[1], trump=trump, bidder_seat=seat)
    further = SIDE_COLUMNS[:2 * (len(hand.meld) - 2)]  # a third and fourth side's columns come last
    assert tuple(hand_to_columns(hand)) == HAND_COLUMNS + further
    assert hand_from_columns(hand_to_columns(hand)) == hand


@given(rules_and_hand(), trumps, seats)
def test_a_hand_in_an_export_has_the_fields_an_import_asks_for(drawn, trump, seat):
    exported = hand_to_export(replace(drawn[1], trump=trump, bidder_seat=seat))
    assert tuple(exported) == HAND_EXPORT_FIELDS
    assert set(exported) < set(document.HAND_FIELDS)
    assert json.loads(json.dumps(exported)) == exported


@given(rules_and_hand(), trumps, seats)
def test_trump_and_the_bidders_seat_change_nothing_a_hand_scores(drawn, trump, seat):
    rules, hand = drawn
    kept = replace(hand, trump=trump, bidder_seat=seat)
    assert validate_hand(rules, kept) == validate_hand(rules, hand)
    assert score_hand(rules, kept) == score_hand(rules, hand)
    assert play_game(rules, [kept]) == play_game(rules, [hand])


@pytest.mark.parametrize(("forced", "bidder", "bidder_seat", "dealer", "wrong"), [
    (True, 1, 1, 1, False),  # the dealer was stuck: right
    (True, 1, 1, 3, True),  # moved to Dan's deal: Bob was stuck with a bid Dan dealt
    (True, 1, None, 3, False),  # judged by team where the seat is not known: Dan is Bob's partner
    (True, 1, None, 2, True),
    (False, 1, 1, 3, False),  # a bid made: any dealer
])
def test_a_hand_is_wrong_for_its_deal_only_when_a_stuck_bidder_did_not_deal_it(forced, bidder, bidder_seat, dealer,
                                                                                wrong):
    rules = PRESETS["double-deck"]
    hand = Hand(bidder, rules.min_bid, (0, 0), (0, rules.hand_points), forced=forced, bidder_seat=bidder_seat)
    said = wrong_for_its_deal(rules, hand, dealer)
    assert (said is not None) is wrong
    assert said in (None, "Only the dealer can be stuck with the bid when everyone passes.")
