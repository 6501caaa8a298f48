"""The hand form through the Flask test client: what a refusal lists, which button Enter presses, what the
preview says of counters the save would refuse, and Undo for the hand just recorded."""

import json

import pytest

from scorepad.web.games.forms import changed_over
from tests.helpers import parse
from tests.web.helpers import csrf, form_of, hands_stored, new_game, record, totals

HAND = {"bidder": "t0", "bid": "50", "meld_0": "20", "meld_1": "0", "counters_0": "30", "counters_1": "20"}


def last_hand_id(client, game_id) -> int:
    return int(parse(client.get(f"/games/{game_id}")).select_one(".hands details")["id"].split("-")[1])


def undo(client, game_id, hand_id):
    return client.post(f"/games/{game_id}/hands/{hand_id}/undo", data={"csrf_token": csrf(client)})


# --- the page after a save ------------------------------------------------------------------------------------

def test_the_page_after_a_save_says_what_the_hand_scored_and_offers_undo_once(client):
    game_id = new_game(client)
    record(client, game_id, **HAND)
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one("#saved p").get_text() == "Hand 1 recorded: Us +50, Them +20"
    assert page.select_one("#saved form")["action"] == f"/games/{game_id}/hands/{last_hand_id(client, game_id)}/undo"
    assert "just-saved" in page.select_one(".hands details")["class"]
    assert parse(client.get(f"/games/{game_id}")).select_one("#saved") is None  # said once, on the page after


def test_undo_takes_back_the_hand_just_recorded_and_its_record_stays(client, app):
    game_id = new_game(client)
    record(client, game_id, **HAND)
    response = undo(client, game_id, last_hand_id(client, game_id))
    assert response.status_code == 303
    page = parse(client.get(response.headers["Location"]))
    assert hands_stored(app, game_id) == 0 and totals(page) == (0, 0)
    assert "Hand 1 taken back: fix it and record it again" in page.select_one(".flash").get_text()
    assert "1 deleted hand" in page.select_one("#sheet .deleted").get_text()


def typed(page) -> dict:
    form = page.select_one("#hand-form")
    fields = form.select("input[type=number], input[type=text], input:not([type])")
    values = {i["name"]: i.get("value", "") for i in fields}
    values.update({i["name"]: i["value"] for i in form.select("input[type=radio][checked]")})
    return {name: values.get(name) for name in ("bidder", "bid", "trump", "meld_0", "meld_1", "counters_0",
                                                 "counters_1")}


def test_after_undo_the_form_comes_back_filled_with_the_hand_taken_back_not_saved(client, app):
    game_id = new_game(client)
    record(client, game_id, **HAND, trump="S")
    page = parse(client.get(undo(client, game_id, last_hand_id(client, game_id)).headers["Location"]))
    assert typed(page) == {**HAND, "trump": "S"}
    assert hands_stored(app, game_id) == 0
    assert page.select_one("#expected")["value"] == "1"


def test_the_form_is_blank_again_once_the_hand_taken_back_is_not_the_next_one(client, app):
    game_id = new_game(client)
    record(client, game_id, **HAND)
    location = undo(client, game_id, last_hand_id(client, game_id)).headers["Location"]
    record(client, game_id, **{**HAND, "bid": "60", "counters_0": "40", "counters_1": "10"})
    assert typed(parse(client.get(location)))["bid"] == ""
    assert typed(parse(client.get(f"/games/{game_id}?undone=99999999999999999999999")))["bid"] == ""


def test_undo_is_refused_once_another_hand_was_recorded_after_it(client, app):
    game_id = new_game(client)
    record(client, game_id, **HAND)
    first = last_hand_id(client, game_id)
    record(client, game_id, **HAND)  # on another phone, before the first one's Undo was tapped
    response = undo(client, game_id, first)
    assert response.status_code == 409
    said = parse(response).select_one("#form-message").get_text()
    assert "Hand 1 was not undone: hand 2 was recorded after it" in said
    assert hands_stored(app, game_id) == 2


