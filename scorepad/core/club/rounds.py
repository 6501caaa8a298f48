"""How a club night's round ends, and the rules each table's game starts with. Pure: no I/O.

A round is a fixed number of hands, a game to a target, or as much as the director's clock allows. Each table
plays a normal game: the first two are the rule set with its game length set; on the clock a table plays the
rule set as it is until the director calls time (a table that reaches the target first is done early).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from ..errors import InvalidRules
from ..rules import MOST_HANDS, Rules
from .movement import ClubError

ROUND_ENDS = {
    "hands": "A fixed number of hands",
    "target": "A game to a target score",
    "time": "The director's clock (minutes)",
}
MOST_ROUNDS = 30
MOST_MINUTES = 300


def fits_a_club_table(rules: Rules) -> bool:
    """Whether a club table can play these rules: it seats North, East, South and West, two teams of two."""
    return (rules.sides, rules.players_per_side) == (2, 2)


def round_rules(rules: Rules, end: str, size: int) -> Rules:
    """The rules every table's game of a round starts with. Raises ClubError when `size` does not fit `end`, or
    the rules are not for a club table's two teams of two."""
    if not fits_a_club_table(rules):
        raise ClubError("A club table seats two teams of two: choose a rule set for four players.")
    if end not in ROUND_ENDS:
        raise ClubError("Choose how a round ends.")
    try:
        if end == "hands":
            if not 1 <= size <= MOST_HANDS:
                raise ClubError(f"A round is from 1 to {MOST_HANDS:,} hands.")
            return replace(rules, hands_limit=size)
        if end == "target":
            floor = None if rules.floor is None else -size
            return replace(rules, target=size, hands_limit=None, floor=floor)
    except InvalidRules as refused:
        raise ClubError(" ".join(refused.problems)) from None
    if not 1 <= size <= MOST_MINUTES:
        raise ClubError(f"A round on the clock is from 1 to {MOST_MINUTES} minutes.")
    return rules


def round_words(end: str, size: int) -> str:
    """'4 hands a round', 'Each round a game to 500', '50 minutes a round', '1 minute a round'."""
    if end == "hands":
        return f"{size:,} hand{'s' if size != 1 else ''} a round"
    if end == "target":
        return f"Each round a game to {size:,}"
    return f"{size:,} minute{'s' if size != 1 else ''} a round"


def time_up(started_at: str | None, end: str, size: int) -> str | None:
    """When the director's clock runs out for a round started at `started_at` (ISO), as ISO; None for a round
    that ends by hands or target, or before it started."""
    if end != "time" or not started_at:
        return None
    return (datetime.fromisoformat(started_at) + timedelta(minutes=size)).isoformat(timespec="seconds")
