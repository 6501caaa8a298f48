"""What a stranger types, case by case: numbers no phone keypad makes, names no family would choose, house rules
past any sense. Each is refused beside its field with what was typed kept, or read as the number it is; nothing
is ever a 500, and a refusal stores nothing."""

import re

import pytest

from scorepad.core.rules import PRESETS, Rules
from scorepad.store import connection, games
from tests.helpers import parse
from tests.web.helpers import csrf, every_table, form_of, new_game

PLAYERS = {"player_0": "Ann", "player_1": "Bob", "player_2": "Cat", "player_3": "Dan"}
FIVE_THOUSAND_DIGITS = "9" * 5000
PAST_SQLITE = str(2**63)
TEN_MB = "x" * 10_000_000


@pytest.fixture
def seated(client):
    """A game with four named players (ids 1 to 4, Ann to Dan) and its id."""
    return new_game(client, **PLAYERS)


def stored(app) -> dict:
    return every_table(app.config["DATABASE"])


def kept(app, game_id: int) -> games.Game:
    db = connection.connect(app.config["DATABASE"])
    try:
        return games.load_game(db, game_id)
    finally:
        db.close()


def player_ids(client) -> dict[str, int]:
    links = parse(client.get("/players/")).select(".player-list a")
    return {a.strong.get_text(): int(a["href"].rsplit("/", 1)[1]) for a in links}


# --- numbers ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("counters", "note"), [
    (("20", "30"), "Counters add up to 50 of 50."),
    (("20", "2,8"), None),  # a comma that groups no thousands is no number (not 28), as the hand form reads it
    (("²", "3"), None),  # a superscript passes str.isdigit() and is still no number
    ((FIVE_THOUSAND_DIGITS, "1"), None),
])
def test_the_live_preview_adds_up_counters_only_when_both_are_numbers(client, counters, note):
    game_id = new_game(client)
    response = client.get(f"/games/{game_id}/preview", headers={"HX-Request": "true"},
                          query_string={"bidder": "t0", "bid": "50", "counters_0": counters[0],
                                        "counters_1": counters[1]})
    assert response.status_code == 200
    notes = [p.get_text() for p in parse(response).select("p[class^=note-]")]
    assert [n for n in notes if n.startswith("Counters add up")] == ([note] if note else [])


@pytest.mark.parametrize("expected", ["²", "¹", FIVE_THOUSAND_DIGITS, PAST_SQLITE, "0"])
def test_a_hand_form_with_a_hand_number_that_is_no_number_stores_nothing_and_keeps_the_hand(client, app, expected):
    game_id = new_game(client)
    before = stored(app)
    data = {**form_of(client, game_id), "kind": "played", "bidder": "t0", "bid": "55", "counters_0": "30",
            "expected": expected}
    response = client.post(f"/games/{game_id}/hands", data=data)
    assert response.status_code == 422
    page = parse(response)
    assert "This form is incomplete" in page.get_text()
    assert page.select_one("input[name=bid]")["value"] == "55"
    assert stored(app) == before


def test_the_meld_calculator_opens_only_for_a_game_that_is_there(client):
    game_id = new_game(client)
    token = csrf(client)
    for game in ("²", FIVE_THOUSAND_DIGITS, PAST_SQLITE, str(2**64), "-1", ""):
        assert client.post("/meld/start", data={"csrf_token": token, "game_id": game}).status_code == 404
    opened = client.post("/meld/start", data={"csrf_token": token, "game_id": chr(0xFF10 + game_id)})
    assert opened.status_code == 303 and opened.headers["Location"].startswith("/meld/")


# --- players and history ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("query", "status", "error"), [
    ({"a1": "1", "b1": "1"}, 422, "One player cannot sit on both sides"),
    ({"a1": "1", "a2": "2", "b1": "2", "b2": "3"}, 422, "One player cannot sit on both sides"),
    ({"a1": "1", "b1": "77"}, 422, "no longer on the list"),
    ({"a1": "²", "b1": "2"}, 200, None),
    ({"a1": PAST_SQLITE, "b1": "2"}, 200, None),
    ({"a1": FIVE_THOUSAND_DIGITS, "b1": "2"}, 200, None),
])
def test_head_to_head_says_what_is_wrong_with_the_sides_and_keeps_the_choice(client, seated, query, status, error):
    response = client.get("/players/", query_string=query)
    assert response.status_code == status
    page = parse(response)
    shown = page.select_one("section .field-error")
    if error is None:
        assert shown is None
        return
    assert error in shown.get_text()
    for name, value in query.items():
        if value != "77":  # no such player: nothing to choose
            assert page.select_one(f"select[name={name}] option[selected]")["value"] == value


