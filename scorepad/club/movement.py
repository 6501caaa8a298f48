"""Who sits where each round of a club night.

Progressive (individuals, tables of four): North stays put, South moves down one table, East up one, West up
two, so partners change every round. That plan never repeats a partnership for as many rounds as there are
tables; past that, or when a bye swaps players in and out, each round is checked and a search moves the fewest
players it can so that no one partners the same person twice where that is possible. Players who do not fill a
table of four sit out with a bye, the bye passing to those who have had the fewest, from the last registered up;
a player back from a bye takes the seat of the one who sits out next.

Partners (teams): "A" teams stay at their table, "B" teams move up one table a round. With an odd number of
teams the last table has no B team to start with: the A team that meets that empty place has the bye.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from ..errors import ScorepadError

KINDS = ("progressive", "partners")
SEATS = ("North", "East", "South", "West")
# Each moving seat's step a round, in tables (North stays): South down one, East up one, West up two.
STEP = (0, 1, -1, 2)
SEARCH_STEPS = 4000  # swaps tried for one round: a 20-table night settles in a few hundred


class ClubError(ScorepadError):
    """A night that cannot be seated as asked; `str()` says why, for the director."""

    status_hint = 422


@dataclass(frozen=True)
class Round:
    """One round: its tables in order (progressive: the four seats North, East, South, West; partners: the two
    teams, A then B) and who sits it out with a bye."""

    tables: tuple[tuple, ...]
    byes: tuple = ()


def movement(kind: str, players: Sequence[Hashable], rounds: int) -> list[Round]:
    """Every round of a night of `kind` ("progressive": `players` are individuals; "partners": they are teams),
    in order. Raises ClubError for too few players, a name twice, or no rounds."""
    players = tuple(players)
    if kind not in KINDS:
        raise ClubError(f"A club night is {' or '.join(KINDS)}.")
    if len(set(players)) != len(players):
        raise ClubError("Each player or team can be registered once.")
    if rounds < 1:
        raise ClubError("A night has at least one round.")
    if kind == "progressive":
        if len(players) < 4:
            raise ClubError("A progressive night needs at least four players: one table.")
        return _progressive(players, rounds)
    if len(players) < 2:
        raise ClubError("A partners night needs at least two teams: one table.")
    return _partners(players, rounds)


def partners_of(table: tuple) -> tuple[frozenset, frozenset]:
    """The two partnerships at a progressive table: North and South, East and West."""
    north, east, south, west = table
    return frozenset((north, south)), frozenset((east, west))


# --- progressive ------------------------------------------------------------------------------------------

def _progressive(players: tuple, rounds: int) -> list[Round]:
    count = len(players) // 4 * 4
    seats = list(players[:count])  # seat i is table i // 4, compass seat i % 4
    out = list(players[count:])
    byes = dict.fromkeys(players, 0)
    for player in out:
        byes[player] += 1
    used: set[frozenset] = set()
    night = []
    for number in range(rounds):
        if number:
            seats = _moved(seats)
            if out:
                seats, out = _bye_swap(seats, out, players, byes)
        seats = _search(seats, used, random.Random(f"{len(players)}/{number}"))
        tables = tuple(tuple(seats[i:i + 4]) for i in range(0, count, 4))
        for table in tables:
            used.update(partners_of(table))
        night.append(Round(tables, tuple(out)))
    return night


def _moved(seats: list) -> list:
    """The fixed plan: each seat's player to the same compass seat `STEP` tables on."""
    tables = len(seats) // 4
    moved = list(seats)
    for i, player in enumerate(seats):
        table, seat = divmod(i, 4)
        moved[(table + STEP[seat]) % tables * 4 + seat] = player
    return moved


def _bye_swap(seats: list, out: list, players: tuple, byes: dict) -> tuple[list, list]:
    """Those back from a bye take the seats of those who sit out next: the seated with the fewest byes, the
    last registered first."""
    order = {player: i for i, player in enumerate(players)}
    going = sorted(seats, key=lambda p: (byes[p], -order[p]))[:len(out)]
    seats = list(seats)
    for leaving, coming in zip(going, out, strict=True):
        seats[seats.index(leaving)] = coming
        byes[leaving] += 1
    return seats, going


def _repeats(seats: list, used: set) -> list[int]:
    """The seats (North or East) whose partnership this round has been a partnership before."""
    found = []
    for start in range(0, len(seats), 4):
        north, east, south, west = seats[start:start + 4]
        if frozenset((north, south)) in used:
            found.append(start)
        if frozenset((east, west)) in used:
            found.append(start + 1)
    return found


def _search(seats: list, used: set, rng: random.Random) -> list:
    """The seating with no partnership of an earlier round, reached by swapping players from the plan's; the
    one with the fewest repeats found when none is. A swap involving a North is tried last: North stays."""
    best, best_cost = seats, len(_repeats(seats, used))
    if not best_cost:
        return seats
    current, cost = list(seats), best_cost
    size = len(seats)
    for _ in range(SEARCH_STEPS):
        clash = rng.choice(_repeats(current, used))
        i = clash + 2 * rng.randrange(2)  # either player of the clashing partnership
        j = rng.randrange(size)
        if (i % 4 == 0 or j % 4 == 0) and rng.random() < 0.8:
            continue
        current[i], current[j] = current[j], current[i]
        new_cost = len(_repeats(current, used))
        if new_cost <= cost or rng.random() < 0.05:  # now and then a worse step, to leave a dead end
            cost = new_cost
            if cost < best_cost:
                best, best_cost = list(current), cost
                if not cost:
                    break
        else:
            current[i], current[j] = current[j], current[i]
    return best


# --- partners ---------------------------------------------------------------------------------------------

def _partners(teams: tuple, rounds: int) -> list[Round]:
    tables = (len(teams) + 1) // 2
    a_teams = teams[:tables]
    b_teams = list(teams[tables:]) + [None] * (tables - len(teams[tables:]))  # None: the empty place
    night = []
    for number in range(rounds):
        seated, byes = [], []
        for table, a in enumerate(a_teams):
            b = b_teams[(table - number) % tables]
            if b is None:
                byes.append(a)
            else:
                seated.append((a, b))
        night.append(Round(tuple(seated), tuple(byes)))
    return night