def test_an_edit_is_said_on_the_page_it_lands_on_without_undo(client):
    game_id = new_game(client)
    record(client, game_id, **HAND)
    hand_id = last_hand_id(client, game_id)
    response = client.post(f"/games/{game_id}/hands/{hand_id}/edit",
                           data={"csrf_token": csrf(client), "kind": "played", **HAND, "counters_0": "26",
                                 "counters_1": "24", "edits_seen": "0"})
    page = parse(client.get(response.headers["Location"]))
    assert page.select_one("#saved p").get_text() == "Hand 1 changed: Counters 30 : 20 → 26 : 24"
    assert page.select_one("#saved form") is None


# --- a refused form and the keys --------------------------------------------------------------------------------

def test_a_refused_form_lists_every_wrong_field_in_the_forms_order_and_focuses_the_first(client):
    game_id = new_game(client)
    response = record(client, game_id, bidder="", bid="63", meld_0="x", meld_1="0", counters_0="30", counters_1="25")
    assert response.status_code == 422
    page = parse(response)
    links = [a["href"] for a in page.select("#error-summary a")]
    assert links == ["#field-bidder", "#bid", "#meld_0", "#counters_0"]
    assert page.select_one("#error-summary").get_text(" ", strip=True).startswith("Hand 1 was not saved: 4 things")
    assert [el.get("id") or el["name"] for el in page.select("#hand-form [autofocus]")] == ["bidder"]


@pytest.mark.parametrize(("typed", "items"), [
    # the core says "Meld": the list says whose, as each box is labelled, and a wrong meld on each side is two
    ({"meld_0": "abc", "meld_1": "xyz", "counters_0": "30"},
     ["Us meld must be a whole number (0 or more).", "Them meld must be a whole number (0 or more)."]),
    ({"meld_0": "20", "meld_1": "-5", "counters_0": "30"}, ["Them meld can't be negative."]),
    ({"counters_0": "60"}, ["Us counters: 60 counters is more than the whole hand holds; the most is 50."]),
])
def test_the_list_of_what_to_fix_says_whose_meld_or_counters_is_wrong(client, typed, items):
    game_id = new_game(client)
    response = record(client, game_id, bidder="t0", bid="50", **typed)
    assert response.status_code == 422
    assert [a.get_text(" ", strip=True) for a in parse(response).select("#error-summary a")] == items


def test_the_first_submit_button_of_the_hand_form_saves_so_enter_without_javascript_saves(client):
    game_id = new_game(client)
    first = parse(client.get(f"/games/{game_id}")).select_one("#hand-form button[type=submit]")
    assert first.get_text(strip=True) == "Record hand 1"
    assert not first.has_attr("formaction")


@pytest.mark.parametrize(("counters", "notes"), [
    (("15", "235"), [("warn", "Us counters are counted in steps of 10: 10 or 20, not 15."),
                     ("warn", "Them counters are counted in steps of 10: 230 or 240, not 235.")]),
    # one sentence said of both sides (125 each) is said once
    (("125", "125"), [("warn", "Us counters are counted in steps of 10: 120 or 130, not 125.")]),
    (("150", "100"), [("ok", "Counters add up to 250 of 250.")]),
    (("150", "90"), [("warn", "Counters must add up to 250; these add up to 240.")]),  # as the save says it
])
@pytest.mark.parametrize("bidder", ["t0", ""])  # scored, or not yet: the counters are judged all the same
def test_the_preview_says_of_the_counters_what_the_save_will_say(client, counters, notes, bidder):
    game_id = new_game(client, preset="single-deck")
    response = client.get(f"/games/{game_id}/preview", headers={"HX-Request": "true"},
                          query_string={"bidder": bidder, "bid": "250", "counters_0": counters[0],
                                        "counters_1": counters[1]})
    said = [(p["class"][0].removeprefix("note-"), p.get_text()) for p in parse(response).select("p[class^=note-]")]
    assert [note for note in said if "ounters" in note[1]] == notes
    saved = record(client, game_id, **{**HAND, "bidder": "t0", "bid": "250", "counters_0": counters[0],
                                       "counters_1": counters[1]})
    if notes[0][0] == "warn" and "steps" in notes[0][1]:
        # the list of what to fix says it as the preview did; the box's own line, beside its label, says the core's
        assert notes[0][1] in parse(saved).select_one("#error-summary").get_text()
        beside = parse(saved).select_one("#counters_0-error").get_text()
        assert notes[0][1].removeprefix("Us c") in beside


