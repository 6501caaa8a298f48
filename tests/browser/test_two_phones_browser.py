"""Two phones at 390×844, one hand: a hand is never recorded twice, never lost between taps, never lost to the
Wi-Fi. Each phone is a browser context of its own (its own cookies and its own localStorage)."""

from __future__ import annotations

import threading
import time

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import ARTIFACTS, PHONE, POLL, WAIT_MS, kept_script_fetched, record_unless_asked, start_game

pytestmark = pytest.mark.browser


def type_hand(page, bidder="Us", bid="55", meld=("30", "12"), counters=("28", "22")):
    page.locator("#field-bidder .choice", has_text=bidder).click()
    page.fill("#bid", bid)
    page.fill("#meld_0", meld[0])
    page.fill("#meld_1", meld[1])
    if counters:
        page.fill("#counters_0", counters[0])
        page.fill("#counters_1", counters[1])
        expect(page.locator("#preview .preview-score")).to_be_visible()


def sheet_numbers(page) -> list[str]:
    """The hands on the sheet, as a fresh page shows them (newest first)."""
    return page.locator(".hands details .num").all_inner_texts()


def stored_hands(browser, url) -> list[str]:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(url)
    summaries = page.locator(".hands details summary").all_inner_texts()
    context.close()
    return summaries


# --- the same hand on two phones ---------------------------------------------------------------------------

@pytest.mark.parametrize("delay", [0.0, 0.3, "poll"], ids=["together", "0.3 s apart", "after a poll"])
@pytest.mark.parametrize("first", ["A", "B"])
def test_the_same_hand_typed_on_two_phones_is_stored_once(browser, phone, other_phone, live_server, delay, first):
    start_game(phone, live_server)
    other_phone.goto(phone.url)
    type_hand(phone)
    type_hand(other_phone)
    a, b = (phone, other_phone) if first == "A" else (other_phone, phone)
    a.locator("button.save-button").click()
    if delay == "poll":  # the other phone's poll brings the hand first: it asks before its Record is tapped
        expect(b.locator("#record.clash")).to_be_visible()
    elif delay:
        time.sleep(delay)
    record_unless_asked(b)
    expect(b.locator("#record.clash h2")).to_have_text("Hand 1 was just recorded on another phone")
    expect(a.locator("#expected")).to_have_value("2")
    assert len(stored_hands(browser, phone.url)) == 1
    # "same hand": nothing more is stored, and the phone is ready for hand 2
    b.get_by_role("link", name="Same hand: discard mine").click()
    expect(b.locator("button.save-button")).to_have_text("Record hand 2")
    expect(b.locator("#bid")).to_have_value("")
    b.reload()
    expect(b.locator("#draft-note")).to_have_count(0)  # the draft went with the answer
    assert len(stored_hands(browser, phone.url)) == 1


def test_a_form_being_typed_is_asked_about_when_the_poll_brings_its_hand(browser, phone, other_phone, live_server):
    start_game(phone, live_server)
    other_phone.goto(phone.url)
    type_hand(other_phone, bid="60", counters=None)  # the meld is in, the hand is being played
    type_hand(phone)
    phone.locator("button.save-button").click()
    question = other_phone.locator("#record.clash")
    expect(question.locator("h2")).to_have_text("Hand 1 was just recorded on another phone")
    # the counters not typed here yet are the other phone's: only the bid would change
    expect(question.locator("tr.differs th")).to_have_text(["Bid"])
    expect(question.locator("#clash-filled")).to_be_visible()
    # the news that the hand came is given (it stays for a few seconds), but nothing floats over the question
    notice = other_phone.locator("#live-notice")
    expect(notice).to_contain_text("Updated from another phone")
    # (shown, whether or not its few seconds are over by now: it is not drawn while the question is asked)
    assert notice.evaluate("n => { n.hidden = false; return getComputedStyle(n).display; }") == "none"
    other_phone.screenshot(path=str(ARTIFACTS / "two-phones-question.png"))
    # "mine is the next hand": still being played, it goes back into the form as hand 2, nothing lost
    other_phone.get_by_role("button", name="Mine is the next hand: go on with it as hand 2").click()
    expect(other_phone.locator("#record.clash")).to_have_count(0)
    expect(other_phone.locator("button.save-button")).to_have_text("Record hand 2")
    expect(other_phone.locator("#bid")).to_have_value("60")
    expect(other_phone.locator("#meld_0")).to_have_value("30")
    other_phone.reload()  # and its draft is hand 2's now
    expect(other_phone.locator("#bid")).to_have_value("60")
    other_phone.fill("#counters_0", "30")
    other_phone.fill("#counters_1", "20")
    other_phone.locator("button.save-button").click()
    expect(other_phone.locator("button.save-button")).to_have_text("Record hand 3")
    assert len(stored_hands(browser, phone.url)) == 2


