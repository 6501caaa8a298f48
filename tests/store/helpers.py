
"""Histories drawn at random, for the store tests to share."""

import json
import random
import uuid
from dataclasses import replace
from itertools import pairwise

from scorepad.core.errors import GameOver
from scorepad.core.hands import hand_to_columns
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, play_game


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
    return tuple((high - low) * rules.counter_step for low, high in pairwise(bounds))


# --- exports drawn at random ---------------------------------------------------------------------------------

AT = "2026-11-01T19:00:00+00:00"
NAMES = ["Ann", "ann", "Bob", "Cat", "Dan", "Émile", "Zoë"]  # "ann" is Ann: names match without regard to case


def hand_data(seq: int, hand: Hand, seat: int | None, deleted: bool, token: str) -> dict:
    columns = json.dumps(hand_to_columns(replace(hand, bidder_seat=seat)))
    edits = [{"at": AT, "action": "recorded", "before": None, "after": columns, "summary": "Recorded."}]
    if deleted:
        edits.append({"at": AT, "action": "deleted", "before": columns, "after": None, "summary": "Deleted."})
    return {"seq": seq, "token": token, "kind": hand.kind, "bidder": hand.bidder, "bidder_seat": seat,
            "bid": hand.bid, "trump": None, "meld": list(hand.meld),
            "counters": list(hand.counters) if hand.counters else None, "renege_team": hand.renege_team,
            "forced": hand.forced, "created_at": AT, "updated_at": AT, "deleted_at": AT if deleted else None,
            "edits": edits}


def game_data(rng: random.Random, game_id: int) -> dict:
    """A game as an export holds it: random rules, players, bidders' seats, some hands deleted."""
    rules = rng.choice(list(PRESETS.values()))
    players = rng.sample(NAMES[1:], rules.players) if rng.random() < 0.7 else [None] * rules.players
    live, hands = [], []
    for seq in range(1, rng.randrange(0, 14)):
        hand = random_hand(rng, rules)
        deleted = rng.random() < 0.15
        if not deleted:
            try:
                play_game(rules, [*live, hand])
            except GameOver:
                break
            live.append(hand)
        seat = None if hand.bidder is None or hand.kind == "redeal" or rng.random() < 0.2 else \
            hand.bidder + rules.sides * rng.randrange(rules.players_per_side)
        hands.append(hand_data(seq, hand, seat, deleted, f"{uuid.uuid4().hex}-{seq}"))
    state = play_game(rules, live)
    return {"id": game_id, "created_at": AT, "rules": rules.to_dict(), "teams": ["Us", "Them", "Others"][:rules.sides],
            "players": players, "first_dealer": rng.randrange(rules.players),
            "rematch_of": game_id - 1 if game_id > 1 and rng.random() < 0.3 else None,
            "finished_at": AT if state.winner is not None else None, "totals": list(state.totals),
            "winner": state.winner, "hands": hands}


def export_of(rng: random.Random, games: int) -> dict:
    return {"format": "scorepad", "version": 2, "exported_at": AT,
            "games": [game_data(rng, n) for n in range(1, games + 1)]}
