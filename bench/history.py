"""A generated history for the benchmarks: years of family evenings, written straight into a Scorepad database.

Hands are scored by the core as the app scores them; rows go in with executemany in one transaction, so
10,000 games take seconds, not the hours the web form would.
"""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from scorepad import store
from scorepad.rules import PRESETS
from scorepad.scoring import Hand, decide_winner, score_hand
from scorepad.store import outcome

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]


def random_hand(rng: random.Random, rules) -> Hand:
    """A hand as tables play them: the bidders usually have the meld and take most of the counters."""
    scale = rules.hand_points // 50
    pts = rules.hand_points
    bidder = rng.randrange(2)
    meld = [0, 0]
    meld[bidder] = rng.randrange(15, 50) * scale
    meld[1 - bidder] = rng.randrange(0, 30) * scale
    meld = [m - m % rules.meld_step for m in meld]
    kind = rng.choices(["played", "throw_in", "renege"], [94, 5, 1])[0]
    took = min(50, rng.randrange(16, 42)) * scale
    took -= took % rules.counter_step
    bid = max(rules.min_bid, meld[bidder] + took - rng.randrange(-2, 12) * scale)  # about one in eight is set
    bid -= bid % rules.bid_step_at(bid)
    bid = max(bid, rules.min_bid)
    if kind == "renege":
        return Hand(bidder, bid, tuple(meld), kind="renege", renege_team=rng.randrange(2))
    if kind == "throw_in":
        return Hand(bidder, bid, tuple(meld), kind="throw_in")
    counters = (took, pts - took) if bidder == 0 else (pts - took, took)
    return Hand(bidder, bid, tuple(meld), counters)


def generate(path: str, games: int = 10_000, seed: int = 1, open_games: int = 20) -> dict:
    """Write `games` finished games (and `open_games` in progress) into a fresh database at `path`."""
    store.migrate(path)
    rng = random.Random(seed)
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys = ON")
    db.executemany("INSERT INTO players (id, name, created_at) VALUES (?, ?, ?)",
                   [(i + 1, n, "2023-01-01T18:00:00+00:00") for i, n in enumerate(NAMES)])
    presets = [PRESETS["double-deck"]] * 6 + [PRESETS["double-deck-shg"], PRESETS["single-deck"]]
    start = datetime(2023, 1, 6, 19, 0, tzinfo=UTC)
    game_rows, seat_rows, hand_rows, edit_rows = [], [], [], []
    hand_id = 0
    total_games = games + open_games
    for game_id in range(1, total_games + 1):
        rules = rng.choice(presets)
        finished = game_id <= games
        if not finished:  # the games the load records into: family rules, and no end during the benchmark
            rules = replace(PRESETS["double-deck"], target=100_000)  # the longest game the rules allow
        evening = start + timedelta(days=(game_id - 1) // 3 * 1.1, hours=(game_id - 1) % 3 * 1.3)
        seats = rng.sample(range(1, len(NAMES) + 1), 4)
        totals, winner, n = (0, 0), None, 0
        limit = 400 if finished else rng.randrange(3, 12)
        while winner is None and n < limit:
            hand = random_hand(rng, rules)
            result = score_hand(rules, hand)
            totals = (totals[0] + result.points[0], totals[1] + result.points[1])
            n += 1
            hand_id += 1
            at = (evening + timedelta(minutes=4 * n)).isoformat(timespec="seconds")
            seat = rng.choice((hand.bidder, hand.bidder + 2))
            counters = hand.counters or (None, None)
            hand_rows.append((hand_id, game_id, n, f"b{hand_id}", hand.kind, hand.bidder, seat, hand.bid,
                              rng.choice("SHDC"), hand.meld[0], hand.meld[1], counters[0], counters[1],
                              hand.renege_team, 0, at, at, result.points[0], result.points[1], outcome(result)))
            edit_rows.append((hand_id, at, "recorded", "Recorded."))
            decision = decide_winner(rules, totals, hand.bidder, n)
            winner = decision[0] if decision else None
        ended = evening + timedelta(minutes=4 * n + 1)
        finished_at = ended.isoformat(timespec="seconds") if winner is not None else None
        game_rows.append((game_id, evening.isoformat(timespec="seconds"), json.dumps(rules.to_dict()), "Us", "Them",
                          *seats, (game_id - 1) % 4, totals[0], totals[1], n, winner, finished_at, n))
        seat_rows.extend((game_id, s, s % 2, p, int(winner is not None), int(winner == s % 2))
                         for s, p in enumerate(seats))
    with db:
        db.executemany("""INSERT INTO games (id, created_at, rules, team_0, team_1, seat_0, seat_1, seat_2, seat_3,
                          first_dealer, total_0, total_1, hands_count, winner, finished_at, version)
                          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", game_rows)
        db.executemany("INSERT INTO game_seats (game_id, seat, team, player_id, finished, won) "
                       "VALUES (?, ?, ?, ?, ?, ?)", seat_rows)
        db.executemany("""INSERT INTO hands (id, game_id, seq, token, kind, bidder, bidder_seat, bid, trump, meld_0,
                          meld_1, counters_0, counters_1, renege_team, forced, created_at, updated_at, points_0,
                          points_1, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                       hand_rows)
        db.executemany("INSERT INTO hand_edits (hand_id, at, action, summary) VALUES (?, ?, ?, ?)", edit_rows)
        for statement in store._RESULTS_SQL.format(where="1").split(";\n"):
            if statement.strip():
                db.execute(statement)
    db.execute("ANALYZE")
    db.close()
    return {"games": total_games, "finished": games, "hands": len(hand_rows),
            "open_games": list(range(games + 1, total_games + 1))}
