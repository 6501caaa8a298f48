"""Scoring the rule books have that the app once lacked: the dix that saves itself (004), each card in one meld
only (003), the bid cap (003) and Bicycle's two ways of counting the cards (000)."""

from dataclasses import replace

import pytest

from scorepad.core.errors import InvalidRules
from scorepad.core.meld import count_meld
from scorepad.core.rules import PRESETS, Rules, counter_worth
from scorepad.core.scoring import Hand, play_game, score_hand, validate_hand

SD = PRESETS["single-deck"]
GR = PRESETS["double-deck-gamerules"]
BICYCLE = PRESETS["double-pack-bicycle"]


@pytest.mark.parametrize(("dix_only", "points"), [
    ((False, True), (350, 10)),  # 004: "Nines of trump are said to save themselves"
    ((False, False), (350, 0)),  # a meld of 10 not said to be the dix is a marriage, lost without a counter
])
def test_opponents_whose_only_meld_is_the_dix_keep_it_without_taking_a_counter(dix_only, points):
    hand = Hand(0, 250, (100, 10), (250, 0), dix_only=dix_only)
    assert score_hand(SD, hand).points == points


def test_the_dix_that_saves_itself_is_said_in_the_books_words():
    result = score_hand(SD, Hand(0, 250, (100, 20), (250, 0), dix_only=(False, True)))
    assert ("Opponents took no counter and not the last trick, but their only meld is the dix: nines of trump save "
            "themselves.") in result.explanation


@pytest.mark.parametrize(("rules", "meld", "field", "message"), [
    (SD, 30, "dix_only_1", "A meld of only the dix is 10 or 20 (one or both 9s of trump), not 30."),
    (PRESETS["double-deck"], 10, "dix_only_1", "These rules have no dix: a double deck has no 9s."),
])
def test_a_meld_said_to_be_only_the_dix_must_be_one(rules, meld, field, message):
    hand = Hand(0, rules.min_bid, (0, meld), (rules.hand_points, 0), dix_only=(False, True))
    assert validate_hand(rules, hand)[field] == message


@pytest.mark.parametrize(("trump", "table", "total"), [
    ("H", "tournament", 6),  # marriage 2 + pinochle 4: the Q♠ in both
    ("H", "tournament-once", 4),  # 003: "each card may only be used once for melding"
    ("S", "tournament-once", 4),  # royal marriage or pinochle, not both
])
def test_with_each_card_once_k_q_of_spades_and_j_of_diamonds_count_one_meld(trump, table, total):
    assert count_meld("KS QS JD", trump, table).total == total


def test_the_once_only_count_finds_the_best_split_of_the_cards():
    cards = "AS TS KS QS JS KS QS QS JD AH KH QH JH AD KD QD JD AC KC QC"
    counted = count_meld(cards, "S", "tournament-once")
    assert counted.total == 54
    assert counted.items == [("Double pinochle", 30), ("Aces around", 10), ("Kings around", 8),
                             ("Queens around", 6)]


def test_the_gamerules_preset_counts_each_card_once_and_caps_the_bid_at_500():
    assert GR.meld_table == "tournament-once"
    assert validate_hand(GR, Hand(0, 600, (0, 0), (25, 25)))["bid"] == "Bids go up to 500 under these rules, not 600."
    assert validate_hand(GR, Hand(0, 500, (0, 0), (25, 25))) == {}


def test_a_snapshot_from_before_the_new_options_opens_with_their_defaults():
    old = {key: value for key, value in GR.to_dict().items() if key not in ("max_bid", "card_count")}
    rules = Rules.from_dict(old)
    assert (rules.max_bid, rules.card_count) == (None, "aces_tens_kings")


@pytest.mark.parametrize(("rules", "worth"), [
    (PRESETS["double-deck"], (1, 2)),
    (BICYCLE, (10, 20)),
    (SD, (10, 10)),
])
def test_a_counter_and_the_last_trick_are_worth_what_the_deck_says(rules, worth):
    assert counter_worth(rules) == worth


def test_bicycle_kings_and_queens_at_5_score_counters_like_245():
    rules = replace(BICYCLE, card_count="kings_queens_half", counter_step=5)
    assert score_hand(rules, Hand(0, 500, (300, 100), (245, 255))).points == (545, 355)


@pytest.mark.parametrize(("change", "option"), [
    ({"card_count": "kings_queens_half"}, "counter_step"),  # steps of 10 cannot count a 5
    ({"card_count": "kings_queens_half", "hand_points": 50, "counter_step": 1, "meld_step": 1, "min_bid": 50,
      "bid_steps": ((50, 1),), "meld_table": "000"}, "card_count"),  # no half of a 1-point counter
])
def test_kings_and_queens_at_half_need_a_deck_that_can_count_them(change, option):
    with pytest.raises(InvalidRules) as refused:
        replace(BICYCLE, **change)
    assert option in refused.value.options


def test_a_quadruple_run_in_trump_wins_the_002_game_outright_whatever_the_totals():
    hands = [Hand(0, 50, (30, 30), (30, 20)), Hand(1, 60, (0, 0), kind="quad_run")]
    game = play_game(PRESETS["double-deck"], hands, ("Us", "Them"))
    assert (game.winner, game.decided_on, game.totals) == (1, 2, (60, 50))
    assert game.reason == "They melded a quadruple run in trump, which wins the game outright (60 to 50)."
    assert game.results[-1].explanation == [
        "Bidders melded a quadruple run in trump: under these rules it wins the game outright (\u201cYou Win!\u201d). "
        "The hand is not played and nothing is added to either total."]


def test_a_quadruple_run_is_only_a_way_to_end_a_hand_where_the_meld_table_says_it_wins():
    problems = validate_hand(PRESETS["double-deck-shg"], Hand(0, 50, (0, 0), kind="quad_run"))
    assert problems == {"kind": "Under these rules a quadruple run in trump is meld like any other: enter it in "
                                "the bidders' meld and play the hand."}
