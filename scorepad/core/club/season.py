"""A season's standings across its nights, a pure function of each entrant's result in each night.

An entrant (a player, or a team) has a night's wins and points as that night's standings gave them (a bye's
included). The season counts each entrant's nights, or only their best N (the most wins, then the most points; of
two alike the earlier), and ranks those who played at least the least number of nights to be ranked: wins, then
points, as a night's standings do. Those level share a rank; those who played too few nights follow, unranked.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from .movement import ClubError

MOST_NIGHTS = 200  # a night a week for four years: what the settings take for "best N" and "at least N"


@dataclass(frozen=True)
class NightScore:
    """An entrant's result in one night: the night (any key that orders nights as they were held), wins and
    points."""

    night: int
    entrant: Hashable
    wins: int
    points: int


@dataclass(frozen=True)
class SeasonStanding:
    rank: int | None  # None: played fewer nights than the season ranks
    entrant: Hashable
    wins: int  # over the nights that count
    points: int
    played: int  # nights played
    counted: tuple[int, ...]  # the nights that count, in the order they were held


def counted_nights(scores: Sequence[NightScore], best_of: int | None) -> list[NightScore]:
    """The nights of one entrant that count: all of them, or the best `best_of` (wins, then points; the earlier
    of two alike), in the order they were held."""
    if best_of is None or len(scores) <= best_of:
        return sorted(scores, key=lambda s: s.night)
    best = sorted(scores, key=lambda s: (-s.wins, -s.points, s.night))[:best_of]
    return sorted(best, key=lambda s: s.night)


def season_standings(scores: Sequence[NightScore], best_of: int | None = None,
                     min_nights: int = 1) -> list[SeasonStanding]:
    """Every entrant of the season, ranked (those who played at least `min_nights`) then unranked, best first.
    Raises ClubError for settings that cannot be, or an entrant twice in one night."""
    if best_of is not None and not 1 <= best_of <= MOST_NIGHTS:
        raise ClubError(f"Count from 1 to {MOST_NIGHTS} best nights, or every night.")
    if not 1 <= min_nights <= MOST_NIGHTS:
        raise ClubError(f"An entrant is ranked after 1 to {MOST_NIGHTS} nights.")
    by_entrant: dict[Hashable, list[NightScore]] = {}
    for score in scores:
        by_entrant.setdefault(score.entrant, []).append(score)
    rows = []
    for entrant, nights in by_entrant.items():  # in the order entrants first played: the order ties keep
        if len({s.night for s in nights}) != len(nights):
            raise ClubError(f"{entrant} has two results in one night.")
        counted = counted_nights(nights, best_of)
        rows.append(SeasonStanding(None, entrant, sum(s.wins for s in counted), sum(s.points for s in counted),
                                   len(nights), tuple(s.night for s in counted)))
    order = sorted(rows, key=lambda r: (r.played < min_nights, -r.wins, -r.points))
    table, rank = [], 0
    for place, row in enumerate(order, start=1):
        if row.played < min_nights:
            table.append(row)
            continue
        before = order[place - 2] if place > 1 else None
        if before is None or (before.wins, before.points) != (row.wins, row.points):
            rank = place
        table.append(SeasonStanding(rank, row.entrant, row.wins, row.points, row.played, row.counted))
    return table
