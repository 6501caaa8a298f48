"""Hands kept on a phone that was offline, settled when it is back: the one the server held (another phone's hand
in its place, numbers it refused) is answered, discarded or fixed, and every kept hand behind it then lands once,
under its own number, in the order played. Each phone is a browser context of its own."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, start_game

pytestmark = pytest.mark.browser

SETTLED_MS = 30_000  # a kept hand goes within a retry or two (3 s, then 5 s) once it can


def record(page, meld, counters, bidder="Us", bid="50", kept=False):
    """A hand typed and Record tapped; `kept`: offline, so the phone keeps it."""
    number = int(page.locator("#expected").input_value())
    page.locator("#field-bidder .choice", has_text=bidder).click()
    page.fill("#bid", bid)
    page.fill("#meld_0", meld[0])
    page.fill("#meld_1", meld[1])
    page.fill("#counters_0", counters)
    page.locator("button.save-button").click()
    if kept:  # shown on the sheet as waiting, under its number
        expect(page.locator("#sheet .waiting-hand .num", has_text=re.compile(f"^{number}$"))).to_have_count(1)
    expect(page.locator(f"#expected[value='{number + 1}'], .winner-card").first).to_be_attached()


def offline(page) -> None:
    """The phone's Wi-Fi gone, and the phone showing it knows (its offline mark), as a player sees it before typing
    on. (The mark moves nothing: test_third_evening_browser.py.)"""
    page.context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()


def stored(browser, url) -> list[str]:
    """The sheet as a fresh phone sees it, oldest first: each hand's line ("2 Us 50 ... meld 21·12 ...")."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(url)
    lines = [" ".join(text.split()) for text in page.locator(".hands details summary").all_inner_texts()]
    context.close()
    return lines[::-1]


def kept_behind_the_other_phones_hand(phone, other_phone, live_server) -> str:
    """Hand 1 recorded; this phone offline keeps its next two hands (meld 23 and 24, numbered 2 and 3 here) while
    the other phone records hand 2. Returns the game's address; this phone is still offline."""
    start_game(phone, live_server)
    game = phone.url
    record(phone, ("20", "12"), "30")
    other_phone.goto(game)
    offline(phone)
    record(other_phone, ("10", "25"), "15", bidder="Them", bid="55")  # hand 2 there
    record(phone, ("23", "12"), "33", kept=True)
    record(phone, ("24", "12"), "34", kept=True)
    return game


def until_settled(browser, page, url, count):
    expect(page.locator("#outbox")).to_have_count(0, timeout=SETTLED_MS)
    hands = stored(browser, url)
    assert len(hands) == count, hands
    return hands


def test_discarding_a_kept_hand_another_phone_recorded_leaves_the_next_kept_hand_its_number(browser, phone,
                                                                                          other_phone, live_server):
    start_game(phone, live_server)
    game = phone.url
    record(phone, ("20", "12"), "30")
    other_phone.goto(game)
    offline(phone)
    record(phone, ("21", "12"), "31", kept=True)  # hand 2, also recorded on the other phone
    record(phone, ("22", "12"), "32", kept=True)  # hand 3
    record(other_phone, ("21", "12"), "31")
    phone.context.set_offline(False)
    discard = phone.locator("#outbox").get_by_role("button", name="Discard hand 2")
    expect(discard).to_be_visible(timeout=SETTLED_MS)
    discard.click()
    hands = until_settled(browser, phone, game, 3)
    assert "meld 21·12" in hands[1] and "meld 22·12" in hands[2], hands
    expect(phone.locator("#record[data-clash]")).to_have_count(0)  # no question left about a hand discarded


def test_the_hands_kept_behind_an_answered_question_land_after_it(browser, phone, other_phone, live_server):
    game = kept_behind_the_other_phones_hand(phone, other_phone, live_server)
    phone.context.set_offline(False)
    keep = phone.get_by_role("button", name="Mine is the next hand: keep it as hand 3")
    expect(keep).to_be_visible(timeout=SETTLED_MS)
    keep.click()
    hands = until_settled(browser, phone, game, 4)
    assert ["meld 23·12" in hands[2], "meld 24·12" in hands[3]] == [True, True], hands


