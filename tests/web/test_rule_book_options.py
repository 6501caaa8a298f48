"""The rule books' options through the forms (Bicycle's other card count as a house rule, 003's bid cap, 002's
quadruple run), and the rules in words on the rules page and every game page."""

import pytest

from scorepad.core.rules import PRESETS
from scorepad.core.rules_in_words import describe
from tests.helpers import parse
from tests.web.helpers import new_game, record, totals


def test_bicycles_kings_and_queens_at_5_is_a_house_rule_that_takes_counters_like_245(client):
    game_id = new_game(client, preset="double-pack-bicycle", card_count="kings_queens_half")
    response = record(client, game_id, bidder="t0", bid=500, meld_0=300, meld_1=100, counters_0=245,
                      counters_1=255)
    assert response.status_code == 303
    assert totals(parse(client.get(f"/games/{game_id}"))) == (545, 355)


def test_a_bid_above_the_gamerules_cap_is_refused_beside_the_bid(client):
    game_id = new_game(client, preset="double-deck-gamerules")
    response = record(client, game_id, bidder="t0", bid=600, meld_0=30, meld_1=10, counters_0=25, counters_1=25)
    assert response.status_code == 422
    page = parse(response)
    assert "Bids go up to 500 under these rules, not 600." in page.select_one("#field-bid").get_text()
    assert page.select_one("input[name=bid]")["value"] == "600"


def test_a_hand_can_end_in_a_quadruple_run_which_wins_the_002_game(client):
    game_id = new_game(client)
    kinds = [i["value"] for i in parse(client.get(f"/games/{game_id}")).select("input[name=kind]")]
    assert "quad_run" in kinds
    response = record(client, game_id, kind="quad_run", bidder="t1", bid=60)
    assert response.status_code == 303
    page = parse(client.get(f"/games/{game_id}"))
    assert "melded a quadruple run in trump, which wins the game outright" in page.get_text()


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_rules_page_and_a_game_page_show_the_rules_in_words_sentence_by_sentence(client, preset):
    page = parse(client.get(f"/rules/{preset}"))
    assert [li.get_text() for li in page.select(".rules-list li")] == describe(PRESETS[preset])
    rules = PRESETS[preset]
    game_id = new_game(client, preset=preset, seating=f"{rules.sides}x{rules.players_per_side}")
    game = parse(client.get(f"/games/{game_id}"))
    assert [li.get_text() for li in game.select(".rules-list li")] == describe(rules)
