"""A night whose players change: someone arrives after the first round, or leaves after a round. Pure.

Each entrant stays from a first round to a last one (by default the whole night). While the players are those who
started, the night is seated by its movement as it always was. From the first round whose players differ, each
round is planned from the rounds before it (as played, once they are):

- **Byes** go to those present who have sat out the fewest rounds; of those alike, to whoever has played the most
  rounds (an arrival does not sit out the moment they sit down), then the last registered. So nobody sits out a
  second time while someone present has not sat out once.
- **Progressive:** the seats follow the plan from the round before (North stays, South down one table, East up
  one, West up two); an arrival takes an empty seat; then the search of the movement swaps players until nobody
  partners anyone again where that can be had, and as few as can be meet the same opponents again.
- **Partners:** the teams are paired so that as few as can be meet a team they met before (none, while a pairing
  of new meetings is to be had), found by a search over the pairings.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from .movement import EXHAUSTIVE, LATEST, ClubError, _best_of_all, _Met, _search, movement
from .seating import Round, moved

PAIRING_STEPS = 20_000  # pairings tried for one partners round, at most: far more than forty teams need


@dataclass(frozen=True)
class Stay:
    """An entrant's part of a night: the first round they play and the last (None: to the end)."""

    entrant: Hashable
    first: int = 1
    last: int | None = None

    def present(self, number: int) -> bool:
        return self.first <= number and (self.last is None or number <= self.last)


def plan(kind: str, stays: Sequence[Stay], rounds: int, version: int = LATEST,
         played: Sequence[Round] = ()) -> list[Round]:
    """Every round of a night of `kind` whose entrants stay as `stays` say (in the order they registered), the
    rounds of `played` as they were played. Raises ClubError when a round would have too few to fill a table."""
    stays = tuple(stays)
    order = {stay.entrant: i for i, stay in enumerate(stays)}
    at_start = [s.entrant for s in stays if s.present(1)]
    change = next((n for n in range(2, rounds + 1) if [s.entrant for s in stays if s.present(n)] != at_start),
                  None)
    if change is None and len(played) <= rounds:
        return [*played, *movement(kind, at_start, rounds, version)[len(played):]]
    base = movement(kind, at_start, change - 1, version) if len(played) < change - 1 else []
    night: list[Round] = []
    for number in range(1, rounds + 1):
        if number <= len(played):
            night.append(played[number - 1])
        elif number < change:
            night.append(base[number - 1])
        else:
            present = [s.entrant for s in stays if s.present(number)]
            night.append(next_round(kind, present, night, number, order))
    return night


def next_round(kind: str, present: Sequence[Hashable], before: Sequence[Round], number: int,
               order: dict) -> Round:
    """Round `number` for the entrants `present` (in the order they registered), after the rounds `before`."""
    fewest = 4 if kind == "progressive" else 2
    if len(present) < fewest:
        raise ClubError(f"Round {number} would have {len(present)} "
                        f"{'players' if kind == 'progressive' else 'teams'}: a table needs "
                        f"{'four players' if kind == 'progressive' else 'two teams'}.")
    byes, seated_rounds = Counter(), Counter()
    for round_ in before:
        byes.update(round_.byes)
        seated_rounds.update(p for table in round_.tables for p in dict.fromkeys(table))
    at_tables = len(present) // 4 * 4 if kind == "progressive" else len(present) // 2 * 2
    going = sorted(present, key=lambda p: (byes[p], -seated_rounds[p], -order[p]))[:len(present) - at_tables]
    seated = [p for p in present if p not in going]
    if kind == "progressive":
        tables = _progressive(seated, before, number)
    else:
        tables = _pairings(seated, before, order)
    return Round(tables, tuple(p for p in present if p in going))


def _progressive(seated: list, before: Sequence[Round], number: int) -> tuple[tuple, ...]:
    count = len(seated)
    seats: list = [None] * count
    last = next((r for r in reversed(before) if r.tables), None)
    if last is not None:
        for i, player in enumerate(moved([p for table in last.tables for p in table])):
            if i < count and player in seated:
                seats[i] = player
    placed = set(seats)
    waiting = iter(p for p in seated if p not in placed)
    seats = [p if p is not None else next(waiting) for p in seats]
    met = _Met()
    for round_ in before:
        for table in round_.tables:
            met.add(table)
    if count <= EXHAUSTIVE:
        seats = _best_of_all(seats, met)
    else:
        seats = _search(seats, met, random.Random(f"replan/{count}/{number}"))
    return tuple(tuple(seats[i:i + 4]) for i in range(0, count, 4))


def _pairings(seated: list, before: Sequence[Round], order: dict) -> tuple[tuple, ...]:
    """The pairing of `seated` teams in which the fewest meet again (and of those, the first found trying the
    least-met opponents first), as tables in registration order, the earlier registered first at each."""
    met = Counter(frozenset(table) for round_ in before for table in round_.tables)
    best: list = []
    best_cost = [None]
    steps = [0]

    def search(left: list, chosen: list, cost: int) -> None:
        steps[0] += 1
        if best_cost[0] is not None and (cost >= best_cost[0] or steps[0] > PAIRING_STEPS):
            return
        if not left:
            best[:], best_cost[0] = chosen, cost
            return
        # the team with the fewest new opponents left goes first: a dead end is found early
        first = min(left, key=lambda t: (sum(1 for o in left if o != t and not met[frozenset((t, o))]), order[t]))
        rest = [t for t in left if t != first]
        for other in sorted(rest, key=lambda o: (met[frozenset((first, o))], order[o])):
            search([t for t in rest if t != other], [*chosen, (first, other)], cost + met[frozenset((first, other))])
            if best_cost[0] == 0:
                return

    search(list(seated), [], 0)
    tables = [tuple(sorted(pair, key=order.__getitem__)) for pair in best]
    return tuple(sorted(tables, key=lambda table: order[table[0]]))
