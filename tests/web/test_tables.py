"""Tables of every size through the web: how many play comes first, the rule sets that fit, the hand form with a
side loop, records for players on their own, and the export that carries the seating."""

import json

import pytest

from scorepad.services import transfer
from scorepad.store import connection, games, records
from tests.helpers import csv_head, csv_sheets, parse
from tests.web.helpers import csrf, every_table, record

CUTTHROAT = {"seating": "3x1", "preset": "three-handed", "player_0": "Ann", "player_1": "Bob", "player_2": "Cat"}


def start(client, **fields) -> int:
    response = client.post("/games/new", data={"csrf_token": csrf(client), **fields})
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def shown_totals(client, game_id) -> list[str]:
    page = parse(client.get(f"/games/{game_id}"))
    return [total.get_text() for total in page.select(".totals .total")]


@pytest.mark.parametrize(("seating", "presets"), [
    ("3x1", ["three-handed", "three-handed-double"]),
    ("2x1", ["two-handed", "three-handed", "three-handed-double"]),
    ("2x2", ["double-deck", "double-deck-shg", "double-pack-bicycle", "double-deck-gamerules", "single-deck"]),
    # six: the three decks written for six, then the deck that deals evenly to six (80 cards leave two over)
    ("3x2", ["six-handed-triple", "single-deck", "double-deck", "double-deck-shg", "double-pack-bicycle",
             "double-deck-gamerules"]),
])
def test_how_many_play_comes_first_and_only_the_rule_sets_that_fit_follow(client, seating, presets):
    page = parse(client.get(f"/games/new?seating={seating}"))
    assert len(page.select("#field-seating a.seating")) == 6
    assert page.select_one("#field-seating a.chosen")["href"].endswith(f"seating={seating}")
    assert [radio["value"] for radio in page.select("input[name=preset]")] == presets
    assert page.select_one("input[name=preset][checked]")["value"] == presets[0]
    sides, per_side = map(int, seating.split("x"))
    assert len(page.select(".seats input")) == sides * per_side
    assert len(page.select("input[name^=team_]")) == (sides if per_side > 1 else 0)


def test_a_cutthroat_game_is_three_players_each_their_own_side(client, app):
    game_id = start(client, **CUTTHROAT)
    db = connection.connect(app.config["DATABASE"])
    game = games.load_game(db, game_id)
    db.close()
    assert (game.rules.sides, game.rules.players_per_side, game.teams) == (3, 1, ("Ann", "Bob", "Cat"))
    page = parse(client.get(f"/games/{game_id}"))
    # in seat order, each keeping its place all game; the player left of the dealer is marked as bidding first
    assert [label.get_text(" ", strip=True) for label in page.select("#field-bidder .choice")] == [
        "Ann", "Bob bids first", "Cat"]
    assert [i["name"] for i in page.select(".counters input")] == ["counters_0", "counters_1", "counters_2"]


def test_all_but_one_sides_counters_typed_fill_the_last(client, app):
    game_id = start(client, **CUTTHROAT)
    response = record(client, game_id, bidder="s0", bid=300, meld_0=150, meld_1=40, meld_2=60, counters_0=160,
                      counters_1=50)
    assert response.status_code == 303
    db = connection.connect(app.config["DATABASE"])
    [stored] = games.live_hands(db, game_id)
    db.close()
    assert stored.hand.counters == (160, 50, 40)
    assert shown_totals(client, game_id) == ["310", "90", "100"]


def test_a_hand_whose_counters_do_not_add_up_is_refused_beside_them(client, app):
    game_id = start(client, **CUTTHROAT)
    before = every_table(app.config["DATABASE"])
    response = record(client, game_id, bidder="s0", bid=300, meld_0=150, counters_0=160, counters_1=50,
                      counters_2=30)
    assert response.status_code == 422
    assert "add up to 250" in parse(response).select_one("#counters-error").get_text()
    assert every_table(app.config["DATABASE"]) == before


