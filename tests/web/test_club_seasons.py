"""Seasons and specials through the web: a night counts in the season under way, the director sets the season and
starts a new one, a special is one tap on a club table's hand form, and the season's page, wall and prize list
show standings across nights (a substitute with their team), the specials with who and when, and the prizes."""

import pytest

from scorepad.store import clubs, connection
from scorepad.store import players as store_players
from tests.helpers import parse
from tests.web.helpers import CLUB_WIN_0, club_post, csrf, form_of, record

TEAMS = [("Al", "Bo", "Aces"), ("Cy", "Di", "Kings"), ("Ed", "Flo", "Queens"), ("Gus", "Hal", "Jacks")]
PARTNERS = {"name": "Week 1", "kind": "partners", "preset": "double-deck", "round_end": "hands", "round_size": "1",
            "rounds": "1"}


def night(client, name, teams):
    response = club_post(client, "/club/new", **{**PARTNERS, "name": name})
    night_id = int(response.headers["Location"].split("/")[2])
    for a, b, team in teams:
        assert club_post(client, f"/club/{night_id}/register", player_0=a, player_1=b, team=team).status_code == 303
    assert club_post(client, f"/club/{night_id}/start").status_code == 303
    return night_id


def tables(app, night_id):
    db = connection.connect(app.config["DATABASE"])
    try:
        return clubs.tables(db, night_id)
    finally:
        db.close()


def player_id(app, name):
    db = connection.connect(app.config["DATABASE"])
    try:
        return store_players.player_for(db, name)
    finally:
        db.close()


def play_and_close(client, app, night_id):
    for table in tables(app, night_id):
        response = record(client, table.game_id, **{**CLUB_WIN_0, "bid": "60", "counters_0": "40",
                                                    "counters_1": "10", "meld_0": "60"})
        assert response.status_code == 303, "the hand was not recorded"
    assert club_post(client, f"/club/{night_id}/close", round="1", unconfirmed="Closed at the end").status_code == 303


def test_a_season_ranks_teams_across_nights_and_lists_a_substitute_with_the_team(client, app):
    first = night(client, "Week 1", TEAMS)
    play_and_close(client, app, first)
    second = night(client, "Week 2", [("Al", "Ivy", "Aces"), *TEAMS[1:]])  # Ivy sits in for Bo
    play_and_close(client, app, second)
    page = parse(client.get("/club/seasons/1"))
    rows = page.select("#season-teams-table tbody tr")
    aces = next(r for r in rows if "Aces" in r.select_one(".standing-name").get_text())
    assert "substitute: Ivy for Bo (Week 2)" in aces.get_text(" ", strip=True)
    assert [td.get_text() for td in aces.select("td.num")][2] == "2"  # two nights: the substitute's counts for Aces
    players = [r.select_one(".standing-name").get_text(strip=True)
               for r in page.select("#season-players-table tbody tr")]
    assert "Ivy" in players and "Bo" in players
    assert page.select_one("#prize-place-1")


def test_the_director_sets_best_nights_and_a_minimum_and_the_standings_follow(client, app):
    first = night(client, "Week 1", TEAMS)
    play_and_close(client, app, first)
    response = club_post(client, f"/club/{first}/season", season_name="Winter league", best_of="", min_nights="2",
                         specials=["double_pinochle", "high_game"])
    assert response.status_code == 303
    page = parse(client.get("/club/seasons/1"))
    assert page.select_one("h1").get_text() == "Winter league"
    assert all(r.select_one("td").get_text() == "–" for r in page.select("#season-teams-table tbody tr"))
    assert [r.select_one("th").get_text() for r in page.select("#prize-list tbody tr")] == \
        ["Double pinochle", "High game"]  # nobody ranked yet: no places


@pytest.mark.parametrize("field, value", [("best_of", "0"), ("min_nights", "²"), ("season_name", "")])
def test_a_refused_season_setting_is_named_beside_its_field_and_nothing_changes(client, app, field, value):
    first = night(client, "Week 1", TEAMS)
    fields = {"season_name": "Winter", "best_of": "3", "min_nights": "1", field: value}
    response = club_post(client, f"/club/{first}/season", **fields)
    assert response.status_code == 422
    assert parse(response).select_one(f"#{field}-error")
    assert parse(client.get("/club/seasons/1")).select_one("h1").get_text() == "First season"


def test_a_new_season_takes_the_nights_made_from_then_on(client, app):
    first = night(client, "Week 1", TEAMS)
    assert club_post(client, f"/club/{first}/season/new", new_season_name="Spring", min_nights="1",
                     specials=["double_run"]).status_code == 303
    second = night(client, "Week 2", TEAMS)
    assert "Week 1" in parse(client.get("/club/seasons/1")).select_one("#season-nights").get_text()
    spring = parse(client.get("/club/seasons/2"))
    assert "Week 2" in spring.select_one("#season-nights").get_text()
    assert "Week 1" not in spring.select_one("#season-nights").get_text()
    assert "Spring" in parse(client.get(f"/club/{second}")).select_one(".button-row").get_text()


