"""RULES.md §3: meld counted from the cards, every worked example of seed 002 and every row of each table."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scorepad.core.cards import RANKS, SUITS, Card, cards_text, parse_cards
from scorepad.core.meld import DECK_COPIES, TABLES, count_meld
from scorepad.core.rules import PRESETS

# Seed 002 §2, every example, checked card by card. Two of 002's own totals are wrong; the comment says why.
EXAMPLES_002 = [
    ("S", "♥K K Q J ♦A 10 10 K Q J ♣A 10 K Q ♠A 10 K Q J J", 39,
     [("Run in ♠", 15), ("Marriage in ♥", 2), ("Marriage in ♦", 2), ("Marriage in ♣", 2), ("Pinochle", 4),
      ("Kings around", 8), ("Queens around", 6)]),
    ("S", "♥A A 10 K Q J ♦A 10 Q J ♣A 10 K Q J J ♠A 10 J J", 18,
     [("Marriage in ♥", 2), ("Marriage in ♣", 2), ("Aces around", 10), ("Jacks around", 4)]),
    ("S", "♥10 10 K Q J ♦A A 10 K J ♣A A K K Q J ♠10 K K Q", 20,
     [("Royal marriage", 4), ("Marriage in ♥", 2), ("Marriage in ♣", 2), ("Pinochle", 4), ("Kings around", 8)]),
    # 002 prints 16: it counts the K-Q of spades as a plain marriage (2), but spades are trump: royal (4).
    ("S", "♥A A 10 Q J ♦K K Q Q J ♣10 10 Q J ♠A A 10 K Q Q", 18,
     [("Royal marriage", 4), ("2 marriages in ♦", 4), ("Pinochle", 4), ("Queens around", 6)]),
    ("D", "♥10 10 K K J ♦A 10 10 K Q J ♣A 10 10 Q ♠A K Q J J", 21,
     [("Run in ♦", 15), ("Marriage in ♠", 2), ("Pinochle", 4)]),
    ("D", "♥A A 10 K Q ♦A 10 K Q J ♣A 10 K Q J J ♠A 10 J J", 29,
     [("Run in ♦", 15), ("Marriage in ♥", 2), ("Marriage in ♣", 2), ("Aces around", 10)]),
    # 002 prints 28 (a round house 24 + a pinochle 4): there is no J♦ in this hand, so no pinochle.
    ("D", "♥A A K Q Q J ♦K Q Q ♣K Q J ♠A A 10 10 K Q Q Q", 24,
     [("Royal marriage", 4), ("Marriage in ♠", 2), ("Marriage in ♥", 2), ("Marriage in ♣", 2),
      ("Kings around", 8), ("Queens around", 6)]),
    ("D", "♥10 Q J J ♦A A 10 K J J ♣A A 10 K K Q J ♠10 K K", 2, [("Marriage in ♣", 2)]),
    ("H", "♥A 10 K K K Q Q J ♦Q Q J ♣Q Q ♠A K K Q Q J J", 87,
     [("Run in ♥", 15), ("Royal marriage", 4), ("2 marriages in ♠", 4), ("Pinochle", 4),
      ("Double queens around", 60)]),
    ("H", "♥A K Q J ♦A 10 10 Q J ♣A 10 K Q J J ♠A 10 10 J J", 20,
     [("Royal marriage", 4), ("Marriage in ♣", 2), ("Aces around", 10), ("Jacks around", 4)]),
    ("H", "♥10 10 Q J ♦A A 10 K J ♣A A 10 10 K K J ♠10 K K Q", 6, [("Marriage in ♠", 2), ("Pinochle", 4)]),
    ("H", "♥A A 10 J ♦A 10 K K K Q J ♣A 10 K Q J ♠A A 10 Q", 18,
     [("Marriage in ♦", 2), ("Marriage in ♣", 2), ("Pinochle", 4), ("Aces around", 10)]),
]


@pytest.mark.parametrize(("trump", "cards", "total", "items"), EXAMPLES_002,
                         ids=[f"002 example {i + 1} ({e[2]})" for i, e in enumerate(EXAMPLES_002)])
def test_every_worked_example_of_seed_002(trump, cards, total, items):
    meld = count_meld(cards, trump, "002")
    assert meld.items == items
    assert meld.total == total == sum(points for _, points in items)
    assert not any("cards" in note for note in meld.notes)  # each example is a full 20-card hand


def test_a_run_and_a_round_house_is_35_not_39():
    """002: the marriage in trump is used by the run, so the round house adds only 20."""
    meld = count_meld("♠A 10 K Q J ♥K Q ♦K Q ♣K Q", "S", "002")
    assert meld.total == 35


RUN = "A{s} T{s} K{s} Q{s} J{s}"


def multiples(values):
    """(copies, the word for them, points) for each column of a table row."""
    return [(i + 1, ("", "Double ", "Triple ", "Quadruple ")[i], v) for i, v in enumerate(values)]


def copies(n, text):
    return " ".join([text] * n)


# (what, table, cards, trump, expected items)
ROWS = [
    *[(f"{n}× run, {t}", t, copies(n, RUN.format(s="S")), "S", [(f"{m}run in ♠".capitalize(), v)])
      for t, values in [("002", (15, 150, 300)), ("tournament", (15, 150, 225, 300)), ("000", (150, 300, 450, 600))]
      for n, m, v in multiples(values)],
    *[(f"{n}× run, {t}", t, copies(n, RUN.format(s="S")), "S", [(f"{m}run in ♠".capitalize(), v)])
      for t in ("004", "004-plain") for n, m, v in multiples((150, 1500))],
    ("quadruple run wins the game in 002", "002", copies(4, RUN.format(s="S")), "S",
     [("Quadruple run in ♠: wins the game", 0)]),
    ("run plus a king of trump earns nothing extra in 002", "002", RUN.format(s="S") + " KS", "S",
     [("Run in ♠", 15)]),
    ("run plus K and Q of trump is a run and a royal marriage in 002", "002", RUN.format(s="S") + " KS QS", "S",
     [("Run in ♠", 15), ("Royal marriage", 4)]),
    ("run plus K in 004 is 190", "004", RUN.format(s="S") + " KS", "S",
     [("Run in ♠", 150), ("Extra king of ♠ beside the run", 40)]),
    ("run plus K and Q in 004 is 230", "004", RUN.format(s="S") + " KS QS", "S",
     [("Run in ♠", 150), ("Extra king of ♠ beside the run", 40), ("Extra queen of ♠ beside the run", 40)]),
    ("run plus K in 004-plain earns nothing extra", "004-plain", RUN.format(s="S") + " KS", "S",
     [("Run in ♠", 150)]),
    ("run plus K and Q in 004-plain is a run and a royal marriage", "004-plain", RUN.format(s="S") + " KS QS", "S",
     [("Run in ♠", 150), ("Royal marriage", 40)]),
    *[(f"{n} royal marriages, {t}", t, copies(n, "KH QH"), "H",
       [("Royal marriage" if n == 1 else f"{n} royal marriages", n * v)])
      for t, v in [("002", 4), ("tournament", 4), ("000", 40), ("004", 40)] for n in (1, 2)],
    *[(f"{n} marriages, {t}", t, copies(n, "KD QD"), "H",
       [("Marriage in ♦" if n == 1 else f"{n} marriages in ♦", n * v)])
      for t, v in [("002", 2), ("tournament", 2), ("000", 20), ("004", 20)] for n in (1, 2)],
    ("a run in a side suit counts as its marriage only", "002", RUN.format(s="C"), "S", [("Marriage in ♣", 2)]),
    *[(f"{n}× pinochle, {t}", t, copies(n, "QS JD"), "H", [(f"{m}pinochle".capitalize(), v)])
      for t, values in [("002", (4, 30, 90, 300)), ("tournament", (4, 30, 60, 90)), ("000", (40, 300, 450, 3000)),
                        ("004", (40, 300))]
      for n, m, v in multiples(values)],
    *[(f"{n}× {name} around, {t}", t, copies(n, f"{r}S {r}H {r}D {r}C"), "H",
       [(f"{m}{name} around".capitalize(), v)])
      for t, table in [("002", {"A": (10, 100, 200, 300), "K": (8, 80, 160, 240), "Q": (6, 60, 120, 180),
                                "J": (4, 40, 80, 120)}),
                       ("tournament", {"A": (10, 100, 150, 200), "K": (8, 80, 120, 160), "Q": (6, 60, 90, 120),
                                       "J": (4, 40, 60, 80)}),
                       ("000", {"A": (100, 1000, 1500, 2000), "K": (80, 800, 1200, 1600),
                                "Q": (60, 600, 900, 1200), "J": (40, 400, 600, 800)}),
                       ("004", {"A": (100, 1000), "K": (80, 800), "Q": (60, 600), "J": (40, 400)})]
      for r, name in [("A", "aces"), ("K", "kings"), ("Q", "queens"), ("J", "jacks")]
      for n, m, v in multiples(table[r])],
    ("tens around count nothing", "002", "TS TH TD TC", "H", []),
    ("the dix counts 10 in single deck", "004", "9H", "H", [("Dix (9♥)", 10)]),
    ("two dix count 20", "004", "9H 9H", "H", [("2 dix (9♥)", 20)]),
    ("a 9 of a side suit counts nothing", "004", "9S", "H", []),
]


@pytest.mark.parametrize(("table", "cards", "trump", "items"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_every_row_of_each_meld_table(table, cards, trump, items):
    assert count_meld(cards, trump, table).items == items


def test_the_quadruple_run_wins_the_game_apart_from_the_total():
    meld = count_meld(copies(4, RUN.format(s="S")) + " JD", "S", "002")  # a Q♠ of a run makes the pinochle
    assert meld.wins_game is True
    assert meld.total == 4  # the pinochle only
    assert "wins the game outright" in " ".join(meld.notes)


@pytest.mark.parametrize(("cards", "table", "message"), [
    ("AS AS AS AS AS", "002", "5 × A♠ is more than the deck holds: a double deck has 4 of each card."),
    ("KH KH KH", "004", "3 × K♥ is more than the deck holds: a single deck has 2 of each card."),
    ("9S", "tournament", "There are no 9s in a double deck: 9♠ cannot be in this hand."),
])
def test_an_impossible_hand_is_refused(cards, table, message):
    with pytest.raises(ValueError) as caught:
        count_meld(cards, "S", table)
    assert str(caught.value) == message


def test_a_short_hand_is_counted_with_a_note():
    meld = count_meld("QS JD", "H", "002")
    assert meld.total == 4
    assert meld.notes == ["This hand has 2 cards; a double-deck hand has 20. Counted as it is."]


def test_an_unknown_table_or_trump_is_refused():
    with pytest.raises(ValueError, match="not a meld table"):
        count_meld("QS JD", "H", "pinochle-deluxe")
    with pytest.raises(ValueError, match="not a suit"):
        count_meld("QS JD", "X", "002")


def test_every_preset_names_a_meld_table_of_its_own_deck():
    for rules in PRESETS.values():
        assert TABLES[rules.meld_table].deck == rules.deck


@pytest.mark.parametrize(("text", "cards"), [
    ("AS TS 10S KS QS JS 9S", [Card(r, "S") for r in "ATTKQJ9"]),
    ("a♠ 10♥ k♦ q♣", [Card("A", "S"), Card("T", "H"), Card("K", "D"), Card("Q", "C")]),
    ("♥K K, Q; J", [Card(r, "H") for r in "KKQJ"]),
    ("♠ A 10", [Card("A", "S"), Card("T", "S")]),
    ("HK DQ", [Card("K", "H"), Card("Q", "D")]),
    ("", []),
])
def test_parse_cards_reads_what_players_type(text, cards):
    assert parse_cards(text) == cards


@pytest.mark.parametrize(("text", "message"), [
    ("AS XX", "'XX' is not a card"),
    ("K", "'K' has no suit"),
    ("11S", "'11S' is not a card"),
])
def test_parse_cards_names_a_bad_token(text, message):
    with pytest.raises(ValueError, match=message):
        parse_cards(text)


# --- properties ---------------------------------------------------------------------------------------------

def hands(table):
    deck = TABLES[table].deck
    ranks = RANKS if deck == "single" else RANKS[:-1]
    every_card = [Card(r, s) for r in ranks for s in SUITS for _ in range(DECK_COPIES[deck])]
    return st.lists(st.sampled_from(range(len(every_card))), unique=True, max_size=24).map(
        lambda idx: [every_card[i] for i in idx])


@st.composite
def hand_and_more(draw):
    table = draw(st.sampled_from(list(TABLES)))
    hand = draw(hands(table))
    deck = TABLES[table].deck
    ranks = RANKS if deck == "single" else RANKS[:-1]
    card = Card(draw(st.sampled_from(ranks)), draw(st.sampled_from(SUITS)))
    assume(hand.count(card) < DECK_COPIES[deck])
    return table, hand, card, draw(st.sampled_from(SUITS))


@given(hand_and_more())
def test_adding_a_card_never_lowers_the_meld(case):
    table, hand, card, trump = case
    before = count_meld(hand, trump, table)
    after = count_meld(hand + [card], trump, table)
    if after.wins_game and not before.wins_game:
        return  # the game-winning quadruple run takes the run's points off the total
    assert after.total >= before.total


SWAP = {"H": "C", "C": "H", "S": "S", "D": "D"}


@given(hand_and_more())
def test_swapping_hearts_and_clubs_leaves_the_total_unchanged(case):
    table, hand, _, trump = case
    swapped = [Card(c.rank, SWAP[c.suit]) for c in hand]
    assert count_meld(swapped, SWAP[trump], table).total == count_meld(hand, trump, table).total


@given(hand_and_more())
def test_the_total_is_the_sum_of_the_items_and_text_round_trips(case):
    table, hand, _, trump = case
    meld = count_meld(hand, trump, table)
    assert meld.total == sum(points for _, points in meld.items)
    assert sorted(parse_cards(cards_text(hand))) == sorted(hand)
