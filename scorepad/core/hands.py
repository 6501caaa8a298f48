"""A hand as columns and as the export's JSON: the one place that knows a hand's fields by name.

The store writes `hand_to_columns` into the hands table and, as JSON, into each hand's history, so its keys
and their order are frozen: a history kept by an older version must read the same as one written today.
"""

from __future__ import annotations

from functools import lru_cache

from .counted import column_text, from_column, to_json
from .scoring import Hand

# The hands table's columns for a hand, in the order they are written (and kept, as JSON, in its history).
HAND_COLUMNS = ("kind", "bidder", "bidder_seat", "bid", "trump", "meld_0", "meld_1", "counters_0", "counters_1",
                "renege_team", "forced", "dix_only", "meld_counted")
# Columns added after histories were first kept: a hand's history line holds one only when it is not the default,
# so a line written today reads byte for byte as one written before the column existed.
ADDED_COLUMNS = {"dix_only": 0, "meld_counted": None}
# The columns of a third and fourth side, written after the others and only for a hand that has them, so that a
# two-side hand's history reads byte for byte as it always has.
SIDE_COLUMNS = ("meld_2", "counters_2", "meld_3", "counters_3")
# A hand's fields in an export: meld and counters one entry a side, forced as true or false, dix_only one flag a
# side.
HAND_EXPORT_FIELDS = ("kind", "bidder", "bidder_seat", "bid", "trump", "meld", "counters", "renege_team", "forced",
                      "dix_only", "meld_counted")


def hand_to_columns(hand: Hand) -> dict:
    """The hands table's columns for `hand`, by name, in `HAND_COLUMNS` order."""
    counters = hand.counters or (None, None)
    return {
        "kind": hand.kind, "bidder": hand.bidder, "bidder_seat": hand.bidder_seat, "bid": hand.bid,
        "trump": hand.trump, "meld_0": hand.meld[0], "meld_1": hand.meld[1],
        "counters_0": counters[0], "counters_1": counters[1],
        "renege_team": hand.renege_team, "forced": int(hand.forced), "dix_only": sides_to_mask(hand.dix_only),
        "meld_counted": column_text(hand.counted), **_further_sides(hand, counters),
    }


def _further_sides(hand: Hand, counters) -> dict:
    further = {}
    for side in range(2, len(hand.meld)):
        further[f"meld_{side}"] = hand.meld[side]
        further[f"counters_{side}"] = counters[side] if len(counters) > side else None
    return further


def hand_to_history(hand: Hand) -> dict:
    """`hand` as a line of its history keeps it: its columns, less those added later that hold their default."""
    return {name: value for name, value in hand_to_columns(hand).items()
            if name not in ADDED_COLUMNS or value != ADDED_COLUMNS[name]}


def hand_from_columns(row) -> Hand:
    """The hand a row of the hands table (or a mapping with its `HAND_COLUMNS`, the later ones optional, and
    `SIDE_COLUMNS` for a hand of more than two sides) holds."""
    # Every page of a game reads all its hands through here, and a player's figures tens of thousands: the
    # columns are named once each, not looked up in loops.
    keys = row.keys()
    sides = 2 + sum(1 for name in ("meld_2", "meld_3") if name in keys and row[name] is not None)
    if sides == 2:
        meld = (row["meld_0"], row["meld_1"])
        counters = None if row["counters_0"] is None else (row["counters_0"], row["counters_1"])
    else:
        meld = tuple(row[f"meld_{side}"] for side in range(sides))
        counters = None if row["counters_0"] is None else tuple(row[f"counters_{side}"] for side in range(sides))
    mask = row["dix_only"] if "dix_only" in keys else 0
    counted = from_column(row["meld_counted"], sides) if "meld_counted" in keys else None
    return Hand(row["bidder"], row["bid"], meld, counters, row["kind"], row["renege_team"], bool(row["forced"]),
                row["trump"], row["bidder_seat"], mask_to_sides(mask, sides), counted)


def sides_to_mask(flags) -> int:
    """One flag a side as one integer, bit i for side i: a column that holds any number of sides."""
    return sum(1 << side for side, flag in enumerate(flags) if flag)


@lru_cache(maxsize=256)  # a handful of (mask, sides) pairs, read for every hand
def mask_to_sides(mask: int, sides: int) -> tuple[bool, ...]:
    return tuple(bool(mask >> side & 1) for side in range(sides))


def hand_to_export(hand: Hand) -> dict:
    """`hand` as the export writes it, by name, in `HAND_EXPORT_FIELDS` order."""
    return {
        "kind": hand.kind, "bidder": hand.bidder, "bidder_seat": hand.bidder_seat, "bid": hand.bid,
        "trump": hand.trump, "meld": list(hand.meld), "counters": None if hand.counters is None else
        list(hand.counters), "renege_team": hand.renege_team, "forced": bool(hand.forced),
        "dix_only": list(hand.dix_only), "meld_counted": to_json(hand.counted),
    }
