"""What a player does on a phone, in Playwright's words, for the browser tests to share."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"  # screenshots: of failures, and to look at


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide: it scrolls sideways"


class Taps:
    """Counts what a player does: each tap and each key pressed."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, locator):
        locator.click()
        self.count += 1

    def type(self, locator, text):
        locator.click()
        self.count += 1
        locator.press_sequentially(text)
        self.count += len(text)


def start_game(page, live_server, preset=None, players=None, seating=None):
    page.goto(f"{live_server}/")
    page.get_by_role("link", name="New game").click()
    if seating:  # how many play, as the page offers it ("3 players, each for themselves")
        page.get_by_role("link", name=seating).click()
        # the choice is a reload: what follows must look at the new page, not the one still showing
        expect(page.get_by_role("link", name=seating)).to_have_attribute("aria-current", "true")
    if preset:
        page.locator(f"input[name=preset][value={preset}]").check()
    if players:
        if not page.locator("#player_0").is_visible():  # open already where every player must be named
            page.get_by_text("Players and first dealer").click()
        for i, name in enumerate(players):
            page.fill(f"#player_{i}", name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#hand-form")).to_be_visible()


def yes_the_same_numbers_again(page):
    """Answer the question a hand alike the one just recorded is asked ("This looks like hand 3 again — record
    it anyway?"): yes, it is the next hand."""
    question = page.locator("#repeat-question")
    expect(question).to_contain_text("again — record it anyway?")
    question.get_by_role("button", name=re.compile(r"^Yes, record it as hand \d+$")).click()
    # the question came as a 409, which the browser's console notes as a failed load: it is an answer here
    errors = getattr(page, "js_errors", None)
    if errors is not None:
        errors[:] = [e for e in errors if "status of 409" not in e]


def record_played(page, bidder, bid, meld, counters_of_bidder, trump="♥", taps=None, again=False):
    """Record a played hand; `again`: it is the same hand as the one recorded just before it, which is asked."""
    taps = taps or Taps(page)
    taps.tap(page.locator("#field-bidder .choice", has_text=bidder))
    taps.type(page.locator("#bid"), str(bid))
    taps.tap(page.locator("#field-trump .suit-choice", has_text=trump))
    taps.type(page.locator("#meld_0"), str(meld[0]))
    taps.type(page.locator("#meld_1"), str(meld[1]))
    bidder_team = 0 if page.locator("#field-bidder input:checked").get_attribute("value") in ("t0", "s0", "s2") else 1
    taps.type(page.locator(f"#counters_{bidder_team}"), str(counters_of_bidder))
    expect(page.locator("#preview .preview-score")).to_be_visible()
    number = int(page.locator("#expected").get_attribute("value"))
    taps.tap(page.locator("button.save-button"))
    if again:
        yes_the_same_numbers_again(page)
    # the saved sheet is in place before anything else is tapped
    expect(page.locator(f"#expected[value='{number + 1}'], .winner-card").first).to_be_attached()
    return taps
