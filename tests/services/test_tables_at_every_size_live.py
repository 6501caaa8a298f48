"""Undoing a mistake at a table of any size: a cutthroat hand deleted and put back, a two-handed hand edited (its
history in words, though nobody bids), a six-handed game ended unfinished. Where the table sizes meet the
restore, the abandon and the hand's history."""

from dataclasses import replace

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.store import games
from tests.services import helpers
from tests.services.helpers import record

THREE = PRESETS["three-handed"]
TWO = PRESETS["two-handed"]
SIX = replace(PRESETS["double-deck"], sides=3, players_per_side=2)


def start(db, rules) -> int:
    return helpers.start(db, rules, teams=tuple(f"Side {side + 1}" for side in range(rules.sides)))


def test_a_deleted_cutthroat_hand_goes_back_in_its_place_with_every_players_total(db):
    game_id = start(db, THREE)
    for bid in (250, 300, 260):
        record(db, game_id, Hand(0, bid, (150, 40, 60), (160, 50, 40)))
    hand_2 = games.live_hands(db, game_id)[1].id
    services.delete_hand(db, game_id, hand_2)
    assert games.load_game(db, game_id).totals == (620, 180, 200)
    change = services.restore_hand(db, game_id, hand_2)
    assert (change.number, change.already) == (2, False)
    game = games.load_game(db, game_id)
    assert (game.hands_count, game.totals) == (3, (930, 270, 300))
    assert [e["action"] for e in games.edits_of_hand(db, hand_2)] == ["recorded", "deleted", "restored"]


def test_a_two_handed_hand_edited_says_what_changed_though_nobody_bid(db):
    game_id = start(db, TWO)
    record(db, game_id, Hand(None, None, (80, 20), (150, 100)))
    hand_id = games.live_hands(db, game_id)[0].id
    services.edit_hand(db, game_id, hand_id, Hand(None, None, (80, 40), (150, 100)))
    edited = games.edits_of_hand(db, hand_id)[-1]
    assert (edited["action"], edited["summary"]) == ("edited", "Meld 80 : 20 → 80 : 40")
    assert games.load_game(db, game_id).totals == (230, 140)


def test_a_six_handed_game_ended_unfinished_keeps_its_three_totals_and_no_winner(db):
    game_id = start(db, SIX)
    record(db, game_id, Hand(0, 50, (30, 20, 20), (30, 10, 10)))
    change = services.abandon_game(db, game_id)
    assert change.already is False
    game = games.load_game(db, game_id)
    assert game.abandoned_at is not None and game.winner is None
    assert len(game.totals) == 3