def test_mine_is_right_changes_the_recorded_hand_and_keeps_the_edit(browser, phone, other_phone, live_server):
    start_game(phone, live_server)
    other_phone.goto(phone.url)
    type_hand(phone)
    type_hand(other_phone, counters=("30", "20"))
    phone.locator("button.save-button").click()
    expect(phone.locator("#expected")).to_have_value("2")
    record_unless_asked(other_phone)
    other_phone.get_by_role("button", name="Same hand, mine is right: change hand 1 to mine").click()
    expect(other_phone.locator("button.save-button")).to_have_text("Record hand 2")
    assert len(stored_hands(browser, phone.url)) == 1
    expect(phone.locator("#total-0")).to_have_text("60")  # 30 meld + 30 counters, not 28


def test_undo_goes_from_a_phone_once_another_phone_has_recorded_the_next_hand(browser, phone, other_phone,
                                                                             live_server):
    """"Hand 1 recorded … Undo" offers to take back the last hand; once the other phone records hand 2, the poll's
    sheet ends with that hand and the offer goes (Scorepad would refuse it); the words stay."""
    start_game(phone, live_server)
    other_phone.goto(phone.url)
    type_hand(phone)
    phone.locator("button.save-button").click()
    expect(phone.locator("#saved .undo-button")).to_have_count(1)
    expect(other_phone.locator("#expected")).to_have_value("2")  # its poll brought hand 1
    type_hand(other_phone, bid="60", counters=("30", "20"))
    other_phone.locator("button.save-button").click()
    expect(other_phone.locator("#saved .undo-button")).to_have_count(1)
    expect(phone.locator("#expected")).to_have_value("3")  # the poll brought hand 2
    expect(phone.locator("#saved .undo-button")).to_be_hidden()
    expect(phone.locator("#saved")).to_contain_text("Hand 1 recorded")
    expect(other_phone.locator("#saved .undo-button")).to_be_visible()  # hand 2 is still the last: its Undo stays


def test_mine_is_right_after_the_other_phone_undid_its_hand_keeps_what_was_typed(browser, phone, other_phone,
                                                                                  live_server):
    start_game(phone, live_server)
    other_phone.goto(phone.url)
    type_hand(phone)
    type_hand(other_phone, bid="60", counters=("30", "20"))
    phone.locator("button.save-button").click()
    expect(phone.locator("#expected")).to_have_value("2")
    record_unless_asked(other_phone)
    mine = other_phone.get_by_role("button", name="Same hand, mine is right: change hand 1 to mine")
    expect(mine).to_be_visible()
    phone.locator(".undo-button").click()  # the first phone takes its hand back meanwhile
    expect(phone.locator("#expected")).to_have_value("1")
    mine.click()
    expect(other_phone.locator("#form-message")).to_contain_text("your change was NOT saved")
    expect(other_phone.locator("#carried-note")).to_contain_text("record it as hand 1 if it was played")
    assert typed_values(other_phone) == {"bid": "60", "meld_0": "30", "meld_1": "12", "counters_0": "30"}
    other_phone.screenshot(path=str(ARTIFACTS / "two-phones-undone-mine-kept.png"))
    other_phone.locator("button.save-button").click()
    expect(other_phone.locator("#expected")).to_have_value("2")
    expect(other_phone.locator("#total-0")).to_have_text("60")  # 30 meld + 30 counters: the hand typed here
    assert len(stored_hands(browser, phone.url)) == 1


# --- a hand lost between taps ------------------------------------------------------------------------------

def typed_values(page) -> dict:
    return {name: page.locator(f"#{name}").input_value() for name in ("bid", "meld_0", "meld_1", "counters_0")}


