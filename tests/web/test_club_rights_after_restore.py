"""A browser's rights on a club night belong to that night, not to its number: a restore can give a new night
the id an old night had, and a browser that directed the old one (or chose a player on it) gets nothing of the
new one without its director's key."""

from pathlib import Path

import pytest

from scorepad.store import backups, clubs, connection
from scorepad.store import players as store_players
from tests.helpers import parse
from tests.web.helpers import club_post

NIGHT = {"kind": "progressive", "preset": "double-deck", "round_end": "hands", "round_size": "1", "rounds": "2"}


def player_id(app, name) -> str:
    db = connection.connect(app.config["DATABASE"])
    try:
        return str(store_players.player_for(db, name))
    finally:
        db.close()


def entrant_names(app) -> list[str]:
    db = connection.connect(app.config["DATABASE"])
    try:
        return [e.name for e in clubs.entrants(db, 1)]
    finally:
        db.close()


def hold_a_night(client, name, players):
    assert club_post(client, "/club/new", name=name, **NIGHT).headers["Location"] == "/club/1/director"
    for player in players:
        assert club_post(client, "/club/1/register", player_0=player).status_code == 303
    assert club_post(client, "/club/1/start").status_code == 303


@pytest.fixture
def reused(app, tmp_path):
    """An old night 1 directed by `old` (whose phone also chose Al on it), then a restore of a backup from before
    it, and a new night 1 made by `director`: (old, director)."""
    live = Path(app.config["DATABASE"])
    saved = backups.backup(str(live), str(tmp_path / "before-the-night.db"))
    old = app.test_client()
    hold_a_night(old, "Old night", ["Al", "Bo", "Cy", "Di"])
    assert club_post(old, "/club/1/me", player=player_id(app, "Al")).status_code == 303
    assert "Table 1" in parse(old.get("/club/1/me")).select_one(".seat-line").get_text()

    backups.restore(str(saved), str(live))
    director = app.test_client()
    # registered in another order, so Al's new player id is someone else's old one
    hold_a_night(director, "New night", ["Di", "Cy", "Bo", "Al"])
    return old, director


def test_a_browser_that_directed_an_old_night_does_not_direct_a_new_one_under_its_id(app, reused):
    old, director = reused
    assert director.get("/club/1/director").status_code == 200
    assert old.get("/club/1/director").status_code == 403
    assert old.get("/club/1/director/live").status_code == 403
    assert club_post(old, "/club/1/register", player_0="Mallory").status_code == 403
    assert "Mallory" not in entrant_names(app)
    assert "Director's page" not in parse(old.get("/club/1")).get_text()
    assert "Director's page" in parse(director.get("/club/1")).get_text()


def test_a_phone_that_chose_a_player_on_an_old_night_has_chosen_nobody_on_a_new_one(app, reused):
    old, _ = reused
    assert old.get("/club/1/me").headers["Location"] == "/club/1/tables/1"  # asked who it is, as a new phone
    assert club_post(old, "/club/1/tables/1/confirm").status_code != 303


def test_the_new_nights_key_still_makes_any_browser_its_director(app, reused):
    old, director = reused
    address = parse(director.get("/club/1/director")).select_one("#director-address").get_text()
    key = address.split("key=", 1)[1]
    assert old.get(f"/club/1/director?key={key}").status_code == 200
    assert old.get("/club/1/director").status_code == 200


def test_a_session_from_before_marks_is_asked_for_the_key_not_given_a_500(app, client):
    assert club_post(client, "/club/new", name="Tuesday", **NIGHT).status_code == 303
    with client.session_transaction() as session:
        session["club_director"] = [1]  # as sessions were kept before
        session["club_me"] = {"1": 3}
    assert client.get("/club/1/director").status_code == 403
    assert client.get("/club/1/me").status_code == 303
