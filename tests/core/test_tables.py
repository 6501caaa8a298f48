"""Tables of every size (docs/rules.md, RULES.md section 6): the seatings, the three presets that bring their own,
a hand scored with N sides, the game's end with N sides, and the properties that tie them to the two-team game."""

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorepad.core.errors import InvalidRules
from scorepad.core.meld import count_meld
from scorepad.core.rules import PRESETS, SEATINGS
from scorepad.core.rules_in_words import describe
from scorepad.core.scoring import Hand, decide_winner, play_game, score_hand, validate_hand
from scorepad.core.seats import dealer_for, first_bidder, seat_label, seats_of, team_of
from tests.fixtures import scoring_two_teams as before

THREE = PRESETS["three-handed"]
THREE_DOUBLE = PRESETS["three-handed-double"]
TWO = PRESETS["two-handed"]
DD = PRESETS["double-deck"]
PARTNERSHIPS = replace(DD, sides=3, players_per_side=2)  # six-handed, three partnerships
NAMES = ("Ann", "Bob", "Cat")

# The section 6 table, preset by preset: (seating, deck, hand points, counter step, min bid, bidding, target,
# meld table, save rule, throw-in award and what it is worth, renege award).
PRESET_TABLE = {
    "three-handed": ((3, 1), "single", 250, 10, 250, True, 1500, "004", 1, "meld", 0, 100),
    "three-handed-double": ((3, 1), "double", 500, 10, 500, True, 4550, "000", 1, "meld_plus_half_bonus", 100, 200),
    "two-handed": ((2, 1), "single", 250, 1, 250, False, 1000, "004", 0, "meld", 0, 100),
}


@pytest.mark.parametrize("name", PRESET_TABLE)
def test_each_preset_with_its_own_seating_holds_the_section_6_table(name):
    r = PRESETS[name]
    award_worth = r.throw_in_bonus if r.throw_in_award != "meld" else 0
    assert ((r.sides, r.players_per_side), r.deck, r.hand_points, r.counter_step, r.min_bid, r.bidding, r.target,
            r.meld_table, r.save_counters, r.throw_in_award, award_worth, r.card_bonus) == PRESET_TABLE[name]


@pytest.mark.parametrize("name", ["double-deck", "double-deck-shg", "double-pack-bicycle", "double-deck-gamerules",
                                  "single-deck"])
def test_the_presets_of_section_1_keep_two_teams_of_two(name):
    assert (PRESETS[name].sides, PRESETS[name].players_per_side, PRESETS[name].bidding) == (2, 2, True)


@pytest.mark.parametrize(("base", "sides", "per_side"), [
    ("double-deck", 2, 2), ("double-deck", 2, 3), ("double-deck", 3, 2), ("double-deck", 2, 4),
    ("single-deck", 3, 2), ("three-handed", 3, 1), ("three-handed", 2, 1), ("two-handed", 2, 1),
])
def test_every_seating_of_section_6_is_a_house_rule_away(base, sides, per_side):
    rules = replace(PRESETS[base], sides=sides, players_per_side=per_side)
    assert (rules.sides, rules.players_per_side, rules.players) == (sides, per_side, sides * per_side)
    assert (sides, per_side) in SEATINGS


@pytest.mark.parametrize(("base", "changes", "option"), [
    ("double-deck", {"sides": 3, "players_per_side": 3}, "sides"),
    ("double-deck", {"sides": 4, "players_per_side": 2}, "sides"),
    ("double-deck", {"sides": 1}, "sides"),
    ("double-deck", {"sides": 3, "players_per_side": 1}, "players_per_side"),
    ("three-handed", {"sides": 2, "players_per_side": 2}, "players_per_side"),
    ("double-deck", {"sides": 3, "players_per_side": 2, "floor": -500}, "floor"),
])
def test_a_seating_section_6_does_not_list_is_refused_by_its_option(base, changes, option):
    with pytest.raises(InvalidRules) as refused:
        replace(PRESETS[base], **changes)
    assert option in refused.value.options


