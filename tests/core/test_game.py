"""RULES.md §1 "game ends" and §5: the game as a fold over its hands."""

from dataclasses import replace

import pytest

from scorepad.core.errors import GameOver, InvalidHand
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, play_game

DD = PRESETS["double-deck"]


def made(bidder, bid, meld=(0, 0), counters=None):
    """A hand team `bidder` makes, all 50 counters to the bidders unless given."""
    counters = counters or ((50, 0) if bidder == 0 else (0, 50))
    return Hand(bidder, bid, meld, counters)


def test_totals_are_the_running_sum_of_the_hands():
    state = play_game(DD, [made(0, 65, (40, 12), (25, 25)), made(1, 55, (12, 40), (25, 25))])
    assert [r.points for r in state.results] == [(65, 25), (25, 65)]
    assert state.running == [(65, 25), (90, 90)]
    assert state.totals == (90, 90)
    assert state.winner is None


def test_first_team_to_500_wins():
    hands = [made(0, 150, (100, 0))] * 3 + [made(0, 50)]  # 150 × 3 = 450, then 50 counters
    state = play_game(DD, hands)
    assert state.totals == (500, 0)
    assert state.winner == 0
    assert state.decided_on == 4
    assert state.reason == "Team 1 reached 500 first (500 to 0)."


def test_when_both_teams_reach_500_on_one_hand_the_bidders_win_even_with_less():
    # 490 to 470; then Them bid 50 and make exactly 50 (520) while Us score 55 (545)
    hands = [Hand(0, 460, (440, 0), (20, 30)), Hand(1, 440, (0, 420), (30, 20)),
             Hand(1, 50, (25, 30), (30, 20))]
    state = play_game(DD, hands, names=("Us", "Them"))
    assert state.running == [(460, 30), (490, 470), (545, 520)]
    assert state.winner == 1
    assert state.reason == "Both teams reached 500 on the same hand; the bidders, Them, win (545 to 520)."


def test_a_team_at_minus_500_loses_in_gamerules():
    rules = PRESETS["double-deck-gamerules"]
    throw_in = Hand(0, 300, (250, 0), kind="throw_in")  # loses the meld, 250
    state = play_game(rules, [throw_in, throw_in])
    assert state.totals == (-500, 0)
    assert state.winner == 1
    assert state.reason == "Team 1 fell to −500, at or below the losing floor of −500; Team 2 win (−500 to 0)."


def test_no_floor_means_a_team_can_go_deep_negative():
    state = play_game(DD, [Hand(0, 500, (0, 0), kind="throw_in")] * 3)
    assert state.totals == (-1500, 60)
    assert state.winner is None


def test_a_fixed_number_of_hands_ends_on_the_last_hand():
    rules = replace(DD, hands_limit=4)
    hands = [made(0, 50), made(1, 50), made(0, 50), made(0, 50)]
    state = play_game(rules, hands)
    assert state.winner == 0
    assert state.decided_on == 4
    assert state.reason == "Team 1 lead after the last of 4 hands (150 to 50)."


def test_a_tie_after_the_last_hand_plays_on_until_it_breaks():
    rules = replace(DD, hands_limit=2)
    state = play_game(rules, [made(0, 50), made(1, 50)])
    assert state.totals == (50, 50) and state.winner is None
    state = play_game(rules, [made(0, 50), made(1, 50), made(1, 50, (0, 25), (25, 25))])
    assert state.winner == 1
    assert state.reason == "Team 2 broke the tie on hand 3 (75 to 100)."


def test_with_a_fixed_number_of_hands_the_target_does_not_end_the_game():
    rules = replace(DD, hands_limit=3)
    state = play_game(rules, [made(0, 600, (560, 0)), made(1, 50)])
    assert state.totals == (610, 50)
    assert state.winner is None


def test_redeals_score_nothing_and_do_not_count_as_hands():
    rules = replace(PRESETS["double-pack-bicycle"], hands_limit=1)
    redeal = Hand(0, 0, (0, 0), kind="redeal")
    state = play_game(rules, [redeal, redeal])
    assert state.totals == (0, 0) and state.hands_scored == 0 and state.winner is None
    state = play_game(rules, [redeal, Hand(0, 500, (0, 0), (500, 0))])
    assert state.winner == 0 and state.decided_on == 2


def test_a_won_game_takes_no_more_hands():
    hands = [made(0, 500, (460, 0)), made(1, 50)]
    with pytest.raises(GameOver, match="won by Team 1 on hand 1; hand 2 cannot be added"):
        play_game(DD, hands)


def test_an_invalid_hand_is_refused_with_its_number():
    with pytest.raises(InvalidHand) as caught:
        play_game(DD, [made(0, 50), Hand(0, 50, (0, 0), (20, 20))])
    assert caught.value.hand_number == 2
    assert caught.value.errors == {"counters": "Counters must add up to 50; these add up to 40."}


def test_editing_an_earlier_hand_can_revoke_the_winner():
    hands = [made(0, 500, (460, 0))]
    assert play_game(DD, hands).winner == 0
    hands[0] = Hand(0, 490, (460, 0), (30, 20))  # the bidders really took 30: 490, short of 500
    state = play_game(DD, hands)
    assert state.winner is None and state.totals == (490, 20)


def test_an_empty_game_is_nil_nil():
    state = play_game(DD, [])
    assert state.totals == (0, 0) and state.winner is None and state.results == []
