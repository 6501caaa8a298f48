"""The table passcode: watching is free, changing asks once per device, wrong guesses are slowed and logged."""

import logging

import pytest

from tests.helpers import parse
from tests.web.helpers import csrf, form_of, hands_stored, new_game

pytestmark = pytest.mark.app_config(PASSCODE="clubs")


def a_game(app) -> int:
    """A game started from a device that knows the passcode."""
    owner = app.test_client()
    data = {"csrf_token": csrf(owner), "preset": "double-deck", "passcode": "clubs"}
    response = owner.post("/games/new", data=data)
    assert response.status_code == 303
    return int(response.headers["Location"].rsplit("/", 1)[1])


HAND = {"kind": "played", "bidder": "t0", "bid": "55", "meld_0": "30", "counters_0": "28"}


def test_anyone_can_watch_without_the_passcode(app, client):
    game_id = a_game(app)
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one(".locked a").get_text().startswith("🔒 Watching")
    assert client.get("/history/").status_code == 200
    assert client.get(f"/games/{game_id}/preview?bid=50", headers={"HX-Request": "true"}).status_code == 200


def test_a_change_from_a_locked_device_asks_for_the_passcode_and_keeps_what_was_sent(app, client):
    game_id = a_game(app)
    response = client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **HAND})
    assert response.status_code == 401
    page = parse(response)
    carried = {i["name"]: i["value"] for i in page.select("form input[type=hidden]")}
    assert {k: carried[k] for k in HAND} == HAND
    assert page.select_one("form")["action"] == f"/games/{game_id}/hands"
    assert hands_stored(app, game_id) == 0
    # typing the passcode sends the hand on, as it was
    sent = client.post(f"/games/{game_id}/hands", data={**carried, "csrf_token": csrf(client), "passcode": "clubs"})
    assert sent.status_code == 303
    assert hands_stored(app, game_id) == 1
    # and this device is remembered: the next change needs no passcode (the same numbers again, said to be meant)
    again = {**form_of(client, game_id), **HAND, "repeat": "1"}
    assert client.post(f"/games/{game_id}/hands", data=again).status_code == 303
    assert hands_stored(app, game_id) == 2


def test_a_wrong_passcode_says_so_and_stores_nothing(app, client):
    game_id = a_game(app)
    data = {**form_of(client, game_id), **HAND, "passcode": "spades"}
    response = client.post(f"/games/{game_id}/hands", data=data)
    assert response.status_code == 403
    assert parse(response).select_one("#passcode-error").get_text() == "That is not the table's passcode."
    assert hands_stored(app, game_id) == 0


def test_wrong_guesses_are_slowed_down_and_logged(app, client, caplog):
    caplog.set_level(logging.WARNING)
    for _ in range(3):
        assert client.post("/unlock", data={"csrf_token": csrf(client), "passcode": "nope"}).status_code == 403
    assert client.post("/unlock", data={"csrf_token": csrf(client), "passcode": "nope"}).status_code == 403
    blocked = client.post("/unlock", data={"csrf_token": csrf(client), "passcode": "clubs"})
    assert blocked.status_code == 429  # even the right one waits its turn
    assert "Wait" in parse(blocked).select_one("#passcode-error").get_text()
    assert sum("Wrong table passcode" in r.message for r in caplog.records) == 4


def test_the_unlock_page_unlocks_the_device(app, client):
    game_id = a_game(app)
    response = client.post("/unlock", data={"csrf_token": csrf(client), "passcode": "clubs",
                                            "next": f"/games/{game_id}"})
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game_id}"
    assert parse(client.get(f"/games/{game_id}")).select_one(".locked") is None


def test_changing_the_passcode_locks_every_device_again(app, client):
    game_id = a_game(app)
    client.post("/unlock", data={"csrf_token": csrf(client), "passcode": "clubs"})
    app.config["PASSCODE"] = "hearts"
    response = client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **HAND})
    assert response.status_code == 401


def test_the_passcode_can_come_from_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("SCOREPAD_PASSCODE", "diamonds")
    app = make_app()
    assert app.config["PASSCODE"] == "diamonds"
    client = app.test_client()
    assert client.post("/games/new", data={"csrf_token": csrf(client)}).status_code == 401


def test_without_a_passcode_nothing_is_asked(make_app):
    app = make_app()
    client = app.test_client()
    game_id = new_game(client)
    assert parse(client.get(f"/games/{game_id}")).select_one(".locked") is None
