"""Every player follows a save (WCAG 2.2 AA): the two-phone question, when it is Record's answer, takes the focus
at its heading and is said; once answered, the cursor is where the next thing to do is; Fix puts it on the first
field Scorepad named; after Record the field that has it is on the screen, at 200% zoom too; and a screen
reader hears the new totals."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, blind_poll, start_game

pytestmark = pytest.mark.browser

SETTLED_MS = 20_000


def type_hand(page, bid="55", meld=("30", "12"), counters="28"):
    page.locator("#field-bidder .choice", has_text="Us").click()
    page.fill("#bid", bid)
    page.fill("#meld_0", meld[0])
    page.fill("#meld_1", meld[1])
    page.fill("#counters_0", counters)
    expect(page.locator("#preview .preview-score")).to_be_visible()


def focused(page) -> str:
    return page.evaluate("document.activeElement && (document.activeElement.id || document.activeElement.name "
                         "|| document.activeElement.className)")


def announced(page) -> str:
    return page.locator("#announce").inner_text()


def test_the_question_as_records_answer_takes_the_focus_and_is_said_and_its_answer_leads_on(phone, other_phone,
                                                                                             live_server):
    start_game(phone, live_server)
    other_phone.goto(phone.url)
    blind_poll(other_phone)  # the question here is Record's answer, which takes the focus (the poll's does not)
    type_hand(phone)
    type_hand(other_phone, counters="30")
    phone.locator("button.save-button").click()
    expect(phone.locator("#expected")).to_have_value("2")
    other_phone.locator("button.save-button").click()
    title = other_phone.locator("#record.clash .clash-title")
    expect(title).to_be_focused()  # not the page's body: a screen reader hears it, not silence
    expect(other_phone.locator("#announce")).to_contain_text("Hand 1 was just recorded on another phone")
    other_phone.get_by_role("button", name="Same hand, mine is right: change hand 1 to mine").click()
    expect(other_phone.locator("button.save-button")).to_have_text("Record hand 2")
    expect(other_phone.locator("input[name=bidder]").first).to_be_focused()  # the next hand's first field


def test_fix_puts_the_cursor_on_the_field_scorepad_named(phone, live_server):
    start_game(phone, live_server)
    phone.context.set_offline(True)
    phone.locator("#field-bidder .choice", has_text="Us").click()
    phone.fill("#meld_0", "20")
    phone.fill("#counters_0", "60")  # 60 counters of 50: refused once it arrives
    phone.locator("button.save-button").click()
    expect(phone.locator("#sheet .waiting-hand")).to_have_count(1)
    phone.context.set_offline(False)
    fix = phone.locator("#outbox").get_by_role("button", name="Fix hand 1")
    expect(fix).to_be_visible(timeout=SETTLED_MS)
    fix.click()
    expect(phone.locator("#counters_0")).to_be_focused()
    expect(phone.locator("#counters_0")).to_have_attribute("aria-invalid", "true")


@pytest.mark.parametrize("zoom", [1, 2], ids=["100%", "200%"])
def test_after_record_the_field_with_the_cursor_is_on_the_screen_and_the_totals_are_said(browser, live_server,
                                                                                       zoom):
    # 200% on a screen twice a phone's width: the page is laid out at 390 px, half as much of it on the screen
    context = browser.new_context(viewport={"width": PHONE["width"], "height": PHONE["height"] // zoom},
                                  device_scale_factor=2 * zoom, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        start_game(page, live_server)
        type_hand(page)
        page.locator("button.save-button").click()
        expect(page.locator("#expected")).to_have_value("2")
        bidder = page.locator("input[name=bidder]").first
        expect(bidder).to_be_focused()
        box = page.locator("#field-bidder").bounding_box()
        assert box["y"] >= 0 and box["y"] < page.viewport_size["height"], box  # an arrow key scrolls nothing away
        expect(page.locator("#announce")).to_contain_text("Hand 1 recorded: Us +58")
    finally:
        context.close()