def test_a_half_typed_hand_survives_a_reload_history_the_meld_calculator_and_a_closed_tab(browser, phone,
                                                                                          live_server):
    start_game(phone, live_server)
    game_url = phone.url
    type_hand(phone, counters=None)
    typed = typed_values(phone)

    def put_back():
        note = phone.locator("#draft-note")
        expect(note).to_contain_text("What you had typed for hand 1 is back in the form")
        assert typed_values(phone) == typed
        expect(phone.locator("#field-bidder input[value=t0]")).to_be_checked()

    phone.reload()
    put_back()
    phone.screenshot(path=str(ARTIFACTS / "two-phones-restored-draft.png"))
    phone.goto(f"{live_server}/history")
    phone.go_back()
    put_back()
    phone.locator(".count-button").first.click()
    expect(phone.locator("h1")).to_contain_text("Meld calculator")
    phone.go_back()
    put_back()
    phone.locator(".count-button").first.click()
    phone.get_by_role("link", name="← Back to hand 1").click()
    expect(phone.locator("#bid")).to_have_value("55")
    # a closed and reopened tab: a new page of the same phone
    context = phone.context
    phone.close()
    again = context.new_page()
    again.goto(game_url)
    expect(again.locator("#draft-note")).to_contain_text("What you had typed for hand 1 is back in the form")
    expect(again.locator("#bid")).to_have_value("55")
    # once saved, it is gone
    again.fill("#counters_0", "28")
    again.fill("#counters_1", "22")
    again.locator("button.save-button").click()
    expect(again.locator("#expected")).to_have_value("2")
    again.reload()
    expect(again.locator("#draft-note")).to_have_count(0)
    expect(again.locator("#bid")).to_have_value("")


def test_clear_empties_the_put_back_hand(phone, live_server):
    start_game(phone, live_server)
    type_hand(phone, counters=None)
    phone.reload()
    phone.locator("#draft-note").get_by_role("button", name="Clear the form").click()
    expect(phone.locator("#bid")).to_have_value("")
    phone.reload()
    expect(phone.locator("#draft-note")).to_have_count(0)


# --- a hand lost to the Wi-Fi ------------------------------------------------------------------------------

def record_three_while_unreachable(page):
    for n, (bid, counters) in enumerate([("55", ("28", "22")), ("60", ("40", "10")), ("65", ("10", "40"))], 1):
        expect(page.locator("#expected")).to_have_value(str(n))
        _type_fast(page, bid, counters)  # no preview: Scorepad cannot be reached
        page.locator("button.save-button").click()
        expect(page.locator("#outbox")).to_contain_text("kept on this phone")
        expect(page.locator("#expected")).to_have_value(str(n + 1))
    expect(page.locator("#outbox")).to_contain_text("Hands 1, 2 and 3 are kept on this phone and will be saved, in "
                                                    "order, when Scorepad can be reached.")
    expect(page.locator("#sheet .waiting-hand")).to_have_count(3)


def _type_fast(page, bid, counters):
    page.locator("#field-bidder .choice", has_text="Us").click()
    page.fill("#bid", bid)
    page.fill("#meld_0", "30")
    page.fill("#meld_1", "12")
    page.fill("#counters_0", counters[0])
    page.fill("#counters_1", counters[1])


def test_hands_saved_with_the_network_cut_land_once_and_in_order_when_it_comes_back(browser, phone, live_server):
    start_game(phone, live_server)
    phone.context.set_offline(True)
    record_three_while_unreachable(phone)
    phone.screenshot(path=str(ARTIFACTS / "two-phones-waiting-hand.png"), full_page=True)
    phone.context.set_offline(False)
    expect(phone.locator("#outbox")).to_have_count(0, timeout=20_000)
    expect(phone.locator("#sheet .waiting-hand")).to_have_count(0)
    # the kept card went and the totals changed: the phone says why, as it says a save
    expect(phone.locator("#saved")).to_have_text("Hand 3 is saved: it was kept on this phone, and is on the sheet now.")
    hands = stored_hands(browser, phone.url)
    assert [h.split("\n")[0] for h in hands] == ["3", "2", "1"]
    assert ["65" in hands[0], "60" in hands[1], "55" in hands[2]] == [True] * 3


class RestartableServer:
    """Scorepad on a fixed loopback port that a test can stop and start again (a Pi rebooting)."""

    def __init__(self, folder):
        from scorepad import create_app

        self.app = create_app({"SECRET_KEY": "browser-tests", "DATABASE": str(folder / "scorepad.db")})
        self.port = None
        self.start()

    def start(self):
        from waitress.server import create_server

        self.server = create_server(self.app, host="127.0.0.1", port=self.port or 0, threads=4)
        self.port = self.server.effective_port
        self.stopping = False
        self.thread = threading.Thread(target=self._serve, args=(self.server,), daemon=True)
        self.thread.start()

    def _serve(self, server):
        try:
            server.run()
        except OSError:  # a socket closed under the loop's select: the stop below, not a fault
            if not self.stopping:
                raise

    def stop(self):
        """Down as a rebooting Pi is: no new connection, and the phone's kept-alive ones cut too."""
        self.stopping = True
        self.server.close()
        for channel in list(self.server._map.values()):
            channel.close()
        self.server.task_dispatcher.shutdown()
        self.thread.join(timeout=5)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def rebooting_server(tmp_path):
    server = RestartableServer(tmp_path)
    yield server
    server.stop()


