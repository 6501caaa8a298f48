"""Writing an import: one transaction, all or nothing, nothing seen before the end, and every summary exactly as a
re-score keeps it."""

import contextlib
import json
import random
from dataclasses import replace
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.core import document
from scorepad.core.errors import ImportRefused
from scorepad.core.hands import hand_to_columns, hand_to_history
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import transfer
from scorepad.store import connection, imports, players
from scorepad.store import games as store_games
from tests.store.helpers import export_of, hand_data

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
    original = connection.write_lock

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
def test_an_import_moves_in_with_one_transaction_and_ends_exactly_as_a_rescore_keeps_it(db, seed):
    data = export_of(random.Random(seed), 40)
    before = db.execute("SELECT count(*) FROM games").fetchone()[0]
    with counting_transactions() as transactions:
        ids = transfer.import_document(db, data)
    assert transactions[0] == 1
    assert len(ids) == 40 and db.execute("SELECT count(*) FROM games").fetchone()[0] == before + 40
    imported = summaries(db)
    with connection.write_lock(db):
        for game_id in ids:
            if store_games.hands_as_stored(db, game_id):  # a game gets its figures with its first hand, as in the app
                store_games.rescore(db, store_games.load_game(db, game_id), store_games.live_hands(db, game_id))
    assert summaries(db) == imported
    assert [g["rematch_of"] is not None for g in transfer.export_games(db, ids)["games"]] == \
        [g["rematch_of"] is not None for g in data["games"]]


def test_nobody_sees_an_import_until_all_its_games_appear_at_once(db):
    path = connection.database_path(db)
    seen = []
    stage = imports._stage

    def watched(staged, games, nights, *seasons):
        stage(staged, games, nights, *seasons)
        reader = connection.connect(path)
        try:
            seen.append((len(store_games.history_games(reader)), players.player_names(reader),
                         reader.execute("SELECT count(*) FROM hands").fetchone()[0]))
            # a phone starts a game meanwhile: the import's games take the ids after it
            store_games.create_game(reader, PRESETS["double-deck"], ("New", "Game"), ["Eve", None, None, None], 0)
        finally:
            reader.close()

    data = export_of(random.Random(3), 30)
    with mock.patch.object(imports, "_stage", watched):
        ids = transfer.import_document(db, data)
    assert seen == [(0, [], 0)]  # all of it staged, none of it in the database
    phone_games = [g.id for g in store_games.history_games(db) if g.teams == ("New", "Game")]
    assert phone_games == [1] and ids == list(range(2, 32))
    assert store_games.live_hands(db, 1) == []
    assert [store_games.load_game(db, i).totals for i in ids] == [tuple(g["totals"]) for g in data["games"]]


def test_a_failure_as_it_moves_in_leaves_nothing_behind(db):
    store_games.create_game(db, PRESETS["double-deck"], ("Us", "Them"), ["Ann", None, None, None], 0)
    before = everything(db)
    # every row is in, then the last statement fails (a full disk, say): the transaction is rolled back
    failing = [*imports._MOVES, ("counters (name, value)", "SELECT 'records', 0")]
    with mock.patch.object(imports, "_MOVES", failing), pytest.raises(ImportRefused, match="Nothing was imported"):
        transfer.import_document(db, export_of(random.Random(5), 20))
    assert everything(db) == before


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
    [edit] = store_games.edits_of_hand(db, store_games.live_hands(db, game_id)[0].id)
    assert edit["after"] == written


def test_a_hand_in_its_history_has_the_columns_the_store_writes():
    columns = hand_to_columns(Hand(0, 50, (0, 0), (50, 0)))
    assert tuple(columns) == document.SNAPSHOT_FIELDS
