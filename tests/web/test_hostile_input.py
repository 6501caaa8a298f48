"""What a stranger types, case by case: numbers no phone keypad makes, names no family would choose, house rules
past any sense. Each is refused beside its field with what was typed kept, or read as the number it is; nothing
is ever a 500, and a refusal stores nothing."""

import re

from scorepad import store
from scorepad.rules import PRESETS, Rules
from tests.conftest import parse


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
