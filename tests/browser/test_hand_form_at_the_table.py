"""The hand form as a tap answers it at 390×844: a refusal seen where the eye is, a save said and undoable, the
players in one place all game, the common path on one screen, the Record bar above the keyboard, few taps."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, Taps, start_game

pytestmark = pytest.mark.browser

SEATED = ["Ann", "Bob", "Cat", "Dan"]


def in_view(page, selector: str) -> bool:
    """Whether the element is wholly on the screen, not behind the Record bar (when it is not in that bar)."""
    return page.locator(selector).evaluate("""el => {
        const box = el.getBoundingClientRect();
        const bar = document.querySelector("#hand-form .action-bar");
        const floor = bar && !bar.contains(el) ? bar.getBoundingClientRect().top : innerHeight;
        return box.top >= 0 && box.bottom <= Math.min(floor, innerHeight) + 0.5;
    }""")


def refuse_meld(page, them: str) -> None:
    """A hand refused for Us's meld ("abc"), Them's typed as `them`."""
    page.locator("#field-bidder .choice", has_text="Us").click()
    page.fill("#meld_0", "abc")
    page.fill("#meld_1", them)
    page.fill("#counters_0", "30")
    page.locator("button.save-button").click()


def refuse_counters(page) -> None:
    page.locator("#field-bidder .choice", has_text="Us").click()
    page.fill("#counters_0", "30")
    page.fill("#counters_1", "25")
    page.locator("button.save-button").click()


def test_a_refused_save_names_the_problem_at_the_top_and_puts_the_cursor_on_the_wrong_field(phone, live_server):
    start_game(phone, live_server)
    refuse_counters(phone)
    summary = phone.locator("#error-summary")
    expect(summary).to_contain_text("Hand 1 was not saved")
    expect(summary).to_contain_text("Counters must add up to 50; these add up to 55.")
    expect(phone.locator("#counters_0")).to_be_focused()
    assert in_view(phone, "#error-summary") and in_view(phone, "#counters_0")
    assert phone.locator("#counters_1").input_value() == "25"
    expect(phone.locator("#total-0")).to_have_text("0")
    assert [e for e in phone.js_errors if "status of 422" not in e] == []  # the browser logs the answer's status


def test_after_a_refusal_each_box_s_line_and_the_list_follow_the_typing(phone, live_server):
    """A box fixed after a refused save kept its red line (and its item in the list) while the preview already
    scored the hand; a box typed wrong since was said only in the preview."""
    start_game(phone, live_server)
    refuse_meld(phone, "-5")
    summary = phone.locator("#error-summary")
    expect(summary).to_contain_text("2 things to fix")
    phone.fill("#meld_0", "20")
    expect(phone.locator("#meld_0-error")).to_have_count(0)
    expect(phone.locator("#meld_0")).not_to_have_attribute("aria-invalid", "true")
    expect(summary).to_contain_text("one thing to fix")
    expect(summary.locator("li")).to_have_text(["Them meld can't be negative."])
    phone.fill("#bid", "62")  # a new mistake, typed after the refusal: said under its box and in the list
    expect(phone.locator("#bid-error")).to_have_text("Bids from 60 go up in steps of 5: 60 or 65, not 62.")
    expect(phone.locator("#bid")).to_have_attribute("aria-invalid", "true")
    expect(summary).to_contain_text("2 things to fix")
    phone.fill("#bid", "")
    phone.fill("#meld_1", "0")
    expect(summary).to_be_hidden()
    expect(phone.locator(".field-error")).to_have_count(0)
    expect(phone.locator("#preview-line")).to_contain_text("Us +50")
    phone.locator("button.save-button").click()
    expect(phone.locator("#saved")).to_contain_text("Hand 1 recorded")
    assert [e for e in phone.js_errors if "status of 422" not in e] == []


@pytest.mark.parametrize("width", [390, 320])
def test_a_line_under_one_meld_box_leaves_the_other_beside_it(browser, live_server, width):
    """Them's meld box was pushed down to the foot of the line under Us's, out of its row."""
    page = browser.new_context(viewport={"width": width, "height": 740}).new_page()
    start_game(page, live_server)
    refuse_meld(page, "20")
    expect(page.locator("#meld_0-error")).to_be_visible()
    tops = page.evaluate("['meld_0', 'meld_1'].map(id => document.getElementById(id).getBoundingClientRect().top)")
    assert abs(tops[0] - tops[1]) < 1
    page.context.close()


def test_record_says_it_is_saving_while_scorepad_has_not_answered(phone, live_server):
    """A phone waiting on a slow Scorepad (up to 15 s before it keeps the hand) showed a greyed form and "Record
    hand 1": it looked frozen. (htmx marks the form while it waits; the words are the styles'.)"""
    start_game(phone, live_server)
    button = phone.locator("button.save-button")
    said = """b => [getComputedStyle(b, '::before'), getComputedStyle(b, '::after')]
        .filter(s => s.content !== 'none' && s.visibility === 'visible').map(s => s.content)"""
    assert button.evaluate(said) == []
    phone.evaluate("document.getElementById('hand-form').classList.add('htmx-request')")
    assert button.evaluate(said) == ['"Saving…"']
    phone.wait_for_function(f"""() => ({said})(document.querySelector("button.save-button")).join() ===
        '"Waiting for Scorepad…"'""", timeout=10_000)  # three seconds on
    phone.evaluate("document.getElementById('hand-form').classList.remove('htmx-request')")
    assert button.evaluate(said) == [] and button.inner_text() == "Record hand 1"


