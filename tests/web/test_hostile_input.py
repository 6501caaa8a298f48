"""What a stranger types, case by case: numbers no phone keypad makes, names no family would choose, house rules
past any sense. Each is refused beside its field with what was typed kept, or read as the number it is; nothing
is ever a 500, and a refusal stores nothing."""

import re

import pytest

from scorepad import store
from scorepad.rules import PRESETS, Rules
from tests.conftest import parse
from tests.web.test_games import csrf, new_game

FIVE_THOUSAND_DIGITS = "9" * 5000


def every_table(path: str) -> dict:
    """Every row of every table: a refusal must leave all of it as it was."""
    db = store.connect(path)
    try:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                          "AND name NOT LIKE 'sqlite_%'")]
        return {name: sorted(map(repr, db.execute(f"SELECT * FROM [{name}]").fetchall())) for name in names}
    finally:
        db.close()


def stored(app) -> dict:
    return every_table(app.config["DATABASE"])


def kept(app, game_id: int) -> store.GameRecord:
    db = store.connect(app.config["DATABASE"])
    try:
        return store.load_game(db, game_id)
    finally:
        db.close()


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
    db = store.connect(app.config["DATABASE"])
    game_id = store.create_game(db, wild, ("T" * 5000, "Them"), ("P" * 300, None, "Q", None), 0)
    db.close()
    for url in ("/", f"/games/{game_id}", "/history/", f"/history/games/{game_id}", "/players/", "/players/1",
                "/games/new"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert len(response.data) < 200_000, url
    assert "999,999" in parse(client.get(f"/games/{game_id}")).get_text()
    assert re.search(r"T{5000}", client.get("/").get_data(as_text=True))  # shown as kept, escaped, whole