def test_the_form_only_opens_the_rare_choices_when_one_is_chosen(client):
    game_id = new_game(client)
    assert not parse(client.get(f"/games/{game_id}")).select_one("#rare").has_attr("open")
    refused = parse(record(client, game_id, **{**HAND, "kind": "renege"}))
    assert refused.select_one("#rare").has_attr("open")
    assert form_of(client, game_id)["expected"] == "1"


@pytest.mark.parametrize("field", ["bid", "meld_0", "counters_1"])
def test_a_number_with_more_digits_than_any_score_is_called_far_too_large_and_kept(client, app, field):
    game_id = new_game(client)
    typed = "9" * 23
    fields = {"bidder": "0", "bid": "50", "meld_0": "20", "counters_0": "30", field: typed}
    response = record(client, game_id, **fields)
    assert response.status_code == 422
    page = parse(response)
    assert page.select_one(f"#{field}")["value"] == typed
    assert "far too large to be a score" in page.select_one(".error-summary").get_text()
    assert hands_stored(app, game_id) == 0


@pytest.mark.parametrize(("typed", "said", "not_said"), [
    # a bid off the steps is said as soon as it is typed; the bidder not yet tapped is still to come
    ({"bid": "62"}, "Bids from 60 go up in steps of 5: 60 or 65, not 62.", "Choose the team"),
    ({"bidder": "t0", "bid": "45"}, "Bid must be at least 50.", "Enter the counters"),
    ({"bidder": "t0", "meld_0": "abc"}, "Us meld must be a whole number", "Choose the team"),
    ({"bidder": "t0", "meld_1": "abc"}, "Them meld must be a whole number", "Us meld"),
    ({"bidder": "t0", "counters_0": "x1"}, "Us counters must be a whole number", "Bid must"),
])
def test_the_preview_says_what_is_wrong_in_a_field_as_soon_as_it_is_typed(client, typed, said, not_said):
    game_id = new_game(client)
    response = client.get(f"/games/{game_id}/preview", headers={"HX-Request": "true"}, query_string=typed)
    text = parse(response).get_text(" ", strip=True)
    assert said in text and not_said not in text
    assert "The result shows here as you type." not in text


def test_the_line_above_record_says_the_first_thing_wrong_and_nothing_while_a_hand_is_only_half_typed(client):
    """A bid of 62 was said only in the preview, below the fold on a phone with its keyboard up: the line above
    Record stayed blank."""
    game_id = new_game(client)

    def line(**typed) -> str:
        answer = client.get(f"/games/{game_id}/preview", headers={"HX-Request": "true"}, query_string=typed)
        return parse(answer).select_one("#preview-line").get_text(" ", strip=True)

    assert line(bidder="t0", bid="62") == "Bids from 60 go up in steps of 5: 60 or 65, not 62."
    assert line(bidder="t0", bid="55", counters_0="60") == \
        "Us counters: 60 counters is more than the whole hand holds; the most is 50."
    assert line(bidder="t0", bid="62", meld_0="abc", meld_1="-5") == \
        "Bids from 60 go up in steps of 5: 60 or 65, not 62. (and 2 more)"  # not the only one wrong
    assert line(bidder="t0", bid="55", meld_0="30") == ""  # not yet a hand: nothing to say
    assert line(bidder="t0", bid="55", meld_0="30", counters_0="28") == "Made · Us +58 · Them +22 → 58 : 22"


