"""Names that look alike are one name on every form: a table's seats, a night's registrations, a rename; a
zero-width joiner is refused outside an emoji, as any other invisible character is."""

import re

import pytest

from scorepad.store import connection, players
from tests.helpers import parse
from tests.web.helpers import club_post, csrf, new_game

NIGHT = {"name": "Tuesday", "kind": "progressive", "preset": "double-deck", "round_end": "hands", "round_size": "1",
         "rounds": "2"}


def player_names(app) -> list[str]:
    db = connection.connect(app.config["DATABASE"])
    try:
        return players.player_names(db)
    finally:
        db.close()


@pytest.mark.parametrize("other", ["Ann\u200d", "ＡＮＮ", "Ann\ufe0f"])
def test_one_table_cannot_seat_ann_twice_by_a_look_alike(client, app, other):
    response = client.post("/games/new", data={"csrf_token": csrf(client), "preset": "double-deck",
                                               "player_0": "Ann", "player_2": other})
    assert response.status_code == 422
    assert player_names(app) == []


def test_a_joiner_alone_in_a_name_is_refused_beside_its_field(client):
    response = client.post("/games/new", data={"csrf_token": csrf(client), "preset": "double-deck",
                                               "player_1": "Ann\u200d"})
    assert response.status_code == 422
    assert "not invisible or control characters" in parse(response).get_text()


def test_a_family_emoji_is_a_name_of_its_own(client, app):
    new_game(client, player_0="👨\u200d👩\u200d👧", player_1="👨👩👧")
    assert sorted(player_names(app)) == sorted(["👨\u200d👩\u200d👧", "👨👩👧"])


def test_emile_in_either_case_is_one_player_and_renaming_to_either_spelling_is_the_same_question(client, app):
    new_game(client, player_0="Émile", player_1="Bo")
    new_game(client, player_0="émile", player_1="Bo")
    assert player_names(app) == ["Bo", "Émile"]
    page = client.get("/players/").get_data(as_text=True)
    bo = re.search(r'href="/players/(\d+)"><strong>Bo<', page)[1]
    refused = client.post(f"/players/{bo}/rename", data={"csrf_token": csrf(client), "name": "ÉMILE"})
    assert refused.status_code == 422
    assert "Émile is another player already" in parse(refused).get_text()


def test_a_night_does_not_register_one_player_twice_by_a_look_alike(client, app):
    assert club_post(client, "/club/new", **NIGHT).status_code == 303
    assert club_post(client, "/club/1/register", player_0="Ann").status_code == 303
    again = club_post(client, "/club/1/register", player_0="ＡＮＮ")
    assert again.status_code == 422
    assert "Ann is registered already, as number 1." in parse(again).get_text()
