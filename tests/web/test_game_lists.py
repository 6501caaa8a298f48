"""The lists of games say what a player looks for (who played, when, under which rules, how it stands), a game
nobody will finish can be ended as abandoned (won by nobody, counted in no record), and the downloads say what
they are for."""

import pytest

from tests.helpers import parse
from tests.web.helpers import csrf, every_table, form_of, new_game, record

PLAYERS = {"player_0": "Ann", "player_1": "Bo", "player_2": "Cy", "player_3": "Di"}


def items(page) -> list[str]:
    return [" ".join(item.get_text(" ").split()) for item in page.select(".game-list li")]


@pytest.fixture
def named_game(client) -> int:
    game_id = new_game(client, **PLAYERS)
    record(client, game_id, bidder="s0", bid=50, counters_0=50)
    return game_id


@pytest.mark.parametrize("url", ["/", "/history/"])
def test_a_listed_game_names_its_players_its_rules_and_that_it_is_in_progress(client, named_game, url):
    (item,) = items(parse(client.get(url)))
    assert item.startswith("Us 50 : 0 Them Ann & Cy and Bo & Di ")
    assert "Double deck (family rules) · 1 hand · in progress" in item
    assert parse(client.get(url)).select_one(".game-list time")["datetime"]


def test_a_list_names_no_players_when_the_teams_are_their_names(client):
    new_game(client, team_0="Ann & Cy", team_1="Bo & Di", **PLAYERS)
    assert parse(client.get("/")).select(".game-players") == []


def end(client, game_id):
    return client.post(f"/games/{game_id}/end", data={"csrf_token": csrf(client)})


def test_ending_a_game_asks_first_then_keeps_it_in_history_as_abandoned(client, named_game):
    confirm = parse(client.get(f"/games/{named_game}"))
    link = confirm.find("a", string="End this game unfinished")["href"]
    asked = parse(client.get(link))
    assert asked.select_one("h1").get_text() == "End this game unfinished?"
    assert end(client, named_game).headers["Location"] == "/"
    home = parse(client.get("/"))
    assert "No game in progress" in home.get_text()
    assert "was ended unfinished" in home.select_one(".flash").get_text()
    (item,) = items(parse(client.get("/history/")))
    assert item.endswith("· abandoned unfinished")
    game = parse(client.get(f"/games/{named_game}"))
    assert game.select_one("#hand-form") is None
    assert game.select_one(".abandoned-card h2").get_text() == "Ended unfinished"


def test_an_abandoned_game_counts_in_no_record_and_takes_no_hand(client, app, named_game):
    form = form_of(client, named_game)  # opened before the game was ended on another phone
    end(client, named_game)
    players = parse(client.get("/players/"))
    assert "1 won" not in players.get_text() and "1 game" not in players.get_text()
    tables = every_table(app.config["DATABASE"])
    refused = client.post(f"/games/{named_game}/hands", data={**form, "kind": "played", "bidder": "s0",
                                                              "bid": "50", "counters_0": "50", "counters_1": "0"})
    assert refused.status_code == 409
    assert "ended unfinished" in parse(refused).select_one("#form-message").get_text()
    assert every_table(app.config["DATABASE"]) == tables


def test_a_won_game_is_not_ended_as_abandoned(client, app):
    game_id = new_game(client, target="100")
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    tables = every_table(app.config["DATABASE"])
    refused = end(client, game_id)
    assert refused.status_code == 409
    assert "has a winner" in parse(refused).select_one("#form-message").get_text()
    assert every_table(app.config["DATABASE"]) == tables
    # ... and its page, whether refused or opened from a phone that had not heard, offers nothing to end
    for page in (parse(refused), parse(client.get(f"/games/{game_id}/end"))):
        assert page.select_one("h1").get_text() == "We won the game"
        assert page.select_one("form[action$='/end']") is None
        assert page.find("a", string="Back to the game")["href"] == f"/games/{game_id}"


def test_a_phone_that_follows_a_game_to_its_winner_is_no_longer_offered_to_end_it(client, app):
    game_id = new_game(client, target="100")
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one("#game-links").find("a", string="End this game unfinished") is not None
    record(app.test_client(), game_id, bidder="t0", bid=50, counters_0=50)  # the winning hand, on another phone
    answer = parse(client.get(f"/games/{game_id}/live", headers={"If-None-Match": '"stale"', "HX-Request": "1"}))
    links = answer.select_one("#game-links")
    assert links["hx-swap-oob"] == "true"
    assert links.find("a", string="End this game unfinished") is None
    assert links.find("a", string=lambda text: text and text.startswith("Chart, printable sheet")) is not None


def test_the_downloads_say_what_they_are_for(client, named_game):
    page = parse(client.get(f"/history/games/{named_game}"))
    links = [a.get_text(strip=True) for a in page.select("a[href*=export]")]
    assert links == ["Download for a spreadsheet (CSV)", "Download a full copy (for Scorepad)"]


def test_a_phone_watching_a_game_ended_elsewhere_is_told_and_shown_no_form(client, app, named_game):
    other = app.test_client()
    end(other, named_game)
    answer = parse(client.get(f"/games/{named_game}/live", headers={"If-None-Match": '"stale"', "HX-Request": "1"}))
    assert " ".join(answer.select_one("#live-notice").get_text(" ").split()) == \
        "Updated from another phone: the game was ended unfinished."
    fresh = answer.select_one("template#fresh-record")
    assert fresh.select_one(".abandoned-card") is not None and fresh.select_one("#hand-form") is None