def test_hands_saved_while_the_server_is_down_land_once_and_in_order_when_it_is_back(browser, phone,
                                                                                    rebooting_server):
    start_game(phone, rebooting_server.url)
    kept_script_fetched(phone)
    rebooting_server.stop()
    record_three_while_unreachable(phone)
    rebooting_server.start()
    expect(phone.locator("#outbox")).to_have_count(0, timeout=40_000)
    hands = stored_hands(browser, phone.url)
    assert [h.split("\n")[0] for h in hands] == ["3", "2", "1"]


def test_a_kept_hand_goes_when_the_page_is_next_opened(browser, phone, live_server):
    start_game(phone, live_server)
    game_url = phone.url
    phone.context.set_offline(True)
    _type_fast(phone, "55", ("28", "22"))
    phone.locator("button.save-button").click()
    expect(phone.locator("#outbox")).to_contain_text("Hand 1 is kept on this phone")
    context = phone.context
    phone.close()
    context.set_offline(False)
    again = context.new_page()
    again.goto(game_url)
    expect(again.locator("#outbox")).to_have_count(0)
    assert len(stored_hands(browser, game_url)) == 1


# --- where the eye is --------------------------------------------------------------------------------------

KEYBOARD = 330  # an iPhone's keyboard: the page keeps its height, the part of it that shows is 330 px shorter


def keyboard_up(page):
    page.evaluate(f"""() => {{
        Object.defineProperty(visualViewport, "height", {{get: () => innerHeight - {KEYBOARD}, configurable: true}});
        visualViewport.dispatchEvent(new Event("resize"));
    }}""")


def box_of(locator) -> dict:
    """Where `locator` is on the screen, once it is there: the result line is swapped in again with each preview
    (a loaded machine's last answer can land between seeing the line and measuring it)."""
    for _ in range(3):
        expect(locator).to_be_visible()
        box = locator.bounding_box()
        if box is not None:
            return box
    raise AssertionError(f"{locator} never stayed on the screen long enough to be measured")


def assert_result_line_in_view_above_the_save_button(page, seen: str):
    line = page.locator("#preview-line")
    expect(line).to_contain_text(seen)
    for keyboard in (0, KEYBOARD):
        if keyboard:
            keyboard_up(page)
        box, save = box_of(line), box_of(page.locator("button.save-button"))
        assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"] - keyboard, (keyboard, box)
        assert box["y"] + box["height"] <= save["y"] + 1, (box, save)


@pytest.mark.parametrize("seating", [None, "3 players, each for themselves", "6 players, two teams of three",
                                     "6 players, three partnerships"])
def test_the_result_line_is_in_view_above_record_keyboard_up_or_down(phone, live_server, seating):
    start_game(phone, live_server, seating=seating)
    phone.locator("#field-bidder .choice").first.click()  # the bid left blank: the minimum
    phone.locator("#meld_0").fill("20")
    points = phone.locator("#hand-form").get_attribute("data-hand-points")
    counters = phone.locator("input[name^=counters_]")
    for i in range(counters.count()):  # the bidder takes every counter
        counters.nth(i).click()
        counters.nth(i).fill(points if i == 0 else "0")
    assert_result_line_in_view_above_the_save_button(phone, "→")


def test_an_automatic_throw_in_is_seen_in_the_result_line_before_saving(phone, live_server):
    start_game(phone, live_server, preset="single-deck")
    phone.locator("#field-bidder .choice").first.click()
    phone.fill("#bid", "400")
    phone.locator("#meld_0").click()
    phone.locator("#meld_0").fill("100")
    assert_result_line_in_view_above_the_save_button(phone, "−400")


def test_an_edit_has_the_result_line_and_count_cards_as_recording_has(phone, live_server):
    start_game(phone, live_server)
    type_hand(phone)
    phone.locator("button.save-button").click()
    expect(phone.locator("#expected")).to_have_value("2")
    phone.goto(phone.url.split("#")[0].rstrip("/") + "/hands/" +
               phone.locator(".hands details").first.get_attribute("id").split("-")[1] + "/edit")
    expect(phone.locator(".count-button").first).to_be_visible()
    phone.locator("#counters_0").click()
    phone.fill("#counters_0", "20")
    phone.fill("#counters_1", "30")
    assert_result_line_in_view_above_the_save_button(phone, "−55")


