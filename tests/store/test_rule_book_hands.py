"""New in a hand's row: a side's "meld is only the dix", kept as one integer (bit i for side i) through a save, an
edit and the hand's history; and the kind of hand that ends in a quadruple run."""

import json
import uuid

from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import transfer
from scorepad.store import connection, games

SD = PRESETS["single-deck"]


def test_a_dix_only_meld_is_kept_with_the_hand_and_scored_from_the_store(new_database):
    db = connection.connect(str(new_database()))
    game_id = games.create_game(db, SD, ("Us", "Them"), [None] * 4, 0)
    hand = Hand(0, 250, (100, 10), (250, 0), dix_only=(False, True))
    with connection.write_lock(db):
        games.insert_hand(db, game_id, uuid.uuid4().hex, hand)
        games.rescore(db, games.load_game(db, game_id), games.live_hands(db, game_id))
    [kept] = games.live_hands(db, game_id)
    assert kept.hand.dix_only == (False, True)
    assert db.execute("SELECT dix_only, points_1 FROM hands").fetchone() == (2, 10)
    [edit] = games.edits_of_hand(db, kept.id)
    assert json.loads(edit["after"])["dix_only"] == 2


def test_editing_the_flag_away_clears_the_column(new_database):
    db = connection.connect(str(new_database()))
    game_id = games.create_game(db, SD, ("Us", "Them"), [None] * 4, 0)
    hand = Hand(0, 250, (100, 10), (250, 0), dix_only=(True, True))
    with connection.write_lock(db):
        hand_id = games.insert_hand(db, game_id, uuid.uuid4().hex, hand)
        games.update_hand(db, hand_id, Hand(0, 250, (100, 10), (250, 0)), "Edited.", hand)
    assert db.execute("SELECT dix_only FROM hands").fetchone() == (0,)


def test_a_hand_that_ends_in_a_quadruple_run_is_kept_and_wins_the_game(new_database):
    db = connection.connect(str(new_database()))
    game_id = games.create_game(db, PRESETS["double-deck"], ("Us", "Them"), [None] * 4, 0)
    with connection.write_lock(db):
        games.insert_hand(db, game_id, uuid.uuid4().hex, Hand(1, 60, (0, 0), kind="quad_run"))
        games.rescore(db, games.load_game(db, game_id), games.live_hands(db, game_id))
    assert db.execute("SELECT kind, outcome FROM hands").fetchone() == ("quad_run", "quad_run")
    assert games.load_game(db, game_id).winner == 1


def test_an_export_carries_the_dix_and_an_export_from_before_it_imports_unchanged(new_database, tmp_path):
    db = connection.connect(str(new_database()))
    game_id = games.create_game(db, SD, ("Us", "Them"), [None] * 4, 0)
    with connection.write_lock(db):
        games.insert_hand(db, game_id, uuid.uuid4().hex, Hand(0, 250, (100, 10), (250, 0), dix_only=(False, True)))
        games.insert_hand(db, game_id, uuid.uuid4().hex, Hand(0, 250, (100, 20), (250, 0)))
        games.rescore(db, games.load_game(db, game_id), games.live_hands(db, game_id))
    data = transfer.export_games(db, [game_id])
    assert [h["dix_only"] for h in data["games"][0]["hands"]] == [[False, True], [False, False]]
    older = json.loads(json.dumps(data))
    del older["games"][0]["hands"][1]["dix_only"]  # written before the field existed
    for rules_field in ("max_bid", "card_count"):
        del older["games"][0]["rules"][rules_field]
    for copy in (data, older):
        other = connection.connect(str(new_database(tmp_path / uuid.uuid4().hex / "scorepad.db")))
        [imported] = transfer.import_document(other, copy)
        assert [h.hand.dix_only for h in games.live_hands(other, imported)] == [(False, True), (False, False)]
        assert games.load_game(other, imported).totals == (700, 10)
