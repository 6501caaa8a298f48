"""The bid chips beside the bid field on the narrowest phones: every preset's chips keep each number on one line,
stay tall enough to tap, and never push the page sideways."""

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import no_sideways_scroll

pytestmark = pytest.mark.browser

# (preset, the seating the new-game page offers it under): bids from 50, 250, 250 and 500.
PRESETS = [("double-deck", "2x2"), ("single-deck", "2x2"), ("three-handed", "3x1"), ("three-handed-double", "3x1")]


def chip_boxes(page) -> list[dict]:
    """Each chip's text height against one line of its font, its height and its right edge."""
    return page.evaluate("""() => [...document.querySelectorAll('.bid-chips .chip')].map(chip => {
        const range = document.createRange();
        range.selectNodeContents(chip);
        const box = chip.getBoundingClientRect();
        return {text: chip.textContent.trim(), lines: range.getClientRects().length,
                height: box.height, right: box.right,
                row: chip.parentElement.getBoundingClientRect(), scrolls:
                chip.parentElement.scrollWidth > chip.parentElement.clientWidth};
    })""")


@pytest.mark.parametrize("width", [390, 320])
@pytest.mark.parametrize(("preset", "seating"), PRESETS)
def test_every_bid_chip_keeps_its_number_on_one_line_at_a_phones_width(phone, live_server, preset, seating, width):
    phone.set_viewport_size({"width": width, "height": 844})
    phone.goto(f"{live_server}/games/new?seating={seating}")
    phone.locator(f"input[name=preset][value={preset}]").check()
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator(".bid-chips .chip").first).to_be_visible()
    chips = chip_boxes(phone)
    assert len(chips) >= 3, "a phone keeps at least the minimum bid and two more as one tap each"
    for chip in chips:
        assert chip["lines"] == 1, f"{chip['text']} wraps at {width} px"
        assert chip["height"] >= 44, f"{chip['text']} is {chip['height']} px tall: too small to tap"
        assert chip["right"] <= width and not chip["scrolls"], f"{chip['text']} runs off the row at {width} px"
    no_sideways_scroll(phone)
