"""At the table with two phones: the second phone follows every hand the first records, down to the Record
button's label, the bidder buttons and the game's end; its notice never covers the score and leaves by itself;
and a phone whose own save is still waiting hears from the poll that the hand is saved."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, boxes_overlap, hands_sent, record_played, saved_and_unanswered, start_game

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
NOTICE_LEAVES_MS = 9_000  # the notice stays five seconds; a loaded machine polls late


def as_a_fresh_page_shows_it(browser, url) -> dict:
    """What a phone that opens the game now sees in its record card."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(url)
    seen = record_card(page)
    context.close()
    return seen


def record_card(page) -> dict:
    return {"heading": page.locator("#record-heading").inner_text(),
            "button": page.locator("button.save-button").inner_text(),
            "bidders": page.locator("#field-bidder").inner_text(),
            "expected": page.locator("#expected").input_value()}


def assert_notice_beside_the_score_then_gone(page, words):
    notice = page.locator("#live-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(words)
    assert not boxes_overlap(notice.bounding_box(), page.locator("#scoreboard").bounding_box()), \
        "the notice covers the score"
    expect(notice).to_be_hidden(timeout=NOTICE_LEAVES_MS)


def test_an_untouched_second_phone_shows_the_next_hand_as_a_fresh_page_would(
        browser, phone, other_phone, live_server):
    start_game(phone, live_server, players=PLAYERS)
    other_phone.goto(phone.url)
    record_played(phone, "Bo", 55, (30, 12), 28)
    expect(other_phone.locator("button.save-button")).to_have_text("Record hand 2", timeout=8000)
    assert record_card(other_phone) == as_a_fresh_page_shows_it(browser, phone.url)
    assert_notice_beside_the_score_then_gone(other_phone, "Updated from another phone: next is hand 2.")


def test_a_second_phone_in_the_middle_of_a_hand_is_asked_which_hand_it_is_and_loses_nothing(
        browser, phone, other_phone, live_server):
    start_game(phone, live_server, players=PLAYERS)
    other_phone.goto(phone.url)
    other_phone.locator("#field-bidder .choice", has_text="Cy").click()
    other_phone.fill("#bid", "65")
    other_phone.fill("#meld_0", "20")
    record_played(phone, "Bo", 55, (30, 12), 28)
    # never moved on to hand 2 silently: the hand recorded and the hand typed, side by side
    question = other_phone.locator("#record.clash")
    expect(question.locator("h2")).to_have_text("Hand 1 was just recorded on another phone", timeout=8000)
    # what is not typed yet is taken as the other phone's: the lines typed differently are marked
    expect(question.locator("tr.differs th")).to_have_text(["Bidder", "Bid", "Meld"])
    expect(question.locator("#clash-filled")).to_be_visible()
    other_phone.get_by_role("button", name="Mine is the next hand: go on with it as hand 2").click()
    expect(other_phone.locator("button.save-button")).to_have_text("Record hand 2")
    expect(other_phone.locator("#bid")).to_have_value("65")
    expect(other_phone.locator("#meld_0")).to_have_value("20")
    expect(other_phone.locator("#field-bidder input[value=s2]")).to_be_checked()
    # and the cursor is where it was left: the first box still empty (not back on the first bidder)
    expect(other_phone.locator("#meld_1")).to_be_focused()


def test_a_second_phone_shows_the_winner_and_no_form_once_the_game_is_won(phone, other_phone, live_server):
    start_game(phone, live_server)
    other_phone.goto(phone.url)
    other_phone.fill("#bid", "65")  # typing in: the game's end still takes the form away
    hands_sent(phone, phone.url, 3, bid="150", meld_0="100", counters_0="50", counters_1="0")  # 450 to 0
    record_played(phone, "Us", 150, (100, 0), 50)  # and the fourth wins it
    expect(other_phone.locator(".winner-card h2")).to_have_text("We won the game", timeout=8000)
    expect(other_phone.locator("#hand-form")).to_have_count(0)
    expect(other_phone.locator("#record")).to_have_count(1)
    # a won game is not offered to be ended unfinished (the link stayed until a reload)
    expect(other_phone.locator("#game-links")).to_contain_text("Chart, printable sheet")
    expect(other_phone.get_by_role("link", name="End this game unfinished")).to_have_count(0)
    assert_notice_beside_the_score_then_gone(other_phone, "Updated from another phone: We won the game.")


def test_a_save_still_waiting_for_its_answer_ends_when_the_poll_finds_the_hand_stored(phone, live_server):
    start_game(phone, live_server)
    phone.locator("#field-bidder .choice", has_text="Us").click()
    phone.fill("#bid", "55")
    phone.fill("#meld_0", "30")
    phone.fill("#counters_0", "28")
    phone.route("**/hands", saved_and_unanswered)  # stored, and the answer never comes back
    phone.locator("button.save-button").click()
    expect(phone.locator("#hand-form")).to_have_class("htmx-request")
    notice = phone.locator("#live-notice")
    expect(notice).to_have_text("Hand 1 is saved: it is on the sheet.", timeout=8000)
    expect(phone.locator("#hand-form")).not_to_have_class("htmx-request")
    expect(phone.locator("button.save-button")).to_have_text("Record hand 2")
    expect(phone.locator("#bid")).to_have_value("")  # a fresh form: the values saved are not left in it
    expect(phone.locator("#meld_0")).to_have_value("")
    expect(phone.locator("#total-0")).to_have_text("58")
    expect(phone.locator("#alert")).to_be_hidden()
    expect(notice).to_be_hidden(timeout=NOTICE_LEAVES_MS)
    phone.unroute("**/hands")


def test_a_save_whose_answer_was_lost_is_said_saved_once_the_poll_finds_it(phone, live_server):
    start_game(phone, live_server)
    phone.locator("#field-bidder .choice", has_text="Them").click()
    phone.fill("#bid", "50")
    phone.fill("#counters_1", "50")
    phone.route("**/hands", lambda route: saved_and_unanswered(route, "connectionreset"))  # stored, answer lost
    phone.locator("button.save-button").click()
    # the hand is kept on the phone and sent again by itself: the one-time token stores it once
    expect(phone.locator("#outbox")).to_have_count(0, timeout=15_000)
    expect(phone.locator("#alert")).to_be_hidden()
    expect(phone.locator("button.save-button")).to_have_text("Record hand 2")
    expect(phone.locator("#counters_1")).to_have_value("")
    expect(phone.locator("#total-1")).to_have_text("50")
    phone.unroute("**/hands")