def test_a_refused_kept_hand_fixed_in_the_form_lands_before_the_hands_kept_after_it(browser, phone, live_server):
    start_game(phone, live_server)
    game = phone.url
    offline(phone)
    record(phone, ("20", "12"), "60", kept=True)  # 60 counters of 50: refused once it arrives
    record(phone, ("22", "12"), "32", kept=True)
    phone.context.set_offline(False)
    fix = phone.locator("#outbox").get_by_role("button", name="Fix hand 1")
    expect(fix).to_be_visible(timeout=SETTLED_MS)
    expect(phone.locator("#outbox")).to_contain_text("Hand 2 is kept on this phone and will be saved once hand 1 "
                                                     "below is settled.")
    fix.click()
    expect(phone.locator("#expected")).to_have_value("1")
    phone.fill("#counters_0", "30")
    phone.locator("button.save-button").click()
    hands = until_settled(browser, phone, game, 2)
    assert ["meld 20·12" in hands[0], "meld 22·12" in hands[1]] == [True, True], hands
    expect(phone.locator("#expected")).to_have_value("3")


def kept_while_the_other_phone_wins(phone, other_phone, live_server, kept_meld=("0", "0"), kept_counters="50",
                                    kept_bidder="Us") -> str:
    """Hands 1 and 2 recorded (Us 450, bids made with every counter: 250, then 200); this phone offline keeps its
    hand 3 while the other phone records hand 3 as Us 50 made, which wins (500). Returns the game's address; this
    phone is still offline."""
    start_game(phone, live_server)
    game = phone.url
    for meld, bid in (("200", "250"), ("150", "200")):
        record(phone, (meld, "0"), "50", bid=bid)
    other_phone.goto(game)
    offline(phone)
    record(phone, kept_meld, kept_counters, bidder=kept_bidder, kept=True)
    record(other_phone, ("0", "0"), "50")
    return game


def test_a_kept_copy_of_the_hand_that_won_on_the_other_phone_is_asked_about_and_the_win_shown(browser, phone,
                                                                                             other_phone, live_server):
    game = kept_while_the_other_phone_wins(phone, other_phone, live_server)  # the same hand on both
    expect(other_phone.locator(".winner-card")).to_be_visible()
    phone.context.set_offline(False)
    same = phone.get_by_role("link", name="Same hand: discard mine")
    expect(same).to_be_visible(timeout=SETTLED_MS)  # asked which hand it is, not refused as the game being over
    same.click()
    expect(phone.locator(".winner-card")).to_be_visible()
    expect(phone.locator("#outbox")).to_have_count(0)
    assert len(stored(browser, game)) == 3


def test_a_kept_copy_of_the_winning_hand_is_asked_about_when_the_win_was_seen_first(browser, phone, other_phone,
                                                                                      live_server):
    """The other order of the test above: this phone's poll brings the win (the winner card, no record form on the
    page) before its kept hand is answered; the question is still asked at once, not left to a Compare button."""
    game = kept_while_the_other_phone_wins(phone, other_phone, live_server)

    def no_answer_yet(route):
        if route.request.method == "POST":
            route.abort()
        else:
            route.continue_()

    phone.route(re.compile(r"/games/\d+/hands$"), no_answer_yet)  # the kept hand's save: no answer
    phone.context.set_offline(False)
    expect(phone.locator(".winner-card")).to_be_visible(timeout=SETTLED_MS)  # the poll told of the win
    phone.unroute(re.compile(r"/games/\d+/hands$"))
    same = phone.get_by_role("link", name="Same hand: discard mine")
    expect(same).to_be_visible(timeout=SETTLED_MS)
    same.click()
    expect(phone.locator(".winner-card")).to_be_visible()
    expect(phone.locator("#outbox")).to_have_count(0)
    assert len(stored(browser, game)) == 3