@pytest.mark.parametrize(("sides", "seats", "partners"), [
    (2, 4, [(0, 2), (1, 3)]),
    (3, 6, [(0, 3), (1, 4), (2, 5)]),
    (2, 6, [(0, 2, 4), (1, 3, 5)]),
    (2, 8, [(0, 2, 4, 6), (1, 3, 5, 7)]),
    (3, 3, [(0,), (1,), (2,)]),
])
def test_partners_alternate_round_the_table(sides, seats, partners):
    assert [seats_of(side, sides, seats) for side in range(sides)] == partners
    assert all(team_of(seat, sides) == side for side, group in enumerate(partners) for seat in group)


@pytest.mark.parametrize(("seats", "first", "before", "dealer", "bidder"), [
    (3, 0, 0, 0, 1), (3, 2, 1, 0, 1), (3, 1, 5, 0, 1), (6, 5, 2, 1, 2), (8, 7, 1, 0, 1), (2, 1, 0, 1, 0),
])
def test_the_deal_moves_one_seat_to_the_left_at_every_table(seats, first, before, dealer, bidder):
    assert dealer_for(first, before, seats) == dealer
    assert first_bidder(dealer, seats) == bidder


def test_a_seat_without_a_name_is_a_compass_point_at_four_and_a_numbered_player_elsewhere():
    assert seat_label(2, (None,) * 4) == "South"
    assert [seat_label(s, (None, "Bob", None)) for s in range(3)] == ["Player 1", "Bob", "Player 3"]
    assert seat_label(7, (None,) * 8) == "Player 8"


# --- one hand with N sides -------------------------------------------------------------------------------------
# (rules, hand, points, made): each side judged on its own (RULES.md section 6, "A hand with N sides").
CASES = {
    "cutthroat: the bidder makes it, each other player scores their own": (
        THREE, Hand(0, 300, (150, 40, 60), (160, 50, 40)), (310, 90, 100), True),
    "cutthroat: the bidder is set and loses the bid; the others still score": (
        THREE, Hand(0, 350, (150, 40, 60), (160, 50, 40)), (-350, 90, 100), False),
    "cutthroat: a player who takes no counter does not save their meld": (
        THREE, Hand(1, 250, (150, 200, 60), (160, 90, 0)), (310, 290, 0), True),
    "cutthroat: a bidder of side 2 is judged as side 0 would be": (
        THREE, Hand(2, 250, (40, 60, 150), (50, 40, 160)), (90, 100, 310), True),
    "cutthroat: a throw-in costs the bid; each other player scores their meld": (
        THREE, Hand(0, 300, (100, 40, 60), kind="throw_in"), (-300, 40, 60), None),
    "cutthroat: no marriage in trump is a throw-in": (
        THREE, Hand(1, 250, (40, 100, 0), kind="no_marriage"), (40, -250, 0), None),
    "cutthroat: a renege by the bidder gives each other player meld + 100": (
        THREE, Hand(0, 300, (100, 40, 60), kind="renege", renege_team=0), (-300, 140, 160), None),
    "cutthroat: a renege by another player gives the bidder the bid; the third keeps their meld": (
        THREE, Hand(0, 300, (100, 40, 60), kind="renege", renege_team=1), (300, -300, 60), None),
    "three-hand double: a throw-in gives each other player meld + 100": (
        THREE_DOUBLE, Hand(0, 600, (300, 100, 0), kind="throw_in"), (-600, 200, 100), None),
    "three-hand double: a renege by the bidder gives meld + 200": (
        THREE_DOUBLE, Hand(0, 600, (300, 100, 0), kind="renege", renege_team=0), (-600, 300, 200), None),
    "three-hand double: a scoring trick saves meld": (
        THREE_DOUBLE, Hand(0, 500, (300, 200, 100), (300, 190, 10)), (600, 390, 110), True),
    "two-handed: each player scores meld and counters, nobody bids": (
        TWO, Hand(None, None, (100, 40), (141, 109)), (241, 149), None),
    "two-handed: meld counts without a trick": (
        TWO, Hand(None, None, (0, 80), (250, 0)), (250, 80), None),
    "three partnerships: a side with 20 meld and 15 counters saves nothing": (
        PARTNERSHIPS, Hand(0, 60, (30, 25, 10), (30, 15, 5)), (60, 0, 0), True),
    "three partnerships: a throw-in gives each other side meld on the board + 20": (
        PARTNERSHIPS, Hand(0, 55, (30, 25, 10), kind="throw_in"), (-55, 45, 20), None),
    "three partnerships: a renege by the bidders gives each other side meld on the board + 20": (
        PARTNERSHIPS, Hand(2, 55, (30, 25, 10), kind="renege", renege_team=2), (50, 45, -55), None),
    "two teams of three score as two teams of two": (
        replace(DD, players_per_side=3), Hand(0, 65, (40, 30), (24, 26)), (-65, 56), False),
    "two teams of four score as two teams of two": (
        replace(DD, players_per_side=4), Hand(0, 65, (40, 30), (25, 25)), (65, 55), True),
    "two players bidding (the auction game) score as cutthroat with two": (
        replace(THREE, sides=2), Hand(1, 250, (40, 150), (50, 200)), (90, 350), True),
}


