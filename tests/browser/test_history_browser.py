"""Looking back on a phone: history, a game's chart, a player's page."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import hands_sent, no_sideways_scroll, record_played, start_game

pytestmark = pytest.mark.browser


def test_history_a_chart_and_a_players_page_on_a_phone(phone, live_server):
    start_game(phone, live_server, players=["Eve", "Fay", "Gus", "Hal"])
    record_played(phone, "Fay", 60, (10, 30), 20)  # Fay's team is set
    hands_sent(phone, phone.url, 3, bid="150", meld_0="100", counters_0="50", counters_1="0")  # Eve's, made
    phone.get_by_role("link", name="History").click()
    expect(phone.locator("section.evening").first).to_be_visible()
    no_sideways_scroll(phone)
    phone.locator(".game-item", has_text="Us").first.click()
    expect(phone.locator("svg.chart")).to_be_visible()
    assert phone.locator("svg.chart polyline").count() == 2
    assert phone.locator("svg.chart circle.set-mark").count() == 1
    box = phone.locator("svg.chart").bounding_box()
    assert box["width"] <= 390 and box["height"] > 100
    # the chart's key, each word on one line beside its mark (a swatch of the player's figures once took its
    # class and squeezed every word to a letter a line over the sheet's heading)
    keys = phone.locator(".chart-card .legend .key")
    expect(keys).to_have_count(4)
    assert keys.evaluate_all("ks => ks.filter(k => k.getBoundingClientRect().height > 1.6 * "
                             "parseFloat(getComputedStyle(k).lineHeight || 20) || k.scrollWidth > k.clientWidth + 1)"
                             ".map(k => k.textContent)") == []
    no_sideways_scroll(phone)
    phone.get_by_role("link", name="Players").click()
    phone.locator(".player-list").get_by_role("link", name=re.compile("^Eve")).click()
    expect(phone.locator("h1")).to_have_text("Eve")
    expect(phone.locator(".record-grid").first).to_contain_text("Hands bid")
    no_sideways_scroll(phone)
    assert phone.js_errors == []


def test_a_game_prints_on_one_page(phone, live_server):
    start_game(phone, live_server)
    for _ in range(3):  # Us make 150, Them make 50
        hands_sent(phone, phone.url, 1, reload=False, bid="150", meld_0="100", counters_0="50", counters_1="0")
        hands_sent(phone, phone.url, 1, reload=False, bidder="s1", bid="50", meld_1="20", counters_0="20",
                   counters_1="30")
    phone.reload()
    phone.get_by_role("link", name="Chart, printable sheet and export").click()
    expect(phone.locator("svg.chart")).to_be_visible()
    pdf = phone.pdf(format="A4")
    assert pages(pdf) == 1


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def test_page_counting_sees_more_than_one_page(phone, live_server):
    phone.goto(f"{live_server}/rules/")
    assert pages(phone.pdf(format="A4")) > 1


@pytest.mark.parametrize("width", [390, 320])
def test_the_evening_filter_shows_whole_dates(context_for, live_server, width):
    """Two date fields side by side at 320 px were 126 px wide: "mm/dd/yy" and a typed date were cut off. A
    whole date with its calendar button takes about 150 px in the page's type (looked at: 161 px shows it all)."""
    page = context_for({"width": width, "height": 844})
    page.goto(f"{live_server}/history/?from=2026-11-01&to=2026-11-24")
    for field in ("#from", "#to"):
        assert page.locator(field).bounding_box()["width"] >= 150, field
    # side by side where both fit, or one above the other: never one beside a taller label
    top = [page.locator(field).bounding_box()["y"] for field in ("#from", "#to")]
    assert top[0] == top[1] or top[1] > top[0] + 30, top
    no_sideways_scroll(page)
