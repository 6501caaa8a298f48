"""The specials a pinochle club tallies beside the score, and the prize list of a night or a season. Pure.

Three are melded and tallied at the table: double pinochle, double aces ("1000 aces") and a double run (in trump).
Two are derived from the scores, never tapped: the high game (the most points one player's side scored in one
game) and the high series (a player's total over a night). A prize list names, for each special the club tallies,
who holds it (all of those level) beside the first places. No money: a prize list says who, never how much.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from ..cards import SUITS, Card, parse_cards, suit_of

TALLIED = {"double_pinochle": "Double pinochle", "double_aces": "Double aces (1000 aces)", "double_run": "Double run"}
DERIVED = {"high_game": "High game", "high_series": "High series"}
SPECIALS = {**TALLIED, **DERIVED}
SHORT = {"double_pinochle": "Double pinochle", "double_aces": "1000 aces", "double_run": "Double run"}  # a button's
PLACES_PRIZED = 3  # first, second and third


def shown_by(cards, trump: str) -> tuple[str, ...]:
    """The tallied specials a hand of cards shows (two or more of each): what the meld calculator ticks. Raises
    ValueError for cards it cannot read."""
    hand = Counter(parse_cards(cards))
    trump = suit_of(trump)
    found = []
    if min(hand[Card("Q", "S")], hand[Card("J", "D")]) >= 2:
        found.append("double_pinochle")
    if min(hand[Card("A", suit)] for suit in SUITS) >= 2:
        found.append("double_aces")
    if min(hand[Card(rank, trump)] for rank in "ATKQJ") >= 2:
        found.append("double_run")
    return tuple(found)


@dataclass(frozen=True)
class Prize:
    """A line of the prize list: what (a place, or a special), who holds it, and its figure (points, or how many
    were tallied)."""

    what: str
    key: str  # "place-1", "last-place", "most_improved", or a special's key
    holders: tuple[Hashable, ...]
    figure: int | float | None  # most improved: the rating's rise


def high(figures: Iterable[tuple[Hashable, int]]) -> tuple[tuple[Hashable, ...], int | None]:
    """(everyone holding the highest figure, in the order first given; the figure), or ((), None) when none."""
    best, holders = None, []
    for who, figure in figures:
        if best is None or figure > best:
            best, holders = figure, [who]
        elif figure == best and who not in holders:
            holders.append(who)
    return tuple(holders), best


def prize_list(places: Sequence[tuple[int, Hashable]], kinds: Sequence[str],
               tallies: Iterable[tuple[Hashable, str]], games: Iterable[tuple[Hashable, int]],
               series: Iterable[tuple[Hashable, int]], last_place: bool = False,
               improved: Iterable[tuple[Hashable, float]] | None = None) -> list[Prize]:
    """The prize list: the first three places (`places`: (rank, who), best first; those sharing a rank share its
    line), the last place where the club gives one (`last_place`), the most improved where it gives one
    (`improved`: (who, how far their rating rose); only a rise wins it), then each special of `kinds` in the order
    SPECIALS lists them: tallied ones to whoever tallied the most (`tallies`: (who, kind) a tally), the high game
    to the highest of `games` ((who, points) a game), the high series to the highest of `series` ((who, total) a
    night)."""
    prizes = []
    ranks = sorted({rank for rank, _ in places if rank is not None})
    for rank in (rank for rank in ranks if rank <= PLACES_PRIZED):
        holders = tuple(who for r, who in places if r == rank)
        prizes.append(Prize(f"{_ordinal(rank)} place", f"place-{rank}", holders, None))
    if last_place:
        # the last rank, once there is more than one (before any result everyone shares the first)
        holders = tuple(who for r, who in places if len(ranks) > 1 and r == ranks[-1])
        prizes.append(Prize("Last place", "last-place", holders, None))
    if improved is not None:
        holders, most = high((who, round(rise, 1)) for who, rise in improved if round(rise, 1) > 0)
        prizes.append(Prize("Most improved", "most_improved", holders, most))
    counts = Counter(tallies)
    for kind in SPECIALS:
        if kind not in kinds:
            continue
        if kind in TALLIED:
            holders, most = high((who, n) for (who, k), n in counts.items() if k == kind)
        else:
            holders, most = high(games if kind == "high_game" else series)
        prizes.append(Prize(SPECIALS[kind], kind, holders, most))
    return prizes


def _ordinal(n: int) -> str:
    return {1: "First", 2: "Second", 3: "Third"}.get(n, f"{n}th")
