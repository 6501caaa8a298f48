"""Merging two names of one person from the players page when a club night knows them."""

from scorepad.store import connection, players
from tests.helpers import parse
from tests.web.helpers import club_post, csrf, every_table

NIGHT = {"name": "Friday club", "kind": "progressive", "preset": "double-deck", "round_end": "hands",
         "round_size": "1", "rounds": "2"}


def ids(app, *names):
    db = connection.connect(app.config["DATABASE"])
    try:
        return [players.player_for(db, name) for name in names]
    finally:
        db.close()


def test_two_names_in_one_night_are_refused_beside_the_field_naming_the_night(client, app):
    club_post(client, "/club/new", **NIGHT)
    for name in ("Ann", "Annie", "Bo", "Cy"):
        club_post(client, "/club/1/register", player_0=name)
    ann, annie = ids(app, "Ann", "Annie")
    before = every_table(app.config["DATABASE"])
    refused = client.post(f"/players/{annie}/merge", data={"csrf_token": csrf(client), "into": str(ann)})
    assert refused.status_code == 409
    assert parse(refused).select_one("#into-error").get_text(strip=True).startswith(
        "Annie and Ann cannot be merged: both are registered in the club night Friday club (")
    assert every_table(app.config["DATABASE"]) == before


def test_a_merged_name_shows_in_the_night_it_was_registered_in(client, app):
    club_post(client, "/club/new", **NIGHT)
    for name in ("Annie", "Bo", "Cy", "Di"):
        club_post(client, "/club/1/register", player_0=name)
    ann, annie = ids(app, "Ann", "Annie")
    merged = client.post(f"/players/{annie}/merge", data={"csrf_token": csrf(client), "into": str(ann)})
    assert merged.status_code == 303
    names = [li.get_text(strip=True) for li in parse(client.get("/club/1/director")).select(".entrants li")]
    assert names == ["Ann", "Bo", "Cy", "Di"]
