"""Meld counted from the cards, under the meld tables printed in docs/rules.md, with the breakdown that ends the
argument.

A card is used once per meld type and may serve in several types: type I runs and marriages, type II
pinochles (Q♠ + J♦), type III arounds. Doubles and more need that many complete copies.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import product

from .cards import RANKS, SUIT_SYMBOLS, SUITS, Card, parse_cards, suit_of

WINS_GAME = None  # a table entry that is not points: the 002 quadruple run wins the game outright


@dataclass(frozen=True)
class MeldTable:
    """One meld table (each preset's "Meld table" in docs/rules.md). Tuples are indexed by copies - 1 (single,
    double, triple, quadruple)."""

    name: str
    deck: str  # "double", "triple" or "single": how many copies of a card exist, and whether there are 9s
    run: tuple
    extra_beside_run: int  # each extra K or Q of trump beside a run (004); 0 where it earns nothing
    royal_marriage: int
    marriage: int
    pinochle: tuple
    arounds: dict  # rank -> tuple
    dix: int  # the 9 of trump, each; 0 where there are no 9s
    once_only: bool = False  # 003: "each card may only be used once for melding", whatever the meld's type


_ARNDS_002 = {"A": (10, 100, 200, 300), "K": (8, 80, 160, 240), "Q": (6, 60, 120, 180), "J": (4, 40, 80, 120)}
_ARNDS_TOURNAMENT = {"A": (10, 100, 150, 200), "K": (8, 80, 120, 160), "Q": (6, 60, 90, 120),
                     "J": (4, 40, 60, 80)}
_ARNDS_000 = {"A": (100, 1000, 1500, 2000), "K": (80, 800, 1200, 1600), "Q": (60, 600, 900, 1200),
              "J": (40, 400, 600, 800)}
# Three decks without 9s (six copies of each card): the family double-deck values, each meld of five or six
# copies going on as the fourth did. Scorepad's own numbers: no rule book we follow prints them.
_ARNDS_TRIPLE = {"A": (10, 100, 200, 300, 400, 500), "K": (8, 80, 160, 240, 320, 400),
                 "Q": (6, 60, 120, 180, 240, 300), "J": (4, 40, 80, 120, 160, 200)}
_ARNDS_004 = {"A": (100, 1000), "K": (80, 800), "Q": (60, 600), "J": (40, 400)}

TABLES: dict[str, MeldTable] = {
    "002": MeldTable("002", "double", (15, 150, 300, WINS_GAME), 0, 4, 2, (4, 30, 90, 300), _ARNDS_002, 0),
    "tournament": MeldTable("tournament", "double", (15, 150, 225, 300), 0, 4, 2, (4, 30, 60, 90),
                            _ARNDS_TOURNAMENT, 0),
    "000": MeldTable("000", "double", (150, 300, 450, 600), 0, 40, 20, (40, 300, 450, 3000), _ARNDS_000, 0),
    "004": MeldTable("004", "single", (150, 1500), 40, 40, 20, (40, 300), _ARNDS_004, 10),
    "004-plain": MeldTable("004-plain", "single", (150, 1500), 0, 40, 20, (40, 300), _ARNDS_004, 10),
    "tournament-once": MeldTable("tournament-once", "double", (15, 150, 225, 300), 0, 4, 2, (4, 30, 60, 90),
                                 _ARNDS_TOURNAMENT, 0, once_only=True),
    "triple": MeldTable("triple", "triple", (15, 150, 300, WINS_GAME, WINS_GAME, WINS_GAME), 0, 4, 2,
                        (4, 30, 90, 300, 450, 600), _ARNDS_TRIPLE, 0),
}
DECK_COPIES = {"double": 4, "single": 2, "triple": 6}
HAND_SIZE = {"double": 20, "single": 12, "triple": 20}
# A player's hand at each table (deck, players): what is left over goes to the kitty or widow (three-handed) or
# the stock (two-handed deals 12 each from a single deck).
HAND_SIZES = {
    ("single", 2): 12, ("single", 3): 15, ("single", 4): 12, ("single", 6): 8, ("single", 8): 6,
    ("double", 2): 20, ("double", 3): 25, ("double", 4): 20, ("double", 6): 13, ("double", 8): 10,
    ("triple", 6): 20,
}


def hand_size(deck: str, players: int) -> int:
    """The cards one player holds at a table of `players` with `deck` (a partnership of four: 20 or 12)."""
    return HAND_SIZES.get((deck, players), HAND_SIZE[deck])
MULTIPLE = ("", "Double ", "Triple ", "Quadruple ", "Quintuple ", "Sextuple ")
AROUND_NAMES = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks"}


@dataclass(frozen=True)
class MeldCount:
    total: int
    items: list[tuple[str, int]] = field(default_factory=list)  # (what a player calls it, points)
    wins_game: bool = False  # counted apart from the total
    notes: list[str] = field(default_factory=list)  # things worth saying that are not meld
    dix: int = 0  # the part of the total that is the dix

    @property
    def only_dix(self) -> bool:
        """Whether the whole meld is one or both dix, which saves itself without a counter (004)."""
        return self.total > 0 and self.dix == self.total


def count_meld(cards, trump: str, table: str, players: int = 4) -> MeldCount:
    """The meld in one player's hand. `cards`: text or a list from `parse_cards`; `trump`: S, H, D, C (or ♠ ♥ ♦ ♣);
    `table`: a name in TABLES; `players`: how many sit at the table (it says how many cards a hand holds). A
    player on their own counts their hand as a partner counts theirs: nobody's meld is added to it.
    Raises ValueError for a hand the deck cannot deal."""
    if table not in TABLES:
        raise ValueError(f"{table!r} is not a meld table: use one of {', '.join(TABLES)}.")
    trump = suit_of(trump)
    return _counted(Counter(parse_cards(cards)), trump, TABLES[table], players)


def _counted(hand: Counter, trump: str, meld_table: MeldTable, players: int) -> MeldCount:
    _check_deck(hand, meld_table.deck)
    items: list[tuple[str, int]] = []
    if meld_table.once_only:
        wins_game = _once_only(hand, trump, meld_table, items)
    else:
        wins_game = _runs_and_marriages(hand, trump, meld_table, items)
        _pinochles(hand, meld_table, items)
        _arounds(hand, meld_table, items)
    before_dix = sum(points for _, points in items)
    _dix(hand, trump, meld_table, items)
    dix = sum(points for _, points in items) - before_dix
    notes = _notes(hand, meld_table.deck, wins_game, players)
    if meld_table.once_only:
        notes.append("Each card counts in one meld only: of the melds that share a card, the best split is "
                     "counted.")
    return MeldCount(sum(points for _, points in items), items, wins_game, notes, dix)


def _check_deck(hand: Counter, deck: str) -> None:
    copies = DECK_COPIES[deck]
    for card in sorted(hand, key=lambda c: (SUITS.index(c.suit), RANKS.index(c.rank))):
        if deck != "single" and card.rank == "9":
            raise ValueError(f"There are no 9s in a {deck} deck: {card} cannot be in this hand.")
        if hand[card] > copies:
            raise ValueError(f"{hand[card]} × {card} is more than the deck holds: a {deck} deck has "
                             f"{copies} of each card.")


def _copies(hand: Counter, ranks: str, suit: str) -> int:
    return min(hand[Card(rank, suit)] for rank in ranks)


def _runs_and_marriages(hand: Counter, trump: str, table: MeldTable, items: list) -> bool:
    symbol = SUIT_SYMBOLS[trump]
    runs = _copies(hand, "ATKQJ", trump)
    wins_game = False
    if runs:
        value = table.run[runs - 1]
        if value is WINS_GAME:
            wins_game = True
            items.append((f"Quadruple run in {symbol}: wins the game", 0))
        else:
            items.append((f"{MULTIPLE[runs - 1]}run in {symbol}".capitalize(), value))
    kings = hand[Card("K", trump)] - runs
    queens = hand[Card("Q", trump)] - runs
    if runs and table.extra_beside_run:
        # 004: each K or Q of trump beside a run earns its own bonus (run + K + Q = 230, not 190)
        for rank, extra in (("K", kings), ("Q", queens)):
            if extra:
                name = "king" if rank == "K" else "queen"
                label = f"Extra {name} of {symbol} beside the run" if extra == 1 else \
                    f"{extra} extra {name}s of {symbol} beside the run"
                items.append((label, extra * table.extra_beside_run))
    else:
        royal = min(kings, queens)
        if royal:
            label = "Royal marriage" if royal == 1 else f"{royal} royal marriages"
            items.append((label, royal * table.royal_marriage))
    for suit in SUITS:
        if suit == trump:
            continue
        pairs = _copies(hand, "KQ", suit)
        if pairs:
            label = f"Marriage in {SUIT_SYMBOLS[suit]}" if pairs == 1 else \
                f"{pairs} marriages in {SUIT_SYMBOLS[suit]}"
            items.append((label, pairs * table.marriage))
    return wins_game


def _once_only(hand: Counter, trump: str, table: MeldTable, items: list) -> bool:
    """The melds of `hand` when no card may serve in two of them: every split of the cards among runs,
    pinochles and arounds is tried (a hand holds at most four of a card, so there are few), and the K-Q pairs
    left over are marriages. The split worth most is counted."""
    best: tuple[int, list, bool] = (-1, [], False)
    ranges = [range(_copies(hand, "ATKQJ", trump) + 1), range(min(hand[Card("Q", "S")], hand[Card("J", "D")]) + 1)]
    ranges += [range(min(hand[Card(rank, suit)] for suit in SUITS) + 1) for rank in table.arounds]
    for split in product(*ranges):
        left = _left_after(hand, trump, table, split)
        if left is None:
            continue
        split_items: list = []
        wins_game = _runs_and_marriages(left + _run_cards(trump, split[0]), trump, table, split_items)
        _pinochles(Counter({Card("Q", "S"): split[1], Card("J", "D"): split[1]}), table, split_items)
        _arounds(Counter({Card(rank, suit): n for rank, n in zip(table.arounds, split[2:], strict=False)
                          for suit in SUITS}), table, split_items)
        value = sum(points for _, points in split_items)
        if value > best[0]:
            best = (value, split_items, wins_game)
    items.extend(best[1])
    return best[2]


def _run_cards(trump: str, runs: int) -> Counter:
    return Counter({Card(rank, trump): runs for rank in "ATKQJ"})


def _left_after(hand: Counter, trump: str, table: MeldTable, split: tuple) -> Counter | None:
    """The cards `split` (runs, pinochles, then each around) leaves for marriages, or None if it needs more
    cards than the hand holds."""
    used = _run_cards(trump, split[0]) + Counter({Card("Q", "S"): split[1], Card("J", "D"): split[1]})
    for rank, n in zip(table.arounds, split[2:], strict=False):
        used += Counter({Card(rank, suit): n for suit in SUITS})
    if any(used[card] > hand[card] for card in used):
        return None
    return hand - used


def _pinochles(hand: Counter, table: MeldTable, items: list) -> None:
    n = min(hand[Card("Q", "S")], hand[Card("J", "D")])
    if n:
        items.append((f"{MULTIPLE[n - 1]}pinochle".capitalize(), table.pinochle[n - 1]))


def _arounds(hand: Counter, table: MeldTable, items: list) -> None:
    for rank, values in table.arounds.items():
        n = min(hand[Card(rank, suit)] for suit in SUITS)
        if n:
            items.append((f"{MULTIPLE[n - 1]}{AROUND_NAMES[rank]} around".capitalize(), values[n - 1]))


def _dix(hand: Counter, trump: str, table: MeldTable, items: list) -> None:
    n = hand[Card("9", trump)]
    if n and table.dix:
        label = f"Dix (9{SUIT_SYMBOLS[trump]})" if n == 1 else f"{n} dix (9{SUIT_SYMBOLS[trump]})"
        items.append((label, n * table.dix))


def _notes(hand: Counter, deck: str, wins_game: bool, players: int) -> list[str]:
    notes = []
    size, expected = sum(hand.values()), hand_size(deck, players)
    table = "" if players == 4 else f"at a table of {players}, "
    if size != expected:
        notes.append(f"This hand has {size} cards; {table}a {deck}-deck hand has {expected}. Counted as it is.")
    if min(hand[Card("T", s)] for s in SUITS):
        notes.append("Tens around count nothing.")
    if wins_game:
        notes.append("A quadruple run in trump wins the game outright; it is not added to the total.")
    return notes


# --- the most a hand can meld ---------------------------------------------------------------------------------

def most_meld(table: str, cards: int) -> int:
    """A bound on what a hand of `cards` cards can meld under `table`: never less than the most any such hand
    melds (a quadruple run that wins the game counts nothing, as in the total). Found from the table itself, by
    `count_meld`: each kind of meld (runs and marriages; pinochles; arounds; the dix) is given all `cards` to
    itself, since one card may serve in several kinds, and the best of each kind is added up, under the best
    trump."""
    return _most_meld(table, min(max(cards, 0), DECK_COPIES[TABLES[table].deck] * 24))


@lru_cache(maxsize=64)
def _most_meld(table: str, cards: int) -> int:
    # every kind is counted on its own, and each is alike under any trump (the pinochle and the arounds do not
    # turn on it; a run, its kings and queens and the other suits' marriages are the same in every suit): one
    # trump tells them all
    return sum(_best_within(kind, cards) for kind in _kinds(table, "S"))


def _kinds(table: str, trump: str) -> list[list[list[tuple[int, int]]]]:
    """The kinds of meld under `trump`, each a list of groups; a group is its choices, (cards, points) each.
    Runs and marriages share cards (a run's K and Q are no royal marriage), so they are one kind of several
    groups: trump's run with the kings and queens beside it, and each other suit's marriages."""
    # where each card serves in one meld only, a hand melds no more than it would with the same values counted the
    # usual way: the bound is that one's, found at a fraction of the cost
    meld_table = replace(TABLES[table], once_only=False)
    copies = DECK_COPIES[meld_table.deck]

    def points(counts: dict) -> tuple[int, int]:
        hand = Counter({card: n for card, n in counts.items() if n})
        return sum(hand.values()), _counted(hand, trump, meld_table, 4).total

    trump_cards = [points({**{Card(rank, trump): runs for rank in "ATJ"}, Card("K", trump): runs + kings,
                           Card("Q", trump): runs + queens})
                   for runs in range(copies + 1) for kings in range(copies - runs + 1)
                   for queens in range(copies - runs + 1)]
    marriages = [[points({Card("K", suit): n, Card("Q", suit): n}) for n in range(copies + 1)]
                 for suit in SUITS if suit != trump]
    kinds = [[trump_cards, *marriages],
             [[points({Card("Q", "S"): n, Card("J", "D"): n}) for n in range(copies + 1)]],
             [[points({Card(rank, suit): n for suit in SUITS}) for n in range(copies + 1)]
              for rank in meld_table.arounds]]
    if meld_table.dix:
        kinds.append([[points({Card("9", trump): n}) for n in range(copies + 1)]])
    return kinds


def _best_within(groups: list[list[tuple[int, int]]], cards: int) -> int:
    """The most points one choice from each group makes with at most `cards` cards in all (a knapsack)."""
    best = [0] * (cards + 1)  # best[n]: the most points with at most n cards, over the groups so far
    for choices in groups:
        best = [max(best[n - used] + points for used, points in choices if used <= n) for n in range(cards + 1)]
    return best[cards]
