"""Every player can use Scorepad: the keyboard, a screen reader and older eyes (issue 24).

axe-core (WCAG 2.0/2.1 A and AA and best practice) on every page in light and dark at a phone's size, arrow keys
through each group of radios, Tab through the hand form and the meld calculator with every focused control in
view, no text a player reads under 14 px, and what axe does not measure: placeholders and control borders."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import expect

from tests.browser.axe import COLOUR_RULES, violations
from tests.browser.helpers import PHONE, WAIT_MS, hands_sent

pytestmark = pytest.mark.browser

PLAYED = {"kind": "played", "bidder": "s0", "bid": "50", "trump": "H", "meld_0": "20", "meld_1": "0",
          "counters_0": "30", "counters_1": "20"}
CLUB = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gil", "Hob"]


@pytest.fixture
def page(browser, pages):
    """A phone that made the games and the night (so it is the night's director)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  storage_state=pages["_phone"],
                                  bypass_csp=True)  # axe is put into the page: in the test's context only
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    yield page
    context.close()


def _token(page, live_server):
    html = page.request.get(f"{live_server}/").text()
    return BeautifulSoup(html, "html.parser").select_one("meta[name=csrf-token]")["content"]


def _post(page, live_server, path, **fields):
    response = page.request.post(f"{live_server}{path}", form={"csrf_token": _token(page, live_server), **fields},
                                 max_redirects=0)
    assert response.status in (200, 303), (path, response.status)
    return response


def _game(page, live_server, seating="2x2", preset="double-deck", **names) -> int:
    response = _post(page, live_server, "/games/new", seating=seating, preset=preset, **names)
    return int(re.search(r"/games/(\d+)", response.headers["location"])[1])


def _hand(page, live_server, game_id, **fields):
    hands_sent(page, f"{live_server}/games/{game_id}", 1, reload=False, **{**PLAYED, **fields})


