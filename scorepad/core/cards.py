"""Cards and the text players type for them: "AS TS 10S KS", "♠A 10 K Q J", "k♥ q♥"."""

from __future__ import annotations

import re
from dataclasses import dataclass

RANKS = ("A", "T", "K", "Q", "J", "9")  # high to low, the order a Pinochle player sorts a hand
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_SUIT_OF = {**{s: s for s in SUITS}, **{v: k for k, v in SUIT_SYMBOLS.items()}}

_RANK = r"(10|[AKQJT9])"
_SUIT = r"([SHDC♠♥♦♣])"
_RANK_SUIT = re.compile(rf"^{_RANK}{_SUIT}$")
_SUIT_RANK = re.compile(rf"^{_SUIT}{_RANK}$")
_BARE_RANK = re.compile(rf"^{_RANK}$")
_BARE_SUIT = re.compile(r"^[♠♥♦♣]$")
_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True, order=True)
class Card:
    rank: str  # one of RANKS; "T" is the ten
    suit: str  # one of SUITS

    def __str__(self) -> str:
        return f"{'10' if self.rank == 'T' else self.rank}{SUIT_SYMBOLS[self.suit]}"

    @property
    def code(self) -> str:
        """The two-letter form used in URLs and forms: "TS", "KH"."""
        return self.rank + self.suit


def suit_of(text: str) -> str:
    """"S", "s" or "♠" -> "S"; anything else raises ValueError."""
    suit = _SUIT_OF.get(text.strip().upper()) if isinstance(text, str) else None
    if suit is None:
        raise ValueError(f"{text!r} is not a suit: use S, H, D, C or ♠ ♥ ♦ ♣.")
    return suit


def _rank(text: str) -> str:
    return "T" if text == "10" else text


def parse_cards(text) -> list[Card]:
    """Cards from text, or a list of cards / card codes passed through.

    Tokens are separated by spaces, commas or semicolons, in any case: rank then suit ("KS", "10♥"), suit then
    rank ("♥K"), or a suit followed by bare ranks that belong to it ("♥K K Q J", as rule books print hands).
    A token that is none of these raises ValueError naming it.
    """
    if not isinstance(text, str):
        return [c if isinstance(c, Card) else parse_cards(c)[0] for c in text]
    cards: list[Card] = []
    suit: str | None = None
    for raw in _SEPARATORS.split(text.strip()):
        if not raw:
            continue
        token = raw.upper()
        if m := _RANK_SUIT.match(token):
            cards.append(Card(_rank(m[1]), _SUIT_OF[m[2]]))
            suit = _SUIT_OF[m[2]]
        elif m := _SUIT_RANK.match(token):
            suit = _SUIT_OF[m[1]]
            cards.append(Card(_rank(m[2]), suit))
        elif _BARE_SUIT.match(token):
            suit = _SUIT_OF[token]
        elif (m := _BARE_RANK.match(token)) and suit is not None:
            cards.append(Card(_rank(m[1]), suit))
        elif _BARE_RANK.match(token):
            raise ValueError(f"{raw!r} has no suit: write it as {raw}S, {raw}♠ or after a suit, like ♠{raw}.")
        else:
            raise ValueError(f"{raw!r} is not a card: write rank and suit, like AS, 10H, KD, Q♣ or 9♠.")
    return cards


def sort_cards(cards) -> list[Card]:
    """Sorted by suit (♠ ♥ ♦ ♣), then rank from the ace down."""
    return sorted(cards, key=lambda c: (SUITS.index(c.suit), RANKS.index(c.rank)))


def cards_text(cards) -> str:
    """A hand written back as text that `parse_cards` reads again: "A♠ 10♠ K♠ K♥"."""
    return " ".join(str(c) for c in sort_cards(cards))