@pytest.mark.parametrize(("seating", "preset", "field"), [
    ("3x1", "double-deck", "preset"), ("2x2", "three-handed", "preset"), ("3x1", "two-handed", "preset"),
    ("5x1", "three-handed", "seating"),
])
def test_a_rule_set_that_does_not_fit_the_table_is_refused_and_nothing_is_stored(client, app, seating, preset,
                                                                                 field):
    before = every_table(app.config["DATABASE"])
    response = client.post("/games/new", data={"csrf_token": csrf(client), "seating": seating, "preset": preset})
    assert response.status_code == 422
    assert parse(response).select_one(f"#{field}-error")
    assert every_table(app.config["DATABASE"]) == before


def test_a_losing_floor_is_refused_at_a_table_of_three_sides(client):
    response = client.post("/games/new", data={"csrf_token": csrf(client), "seating": "3x2", "preset": "double-deck",
                                               "floor": "minus_target"})
    assert response.status_code == 422
    assert "two sides" in parse(response).select_one("#floor-error").get_text()


def test_the_two_handed_form_is_just_meld_and_counters(client, app):
    game_id = start(client, seating="2x1", preset="two-handed", player_0="Ann", player_1="Bob")
    form = parse(client.get(f"/games/{game_id}")).select_one("#hand-form")
    assert not form.select("input[name=bidder], input[name=bid], input[name=trump], input[name=kind]")
    assert record(client, game_id, meld_0=100, meld_1=40, counters_0=150).status_code == 303
    assert shown_totals(client, game_id) == ["250", "140"]


def finish_a_cutthroat_game(client) -> int:
    game_id = start(client, **CUTTHROAT, target="500")
    record(client, game_id, bidder="s1", bid=300, meld_0=0, meld_1=300, meld_2=0, counters_0=0, counters_1=250)
    return game_id


def test_players_on_their_own_have_records_and_head_to_head(client, app):
    finish_a_cutthroat_game(client)
    page = parse(client.get("/players/"))
    listed = {a.select_one("strong").get_text(): a.select_one(".muted").get_text()
              for a in page.select(".player-list a")}
    assert listed == {"Ann": "1 finished game · 0 won", "Bob": "1 finished game · 1 won",
                      "Cat": "1 finished game · 0 won"}
    db = connection.connect(app.config["DATABASE"])
    ids = {p["name"]: p["id"] for p in records.players(db)}
    bob = records.side_record(db, [ids["Bob"]])
    assert (bob["games"], bob["wins"], bob["hands_bid"], bob["made"]) == (1, 1, 1, 1)
    assert records.head_to_head(db, [ids["Bob"]], [ids["Ann"]]) == {"games": 1, "wins_a": 1, "wins_b": 0}
    assert records.partners(db, ids["Bob"]) == []  # nobody partners anybody in cutthroat
    db.close()
    page = parse(client.get(f"/players/?a1={ids['Cat']}&b1={ids['Bob']}"))
    assert page.select_one(".h2h-result").get_text(" ", strip=True).startswith("Cat 0 – 1 Bob")


def test_the_score_sheets_csv_has_every_sides_columns(client):
    game_id = finish_a_cutthroat_game(client)
    text = client.get(f"/games/{game_id}/export.csv").get_data(as_text=True)
    [(title, rows)] = csv_sheets(text)
    assert title[1] == "Ann – Bob – Cat"
    assert [(r["Bob meld"], r["Bob points"], r["Cat points"], r["Bob total"]) for r in rows] == [
        ("300", "550", "0", "550")]
    assert [name for name in csv_head(text) if name.endswith(" total")] == ["Ann total", "Bob total", "Cat total"]


def test_an_export_carries_the_seating_and_comes_back_with_the_same_totals(client, app):
    game_id = finish_a_cutthroat_game(client)
    exported = json.loads(client.get(f"/games/{game_id}/export.json").get_data(as_text=True))
    assert exported["version"] == 4
    assert (exported["games"][0]["rules"]["sides"], exported["games"][0]["totals"]) == (3, [0, 550, 0])
    db = connection.connect(app.config["DATABASE"])
    db.execute("DELETE FROM hand_edits")
    for table in ("hands", "game_seats", "team_results", "seat_results", "games"):
        db.execute(f"DELETE FROM {table}")
    db.conn.commit()
    [again] = transfer.import_document(db, exported)
    assert (games.load_game(db, again).totals, games.load_game(db, again).winner) == ((0, 550, 0), 1)
    db.close()