@pytest.mark.parametrize(("rules", "hand", "points", "made"), CASES.values(), ids=CASES)
def test_a_hand_with_n_sides_scores_each_side_on_its_own(rules, hand, points, made):
    assert validate_hand(rules, hand) == {}
    result = score_hand(rules, hand)
    assert (result.points, result.made) == (points, made)


def test_the_explanation_names_each_player_in_a_cutthroat_hand():
    result = score_hand(THREE, Hand(0, 300, (150, 40, 60), (160, 50, 40)), names=NAMES)
    assert result.explanation == [
        "Ann's meld 150 counts.",
        "Ann took 160 counter points: meld saved (a counter or the last trick saves it).",
        "Ann made 310 (meld 150 + counters 160) against a bid of 300: +310.",
        "Bob's meld 40 counts.",
        "Bob took 50 counter points: meld saved (a counter or the last trick saves it).",
        "Bob scores +90 (meld 40 + counters 50).",
        "Cat's meld 60 counts.",
        "Cat took 40 counter points: meld saved (a counter or the last trick saves it).",
        "Cat scores +100 (meld 60 + counters 40).",
    ]


@pytest.mark.parametrize(("rules", "hand", "expected"), [
    (THREE, Hand(0, 350, (150, 40, 0), (160, 90, 0)),
     ["Ann is set: 310 (meld 150 + counters 160), short of the bid of 350: −350.", "Cat has no meld.",
      "Cat scores nothing."]),
    (THREE, Hand(0, 300, (100, 40, 60), kind="renege", renege_team=1),
     ["Bob reneged: Ann scores the bid, +300.", "Bob loses the bid: −300.", "Cat scores +60 (meld 60)."]),
    (THREE_DOUBLE, Hand(0, 600, (300, 100, 0), kind="throw_in"),
     ["Ann threw in the hand: −600.", "Bob scores +200 (meld 100 + 100 for the cards).",
      "Cat scores +100 (100 for the cards)."]),
    (PARTNERSHIPS, Hand(1, 55, (30, 25, 10), kind="throw_in"),
     ["Bob threw in the hand: −55.", "Ann score +50 (meld 30 + 20 for the cards).",
      "Cat score +20 (20 for the cards)."]),
])
def test_the_explanation_says_each_sides_score_by_name(rules, hand, expected):
    lines = score_hand(rules, hand, names=NAMES).explanation
    assert all(line in lines for line in expected), lines


def test_without_names_the_sides_are_numbered():
    lines = score_hand(TWO, Hand(None, None, (100, 40), (141, 109))).explanation
    assert "Player 1 scores +241 (meld 100 + counters 141)." in lines
    assert "Team 3 score +20 (20 for the cards)." in score_hand(
        PARTNERSHIPS, Hand(0, 55, (30, 25, 0), kind="throw_in")).explanation


