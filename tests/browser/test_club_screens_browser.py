"""Club nights on the screens they are read on, measured in a real browser: phones at 390 and 320 px, where no
header, figure or name may break inside a word, and the standings wall at 1920×1080, read across a room. The
nights are made through the app's own forms, posted by the director's browser."""

import re

import pytest

from tests.browser.helpers import ARTIFACTS, PHONE, make_night, no_sideways_scroll, post, record_hand

pytestmark = pytest.mark.browser

LONG = ["Anneliese Wolkenstein-Brandenburg", "Bartholomew Featherstonehaugh"]
TWENTY_FOUR = [*LONG, "Margaret Oyelaran", "Cy Tran", *(f"Player {n}" for n in range(5, 25))]
TEAMS = [(*LONG, ""), ("Xavi", "Wanda", "The Queen of Spades Appreciation Society"), ("Zed", "Yara", ""),
         ("Vic", "Uma", ""), ("Theo", "Sal", "")]

# Every word of the element's text on one line: a word broken across two lines has two boxes.
WORDS_BROKEN = """(root) => {
  const broken = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    for (const match of node.data.matchAll(/[^\\s-]+/g)) {  // a hyphen is a place to break
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""


@pytest.fixture
def screen(context_for):
    """A browser of its own with a screen `width` wide (and `height` high), each call."""
    return lambda width, height=PHONE["height"]: context_for({"width": width, "height": height})


@pytest.mark.parametrize("width", [390, 320])
def test_on_a_phone_no_header_figure_or_name_breaks_inside_a_word(screen, live_server, width):
    page = screen(width)
    night, game = make_night(page, live_server, "partners", TEAMS)
    for address in (f"{night}/director", night, f"{night}/wall"):
        page.goto(address)
        no_sideways_scroll(page)
        for table in page.locator("table.standings").all():
            assert table.evaluate(WORDS_BROKEN) == [], address
            for cell in table.locator("th, td.num").all():  # one line each: "Points", "1,080"
                assert cell.evaluate("c => c.scrollWidth <= c.clientWidth"), (address, cell.inner_text())
        names = page.locator("table.standings td.standing-name")
        short = names.filter(has_text=re.compile(r"^Zed & Yara$"))  # a name that fits is never cut
        assert short.evaluate("c => c.scrollWidth <= c.clientWidth"), address
    page.goto(f"{night}/tables/1")  # who holds this phone: a button a name
    no_sideways_scroll(page)
    for button in page.locator(".who-am-i button").all():
        assert button.evaluate(WORDS_BROKEN) == [], button.inner_text()
        assert button.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), button.inner_text()
    page.goto(game)
    no_sideways_scroll(page)
    page.screenshot(path=str(ARTIFACTS / f"club-game-{width}.png"), full_page=True)
    for button in page.locator("#field-bidder .choice").all():
        assert button.evaluate(WORDS_BROKEN) == [], button.inner_text()
        assert button.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), button.inner_text()
    assert page.locator("#scoreboard").evaluate(WORDS_BROKEN) == []


def test_the_wall_fills_a_big_screen_in_large_type_without_the_sites_nav(screen, live_server):
    page = screen(1920, 1080)
    night, _ = make_night(page, live_server, "progressive", TWENTY_FOUR)
    page.goto(f"{night}/wall")
    assert not page.locator(".topbar").is_visible() and not page.locator(".footer").is_visible()
    rows = page.locator(".standings tbody tr")
    assert rows.count() == 24
    page.screenshot(path=str(ARTIFACTS / "club-wall-1920-whole.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080  # every line, no scrolling
    figure = page.locator(".standings td.num").first
    assert float(figure.evaluate("c => parseFloat(getComputedStyle(c).fontSize)")) >= 32
    assert figure.evaluate("c => getComputedStyle(c).fontVariantNumeric") == "tabular-nums"
    for name in LONG:  # two columns of twelve: a long name keeps its room
        cell = page.locator("td.standing-name", has_text=name)
        assert cell.evaluate("c => c.scrollWidth <= c.clientWidth"), name
    gaps = page.locator(".standings tbody tr").first.evaluate("""tr => {
        const cells = [...tr.querySelectorAll('td.num')].map(c => {
          const r = document.createRange(); r.selectNodeContents(c); return [c, r.getBoundingClientRect()]; });
        return cells.slice(1).map(([c, r], i) => r.left - cells[i][1].right); }""")
    assert min(gaps) >= 16, gaps  # room between the figures of a row
    state = page.locator(".wall-state").inner_text()
    assert re.fullmatch(r"Round 1 of 1 · still playing: tables? [\d, ]+· .*", state)
    page.screenshot(path=str(ARTIFACTS / "club-wall-1920.png"))


def test_the_partners_wall_shows_whole_team_names_while_there_is_room(screen, live_server):
    page = screen(1920, 1080)
    night, _ = make_night(page, live_server, "partners", TEAMS)
    page.goto(f"{night}/wall")
    for cell in page.locator("td.standing-name").all():
        assert cell.evaluate("c => c.scrollWidth <= c.clientWidth"), cell.inner_text()
        assert cell.evaluate("c => c.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(c).fontSize) "
                             "* 1.5"), cell.inner_text()  # on one line
    page.set_viewport_size(PHONE)
    for cell in page.locator("td.standing-name").all():  # at 390: between words, never "Xa…"
        assert cell.evaluate(WORDS_BROKEN) == []
    assert page.locator("td.standing-name", has_text="Zed").evaluate("c => c.scrollWidth <= c.clientWidth")


@pytest.mark.parametrize("typing", [True, False], ids=["a hand half typed", "nothing typed"])
def test_time_called_takes_the_form_away_at_the_table_and_says_a_half_typed_hand_was_not_recorded(
        screen, live_server, typing):
    director = screen(390)
    night, game = make_night(director, live_server, "progressive", ["Ada", "Ben", "Cleo", "Dan"],
                             end=("time", "20"), record=False)
    phone = screen(390)
    phone.goto(game)
    record_hand(phone, (40, 0), (30, 20), bidder="Ada", bid=50)  # a hand: the table is a game when time is called
    clock = phone.locator("#club-clock")
    assert re.fullmatch(r"Round 1 ends at \d\d:\d\d \(the director's clock\), or when a side reaches 500",
                        clock.inner_text())
    assert clock.bounding_box()["y"] < 200  # above the score, where the players look
    if typing:
        phone.locator("#field-bidder .choice", has_text="Ben").click()
        phone.fill("#meld_1", "40")
    director.goto(f"{night}/director")
    post(director, f"{night}/end", {})
    over = phone.locator(".round-over-card")
    over.wait_for()  # the poll brought it: nobody reloaded
    assert over.locator("h2").inner_text() == "Round 1 is over: confirm the score"
    assert phone.locator("#hand-form").count() == 0 and not clock.is_visible()
    assert "round 1 is over" in phone.locator("#live-notice").inner_text()
    note = over.locator("[data-if-typed]")
    assert note.is_visible() == typing
    phone.screenshot(path=str(ARTIFACTS / f"club-time-called-{'typed' if typing else 'fresh'}-390.png"))
    over.get_by_role("link", name="Back to your seat card").click()
    phone.wait_for_url(f"{night}/**")
