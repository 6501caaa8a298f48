"""Histories drawn at random, for the store tests to share."""

from scorepad.scoring import Hand


def random_hand(rng, rules):
    """A valid hand of any kind under `rules`, drawn with `rng` (plain Python: hundreds of games stay quick)."""
    kinds = ["played"] * 4 + ["throw_in", "no_marriage", "renege"] + (["redeal"] if rules.all_pass == "redeal" else [])
    if not rules.bidding:
        return Hand(None, None, _random_melds(rng, rules), _random_counters(rng, rules))
    kind = rng.choice(kinds)
    if kind == "redeal":
        return Hand(0, 0, (0,) * rules.sides, kind="redeal")
    bid = rng.randrange(rules.min_bid, rules.min_bid + rules.hand_points * 4)
    bid -= bid % rules.bid_step_at(bid)
    meld = _random_melds(rng, rules)
    counters = _random_counters(rng, rules) if kind == "played" else None
    return Hand(rng.randrange(rules.sides), bid, meld, counters, kind,
                rng.randrange(rules.sides) if kind == "renege" else None)


def _random_melds(rng, rules) -> tuple[int, ...]:
    return tuple(rng.randrange(0, rules.hand_points * 3) // rules.meld_step * rules.meld_step
                 for _ in range(rules.sides))


def _random_counters(rng, rules) -> tuple[int, ...]:
    """The hand's counter points split among the sides at random cuts, in counter steps."""
    steps = rules.hand_points // rules.counter_step
    cuts = sorted(rng.randrange(0, steps + 1) for _ in range(rules.sides - 1))
    bounds = [0, *cuts, steps]
    return tuple((high - low) * rules.counter_step for low, high in zip(bounds, bounds[1:]))
