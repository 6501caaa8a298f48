"""The quick answer to a poll of a game that has not changed (`web.games.unchanged_polls`): the same 304 the view
gives, with our headers and without a session, and everything else left to the view as before."""

from __future__ import annotations

import sqlite3

import pytest

from scorepad.services import lookups
from scorepad.web.shell import proxies, security_headers
from tests.web.helpers import new_game, record

HAND = {"kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50"}


@pytest.fixture
def views_reached(app):
    """How many polls reached the view itself."""
    reached = []
    view = app.view_functions["games.live"]

    def counted(**kwargs):
        reached.append(kwargs["game_id"])
        return view(**kwargs)

    app.view_functions["games.live"] = counted
    yield reached
    app.view_functions["games.live"] = view


def etag_of(client, game_id: int) -> str:
    return client.get(f"/games/{game_id}/live", headers={"HX-Request": "true"}).headers["ETag"]


def test_an_unchanged_game_is_answered_304_with_our_headers_without_the_view_or_a_cookie(app, client, views_reached):
    game_id = new_game(client)
    etag = etag_of(client, game_id)
    stranger = app.test_client()  # a phone that never opened a page here: nothing to sign, nothing to set
    for method in ("GET", "HEAD"):
        answer = stranger.open(f"/games/{game_id}/live", method=method,
                               headers={"If-None-Match": etag, "HX-Request": "true"})
        assert answer.status_code == 304 and answer.data == b""
        assert answer.headers["ETag"] == etag
        assert "Set-Cookie" not in answer.headers
        assert answer.headers["Cache-Control"] == "no-cache" and answer.headers["Vary"] == "HX-Request"
        for name, value in security_headers.SECURITY_HEADERS:
            assert answer.headers[name] == value
    assert views_reached == [game_id]  # only the poll that fetched the ETag


def test_a_game_changed_since_is_the_views_to_answer(client, views_reached):
    game_id = new_game(client)
    etag = etag_of(client, game_id)
    record(client, game_id, **HAND)
    answer = client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag, "HX-Request": "true"})
    assert answer.status_code == 200 and answer.headers["ETag"] != etag
    assert b"hand 2" in answer.data.lower()
    assert views_reached == [game_id, game_id]


@pytest.mark.parametrize("path", ["/games/999999/live", "/games/0/live", "/games/007/live", "/games/1/live/"])
def test_a_game_that_is_not_there_or_an_odd_address_goes_to_the_view(client, path):
    answer = client.get(path, headers={"If-None-Match": '"g1-v1-x"', "HX-Request": "true"})
    assert answer.status_code in (404, 308)


def test_a_stranger_host_is_refused_by_the_guard_as_before(client, views_reached):
    game_id = new_game(client)
    etag = etag_of(client, game_id)
    answer = client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag, "Host": "evil.example"})
    assert answer.status_code == 400
    assert views_reached == [game_id]


def test_a_change_or_a_database_that_cannot_be_opened_is_never_answered_here(app, client, views_reached):
    game_id = new_game(client)
    etag = etag_of(client, game_id)
    sent = client.post(f"/games/{game_id}/live", headers={"If-None-Match": etag})
    assert sent.status_code == 405
    app.extensions["scorepad_unusable"] = "The database cannot be opened."
    try:
        client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag})
    finally:
        del app.extensions["scorepad_unusable"]
    assert views_reached == [game_id, game_id]


def test_a_database_error_here_leaves_the_answer_to_the_view(client, views_reached, monkeypatch):
    game_id = new_game(client)
    etag = etag_of(client, game_id)
    real, failed = lookups.game_etag, []

    def fails_once(db, asked):
        if not failed:
            failed.append(asked)
            raise sqlite3.OperationalError("database is locked")
        return real(db, asked)

    monkeypatch.setattr(lookups, "game_etag", fails_once)
    answer = client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag})
    assert answer.status_code == 304 and failed == [game_id]
    assert answer.headers["Cache-Control"] == "no-cache" and answer.headers["Vary"] == "HX-Request"  # the view's
    assert views_reached == [game_id, game_id]


def test_through_home_assistants_ingress_the_answer_may_be_framed_by_its_page():
    assert security_headers.for_request({proxies.INGRESS: True}) == security_headers.INGRESS_HEADERS
    assert security_headers.for_request({}) == security_headers.SECURITY_HEADERS
