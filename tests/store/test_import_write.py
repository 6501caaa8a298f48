"""Writing an import: short transactions, all or nothing, nothing seen before the end, and every summary exactly
as a re-score keeps it."""

import contextlib
import json
import random
import sqlite3
import uuid
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad import document, store, transfer
from scorepad.errors import GameOver
from scorepad.hands import hand_to_columns, hand_to_history
from scorepad.rules import PRESETS
from scorepad.scoring import Hand, play_game
from scorepad.store import imports
from tests.store.helpers import random_hand

AT = "2026-11-01T19:00:00+00:00"
NAMES = ["Ann", "ann", "Bob", "Cat", "Dan", "Émile", "Zoë"]  # "ann" is Ann: names match without regard to case


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "import.db")
    store.migrate(path)
    connection = store.connect(path)
    yield connection
    connection.close()


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


SUMMARIES = {
    "hands": "SELECT id, points_0, points_1, outcome FROM hands ORDER BY id",
    "games": "SELECT id, total_0, total_1, hands_count, winner, finished_at FROM games ORDER BY id",
    "game_seats": "SELECT * FROM game_seats ORDER BY game_id, seat",
    "team_results": "SELECT * FROM team_results ORDER BY game_id, team",
    "seat_results": "SELECT * FROM seat_results ORDER BY game_id, seat",
}


def summaries(db) -> dict:
    return {name: db.execute(sql).fetchall() for name, sql in SUMMARIES.items()}


def everything(db) -> dict:
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables}


@contextlib.contextmanager
def counting_transactions():
    """How many write transactions run inside the block."""
    count = [0]
    original = store.write_lock

    @contextlib.contextmanager
    def counted(db):
        count[0] += 1
        with original(db):
            yield db

    with mock.patch.object(imports, "write_lock", counted):
        yield count


@given(seed=st.integers(0, 2**32))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
def test_an_import_in_short_transactions_ends_exactly_as_a_rescore_keeps_it(db, seed):
    data = export_of(random.Random(seed), 40)
    before = db.execute("SELECT count(*) FROM games").fetchone()[0]
    with mock.patch.object(imports, "IMPORT_BATCH_ROWS", 7), counting_transactions() as transactions:
        ids = transfer.import_document(db, data)
    rows = sum(len(h["edits"]) + 1 for g in data["games"] for h in g["hands"])
    assert transactions[0] >= rows // 7  # no transaction writes more than 7 hands and history lines
    assert len(ids) == 40 and db.execute("SELECT count(*) FROM games").fetchone()[0] == before + 40
    imported = summaries(db)
    with store.write_lock(db):
        for game_id in ids:
            store.rescore(db, store.load_game(db, game_id), store.live_hands(db, game_id))
    assert summaries(db) == imported
    assert [g["rematch_of"] is not None for g in transfer.export_games(db, ids)["games"]] == \
        [g["rematch_of"] is not None for g in data["games"]]


def test_nobody_sees_an_import_until_all_its_games_appear_at_once(db):
    path = store.database_path(db)
    seen = []
    write_hands = imports._write_hands

    def watched(writer, first, batch):
        write_hands(writer, first, batch)
        reader = store.connect(path)
        try:
            seen.append((len(store.history_games(reader)), store.player_names(reader)))
            # a phone starts a game meanwhile: it is given an id past those the import keeps for its games
            store.create_game(reader, PRESETS["double-deck"], ("New", "Game"), ["Eve", None, None, None], 0)
        finally:
            reader.close()

    data = export_of(random.Random(3), 30)
    with mock.patch.object(imports, "IMPORT_BATCH_ROWS", 50), mock.patch.object(imports, "_write_hands", watched):
        ids = transfer.import_document(db, data)
    assert len(seen) > 2
    assert [count for count, _ in seen] == list(range(len(seen)))  # only the phone's new games
    assert all(set(names) <= {"Eve"} for _, names in seen)  # the import's players come with its games
    phone_games = [g.id for g in store.history_games(db) if g.teams == ("New", "Game")]
    assert not set(phone_games) & set(ids)
    assert all(store.live_hands(db, game_id) == [] for game_id in phone_games)
    assert [store.load_game(db, i).totals for i in ids] == [tuple(g["totals"]) for g in data["games"]]


def test_a_failure_part_way_leaves_nothing_behind(db):
    store.create_game(db, PRESETS["double-deck"], ("Us", "Them"), ["Ann", None, None, None], 0)
    before = everything(db)
    write_hands, calls = imports._write_hands, []

    def failing(writer, first, batch):
        calls.append(1)
        if len(calls) == 3:
            raise sqlite3.OperationalError("disk I/O error")
        write_hands(writer, first, batch)

    with mock.patch.object(imports, "IMPORT_BATCH_ROWS", 20), mock.patch.object(imports, "_write_hands", failing):
        with pytest.raises(sqlite3.OperationalError):
            transfer.import_document(db, export_of(random.Random(5), 20))
    assert everything(db) == before


def test_what_a_cut_off_import_left_is_cleared_by_the_next(db):
    data = export_of(random.Random(7), 20)
    write_hands, calls = imports._write_hands, []

    def cut_off(writer, first, batch):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt  # the power went: nothing is cleaned up
        write_hands(writer, first, batch)

    with mock.patch.object(imports, "IMPORT_BATCH_ROWS", 20), mock.patch.object(imports, "_write_hands", cut_off), \
            mock.patch.object(imports, "_drop_import"), pytest.raises(KeyboardInterrupt):
        transfer.import_document(db, data)
    assert db.execute("SELECT count(*) FROM hands").fetchone()[0] > 0  # left without their games
    assert store.history_games(db) == []
    later = store.create_game(db, PRESETS["double-deck"], ("Later", "Game"), [None] * 4, 0)
    ids = transfer.import_document(db, data)  # its tokens are free again
    assert later not in ids
    orphans = "SELECT count(*) FROM hands WHERE game_id NOT IN (SELECT id FROM games)"
    assert db.execute(orphans).fetchone()[0] == 0
    assert [len(store.live_hands(db, i)) for i in ids] == \
        [sum(h["deleted_at"] is None for h in g["hands"]) for g in data["games"]]


def test_history_is_kept_the_way_the_store_writes_it(db):
    data = export_of(random.Random(11), 1)
    hand = Hand(0, 50, (20, 0), (30, 20))
    written = json.dumps(hand_to_history(replace(hand, trump="S", bidder_seat=2)))
    loose = json.dumps(dict(reversed(json.loads(written).items())), indent=2)
    data["games"][0].update(hands=[hand_data(1, hand, 2, False, "loose-1")], totals=[50, 20], winner=None,
                            finished_at=None, rules=PRESETS["double-deck"].to_dict(), teams=["Us", "Them"],
                            players=[None] * 4, first_dealer=0)
    data["games"][0]["hands"][0]["edits"][0]["after"] = loose
    data["games"][0]["hands"][0]["trump"] = "S"
    [game_id] = transfer.import_document(db, data)
    [edit] = store.edits_of_hand(db, store.live_hands(db, game_id)[0].id)
    assert edit["after"] == written


def test_a_hand_in_its_history_has_the_columns_the_store_writes():
    columns = hand_to_columns(Hand(0, 50, (0, 0), (50, 0)))
    assert tuple(columns) == document.SNAPSHOT_FIELDS
