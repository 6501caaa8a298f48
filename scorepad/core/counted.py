"""What the meld calculator counted for a side, kept with the hand: the trump it counted under and the cards of each
hand it counted (a partner's too), so that "you never had 23" is settled by the sheet. Pure.

A side's count is `(trump, (cards, cards, ...))`, the cards written as `cards_text` writes them ("A♥ 10♥ K♥"); a
hand keeps one entry a side, None for a side whose meld was typed. What each hand melds is counted again from its
cards by `meld.count_meld` under the game's meld table whenever it is shown: the meld is the table's, not a copy.

The same count travels as a form's hidden field ("H:A♥ 10♥ K♥;Q♠ J♦"), as the hands table's column and the
export's field (JSON: null or {"trump": "H", "hands": ["A♥ 10♥ K♥", "Q♠ J♦"]} a side).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .cards import SUITS, cards_text, parse_cards
from .meld import MeldCount, count_meld

Count = tuple[str, tuple[str, ...]]  # (trump, the cards of each hand counted)
MOST_TEXT = 400  # characters of one hand's cards: twenty-five cards are about a hundred


class CountRefused(ValueError):
    """A count that is not one: the message says what is wrong."""


def read_field(text: str | None) -> Count | None:
    """A count from a form's hidden field ("H:A♥ 10♥;Q♠ J♦"); None for an empty or garbled one (the field is the
    calculator's, never typed: a garbled one is dropped, and the meld typed stands)."""
    if not text or ":" not in text:
        return None
    trump, _, hands = text.partition(":")
    try:
        return checked(trump, hands.split(";"))
    except CountRefused:
        return None


def field_text(count: Count | None) -> str:
    """A count as a form's hidden field carries it."""
    return "" if count is None else f"{count[0]}:{';'.join(count[1])}"


def checked(trump, hands, *, most_hands: int = 8) -> Count:
    """A count from its parts, its cards read and written back as `cards_text` writes them. Raises CountRefused
    for a trump that is not a suit, no hands or more than `most_hands`, or cards that do not read."""
    if not isinstance(trump, str) or trump not in SUITS:
        raise CountRefused(f"trump must be one of {', '.join(SUITS)}.")
    if not isinstance(hands, (list, tuple)) or not 1 <= len(hands) <= most_hands:
        raise CountRefused(f"a count holds 1 to {most_hands} hands of cards.")
    written = []
    for cards in hands:
        if not isinstance(cards, str) or len(cards) > MOST_TEXT:
            raise CountRefused(f"each hand's cards are text of at most {MOST_TEXT} characters.")
        try:
            written.append(cards_text(parse_cards(cards)))
        except ValueError as exc:
            raise CountRefused(str(exc)) from None
    return trump, tuple(written)


def problem(count: Count, meld_table: str, players: int, players_per_side: int) -> str | None:
    """What is wrong with a count under a game's meld table, or None: more hands than a side has players, or a
    hand the deck cannot deal."""
    if len(count[1]) > players_per_side:
        return f"a side of {players_per_side} counts at most {players_per_side} hand{'s' * (players_per_side > 1)}."
    try:
        for cards in count[1]:
            count_meld(cards, count[0], meld_table, players)
    except ValueError as exc:
        return str(exc)
    return None


def to_json(counts: tuple[Count | None, ...] | None) -> list | None:
    """A hand's counts as the export writes them: null or {"trump", "hands"} a side; None where no side has one."""
    if not counts or not any(counts):
        return None
    return [None if c is None else {"trump": c[0], "hands": list(c[1])} for c in counts]


def from_json(value, sides: int) -> tuple[Count | None, ...] | None:
    """A hand's counts from the export's JSON (or a column's, parsed). Raises CountRefused naming what is wrong."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != sides:
        raise CountRefused(f"meld_counted must be null or a list of {sides}, one for each side.")
    counts = []
    for side in value:
        if side is None:
            counts.append(None)
            continue
        if not isinstance(side, dict) or set(side) != {"trump", "hands"}:
            raise CountRefused('each side of meld_counted is null or {"trump": ..., "hands": [...]}.')
        counts.append(checked(side["trump"], side["hands"]))
    return tuple(counts) if any(counts) else None


def column_text(counts: tuple[Count | None, ...] | None) -> str | None:
    """The hands table's column: the export's JSON as text, or NULL."""
    written = to_json(counts)
    return None if written is None else json.dumps(written, ensure_ascii=False, separators=(",", ":"))


def from_column(text: str | None, sides: int) -> tuple[Count | None, ...] | None:
    return None if text is None else from_json(json.loads(text), sides)


@dataclass(frozen=True)
class Counted:
    """A side's count as the hand's page shows it: each hand's cards and what they meld, and the side's whole."""

    trump: str
    hands: tuple[tuple[str, MeldCount], ...]

    @property
    def total(self) -> int:
        return sum(meld.total for _, meld in self.hands)


def counted(count: Count, meld_table: str, players: int) -> Counted | None:
    """`count` counted again under the game's meld table; None where its cards do not count there."""
    try:
        return Counted(count[0], tuple((cards, count_meld(cards, count[0], meld_table, players))
                                       for cards in count[1]))
    except ValueError:
        return None
