"""Properties of scoring that hold for every hand under every preset and house rule (hypothesis)."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.core.rules import PRESETS, Rules
from scorepad.core.scoring import Hand, play_game, score_hand, validate_hand

# The properties below are of two teams bidding; tests/core/test_tables.py has those of every other table.
TWO_TEAMS = [rules for rules in PRESETS.values() if rules.sides == 2 and rules.players_per_side > 1]
rules_st = st.builds(
    lambda base, set_penalty, award, save, unsaved, opp, steps: replace(
        base, set_penalty=set_penalty, throw_in_award=award, save_counters=save,
        unsaved_counters_score=unsaved, opponents_score_when_made=opp, check_bid_steps=steps),
    st.sampled_from(TWO_TEAMS),
    st.sampled_from(["bid", "meld_and_counters", "chips"]),
    st.sampled_from(["meld_plus_bonus", "meld", "nothing"]),
    st.sampled_from([0, 1, 20]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
) | st.sampled_from(TWO_TEAMS)


def valid_bids(rules: Rules):
    return st.integers(rules.min_bid, rules.max_bid or rules.max_value).map(
        lambda b: b - b % rules.bid_step_at(b) if rules.check_bid_steps else b
    ).filter(lambda b: b >= rules.min_bid)


@st.composite
def valid_hands(draw, rules: Rules):
    kinds = ["played", "played", "played", "throw_in", "no_marriage", "renege"]
    if rules.all_pass == "redeal":
        kinds.append("redeal")
    kind = draw(st.sampled_from(kinds))
    if kind == "redeal":
        return Hand(0, 0, (0, 0), kind="redeal")
    bidder = draw(st.sampled_from([0, 1]))
    # Most real meld is small; sometimes a big one, up to the cap.
    meld_st = st.one_of(st.integers(0, rules.hand_points), st.integers(0, rules.max_value)).map(
        lambda m: m - m % rules.meld_step)
    meld = (draw(meld_st), draw(meld_st))
    forced = rules.all_pass == "dealer_stuck" and draw(st.booleans()) and draw(st.booleans())
    bid = rules.min_bid if forced else draw(valid_bids(rules))
    counters = None
    if kind == "played":
        steps = rules.hand_points // rules.counter_step
        first = draw(st.integers(0, steps)) * rules.counter_step
        counters = (first, rules.hand_points - first)
    renege_team = draw(st.sampled_from([0, 1])) if kind == "renege" else None
    return Hand(bidder, bid, meld, counters, kind, renege_team, forced)


@st.composite
def rules_and_hand(draw):
    rules = draw(rules_st)
    return rules, draw(valid_hands(rules))


@given(rules_and_hand())
def test_a_valid_hand_always_scores_with_an_explanation(pair):
    rules, hand = pair
    assert validate_hand(rules, hand) == {}
    result = score_hand(rules, hand)
    assert result.explanation and all(line.endswith(".") for line in result.explanation)


@given(rules_and_hand())
def test_a_made_contract_never_scores_less_than_the_bid(pair):
    rules, hand = pair
    result = score_hand(rules, hand)
    if result.made:
        assert result.points[hand.bidder] >= hand.bid


@given(rules_and_hand())
def test_a_set_never_scores_the_bidders_anything(pair):
    rules, hand = pair
    result = score_hand(rules, hand)
    if result.made is False:
        assert result.points[hand.bidder] <= 0


@given(rules_and_hand())
def test_scoring_is_deterministic(pair):
    rules, hand = pair
    assert score_hand(rules, hand) == score_hand(rules, hand)


@given(rules_and_hand())
def test_swapping_the_teams_swaps_the_points(pair):
    rules, hand = pair
    swapped = Hand(1 - hand.bidder, hand.bid, hand.meld[::-1],
                   hand.counters[::-1] if hand.counters else None, hand.kind,
                   None if hand.renege_team is None else 1 - hand.renege_team, hand.forced)
    assert score_hand(rules, swapped).points == score_hand(rules, hand).points[::-1]


@given(rules_and_hand())
def test_the_explanation_states_each_teams_score(pair):
    rules, hand = pair
    result = score_hand(rules, hand)
    text = " ".join(result.explanation)
    for points in result.points:
        if points:
            shown = f"+{points:,}" if points > 0 else f"−{-points:,}"
            assert shown in text


@st.composite
def a_game(draw):
    rules = draw(rules_st)
    rules = replace(rules, target=rules.max_value * 50, floor=None)  # a game that goes on while we fold
    hands = draw(st.lists(valid_hands(rules), max_size=25))
    return rules, hands


@given(a_game())
@settings(max_examples=60)
def test_the_totals_are_the_sum_of_the_hand_results(game):
    rules, hands = game
    state = play_game(rules, hands)
    assert state.totals == (sum(r.points[0] for r in state.results), sum(r.points[1] for r in state.results))
    assert len(state.running) == len(hands)
    assert state.results == [score_hand(rules, h) for h in hands]


# Validation accepts exactly the hands whose values fit. The oracle below restates RULES.md §4 on its own,
# so the two must agree on every hand: well-formed, off by a little, or absurd.
def oracle_accepts(rules: Rules, hand: Hand) -> bool:
    def whole(v):
        return type(v) is int

    if hand.kind == "redeal":
        return rules.all_pass == "redeal"
    if hand.bidder not in (0, 1) or not whole(hand.bid):
        return False
    if not rules.min_bid <= hand.bid <= min(rules.max_value, rules.max_bid or rules.max_value):
        return False
    if rules.check_bid_steps and hand.bid % rules.bid_step_at(hand.bid) != 0:
        return False
    if hand.forced and (rules.all_pass == "redeal" or hand.bid != rules.min_bid):
        return False
    if not all(whole(m) and 0 <= m <= rules.max_value and m % rules.meld_step == 0 for m in hand.meld):
        return False
    if hand.kind != "played":
        return hand.counters is None
    auto = (rules.auto_throw_in_below_min_meld and rules.min_meld and hand.meld[hand.bidder] < rules.min_meld) \
        or (rules.auto_throw_in_margin is not None
            and hand.bid > hand.meld[hand.bidder] + rules.auto_throw_in_margin)
    if hand.counters is None:
        return bool(auto)
    return (all(whole(c) and 0 <= c <= rules.hand_points and c % rules.counter_step == 0 for c in hand.counters)
            and sum(hand.counters) == rules.hand_points)


any_number = st.one_of(st.integers(-100, 12000), st.integers(-10**9, 10**9), st.just("12"), st.just(None))


@st.composite
def rough_hands(draw):
    rules = draw(st.sampled_from(TWO_TEAMS))
    kind = draw(st.sampled_from(["played", "played", "throw_in", "redeal"]))
    counters = draw(st.one_of(st.none(), st.tuples(any_number, any_number),
                              st.integers(0, rules.hand_points).map(lambda c: (c, rules.hand_points - c))))
    hand = Hand(draw(st.sampled_from([0, 1, 2])), draw(any_number), (draw(any_number), draw(any_number)),
                counters, kind, None, draw(st.booleans()))
    return rules, hand


@given(rough_hands())
@settings(max_examples=400)
def test_validation_accepts_exactly_the_hands_that_fit(pair):
    rules, hand = pair
    assert (validate_hand(rules, hand) == {}) == oracle_accepts(rules, hand)
