"""The movement of club nights made before version 2 (see `movement`), kept exactly as it was: a night in
progress since then is seated by it to its end, so its rounds to come fit those it has played. Frozen: never
change it; a fairer movement is a new version.

Progressive: North stays put, South moves down one table, East up one, West up two; a search moves the fewest
players it can so that no one partners the same person twice where that is possible. Partners: "A" teams stay,
"B" teams move up one table a round; with an odd number of teams the A team that meets the empty place has the
bye (so only A teams ever sat out, and A teams never met: the unfairness version 2 puts right).
"""

from __future__ import annotations

import random

from .seating import Round, bye_swap, moved, partners_of

SEARCH_STEPS = 4000  # swaps tried for one round: a 20-table night settles in a few hundred


# --- progressive ------------------------------------------------------------------------------------------

def progressive(players: tuple, rounds: int) -> list[Round]:
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
            seats = moved(seats)
            if out:
                seats, out = bye_swap(seats, out, players, byes)
        seats = _search(seats, used, random.Random(f"{len(players)}/{number}"))
        tables = tuple(tuple(seats[i:i + 4]) for i in range(0, count, 4))
        for table in tables:
            used.update(partners_of(table))
        night.append(Round(tables, tuple(out)))
    return night


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

def partners(teams: tuple, rounds: int) -> list[Round]:
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