def test_mine_is_right_about_the_hand_that_won_on_the_other_phone_takes_the_win_back_and_settles_the_kept_hand(
        browser, phone, other_phone, live_server):
    """The question says what "mine is right" does to the win, and saying it is the answer: the game takes hands
    again, the kept hand is settled (not asked about again), and the next hand is recorded as usual. The other
    phone, whose polls went unanswered meanwhile, shows the win that hand made, not the one it saw before."""
    game = kept_while_the_other_phone_wins(phone, other_phone, live_server, kept_meld=("0", "20"),
                                           kept_counters="20", kept_bidder="Them")  # Them's bid here (Us 470)
    other_phone.route("**/live", lambda route: route.abort())
    phone.context.set_offline(False)
    mine = phone.get_by_role("button", name="Same hand, mine is right: change hand 3 to mine")
    expect(mine).to_be_visible(timeout=SETTLED_MS)
    expect(phone.locator("#clash-win")).to_contain_text("With this change nobody has won yet")
    mine.click()
    expect(phone.locator("#expected")).to_have_value("4")  # the record form is back: nobody has won
    expect(phone.locator("#outbox")).to_have_count(0)
    expect(phone.locator("#record[data-clash]")).to_have_count(0)
    hands = stored(browser, game)
    assert len(hands) == 3 and "Them 50" in hands[2], hands
    record(phone, ("20", "12"), "30")  # hand 4: Us 50 made, 520 to 70
    expect(phone.locator(".winner-card")).to_contain_text("520 to 70")
    assert len(stored(browser, game)) == 4
    other_phone.unroute("**/live")
    expect(other_phone.locator(".winner-card")).to_contain_text("520 to 70", timeout=SETTLED_MS)


def test_mine_is_right_about_a_hand_deleted_on_the_other_phone_meanwhile_lands_the_kept_hands_once_in_order(
        browser, phone, other_phone, live_server):
    """The other phone deletes the hand after the question was asked here: "mine is right" finds its place free,
    and the kept hand goes there as it was typed, the one kept after it behind it; none is left in the form."""
    start_game(phone, live_server)
    game = phone.url
    record(phone, ("20", "12"), "30")
    other_phone.goto(game)
    offline(phone)
    record(phone, ("21", "12"), "31", kept=True)  # hand 2 here
    record(phone, ("22", "12"), "32", kept=True)  # hand 3 here
    record(other_phone, ("10", "25"), "15", bidder="Them", bid="55")  # hand 2 there
    phone.context.set_offline(False)
    mine = phone.get_by_role("button", name="Same hand, mine is right: change hand 2 to mine")
    expect(mine).to_be_visible(timeout=SETTLED_MS)
    hand = other_phone.locator("#sheet details.hand").first.get_attribute("id").removeprefix("hand-")
    other_phone.goto(f"{game}/hands/{hand}/delete")
    other_phone.get_by_role("button", name="Delete hand 2").click()
    expect(other_phone.locator("#sheet details.hand")).to_have_count(1)
    mine.click()
    hands = until_settled(browser, phone, game, 3)
    assert ["meld 21·12" in hands[1], "meld 22·12" in hands[2]] == [True, True], hands
    expect(phone.locator("#expected")).to_have_value("4")
    expect(phone.locator("#meld_0")).to_have_value("")


def test_a_kept_hand_of_a_game_ended_meanwhile_offers_no_fix_where_there_is_no_form(browser, phone, other_phone,
                                                                                  live_server):
    """Fix puts a kept hand back in the record form; a game ended on the other phone has none, so the card offers
    what can be done (Discard), not a Fix that would take the hand off the card and put it nowhere. The home page
    lists the hand held too, with the way to its game."""
    start_game(phone, live_server)
    game = phone.url
    record(phone, ("20", "12"), "30")
    other_phone.goto(game)
    offline(phone)
    record(phone, ("21", "12"), "31", kept=True)
    other_phone.get_by_role("link", name="End this game unfinished").click()
    other_phone.get_by_role("button", name="End the game").click()
    phone.context.set_offline(False)
    discard = phone.locator("#outbox").get_by_role("button", name="Discard hand 2")
    expect(discard).to_be_visible(timeout=SETTLED_MS)
    expect(phone.locator("#hand-form")).to_have_count(0, timeout=SETTLED_MS)  # the poll brought the ended game
    expect(phone.locator("#outbox").get_by_role("button", name="Fix hand 2")).to_have_count(0)
    phone.goto(live_server)  # the home page says it too, and leads back to the game
    expect(phone.locator("#outbox")).to_contain_text("Hand 2 of another game (Us 50 · meld 21·12 · counters "
                                                     "31·19) is kept on this phone, not saved")
    phone.locator("#outbox").get_by_role("link", name="Go to its game").click()
    expect(phone).to_have_url(game)
    discard.click()
    expect(phone.locator("#outbox")).to_have_count(0)
    assert len(stored(browser, game)) == 1


