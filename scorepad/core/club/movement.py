"""Who sits where each round of a club night.

Partners (teams): the circle method. Team 1 stays at table 1; the others walk round a circle, one place a
round, so each table holds the two places facing each other. Over a full round robin (one round fewer than the
teams, or as many rounds as teams when their number is odd) every two teams meet once; past it the round robin
starts again, so no two meet a third time before every two have met twice. With an odd number of teams an empty
place stands still in the circle: whoever faces it has the bye, a different team every round, the last
registered first, so nobody sits out twice before everyone has once.

Progressive (individuals, tables of four): North stays put, South moves down one table, East up one, West up
two, so partners change every round. Players who do not fill a table of four sit out with a bye, the bye passing
to those who have had the fewest, from the last registered up; a player back from a bye takes the seat of the
one who sits out next. Each round is then checked, and a search swaps players until no one partners the same
person twice where that can be had, and as few as can be meet the same opponents again.

Version 1 (`movement_v1`) was the movement before this one; a night keeps the version it was made with.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence

from ..errors import ScorepadError
from . import movement_v1
from .seating import SEATS, STEP, Round, bye_swap, moved, partners_of

KINDS = ("progressive", "partners")
VERSIONS = (1, 2)
LATEST = VERSIONS[-1]
SEARCH_STEPS = 4000  # swaps tried for one round, at most: a 20-table night settles in a few hundred
EXHAUSTIVE = 8  # up to two tables every seating is tried (315 ways to seat eight, by partnerships)
PARTNER_AGAIN = 1000  # what partnering someone again costs, against 1 for meeting an opponent once more
REPEAT_OVER_MOVE = 100  # a meeting again costs as much as moving a hundred players off their seat by the plan
MOVED_NORTH = 3  # moving a North off the plan costs as much as three others: North stays, where it can

__all__ = ["KINDS", "LATEST", "SEATS", "STEP", "VERSIONS", "ClubError", "Round", "movement", "partners_of"]


class ClubError(ScorepadError):
    """A night that cannot be seated as asked; `str()` says why, for the director."""

    status_hint = 422


def movement(kind: str, players: Sequence[Hashable], rounds: int, version: int = LATEST) -> list[Round]:
    """Every round of a night of `kind` ("progressive": `players` are individuals; "partners": they are teams),
    in order, by movement `version`. Raises ClubError for too few players, a name twice, or no rounds."""
    players = tuple(players)
    if kind not in KINDS:
        raise ClubError(f"A club night is {' or '.join(KINDS)}.")
    if version not in VERSIONS:
        raise ClubError(f"This Scorepad knows movements {VERSIONS[0]} to {LATEST}, not {version}.")
    if len(set(players)) != len(players):
        raise ClubError("Each player or team can be registered once.")
    if rounds < 1:
        raise ClubError("A night has at least one round.")
    if kind == "progressive":
        if len(players) < 4:
            raise ClubError("A progressive night needs at least four players: one table.")
        return (movement_v1.progressive if version == 1 else _progressive)(players, rounds)
    if len(players) < 2:
        raise ClubError("A partners night needs at least two teams: one table.")
    return (movement_v1.partners if version == 1 else _partners)(players, rounds)


# --- partners ---------------------------------------------------------------------------------------------

def _partners(teams: tuple, rounds: int) -> list[Round]:
    # the first place stands still: the empty place (None) with an odd number of teams, else team 1 at table 1
    circle = [None, *teams] if len(teams) % 2 else list(teams)
    size = len(circle)
    night = []
    for number in range(rounds):
        turn = number % (size - 1)  # the rest move on one place a round, and are back after a round robin
        placed = [circle[0], *circle[size - turn:], *circle[1:size - turn]]
        pairs = [(placed[place], placed[size - 1 - place]) for place in range(size // 2)]
        byes = tuple(b for a, b in pairs if a is None)
        night.append(Round(tuple(pair for pair in pairs if None not in pair), byes))
    return night


# --- progressive ------------------------------------------------------------------------------------------

def _progressive(players: tuple, rounds: int) -> list[Round]:
    count = len(players) // 4 * 4
    seats = list(players[:count])  # seat i is table i // 4, compass seat i % 4
    out = list(players[count:])
    byes = dict.fromkeys(players, 0)
    for player in out:
        byes[player] += 1
    met = _Met()
    night = []
    for number in range(rounds):
        if number:
            seats = moved(seats)
            if out:
                seats, out = bye_swap(seats, out, players, byes)
        if count <= EXHAUSTIVE:
            seats = _best_of_all(seats, met)
        else:
            seats = _search(seats, met, random.Random(f"v2/{len(players)}/{number}"))
        tables = tuple(tuple(seats[i:i + 4]) for i in range(0, count, 4))
        for table in tables:
            met.add(table)
        night.append(Round(tables, tuple(out)))
    return night


class _Met:
    """How often each two players have partnered and been opponents so far, and what a table costs by it."""

    def __init__(self):
        self.partners: Counter = Counter()
        self.opponents: Counter = Counter()

    def add(self, table: tuple) -> None:
        north, east, south, west = table
        self.partners.update(partners_of(table))
        self.opponents.update(frozenset(pair) for pair in ((north, east), (north, west), (south, east),
                                                           (south, west)))

    def cost(self, table) -> int:
        north, east, south, west = table
        partners, opponents = self.partners, self.opponents
        return (PARTNER_AGAIN * (partners[frozenset((north, south))] + partners[frozenset((east, west))])
                + opponents[frozenset((north, east))] + opponents[frozenset((north, west))]
                + opponents[frozenset((south, east))] + opponents[frozenset((south, west))])


def _search(seats: list, met: _Met, rng: random.Random) -> list:
    """The seating that costs least by `met` reached by swapping players from the plan's (the plan itself when
    it costs nothing), and of those the one that moves the fewest from their seat by the plan (a North counts
    three times: North stays, where it can; the first half of the search moves no North). Now and then a worse
    swap is taken, to leave a dead end; the best seating seen is the answer."""
    tables = len(seats) // 4
    costs = [met.cost(seats[t * 4:t * 4 + 4]) for t in range(tables)]
    total, moved = sum(costs), 0
    best, best_key = list(seats), (total, moved)
    if not total:
        return best
    current = list(seats)

    def off(i):  # what seat i costs off the plan
        return 0 if current[i] == seats[i] else (MOVED_NORTH if i % 4 == 0 else 1)

    for step in range(SEARCH_STEPS):
        table = _costly(costs, rng)
        i = table * 4 + rng.randrange(4)
        j = rng.randrange(len(current))
        if i // 4 == j // 4 and (i - j) % 2 == 0:
            continue  # partners changing seats: the same table
        if (i % 4 == 0 or j % 4 == 0) and step < SEARCH_STEPS // 2:
            continue  # North stays, unless half the search found no seating without a meeting again
        ti, tj = i // 4, j // 4
        before_off = off(i) + off(j)
        current[i], current[j] = current[j], current[i]
        after_i = met.cost(current[ti * 4:ti * 4 + 4])
        after_j = met.cost(current[tj * 4:tj * 4 + 4]) if tj != ti else 0
        change = after_i + after_j - costs[ti] - (costs[tj] if tj != ti else 0)
        moved_change = off(i) + off(j) - before_off
        if REPEAT_OVER_MOVE * change + moved_change <= 0 or rng.random() < 0.05:
            costs[ti] = after_i
            if tj != ti:
                costs[tj] = after_j
            total += change
            moved += moved_change
            if (total, moved) < best_key:
                best, best_key = list(current), (total, moved)
                if not total:
                    break
        else:
            current[i], current[j] = current[j], current[i]
    return _back_to_plan(best, seats, met)


def _back_to_plan(seating: list, plan: list, met: _Met) -> list:
    """`seating` with each player put back in their seat by the plan wherever that swap costs no meeting again,
    Norths first: the search's random steps move some for nothing."""
    seating = list(seating)
    where = {player: i for i, player in enumerate(seating)}
    changed = True
    while changed:
        changed = False
        for i in sorted(range(len(plan)), key=lambda i: (i % 4 != 0, i)):
            k = where[plan[i]]
            if k == i:
                continue
            ti, tk = i // 4, k // 4
            before = met.cost(seating[ti * 4:ti * 4 + 4]) + (met.cost(seating[tk * 4:tk * 4 + 4]) if tk != ti else 0)
            seating[i], seating[k] = seating[k], seating[i]
            after = met.cost(seating[ti * 4:ti * 4 + 4]) + (met.cost(seating[tk * 4:tk * 4 + 4]) if tk != ti else 0)
            if after <= before:
                where[seating[i]], where[seating[k]] = i, k
                changed = True
            else:
                seating[i], seating[k] = seating[k], seating[i]
    return seating