@pytest.mark.parametrize("player", ["²", PAST_SQLITE, FIVE_THOUSAND_DIGITS])
def test_history_ignores_a_player_id_that_is_no_id(client, seated, player):
    response = client.get("/history/", query_string={"player": player})
    assert response.status_code == 200
    assert len(parse(response).select(".game-item")) == 1


@pytest.mark.parametrize(("query", "field"), [
    ({"to": "9999-12-31"}, "to"),
    ({"from": "0001-01-01"}, "from"),
    ({"from": "2026-11-20", "to": "2100-01-01"}, "to"),
    ({"from": "1999-12-31"}, "from"),
])
def test_history_refuses_evenings_outside_a_sane_range(client, seated, query, field):
    response = client.get("/history/", query_string=query)
    assert response.status_code == 422
    page = parse(response)
    assert page.select_one(f"#{field}-error").get_text() == "Choose an evening from 2000 to 2099."
    assert page.select_one(f"input[name={field}]")["value"] == query[field]


@pytest.mark.parametrize("into", ["²", FIVE_THOUSAND_DIGITS])
def test_merging_into_an_id_that_is_no_id_is_refused_and_changes_nothing(client, app, seated, into):
    before = stored(app)
    response = client.post("/players/1/merge", data={"csrf_token": csrf(client), "into": into})
    assert response.status_code == 422
    assert parse(response).select_one("#into-error").get_text() == "Choose the other name of the same person."
    assert stored(app) == before


# --- names --------------------------------------------------------------------------------------------------

BAD_NAMES = [
    (TEN_MB, "can be at most 40 characters."),
    ("a" * 41, "can be at most 40 characters."),
    ("Ann\u202eevil", "not invisible or control characters."),
    ("Bo\x00b", "not invisible or control characters."),
    ("E\u200bd", "not invisible or control characters."),
]


NAME_FIELDS = ["team_0", "team_1", "player_0", "player_3"]
# Ten megabytes take a second or more each: the quick loop sends them in one field, the slow run in every one.
SAID = ["10 MB", "41 letters", "bidi", "NUL", "zero width"]
NAMES_IN_FIELDS = [pytest.param(field, name, message, id=f"{said}-{field}",
                                marks=[pytest.mark.slow] if name is TEN_MB and field != NAME_FIELDS[0] else [])
                   for (name, message), said in zip(BAD_NAMES, SAID, strict=True)
                   for field in NAME_FIELDS]


@pytest.mark.parametrize(("field", "name", "message"), NAMES_IN_FIELDS)
def test_a_name_that_cannot_be_kept_is_refused_beside_its_field(client, app, field, name, message):
    before = stored(app)
    response = client.post("/games/new", data={"csrf_token": csrf(client), "preset": "double-deck", field: name})
    assert response.status_code == 422
    assert len(response.data) < 100_000
    page = parse(response)
    error = page.select_one(f"#{field}-error")
    assert error.get_text().endswith(message)
    section = error.find_parent("details")
    assert section is None or section.has_attr("open")  # never hidden in a closed section
    assert page.select_one(f"input[name={field}]")["value"] == name[:80].strip()
    assert stored(app) == before


def test_names_are_kept_cleaned(client, app):
    game_id = new_game(client, team_0="  The   Aces ", player_0="Cafe\u0301 Ann", player_2="Café Ann  x")
    game = kept(app, game_id)
    assert game.teams[0] == "The Aces"
    assert game.players[0] == "Café Ann" and game.players[2] == "Café Ann x"
    refused = client.post("/games/new", data={"csrf_token": csrf(client), "player_0": "Café Ann",
                                              "player_2": "Cafe\u0301 ann"})
    assert "Each player sits in one seat only" in parse(refused).select_one("#players-error").get_text()


@pytest.mark.parametrize(("name", "message"), BAD_NAMES, ids=["10 MB", "41 letters", "bidi", "NUL", "zero width"])
def test_renaming_to_a_name_that_cannot_be_kept_is_refused_and_changes_nothing(client, app, seated, name, message):
    before = stored(app)
    response = client.post("/players/1/rename", data={"csrf_token": csrf(client), "name": name})
    assert response.status_code == 422
    assert len(response.data) < 100_000
    page = parse(response)
    assert page.select_one("#name-error").get_text().startswith("A player's name ")
    assert page.select_one("#name-error").get_text().endswith(message)
    assert page.select_one("input[name=name]")["value"] == name[:80]
    assert stored(app) == before