def test_kept_hands_wait_while_the_answer_to_the_question_is_asked_again(browser, phone, other_phone, live_server):
    """The other phone records the next hand too before this one's answer lands: the answer is refused with a
    new question, and the hand kept after the one asked about must not go meanwhile under a number of its own."""
    game = kept_behind_the_other_phones_hand(phone, other_phone, live_server)
    phone.context.set_offline(False)
    keep = phone.get_by_role("button", name="Mine is the next hand: keep it as hand 3")
    expect(keep).to_be_visible(timeout=SETTLED_MS)
    record(other_phone, ("11", "26"), "16", bidder="Them", bid="56")  # hand 3 there, before the answer
    keep.click()
    again = phone.get_by_role("button", name="Mine is the next hand: keep it as hand 4")
    expect(again).to_be_visible()
    phone.wait_for_timeout(2_000)  # retries' time (the test server's phones retry within 1.5 s): nothing went
    assert len(stored(browser, game)) == 3
    again.click()
    hands = until_settled(browser, phone, game, 5)
    assert ["meld 23·12" in hands[3], "meld 24·12" in hands[4]] == [True, True], hands


def test_a_hand_brought_back_from_the_meld_count_waits_behind_the_kept_hands_under_the_next_number(
        browser, phone, other_phone, live_server):
    game = kept_behind_the_other_phones_hand(phone, other_phone, live_server)
    phone.locator("#field-bidder .choice", has_text="Us").click()  # hand 4 here, being typed: no question yet
    phone.fill("#bid", "50")
    phone.context.set_offline(False)
    expect(phone.locator("#outbox").get_by_role("button", name="Compare hand 2")).to_be_visible(timeout=SETTLED_MS)
    phone.locator("#meld_0 ~ .count-button, .count-button").first.click()  # Count cards for Us
    phone.locator("#meld-calc textarea[name=cards]").fill("KS QS")
    phone.locator("#meld-calc").get_by_role("button", name="Count").click()
    phone.get_by_role("button", name="Use 4 as meld for Us").click()
    expect(phone.locator("#expected")).to_have_value("4")  # past the kept hands, not the sheet's next (3)
    phone.fill("#meld_1", "12")
    phone.fill("#counters_0", "35")
    phone.locator("button.save-button").click()
    expect(phone.locator("#sheet .waiting-hand .num", has_text=re.compile("^4$"))).to_have_count(1)
    assert len(stored(browser, game)) == 2  # it waits behind the kept hands
    phone.locator("#outbox").get_by_role("button", name="Compare hand 2").click()
    phone.get_by_role("button", name="Mine is the next hand: keep it as hand 3").click()
    hands = until_settled(browser, phone, game, 5)
    assert ["meld 23·12" in hands[2], "meld 24·12" in hands[3], "meld 4·12" in hands[4]] == [True] * 3, hands


def test_a_fixed_kept_hand_leaves_no_copy_of_itself_in_the_next_hands_form(browser, phone, live_server):
    """Fix put the refused hand's numbers into the form while it was still the next hand's: a draft of them
    was kept for that hand, came back as "typed for hand 3", and one tap recorded the hand twice."""
    start_game(phone, live_server)
    game = phone.url
    record(phone, ("20", "12"), "30")
    offline(phone)
    record(phone, ("21", "12"), "60", kept=True)  # refused once it arrives: 60 counters of 50
    phone.context.set_offline(False)
    fix = phone.locator("#outbox").get_by_role("button", name="Fix hand 2")
    expect(fix).to_be_visible(timeout=SETTLED_MS)
    fix.click()
    phone.fill("#counters_0", "31")
    phone.locator("button.save-button").click()
    until_settled(browser, phone, game, 2)
    expect(phone.locator("#expected")).to_have_value("3")
    for _ in range(2):  # as the save left it, and after a reload
        expect(phone.locator("#draft-note")).to_have_count(0)
        assert phone.locator("#meld_0").input_value() == "" and phone.locator("#counters_0").input_value() == ""
        phone.reload()


def hand_two_on_the_other_phone(phone, other_phone, live_server) -> str:
    """Hand 1 here, hand 2 on the other phone, this phone's form on hand 3. Returns the game's address."""
    start_game(phone, live_server)
    game = phone.url
    record(phone, ("20", "12"), "30")
    other_phone.goto(game)
    record(other_phone, ("10", "25"), "15", bidder="Them", bid="55")  # hand 2 there
    expect(phone.locator("#expected")).to_have_value("3")
    return game


