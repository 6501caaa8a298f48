"""The director's page offers one primary action, the real next step: start the next round once every table is
done, end the round on the clock once its time is up, close the night after the last round; never a start that
would be refused because tables still play. Its poll moves the primary button when the last table finishes."""

import pytest

from scorepad.store import clubs, connection
from tests.helpers import parse
from tests.web.helpers import CLUB_WIN_0, club_post, form_of

PLAYERS = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]  # three tables
NIGHT = {"name": "Friday club", "kind": "progressive", "preset": "double-deck", "round_end": "hands",
         "round_size": "1", "rounds": "2"}


def with_db(app, work):
    db = connection.connect(app.config["DATABASE"])
    try:
        return work(db)
    finally:
        db.close()


def finish(client, app, *table_nos, confirm=True):
    """The tables play their hand, and (as its players would on their phones) their scores are confirmed."""
    night = with_db(app, lambda db: clubs.load_night(db, 1))
    for t in with_db(app, lambda db: clubs.tables(db, 1, night.round)):
        if t.table_no in table_nos:
            client.post(f"/games/{t.game_id}/hands", data={**form_of(client, t.game_id), **CLUB_WIN_0})
            if confirm:
                club_post(client, f"/club/1/tables/{t.id}/confirm-for-them")


def time_is_up(client, app):
    with_db(app, lambda db: db.execute("UPDATE club_nights SET round_started_at = '2020-01-01T00:00:00+00:00'"))


def steps(page):
    """(the primary buttons' words, the start button's class, the words beside it)."""
    actions = page.select_one("#round-actions")
    primary = [b.get_text(strip=True) for b in actions.select("button.primary")]
    start = actions.select_one("#start-round")
    beside = actions.select_one("#still-playing")
    return primary, start and start.get("class"), beside and beside.get_text(strip=True)


STATES = [
    ("before the first round", {}, (), False, (["Start round 1"], ["primary"], None)),
    ("every table playing", {}, None, False,
     ([], ["waiting"], "Tables 1, 2 and 3 are still playing")),
    ("one table left", {}, (1, 3), False, ([], ["waiting"], "Table 2 is still playing")),
    ("every table done and confirmed", {}, (1, 2, 3), False, (["Start round 2"], ["primary"], None)),
    ("time up with tables playing", {"round_end": "time", "round_size": "50"}, None, True,
     (["End round 1 on the clock"], ["waiting"], "Tables 1, 2 and 3 are still playing")),
    ("on the clock, time not up", {"round_end": "time", "round_size": "50"}, None, False,
     ([], ["waiting"], "Tables 1, 2 and 3 are still playing")),
]


@pytest.mark.parametrize(("night", "finished", "late", "expected"), [s[1:] for s in STATES],
                         ids=[s[0] for s in STATES])
def test_the_one_primary_button_is_the_directors_real_next_step(client, app, night, finished, late, expected):
    club_post(client, "/club/new", **{**NIGHT, **night})
    for name in PLAYERS:
        club_post(client, "/club/1/register", player_0=name)
    if finished != ():
        club_post(client, "/club/1/start")
        finish(client, app, *(finished or ()))
    if late:
        time_is_up(client, app)
    assert steps(parse(client.get("/club/1/director"))) == expected


def test_tables_done_but_not_confirmed_are_waited_for_and_named_not_started_past(client, app):
    club_post(client, "/club/new", **NIGHT)
    for name in PLAYERS:
        club_post(client, "/club/1/register", player_0=name)
    club_post(client, "/club/1/start")
    finish(client, app, 1, 2, 3, confirm=False)
    page = parse(client.get("/club/1/director"))
    assert steps(page) == ([], ["waiting"], None)
    assert page.select_one("#still-to-confirm").get_text(" ", strip=True).startswith(
        "Tables 1, 2 and 3 are over but not confirmed")
    assert page.select_one("#start-round").get_text(strip=True) == "Start round 2 anyway"
    assert len(page.select("#to-confirm form")) == 3  # a Confirm for them a table


@pytest.fixture
def last_round(client, app):
    club_post(client, "/club/new", **NIGHT)
    for name in PLAYERS:
        club_post(client, "/club/1/register", player_0=name)
    club_post(client, "/club/1/start")
    finish(client, app, 1, 2, 3)
    club_post(client, "/club/1/start")


def test_after_the_last_round_closing_the_night_is_the_next_step(client, app, last_round):
    assert steps(parse(client.get("/club/1/director")))[0] == []
    finish(client, app, 1, 2, 3)
    page = parse(client.get("/club/1/director"))
    assert steps(page) == (["Close the night"], None, None)


def test_starting_while_tables_play_is_still_refused_in_words(client, app):
    club_post(client, "/club/new", **NIGHT)
    for name in PLAYERS:
        club_post(client, "/club/1/register", player_0=name)
    club_post(client, "/club/1/start")
    finish(client, app, 1)
    refused = club_post(client, "/club/1/start")
    assert refused.status_code == 409
    assert "Tables 2 and 3 are still playing" in parse(refused).select_one("#form-message").get_text()


def test_the_directors_poll_makes_starting_primary_when_the_last_table_finishes(client, app):
    club_post(client, "/club/new", **NIGHT)
    for name in PLAYERS:
        club_post(client, "/club/1/register", player_0=name)
    club_post(client, "/club/1/start")
    finish(client, app, 1, 2)
    first = client.get("/club/1/director/live", headers={"HX-Request": "true"})
    assert steps(parse(first))[0] == []
    finish(client, app, 3)
    fresh = parse(client.get("/club/1/director/live", headers={"HX-Request": "true",
                                                               "If-None-Match": first.headers["ETag"]}))
    # the round card is swapped whole, its next step in it (not swapped twice, which would take it out)
    assert fresh.select_one("#round")["hx-swap-oob"] == "true" and fresh.select_one("#round #round-actions")
    assert not fresh.select_one("#round-actions").has_attr("hx-swap-oob")
    assert steps(fresh) == (["Start round 2"], ["primary"], None)
    standings = fresh.select_one("#director-standings")
    assert standings["hx-swap-oob"] == "true"
    assert sum(int(row.select("td")[2].get_text()) for row in standings.select("tbody tr")) == 6  # a win a winner


def test_the_directors_poll_makes_ending_on_the_clock_primary_when_time_runs_out(client, app, monkeypatch):
    from scorepad.web.club import director_page as club_views

    club_post(client, "/club/new", **{**NIGHT, "round_end": "time", "round_size": "50"})
    for name in PLAYERS:
        club_post(client, "/club/1/register", player_0=name)
    club_post(client, "/club/1/start")
    first = client.get("/club/1/director/live", headers={"HX-Request": "true"})
    assert client.get("/club/1/director/live", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    monkeypatch.setattr(club_views, "clock_up", lambda night: True)  # fifty minutes on, nothing written since
    fresh = client.get("/club/1/director/live", headers={"HX-Request": "true", "If-None-Match": first.headers["ETag"]})
    assert fresh.status_code == 200
    assert steps(parse(fresh))[0] == ["End round 1 on the clock"]
