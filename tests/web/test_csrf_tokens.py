"""A session's CSRF token is signed once and given again on every page (tokens never expire here): each page costs
an HMAC less, and every form of every page a phone opened still sends a token Scorepad takes."""

import re

from flask_wtf.csrf import generate_csrf

from scorepad import create_app
from scorepad.web.shell import csrf_tokens
from tests.web.helpers import new_game


def token_of(client, path="/about") -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).get_data(as_text=True))[1]


def test_a_session_is_given_one_token_on_every_page_and_each_form_sent_with_it_is_taken(app, client, monkeypatch):
    signed = []
    monkeypatch.setattr(csrf_tokens, "generate_csrf", lambda: signed.append(1) or generate_csrf())
    first = token_of(client)
    assert token_of(client) == token_of(client, "/history/") == first
    assert len(signed) == 1  # signed for the first page only
    token_of(client, "/games/new")  # a page whose form signs a token of its own
    assert token_of(client) == first
    game_id = new_game(client)  # sent with that token
    answer = client.post(f"/games/{game_id}/hands", data={"csrf_token": first, "token": "t1", "expected": "1",
                                                         "bidder": "t0", "bid": "50", "meld_0": "20", "meld_1": "0",
                                                         "counters_0": "30", "counters_1": "20"})
    assert answer.status_code == 303


def test_another_session_has_a_token_of_its_own_which_this_one_does_not_take(app, client):
    other = app.test_client()
    mine, theirs = token_of(client), token_of(other)
    assert mine != theirs
    game_id = new_game(client)
    answer = client.post(f"/games/{game_id}/hands", data={"csrf_token": theirs, "token": "t1", "expected": "1",
                                                         "bidder": "t0", "bid": "50", "meld_0": "20", "meld_1": "0",
                                                         "counters_0": "30", "counters_1": "20"})
    assert answer.status_code == 400


def test_tokens_that_expire_are_signed_afresh_each_time(tmp_path):
    app = create_app({"SECRET_KEY": "t", "TESTING": True, "DATABASE": str(tmp_path / "s.db"),
                      "WTF_CSRF_TIME_LIMIT": 3600})
    client = app.test_client()
    before = csrf_tokens.census()["tokens"]
    token_of(client)
    token_of(client)
    assert csrf_tokens.census()["tokens"] == before