def kept_behind_a_hand_taken_back(phone, other_phone, live_server, kept) -> str:
    """Hand 1 here, hand 2 on the other phone; this phone offline keeps `kept` hands (meld 23, 24, …, numbered
    from 3) while the other phone takes hand 2 back; then it is online again. Returns the game's address."""
    game = hand_two_on_the_other_phone(phone, other_phone, live_server)
    offline(phone)
    for n in range(kept):
        record(phone, (str(23 + n), "12"), str(33 + n), kept=True)
    other_phone.locator("#saved").get_by_role("button", name="Undo").click()  # hand 2 taken back
    expect(other_phone.locator("#expected")).to_have_value("2")
    phone.context.set_offline(False)
    return game


def test_a_kept_hand_waits_for_a_hand_taken_back_on_the_other_phone_and_lands_after_it(browser, phone, other_phone,
                                                                                      live_server):
    game = kept_behind_a_hand_taken_back(phone, other_phone, live_server, kept=1)
    expect(phone.locator("#live-notice")).to_contain_text("Updated from another phone: hand 2 was deleted.")
    expect(phone.locator("#outbox")).to_contain_text("It goes by itself once the hands before it are on the sheet "
                                                     "again", timeout=SETTLED_MS)
    expect(phone.locator("#expected")).to_have_value("2")  # the hand taken back may be recorded again here too
    other_phone.fill("#meld_1", "30")  # corrected, and recorded again
    other_phone.locator("button.save-button").click()
    hands = until_settled(browser, phone, game, 3)
    assert ["meld 10·30" in hands[1], "meld 23·12" in hands[2]] == [True, True], hands
    expect(phone.locator("#expected")).to_have_value("4")


def test_a_kept_hand_fixed_when_the_sheet_lost_a_hand_goes_as_the_next_hand_and_the_later_one_after_it(
        browser, phone, other_phone, live_server):
    """The hand before it is not coming back (deleted for good, or a restore took it): Fix records it as the
    sheet's next hand, as its card says, and the hand kept after it moves up with it."""
    game = kept_behind_a_hand_taken_back(phone, other_phone, live_server, kept=2)  # hand 2 gone for good
    expect(phone.locator("#outbox")).to_contain_text("fewer hands than when it was typed", timeout=SETTLED_MS)
    phone.locator("#outbox").get_by_role("button", name="Fix hand 3").click()
    expect(phone.locator("#draft-note")).to_contain_text("Hand 3 is back in the form as hand 2")
    expect(phone.locator("#record-heading")).to_contain_text("Hand 2")
    expect(phone.locator("#expected")).to_have_value("2")
    assert phone.locator("#meld_0").input_value() == "23"
    phone.locator("button.save-button").click()
    hands = until_settled(browser, phone, game, 3)
    assert ["meld 23·12" in hands[1], "meld 24·12" in hands[2]] == [True, True], hands


def test_the_next_hands_form_does_not_carry_the_words_of_a_refusal_about_the_hand_kept(phone, live_server):
    start_game(phone, live_server)
    phone.locator("#field-bidder .choice", has_text="Us").click()
    phone.fill("#counters_0", "30")
    phone.fill("#counters_1", "25")  # 55 of 50: refused
    phone.locator("button.save-button").click()
    expect(phone.locator("#error-summary")).to_contain_text("Hand 1 was not saved")
    phone.fill("#counters_1", "20")
    offline(phone)
    phone.locator("button.save-button").click()  # kept, and the form moves on
    expect(phone.locator("#expected")).to_have_value("2")
    expect(phone.locator("#error-summary")).to_have_count(0)
    expect(phone.locator(".field-error")).to_have_count(0)
    phone.context.set_offline(False)


def test_a_hand_being_typed_when_the_question_is_answered_stays_in_the_form_past_the_kept_hands(
        browser, phone, other_phone, live_server):
    game = kept_behind_the_other_phones_hand(phone, other_phone, live_server)
    phone.fill("#meld_0", "25")  # the next hand, being typed
    phone.context.set_offline(False)
    phone.locator("#outbox").get_by_role("button", name="Compare hand 2").click(timeout=SETTLED_MS)
    phone.get_by_role("button", name="Mine is the next hand: keep it as hand 3").click()
    until_settled(browser, phone, game, 4)
    expect(phone.locator("#expected")).to_have_value("5")
    expect(phone.locator("#meld_0")).to_have_value("25")  # what was typed, under the number after the kept ones
    expect(phone.locator("#record[data-clash]")).to_have_count(0)


