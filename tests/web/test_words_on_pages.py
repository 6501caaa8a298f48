"""Pages write numbers as the explanations and the rules do: "Game to 1,500" above "1,500 to go"."""

import pytest

from scorepad.core.words import MELD_TABLE_TITLES
from tests.helpers import parse
from tests.web.helpers import new_game, record


def test_the_target_and_what_is_left_to_go_read_the_same(client):
    game_id = new_game(client, preset="single-deck")
    page = parse(client.get(f"/games/{game_id}"))
    assert "Game to 1,500" in page.select_one(".scoreboard .target").get_text()
    assert [s.get_text() for s in page.select(".scoreboard .to-go")] == ["1,500 to go", "1,500 to go"]


def test_a_big_hand_reads_the_same_on_the_sheet_and_in_its_explanation(client):
    game_id = new_game(client, preset="double-pack-bicycle")
    response = record(client, game_id, bidder="t0", bid=1200, meld_0=1500, meld_1=200, counters_0=300,
                      counters_1=200)
    assert response.status_code == 303, response.get_data(as_text=True)
    row = parse(client.get(f"/games/{game_id}")).select_one(".hands details")
    assert row.select(".delta")[0].get_text() == "+1,800"
    assert row.select(".run")[0].get_text() == "1,800"
    assert "1,200" in row.summary.get_text()
    explanation = [li.get_text() for li in row.select(".explanation li")]
    assert "Bidders made 1,800 (meld 1,500 + counters 300) against a bid of 1,200: +1,800." in explanation


def test_the_meld_calculator_writes_its_points_as_the_sheet_does(client):
    page = parse(client.get("/meld/", query_string={"table": "000", "trump": "S",
                                                    "cards": "AS AS AH AH AD AD AC AC"}))
    assert page.select_one("#meld-total").get_text() == "1,000"
    assert [s.get_text() for s in page.select(".breakdown li span")] == ["Double aces around", "1,000"]


@pytest.mark.parametrize(("team", "words"), [
    ("The Joneses", "Use 30 as meld for The Joneses"),
    ("Us", "Use 30 as meld for Us"),  # not "Us's meld"
    ("Ann", "Use 30 as meld for Ann"),
    ("", "Use 30 as meld for the team"),
])
def test_the_meld_goes_back_as_meld_for_the_team_which_reads_right_for_any_name(client, team, words):
    page = parse(client.get("/meld/", query_string={"back": "/games/1", "field": "meld_0", "team_name": team,
                                                    "cards": "QS JD QS JD"}))
    assert page.select_one("button[name=use]").get_text(" ", strip=True) == words


def test_meld_tables_have_the_same_names_in_the_calculator_and_in_the_house_rules(client):
    calculator = parse(client.get("/meld/")).select("select[name=table] option")
    assert {o["value"]: o.get_text() for o in calculator} == MELD_TABLE_TITLES
    house_rules = parse(client.get("/games/new")).select("select[name=meld_table] option[value!='']")
    assert {o["value"]: o.get_text() for o in house_rules} == MELD_TABLE_TITLES
