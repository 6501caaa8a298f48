"""What an export leaves out comes back wrong: the full copy carries a game ended unfinished (an older file
without the field still imports, a garbled one is refused in words), and the spreadsheet's CSV carries the flags
a hand's explanation turns on, after every column an older spreadsheet knew."""

import io
import json

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorepad.store import connection, games
from tests.helpers import csv_head, csv_sheets, parse
from tests.web.helpers import csrf, every_table, new_game, record

PLAYERS = {"player_0": "Ann", "player_1": "Bob", "player_2": "Cat", "player_3": "Dan"}
# The CSV is for people: one column a side for each figure, headed by its name, and the flags a hand's explanation
# turns on where the hand form asks them (a single deck asks about the dealer stuck and the 9s of trump).
SINGLE_DECK_HEAD = ["Hand", "Dealer", "Bidder", "Bid", "Trump", "Result", "Us meld", "Them meld", "Us counters",
                    "Them counters", "Us points", "Them points", "Us total", "Them total", "Dealer stuck",
                    "Us: only 9s of trump", "Them: only 9s of trump"]


def upload(client, document: dict):
    boundary, body = encode_multipart({"csrf_token": csrf(client), "file": FileStorage(
        io.BytesIO(json.dumps(document).encode()), "scorepad.json")})
    return client.post("/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")


def ended_game_export(client) -> dict:
    game_id = new_game(client, **PLAYERS)
    assert record(client, game_id, bidder="s0", bid=50, counters_0=50).status_code == 303
    assert client.post(f"/games/{game_id}/end", data={"csrf_token": csrf(client)}).status_code == 303
    return json.loads(client.get(f"/games/{game_id}/export.json").get_data(as_text=True))


@pytest.fixture
def elsewhere(make_app, tmp_path):
    """A second Scorepad, with its own database, to import into."""
    return make_app(DATABASE=tmp_path / "elsewhere" / "scorepad.db")


def only_game(app):
    db = connection.connect(app.config["DATABASE"])
    try:
        [game_id] = games.game_ids(db)
        return games.load_game(db, game_id)
    finally:
        db.close()


def test_a_game_ended_unfinished_comes_back_ended_unfinished_from_its_full_copy(client, app, elsewhere):
    exported = ended_game_export(client)
    ended_at = only_game(app).abandoned_at
    assert exported["games"][0]["abandoned_at"] == ended_at is not None
    other = elsewhere.test_client()
    assert upload(other, exported).status_code == 303
    game = only_game(elsewhere)
    assert (game.abandoned_at, game.totals, game.winner) == (ended_at, (50, 0), None)
    assert "No game in progress" in parse(other.get("/")).get_text()
    page = parse(other.get(f"/games/{game.id}"))
    assert page.select_one(".abandoned-card") is not None and page.select_one("#hand-form") is None


def test_a_full_copy_from_before_games_could_be_ended_imports_as_in_progress(client, elsewhere):
    exported = ended_game_export(client)
    del exported["games"][0]["abandoned_at"]
    assert upload(elsewhere.test_client(), exported).status_code == 303
    assert only_game(elsewhere).abandoned_at is None


@pytest.mark.parametrize(("value", "said"), [
    ("yesterday", "abandoned_at 'yesterday' is not a date and time"),
    ("2026-11-01T19:00:00", "abandoned_at '2026-11-01T19:00:00' has no time zone"),
    (20261101, "abandoned_at must be a date and time"),
    (True, "abandoned_at must be a date and time"),
    ("1999-12-31T23:00:00+00:00", "abandoned_at '1999-12-31T23:00:00+00:00' is not between"),
])
def test_a_garbled_abandoned_at_is_refused_naming_the_game_and_the_field(client, elsewhere, value, said):
    exported = ended_game_export(client)
    exported["games"][0]["abandoned_at"] = value
    before = every_table(elsewhere.config["DATABASE"])
    response = upload(elsewhere.test_client(), exported)
    assert response.status_code == 422
    message = " ".join(parse(response).select_one("main").get_text(" ").split())
    assert f"Game 1: {said}" in message and "Nothing was imported." in message
    assert every_table(elsewhere.config["DATABASE"]) == before


def test_a_won_game_said_to_be_ended_unfinished_is_refused(client, elsewhere):
    game_id = new_game(client, **PLAYERS, target="50")
    assert record(client, game_id, bidder="s0", bid=50, counters_0=50).status_code == 303
    exported = json.loads(client.get(f"/games/{game_id}/export.json").get_data(as_text=True))
    exported["games"][0]["abandoned_at"] = exported["games"][0]["finished_at"]
    response = upload(elsewhere.test_client(), exported)
    assert response.status_code == 422
    assert "Game 1: abandoned_at must be null for a game that was won" in parse(response).get_text()


def test_the_csv_carries_each_hands_flags_after_its_figures_headed_by_the_sides_names(client):
    game_id = new_game(client, preset="single-deck", **PLAYERS)
    hands = [
        {"bidder": "s0", "bid": 250, "meld_0": 100, "meld_1": 10, "counters_0": 250, "counters_1": 0,
         "dix_only_1": "1"},  # Bob's meld is only the dix
        {"kind": "renege", "bidder": "s1", "bid": 250, "renege_team": "1"},
        {"bidder": "s2", "bid": 250, "forced": "1", "meld_0": 20, "meld_1": 40, "counters_0": 100,
         "counters_1": 150},  # stuck with the bid, Cat deals and bids
    ]
    for hand in hands:
        assert record(client, game_id, **hand).status_code == 303
    text = client.get(f"/games/{game_id}/export.csv").get_data(as_text=True)
    assert csv_head(text) == SINGLE_DECK_HEAD
    [(_, rows)] = csv_sheets(text)
    assert [[row[name] for name in ("Result", "Dealer stuck", "Us: only 9s of trump", "Them: only 9s of trump")]
            for row in rows] == [
        ["made", "no", "no", "yes"],
        ["renege by Them", "no", "no", "no"],
        ["set", "yes", "no", "no"],
    ]
