"""The standings of a club night, a pure function of its rounds' results.

A table's result gives each entrant on a side (a player in a progressive night, a team in a partners night)
that side's points, and a win to the side that won. A bye is worth the average of that round's winners' points
(rounded to the nearest point, halves up) and a win, once every table of its round is over.
Entrants are ranked by the configured tie breaks in order; those still level share a rank.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from .movement import ClubError

# What the standings can be ranked by, each with its words for the director.
TIE_BREAKS = {
    "wins": "Wins",
    "points": "Total points",
    "high_round": "Highest round",
}
DEFAULT_TIE_BREAKS = {"partners": ("wins", "points", "high_round"), "progressive": ("points", "wins", "high_round")}


@dataclass(frozen=True)
class TableResult:
    """A table's score in a round: each side's entrants, each side's points, the side that won (None while it
    plays on, or for a tie), and whether its round is over for it."""

    round: int
    sides: tuple[tuple[Hashable, ...], tuple[Hashable, ...]]
    points: tuple[int, int]
    winner: int | None = None
    over: bool = True


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant: Hashable
    wins: int
    points: int
    high_round: int | None  # the most points in one round played; None before any
    played: int  # rounds at a table
    byes: int


def bye_score(results: Sequence[TableResult]) -> int | None:
    """What a bye in the round of `results` is worth: the average of its winners' points, halves up; None
    while a table of it plays on, or when none has a winner."""
    won = [r.points[r.winner] for r in results if r.winner is not None]
    if not won or not all(r.over for r in results):
        return None
    return (2 * sum(won) + len(won)) // (2 * len(won))


def standings(entrants: Sequence[Hashable], results: Sequence[TableResult],
              byes: Mapping[int, Sequence[Hashable]] | None = None,
              tie_breaks: Sequence[str] = ("wins", "points")) -> list[Standing]:
    """Every entrant ranked, best first; `byes` maps a round to who sat it out. Raises ClubError for a tie break
    it does not know."""
    unknown = [key for key in tie_breaks if key not in TIE_BREAKS]
    if unknown:
        raise ClubError(f"Standings cannot be ranked by {', '.join(unknown)}.")
    tally = {entrant: {"wins": 0, "points": 0, "high_round": None, "played": 0, "byes": 0} for entrant in entrants}
    for result in results:
        for side, members in enumerate(result.sides):
            for entrant in members:
                row = tally[entrant]
                row["played"] += 1
                row["points"] += result.points[side]
                row["wins"] += result.winner == side
                row["high_round"] = max(row["high_round"] or result.points[side], result.points[side])
    for number, sitting_out in (byes or {}).items():
        worth = bye_score([r for r in results if r.round == number])
        for entrant in sitting_out:
            tally[entrant]["byes"] += 1
            if worth is not None:
                tally[entrant]["points"] += worth
                tally[entrant]["wins"] += 1

    # best first; a high round not yet played is below any played
    key = {entrant: tuple(-(row[name] if row[name] is not None else -10**12) for name in tie_breaks)
           for entrant, row in tally.items()}
    ranked = sorted(entrants, key=key.__getitem__)  # stable: level entrants stay in the order they registered
    table, rank = [], 0
    for place, entrant in enumerate(ranked, start=1):
        if place == 1 or key[entrant] != key[ranked[place - 2]]:
            rank = place
        table.append(Standing(rank, entrant, **tally[entrant]))
    return table
