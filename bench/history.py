"""A generated history for the benchmarks: years of family evenings, written into a Scorepad database.

Hands are scored by the core as the app scores them and go in through the store's own insert path, each game's
hands in one statement and everything in one transaction, so 10,000 games take seconds, not the hours the web
form would.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, decide_winner, score_hand
from scorepad.store import connection, players, schema
from scorepad.store import games as store_games

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]
# Mostly four at the table; a three-handed game now and then, and six in three partnerships on a big evening.
PRESET_MIX = [PRESETS["double-deck"]] * 6 + [PRESETS["double-deck-shg"], PRESETS["single-deck"],
                                             PRESETS["three-handed"], replace(PRESETS["double-deck"], sides=3,
                                                                              players_per_side=2)]
TEAM_NAMES = ("Us", "Them", "Others")
EVENINGS_APART = 1.1  # days; three games an evening


def first_evening(games: int, now: datetime | None = None) -> datetime:
    """The evening the history starts on: so many years back that its last evening was the day before it is
    written. (A history running into the years ahead put every game the load finishes in the middle of the
    records, where no real game ends.)"""
    today = (now or datetime.now(UTC)).replace(hour=19, minute=0, second=0, microsecond=0)
    return today - timedelta(days=1 + (games - 1) // 3 * EVENINGS_APART)


def random_hand(rng: random.Random, rules) -> Hand:
    """A hand as tables play them: the bidders usually have the meld and take most of the counters."""
    scale = rules.hand_points // 50
    pts = rules.hand_points
    bidder = rng.randrange(rules.sides)
    meld = [rng.randrange(0, 30) * scale for _ in range(rules.sides)]
    meld[bidder] = rng.randrange(15, 50) * scale
    meld = [m - m % rules.meld_step for m in meld]
    kind = rng.choices(["played", "throw_in", "renege"], [94, 5, 1])[0]
    took = min(50, rng.randrange(16, 42)) * scale
    took -= took % rules.counter_step
    bid = max(rules.min_bid, meld[bidder] + took - rng.randrange(-2, 12) * scale)  # about one in eight is set
    bid -= bid % rules.bid_step_at(bid)
    bid = max(bid, rules.min_bid)
    if kind == "renege":
        return Hand(bidder, bid, tuple(meld), kind="renege", renege_team=rng.randrange(rules.sides))
    if kind == "throw_in":
        return Hand(bidder, bid, tuple(meld), kind="throw_in")
    # the other sides share the rest of the counters
    rest = pts - took
    share = rest // (rules.sides - 1)
    share -= share % rules.counter_step
    counters = [share] * rules.sides
    counters[bidder] = took
    counters[(bidder + 1) % rules.sides] += rest - share * (rules.sides - 1)
    return Hand(bidder, bid, tuple(meld), tuple(counters))


def generate(path: str, games: int = 10_000, seed: int = 1, open_games: int = 20) -> dict:
    """Write `games` finished games (and `open_games` in progress) into a fresh database at `path`."""
    schema.migrate(path)
    rng = random.Random(seed)
    total_games = games + open_games
    first = first_evening(total_games)
    hands = 0
    db = connection.connect(path)
    try:
        with connection.write_lock(db):
            for name in NAMES:  # the players' ids in the order of their names
                players.player_for(db, name)
            for number in range(1, total_games + 1):
                hands += _write_game(db, rng, number, first, finished=number <= games, first_hand=hands + 1)
        connection.analyze(db)
    finally:
        db.close()
    return {"games": total_games, "finished": games, "hands": hands,
            "open_games": list(range(games + 1, total_games + 1))}


def _write_game(db, rng: random.Random, number: int, first: datetime, finished: bool, first_hand: int) -> int:
    """Game `number` of the history, played to its end (or a few hands into it) and stored; returns its hands."""
    rules = rng.choice(PRESET_MIX)
    if not finished:  # the games the load records into: family rules, and no end during the benchmark
        rules = replace(PRESETS["double-deck"], target=100_000)  # the longest game the rules allow
    evening = first + timedelta(days=(number - 1) // 3 * EVENINGS_APART, hours=(number - 1) % 3 * 1.3)
    seats = rng.sample(NAMES, rules.players)
    teams = tuple(seats) if rules.players_per_side == 1 else TEAM_NAMES[:rules.sides]
    game_id = store_games.create_game(db, rules, teams, seats, (number - 1) % rules.players,
                                created_at=evening.isoformat(timespec="seconds"))
    totals, winner, played = (0,) * rules.sides, None, []
    limit = 400 if finished else rng.randrange(3, 12)
    while winner is None and len(played) < limit:
        hand = random_hand(rng, rules)
        result = score_hand(rules, hand)
        totals = tuple(total + points for total, points in zip(totals, result.points, strict=True))
        at = (evening + timedelta(minutes=4 * (len(played) + 1))).isoformat(timespec="seconds")
        seat = hand.bidder + rules.sides * rng.randrange(rules.players_per_side)
        kept_hand = replace(hand, trump=rng.choice("SHDC"), bidder_seat=seat)
        played.append(store_games.NewHand(f"b{first_hand + len(played)}", kept_hand, seq=len(played) + 1, created_at=at,
                                    kept=(*result.points, store_games.outcome(result))))
        decision = decide_winner(rules, totals, hand.bidder, len(played))
        winner = decision[0] if decision else None
    store_games.insert_hands(db, game_id, played)
    ended = evening + timedelta(minutes=4 * len(played) + 1)
    store_games.save_results(db, game_id, totals, len(played), winner, finished_at=ended.isoformat(timespec="seconds"))
    return len(played)
