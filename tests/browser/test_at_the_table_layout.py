"""At the table: the narrowest phone, text read at arm's length, colours that mean something, and paper."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import WAIT_MS, no_sideways_scroll, record_played, start_game

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}
SMALLEST_READABLE_PX = 14


@pytest.fixture
def narrow_phone(browser):
    context = browser.new_context(viewport=NARROW, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    yield page
    context.close()


def record_quickly(page, hands: int) -> None:
    """Records `hands` hands through the page's own form, sent without htmx: each one a set for its bidder, so
    the game goes on (the teams take turns bidding and lose 25 a hand between them)."""
    for i in range(hands):
        with page.expect_navigation():
            page.evaluate("""team => {
                const form = document.getElementById("hand-form");
                form.querySelector(`input[name=bidder][value=t${team}]`).checked = true;
                for (const [id, value] of [["bid", "50"], ["meld_0", "0"], ["meld_1", "0"],
                                           [`counters_${team}`, "25"], [`counters_${1 - team}`, "25"]]) {
                    form.querySelector("#" + id).value = value;
                }
                form.submit();
            }""", i % 2)
    expect(page.locator("#expected")).to_have_value(str(hands + 1))


def test_at_320_px_no_page_scrolls_sideways_and_the_record_button_keeps_to_one_line(narrow_phone, live_server):
    page = narrow_phone
    start_game(page, live_server)
    record_quickly(page, 20)
    expect(page.locator("button.save-button")).to_have_text("Record hand 21")
    no_sideways_scroll(page)
    button = page.locator("button.save-button")
    assert button.evaluate("b => b.scrollWidth <= b.clientWidth"), "the button's text is cut off"
    lines = button.evaluate("""b => { const r = document.createRange(); r.selectNodeContents(b);
                                            return r.getClientRects().length; }""")
    assert lines == 1, "'Record hand 21' wraps onto two lines"
    for name in ("Games", "History", "Players", "Meld"):
        with page.expect_navigation():  # measured on the page it opens, not on the one it leaves (seen once in CI)
            page.get_by_role("link", name=name, exact=True).click()
        no_sideways_scroll(page)
        link = page.locator(".topnav a", has_text=name)
        assert link.bounding_box()["x"] + link.bounding_box()["width"] <= NARROW["width"], f"{name} is cut off"


# Every element with its own words, visible, whose computed font size is under the readable size; and every
# text of an inline SVG whose size on the screen (its font size times the drawing's scale) is.
SMALL_TEXT = """least => {
    const small = [];
    for (const el of document.querySelectorAll("body *")) {
        const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        if (!own || !el.getClientRects().length || el.closest("[hidden], .visually-hidden, title")) continue;
        const style = getComputedStyle(el);
        if (style.visibility === "hidden" || style.display === "none") continue;
        const scale = el instanceof SVGElement && el.getScreenCTM() ? el.getScreenCTM().a : 1;
        const size = parseFloat(style.fontSize) * scale;
        if (size < least - 0.01) small.push(`${el.tagName.toLowerCase()}.${el.getAttribute("class")}`
                                            + ` ("${el.textContent.trim().slice(0, 12)}"): ${size.toFixed(1)}px`);
    }
    return small;
}"""


def small_text(page) -> list[str]:
    return sorted(set(page.evaluate(SMALL_TEXT, SMALLEST_READABLE_PX)))


def test_nothing_a_player_reads_on_the_sheet_or_the_chart_is_under_14_px(phone, live_server):
    start_game(phone, live_server, players=["Eve", "Fay", "Gus", "Hal"])
    record_played(phone, "Fay", 60, (10, 30), 20)  # set: a "set" badge and a set mark on the chart
    record_played(phone, "Eve", 150, (100, 0), 50)  # made
    assert not (small := small_text(phone)), "too small to read:\n" + "\n".join(small)
    phone.get_by_role("link", name="Chart, printable sheet and export").click()
    expect(phone.locator("svg.chart text").first).to_be_visible()
    assert not (small := small_text(phone)), "too small to read:\n" + "\n".join(small)


def colour(locator, prop="color") -> str:
    return locator.evaluate(f"e => getComputedStyle(e).{prop}")


def test_a_hand_that_gives_a_team_nothing_shows_its_zero_in_a_neutral_colour(phone, live_server):
    start_game(phone, live_server)
    record_played(phone, "Us", 50, (0, 0), 50)  # Them: no meld, no counters
    row = phone.locator("#sheet .hand-row").first
    zero, gain = row.locator(".team-1 .delta"), row.locator(".team-0 .delta")
    expect(zero).to_have_text("+0")
    assert colour(zero) != colour(gain), "+0 is coloured like a gain"
    assert colour(zero) == colour(phone.locator("#sheet .hand-row .line2").first)


def finish_a_game(page, live_server) -> None:
    start_game(page, live_server)
    for i in range(4):  # hands alike one after another would be asked about (the same hand typed twice?)
        record_played(page, "Us", 150, (100 + 5 * i, 0), 50)
    expect(page.locator(".winner-card")).to_be_visible()


@pytest.mark.parametrize("where", ["the finished game", "its history page"])
def test_a_finished_game_has_a_print_button_that_opens_the_print_dialog(phone, live_server, where):
    finish_a_game(phone, live_server)
    if where == "its history page":
        phone.get_by_role("link", name="Chart, printable sheet and export").click()
    phone.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
    phone.get_by_role("button", name="Print").click()
    assert phone.evaluate("window.printed") == 1
    assert phone.js_errors == []


def test_the_printed_sheet_has_its_date_and_a_legend_naming_both_teams_lines(phone, live_server):
    finish_a_game(phone, live_server)
    phone.get_by_role("link", name="Chart, printable sheet and export").click()
    expect(phone.locator(".legend")).to_contain_text("Us")
    phone.emulate_media(media="print")
    legend = phone.locator(".chart-card .legend")
    expect(legend).to_be_visible()
    expect(legend.locator(".key.team-0")).to_have_text("Us")
    expect(legend.locator(".key.team-1")).to_have_text("Them")
    assert colour(legend.locator(".key.team-0"), "printColorAdjust") == "exact", "the keys' colours would not print"
    date = phone.locator("time.game-date")
    expect(date).to_be_visible()
    assert re.search(r"\d", date.inner_text()), "the date has no numbers"
    expect(phone.get_by_role("button", name="Print")).to_be_hidden()


PRINTED = ["body", ".scoreboard", ".total", "#sheet .badge-made", "#sheet .delta", "#sheet .run",
           "svg.chart polyline.team-0", "svg.chart polyline.team-1", ".key.team-0", ".winner-line"]


def printed_colours(page) -> dict:
    return {sel: (colour(page.locator(sel).first), colour(page.locator(sel).first, "backgroundColor"),
                  colour(page.locator(sel).first, "stroke")) for sel in PRINTED}


def test_a_phone_in_dark_mode_prints_the_light_palette(phone, live_server):
    finish_a_game(phone, live_server)
    phone.get_by_role("link", name="Chart, printable sheet and export").click()
    phone.emulate_media(color_scheme="light", media="print")
    light = printed_colours(phone)
    phone.emulate_media(color_scheme="dark", media="print")
    assert printed_colours(phone) == light
    phone.emulate_media(color_scheme="dark", media="screen")
    assert printed_colours(phone) != light, "the test would not see the dark palette"
