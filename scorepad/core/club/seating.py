"""What both versions of the movement share: a round, the seats, and the progressive plan's fixed steps and
bye swap. Pure. Both versions seat by these, so a change here changes nights under way: treat it as frozen."""

from __future__ import annotations

from dataclasses import dataclass

SEATS = ("North", "East", "South", "West")
# Each moving seat's step a round, in tables (North stays): South down one, East up one, West up two.
STEP = (0, 1, -1, 2)


@dataclass(frozen=True)
class Round:
    """One round: its tables in order (progressive: the four seats North, East, South, West; partners: the two
    teams, A then B) and who sits it out with a bye."""

    tables: tuple[tuple, ...]
    byes: tuple = ()


def partners_of(table: tuple) -> tuple[frozenset, frozenset]:
    """The two partnerships at a progressive table: North and South, East and West."""
    north, east, south, west = table
    return frozenset((north, south)), frozenset((east, west))


def moved(seats: list) -> list:
    """The fixed plan: each seat's player to the same compass seat `STEP` tables on (seat i is table i // 4,
    compass seat i % 4)."""
    tables = len(seats) // 4
    after = list(seats)
    for i, player in enumerate(seats):
        table, seat = divmod(i, 4)
        after[(table + STEP[seat]) % tables * 4 + seat] = player
    return after


def bye_swap(seats: list, out: list, players: tuple, byes: dict) -> tuple[list, list]:
    """Those back from a bye take the seats of those who sit out next: the seated with the fewest byes, the
    last registered first. `byes` (player -> byes so far) is counted on."""
    order = {player: i for i, player in enumerate(players)}
    going = sorted(seats, key=lambda p: (byes[p], -order[p]))[:len(out)]
    seats = list(seats)
    for leaving, coming in zip(going, out, strict=True):
        seats[seats.index(leaving)] = coming
        byes[leaving] += 1
    return seats, going
