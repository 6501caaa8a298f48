"""What a player does on a phone, in Playwright's words, for the browser tests to share."""

from __future__ import annotations

import re
from pathlib import Path

from bs4 import BeautifulSoup
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

# Two test workers share two cores with real servers and Chromium: a page's answer can take seconds there. An
# expectation that holds returns at once, so waiting longer only costs a failing test its time.
WAIT_MS = 15_000
PHONE = {"width": 390, "height": 844}
# A page's poll, whatever it carries after its path (a game's poll names the game it was made for: ?game=…);
# a glob's "**/live" would miss it
POLL = re.compile(r"/live(\?.*)?$")
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


def saved_and_unanswered(route, answer: str | None = None) -> None:
    """A route's handler: the request reaches the server (its 303 not followed: nobody reads the page it leads to),
    and its answer is lost (`answer`, an abort's error, as "connectionreset") or never comes. The phone giving up
    first, or its browser closed while the server answers, changes nothing of that: said nowhere (before, the
    route's error surfaced in the next test on that worker)."""
    try:
        route.fetch(max_redirects=0)
        if answer:
            route.abort(answer)
    except PlaywrightError:
        pass


def boxes_overlap(a, b) -> bool:
    """Whether two bounding boxes (Playwright's {x, y, width, height}) share any area; touching edges do not."""
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def start_game(page, live_server, preset=None, players=None, seating=None):
    # straight to the form: the home page's link to it is tested once (tests/web/test_games.py, and the proxy's
    # browser test taps it), and loading the home page before every game cost a page load each time
    page.goto(f"{live_server}/games/new")
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
    # the form is drawn before its deferred scripts have run: a tap then (on a busy worker, once) does what it does
    # without them (a bid chip nothing), and the test would measure that, not the page a player sees a moment later
    page.wait_for_load_state("domcontentloaded")


def kept_script_fetched(page) -> None:
    """Wait until a game page has all its scripts, the kept-hands one included (fetched ahead once the page is
    idle), as a phone that has lain on the table a moment has. Cut off from Scorepad before that, a phone cannot
    keep a hand: the banner says nothing was saved and the hand stays typed in the form, to record again. A test
    that takes the server away just after the page opened tests that first second, not the keeping (once, under
    four busy test workers, it did)."""
    page.wait_for_function("performance.getEntriesByType('resource')"
                           ".some((e) => /\\/static\\/kept\\.js/.test(e.name) && e.responseEnd > 0)")


def record_unless_asked(page):
    """Tap Record on a phone whose hand another phone has just recorded. Its poll (every second here) may ask
    "Hand N was just recorded on another phone" while the finger is on its way: the button then leaves the page
    under the tap, as it does at a table, and the question is the answer either way."""
    save, asked = page.locator("#record:not(.clash) button.save-button"), page.locator("#record.clash")
    expect(save.or_(asked).first).to_be_visible()
    if asked.is_visible():  # the poll asked before the finger got there: nothing to tap
        return
    try:
        save.click(timeout=4000)
    except PlaywrightTimeout:
        expect(asked).to_be_visible(timeout=1000)


def blind_poll(page):
    """The page's poll sees nothing new, so that what follows is Record's own answer, not the poll's."""
    page.route(POLL, lambda route: route.fulfill(status=304))


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


def record_hand(page, meld, counters, bidder=None, bid=None, kind=None, again=False):
    """One hand as a phone enters it: the bidder (one tap), the bid, what happened, each side's meld, and every
    side's counters but the last, which fills itself in. `again`: the same as the hand before, which is asked."""
    number = int(page.locator("#expected").get_attribute("value"))
    if bidder:
        page.locator("#field-bidder .choice", has_text=bidder).click()
        page.fill("#bid", str(bid))
    if kind:  # the rare ways a hand ends wait, folded, below the counters
        page.locator("#rare summary").click()
        page.locator("#field-kind .choice", has_text=kind).click()
    for side, value in enumerate(meld):
        page.fill(f"#meld_{side}", str(value))
    for side, value in enumerate(counters):
        page.fill(f"#counters_{side}", str(value))
    if counters:
        expect(page.locator(f"#counters_{len(meld) - 1}")).not_to_have_value("")
    page.locator("button.save-button").click()
    if again:
        yes_the_same_numbers_again(page)
    expect(page.locator(f"#expected[value='{number + 1}'], .winner-card").first).to_be_attached()


HAND = {"kind": "played", "bidder": "s0", "bid": "50", "trump": "H", "meld_0": "1000", "meld_1": "0",
        "counters_0": "30", "counters_1": "20", "meld_ok": "1"}  # a round of 1,080 points: the widest figures a night
# shows; 1,000 meld is more than one hand melds, which is asked, and meld_ok is its yes


def post(page, url, data):
    """A form sent from the page's browser, with its session and CSRF token; the answer's Location."""
    token = page.locator("meta[name=csrf-token]").get_attribute("content")
    answer = page.request.post(url, form={"csrf_token": token, **data}, max_redirects=0)
    assert answer.status in (302, 303), (url, answer.status, answer.text())
    return answer.headers["location"]


def hands_sent(page, game_url, count, reload=True, **fields):
    """`count` hands recorded by the phone's browser session without its page (the form's own hidden fields, the
    played hand HAND without its 1,000 meld and with `fields` over it, asked nothing again): the hands a test needs
    before the one it is about, for a fraction of typing them. The page is reloaded after (`reload`), as the poll
    would bring them."""
    for _ in range(count):
        form = BeautifulSoup(page.request.get(game_url).text(), "html.parser").select_one("#hand-form")
        hidden = {field["name"]: field.get("value", "") for field in form.select("input[type=hidden]")}
        answer = page.request.post(f"{game_url}/hands", max_redirects=0,
                                   form={**hidden, **HAND, "meld_0": "0", "repeat": "1", **fields})
        assert answer.status == 303, (answer.status, answer.text()[:300])
    if reload:
        page.reload()


def make_night(page, live_server, kind, entrants, end=("hands", "4"), record=True):
    """A night of `entrants`, round 1 started and (`record`) one hand recorded at table 1; returns the night's
    address and table 1's game's."""
    page.goto(f"{live_server}/club/")
    director = post(page, f"{live_server}/club/new", {"name": "Tuesday club", "kind": kind, "preset": "double-deck",
                                                      "round_end": end[0], "round_size": end[1], "rounds": "1"})
    night = re.search(r"/club/(\d+)/", director)[0].rstrip("/")
    page.goto(live_server + director)
    for entrant in entrants:
        names = dict(zip(("player_0", "player_1", "team"), entrant, strict=False)) if kind == "partners" else {
            "player_0": entrant}
        post(page, f"{live_server}{night}/register", names)
    post(page, f"{live_server}{night}/start", {})
    page.goto(f"{live_server}{night}/director")
    game = page.locator("#tables .game-item").first.get_attribute("href")
    page.goto(live_server + game)
    if record:
        hidden = {name: page.locator(f"#hand-form input[name={name}]").get_attribute("value")
                  for name in ("token", "expected")}
        post(page, f"{live_server}{game}/hands", {**hidden, **HAND})
    return live_server + night, live_server + game