def follow_of(client, game_id, shown, **typed) -> dict | None:
    """What the preview's answer tells a refused form (see forms.following), or None when it tells nothing."""
    query = typed if shown is None else {**typed, "shown": shown}
    answer = parse(client.get(f"/games/{game_id}/preview", headers={"HX-Request": "true"}, query_string=query))
    carried = answer.select_one("[data-follow]")
    return None if carried is None else json.loads(carried["data-follow"])


def test_a_refused_form_is_told_what_a_save_would_refuse_now_as_the_player_types(client):
    """After a refused save, a box's line stayed under it once it was fixed (and in the list), while the preview
    already scored the hand; a new mistake typed then was said only in the preview. The preview's answer to a
    refused form says what a save would refuse now: the fixed box not at all, a box typed wrong since in its words,
    a blank box not yet said nothing."""
    game_id = new_game(client)
    hand = {**HAND, "meld_0": "abc", "meld_1": "-5"}
    refused = parse(record(client, game_id, **hand))
    assert {line["id"] for line in refused.select(".field-error")} == {"meld_0-error", "meld_1-error"}
    # Us meld fixed: only Them's is still wrong
    now = follow_of(client, game_id, "meld_0,meld_1", **{**hand, "meld_0": "20"})
    assert now == {"lines": {"meld_1": "Meld can't be negative."}, "list": [["meld_1", "Them meld can't be negative."]],
                   "count": "one thing to fix"}
    # both fixed, a bid typed off its steps since: the bid is said, under its own box and in the list
    now = follow_of(client, game_id, "meld_1", **{**HAND, "bid": "62"})
    assert now["lines"] == {"bid": "Bids from 60 go up in steps of 5: 60 or 65, not 62."}
    assert now["count"] == "one thing to fix"
    # what the list says is not said again in the preview beside it (the line above Record still names it)
    answer = parse(client.get(f"/games/{game_id}/preview", headers={"HX-Request": "true"},
                              query_string={**HAND, "bid": "62", "shown": "bid"}))
    assert "steps of 5" not in " ".join(p.get_text() for p in answer.select("p[class^=note-]"))
    assert "steps of 5" in answer.select_one("#preview-line").get_text()
    # everything right: nothing is said (the list hides); the preview scores the hand
    assert follow_of(client, game_id, "meld_1", **HAND) == {"lines": {}, "list": [], "count": "0 things to fix"}
    # a blank box that was never said to be wrong stays quiet; one that was, still is
    blank = {**HAND, "counters_0": "", "counters_1": ""}
    assert follow_of(client, game_id, "", **blank)["lines"] == {}
    assert list(follow_of(client, game_id, "counters", **blank)["lines"]) == ["counters"]


def test_a_refused_form_emptied_again_is_still_told_what_a_save_would_refuse(client):
    """Record tapped on an empty form, then a digit typed and taken back: the form was blank again, its preview
    read nothing, and the list and lines went while Record still refused both."""
    game_id = new_game(client)
    now = follow_of(client, game_id, "bidder,counters")
    assert set(now["lines"]) == {"bidder", "counters"} and now["count"] == "2 things to fix"


def test_a_form_not_refused_is_told_nothing_beside_its_preview(client):
    game_id = new_game(client)
    assert follow_of(client, game_id, None, **{**HAND, "bid": "62"}) is None


def test_a_refused_edit_follows_the_typing_too(client):
    game_id = new_game(client)
    record(client, game_id, **HAND)
    hand_id = last_hand_id(client, game_id)
    answer = client.get(f"/games/{game_id}/hands/{hand_id}/preview", headers={"HX-Request": "true"},
                        query_string={**HAND, "meld_1": "-7", "shown": "meld_1,bid"})
    now = json.loads(parse(answer).select_one("[data-follow]")["data-follow"])
    assert now["list"] == [["meld_1", "Them meld can't be negative."]]


def test_a_fresh_form_s_preview_finds_nothing_wrong_yet(client):
    game_id = new_game(client)
    response = client.get(f"/games/{game_id}/preview", headers={"HX-Request": "true"},
                          query_string={"bidder": "", "bid": "", "meld_0": "", "meld_1": ""})
    assert parse(response).get_text(" ", strip=True) == "The result shows here as you type."