@pytest.fixture(scope="module")
def pages(browser, live_server):
    """The pages a player sees, with something on them: games of 4, 6, 8 and 3 players with hands, a club night
    with a round under way, a player's record."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    four = _game(page, live_server, player_0="Ann", player_1="Ben", player_2="Cat", player_3="Dan")
    _hand(page, live_server, four)
    _hand(page, live_server, four, bidder="s1", counters_0="10", counters_1="40", meld_0="0", meld_1="20")
    eight = _game(page, live_server, seating="2x4")
    won = _game(page, live_server, hands_limit="1")
    _hand(page, live_server, won)
    three = _game(page, live_server, seating="3x1", preset="three-handed")
    # single deck, three sides: a bid of 250 at least, and the 250 counters shared by three
    _hand(page, live_server, three, bidder="s0", bid="250", meld_0="100", meld_2="0", counters_0="150",
          counters_1="60", counters_2="40")
    hand_id = re.search(r"/hands/(\d+)/edit", page.request.get(f"{live_server}/games/{four}").text())[1]
    night = re.search(r"/club/(\d+)/", _post(page, live_server, "/club/new", name="Night", kind="progressive",
                                             preset="double-deck", round_end="hands", round_size="1",
                                             rounds="2").headers["location"])[1]
    for name in CLUB:
        _post(page, live_server, f"/club/{night}/register", player_0=name)
    _post(page, live_server, f"/club/{night}/start", round="1")
    player = re.search(r"/players/(\d+)", page.request.get(f"{live_server}/players/").text())[1]
    club_game = re.search(r"/games/(\d+)", page.request.get(f"{live_server}/club/{night}/director").text())[1]
    season = re.search(r"/club/seasons/(\d+)", page.request.get(f"{live_server}/club/{night}").text())[1]
    phone = context.storage_state()
    context.close()
    return {"_phone": phone,
        "home": "/", "new game": "/games/new", "game": f"/games/{four}", "8 players": f"/games/{eight}",
        "3 players": f"/games/{three}", "edit": f"/games/{four}/hands/{hand_id}/edit",
        "delete": f"/games/{four}/hands/{hand_id}/delete", "end": f"/games/{four}/end",
        "history": "/history/", "history game": f"/history/games/{four}",
        "history hand": f"/history/games/{four}/hands/{hand_id}",
        "meld": "/meld?trump=H&cards=AH+AH+10H+KH+QH+JH+KS+QS", "players": "/players/", "player": f"/players/{player}",
        "about": "/about", "rules": "/rules", "import": "/import", "club nights": "/club/", "club new": "/club/new",
        "night": f"/club/{night}", "director": f"/club/{night}/director", "wall": f"/club/{night}/wall",
        "cards": f"/club/{night}/cards", "table": f"/club/{night}/tables/1", "won": f"/games/{won}",
        "missing": "/games/999999", "count meld": f"/games/{four}",
        "club table": f"/games/{club_game}?shows=double_pinochle&shows_team=0", "season": f"/club/seasons/{season}",
        "season wall": f"/club/seasons/{season}/wall", "prizes": f"/club/seasons/{season}/prizes",
        "night prizes": f"/club/{night}/prizes", "seasons": "/club/seasons/",
    }


PAGES = ["home", "new game", "game", "8 players", "3 players", "edit", "delete", "end", "history", "history game",
         "history hand", "meld", "players", "player", "about", "rules", "import", "club nights", "club new", "night",
         "director", "wall", "cards", "table", "won", "missing", "club table", "season", "season wall", "prizes",
         "night prizes", "seasons"]


def test_axe_finds_nothing_serious_on_any_page_light_or_dark(page, live_server, pages):
    """Every rule in light; in dark, on the same page as drawn, the rules that read colours (all the dark theme
    changes, as the next test checks)."""
    found = {}
    for name in PAGES:
        page.emulate_media(color_scheme="light")
        page.goto(live_server + pages[name])
        if v := violations(page):
            found[name] = v
        page.emulate_media(color_scheme="dark")
        if v := violations(page, rules=COLOUR_RULES):
            found[f"{name} (dark)"] = v
    assert not found, found


def test_the_dark_theme_changes_colours_only():
    """What lets the dark pages be checked by axe's colour rules alone: app.css's dark blocks set colours, nothing
    that moves, hides or names a thing. A dark block that did more would need every rule in dark again."""
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static" / "app.css").read_text()
    colour = re.compile(r"^(--[\w-]+\s*:\s*#[0-9a-fA-F]{3,8}|color\s*:\s*#[0-9a-fA-F]{3,8})$")
    blocks = [m.end() for m in re.finditer(r"@media \(prefers-color-scheme: dark\)\s*\{", css)]
    assert blocks, "no dark theme found in app.css"
    for start in blocks:
        depth, at = 1, start
        while depth:
            depth += {"{": 1, "}": -1}.get(css[at], 0)
            at += 1
        body = re.sub(r"/\*.*?\*/", "", css[start:at - 1], flags=re.S)
        declarations = [d.strip() for rule in re.findall(r"\{([^{}]*)\}", body) for d in rule.split(";")]
        assert [d for d in declarations if d and not colour.match(d)] == [], "a dark rule that is not a colour"
    assert "prefers-color-scheme" not in (Path(__file__).resolve().parents[2] / "static" / "club.css").read_text()


def light_and_dark(page) -> list[str]:
    """axe's findings on the page as it stands: every rule in light, the colour rules in dark."""
    page.emulate_media(color_scheme="light")
    found = violations(page)
    page.emulate_media(color_scheme="dark")
    return found + [f"(dark) {v}" for v in violations(page, rules=COLOUR_RULES)]


def test_axe_finds_nothing_serious_in_a_previewed_hand(page, live_server, pages):
    """The preview under a hand typed in full ("Counters add up to 50 of 50")."""
    page.goto(live_server + pages["game"])
    page.locator("#field-bidder .choice").first.click()
    page.fill("#bid", "50")
    page.fill("#meld_0", "20")
    page.fill("#meld_1", "0")
    page.fill("#counters_0", "30")
    expect(page.locator("#preview .preview-score")).to_be_visible()
    expect(page.locator("#preview")).to_contain_text("50 of 50")
    assert light_and_dark(page) == []


SMALL_TEXT = """() => {
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const text = Array.from(el.childNodes).filter(n => n.nodeType === 3).map(n => n.textContent).join("").trim();
    if (!text) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1 || !el.checkVisibility({ visibilityProperty: true })) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 14) out.push(`${text.slice(0, 30)} (${el.className || el.tagName}): ${size}px`);
  }
  return out;
}"""


def test_no_text_a_player_reads_is_under_14_px(page, live_server, pages):
    small = {}
    for name in PAGES:
        page.goto(live_server + pages[name])
        if found := page.evaluate(SMALL_TEXT):
            small[name] = found
    assert not small, small