@pytest.mark.parametrize(("rules", "hand", "fields"), [
    (THREE, Hand(0, 300, (150, 40, 60), (160, 50, 30)), {"counters"}),
    (THREE, Hand(0, 300, (150, 40, 60), (160, 90)), {"counters"}),
    (THREE, Hand(3, 300, (150, 40, 60), (160, 50, 40)), {"bidder"}),
    (THREE, Hand(0, 300, (150, 40), (160, 90, 0)), {"meld_0", "meld_1", "meld_2"}),
    (THREE, Hand(0, 300, (100, 40, 60), kind="renege", renege_team=3), {"renege_team"}),
    (TWO, Hand(0, 250, (100, 40), (141, 109)), {"bidder", "bid"}),
    (TWO, Hand(None, None, (100, 40), kind="throw_in"), {"kind"}),
    (TWO, Hand(None, None, (100, 40), (141, 108)), {"counters"}),
    (TWO, Hand(None, None, (100, 40)), {"counters"}),
    (PARTNERSHIPS, Hand(0, 60, (30, 25, 10), (30, 15, 5, 0)), {"counters"}),
])
def test_validation_at_every_table_names_the_wrong_field(rules, hand, fields):
    assert set(validate_hand(rules, hand)) == fields


def test_validation_speaks_of_players_where_each_plays_alone():
    errors = validate_hand(THREE, Hand(None, 300, (150, 40, 60), (160, 50, 30)))
    assert errors["bidder"] == "Choose the player who won the bid."
    assert errors["counters"] == "Counters must add up to 250; these add up to 240."


def test_a_bid_forced_on_the_dealer_is_judged_by_the_dealers_side_at_three():
    hand = Hand(2, 250, (40, 60, 150), (50, 40, 160), forced=True)
    assert validate_hand(THREE, hand, dealer=2) == {}
    assert set(validate_hand(THREE, hand, dealer=0)) == {"forced"}


# --- the game with N sides -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("rules", "totals", "bidder", "winner"), [
    (THREE, (1500, 900, 1200), 1, 0),  # the first to the target
    (THREE, (1400, 1490, 1200), 1, None),
    (THREE, (1600, 1510, 1200), 1, 1),  # several over: the bidder among them wins
    (THREE, (1600, 1510, 1200), 2, 0),  # the bidder not among them: the highest total
    (THREE, (1600, 1600, 1200), 2, None),  # an exact tie at the top plays another hand
    (THREE, (1600, 1600, 1700), 2, 2),
    (PARTNERSHIPS, (520, 510, 300), 1, 1),
    (TWO, (1010, 1020), None, 1),  # two-handed: both over, the higher total wins
    (TWO, (1020, 1020), None, None),
    (replace(THREE, target=1500, hands_limit=4), (1600, 400, 300), 0, None),  # a fixed number of hands
])
def test_the_game_at_n_sides_is_won_as_section_6_says(rules, totals, bidder, winner):
    decision = decide_winner(rules, totals, bidder, 1, NAMES[:rules.sides])
    assert (decision and decision[0]) == winner


@pytest.mark.parametrize(("totals", "winner"), [((300, 900, 900), None), ((300, 950, 900), 1), ((1, 0, 1), None)])
def test_after_a_fixed_number_of_hands_the_highest_total_of_n_sides_wins(totals, winner):
    decision = decide_winner(replace(THREE, hands_limit=4), totals, 0, 4, NAMES)
    assert (decision and decision[0]) == winner


def test_a_cutthroat_game_is_folded_to_its_winner_and_takes_no_more_hands():
    hands = [Hand(0, 300, (150, 40, 60), (160, 50, 40))] * 5 + [Hand(1, 250, (0, 300, 0), (0, 250, 0))]
    state = play_game(THREE, hands[:5], names=NAMES)
    assert state.totals == (1550, 450, 500)
    assert (state.winner, state.decided_on) == (0, 5)
    assert state.reason == "Ann reached 1,500 first (1,550 to 450 to 500)."


