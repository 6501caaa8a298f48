"""The hand form says whether a team's meld is only the dix (single deck), and the meld calculator, which knows
the cards, ticks it by itself."""

from urllib.parse import parse_qs, urlsplit

from tests.helpers import parse
from tests.web.helpers import every_table, new_game, record, totals


def test_a_single_deck_form_has_a_dix_box_beside_each_meld_and_a_double_deck_form_none(client):
    single = new_game(client, preset="single-deck")
    double = new_game(client)
    assert len(parse(client.get(f"/games/{single}")).select("input[type=checkbox][name^=dix_only_]")) == 2
    assert parse(client.get(f"/games/{double}")).select("input[name^=dix_only_]") == []


def test_a_dix_only_meld_is_scored_without_a_counter(client):
    game_id = new_game(client, preset="single-deck")
    response = record(client, game_id, bidder="t0", bid=250, meld_0=100, meld_1=10, counters_0=250,
                      counters_1=0, dix_only_1="1")
    assert response.status_code == 303
    assert totals(parse(client.get(f"/games/{game_id}"))) == (350, 10)


def test_a_meld_too_large_to_be_the_dix_is_refused_beside_its_box_and_nothing_is_stored(app, client):
    game_id = new_game(client, preset="single-deck")
    before = every_table(app.config["DATABASE"])
    response = record(client, game_id, bidder="t0", bid=250, meld_0=100, meld_1=30, counters_0=250,
                      counters_1=0, dix_only_1="1")
    assert response.status_code == 422
    page = parse(response)
    assert "not 30" in page.select_one("#field-dix_only_1").get_text()
    assert page.select_one("input[name=dix_only_1]").has_attr("checked")
    assert every_table(app.config["DATABASE"]) == before


def test_the_calculator_ticks_only_the_dix_for_a_hand_whose_meld_is_the_dix(client):
    carry = {"back": "/games/7", "field": "meld_1", "table": "004", "trump": "S", "state": "bid=250"}
    response = client.get("/meld/", query_string={**carry, "cards": "9S 9S", "use": "1"})
    assert parse_qs(urlsplit(response.headers["Location"]).query) == {"bid": ["250"], "meld_1": ["20"],
                                                                      "dix_only_1": ["1"],
                                                                      "meld_cards_1": ["S:9♠ 9♠"]}  # kept


def test_the_calculator_clears_the_dix_box_when_a_partner_holds_more(client):
    carry = {"back": "/games/7", "field": "meld_1", "table": "004", "trump": "S",
             "state": "bid=250&dix_only_1=1"}
    page = parse(client.get("/meld/", query_string={**carry, "cards": "KH QH", "partner": "1"}))
    assert page.select_one("input[name=plain]")["value"] == "1"
    response = client.get("/meld/", query_string={**carry, "carried": "20", "plain": "1", "cards": "9S",
                                                  "use": "1"})
    assert parse_qs(urlsplit(response.headers["Location"]).query) == {"bid": ["250"], "meld_1": ["30"],
                                                                      "meld_cards_1": ["S:9♠"]}
