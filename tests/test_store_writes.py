"""All SQL lives in the store; every hand goes in by one path."""

import re
import sqlite3
import uuid
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad import store
from scorepad.errors import GameOver
from scorepad.rules import PRESETS
from scorepad.scoring import Hand, play_game, validate_hand
from scorepad.store import HandEntry, NewHand

ROOT = Path(__file__).resolve().parent.parent
DD = PRESETS["double-deck"]
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def record(db, game_id: int, hands: list[Hand]) -> None:
    """The hands recorded as a phone records them, in one save."""
    with store.write_lock(db):
        for hand in hands:
            store.insert_hand(db, game_id, uuid.uuid4().hex, HandEntry(hand, "S", hand.bidder))
        store.rescore(db, store.load_game(db, game_id), store.live_hands(db, game_id))


# --- who writes SQL -----------------------------------------------------------------------------------------------

def python_files(*folders: str):
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


SQL = re.compile(r"\.execute(many|script)?\(|\bSELECT\s|\bINSERT\s+INTO\b|\bDELETE\s+FROM\b|\bUPDATE\s+\w+\s+SET\b|"
                 r"\bdb\[\"\w+\"\]")


def test_no_sql_outside_the_store_in_the_core_the_transfer_and_the_benchmarks():
    """The web shell is held to this too, by its own owners; here: everything else that ships or measures."""
    outside = [path for path in python_files("scorepad", "bench")
               if not {"store", "web"} & set(path.relative_to(ROOT).parts[1:-1])]
    assert any(path.name == "transfer.py" for path in outside) and any(p.name == "history.py" for p in outside)
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in outside
             for n, line in enumerate(path.read_text().splitlines(), start=1) if SQL.search(line)]
    assert found == []


# --- one way in for hands -----------------------------------------------------------------------------------------

def stored(path: str, game_id: int) -> dict:
    """What a game holds, leaving out ids and times: its summary, its hands with their points, its figures."""
    with sqlite3.connect(path) as db:
        return {
            "game": db.execute("SELECT total_0, total_1, hands_count, winner, finished_at IS NOT NULL FROM games "
                               "WHERE id = ?", [game_id]).fetchall(),
            "hands": db.execute("SELECT seq, kind, bidder, bidder_seat, bid, trump, meld_0, meld_1, counters_0, "
                                "counters_1, renege_team, forced, points_0, points_1, outcome FROM hands "
                                "WHERE game_id = ? ORDER BY seq", [game_id]).fetchall(),
            "history": db.execute("SELECT e.action, e.after FROM hand_edits e JOIN hands h ON h.id = e.hand_id "
                                  "WHERE h.game_id = ? ORDER BY h.seq", [game_id]).fetchall(),
            "teams": db.execute("SELECT team, hands, sum_meld, max_points, hands_bid, made, went_set, sum_bid "
                                "FROM team_results WHERE game_id = ? ORDER BY team", [game_id]).fetchall(),
            "seats": db.execute("SELECT seat, hands_bid, made, went_set, sum_bid FROM seat_results "
                                "WHERE game_id = ? ORDER BY seat", [game_id]).fetchall(),
            "seated": db.execute("SELECT seat, finished, won FROM game_seats WHERE game_id = ? ORDER BY seat",
                                 [game_id]).fetchall(),
        }


hands = st.builds(
    lambda bidder, bid, meld, took, kind: Hand(bidder, bid, meld, (took, 50 - took) if kind == "played" else None,
                                               kind, 0 if kind == "renege" else None),
    st.integers(0, 1), st.sampled_from([50, 60, 250, 450]),
    st.tuples(st.sampled_from([0, 20, 400]), st.sampled_from([0, 30])), st.integers(0, 50),
    st.sampled_from(["played", "played", "throw_in", "renege"]))


def playable(rules, candidates: list[Hand]) -> list[Hand]:
    """The hands these rules take, up to the one that ends the game."""
    kept = []
    for hand in candidates:
        if validate_hand(rules, hand):
            continue
        try:
            play_game(rules, [*kept, hand])
        except GameOver:
            break
        kept.append(hand)
    return kept


@given(st.lists(hands, min_size=1, max_size=12))
@settings(max_examples=25, deadline=None)
def test_hands_written_all_at_once_are_stored_exactly_as_hands_recorded_one_by_one(tmp_path_factory, candidates):
    """Recording, import and the benchmark's history all write hands through `insert_hands`: given the points a
    fold gave them, a game's hands written at once keep what recording them one by one keeps."""
    rules = replace(DD, target=1000)
    played = playable(rules, candidates)
    state = play_game(rules, played)
    path = str(tmp_path_factory.mktemp("hands") / "hands.db")
    store.migrate(path)
    db = store.connect(path)
    try:
        one_by_one = store.create_game(db, rules, ("Us", "Them"), PLAYERS[:4], 0)
        for hand in played:
            record(db, one_by_one, [hand])
        at_once = store.create_game(db, rules, ("Us", "Them"), PLAYERS[:4], 0)
        with store.write_lock(db):
            store.insert_hands(db, at_once, [
                NewHand(f"at-once-{n}", HandEntry(hand, "S", hand.bidder), seq=n + 1,
                        kept=(*result.points, store.outcome(result)))
                for n, (hand, result) in enumerate(zip(played, state.results, strict=True))])
            store.save_results(db, at_once, state.totals, len(played), state.winner)
    finally:
        db.close()
    assert stored(path, at_once) == stored(path, one_by_one)
