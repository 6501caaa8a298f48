"""The views parse, call one use case and answer: a hand's POST folds its game once and validates the hand
once, the page it lands on, the poll and a hand's story fold nothing again (the page of a game version is built
once), the live preview folds nothing, and a refusal is answered with the status its error hints."""

from dataclasses import replace

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.store import connection, games
from scorepad.web.games.forms import parse_hand
from scorepad.web.games.views import BLANK_HAND
from scorepad.web.shell.database import get_db
from tests.helpers import parse
from tests.services.helpers import counting_core_calls
from tests.web.helpers import csrf, form_of, new_game, record

HAND = {"kind": "played", "bidder": "t0", "bid": "50", "meld_0": "20", "meld_1": "0", "counters_0": "30",
        "counters_1": "20"}


@pytest.fixture
def sheet(client):
    """A game with four hands: (game id, the second hand's id)."""
    game_id = new_game(client)
    for _ in range(4):
        assert record(client, game_id, **HAND).status_code == 303
    hand_id = parse(client.get(f"/games/{game_id}")).select(".hands details")[-2]["id"].split("-")[1]
    return game_id, hand_id


REQUESTS = [  # (what, method, address, the form or query: read before counting, status, folds, validations)
    ("recording a hand", "POST", "/games/{g}/hands", lambda c, g: {**form_of(c, g), **HAND, "bid": "60"}, 303, 1, 1),
    ("editing a hand", "POST", "/games/{g}/hands/{h}/edit",
     lambda c, g: {"csrf_token": csrf(c), **HAND, "bid": "55", "edits_seen": "0"}, 303, 1, 1),
    ("deleting a hand", "POST", "/games/{g}/hands/{h}/delete", lambda c, g: {"csrf_token": csrf(c)}, 303, 1, 0),
    ("the live preview", "GET", "/games/{g}/preview", lambda c, g: HAND, 200, 0, 1),
]


@pytest.mark.parametrize(("method", "address", "form", "status", "folds", "validations"), [r[1:] for r in REQUESTS],
                         ids=[r[0] for r in REQUESTS])
def test_a_request_folds_the_game_at_most_once_and_validates_the_hand_once(client, monkeypatch, sheet, method,
                                                                          address, form, status, folds,
                                                                          validations):
    game_id, hand_id = sheet
    sent = form(client, game_id)  # the page a form comes from is a request of its own
    calls = counting_core_calls(monkeypatch)
    url = address.format(g=game_id, h=hand_id)
    if method == "POST":
        response = client.post(url, data=sent)
    else:
        response = client.get(url, query_string=sent, headers={"HX-Request": "true"})
    assert response.status_code == status
    assert calls == {"play_game": folds, "validate_hand": validations}


def test_the_page_a_recorded_hand_lands_on_folds_nothing_again(client, monkeypatch, sheet):
    """The service hands the page its own fold: the 303's GET, the poll and a hand's story fold nothing while
    the game's version is the one the save made."""
    game_id, hand_id = sheet
    sent = {**form_of(client, game_id), **HAND, "bid": "60"}
    calls = counting_core_calls(monkeypatch)
    answer = client.post(f"/games/{game_id}/hands", data=sent)
    assert answer.status_code == 303 and calls == {"play_game": 1, "validate_hand": 1}
    for address, headers in [(answer.headers["Location"], {}), (f"/games/{game_id}/live", {"HX-Request": "true"}),
                             (f"/games/{game_id}/hands/{hand_id}/detail", {"HX-Request": "true"}),
                             (f"/history/games/{game_id}", {}), (f"/history/games/{game_id}/hands/{hand_id}", {})]:
        assert client.get(address, headers=headers).status_code == 200, address
    assert calls == {"play_game": 1, "validate_hand": 1}


def test_a_game_changed_elsewhere_is_folded_once_for_every_page_of_its_new_version(client, monkeypatch, sheet):
    game_id, hand_id = sheet
    with client.application.app_context():
        get_db().execute("UPDATE games SET version = version + 1 WHERE id = ?", [game_id])  # as a restore might
        get_db().conn.commit()
    calls = counting_core_calls(monkeypatch)
    for address in [f"/games/{game_id}", f"/games/{game_id}/live", f"/history/games/{game_id}",
                    f"/games/{game_id}/hands/{hand_id}/detail"]:
        assert client.get(address, headers={"HX-Request": "true"}).status_code == 200, address
    assert calls["play_game"] == 1


REFUSALS = [
    ("a hand the core refuses", services.Refused, {"bid": "63"}),
    ("a form without its hand number", services.FormIncomplete, {"expected": ""}),
    ("a form opened before another phone recorded", services.HandTaken, {"expected": "1"}),
]


@pytest.mark.parametrize(("error", "changes"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_a_refused_hand_is_answered_with_the_status_its_error_hints(client, monkeypatch, sheet, error, changes):
    game_id, _ = sheet
    form = form_of(client, game_id)
    monkeypatch.setattr(error, "status_hint", 418)  # whatever the service layer says, the view answers
    response = client.post(f"/games/{game_id}/hands", data={**form, **HAND, **changes})
    assert response.status_code == 418


@pytest.mark.parametrize("preset", PRESETS)
def test_a_fresh_form_is_not_read_nor_scored_and_previews_as_it_did(new_database, preset):
    """The page's blank form skips reading and scoring: what it shows is what reading it showed."""
    rules = PRESETS[preset]
    db = connection.connect(str(new_database()))
    try:
        game_id = services.start_game(db, rules, tuple(f"T{side}" for side in range(rules.sides)),
                                      (None,) * rules.players, 0)
        game = games.load_game(db, game_id)
    finally:
        db.close()
    form = parse_hand(BLANK_HAND, game.rules, game.has_players)
    read = services.preview_hand(game, form.hand, unreadable=form.unreadable, typed_counters=form.typed_counters,
                                 typed={name for name, value in BLANK_HAND.items() if value.strip()})
    # what a save would refuse is not said of a form with nothing in it: a refused form emptied starts afresh
    assert services.preview_hand(game, None) == replace(read, refused={})