def _best_of_all(seats: list, met: _Met) -> list:
    """The seating that costs least by `met` of all there are (for one or two tables), the one that moves the
    fewest players from their seat by the plan where several do."""
    nearest: dict = {}  # (table, slot): its orientation nearest the plan's seats at that slot, and what it moves

    def placed(table, slot):
        if (table, slot) not in nearest:
            planned = seats[slot * 4:slot * 4 + 4]

            def moved(seating):
                return sum(a != b for a, b in zip(seating, planned, strict=True))

            seating = min(_orientations(*table), key=moved)
            nearest[table, slot] = (seating, moved(seating))
        return nearest[table, slot]

    best, best_key = seats, None
    for tables in _tablings(seats):
        # A table's cost is the same however it is turned (partners are the two pairs, opponents the four across),
        # so a tabling dearer than the best so far needs none of its orientations looked at.
        cost = sum(met.cost((one[0], two[0], one[1], two[1])) for one, two in tables)
        if best_key is not None and cost > best_key[0]:
            continue
        for order in ((0, 1), (1, 0)) if len(tables) == 2 else ((0,),):
            chosen = [placed(tables[k], slot) for slot, k in enumerate(order)]
            key = (cost, sum(moves for _, moves in chosen))
            if best_key is None or key < best_key:
                best, best_key = [player for seating, _ in chosen for player in seating], key
    return list(best)