def test_a_rematch_started_on_one_phone_is_followed_by_the_other(phone, other_phone, live_server):
    start_game(phone, live_server, preset="double-deck")
    game = phone.url
    other_phone.goto(game)
    for meld in ("250", "240"):  # two bids of 250 made with that meld and every counter: 590, the game
        type_hand(phone, bid="250", meld=(meld, "0"), counters=("50", "0"))
        phone.locator("button.save-button").click()
        expect(phone.locator("#saved, .winner-card").first).to_be_visible()
    expect(other_phone.locator(".winner-card")).to_be_visible()  # the poll brought the win
    phone.get_by_role("button", name="Rematch: same teams, next dealer").click()
    expect(phone.locator("#hand-form")).to_be_visible()
    rematch = phone.url
    assert rematch != game
    # by the poll, without a tap: the other phone goes on to the rematch, and says so once (the README's promise)
    expect(other_phone).to_have_url(rematch)
    expect(other_phone.locator("#saved")).to_contain_text("The rematch was started on another phone")


def test_a_hand_opened_on_one_phone_stays_open_when_the_other_records_one(phone, other_phone, live_server):
    """Looking at a hand's details (to check it, or on the way to Edit) while the other phone records: the poll
    brings the new sheet, and the hand being looked at is not shut under the finger."""
    start_game(phone, live_server)
    type_hand(phone)
    phone.locator("button.save-button").click()
    expect(phone.locator("#saved")).to_contain_text("Hand 1 recorded")
    other_phone.goto(phone.url)
    first = phone.locator(".hands details").last  # the sheet is newest first
    first.locator("summary").click()
    expect(first.get_by_role("link", name="Edit")).to_be_visible()
    type_hand(other_phone, bidder="Them")
    other_phone.locator("button.save-button").click()
    expect(other_phone.locator("#saved")).to_contain_text("Hand 2 recorded")
    expect(phone.locator(".hands details")).to_have_count(2)  # the poll's sheet
    expect(first.get_by_role("link", name="Edit")).to_be_visible()
    expect(phone.locator(".hands details").first).not_to_have_attribute("open", "")  # only the one opened


def test_a_polls_late_answer_never_takes_back_what_the_page_has_shown_since(phone, other_phone, live_server):
    """A poll sent before this phone's own change drew the page, and answered after it, speaks of the game as it
    was then: its answer is dropped (the next poll brings whatever is newer), never swapped in over the newer page.
    Here the poll carries the sheet with hand 1 while the page shows the question about hand 1 beside hands 1 and 2."""
    start_game(phone, live_server)
    other_phone.goto(phone.url)
    mode, held, later = ["blind"], [], []

    def poll(route):
        if mode[0] == "blind":  # nothing new, as far as this phone hears
            route.fulfill(status=304)
        elif mode[0] == "hold":  # answered now by Scorepad, delivered when the test says
            held.append((route, route.fetch()))
            mode[0] = "silent"
        else:
            later.append(route)

    phone.route(POLL, poll)
    type_hand(other_phone, counters=("30", "20"))
    other_phone.locator("button.save-button").click()
    expect(other_phone.locator("#expected")).to_have_value("2")
    mode[0] = "hold"
    heard_by(phone, held)
    assert held[0][1].status == 200  # the sheet with hand 1, held on its way
    type_hand(other_phone, bidder="Them", counters=("20", "30"))
    other_phone.locator("button.save-button").click()
    expect(other_phone.locator("#expected")).to_have_value("3")
    type_hand(phone)
    phone.locator("button.save-button").click()  # hand 1 here: the question, beside the sheet as it is now
    expect(phone.locator("#record.clash h2")).to_have_text("Hand 1 was just recorded on another phone")
    expect(phone.locator("#sheet details.hand")).to_have_count(2)
    route, answer = held[0]
    route.fulfill(response=answer)
    heard_by(phone, later)  # the next poll is on its way: the late answer was heard
    expect(phone.locator("#sheet details.hand")).to_have_count(2)
    expect(phone.locator("#record.clash h2")).to_have_text("Hand 1 was just recorded on another phone")
    mode[0] = "blind"
    for route in later:
        route.fulfill(status=304)


def heard_by(page, routes: list, within_ms: int = WAIT_MS) -> None:
    """Until a request reached the route that lists them (its handler runs while the page is waited on)."""
    for _ in range(within_ms // 50):
        if routes:
            return
        page.wait_for_timeout(50)
    raise AssertionError("no poll came")