def test_a_two_handed_game_without_bidding_goes_to_1000():
    state = play_game(TWO, [Hand(None, None, (100, 40), (150, 100))] * 4)
    assert state.totals == (1000, 560)
    assert state.winner == 0


def test_rules_in_words_say_the_table_and_how_it_ends():
    lines = describe(THREE)
    assert "The table: three-handed (cutthroat): every player for themselves (3 players)." in lines
    assert any(line.startswith("Game is 1,500; if several players reach it") for line in lines)
    assert "Nobody bids: every hand, each player scores their meld and counters." in describe(TWO)
    assert not any("throw in" in line for line in describe(TWO))


@pytest.mark.parametrize(("table", "players", "cards", "noted"), [
    ("004", 3, 15, False), ("004", 3, 12, True), ("000", 3, 25, False), ("004", 2, 12, False), ("002", 4, 20, False),
])
def test_the_meld_calculator_knows_a_lone_players_hand_size(table, players, cards, noted):
    deck = ["AS", "TS", "KS", "QS", "JS", "AH", "TH", "KH", "QH", "JH", "AD", "TD", "KD", "QD", "JD", "AC", "TC",
            "KC", "QC", "JC"] * 2
    meld = count_meld(deck[:cards], "S", table, players=players)
    assert any("cards;" in note for note in meld.notes) == noted


# --- properties -----------------------------------------------------------------------------------------------

TWO_TEAMS = [rules for rules in PRESETS.values() if rules.sides == 2 and rules.players_per_side > 1]
N_SIDED = [THREE, THREE_DOUBLE, PARTNERSHIPS, replace(PRESETS["single-deck"], sides=3, players_per_side=2),
           replace(PRESETS["double-pack-bicycle"], sides=3, players_per_side=2),
           replace(PRESETS["double-deck-gamerules"], sides=3, players_per_side=2, floor=None)]
AWARDS = ["meld_plus_bonus", "meld", "nothing"]  # the throw-in awards two teams had before section 6
house = st.fixed_dictionaries({
    "set_penalty": st.sampled_from(["bid", "meld_and_counters", "chips"]),
    "throw_in_award": st.sampled_from(AWARDS),
    "opponents_score_when_made": st.booleans(),
    "unsaved_counters_score": st.booleans(),
})