def test_the_answer_to_a_question_about_a_kept_hand_discarded_meanwhile_is_not_shown(browser, phone, other_phone,
                                                                                    live_server):
    """Before: Scorepad's answer to the asking, slower than the tap on Discard (a loaded server), put the question
    about a hand no longer kept in the record card's place, and it stayed there."""
    start_game(phone, live_server)
    game = phone.url
    record(phone, ("20", "12"), "30")
    other_phone.goto(game)
    offline(phone)
    record(phone, ("21", "12"), "31", kept=True)  # hand 2 here...
    record(other_phone, ("25", "12"), "25")  # ... and another hand 2 there
    asking = []
    phone.route("**/hands/compare*", lambda route: asking.append(route))  # held until the hand is discarded
    phone.context.set_offline(False)
    discard = phone.locator("#outbox").get_by_role("button", name="Discard hand 2")
    expect(discard).to_be_visible(timeout=SETTLED_MS)
    for _ in range(100):
        if asking:
            break
        phone.wait_for_timeout(50)
    assert asking, "the phone never asked Scorepad to compare the two hands"
    discard.click()
    expect(phone.locator("#outbox")).to_have_count(0, timeout=SETTLED_MS)
    with phone.expect_response("**/hands/compare*"):
        asking[0].continue_()
    phone.wait_for_timeout(300)  # the answer read and, before, swapped in
    expect(phone.locator("#record[data-clash]")).to_have_count(0)
    expect(phone.locator("#hand-form")).to_be_visible()
    assert len(stored(browser, game)) == 2


def test_hands_kept_on_a_game_page_land_from_the_home_page_with_no_error(browser, phone, live_server):
    """The phone goes to the home page with two hands kept (the saves got no answer): opening it sends them, and
    they land there, where there is no record form (its landing once threw, and the next hand waited)."""
    start_game(phone, live_server)
    game = phone.url
    phone.route("**/hands", lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    record(phone, ("20", "12"), "30", kept=True)
    record(phone, ("24", "12"), "34", kept=True)
    phone.unroute("**/hands")
    thrown: list[str] = []  # (the console's words on the saves refused above are not what is asked here)
    phone.on("pageerror", lambda exc: thrown.append(str(exc)))
    phone.goto(live_server)
    expect(phone.locator("#outbox")).to_have_count(0, timeout=SETTLED_MS)  # (the home page lists a game's gone)
    waited = 0
    while len(stored(browser, game)) < 2 and waited < SETTLED_MS:
        phone.wait_for_timeout(250)
        waited += 250
    assert [line.split(" ")[0] for line in stored(browser, game)] == ["1", "2"]
    assert thrown == []


def test_a_form_typed_in_when_the_sheet_lost_a_hand_knows_the_lost_hand_once_its_own_hand_is_kept(
        browser, phone, other_phone, live_server):
    """The form had been typed in (a refused typo, then cleared) when the sheet lost a hand (taken back on another
    phone; the same after an older backup was put back): it kept its number, as it must, but not what the sheet
    takes next. Its hand then kept and held behind, the form went past it (hand 4) instead of to the lost hand 2,
    and stayed there: the polls after were all "not modified"."""
    game = hand_two_on_the_other_phone(phone, other_phone, live_server)
    phone.fill("#bid", "5O")  # typed in, then taken back: the form is hand 3's, being typed
    phone.fill("#bid", "")
    other_phone.locator("#saved").get_by_role("button", name="Undo").click()  # hand 2 taken back
    expect(phone.locator("#live-notice")).to_contain_text("hand 2 was deleted")
    expect(phone.locator("#expected")).to_have_value("3")  # what is typed keeps its number, never renumbered unsaid
    offline(phone)
    record(phone, ("23", "12"), "33", kept=True)  # hand 3, kept
    phone.context.set_offline(False)
    expect(phone.locator("#outbox")).to_contain_text("fewer hands than when it was typed", timeout=SETTLED_MS)
    expect(phone.locator("#expected")).to_have_value("2")  # the hand the sheet lost, to record again here
    assert len(stored(browser, game)) == 1  # (the kept hand waits for it)
