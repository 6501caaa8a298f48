"""At the table in Chromium at 390 px: the screen stays on while a game is open (the Wake Lock API, or a muted
looping video where a plain-http address has none), a switch turns it off, and it is let go when the game ends or
the page is hidden; the winner card sends the result with one tap (the share sheet, or a copy on plain http) and
downloads a picture of the sheet."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import ARTIFACTS, no_sideways_scroll, record_played, start_game

pytestmark = pytest.mark.browser

# A plain-http home address: no wake lock, no share sheet, no Clipboard API (each needs a secure page)
PLAIN_HTTP = """
delete Navigator.prototype.wakeLock; delete Navigator.prototype.share; delete Navigator.prototype.canShare;
Object.defineProperty(Navigator.prototype, "clipboard", {configurable: true, get() { return undefined; }});
Object.defineProperty(window, "isSecureContext", {configurable: true, get() { return false; }});
window.__copied = [];
const copyCommand = document.execCommand.bind(document);
document.execCommand = (command, ...rest) => {
  if (command === "copy") { const box = document.activeElement;
    __copied.push(box.value.slice(box.selectionStart, box.selectionEnd)); }
  return copyCommand(command, ...rest);
};
"""
# A phone's share sheet: what it is asked to send is kept
FAKE_SHARE = """
window.__shared = [];
Navigator.prototype.canShare = function (data) { return true; };
Navigator.prototype.share = function (data) {
  __shared.push({title: data.title, text: data.text, files: (data.files || []).map(f => [f.name, f.type, f.size])});
  return Promise.resolve();
};
"""


def hidden(page, yes: bool) -> None:
    """The phone's screen switched to another app (hidden), or back."""
    page.evaluate("""yes => {
        Object.defineProperty(document, "visibilityState", {configurable: true, get: () => yes ? "hidden" : "visible"});
        document.dispatchEvent(new Event("visibilitychange"));
    }""", yes)


def locks(page) -> dict:
    return page.evaluate("window.__locks")


def win(page):
    record_played(page, "Us", 50, (460, 0), 50)
    expect(page.locator(".winner-card h2")).to_have_text("We won the game")


def test_the_screen_stays_on_while_the_game_is_open_and_the_tables_switch_turns_it_off(phone, live_server):
    start_game(phone, live_server)  # the test phones' wake lock counts what is asked of it (browser/conftest.py)
    island = phone.locator("[data-keep-awake]")
    expect(island.locator("[data-keep-awake-state]")).to_have_text("The screen stays on while this game is open.")
    expect(island).to_have_attribute("data-held", "wake-lock")
    assert locks(phone) == {"requested": 1, "released": 0, "held": 1}
    island.scroll_into_view_if_needed()
    phone.screenshot(path=str(ARTIFACTS / "keep-awake-switch-390.png"))
    hidden(phone, True)  # another app in front: let go
    expect(island).to_have_attribute("data-held", "")
    assert locks(phone)["held"] == 0
    hidden(phone, False)  # back at the table: taken again
    expect(island).to_have_attribute("data-held", "wake-lock")
    assert locks(phone) == {"requested": 2, "released": 1, "held": 1}
    switch = phone.get_by_role("switch", name="Keep the screen on")
    switch.click()
    expect(island.locator("[data-keep-awake-state]")).to_have_text("The screen may sleep as usual.")
    assert locks(phone)["held"] == 0
    island.scroll_into_view_if_needed()
    phone.screenshot(path=str(ARTIFACTS / "keep-awake-switch-off-390.png"))
    phone.reload()  # the switch is remembered on this phone
    expect(phone.get_by_role("switch", name="Keep the screen on")).not_to_be_checked()
    expect(island.locator("[data-keep-awake-state]")).to_have_text("The screen may sleep as usual.")
    assert locks(phone)["held"] == 0
    phone.get_by_role("switch", name="Keep the screen on").click()
    expect(island).to_have_attribute("data-held", "wake-lock")
    win(phone)  # the game is over: let go
    expect(island.locator("[data-keep-awake-state]")).to_have_text("The game is over: the screen may sleep again.")
    assert locks(phone)["held"] == 0
    no_sideways_scroll(phone)
    assert phone.js_errors == []


