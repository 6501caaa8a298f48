"""The meld calculator page through the Flask test client: taps, paste, errors, fragments, carrying back."""

from urllib.parse import parse_qs, urlsplit

import pytest

from tests.helpers import parse
from tests.web.helpers import csrf, new_game

HAND_87 = "♥A 10 K K K Q Q J ♦Q Q J ♣Q Q ♠A K K Q Q J J"


def total(page) -> int:
    return int(page.select_one("#meld-total").get_text())


def test_the_page_shows_a_grid_of_rank_by_suit(client):
    page = parse(client.get("/meld/"))
    adds = page.select("#meld-grid button.add")
    assert [b["value"] for b in adds[:4]] == ["AS", "AH", "AD", "AC"]
    assert len(adds) == 20  # A 10 K Q J in four suits: no 9s in a double deck
    assert all(b.has_attr("disabled") for b in page.select("#meld-grid button.take"))


def test_single_deck_tables_offer_the_nines(client):
    page = parse(client.get("/meld/?table=004"))
    assert len(page.select("#meld-grid button.add")) == 24


def test_a_typed_hand_is_counted_with_its_breakdown(client):
    page = parse(client.get("/meld/", query_string={"trump": "H", "table": "002", "cards": HAND_87}))
    assert total(page) == 87
    items = [[s.get_text() for s in li.select("span")] for li in page.select(".breakdown li")]
    assert items == [["Run in ♥", "15"], ["Royal marriage", "4"], ["2 marriages in ♠", "4"], ["Pinochle", "4"],
                     ["Double queens around", "60"]]


def test_a_tap_adds_one_card_and_the_minus_takes_one_away(client):
    page = parse(client.get("/meld/", query_string={"cards": "QS", "add": "JD"}))
    assert page.select_one("textarea[name=cards]").get_text() == "Q♠ J♦"
    assert total(page) == 4
    cell = page.select_one("button.add[value=JD]")
    assert cell.select_one(".count").get_text() == "×1"
    page = parse(client.get("/meld/", query_string={"cards": "QS JD", "take": "QS"}))
    assert page.select_one("textarea[name=cards]").get_text() == "J♦"
    assert total(page) == 0


def test_a_card_the_deck_has_no_more_of_cannot_be_added(client):
    page = parse(client.get("/meld/", query_string={"cards": "AS AS AS AS", "add": "AS"}))
    assert page.select_one("textarea[name=cards]").get_text() == "A♠ A♠ A♠ A♠"
    assert page.select_one("button.add[value=AS]").has_attr("disabled")


def test_changing_trump_recounts(client):
    spades = parse(client.get("/meld/", query_string={"cards": "KS QS", "trump": "S"}))
    hearts = parse(client.get("/meld/", query_string={"cards": "KS QS", "trump": "H"}))
    assert (total(spades), total(hearts)) == (4, 2)


@pytest.mark.parametrize(("cards", "table", "message"), [
    ("AS XX", "002", "'XX' is not a card"),
    ("9S", "002", "There are no 9s in a double deck"),
    ("KH KH KH", "004", "3 × K♥ is more than the deck holds"),
])
def test_a_bad_hand_says_why_keeps_the_text_and_answers_422(client, cards, table, message):
    response = client.get("/meld/", query_string={"cards": cards, "table": table})
    assert response.status_code == 422
    page = parse(response)
    assert message in page.select_one("#meld-error").get_text()
    assert page.select_one("textarea[name=cards]").get_text() == cards
    assert page.select_one("textarea[name=cards]")["aria-invalid"] == "true"


def test_htmx_gets_only_the_calculator(client):
    response = client.get("/meld/?cards=QS+JD", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "HX-Request" in response.headers["Vary"]
    page = parse(response)
    assert page.find("html") is None and page.select_one("form#meld-calc") is not None


def test_partners_hands_are_added_and_carried_back_to_the_game_form(client):
    carry = {"back": "/games/7", "field": "meld_1", "team_name": "Them", "state": "bid=55&bidder=0&meld_1=3"}
    page = parse(client.get("/meld/", query_string={**carry, "cards": "KS QS", "trump": "S", "partner": "1"}))
    assert page.select_one("input[name=carried]")["value"] == "4"
    assert page.select_one("textarea[name=cards]").get_text() == ""
    assert page.select_one("input[name=counted]")["value"] == "K♠ Q♠"  # the partner's cards, kept for the hand
    response = client.get("/meld/", query_string={**carry, "carried": "4", "counted": "K♠ Q♠", "cards": "QS JD",
                                                  "use": "1"})
    assert response.status_code == 303
    url = urlsplit(response.headers["Location"])
    assert url.path == "/games/7"
    assert parse_qs(url.query) == {"bid": ["55"], "bidder": ["0"], "meld_1": ["8"],
                                   "meld_cards_1": ["S:K♠ Q♠;Q♠ J♦"]}


def test_once_every_partners_hand_is_counted_no_more_is_offered_and_the_bar_says_which_meld_it_shows(client):
    """Two partners: after "Add partner's hand next" the second hand is the last; the big number is this hand's,
    the button the team's whole."""
    carry = {"back": "/games/7", "field": "meld_1", "team_name": "Kids", "state": "bid=55", "partners": "1"}
    first = parse(client.get("/meld/", query_string={**carry, "cards": "KS QS", "trump": "S"}))
    assert [b.get_text(strip=True) for b in first.select("#meld-result button")] == ["Add partner's hand next"]
    page = parse(client.get("/meld/", query_string={**carry, "cards": "KS QS", "trump": "S", "partner": "1"}))
    assert page.select_one("input[name=partners]")["value"] == "0"
    page = parse(client.get("/meld/", query_string={**carry, "partners": "0", "carried": "4", "cards": "KC QC",
                                                    "trump": "S"}))
    assert page.select("#meld-result button") == []
    bar = " ".join(page.select_one("#meld-bar").get_text(" ").split())
    assert bar.startswith("2 meld in this hand · 2 cards") and "Use 6 as meld for Kids" in bar


def test_the_calculator_opened_from_a_partnership_game_knows_how_many_partners_there_are(client):
    game_id = new_game(client)
    answer = client.post("/meld/start", data={"csrf_token": csrf(client), "game_id": game_id, "count_meld": "1"})
    assert parse_qs(urlsplit(answer.headers["Location"]).query)["partners"] == ["1"]


def test_carrying_back_under_htmx_is_a_whole_page_move(client):
    response = client.get("/meld/", query_string={"back": "/games/7", "field": "meld_0", "cards": "QS JD",
                                                  "use": "1"}, headers={"HX-Request": "true"})
    assert response.headers["HX-Redirect"].startswith("/games/7?meld_0=4")


@pytest.mark.parametrize("back", ["//evil.example/", "https://evil.example/", "javascript:alert(1)", "/\\evil"])
def test_the_calculator_only_carries_back_to_a_page_of_this_app(client, back):
    response = client.get("/meld/", query_string={"back": back, "cards": "QS JD", "use": "1"})
    assert response.status_code == 200
    assert parse(response).select_one("input[name=back]") is None
