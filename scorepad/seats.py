"""Who sits where, who deals and who bids first. Pure: no I/O.

Seats are numbered clockwise from 0; partners sit opposite, so seats 0 and 2 are team 0, seats 1 and 3 team 1.
The deal passes to the left (the next seat) after every hand, redeals included; the dealer's left bids first.
"""

from __future__ import annotations

SEAT_NAMES = ("North", "East", "South", "West")


def team_of(seat: int) -> int:
    return seat % 2


def seats_of(team: int) -> tuple[int, int]:
    return (team, team + 2)


def dealer_for(first_dealer: int, hands_before: int) -> int:
    """The seat that deals the hand after `hands_before` hands (redeals count: the deal moves on)."""
    return (first_dealer + hands_before) % 4


def first_bidder(dealer: int) -> int:
    return (dealer + 1) % 4


def seat_label(seat: int, players: tuple[str | None, ...] | None = None) -> str:
    """A player's name where one was given, else the seat's compass name."""
    if players and players[seat]:
        return players[seat]
    return SEAT_NAMES[seat]