def test_without_javascript_a_refused_save_lists_links_to_the_fields_and_focuses_the_first(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    start_game(page, live_server)
    page.fill("#bid", "63")
    page.fill("#counters_0", "30")
    page.fill("#counters_1", "25")
    page.locator("button.save-button").click()
    links = page.locator("#error-summary a")
    expect(links).to_have_count(3)  # in the form's order: bidder, bid, counters
    assert [links.nth(i).get_attribute("href") for i in range(3)] == ["#field-bidder", "#bid", "#counters_0"]
    expect(page.locator("#field-bidder input").first).to_be_focused()
    assert in_view(page, "#error-summary")
    context.close()


def test_a_save_is_said_where_the_eye_is_and_undo_takes_the_hand_back_keeping_its_record(phone, live_server):
    start_game(phone, live_server)
    phone.locator("#field-bidder .choice", has_text="Us").click()
    phone.fill("#bid", "55")
    phone.fill("#meld_0", "30")
    phone.fill("#meld_1", "12")
    phone.fill("#counters_0", "28")
    phone.locator("button.save-button").click()
    toast = phone.locator("#saved")
    expect(toast).to_have_text(re.compile(r"Hand 1 recorded: Us \+58, Them \+22\s*Undo"))
    box = toast.bounding_box()
    board = phone.locator("#scoreboard").bounding_box()
    # near the top, where the page is, but below the scoreboard: never over a name or a total
    assert board["y"] + board["height"] <= box["y"] and box["y"] + box["height"] < PHONE["height"] / 2, box
    expect(phone.locator(".hands details").first).to_have_class(re.compile("just-saved"))
    toast.get_by_role("button", name="Undo").click()
    expect(phone.locator(".hands details")).to_have_count(0)
    expect(phone.locator("#total-0")).to_have_text("0")
    expect(phone.locator(".flash")).to_contain_text("Hand 1 taken back: fix it and record it again")
    expect(phone.locator("#bid")).to_have_value("55")  # the hand taken back, to fix and record again
    expect(phone.locator("#meld_1")).to_have_value("12")
    expect(phone.locator("#sheet .deleted")).to_contain_text("1 deleted hand")  # its record stays
    assert phone.js_errors == []


def test_the_confirmation_fades_after_a_few_seconds(phone, live_server):
    start_game(phone, live_server)
    phone.locator("#field-bidder .choice", has_text="Us").click()
    phone.fill("#counters_0", "50")
    phone.locator("button.save-button").click()
    expect(phone.locator("#saved")).to_be_visible()
    expect(phone.locator("#saved")).to_be_hidden(timeout=15_000)


def test_without_javascript_undo_is_a_plain_form(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    start_game(page, live_server)
    page.locator("#field-bidder .choice", has_text="Them").click()
    page.fill("#counters_1", "50")
    page.locator("button.save-button").click()
    expect(page.locator("#saved")).to_contain_text("Hand 1 recorded: Us +0, Them +50")
    page.locator("#saved").get_by_role("button", name="Undo").click()
    expect(page.locator(".hands details")).to_have_count(0)
    expect(page.locator("#total-1")).to_have_text("0")
    context.close()


def test_after_an_edit_the_confirmation_is_on_the_screen(phone, live_server):
    start_game(phone, live_server)
    for i in range(6):  # enough rows that the edited one sits well down the page
        phone.locator("#field-bidder .choice", has_text="Us").click()
        phone.fill("#counters_0", str(50 - i))  # hands alike would be asked about
        phone.locator("button.save-button").click()
        # this save's answer, not the last one's toast still showing (WAIT_MS: a loaded machine answers late)
        expect(phone.locator("#saved")).to_contain_text(f"Hand {i + 1} recorded")
    oldest = phone.locator(".hands details").last
    oldest.locator("summary").click()
    oldest.get_by_role("link", name="Edit").click()
    phone.fill("#counters_0", "40")
    phone.get_by_role("button", name="Save changes").click()
    toast = phone.locator("#saved")
    expect(toast).to_contain_text("Hand 1 changed: Counters 50 : 0 → 40 : 10")
    box = toast.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
    expect(phone.locator(".hands details").last).to_have_class(re.compile("just-saved"))


def bidder_places(page) -> dict[str, tuple[float, float]]:
    """Each button's place among the bidder buttons (the note after a save moves the form down a while)."""
    places = {}
    top = page.locator("#field-bidder").bounding_box()["y"]
    for label in page.locator("#field-bidder .choice").all():
        box = label.bounding_box()
        places[label.locator("span").inner_text().split()[0]] = (box["x"], box["y"] - top)
    return places


def test_each_player_keeps_one_place_all_game_and_who_bids_first_is_marked(phone, live_server):
    start_game(phone, live_server, players=SEATED)
    before = bidder_places(phone)
    expect(phone.locator("#field-bidder .choice", has_text="bids first")).to_have_text(re.compile("^Bob"))
    phone.locator("#field-bidder .choice", has_text="Ann").click()
    phone.fill("#counters_0", "50")
    phone.locator("button.save-button").click()
    expect(phone.locator("#expected")).to_have_value("2")
    expect(phone.locator("#field-bidder .choice", has_text="bids first")).to_have_text(re.compile("^Cat"))
    assert bidder_places(phone) == before
    # a team a column, as on the scoreboard: Ann and Cat on the left, Bob and Dan on the right
    assert before["Ann"][0] == before["Cat"][0] < before["Bob"][0] == before["Dan"][0]


COMMON_PATH = ["#field-bidder", "#bid", ".bid-chips", "#field-trump", "#meld_0", "#meld_1", "#counters_0",
               "#counters_1", "button.save-button"]


def test_the_common_path_fits_one_screen_and_the_rare_choices_wait_folded_below(phone, live_server):
    start_game(phone, live_server, players=SEATED)
    for selector in COMMON_PATH:
        assert in_view(phone, selector), f"{selector} is off the first screen"
    expect(phone.locator("#field-kind")).to_be_hidden()
    expect(phone.locator("#forced")).to_be_hidden()
    expect(phone.get_by_role("button", name="Check")).to_be_hidden()  # the preview follows the typing
    phone.locator("#field-bidder .choice", has_text="Cat").click()
    phone.fill("#meld_0", "24")
    phone.locator("#rare summary").click()
    expect(phone.locator("#field-kind")).to_be_visible()
    phone.locator("#field-kind .choice", has_text="Throw-in").click()
    assert phone.locator("#meld_0").input_value() == "24"
    expect(phone.locator("#field-bidder input[value=s2]")).to_be_checked()
    assert phone.js_errors == []


def test_the_record_bar_rises_above_a_keyboard_that_covers_the_page(phone, live_server):
    start_game(phone, live_server)
    phone.locator("#meld_0").click()
    # the keyboard of an iPhone: the page keeps its height, the part of it that shows is 330 px shorter
    phone.evaluate("""() => {
        Object.defineProperty(visualViewport, "height", {get: () => innerHeight - 330, configurable: true});
        visualViewport.dispatchEvent(new Event("resize"));
    }""")
    box = phone.locator("button.save-button").bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"] - 330, box
    phone.evaluate("""() => {
        delete visualViewport.height;
        visualViewport.dispatchEvent(new Event("resize"));
    }""")
    box = phone.locator("button.save-button").bounding_box()
    assert box["y"] + box["height"] > PHONE["height"] - 330, "the bar stayed up after the keyboard went"


def test_the_cursor_after_a_save_is_a_ring_not_a_choice(phone, live_server):
    start_game(phone, live_server)
    phone.locator("#field-bidder .choice", has_text="Us").click()
    phone.locator("#counters_0").click()
    phone.keyboard.type("50")
    phone.keyboard.press("Enter")
    expect(phone.locator("#expected")).to_have_value("2")
    focused = phone.locator("#field-bidder input").first
    expect(focused).to_be_focused()
    look = focused.evaluate("""el => { const s = getComputedStyle(el.nextElementSibling);
                                       return [s.outlineStyle, s.backgroundColor]; }""")
    unchosen = phone.locator("#field-bidder input").nth(1).evaluate(
        "el => getComputedStyle(el.nextElementSibling).backgroundColor")
    assert look == ["dashed", unchosen], "the focused bidder looks chosen"


def type_on(page, taps: Taps, text: str, then: str | None, enter: bool) -> None:
    """Type into the field that has the cursor, then go on to `then` (None: save) by Enter or by a tap."""
    page.keyboard.type(text)
    taps.count += len(text)
    if enter:
        page.keyboard.press("Enter")
        taps.count += 1
    else:
        taps.tap(page.locator(then or "button.save-button"))


@pytest.mark.parametrize(("trump_first", "enter", "expected"), [
    (False, True, 11), (False, False, 11),  # trump tapped after the first meld: the tap moves the cursor on
    (True, True, 12), (True, False, 12),  # trump tapped before the meld, as it is named at the table
], ids=["trump between, Enter", "trump between, no Enter", "trump first, Enter", "trump first, no Enter"])
def test_a_typical_hand_takes_at_most_11_taps_with_an_enter_key_and_12_without(
        phone, live_server, trump_first, enter, expected):
    """Ann, 52, ♥, meld 24 and 16, counters 30, save: the figures the benchmark prints, counted the same way."""
    start_game(phone, live_server, players=SEATED)
    taps = Taps(phone)
    taps.tap(phone.locator("#field-bidder .choice", has_text="Ann"))
    taps.tap(phone.locator(".chip", has_text="52"))
    if trump_first:
        taps.tap(phone.locator("#field-trump .suit-choice.suit-H"))
    expect(phone.locator("#meld_0")).to_be_focused()
    if trump_first:
        type_on(phone, taps, "24", "#meld_1", enter)
    else:
        phone.keyboard.type("24")
        taps.count += 2
        taps.tap(phone.locator("#field-trump .suit-choice.suit-H"))  # and the cursor goes on to Them's meld
    expect(phone.locator("#meld_1")).to_be_focused()
    type_on(phone, taps, "16", "#counters_0", enter)
    type_on(phone, taps, "30", None, enter)
    expect(phone.locator("#saved")).to_contain_text("Hand 1 recorded: Us +54, Them +20")
    assert taps.count == expected
    assert phone.js_errors == []


def test_a_hand_typed_before_the_pages_scripts_ran_is_saved_by_record(phone, live_server):
    """A slow phone draws the form before its scripts run, and a player may type in it meanwhile: what they typed
    is theirs, not the fresh form Record is held back on (a tap on Record of a form nobody touched)."""
    start_game(phone, live_server)
    held = []
    phone.route(re.compile(r"/scripts/[a-z_,]*,game\.js"), lambda route: held.append(route))  # the page's scripts
    phone.goto(phone.url, wait_until="commit")
    expect(phone.locator("#hand-form")).to_be_visible()
    phone.locator("#field-bidder .choice", has_text="Us").click()
    phone.fill("#meld_0", "30")
    phone.fill("#counters_0", "30")
    phone.wait_for_function("() => true")  # (the held request has reached its handler by now, or never will)
    assert held, "the page's scripts were not held: the test would show nothing"
    held[0].continue_()
    phone.wait_for_load_state("load")
    phone.locator("button.save-button").click()
    expect(phone.locator("#saved")).to_contain_text("Hand 1 recorded")
    assert phone.js_errors == []


def test_without_javascript_enter_in_a_number_saves_the_hand_and_a_typed_bid_is_the_bid(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    start_game(page, live_server)
    page.locator("#field-bidder .choice", has_text="Us").click()
    page.locator("#bid").click()
    page.keyboard.type("55")  # nothing ready-made in the field to type after
    page.fill("#counters_0", "30")
    page.fill("#counters_1", "20")
    page.locator("#meld_0").click()
    page.keyboard.type("30")
    page.keyboard.press("Enter")
    expect(page.locator("#total-0")).to_have_text("60")  # 30 meld + 30 counters made the bid of 55
    assert "/meld" not in page.url
    context.close()


def test_the_meld_counts_use_button_stays_on_the_screen_while_the_cards_go_in(phone, live_server):
    start_game(phone, live_server)
    phone.locator("#field-trump .suit-choice.suit-S").click()
    phone.locator(".with-action:has(#meld_0) .count-button").click()
    for card in ("AS", "TS", "KS", "QS", "JS", "KS", "QS", "QD", "JD"):
        phone.locator(f"#meld-grid button.add[value={card}]").click()
    # the last count is back (a run 15, a second royal marriage 4, a pinochle 4): the bar holds its button
    expect(phone.locator("#meld-total")).to_have_text("23")
    use = phone.locator("button[name=use]")
    expect(use).to_contain_text("Use")
    box = use.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    use.click()
    expect(phone.locator("#meld_0")).to_have_value("23")


def type_at_the_end_of_the_form(page, counters: str) -> float:
    """Scrolled so the Record bar sits in its place at the end of the form, `counters` typed into Us's counters;
    Record's top as it was just then. Typed and measured in one go: the preview's answer waits for a pause in the
    typing, so it cannot be in yet."""
    page.locator("#hand-form").evaluate("form => { form.scrollIntoView({block: 'end'}); scrollBy(0, 40); }")
    return page.locator("#counters_0").evaluate("""(field, value) => {
        field.focus();
        field.value = value;
        field.dispatchEvent(new Event("input", {bubbles: true}));
        return document.querySelector("#hand-form .save-button").getBoundingClientRect().top;
    }""", counters)


@pytest.mark.parametrize("width", [390, 320])
def test_record_stays_under_the_finger_when_the_result_comes_in(context_for, live_server, width):
    """The preview's answer makes the page above Record taller. Scrolled to the end of the form (the Record bar in
    its place, not stuck to the bottom of the screen), Record used to jump 40 px down as the answer came in; a tap
    on it just then landed on the line above it and saved nothing."""
    page = context_for({"width": width, "height": PHONE["height"]})
    start_game(page, live_server)
    page.locator("#field-bidder .choice", has_text="Us").click()
    page.fill("#bid", "55")
    page.fill("#meld_0", "30")
    page.fill("#meld_1", "12")
    before = type_at_the_end_of_the_form(page, "28")
    expect(page.locator("#preview-line")).to_contain_text("58 : 22")
    after = page.locator("button.save-button").evaluate("button => button.getBoundingClientRect().top")
    assert abs(after - before) < 1, (before, after)
    assert in_view(page, "#counters_0")  # the page moved up under the field being typed in, not off it
    page.locator("button.save-button").click()
    expect(page.locator("#saved")).to_contain_text("Hand 1 recorded")


@pytest.mark.parametrize("viewport", [{"width": 320, "height": 640}, {"width": 390, "height": 664}])
def test_the_field_typed_in_stays_clear_of_the_record_bar_as_its_result_line_comes_in(context_for, live_server,
                                                                                       viewport):
    """The Record bar, stuck to the bottom of a small screen, grows by its result line when the preview answers;
    a counters field just above the bar was then under it, the number being typed hidden."""
    page = context_for(viewport)
    start_game(page, live_server)
    page.locator("#field-bidder .choice", has_text="Us").click()
    page.fill("#bid", "55")
    page.fill("#meld_0", "30")
    page.fill("#meld_1", "12")
    # the field just above the bar, as a phone leaves it when the keyboard goes down
    page.locator("#counters_0").evaluate("""field => {
        const bar = field.form.querySelector(".action-bar");
        scrollBy(0, field.getBoundingClientRect().bottom - bar.getBoundingClientRect().top + 4);
        field.focus({preventScroll: true});
    }""")
    assert in_view(page, "#counters_0")
    page.keyboard.type("28")
    expect(page.locator("#preview-line")).to_contain_text("58 : 22")
    assert in_view(page, "#counters_0")


def the_same_hand_twice(page):
    """Us 60, meld 20, counters 40, recorded; then typed again and Record tapped: the second is asked about."""
    for _ in range(2):
        page.locator("#field-bidder .choice", has_text="Us").click()
        page.fill("#bid", "60")
        page.fill("#meld_0", "20")
        page.fill("#counters_0", "40")
        page.evaluate("() => scrollTo(0, 0)")  # as the last hand's answer leaves the page, at its top
        page.locator("button.save-button").click()


@pytest.mark.parametrize("viewport", [{"width": 320, "height": 640}, PHONE])
def test_the_same_hand_again_asks_its_question_on_the_screen(context_for, live_server, viewport):
    """The question whether a hand alike the last is the next one sits at the foot of the form; at 320×640 it
    was 800 px below the screen after the tap on Record, which then seemed to do nothing."""
    page = context_for(viewport)
    start_game(page, live_server)
    the_same_hand_twice(page)
    question = page.locator("#repeat-question")
    expect(question).to_contain_text("This looks like hand 1 again")
    expect(question.get_by_role("button", name="Yes, record it as hand 2")).to_be_focused()
    assert in_view(page, "#repeat-question")
    # the Record bar's result line is drawn on a background of its own, never over the question's buttons
    assert page.locator("#hand-form .action-bar").evaluate("bar => getComputedStyle(bar).backgroundColor") \
        not in ("rgba(0, 0, 0, 0)", "transparent")


def test_no_it_was_the_same_hand_clears_the_form_and_its_draft(context_for, live_server):
    """"No, it was hand 1: clear the form" opens the page on an empty form for hand 2: what was typed is not put
    back from the phone's draft of hand 2 (it was, and one tap on Record then saved the hand a second time)."""
    page = context_for(PHONE)
    start_game(page, live_server)
    the_same_hand_twice(page)
    page.locator("#repeat-question").get_by_role("link", name="No, it was hand 1: clear the form").click()
    expect(page.locator("#repeat-question")).to_have_count(0)
    expect(page.locator("#expected")).to_have_value("2")
    expect(page.locator("#draft-note")).to_have_count(0)
    for field in ("#bid", "#meld_0", "#meld_1", "#counters_0", "#counters_1"):
        expect(page.locator(field)).to_have_value("")
    page.reload()
    expect(page.locator("#meld_0")).to_have_value("")
    expect(page.locator(".hands details.hand")).to_have_count(1)


def test_record_stays_under_the_finger_when_the_result_goes_again(context_for, live_server):
    """The other way: a result that leaves (a counters field emptied) makes the page above Record shorter."""
    page = context_for(PHONE)
    start_game(page, live_server)
    page.locator("#field-bidder .choice", has_text="Us").click()
    page.fill("#bid", "55")
    page.fill("#meld_0", "30")
    page.fill("#counters_0", "28")
    expect(page.locator("#preview-line")).to_contain_text("→")
    before = type_at_the_end_of_the_form(page, "")
    expect(page.locator("#preview .preview-score")).to_have_count(0)
    page.wait_for_timeout(100)  # the answer's swap done
    after = page.locator("button.save-button").evaluate("button => button.getBoundingClientRect().top")
    assert abs(after - before) < 1, (before, after)
    assert in_view(page, "#counters_0")


@pytest.mark.parametrize("viewport", [{"width": 320, "height": 640}, PHONE])
def test_an_edit_that_takes_the_win_away_asks_on_the_screen_the_page_opens_on(context_for, live_server, viewport):
    """The question whether to save an edit that ends the win sat below the fields and the result line, off the
    screen the page opened on (at 390×844 too): Save seemed to do nothing."""
    page = context_for(viewport)
    start_game(page, live_server, preset="double-deck")
    for meld in ("250", "240"):  # two bids of 250 made with that meld and every counter: 590, the game
        page.locator("#field-bidder .choice", has_text="Us").click()
        page.fill("#bid", "250")
        page.fill("#meld_0", meld)
        page.fill("#meld_1", "0")
        page.fill("#counters_0", "50")
        page.locator("button.save-button").click()
        expect(page.locator("#saved, .winner-card").first).to_be_visible()
    expect(page.locator(".winner-card")).to_be_visible()
    hand = page.locator("#sheet details.hand").first.get_attribute("id").removeprefix("hand-")
    page.goto(f"{page.url.split('#')[0]}/hands/{hand}/edit")
    page.fill("#meld_0", "40")  # 90 of 250, set: 300 - 250, and nobody has won
    page.locator("button.save-button").click()
    question = page.locator("#repeat-question")
    expect(question).to_contain_text("Save the change all the same?")
    assert in_view(page, "#repeat-question")
    question.get_by_role("button", name="Yes, save it: the game is as the hands say").click()
    expect(page.locator("#hand-form")).to_be_visible()  # the game takes hands again
    expect(page.locator("#total-0")).to_have_text("50")
