"""A game started without typing names calls each unnamed player the same everywhere: "Player 1", "Player 2" ...
on the scoreboard, the bidder buttons, the sheet, the explanations, the history and the export (a table of four
keeps its compass points)."""

import pytest

from tests.helpers import parse
from tests.web.helpers import csrf, every_table, new_game, record

# (seating, rule set, one played hand in that game's fields)
TABLES = {
    "two players": ("2x1", "two-handed", {"meld_0": 20, "meld_1": 0, "counters_0": 150, "counters_1": 100}),
    "three players": ("3x1", "three-handed", {"bidder": "s1", "bid": 250, "meld_1": 100, "counters_0": 50,
                                              "counters_1": 150, "counters_2": 50}),
    "two teams of three": ("2x3", "double-deck", {"bidder": "t0", "bid": 50, "meld_0": 20, "counters_0": 30,
                                                  "counters_1": 20}),
    "three partnerships": ("3x2", "double-deck", {"bidder": "t1", "bid": 50, "meld_1": 20, "counters_0": 10,
                                                  "counters_1": 30, "counters_2": 10}),
    "two teams of four": ("2x4", "double-deck", {"bidder": "t0", "bid": 50, "meld_0": 20, "counters_0": 30,
                                                 "counters_1": 20}),
}


def a_played_game(client, table: str) -> int:
    seating, preset, hand = TABLES[table]
    game_id = new_game(client, seating=seating, preset=preset)
    response = record(client, game_id, **hand)
    assert response.status_code == 303, response.get_data(as_text=True)
    return game_id


def test_three_players_without_names_deal_and_bid_as_the_bidder_buttons_name_them(client):
    game_id = new_game(client, seating="3x1", preset="three-handed")
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one(".deal").get_text(" ", strip=True) == "Player 1 deals · Player 2 bids first"
    assert [label.get_text(" ", strip=True) for label in page.select("#field-bidder .choice")] == [
        "Player 1", "Player 2 bids first", "Player 3"]


@pytest.mark.parametrize("table", TABLES)
def test_a_game_without_names_calls_its_players_player_1_2_3_on_every_page_and_export(client, table):
    game_id = a_played_game(client, table)
    shown = {
        "game": client.get(f"/games/{game_id}").get_data(as_text=True),
        "history": client.get(f"/history/games/{game_id}").get_data(as_text=True),
        "csv": client.get(f"/games/{game_id}/export.csv").get_data(as_text=True),
        "json": client.get(f"/games/{game_id}/export.json").get_data(as_text=True),
    }
    assert {where: "Seat " in text for where, text in shown.items()} == dict.fromkeys(shown, False)
    # the next hand is dealt by the second player, and the sheet and history say who dealt the first
    assert parse(client.get(f"/games/{game_id}")).select_one(".deal").get_text(" ", strip=True).startswith(
        "Player 2 deals")
    assert "Player 1" in shown["history"] and "Player 1" in shown["csv"]


@pytest.mark.parametrize(("seating", "preset", "typed", "field"), [
    ("3x1", "three-handed", {"player_0": "Player 2"}, "player_0"),
    ("3x1", "three-handed", {"player_2": "player 1", "player_1": "Bob"}, "player_2"),
    ("2x3", "double-deck", {"player_5": "Player 4"}, "player_5"),
    ("2x2", "double-deck", {"player_1": "South", "player_0": "Ann"}, "player_1"),
])
def test_a_player_typed_in_under_an_empty_seats_name_is_refused_beside_the_name(client, app, seating, preset,
                                                                                 typed, field):
    before = every_table(app.config["DATABASE"])
    response = client.post("/games/new", data={"csrf_token": csrf(client), "seating": seating, "preset": preset,
                                               **typed})
    assert response.status_code == 422
    page = parse(response)
    assert "An empty seat is called" in page.select_one(f"#{field}-error").get_text()
    assert page.select_one(f"#{field}")["value"] == typed[field]
    assert every_table(app.config["DATABASE"]) == before


def test_a_player_may_take_a_seats_name_when_that_seat_is_named_too(client):
    new_game(client, seating="3x1", preset="three-handed", player_0="Player 2", player_1="Bob", player_2="Cat")