@st.composite
def hands(draw, rules):
    """A valid hand under `rules`, at any table."""
    steps = rules.hand_points // rules.counter_step
    cuts = sorted(draw(st.lists(st.integers(0, steps), min_size=rules.sides - 1, max_size=rules.sides - 1)))
    counters = tuple((b - a) * rules.counter_step for a, b in zip([0, *cuts], [*cuts, steps], strict=True))
    meld = tuple(draw(st.integers(0, rules.hand_points // rules.meld_step)) * rules.meld_step
                 for _ in range(rules.sides))
    if not rules.bidding:
        return Hand(None, None, meld, counters)
    kind = draw(st.sampled_from(["played", "played", "throw_in", "no_marriage", "renege"]))
    bid = draw(st.integers(rules.min_bid, rules.min_bid * 2))
    bid -= bid % rules.bid_step_at(bid)
    bidder = draw(st.integers(0, rules.sides - 1))
    renege = draw(st.integers(0, rules.sides - 1)) if kind == "renege" else None
    return Hand(bidder, max(bid, rules.min_bid), meld, counters if kind == "played" else None, kind, renege)


@st.composite
def two_team_games(draw):
    rules = replace(draw(st.sampled_from(TWO_TEAMS)), **draw(house))
    return rules, draw(st.lists(hands(rules), max_size=30))


@given(two_team_games())
@settings(max_examples=150)
def test_a_two_side_game_scores_identically_before_and_after(game):
    rules, played = game
    then = [before.Hand(h.bidder, h.bid, h.meld, h.counters, h.kind, h.renege_team, h.forced) for h in played]
    try:
        expected = before.play_game(rules, then)
    except before.GameOver:
        with pytest.raises(Exception, match="cannot be added"):
            play_game(rules, played)
        return
    now = play_game(rules, played)
    assert (now.totals, now.winner, now.running, now.decided_on, now.reason) == (
        expected.totals, expected.winner, expected.running, expected.decided_on, expected.reason)
    assert [(r.points, r.made, r.scored_as, r.explanation) for r in now.results] == [
        (r.points, r.made, r.scored_as, r.explanation) for r in expected.results]


@st.composite
def n_side_hands(draw):
    award = draw(st.sampled_from([*AWARDS, "meld_plus_half_bonus"]))
    rules = replace(draw(st.sampled_from(N_SIDED)), **{**draw(house), "throw_in_award": award})
    return rules, draw(hands(rules)), draw(st.permutations(range(rules.sides)))


@given(n_side_hands())
@settings(max_examples=300)
def test_permuting_the_non_bidding_sides_permutes_their_points(drawn):
    rules, hand, order = drawn
    assume(order[hand.bidder] == hand.bidder)  # the bidder keeps their place; the others change places
    where = {old: new for new, old in enumerate(order)}  # side `old` sits at `where[old]` after the move
    moved = Hand(hand.bidder, hand.bid, tuple(hand.meld[old] for old in order),
                 None if hand.counters is None else tuple(hand.counters[old] for old in order), hand.kind,
                 None if hand.renege_team is None else where[hand.renege_team])
    points, moved_points = score_hand(rules, hand).points, score_hand(rules, moved).points
    assert moved_points == tuple(points[old] for old in order)


@given(n_side_hands(), st.integers(1, 3))
@settings(max_examples=300)
def test_the_counters_of_all_sides_always_sum_to_the_hands_points(drawn, nudge):
    rules, hand, _ = drawn
    assume(hand.counters is not None)
    assert sum(hand.counters) == rules.hand_points and validate_hand(rules, hand) == {}
    side = nudge % rules.sides
    off = tuple(c + (rules.counter_step if s == side else 0) for s, c in enumerate(hand.counters))
    errors = validate_hand(rules, Hand(hand.bidder, hand.bid, hand.meld, off, hand.kind))
    assert "counters" in errors or f"counters_{side}" in errors


def test_the_winner_of_a_game_of_three_sides_is_named_by_number_without_names():
    assert decide_winner(THREE, (1500, 0, 0), 0, 1) == (0, "Player 1 reached 1,500 first (1,500 to 0 to 0).")


def test_a_partnerships_meld_is_written_as_its_label_not_as_a_possessive_of_its_name():
    """Three partnerships are called Us, Them and Others: "Us meld 30 counts", never "Us's meld"."""
    result = score_hand(PARTNERSHIPS, Hand(0, 50, (30, 20, 10), (30, 10, 10)), names=("Us", "Them", "Others"))
    text = " ".join(result.explanation)
    assert "Us meld 30" in text and "Them meld 20" in text
    assert "'s meld" not in text and "s' meld" not in text


def test_two_players_who_turn_bidding_on_score_as_three_handed_with_two_players():
    from scorepad.core.rules import with_house_rules

    auction = with_house_rules(TWO, {"bidding": True})
    three_at_two = replace(THREE, sides=2)
    assert (auction.save_counters, auction.unsaved_counters_score) == (three_at_two.save_counters,
                                                                       three_at_two.unsaved_counters_score)
    # Bob melds 60 and takes no counter: his meld is lost, as three-handed loses it (section 6)
    hand = Hand(0, 250, (200, 60), (250, 0))
    assert score_hand(auction, hand).points == score_hand(three_at_two, hand).points == (450, 0)
    assert "Meld counts without taking any counters." not in describe(auction)
    # a table that sets its own save rule keeps it
    assert with_house_rules(TWO, {"bidding": True, "save_counters": 0}).save_counters == 0
