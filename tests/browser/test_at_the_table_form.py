"""The hand form as it is used at the table: a fresh form is not judged before it is touched, the address
forgets the hand the meld count brought back, a save puts the cursor back on the bidder, and the keypad's
Enter key says whether it moves on or saves."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import record_played, start_game

pytestmark = pytest.mark.browser


def hand_posts(page) -> list[str]:
    """Every hand the page sends to be stored, from now on."""
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if request.url.endswith("/hands") else None)
    return sent


def test_a_second_tap_on_record_after_a_save_only_puts_the_cursor_on_the_bidder(phone, live_server):
    start_game(phone, live_server)
    record_played(phone, "Us", 55, (30, 12), 28)
    sent = hand_posts(phone)
    phone.locator("button.save-button").click()  # the same thumb, a moment too late
    expect(phone.locator("#field-bidder input").first).to_be_focused()
    assert phone.locator(".error-message:visible, [aria-invalid=true], #form-message").count() == 0
    assert sent == []
    expect(phone.locator("#expected")).to_have_value("2")
    assert phone.js_errors == []
    # once touched, the form is judged as before: sent, refused, and what was typed kept
    phone.fill("#counters_0", "30")
    phone.locator("button.save-button").click()
    expect(phone.locator("#bidder-error")).to_have_text("Tap the team that won the bid.")
    assert len(sent) == 1 and phone.locator("#counters_0").input_value() == "30"


def test_a_hand_the_meld_count_brought_back_leaves_the_address_and_a_reload_later_is_fresh(phone, live_server):
    start_game(phone, live_server)
    game_url = phone.url.split("#")[0]
    phone.locator("#field-bidder .choice", has_text="Them").click()
    phone.fill("#bid", "65")
    phone.locator("#field-trump .suit-choice.suit-S").click()
    phone.fill("#counters_1", "40")
    phone.locator(".with-action:has(#meld_1) .link-button").click()  # Count cards
    # Taps before the page's script runs are plain submits that reload it; a tap during that reload is the
    # browser's to drop. This test is about the address, so it taps once the calculator is ready.
    phone.wait_for_load_state("domcontentloaded")
    phone.locator("#meld-grid button.add[value=KS]").click()
    phone.locator("#meld-grid button.add[value=QS]").click()
    phone.locator("button[name=use]").click()
    expect(phone.locator("#meld_1")).to_have_value("4")
    assert phone.locator("#bid").input_value() == "65"
    assert phone.locator("#field-bidder input:checked").get_attribute("value") == "t1"
    expect(phone).to_have_url(game_url + "#record")
    # what came back is the player's own hand, not a fresh form: one tap on Record stores it
    phone.locator("button.save-button").click()
    expect(phone.locator("#total-1")).to_have_text("\u221265")  # a set: the bidders made 44 of 65
    phone.reload()
    expect(phone.locator("#hand-form")).to_be_visible()
    assert phone.locator("#field-bidder input:checked, #field-trump input:checked").count() == 0
    assert phone.locator("#meld_1").input_value() == ""
    assert phone.locator("#bid").input_value() == ""  # the minimum bid is its placeholder
    assert phone.js_errors == []


def test_after_saving_with_enter_the_cursor_is_on_the_bidder_not_in_the_counters(phone, live_server):
    start_game(phone, live_server)
    phone.locator("#field-bidder .choice", has_text="Them").click()
    phone.keyboard.type("55")
    phone.locator("#field-trump .suit-choice.suit-S").click()
    for text in ("12", "30", "22"):  # Us's meld, Them's meld, Us's counters: the teams' order, whoever bid
        phone.keyboard.type(text)
        phone.keyboard.press("Enter")
    expect(phone.locator("#total-1")).to_have_text("58")
    expect(phone.locator("#field-bidder input").first).to_be_focused()
    assert phone.evaluate("document.activeElement.inputMode") == ""  # no keypad wanted
    assert phone.js_errors == []


def enter_keys(page) -> dict[str, str]:
    return {name: page.locator(f"#{name}").get_attribute("enterkeyhint")
            for name in ("bid", "meld_0", "meld_1", "counters_0", "counters_1")}


PLAYED = {"bid": "next", "meld_0": "next", "meld_1": "next", "counters_0": "done", "counters_1": "done"}


@pytest.mark.parametrize(("bidder", "kind", "hints"), [
    ("Us", "Played", PLAYED),
    ("Them", "Played", PLAYED),  # the same order whichever team bid
    ("Them", "Throw-in", {"bid": "next", "meld_0": "next", "meld_1": "done"}),
])
def test_the_keypad_says_next_until_the_field_whose_enter_saves(phone, live_server, bidder, kind, hints):
    start_game(phone, live_server)
    phone.locator("#field-bidder .choice", has_text=re.compile(rf"^{bidder}\b")).click()
    phone.locator("#rare summary").click()
    phone.locator("#field-kind .choice", has_text=kind).click()
    shown = {name: hint for name, hint in enter_keys(phone).items() if phone.locator(f"#{name}").is_visible()}
    assert shown == hints


def test_everyone_passed_picks_the_stuck_dealer_as_the_bidder(phone, live_server):
    """Ticking "the dealer is stuck" left nobody picked: the preview said nothing and Record said "Tap the player
    who won the bid"."""
    start_game(phone, live_server, players=["Ann", "Bob", "Cat", "Dan"])
    dealer = re.search(r"(\w+) deals", phone.locator("#record-heading").inner_text())[1]
    phone.locator("#rare summary").click()
    phone.locator("#forced").check()
    expect(phone.locator("#field-bidder .choice", has_text=dealer).locator("input")).to_be_checked()
    phone.fill("#meld_0", "20")
    phone.fill("#meld_1", "30")
    phone.fill("#counters_0", "25")
    expect(phone.locator("#preview-line")).not_to_be_empty()
    phone.locator("button.save-button").click()
    expect(phone.locator("button.save-button")).to_have_text("Record hand 2")
    expect(phone.locator(".hands details").first).to_contain_text(dealer)
    # a bidder picked before the tick stays picked (the rules then say who may be stuck)
    other = next(name for name in ("Ann", "Bob", "Cat", "Dan") if name != dealer)
    phone.locator("#field-bidder .choice", has_text=other).click()
    phone.locator("#rare summary").click()
    phone.locator("#forced").check()
    expect(phone.locator("#field-bidder .choice", has_text=other).locator("input")).to_be_checked()
    assert phone.js_errors == []