def test_a_rename_is_kept_cleaned(client, seated):
    assert client.post("/players/1/rename", data={"csrf_token": csrf(client),
                                                   "name": "  Ann   Marie "}).status_code == 303
    assert "Ann Marie" in player_ids(client)


# --- house rules --------------------------------------------------------------------------------------------

HOUSE = [
    ("min_bid", "999999", "Minimum bid: a whole number from 1 to 1,000, or blank for the rule set's own."),
    ("min_bid", "0", "Minimum bid: a whole number from 1 to 1,000"),
    ("target", "1000000", "Game to: a whole number from 1 to 100,000"),
    ("target", FIVE_THOUSAND_DIGITS, "Game to: a whole number from 1 to 100,000"),
    ("target", "5²", "Game to: a whole number from 1 to 100,000"),
    ("hands_limit", "5000", "Or a fixed number of hands: a whole number from 1 to 1,000"),
    ("min_meld", "1001", "Meld needed to be on the board: a whole number from 0 to 1,000"),
    ("save_counters", "51", "Counters needed to save meld (1 = any counter): a whole number from 0 to 50"),
    ("auto_throw_in_margin", "-1", "Automatic throw-in when the bid is above meld plus: a whole number from 0"),
    ("counter_step", "0", "Counters are counted in steps of: a whole number from 1 to 50"),
    ("counter_step", "7", "The counter step must divide the hand's 50 counter points: 1, 2, 5, 10, 25 or 50."),
]


@pytest.mark.parametrize(("field", "typed", "message"), HOUSE)
def test_a_house_rule_out_of_range_says_its_range_beside_the_field(client, app, field, typed, message):
    before = stored(app)
    response = client.post("/games/new", data={"csrf_token": csrf(client), "preset": "double-deck", field: typed})
    assert response.status_code == 422
    page = parse(response)
    error = page.select_one(f"#{field}-error")
    assert message in error.get_text()
    assert error.find_parent("details").has_attr("open")
    assert page.select_one(f"input[name={field}]")["value"] == typed[:80]
    assert stored(app) == before


def test_the_largest_game_score_follows_the_scale_of_the_deck(client, app):
    game_id = new_game(client, preset="double-pack-bicycle", target="1000000")
    assert kept(app, game_id).rules.target == 1_000_000
    refused = client.post("/games/new", data={"csrf_token": csrf(client), "preset": "double-pack-bicycle",
                                              "target": "1000001"})
    assert "from 1 to 1,000,000" in parse(refused).select_one("#target-error").get_text()


def test_a_game_kept_from_before_the_ranges_and_its_long_names_still_open_everywhere(client, app):
    wild = Rules.from_dict(PRESETS["double-deck"].to_dict() | {"target": 10**12, "min_bid": 999_999}, kept=True)
    db = connection.connect(app.config["DATABASE"])
    game_id = games.create_game(db, wild, ("T" * 5000, "Them"), ("P" * 300, None, "Q", None), 0)
    db.close()
    for url in ("/", f"/games/{game_id}", "/history/", f"/history/games/{game_id}", "/players/", "/players/1",
                "/games/new"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert len(response.data) < 200_000, url
    assert "999,999" in parse(client.get(f"/games/{game_id}")).get_text()
    assert re.search(r"T{5000}", client.get("/").get_data(as_text=True))  # shown as kept, escaped, whole


@pytest.mark.parametrize(("seating", "preset", "field"), [("3x1", "three-handed", "player_0"),
                                                          ("2x2", "double-deck", "team_1"),
                                                          ("2x2", "double-deck", "player_2")])
def test_a_name_refused_beside_its_field_is_not_compared_with_the_others(monkeypatch, seating, preset, field):
    """A name refused for its length is not looked at again letter by letter (a name of ten megabytes not in plain
    ASCII took seconds of CPU for each comparison)."""
    from scorepad.web.games import forms

    looked_at = []
    key = forms.name_key
    monkeypatch.setattr(forms, "name_key", lambda name: looked_at.append(len(name)) or key(name))
    game = forms.parse_new_game({"seating": seating, "preset": preset, field: "é" * 200_000})
    assert list(game.errors) == [field]
    assert all(length < 1000 for length in looked_at)