def test_on_a_plain_http_address_a_muted_looping_video_keeps_the_screen_on(phone, live_server):
    phone.add_init_script(PLAIN_HTTP)
    start_game(phone, live_server)
    island = phone.locator("[data-keep-awake]")
    phone.locator(".scoreboard").first.click()  # a tap, where the browser plays a video only after one
    expect(island).to_have_attribute("data-held", "video")
    video = phone.locator("video.awake-video")
    assert video.evaluate("v => [v.muted, v.loop, v.paused, v.hasAttribute('playsinline')]") == \
        [True, True, False, True]
    phone.get_by_role("switch", name="Keep the screen on").click()
    expect(island).to_have_attribute("data-held", "")
    assert video.evaluate("v => v.paused")
    phone.get_by_role("switch", name="Keep the screen on").click()
    expect(island).to_have_attribute("data-held", "video")
    win(phone)
    expect(island).to_have_attribute("data-held", "")
    assert phone.evaluate("[...document.querySelectorAll('video')].every(v => v.paused)")
    assert phone.js_errors == []


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_winner_card_copies_the_result_on_plain_http_and_downloads_a_picture(phone, live_server):
    phone.add_init_script(PLAIN_HTTP)
    start_game(phone, live_server)
    record_played(phone, "Us", 50, (40, 12), 30)
    win(phone)
    share = phone.locator(".winner-card [data-share]")
    line = share.locator("textarea").input_value()
    assert re.fullmatch(r"Us 580 : Them 20 — We won, 2 hands, \w{3} \d{1,2} \w{3}", line), line
    share.get_by_role("button", name="Copy the result").click()
    expect(share.locator("[data-share-said]")).to_have_text("Copied: paste it into the family chat.")
    assert phone.evaluate("window.__copied") == [line]
    picture = share.get_by_role("link", name="Download a picture of the sheet")
    expect(picture).to_have_attribute("href", re.compile("^blob:"))
    with phone.expect_download() as download:
        picture.click()
    assert download.value.suggested_filename.endswith(".png")
    width, height = png_size(Path(download.value.path()).read_bytes())
    assert width >= 2 * 480 and height > 2 * 200  # drawn at twice its size, sharp on a phone
    share.scroll_into_view_if_needed()
    phone.screenshot(path=str(ARTIFACTS / "share-winner-card-390.png"))
    no_sideways_scroll(phone)
    assert phone.js_errors == []


def test_where_the_phone_has_a_share_sheet_one_tap_sends_the_line_and_the_picture(phone, live_server):
    phone.add_init_script(FAKE_SHARE)
    start_game(phone, live_server)
    win(phone)
    share = phone.locator(".winner-card [data-share]")
    expect(share.get_by_role("link", name="Download a picture of the sheet")).to_have_attribute(
        "href", re.compile("^blob:"))  # the picture is ready before the tap
    share.get_by_role("button", name="Send the result").click()
    expect(share.locator("[data-share-said]")).to_have_text("Shared.")
    [sent] = phone.evaluate("window.__shared")
    assert sent["text"] == share.locator("textarea").input_value() and sent["title"] == "Us – Them"
    [(name, kind, size)] = sent["files"]
    assert (name, kind) == ("scorepad.png", "image/png") and size > 1000
    # and from the game in History, the same
    phone.get_by_role("link", name="Chart, printable sheet and export").click()
    phone.locator(".share-card").get_by_role("button", name="Send the result").click()
    assert len(phone.evaluate("window.__shared")) == 1  # a new page: its own list
    expect(phone.locator(".share-card [data-share-said]")).to_have_text("Shared.")
    phone.locator(".share-card").scroll_into_view_if_needed()
    phone.screenshot(path=str(ARTIFACTS / "share-history-390.png"))
    assert phone.js_errors == []


def test_without_javascript_the_line_waits_to_be_copied_and_the_picture_is_a_link(browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/games/new")
    page.get_by_role("button", name="Start the game").click()
    for field, value in (("bid", "50"), ("meld_0", "460"), ("meld_1", "0"), ("counters_0", "50"),
                         ("counters_1", "0")):
        page.fill(f"#{field}", value)
    page.locator("#field-bidder .choice", has_text="Us").click()
    page.locator("button.save-button").click()
    share = page.locator(".winner-card [data-share]")
    expect(share.locator("textarea")).to_have_value(re.compile("^Us 510 : Them 0 — We won, 1 hand, "))
    expect(share.locator("[data-share-button]")).to_be_hidden()
    expect(page.locator("[data-keep-awake]")).to_be_hidden()
    href = share.get_by_role("link", name="Download a picture of the sheet").get_attribute("href")
    answer = page.request.get(live_server + href)
    assert answer.headers["content-type"].startswith("image/svg+xml") and "attachment" in \
        answer.headers["content-disposition"]
    context.close()


def test_the_result_to_copy_is_in_view_whole_at_320_however_long(context_for, live_server):
    """A cutthroat night's line ("Grandpa −120 : Ann 340 : Ben 1,640 — Ben won, 6 hands, …") was cut off after
    two lines at 320 px: the box grows with its line."""
    page = context_for({"width": 320, "height": 640})
    start_game(page, live_server)
    win(page)
    box = page.locator(".winner-card [data-share] textarea")
    box.evaluate("(el, line) => { el.value = line; }", "Grandpa −120 : Ann 340 : Ben 1,640 — Ben won, 6 hands, "
                 "Fri 27 Nov, and the longest names a family gives its players")
    assert box.evaluate("el => el.scrollHeight <= el.clientHeight + 1"), box.evaluate(
        "el => [el.scrollHeight, el.clientHeight]")
    no_sideways_scroll(page)
