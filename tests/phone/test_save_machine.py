"""The phone's save protocol, one row per scenario the browser tests play on two phones (tests/browser/
test_two_phones_browser.py, test_kept_hands_settled_browser.py, test_failed_save_browser.py), and the seams
between them: each row drives the machine (static/save_machine.js) event by event and says what must hold.
No browser, no server, no timers: milliseconds each."""

from __future__ import annotations

import pytest

from tests.phone.machine import Phone, engine
from tests.phone.protocol_rows import ROWS, run


@pytest.mark.parametrize("steps", ROWS.values(), ids=ROWS.keys())
def test_the_save_protocol(steps):
    run(Phone(), steps)


def test_only_one_hand_is_on_its_way_at_a_time():
    phone = Phone().keep("a", 1).keep("b", 2, game="H")
    phone.on("sent", id=phone.id("a"))
    assert phone.next() is None
    phone.on("answer", id=phone.id("a"), kind="saved")
    assert phone.next() == "b"


def test_a_kept_hand_of_another_game_is_never_counted_in_this_games_form():
    phone = Phone().keep("a", 5, game="another")
    assert phone.form_number(1) == 1 and not phone.queued("t", 1)


def test_a_hand_held_behind_on_a_form_that_kept_its_number_goes_to_the_hand_the_page_heard_was_lost():
    """The page's sheet says hand 3 is next (the form was typed in when the sheet lost hand 2, so it kept its number),
    but the page heard the sheet takes hand 2 next (`lost`): once hand 3 is held behind, the form is hand 2's."""
    phone = Phone().keep("a", 3)
    assert phone.form_number(3, lost=2) == 4  # not held behind yet: past the kept hand
    phone.on("sent", id=phone.id("a"))
    phone.on("answer", id=phone.id("a"), kind="behind")
    assert phone.form_number(3) == 4 and phone.form_number(3, lost=2) == 2
    assert phone.form_number(2, lost=0) == 2  # the page's own sheet, when it heard


def test_every_state_says_whether_it_blocks_is_retried_and_what_it_offers():
    states = engine().eval("JSON.stringify(ScorepadSave.STATES)")
    import json
    table = json.loads(states)
    assert set(table) == {"waiting", "sending", "passcode", "behind", "clash", "repeat", "refused", "answering",
                          "fixing", "elsewhere", "gone"}
    assert all(set(row) == {"blocks", "retried", "offers"} for row in table.values())
    answers = json.loads(engine().eval("JSON.stringify(ScorepadSave.ANSWERS)"))
    from scorepad.web.shell.answers import KINDS
    assert set(answers) == set(KINDS)  # every kind of answer the server gives leads somewhere
    assert all(state is None or state in table for state in answers.values())


def test_a_kept_hand_asked_about_a_meld_no_hand_melds_is_recorded_anyway_with_that_questions_yes():
    phone = Phone().keep("a", 2)
    phone.send("a", "repeat", words="Is this meld right?", yes="meld_ok")
    phone.on("anyway", id=phone.id("a"))
    body = dict(phone.entry("a")["body"])
    assert body["meld_ok"] == "1" and "repeat" not in body and phone.next() == "a"


def test_the_question_about_a_kept_hand_stands_until_it_is_discarded_or_answered():
    """Scorepad's answer to the asking may come after the hand was discarded on the card: it is then not shown
    (before, a question about a hand no longer kept stayed on the page, once in a loaded .ci/run)."""
    def asked(phone, label):
        return phone.js.call("ScorepadSave.asked", phone.model, phone.id(label))

    phone = Phone().keep("a", 2).keep("b", 3)
    assert not asked(phone, "a")  # not asked about yet: on its way
    phone.send("a", "clash")
    assert asked(phone, "a") and not asked(phone, "b")
    phone.on("discard", id=phone.id("a"))
    assert not asked(phone, "a")
    other = Phone().keep("a", 2, token="t2")
    other.send("a", "clash")
    other.on("answered", game=other.game, hand=2, how="mine", token="t2")
    assert not asked(other, "a")  # answered: the answer is on its way, the question is not asked again meanwhile
