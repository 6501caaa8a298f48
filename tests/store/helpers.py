"""Histories drawn at random, for the store tests to share."""

from scorepad.scoring import Hand


def random_hand(rng, rules):
    """A valid hand of any kind under `rules`, drawn with `rng` (plain Python: hundreds of games stay quick)."""
    kinds = ["played"] * 4 + ["throw_in", "no_marriage", "renege"] + (["redeal"] if rules.all_pass == "redeal" else [])
    kind = rng.choice(kinds)
    if kind == "redeal":
        return Hand(0, 0, (0, 0), kind="redeal")
    bid = rng.randrange(rules.min_bid, rules.min_bid + rules.hand_points * 4)
    bid -= bid % rules.bid_step_at(bid)
    meld = tuple(rng.randrange(0, rules.hand_points * 3) // rules.meld_step * rules.meld_step for _ in "ab")
    counters = None
    if kind == "played":
        first = rng.randrange(0, rules.hand_points // rules.counter_step + 1) * rules.counter_step
        counters = (first, rules.hand_points - first)
    return Hand(rng.randrange(2), bid, meld, counters, kind, rng.randrange(2) if kind == "renege" else None)
