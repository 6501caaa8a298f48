"""Putting names right through the services, with no HTTP: no score changes, a refusal changes nothing."""

from dataclasses import replace

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.store import games, players
from tests.services.helpers import everything


@pytest.fixture
def seated(db) -> dict[str, int]:
    """Two games: Ann, Bob, Cat and Dan in the first, Ann and Eve in the second. Name -> id."""
    services.start_game(db, PRESETS["double-deck"], ("Us", "Them"), ("Ann", "Bob", "Cat", "Dan"), 0)
    services.start_game(db, PRESETS["double-deck"], ("Us", "Them"), ("Ann", "Eve", None, None), 0)
    return {p["name"]: p["id"] for p in players.player_choices(db)}


def test_a_renamed_player_keeps_every_seat(db, seated):
    renamed = services.rename_player(db, seated["Ann"], "Anne")
    assert (renamed.old, renamed.new) == ("Ann", "Anne")
    assert [g.players[0] for g in games.history_games(db)] == ["Anne", "Anne"]


def test_a_merged_player_is_one_person_with_every_seat(db, seated):
    merged = services.merge_players(db, seated["Eve"], seated["Bob"])
    assert (merged.source, merged.target, merged.target_id) == ("Eve", "Bob", seated["Bob"])
    assert sorted(p["name"] for p in players.player_choices(db)) == ["Ann", "Bob", "Cat", "Dan"]


@pytest.mark.parametrize(("change", "error", "status", "fields"), [
    (lambda db, ids: services.rename_player(db, ids["Ann"], "bob"), services.Refused, 422,
     {"name": "Bob is another player already. To say they are the same person, merge them."}),
    (lambda db, ids: services.merge_players(db, ids["Ann"], None), services.Refused, 422,
     {"into": "Choose the other name of the same person."}),
    (lambda db, ids: services.merge_players(db, ids["Ann"], ids["Ann"]), services.Refused, 422,
     {"into": "Choose the other name of the same person."}),
    (lambda db, ids: services.merge_players(db, ids["Ann"], 999), services.Refused, 422,
     {"into": "Choose the other name of the same person."}),
    (lambda db, ids: services.merge_players(db, ids["Ann"], ids["Bob"]), services.CannotMerge, 409,
     {"into": "Ann and Bob cannot be merged: Both played in game 1, in different seats: they are two people."}),
    (lambda db, ids: services.rename_player(db, 999, "Zed"), services.NotFound, 404, {}),
    (lambda db, ids: services.merge_players(db, 999, ids["Ann"]), services.NotFound, 404, {}),
], ids=["a name taken", "nobody chosen", "the same player", "a player not there", "two people",
        "renaming nobody", "merging nobody"])
def test_a_refused_name_change_says_why_and_changes_nothing(db, seated, change, error, status, fields):
    before = everything(db)
    with pytest.raises(error) as refused:
        change(db, seated)
    assert (refused.value.status_hint, refused.value.errors) == (status, fields)
    assert everything(db) == before
    assert not db.conn.in_transaction


def test_a_player_merged_from_a_seat_past_the_fourth_keeps_that_seat_under_the_other_name(db):
    eight = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    game_id = services.start_game(db, replace(PRESETS["double-deck"], players_per_side=4), ("Us", "Them"), eight, 0)
    services.start_game(db, PRESETS["double-deck"], ("Us", "Them"), ("Ivy", None, None, None), 0)
    ids = {p["name"]: p["id"] for p in players.player_choices(db)}
    services.merge_players(db, ids["Hal"], ids["Ivy"])
    assert games.load_game(db, game_id).players[7] == "Ivy"