# --- the bid chips --------------------------------------------------------------------------------------------

def chips(page) -> list[int]:
    return [int(chip["data-bid"]) for chip in page.select(".bid-chips .chip")]


def test_the_bid_chips_offer_the_bids_this_game_was_played_at(client):
    game_id = new_game(client)
    assert chips(parse(client.get(f"/games/{game_id}"))) == [50, 51, 52, 55, 60]
    for bid in ("65", "70"):
        record(client, game_id, **{**HAND, "bid": bid, "meld_0": "40", "counters_0": "40", "counters_1": "10"})
    assert chips(parse(client.get(f"/games/{game_id}"))) == [50, 51, 52, 65, 70]
    # the edit of a hand offers what was bid before it and its own bid (the one in its field), not what came after
    first = parse(client.get(f"/games/{game_id}")).select(".hands details")[-1]["id"].split("-")[1]
    assert chips(parse(client.get(f"/games/{game_id}/hands/{first}/edit"))) == [50, 51, 52, 55, 65]


def test_the_stuck_dealer_s_button_is_named_for_this_hand_and_for_each_hand_ahead(client):
    """What game.js taps when "everyone passed" is ticked: the dealer's bidder button, here and in the headings a
    phone numbers by itself while Scorepad cannot be reached."""
    game_id = new_game(client, player_0="Ann", player_1="Bob", player_2="Cat", player_3="Dan", first_dealer="1")
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one("#forced")["data-dealer"] == "s1"
    ahead = json.loads(page.select_one("#hand-form")["data-ahead"])
    assert [(a["n"], a["dealer"], a["deals"]) for a in ahead[:5]] == [
        (1, "Bob", "s1"), (2, "Cat", "s2"), (3, "Dan", "s3"), (4, "Ann", "s0"), (5, "Bob", "s1")]
    teams = new_game(client, first_dealer="1")  # nobody named: the dealer's team
    assert parse(client.get(f"/games/{teams}")).select_one("#forced")["data-dealer"] == "t1"


# --- an edit refused because another phone changed the hand meanwhile ----------------------------------------

OPENED = {"bid": "50", "meld_0": "20", "counters_0": "30", "counters_1": "20"}


@pytest.mark.parametrize(("mine", "now", "made"), [
    # only what this phone changed is made over the other phone's change
    ({**OPENED, "counters_0": "45", "counters_1": "5"}, {**OPENED, "bid": "55"},
     {**OPENED, "bid": "55", "counters_0": "45", "counters_1": "5"}),
    # the same field changed on both: this phone's value, which the question marks
    ({**OPENED, "bid": "60"}, {**OPENED, "bid": "55"}, {**OPENED, "bid": "60"}),
    # nothing changed here that the other phone did not change the same way: the hand as it is now
    ({**OPENED, "bid": "55"}, {**OPENED, "bid": "55", "meld_0": "40"}, {**OPENED, "bid": "55", "meld_0": "40"}),
])
def test_a_change_made_again_over_another_phone_s_keeps_what_it_did_not_change(mine, now, made):
    assert changed_over(mine, OPENED, now) == made


def test_a_change_whose_opened_hand_is_not_known_is_made_whole():
    mine = {**OPENED, "bid": "60"}
    assert changed_over(mine, None, {**OPENED, "meld_0": "40"}) == mine


@pytest.mark.parametrize(("field", "typed"), [("bid", "5 5"), ("meld_0", "2 0"), ("counters_0", "3,0")])
def test_a_space_or_comma_that_groups_no_thousands_is_refused_not_read_as_the_digits_run_together(
        client, app, field, typed):
    """"2 0" was read as 20 without a word: a slip of the thumb (or a decimal comma) became a score."""
    game_id = new_game(client)
    page = parse(record(client, game_id, **{**HAND, field: typed}))
    assert page.select_one(f"#{field}")["value"] == typed
    assert page.select_one(f"#{field}-error") is not None
    assert hands_stored(app, game_id) == 0
