"""The poll of a phone that sent a hand: once the hand is stored, the answer says it is saved (whether the save's
own answer is late, lost or already in), and never announces it as another phone's news."""

import pytest

from tests.helpers import parse
from tests.web.helpers import form_of, new_game

STALE = {"If-None-Match": '"stale"', "HX-Request": "true"}


def poll(client, game_id, token):
    return parse(client.get(f"/games/{game_id}/live", headers={**STALE, "X-Hand-Token": token}))


def test_a_poll_carrying_the_token_of_the_hand_it_finds_stored_says_that_hand_is_saved(client, app):
    game_id = new_game(client)
    form = form_of(client, game_id)
    other = app.test_client()  # the save's answer went to nobody: the session never heard of it
    stamp = form_of(other, game_id)["csrf_token"]
    hand = {"kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50"}
    sent = other.post(f"/games/{game_id}/hands", data={**form, "csrf_token": stamp, **hand})
    assert sent.status_code == 303
    notice = poll(client, game_id, form["token"]).select_one("#live-notice")
    assert notice.has_attr("data-saved") and not notice.has_attr("hidden")
    assert notice.get_text(strip=True) == "Hand 1 is saved: it is on the sheet."


@pytest.mark.parametrize("token", ["", "never-used", "x" * 500])
def test_a_poll_with_a_token_nobody_stored_is_plain_news(client, app, token):
    game_id = new_game(client)
    other = app.test_client()
    other.post(f"/games/{game_id}/hands", data={**form_of(other, game_id), "kind": "played", "bidder": "t0",
                                                "bid": "50", "counters_0": "50"})
    notice = poll(client, game_id, token).select_one("#live-notice")
    assert not notice.has_attr("data-saved")
    assert " ".join(notice.get_text(" ").split()).startswith("Updated from another phone: next is hand 2.")


def test_a_token_stored_in_another_game_says_nothing_of_this_one(client):
    first, second = new_game(client), new_game(client)
    form = form_of(client, first)
    client.post(f"/games/{first}/hands", data={**form, "kind": "played", "bidder": "t0", "bid": "50",
                                               "counters_0": "50"})
    notice = poll(client, second, form["token"]).select_one("#live-notice")
    assert not notice.has_attr("data-saved")