def _tablings(players: list) -> list[tuple]:
    """Every way to seat `players` (four or eight) as tables of two partnerships: ((pair, pair), ...)."""
    found = []
    for pairs in _matchings(players):
        if len(pairs) == 2:
            found.append(((pairs[0], pairs[1]),))
        else:
            first, *rest = pairs
            for k, other in enumerate(rest):
                remaining = [p for i, p in enumerate(rest) if i != k]
                found.append(((first, other), tuple(remaining)))
    return found


def _matchings(players: list) -> list[list[tuple]]:
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    return [[(first, partner), *more] for k, partner in enumerate(rest)
            for more in _matchings(rest[:k] + rest[k + 1:])]


def _orientations(one: tuple, two: tuple) -> list[list]:
    """The eight seatings of a table of partnerships `one` and `two` (North, East, South, West)."""
    found = []
    for ns, ew in ((one, two), (two, one)):
        for north, south in (ns, ns[::-1]):
            for east, west in (ew, ew[::-1]):
                found.append([north, east, south, west])
    return found


def _costly(costs: list[int], rng: random.Random) -> int:
    """A table to change: one that costs something, found by a few random looks (a list of them each step would
    be slow on a night of 200 tables), else any."""
    for _ in range(8):
        table = rng.randrange(len(costs))
        if costs[table]:
            return table
    return rng.randrange(len(costs))