def test_a_special_is_one_tap_on_the_hand_form_and_listed_with_who_and_when(client, app):
    first = night(client, "Week 1", TEAMS)
    game_id = tables(app, first)[0].game_id
    form = parse(client.get(f"/games/{game_id}"))
    button = form.select_one(f"#specials button[value='double_pinochle:{player_id(app, 'Al')}']")
    assert button and button["formaction"] == f"/club/games/{game_id}/specials"
    response = client.post(button["formaction"], data={**form_of(client, game_id), "bid": "260",
                                                        "special": button["value"]})
    assert response.status_code == 303 and "bid=260" in response.headers["Location"]  # the typed hand comes back
    again = parse(client.get(response.headers["Location"]))
    assert again.select_one("#bid")["value"] == "260"
    assert "Hand 1: Al, double pinochle" in again.select_one(".specials-tallied").get_text(" ", strip=True)
    play_and_close(client, app, first)
    listed = parse(client.get(f"/club/{first}")).select_one("#specials-list").get_text(" ", strip=True)
    assert "Al" in listed and "round 1, table 1, hand 1" in listed
    prizes = parse(client.get(f"/club/{first}/prizes"))
    assert prizes.select_one("#prize-double_pinochle").get_text(" ", strip=True).startswith("Double pinochle Al")


def test_a_special_for_someone_not_at_the_table_or_after_the_round_is_refused(client, app):
    first = night(client, "Week 1", TEAMS)
    game_id = tables(app, first)[0].game_id
    seated = tables(app, first)[0].players
    stranger = player_id(app, next(name for a, b, _ in TEAMS for name in (a, b) if name not in seated))
    data = {"csrf_token": csrf(client, f"/games/{game_id}"), "expected": "1"}
    client.post(f"/club/games/{game_id}/specials", data={**data, "special": f"double_aces:{stranger}"})
    client.post(f"/club/games/{game_id}/specials", data={**data, "special": "triple_nines:1"})
    assert parse(client.get(f"/club/{first}")).select_one("#specials-list").get_text(strip=True) == \
        "No specials tallied yet."


def test_the_meld_count_ticks_the_specials_the_cards_show(client, app):
    first = night(client, "Week 1", TEAMS)
    game_id = tables(app, first)[0].game_id
    page = parse(client.get(f"/games/{game_id}?shows=double_pinochle&shows_team=0"))
    ticked = page.select("#specials button.ticked")
    assert len(ticked) == 2 and all(b["value"].startswith("double_pinochle:") for b in ticked)
    back = client.get("/meld/", query_string={"cards": "QS QS JD JD", "trump": "H", "back": f"/games/{game_id}",
                                             "field": "meld_1", "use": "1"})
    assert "shows=double_pinochle" in back.headers["Location"] and "shows_team=1" in back.headers["Location"]


def test_the_season_wall_answers_304_until_a_night_of_it_changes(client, app):
    first = night(client, "Week 1", TEAMS)
    response = client.get("/club/seasons/1/wall/live", headers={"HX-Request": "true"})
    etag = response.headers["ETag"]
    assert client.get("/club/seasons/1/wall/live", headers={"If-None-Match": etag}).status_code == 304
    play_and_close(client, app, first)
    assert client.get("/club/seasons/1/wall/live", headers={"If-None-Match": etag}).status_code == 200
    assert parse(client.get("/club/seasons/1/wall")).select_one(".wall-title").get_text().startswith("First season")


@pytest.mark.parametrize("url", ["/club/seasons/9", "/club/seasons/9/wall", "/club/seasons/9/prizes",
                                 "/club/seasons/99999999999999999999", "/club/9/prizes"])
def test_a_season_that_is_not_there_is_a_404(client, url):
    assert client.get(url).status_code == 404


def test_the_season_page_ladders_its_players_by_rating(client, app):
    play_and_close(client, app, night(client, "Week 1", TEAMS))
    page = parse(client.get("/club/seasons/1"))
    names = {th.a.get_text(strip=True) for th in page.select("#season-ladder tbody th")}
    assert names == {name for a, b, _ in TEAMS for name in (a, b)}
    assert "not sure yet after 1 game" in page.select_one("#season-ladder").get_text(" ", strip=True)


def test_a_season_with_no_finished_game_says_so_where_its_ladder_goes(client, app):
    night(client, "Week 1", TEAMS)
    page = parse(client.get("/club/seasons/1"))
    assert "No rated games yet" in page.select_one("#season-ratings").get_text(" ", strip=True)
