"""The meld calculator in a real browser at a phone's size."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import no_sideways_scroll

pytestmark = pytest.mark.browser


def tap(page, code):
    page.locator(f"#meld-grid button.add[value={code}]").click()


def test_tapping_a_hand_in_updates_the_total(phone, live_server):
    phone.goto(f"{live_server}/meld/")
    phone.locator(".suit-choice", has_text="♥").click()
    # 87 meld in hearts (seed 002): run, royal marriage, 2 marriages in ♠, pinochle, double queens around
    for code in ["AH", "TH", "KH", "KH", "KH", "QH", "QH", "JH", "QD", "QD", "JD", "QC", "QC",
                 "AS", "KS", "KS", "QS", "QS", "JS", "JS"]:
        tap(phone, code)
    expect(phone.locator("#meld-total")).to_have_text("87")
    assert phone.locator("textarea[name=cards]").input_value().startswith("A♠ K♠ K♠ Q♠ Q♠ J♠ J♠ A♥ 10♥")
    assert phone.locator(".breakdown li").count() == 5
    # the minus takes one away: without the J♦ the pinochle goes
    phone.locator("#meld-grid button.take[value=JD]").click()
    expect(phone.locator("#meld-total")).to_have_text("83")
    assert phone.js_errors == []


def test_the_grid_fits_a_phone_with_big_enough_tap_targets(phone, live_server):
    for width in (390, 360):
        phone.set_viewport_size({"width": width, "height": 844})
        phone.goto(f"{live_server}/meld/?table=004")
        no_sideways_scroll(phone)
        for button in phone.locator("#meld-grid button").all():
            box = button.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box


def test_typing_a_hand_counts_it_as_you_type(phone, live_server):
    phone.goto(f"{live_server}/meld/")
    phone.locator("textarea[name=cards]").fill("QS JD KS QS")
    expect(phone.locator("#meld-total")).to_have_text("8")
    phone.locator(".suit-choice", has_text="♥").click()  # K-Q of spades is now a plain marriage
    expect(phone.locator("#meld-total")).to_have_text("6")
    assert phone.js_errors == []
    phone.locator("textarea[name=cards]").fill("QS JD XX")
    phone.wait_for_selector("#meld-error")
    assert "'XX' is not a card" in phone.locator("#meld-error").inner_text()
    assert phone.locator("textarea[name=cards]").input_value() == "QS JD XX"


def test_the_calculator_works_without_javascript(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/meld/?cards=QS")
    page.locator("#meld-grid button.add[value=JD]").click()
    page.wait_for_load_state()
    assert page.locator("#meld-total").inner_text() == "4"
    assert "add=JD" in page.url
    context.close()
