"""Who sits where, who deals and who bids first. Pure: no I/O.

Seats are numbered clockwise from 0 and seat `s` belongs to side `s % sides`, so partners alternate round the
table: at four seats, seats 0 and 2 are team 0, seats 1 and 3 team 1; at six in three partnerships, partners sit
opposite (0 & 3, 1 & 4, 2 & 5). The deal passes to the left (the next seat) after every hand, redeals included;
the dealer's left bids first.
"""

from __future__ import annotations

SEAT_NAMES = ("North", "East", "South", "West")


def team_of(seat: int, sides: int = 2) -> int:
    return seat % sides


def seats_of(team: int, sides: int = 2, seats: int = 4) -> tuple[int, ...]:
    """The seats of side `team`, in seat order."""
    return tuple(range(team, seats, sides))


def dealer_for(first_dealer: int, hands_before: int, seats: int = 4) -> int:
    """The seat that deals the hand after `hands_before` hands (redeals count: the deal moves on)."""
    return (first_dealer + hands_before) % seats


def first_bidder(dealer: int, seats: int = 4) -> int:
    return (dealer + 1) % seats


def seat_names(seats: int = 4) -> tuple[str, ...]:
    """What each seat is called where no player was named: compass points at four seats, "Player 1", "Player 2"
    ... at others (the name a side of one player goes by, so the deal, the bidder and the sheet agree)."""
    return SEAT_NAMES if seats == 4 else tuple(f"Player {seat + 1}" for seat in range(seats))


def seat_label(seat: int, players: tuple[str | None, ...] | None = None) -> str:
    """A player's name where one was given, else the seat's name (a compass point at a table of four)."""
    if players and seat < len(players) and players[seat]:
        return players[seat]
    return seat_names(len(players) if players else 4)[seat]