PLACEHOLDERS_AND_EDGES = """() => {
  // the contrast of two colours, after WCAG 2; the placeholder's colour is its own (no opacity is used)
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => {
                       v /= 255; return v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4; });
                     return .2126 * r + .7152 * g + .0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + .05) / (y + .05); };
  const page = getComputedStyle(document.body).backgroundColor;
  const out = [];
  for (const el of document.querySelectorAll("input[placeholder], textarea[placeholder]")) {
    if (!el.checkVisibility()) continue;
    const style = getComputedStyle(el, "::placeholder");
    const r = ratio(style.color, getComputedStyle(el).backgroundColor);
    if (r < 4.5 || Number(style.opacity) < 1) out.push(`placeholder of ${el.name}: ${r.toFixed(2)}`);
  }
  const fields = "input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea, "
    + ".choice span, .suit-choice span";
  for (const el of document.querySelectorAll(fields)) {
    if (!el.checkVisibility()) continue;
    const r = ratio(getComputedStyle(el).borderTopColor, page);
    if (r < 3) out.push(`edge of ${el.name || el.className || el.tagName}: ${r.toFixed(2)}`);
  }
  return out;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_placeholders_read_as_text_and_fields_show_their_edges(page, live_server, pages, scheme):
    """What axe does not measure: a placeholder (the minimum bid, the counters' range) at 4.5:1, and the edge of
    a field or a choice at 3:1 against the page (WCAG 1.4.11)."""
    page.emulate_media(color_scheme=scheme)
    faint = {}
    for name in ("game", "3 players", "new game", "meld", "club new"):
        page.goto(live_server + pages[name])
        if found := page.evaluate(PLACEHOLDERS_AND_EDGES):
            faint[name] = found
    assert not faint, faint


# --- the keyboard ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["game", "edit"])
def test_arrow_keys_move_through_the_bidder_and_trump_without_leaving(page, live_server, pages, where):
    page.goto(live_server + pages[where])
    for group in ("#field-bidder", "#field-trump"):
        radios = page.locator(f"{group} input[type=radio]")
        radios.first.focus()
        page.keyboard.press("Space")
        expect(radios.first).to_be_checked()
        expect(radios.first).to_be_focused()
        for i in range(1, 3):
            page.keyboard.press("ArrowRight")
            expect(radios.nth(i)).to_be_checked()
            expect(radios.nth(i)).to_be_focused()  # still in the group: the next arrow picks the next one
        page.keyboard.press("ArrowLeft")
        expect(radios.nth(1)).to_be_focused()
    page.keyboard.press("Tab")  # on, by the player's own choice
    expect(page.locator("#field-trump input[type=radio]").nth(1)).not_to_be_focused()


def test_a_tap_on_the_bidder_still_moves_on_to_the_bid(page, live_server, pages):
    page.goto(live_server + pages["game"])
    page.locator("#field-bidder .choice").nth(1).click()
    expect(page.locator("#bid")).to_be_focused()
    page.keyboard.type("55")  # the bid's own change, as the tap on trump leaves it, does not use the tap up
    page.locator("#field-trump .suit-choice").nth(2).click()
    expect(page.locator("#meld_0")).to_be_focused()


IN_VIEW = """() => {
  // the focused control is wholly on the screen and under no sticky or fixed bar it is not part of
  const el = document.activeElement, box = el.getBoundingClientRect();
  if (box.top < 0 || box.bottom > innerHeight)
    return `${el.id || el.name || el.textContent.trim()} is off the screen `
      + `(${box.top}–${box.bottom} of ${innerHeight})`;
  for (const bar of document.querySelectorAll(".action-bar, .meld-bar, .alert, .topbar")) {
    const where = getComputedStyle(bar).position;
    if ((where !== "sticky" && where !== "fixed") || bar.contains(el)) continue;
    const b = bar.getBoundingClientRect();
    if (b.height && box.bottom > b.top && box.top < b.bottom)
      return `${el.id || el.name || el.textContent.trim().slice(0, 30)} is under ${bar.className}`;
  }
  return "";
}"""


def _tab_through(page, until, most=120):
    hidden = []
    for _ in range(most):
        page.keyboard.press("Tab")
        if problem := page.evaluate(IN_VIEW):
            hidden.append(problem)
        if page.evaluate(f"document.activeElement.matches({until!r})"):
            return hidden
    raise AssertionError(f"Tab never reached {until}")


def test_tab_through_the_hand_form_keeps_every_focused_control_in_view(page, live_server, pages):
    page.goto(live_server + pages["game"])
    page.locator("#field-bidder input").first.focus()
    assert _tab_through(page, "button.save-button") == []


def test_tab_through_the_meld_calculator_keeps_every_card_in_view(page, live_server, pages):
    page.goto(live_server + pages["meld"])
    page.locator("#meld-calc input[name=trump]").first.focus()
    assert _tab_through(page, "#meld-cards") == []


# --- names a screen reader and voice control hear ------------------------------------------------------------

@pytest.mark.parametrize("name", ["home", "game", "history game"])
def test_each_page_has_one_h1(page, live_server, pages, name):
    page.goto(live_server + pages[name])
    expect(page.get_by_role("heading", level=1)).to_have_count(1)


def test_the_score_sheet_ties_each_number_to_its_side(page, live_server, pages):
    page.goto(live_server + pages["game"])
    head = page.locator("#sheet .sheet-head")
    assert head.get_attribute("aria-hidden") is None
    first = page.locator("#sheet .hand-row").first
    # the newest hand first: Ben (team Them) bid 50 and made it; Us were set on the hand before
    expect(first).to_have_accessible_name(re.compile(r"Us: \+\d+ , total \d+ Them: \+\d+ , total \d+$"))


def test_meld_cards_are_named_by_what_they_show_first(page, live_server, pages):
    page.goto(live_server + pages["meld"])
    ace = page.locator(".card-cell[data-code=AH] button.add")
    expect(ace).to_have_accessible_name(re.compile(r"^A♥ ×2\b.*A of hearts"))
    ace.click()  # counted on the phone: the name follows
    expect(ace).to_have_accessible_name(re.compile(r"^A♥ ×3\b"))
    expect(page.locator(".card-cell[data-code=AH] button.take")).to_have_accessible_name(
        re.compile(r"^− take away one A of hearts"))
    expect(page.get_by_role("radio", name="♥ hearts")).to_be_checked()


def test_trump_choices_say_the_suit_in_words(page, live_server, pages):
    page.goto(live_server + pages["game"])
    for word in ("spades", "hearts", "diamonds", "clubs"):
        expect(page.locator("#field-trump").get_by_role("radio", name=re.compile(word))).to_have_count(1)


@pytest.mark.parametrize(("name", "labels"), [
    ("players", ["Player 1", "Player 2"]),
    ("club new", ["First", "Then"]),
    ("director", ["The link, to copy"]),
])
def test_selects_and_the_directors_link_have_a_visible_label(page, live_server, pages, name, labels):
    page.goto(live_server + pages[name])
    role = "textbox" if name == "director" else "combobox"
    for label in labels:
        expect(page.get_by_role(role, name=label, exact=True).first).to_be_visible()
        expect(page.locator("label").get_by_text(label, exact=True).first).to_be_visible()  # seen, not only heard


def test_axe_finds_nothing_serious_on_the_wall_screen_or_a_refused_hand(page, live_server, pages):
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(live_server + pages["wall"])
    assert light_and_dark(page) == []
    page.set_viewport_size(PHONE)
    page.goto(live_server + pages["game"])
    page.fill("#bid", "7")  # under the minimum: refused, with the summary of what to fix
    page.locator("button.save-button").click()
    expect(page.locator("#error-summary")).to_be_visible()
    assert light_and_dark(page) == []


def test_tab_through_the_meld_calculator_counting_for_a_team_keeps_every_card_in_view(page, live_server, pages):
    """Counting for a team, the bar carries "Use … as meld for Us" and is taller."""
    page.goto(live_server + pages["count meld"])
    page.locator(".count-button").first.click()
    # the tap shows the card at once and asks the server a moment later, whose answer swaps the bar: tabbing
    # before that answer would have the focused control swapped away under the test (focus falls to the page)
    with page.expect_response(lambda r: "/meld/" in r.url and r.request.resource_type in ("xhr", "fetch")):
        page.locator(".card-cell[data-code=AH] button.add").click()
    expect(page.locator("#meld-bar .use-button")).to_be_visible()
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    page.locator("#meld-calc input[name=trump]").first.focus()
    assert _tab_through(page, "#meld-cards") == []
    assert violations(page) == []
