"""Tables of every size in a real browser at 390×844: a three-handed cutthroat game to a win (a set, a throw-in
and an edit on the way), a two-handed game without bidding to 1,000, and six players in three partnerships."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import no_sideways_scroll, start_game
from tests.browser.helpers import record_hand as record

pytestmark = pytest.mark.browser


def totals(page, sides: int) -> list[str]:
    return [page.locator(f"#total-{side}").inner_text() for side in range(sides)]


def test_a_three_handed_cutthroat_game_to_a_win_with_a_set_a_throw_in_and_an_edit(phone, live_server):
    start_game(phone, live_server, seating="3 players, each for themselves", players=["Ann", "Bob", "Cat"])
    expect(phone.locator("#scoreboard .team")).to_have_count(3)
    expect(phone.locator("#field-bidder .choice")).to_have_count(3)
    record(phone, (150, 40, 60), (160, 50), bidder="Ann", bid=300)
    assert totals(phone, 3) == ["310", "90", "100"]
    record(phone, (20, 100, 30), (80, 120), bidder="Bob", bid=350)  # Bob takes 220 of 350: set
    assert totals(phone, 3) == ["410", "−260", "180"]
    expect(phone.locator(".hands details").first.locator(".badge-set")).to_be_visible()
    record(phone, (50, 40, 100), (), bidder="Cat", bid=300, kind="Throw-in")
    assert totals(phone, 3) == ["460", "−220", "−120"]
    # the first hand was typed wrong: Ann took 170 counters and Bob 40
    phone.locator(".hands details").last.locator("summary").click()
    phone.locator(".hands details").last.get_by_role("link", name="Edit").click()
    phone.fill("#counters_0", "170")
    phone.fill("#counters_1", "40")
    phone.get_by_role("button", name="Save changes").click()
    expect(phone.locator("#total-0")).to_have_text("470")
    assert totals(phone, 3) == ["470", "−230", "−120"]
    expect(phone.locator(".hands details").last.locator(".badge-edited")).to_be_visible()
    record(phone, (600, 0, 0), (250, 0), bidder="Ann", bid=500)
    record(phone, (100, 0, 0), (250, 0), bidder="Ann", bid=250)
    expect(phone.locator(".winner-card h2")).to_have_text("Ann won the game")
    assert totals(phone, 3) == ["1,670", "−230", "−120"]
    no_sideways_scroll(phone)
    assert phone.js_errors == []


def test_a_two_handed_game_without_bidding_goes_to_1000(phone, live_server):
    start_game(phone, live_server, seating="2 players", players=["Ann", "Bob"])
    expect(phone.locator("#scoreboard .target")).to_contain_text("Two-handed")
    assert phone.locator("#field-bidder").count() == 0 and phone.locator("#bid").count() == 0
    for i in range(4):
        record(phone, (100, 40), (150,), again=i > 0)  # Ann 250, Bob 140 a hand
    expect(phone.locator(".winner-card h2")).to_have_text("Ann won the game")
    assert totals(phone, 2) == ["1,000", "560"]
    no_sideways_scroll(phone)
    assert phone.js_errors == []


def test_six_players_in_three_partnerships_keep_three_totals(phone, live_server):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    start_game(phone, live_server, seating="6 players, three partnerships", players=names)
    expect(phone.locator("#scoreboard .team-players")).to_have_text(["Ann & Dan", "Bob & Eve", "Cat & Fay"])
    expect(phone.locator("#field-bidder .choice")).to_have_count(6)
    # three decks: 75 counters a hand, bids from 75, 30 meld to be on the board and 30 counters to save it
    expect(phone.locator("#counters_0")).to_have_attribute("placeholder", "0–75")
    record(phone, (50, 35, 40), (30, 15), bidder="Dan", bid=75)  # Them take 15: their 35 meld is not saved
    assert totals(phone, 3) == ["80", "0", "70"]  # Others take the last 30 counters: 40 + 30
    record(phone, (20, 40, 40), (), bidder="Eve", bid=75, kind="Throw-in")
    # the throw-in award, the family's 20 half again as large: Us 30 (20 meld is not on the board), Others 40 + 30
    assert totals(phone, 3) == ["110", "−75", "140"]
    no_sideways_scroll(phone)
    assert phone.js_errors == []
