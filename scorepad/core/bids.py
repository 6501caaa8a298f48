"""The bids offered as one tap each on the hand form: the minimum, and the bids this table makes.

A table's bids drift up as a game goes on (65 to 80 late in a family double-deck game), and the steps just above
the minimum (50 51 52 55 60) say nothing of that. So the chips are the game's own history: the bids its last
hands were won at, the latest first, and only while there are too few of those, the usual steps above the
minimum. Always in the order of their value, the minimum first, and only bids the rules allow.
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import Rules
from .scoring import bid_error

CHIPS = 5  # what fits beside the bid field on a 320 px phone
STEPS_ABOVE_MINIMUM = (1, 2, 5, 10)  # steps above the minimum, for a game with few bids yet


def bid_chips(rules: Rules, bids: Sequence[int | None] = ()) -> list[int]:
    """The bids to offer as chips for the next hand of a game whose hands were bid at `bids` (in the order they were
    played; None for a hand nobody bid)."""
    low = rules.min_bid
    offered = [low]
    for bid in reversed(bids):  # the latest first
        if len(offered) == CHIPS:
            break
        if bid is not None and bid not in offered and _allowed(rules, bid):
            offered.append(bid)
    step = rules.bid_step_at(low)
    for n in STEPS_ABOVE_MINIMUM:
        if len(offered) == CHIPS:
            break
        bid = low + step * n
        if bid not in offered and _allowed(rules, bid):
            offered.append(bid)
    return sorted(offered)


def _allowed(rules: Rules, bid: int) -> bool:
    return bid_error(rules, bid) is None  # the one check of a bid: the chips offer only what a save takes
