"""The club night's director at a phone (390×844): the page keeps itself fresh without losing what is being
typed, the cursor comes back to the Player field, the round's length is labelled by how a round ends, the
director's link copies, and the table cards print one a page with the table's number the largest thing on it."""

import re

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import expect

from tests.browser.helpers import ARTIFACTS, PHONE, WAIT_MS, no_sideways_scroll

pytestmark = pytest.mark.browser

WIN_0 = {"kind": "played", "bidder": "s0", "bid": "50", "trump": "H", "meld_0": "20", "meld_1": "0",
         "counters_0": "30", "counters_1": "20"}


@pytest.fixture
def director(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    yield page
    context.close()


def send(page, live_server, path, **fields):
    """A form sent by this browser (its cookies, its session), as its page would send it."""
    html = page.request.get(f"{live_server}/club/").text()
    token = BeautifulSoup(html, "html.parser").select_one("meta[name=csrf-token]")["content"]
    response = page.request.post(f"{live_server}{path}", form={"csrf_token": token, **fields}, max_redirects=0)
    assert response.status in (303, 200), (path, response.status)
    return response


def new_night(page, live_server, players, **settings) -> str:
    response = send(page, live_server, "/club/new", name="Director's night", kind="progressive",
                    preset="double-deck", round_end="hands", round_size="1", rounds="2", **settings)
    night = re.search(r"/club/(\d+)/", response.headers["location"])[1]
    for name in players:
        send(page, live_server, f"/club/{night}/register", player_0=name)
    return night


def record_hand(page, live_server, game_id):
    html = page.request.get(f"{live_server}/games/{game_id}").text()
    form = BeautifulSoup(html, "html.parser").select_one("#hand-form")
    hidden = {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}
    page.request.post(f"{live_server}/games/{game_id}/hands", form={**hidden, **WIN_0}, max_redirects=0)


def game_ids(page):
    return [int(re.search(r"/games/(\d+)", a.get_attribute("href"))[1])
            for a in page.locator("#tables .club-table-line > a").all()]


def test_the_poll_refreshes_tables_and_standings_and_keeps_a_result_being_typed(director, live_server):
    night = new_night(director, live_server, ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gil", "Hob"])
    send(director, live_server, f"/club/{night}/start", round="1")
    director.goto(f"{live_server}/club/{night}/director")
    first, second = game_ids(director)
    record_hand(director, live_server, first)
    director.reload()
    director.locator("#tables details summary").first.click()
    field = director.locator("#tables form input[name=score_0]").first
    field.fill("-60")
    expect(field).to_be_focused()
    expect(director.locator("#director-standings tbody tr").first).to_contain_text("50")

    record_hand(director, live_server, second)  # another table finishes while the director types
    expect(director.locator("#tables .state-over")).to_have_count(2, timeout=12_000)
    expect(director.locator("#director-standings tbody tr").nth(2)).to_contain_text("50")
    expect(field).to_have_value("-60")
    expect(field).to_be_focused()
    expect(director.locator("#tables details").first).to_have_attribute("open", "")
    director.screenshot(path=str(ARTIFACTS / "club-director-poll-kept-typing-390.png"), full_page=True)
    director.locator("#tables form").first.get_by_role("button", name="Change it").click()
    expect(director.locator(".flash").first).to_contain_text("the result is changed")
    expect(director.locator("#tables .club-table-line").first).to_contain_text("−60")
    no_sideways_scroll(director)
    assert director.js_errors == []


def test_after_registering_the_cursor_is_back_in_the_player_field_beside_the_number(director, live_server):
    night = new_night(director, live_server, [f"Player {n}" for n in range(1, 13)])
    director.goto(f"{live_server}/club/{night}/director")
    director.fill("#player_0", "Newcomer")
    director.get_by_role("button", name="Register").click()
    expect(director.locator("#registered")).to_have_text("Registered as number 13: Newcomer.")
    expect(director.locator("#player_0")).to_be_focused()
    expect(director.locator("#registered")).to_be_in_viewport()
    director.screenshot(path=str(ARTIFACTS / "club-director-registered-390.png"))
    assert director.js_errors == []


def test_the_length_of_a_round_is_labelled_by_how_a_round_ends(director, live_server):
    director.goto(f"{live_server}/club/")
    label = director.locator("label[for=round_size]")
    expect(label).to_have_text("Hands a round")
    director.locator("#field-round_end .choice", has_text="target").click()
    expect(label).to_have_text("Target score")
    director.locator("#field-round_end .choice", has_text="clock").click()
    expect(label).to_have_text("Minutes a round")
    expect(director.locator("#round_size")).to_have_attribute("placeholder", "50")
    expect(director.locator("#round_size")).to_have_value("50")  # the untouched default follows the way


def test_the_directors_link_copies_and_the_page_fits_a_phone(director, live_server):
    night = new_night(director, live_server, ["Anneliese Wolkenstein-Brandenburg", "Bartholomew Featherstonehaugh",
                                              "Cat", "Dan"])
    director.goto(f"{live_server}/club/{night}/director")
    # the lines of each heading shown (a column a phone leaves out, and a heading's words it does not show, aside)
    lines = director.locator("#director-standings th").evaluate_all("""cells => cells
        .filter(cell => cell.offsetParent !== null)
        .map(cell => {
            let lines = 0;
            const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let text = texts.nextNode(); text; text = texts.nextNode()) {
                if (!text.textContent.trim() || text.parentElement.offsetParent === null) continue;
                const range = document.createRange(); range.selectNodeContents(text);
                lines += range.getClientRects().length;
            }
            return lines; })""")
    assert set(lines) == {1}, lines  # no heading broken mid-word beside a long name
    director.get_by_role("button", name="Copy").click()
    expect(director.locator("#director-address-said")).to_be_visible()
    expect(director.locator("img.director-qr")).to_be_visible()
    no_sideways_scroll(director)
    director.locator("#director-link").screenshot(path=str(ARTIFACTS / "club-director-link-390.png"))
    assert director.js_errors == []


def test_the_table_cards_print_one_a_page_with_the_tables_number_the_largest_thing_on_it(director, live_server):
    night = new_night(director, live_server, [f"P{n}" for n in range(1, 13)])
    director.goto(f"{live_server}/club/{night}/cards")
    expect(director.get_by_role("link", name=re.compile("the director's page"))).to_be_visible()
    printed = director.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b", printed)) == 3
    director.emulate_media(media="print")
    sizes = director.locator("#card-2").evaluate(
        "card => [...card.querySelectorAll('h2, p')].map(e => [e.className, parseFloat(getComputedStyle(e).fontSize)])")
    largest = max(sizes, key=lambda pair: pair[1])
    assert largest[0] == "table-card-number", sizes
    director.set_viewport_size({"width": 794, "height": 1123})
    director.screenshot(path=str(ARTIFACTS / "club-director-cards-print-a4.png"))