def test_a_version_1_export_still_imports_as_two_teams_of_two_with_the_same_totals(client, app):
    game_id = start(client, seating="2x2", preset="double-deck")
    record(client, game_id, bidder="t0", bid=55, meld_0=30, meld_1=12, counters_0=28)
    exported = json.loads(client.get(f"/games/{game_id}/export.json").get_data(as_text=True))
    for name in ("sides", "players_per_side", "bidding"):
        del exported["games"][0]["rules"][name]
    exported["version"] = 1
    exported["games"][0]["hands"][0]["token"] += "-again"
    db = connection.connect(app.config["DATABASE"])
    [again] = transfer.import_document(db, exported)
    game = games.load_game(db, again)
    db.close()
    assert (game.totals, game.rules.sides, game.rules.players_per_side) == ((58, 22), 2, 2)


def test_a_team_of_three_has_its_record_and_meets_another_team_head_to_head(client, app):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    game_id = start(client, seating="2x3", preset="double-deck", target="50",
                    **{f"player_{seat}": name for seat, name in enumerate(names)})
    record(client, game_id, bidder="s0", bid=50, meld_0=30, meld_1=0, counters_0=40)  # Ann, Cat & Eve: +70
    db = connection.connect(app.config["DATABASE"])
    ids = {p["name"]: p["id"] for p in records.players(db)}
    db.close()
    page = parse(client.get(f"/players/{ids['Ann']}"))
    teams = [summary.get_text(" ", strip=True) for summary in page.select("details.card summary")]
    assert "With Cat & Eve 1 game as one team" in teams
    query = "&".join([f"a{n}={ids[name]}" for n, name in enumerate(("Ann", "Cat", "Eve"), 1)]
                     + [f"b{n}={ids[name]}" for n, name in enumerate(("Bob", "Dan", "Fay"), 1)])
    result = parse(client.get(f"/players/?{query}")).select_one(".h2h-result").get_text(" ", strip=True)
    assert result.startswith("Ann & Cat & Eve 1 – 0 Bob & Dan & Fay")


@pytest.mark.parametrize(("fields", "boxes"), [
    (CUTTHROAT, ["dix_only_0", "dix_only_1", "dix_only_2"]),  # a lone player's dix saves itself: each is asked
    ({"seating": "2x1", "preset": "two-handed", "player_0": "Ann", "player_1": "Bob"}, []),  # no meld to save
])
def test_only_the_dix_is_asked_of_each_player_where_meld_must_be_saved(client, fields, boxes):
    page = parse(client.get(f"/games/{start(client, **fields)}"))
    assert [box["name"] for box in page.select("#hand-form input[name^=dix_only_]")] == boxes


def test_a_cutthroat_players_meld_of_only_the_dix_saves_itself_through_the_form(client, app):
    game_id = start(client, **CUTTHROAT)
    response = record(client, game_id, bidder="s0", bid=250, meld_0=150, meld_1=20, meld_2=60, dix_only_1="1",
                      counters_0=240, counters_1=0, counters_2=10)
    assert response.status_code == 303
    assert shown_totals(client, game_id) == ["390", "20", "70"]


def test_two_handed_with_bidding_turned_on_is_the_auction_game_where_meld_needs_a_counter():
    from scorepad.core.rules import PRESETS
    from scorepad.web.games.forms import parse_new_game

    game = parse_new_game({"seating": "2x1", "preset": "two-handed", "bidding": "yes"})
    assert not game.errors
    assert (game.rules.bidding, game.rules.save_counters) == (True, PRESETS["three-handed"].save_counters)


def test_a_cutthroat_rematch_is_offered_with_the_same_players_not_teams(client):
    """Players on their own have no teams: the winner card's rematch says so (a game of partners says teams)."""
    game_id = finish_a_cutthroat_game(client)
    card = parse(client.get(f"/games/{game_id}")).select_one(".winner-card")
    assert card.select_one("button[type=submit]").get_text() == "Rematch: same players, next dealer"
    again = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf(client)}).headers["Location"]
    followed = client.get(f"{again}?followed={game_id}")
    shown = parse(client.get(followed.headers["Location"])).get_text(" ", strip=True)
    assert "this is it. Same players, next dealer." in shown
    card = parse(client.get(f"/games/{game_id}")).select_one(".winner-card")
    assert "The rematch has started: same players, next dealer." in card.get_text(" ", strip=True)
