"""A whole game played through a reverse proxy at a sub-path, in Chromium at a phone's size: a NAS's web station at
/scorepad/ and Home Assistant's ingress, whose page shows Scorepad in a frame. Two phones follow each other, a
hand typed on both is asked about, the meld calculator goes and comes back, a hand kept while the Wi-Fi is down is
sent by itself, and the game is won; the proxy notes every request outside its prefix, and there is none."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import ARTIFACTS, no_sideways_scroll, record_played, start_game
from tests.browser.proxy import ReverseProxy, home_assistant, web_station
from tests.helpers import serving

pytestmark = pytest.mark.browser

TOKEN = "Wr7Ds_0-XqTw3lS9"
# what a browser logs while its network is cut (htmx's own notes of the failed requests, and the failed loads), and
# a poll cut short by leaving the page
OFFLINE = re.compile(r"ERR_INTERNET_DISCONNECTED|^htmx:(afterRequest|sendError|sendAbort), \[object HTML").search


@pytest.fixture(scope="module")
def behind_proxies(tmp_path_factory):
    """Scorepad on a loopback port of its own that believes proxy headers from this machine only."""
    from waitress.server import create_server

    from scorepad import create_app

    folder = tmp_path_factory.mktemp("proxied")
    app = create_app({"SECRET_KEY": "browser-tests", "DATABASE": str(folder / "scorepad.db"),
                      "TRUSTED_PROXIES": "127.0.0.1"})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    with serving(server):
        yield f"127.0.0.1:{server.effective_port}"


@pytest.fixture
def station(behind_proxies):
    proxy = ReverseProxy(behind_proxies, "/scorepad", web_station)
    yield proxy
    proxy.close()


@pytest.fixture
def ingress(behind_proxies):
    """Home Assistant: its page at / shows the add-on in a frame, at /api/hassio_ingress/<token>/."""
    page = (f'<!doctype html><title>Home Assistant</title><link rel="icon" href="data:,"><body style="margin:0">'
            f'<iframe id="addon" src="/api/hassio_ingress/{TOKEN}/" title="Scorepad" '
            f'style="border:0;width:100%;height:100vh"></iframe>')
    proxy = ReverseProxy(behind_proxies, f"/api/hassio_ingress/{TOKEN}", home_assistant(TOKEN), pages={"/": page})
    yield proxy
    proxy.close()


def test_a_whole_game_through_a_web_station_at_a_sub_path(phone, other_phone, station):
    start_game(phone, station.url, players=["Ann", "Bob", "Cat", "Dan"])
    assert phone.url.startswith(f"{station.url}/games/")
    other_phone.goto(phone.url)
    # hand 1 on one phone, typed on the other too: the other phone's poll brings it, and its script asks
    other_phone.locator("#field-bidder .choice", has_text="Ann").click()  # the meld is in, the hand being played
    other_phone.fill("#bid", "60")
    other_phone.fill("#meld_0", "30")
    other_phone.fill("#meld_1", "12")
    record_played(phone, "Ann", 55, (30, 12), 28)
    question = other_phone.locator("#record.clash")
    expect(question.locator("h2")).to_have_text("Hand 1 was just recorded on another phone")
    other_phone.get_by_role("button", name="Mine is the next hand: go on with it as hand 2").click()
    other_phone.fill("#counters_0", "30")
    other_phone.fill("#counters_1", "20")
    other_phone.locator("button.save-button").click()
    expect(other_phone.locator("button.save-button")).to_have_text("Record hand 3")
    expect(phone.locator("#expected")).to_have_value("3")  # followed by itself
    # Count cards: the calculator and back, under the prefix
    phone.locator("#field-bidder .choice", has_text="Ann").click()
    phone.fill("#bid", "50")
    phone.locator(".count-button").first.click()
    phone.locator("#meld-calc textarea[name=cards]").fill("KS QS")
    phone.locator("#meld-calc").get_by_role("button", name="Count").click()
    assert phone.url.startswith(f"{station.url}/meld/")
    phone.get_by_role("button", name="Use 4 as meld for Us").click()
    expect(phone.locator("#meld_0")).to_have_value("4")
    phone.fill("#meld_1", "0")
    phone.fill("#counters_0", "46")
    phone.locator("button.save-button").click()
    expect(phone.locator("#expected")).to_have_value("4")
    # the Wi-Fi drops: the hand is kept on the phone and goes by itself when it is back
    phone.context.set_offline(True)
    phone.locator("#field-bidder .choice", has_text="Ann").click()
    phone.fill("#bid", "60")
    for field, value in (("#meld_0", "40"), ("#meld_1", "12"), ("#counters_0", "30"), ("#counters_1", "20")):
        phone.fill(field, value)
    phone.locator("button.save-button").click()
    expect(phone.locator("#outbox")).to_contain_text("kept on this phone")
    phone.context.set_offline(False)
    expect(phone.locator("#outbox")).to_have_count(0, timeout=20_000)
    expect(phone.locator("#expected")).to_have_value("5")
    record_played(phone, "Ann", 50, (400, 0), 50)  # and the game is won
    for page in (phone, other_phone):
        expect(page.locator(".winner-card h2")).to_have_text("We won the game")
    phone.get_by_role("link", name="History").click()
    expect(phone.locator("section.evening")).to_have_count(1)
    no_sideways_scroll(phone)
    assert station.outside == [] and station.passed > 20
    assert [e for e in phone.js_errors if not OFFLINE(e)] == []  # none but what the cut Wi-Fi caused


def test_a_game_in_home_assistants_frame_through_its_ingress(phone, ingress):
    phone.goto(ingress.origin + "/")
    frame = phone.frame_locator("#addon")
    frame.get_by_role("link", name="New game").click()
    frame.get_by_role("button", name="Start the game").click()
    expect(frame.locator("#hand-form")).to_be_visible()
    frame.locator("#field-bidder .choice", has_text="Us").click()
    frame.locator("#bid").fill("50")
    frame.locator("#meld_0").fill("460")
    frame.locator("#meld_1").fill("0")
    frame.locator("#counters_0").fill("50")
    frame.locator("button.save-button").click()
    expect(frame.locator(".winner-card h2")).to_have_text("We won the game")
    phone.screenshot(path=str(ARTIFACTS / "home-assistant-ingress.png"))
    [addon] = [f for f in phone.frames if f.name or f.url.startswith(ingress.url)][-1:]
    assert addon.url.startswith(f"{ingress.url}/games/")
    assert ingress.outside == []
    assert phone.js_errors == []
