"""The score sheet through the Flask test client: every route, every refusal, nothing stored on a refusal."""

import json
import re

import pytest

from scorepad.store import connection, games
from tests.helpers import parse
from tests.web.helpers import csrf, form_of, hands_stored, new_game, read, record, totals

# --- home and new game ---------------------------------------------------------------------------------------

def test_home_puts_new_game_first_then_games_in_progress_then_finished(client):
    page = parse(client.get("/"))
    first = page.select_one("main a.button")
    assert first.get_text(strip=True) == "New game" and first["href"] == "/games/new"
    new_game(client, team_0="Ann & Bob", team_1="Cat & Dan")
    page = parse(client.get("/"))
    sections = page.select("main section.card h2")
    assert [h.get_text() for h in sections] == ["In progress"]
    assert "Ann & Bob" in page.select_one(".game-list").get_text()


def test_a_game_starts_in_two_taps_with_the_defaults(client):
    page = parse(client.get("/games/new"))
    assert page.select_one("input[name=preset][value=double-deck]").has_attr("checked")
    game_id = new_game(client)
    page = parse(client.get(f"/games/{game_id}"))
    assert [t.get_text() for t in page.select(".team-name")] == ["Us", "Them"]
    assert totals(page) == (0, 0)
    assert "Game to 500" in page.select_one(".scoreboard .target").get_text()
    assert page.select_one(".scoreboard .deal").get_text(strip=True) == "North deals · East bids first"


def test_each_preset_says_who_plays_it_that_way(client):
    page = parse(client.get("/games/new"))
    presets = page.select(".preset")
    assert len(presets) == 5
    assert all(p.select_one(".muted").get_text(strip=True) for p in presets)


def test_players_are_remembered_and_offered_again(client):
    new_game(client, player_0="Ann", player_1="Bob", player_2="Cat", player_3="Dan", first_dealer="2")
    page = parse(client.get("/games/new"))
    assert [o["value"] for o in page.select("#known-players option")] == ["Ann", "Bob", "Cat", "Dan"]


def test_named_players_deal_in_turn_and_bid_by_tap(client):
    game_id = new_game(client, player_0="Ann", player_1="Bob", player_2="Cat", player_3="Dan", first_dealer="2")
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one(".scoreboard .deal").get_text(strip=True) == "Cat deals · Dan bids first"
    assert bidder_buttons(page) == ["Ann", "Bob", "Cat", "Dan"]  # in seat order: each keeps one place all game
    assert first_to_bid(page) == "Dan"  # the dealer's left is marked, not moved
    assert record(client, game_id, bidder="s3", bid=50, meld_0=0, meld_1=20, counters_0=20,
                  counters_1=30).status_code == 303
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one(".scoreboard .deal").get_text(strip=True) == "Dan deals · Ann bids first"
    assert totals(page) == (20, 50)
    assert (bidder_buttons(page), first_to_bid(page)) == (["Ann", "Bob", "Cat", "Dan"], "Ann")
    # editing hand 1 marks who bid first in it, not in the next hand
    hand_id = page.select_one(".hands details")["id"].split("-")[1]
    edit = parse(client.get(f"/games/{game_id}/hands/{hand_id}/edit"))
    assert (bidder_buttons(edit), first_to_bid(edit)) == (["Ann", "Bob", "Cat", "Dan"], "Dan")


def bidder_buttons(page) -> list[str]:
    return [span.select_one(".bidder-name").get_text(strip=True) for span in page.select("#field-bidder .choice span")]


def first_to_bid(page) -> str:
    marked = [span for span in page.select("#field-bidder .choice span") if span.select_one(".bids-first")]
    assert len(marked) == 1
    return marked[0].select_one(".bidder-name").get_text(strip=True)


def test_house_rules_are_kept_with_the_game_and_shown_in_words(client, app):
    game_id = new_game(client, target="1000", floor="minus_target", set_penalty="chips")
    page = parse(client.get(f"/games/{game_id}"))
    words = [li.get_text() for li in page.select(".rules-card li")]
    assert "Game is 1,000; if both teams reach it on the same hand, the bidders win." in words
    assert "A team at −1,000 or below loses." in words
    db = connection.connect(app.config["DATABASE"])
    rules = games.load_game(db, game_id).rules
    db.close()
    assert (rules.target, rules.floor, rules.set_penalty) == (1000, -1000, "chips")


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"target": "lots"}, "target", "Game to: a whole number from 1 to 100,000, or blank for the rule set's own."),
    ({"team_0": "Us", "team_1": "us"}, "team_1", "The two teams need different names."),
    ({"player_0": "Ann", "player_2": "ann"}, "players", "Each player sits in one seat only"),
    ({"target": "0"}, "target", "Game to: a whole number from 1 to 100,000"),
    ({"meld_table": "004"}, "meld_table", "That meld table is for the other deck"),
])
def test_a_refused_new_game_says_why_and_keeps_what_was_typed(client, fields, field, message):
    response = client.post("/games/new", data={"csrf_token": csrf(client), "preset": "double-deck", **fields})
    assert response.status_code == 422
    page = parse(response)
    assert message in page.select_one(f"#{field}-error").get_text()
    for name, value in fields.items():
        element = page.select_one(f"[name={name}]")
        shown = element.select_one("option[selected]")["value"] if element.name == "select" else element["value"]
        assert shown == value


# --- recording ---------------------------------------------------------------------------------------------

def test_a_recorded_hand_goes_on_the_sheet_with_its_explanation(client, app):
    game_id = new_game(client)
    response = record(client, game_id, bidder="t0", bid=55, trump="H", meld_0=30, meld_1=12, counters_0=28,
                      counters_1=22)
    assert response.status_code == 303
    page = parse(client.get(f"/games/{game_id}"))
    assert totals(page) == (58, 22)
    row = page.select_one(".hands details")
    assert row.select_one(".num").get_text() == "1"
    assert "55" in row.select_one(".what").get_text() and "♥" in row.select_one(".trump").get_text()
    assert [li.get_text() for li in row.select(".explanation li")][2] == \
        "Bidders made 58 (meld 30 + counters 28) against a bid of 55: +58."
    assert page.select_one("#record-heading").get_text(" ", strip=True).startswith("Hand 2")


def test_typing_one_teams_counters_fills_in_the_other(client):
    game_id = new_game(client)
    assert record(client, game_id, bidder="t1", bid=50, meld_0=0, meld_1=25, counters_1=30).status_code == 303
    assert totals(parse(client.get(f"/games/{game_id}"))) == (20, 55)


def test_one_teams_counters_over_the_whole_hand_are_the_one_thing_said_wrong(client):
    """55 typed in Us's counters, Them's left blank: that field is not "negative", it was never typed."""
    game_id = new_game(client)
    answer = record(client, game_id, bidder="t0", bid=50, meld_0=20, counters_0=55)
    assert answer.status_code == 422
    page = parse(answer)
    assert page.select_one("#counters_0-error").get_text(strip=True) == (
        "55 counters is more than the whole hand holds; the most is 50.")
    assert page.select("#counters_1-error") == [] and "2 things" not in page.select_one("#error-summary").get_text()
    assert page.select_one("#counters_1")["value"] == ""


def test_a_set_is_marked_on_the_sheet(client):
    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid=65, meld_0=40, meld_1=0, counters_0=24, counters_1=26)
    page = parse(client.get(f"/games/{game_id}"))
    assert "is-set" in page.select_one(".hands details")["class"]
    assert page.select_one(".badge-set").get_text() == "set"


@pytest.mark.parametrize(("kind", "extra", "points"), [
    ("throw_in", {}, (-60, 45)),
    ("no_marriage", {}, (-60, 45)),
    ("renege", {"renege_team": "1"}, (60, -60)),
])
def test_hands_that_are_not_played_need_no_counters(client, kind, extra, points):
    game_id = new_game(client)
    data = {**form_of(client, game_id), "kind": kind, "bidder": "t0", "bid": "60", "meld_0": "30",
            "meld_1": "25", "counters_0": "", "counters_1": "", **extra}
    assert client.post(f"/games/{game_id}/hands", data=data).status_code == 303
    assert totals(parse(client.get(f"/games/{game_id}"))) == points


def test_a_renege_on_the_sheet_says_who_reneged_beside_who_bid(client):
    """"Us 60 RENEGE" read as if the bidders had reneged."""
    game_id = new_game(client)
    data = {**form_of(client, game_id), "kind": "renege", "bidder": "t0", "bid": "60", "meld_0": "30",
            "meld_1": "25", "renege_team": "1"}
    assert client.post(f"/games/{game_id}/hands", data=data).status_code == 303
    row = parse(client.get(f"/games/{game_id}")).select_one(".hands details .line2")
    assert " · Them reneged · " in " ".join(row.get_text(" ").split())


REFUSED = [
    ("a bid as text", {"bid": "fifty"}, "bid", "Bid must be a whole number, 50 or more."),
    ("a huge bid", {"bid": "99999999999"}, "bid", "is more than any hand can make"),
    ("a bid off the steps", {"bid": "63"}, "bid", "Bids from 60 go up in steps of 5: 60 or 65, not 63."),
    ("negative meld", {"meld_0": "-5"}, "meld_0", "Meld can't be negative."),
    ("meld as text", {"meld_1": "twenty"}, "meld_1", "Meld must be a whole number (0 or more)."),
    ("counters not adding up", {"counters_0": "20", "counters_1": "28"}, "counters",
     "Counters must add up to 50; these add up to 48."),
    ("empty counters", {"counters_0": "", "counters_1": ""}, "counters",
     "Enter the counters each team took (together 50)."),
    ("counters as text", {"counters_0": "abc", "counters_1": "20"}, "counters_0",
     "Counters must be a whole number (0 or more)."),
    ("huge counters", {"counters_0": "5000", "counters_1": ""}, "counters_0", "5,000 counters is more than"),
    ("no bidder", {"bidder": ""}, "bidder", "Tap the team that won the bid."),
    ("a renege without a team", {"kind": "renege"}, "renege_team", "Choose the team that reneged."),
    ("an unknown kind", {"kind": "misdeal"}, "kind", "Choose what happened"),
]


def test_a_bid_left_blank_is_the_minimum_its_placeholder_shows(client):
    game_id = new_game(client)
    page = parse(client.get(f"/games/{game_id}"))
    assert (page.select_one("#bid")["value"], page.select_one("#bid")["placeholder"]) == ("", "50")
    record(client, game_id, bidder="t0", bid="", meld_0="30", meld_1="12", counters_0="28", counters_1="22")
    row = parse(client.get(f"/games/{game_id}")).select_one(".hands .hand-row .what")
    assert row.get_text(" ", strip=True).startswith("Us 50")


@pytest.mark.parametrize(("changes", "field", "message"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_a_refused_hand_is_422_with_the_message_by_the_field_everything_kept_nothing_stored(
        client, app, changes, field, message):
    game_id = new_game(client)
    typed = {"bidder": "t0", "bid": "55", "meld_0": "30", "meld_1": "12", "counters_0": "28", "counters_1": "22",
             **changes}
    response = record(client, game_id, **typed)
    assert response.status_code == 422
    page = parse(response)
    assert message in page.select_one(f"#{field}-error").get_text()
    for name, value in typed.items():
        if name in ("bidder", "kind"):
            checked = page.select_one(f"input[name={name}][checked]")
            assert (checked["value"] if checked else "") == value or name == "kind"
        else:
            assert page.select_one(f"input[name={name}]")["value"] == value
    assert hands_stored(app, game_id) == 0


def test_a_post_without_the_csrf_token_is_refused_and_stores_nothing(app, make_app, tmp_path):
    strict = make_app(TESTING=False, DATABASE=tmp_path / "strict.db")
    client = strict.test_client()
    game_id = new_game(client)
    data = {k: v for k, v in form_of(client, game_id).items() if k != "csrf_token"}
    response = client.post(f"/games/{game_id}/hands", data={**data, "kind": "played", "bidder": "t0",
                                                            "bid": "50", "counters_0": "50"})
    assert response.status_code == 400
    assert "nothing was saved" in parse(response).get_text()
    assert hands_stored(strict, game_id) == 0


def test_the_same_hand_posted_twice_is_stored_once(client, app):
    game_id = new_game(client)
    data = {**form_of(client, game_id), "kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50"}
    first = client.post(f"/games/{game_id}/hands", data=data)
    second = client.post(f"/games/{game_id}/hands", data=data)
    assert first.status_code == second.status_code == 303
    assert hands_stored(app, game_id) == 1
    page = parse(client.get(second.headers["Location"]))
    assert "already saved" in page.select_one(".flash").get_text()


def test_two_phones_recording_the_same_hand_store_it_once(client, app):
    game_id = new_game(client)
    phone_a, phone_b = form_of(client, game_id), form_of(client, game_id)
    assert phone_a["token"] != phone_b["token"] and phone_a["expected"] == phone_b["expected"] == "1"
    hand = {"kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50"}
    assert client.post(f"/games/{game_id}/hands", data={**phone_a, **hand}).status_code == 303
    response = client.post(f"/games/{game_id}/hands", data={**phone_b, **hand, "bid": "55"})
    assert response.status_code == 409
    assert hands_stored(app, game_id) == 1
    # nothing typed is moved on to hand 2 unasked: the question takes the form's place
    page = parse(response)
    question = page.select_one("#record.clash")
    assert question.select_one("h2").get_text() == "Hand 1 was just recorded on another phone"
    assert page.select_one("input[name=bid][type=number]") is None
    differs = [row.select_one("th").get_text() for row in question.select("tr.differs")]
    assert differs == ["Bid"]
    assert question.select_one("tr.differs mark").get_text() == "55"
    answers = [a.get_text(" ", strip=True) for a in question.select(".clash-choices a, .clash-choices button")]
    assert answers == ["Same hand: discard mine", "Same hand, mine is right: change hand 1 to mine",
                       "Mine is the next hand: keep it as hand 2"]


def _answer(page, label: str) -> tuple[str, dict]:
    """The form behind one of the two-phone question's answers: its address and what it sends."""
    button = next(b for b in page.select(".clash-choices button") if label in b.get_text())
    form = button.find_parent("form")
    return form["action"], {i["name"]: i["value"] for i in form.select("input[type=hidden]")}


def _a_clash(client, game_id, mine: dict):
    phone_a, phone_b = form_of(client, game_id), form_of(client, game_id)
    theirs = {"kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50"}
    assert client.post(f"/games/{game_id}/hands", data={**phone_a, **theirs}).status_code == 303
    response = client.post(f"/games/{game_id}/hands", data={**phone_b, **mine})
    assert response.status_code == 409
    return parse(response)


def test_mine_is_the_next_hand_keeps_what_was_typed_as_the_next_hand(client, app):
    game_id = new_game(client)
    page = _a_clash(client, game_id, {"kind": "played", "bidder": "t1", "bid": "60", "counters_1": "50"})
    action, sent = _answer(page, "keep it as hand 2")
    assert client.post(action, data=sent).status_code == 303
    assert hands_stored(app, game_id) == 2
    db = connection.connect(app.config["DATABASE"])
    try:
        assert [row.hand.bid for row in games.live_hands(db, game_id)] == [50, 60]
    finally:
        db.close()
    # sent twice (a double tap), it is still one hand
    assert client.post(action, data=sent).status_code == 303
    assert hands_stored(app, game_id) == 2


def test_mine_is_right_changes_the_recorded_hand_and_keeps_it_in_its_history(client, app):
    game_id = new_game(client)
    page = _a_clash(client, game_id, {"kind": "played", "bidder": "t0", "bid": "55", "counters_0": "50"})
    action, sent = _answer(page, "change hand 1 to mine")
    assert client.post(action, data=sent).status_code == 303
    assert hands_stored(app, game_id) == 1
    sheet = parse(client.get(f"/games/{game_id}"))
    story = sheet.select_one(".hands details").get_text(" ", strip=True)
    assert "55" in story and "edited" in story.lower()


def test_discard_mine_leaves_the_hand_as_the_other_phone_recorded_it(client, app):
    game_id = new_game(client)
    page = _a_clash(client, game_id, {"kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50"})
    assert page.select_one(".clash p").get_text().endswith("Every number is the same.")
    assert [b.get_text() for b in page.select(".clash-choices button")] == [
        "Mine is the next hand: keep it as hand 2"]  # nothing to change hand 1 to
    link = page.select_one(".clash-choices a")
    assert link.get_text() == "Same hand: discard mine" and "primary" in link["class"]
    assert client.get(link["href"]).status_code == 200
    assert hands_stored(app, game_id) == 1


def test_the_question_is_asked_for_a_form_still_being_typed(client):
    game_id = new_game(client)
    phone_b = form_of(client, game_id)
    assert client.get(f"/games/{game_id}/hands/compare", query_string={**phone_b, "bid": "55"}).status_code == 204
    assert record(client, game_id, kind="played", bidder="t0", bid="50", counters_0="50").status_code == 303
    answer = client.get(f"/games/{game_id}/hands/compare", query_string={**phone_b, "bid": "55"},
                        headers={"HX-Request": "true"})
    assert answer.status_code == 200
    page = parse(answer)
    assert page.find("html") is None and page.select_one("#record.clash")["data-clash"] == "1"
    # still being typed (no counters): "the next hand" puts it back in the form as hand 2, it saves nothing
    button = next(b for b in page.select(".clash-choices button") if "go on with it as hand 2" in b.get_text())
    form = button.find_parent("form")
    assert form["method"] == "get"
    carried = {i["name"]: i["value"] for i in form.select("input[type=hidden]")}
    again = parse(client.get(form["action"], query_string=carried))
    assert again.select_one("input[name=bid]")["value"] == "55"
    assert again.select_one("#expected")["value"] == "2"
    # a finished hand is saved by it, as hand 2, with the token of its form
    whole = {**phone_b, "kind": "played", "bidder": "t1", "bid": "55", "counters_1": "50"}
    page = parse(client.get(f"/games/{game_id}/hands/compare", query_string=whole, headers={"HX-Request": "true"}))
    _, sent = _answer(page, "keep it as hand 2")
    assert sent["bid"] == "55" and sent["expected"] == "2" and sent["token"] == phone_b["token"]


def test_the_question_about_a_hand_that_won_the_game_meanwhile_is_asked_not_a_500(client):
    """Phone B types hand 4 while phone A records it, and A's hand 4 wins the game."""
    game_id = new_game(client)
    for _ in range(3):
        record(client, game_id, bidder="t0", bid=150, meld_0=100, counters_0=50)
    phone_b = {**form_of(client, game_id), "kind": "played", "bidder": "t0", "bid": "50", "counters_0": "40"}
    record(client, game_id, bidder="t0", bid=50, counters_0=50)  # 500: Us won
    answer = client.get(f"/games/{game_id}/hands/compare", query_string=phone_b, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    page = parse(answer)
    assert page.select_one("#record.clash")["data-clash"] == "4"
    assert not any("keep it as hand 5" in b.get_text() for b in page.select(".clash-choices button"))


def test_a_hand_sent_late_for_a_hand_that_won_the_game_on_another_phone_is_asked_about(client, app):
    """Phone B was offline with hand 4 kept; phone A recorded hand 4, which won. B's hand arrives: which hand is
    it is the question (it may be the same one), not "the game is over"."""
    game_id = new_game(client)
    for _ in range(3):
        record(client, game_id, bidder="t0", bid=150, meld_0=100, counters_0=50)
    phone_b = {**form_of(client, game_id), "kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50"}
    record(client, game_id, bidder="t0", bid=50, counters_0=50)  # 500: Us won
    answer = client.post(f"/games/{game_id}/hands", data=phone_b)
    assert answer.status_code == 409 and hands_stored(app, game_id) == 4
    page = parse(answer)
    assert page.select_one("#record.clash")["data-clash"] == "4"
    assert page.select_one(".clash p").get_text().endswith("Every number is the same.")
    # a hand 5 (the form moved on while offline) still hears that the game takes no more
    late = client.post(f"/games/{game_id}/hands", data={**phone_b, "token": "t5", "expected": "5"})
    assert late.status_code == 409 and "The game is over" in late.get_data(as_text=True)


def test_the_same_numbers_as_the_hand_before_are_asked_about_before_they_are_stored(client, app):
    game_id = new_game(client)
    hand = {"kind": "played", "bidder": "t0", "bid": "50", "meld_0": "20", "counters_0": "30", "counters_1": "20"}
    assert client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **hand}).status_code == 303
    response = client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **hand})
    assert response.status_code == 409
    assert hands_stored(app, game_id) == 1
    page = parse(response)
    question = page.select_one(".repeat-question")
    assert "This looks like hand 1 again" in question.get_text()
    # when hand 1 was recorded, as the house's clock said it (not "a few minutes ago" of a hand 30 s old)
    stored = read(app, lambda db: db.execute("SELECT created_at FROM hands WHERE game_id = ?", [game_id]).fetchone()[0])
    when = question.select_one("time")
    assert when["datetime"] == stored and re.fullmatch(r"\d\d:\d\d", when.get_text())
    assert f"same as hand 1, recorded at {when.get_text()}." in " ".join(question.get_text().split())
    assert page.select_one("input[name=meld_0]")["value"] == "20"  # what was typed is kept
    button = question.select_one("button[name=repeat]")
    assert button.get_text() == "Yes, record it as hand 2"
    form = button.find_parent("form")
    sent = {i["name"]: i.get("value", "") for i in form.select("input") if i.get("name")}
    assert client.post(form["action"], data={**sent, "repeat": "1"}).status_code == 303
    assert hands_stored(app, game_id) == 2


# --- fragments and polling -----------------------------------------------------------------------------------

def test_the_preview_is_a_fragment_for_htmx_and_a_page_without_it(client):
    game_id = new_game(client)
    query = {"bidder": "t0", "bid": "55", "meld_0": "30", "meld_1": "12", "counters_0": "28", "counters_1": "22"}
    fragment = client.get(f"/games/{game_id}/preview", query_string=query, headers={"HX-Request": "true"})
    assert fragment.headers["Vary"] == "HX-Request"
    page = parse(fragment)
    assert page.find("html") is None
    assert page.select_one(".preview-score").get_text(" ", strip=True) == "Us +58 · Them +22 → 58 : 22"
    whole = parse(client.post(f"/games/{game_id}/preview", data={"csrf_token": csrf(client), **query}))
    assert whole.find("html") is not None
    assert whole.select_one("#preview .preview-score") is not None
    assert whole.select_one("input[name=meld_0]")["value"] == "30"


def test_check_without_javascript_says_what_is_wrong_in_what_is_typed_as_a_save_would(client):
    """Without JavaScript, Check after a refused save showed the preview and dropped the list of what to fix."""
    game_id = new_game(client)
    typed = {"bidder": "t0", "bid": "62", "meld_0": "30", "meld_1": "-5", "counters_0": "", "counters_1": ""}
    page = parse(client.post(f"/games/{game_id}/preview", data={"csrf_token": csrf(client), **typed}))
    assert [a["href"] for a in page.select("#error-summary a")] == ["#bid", "#meld_1"]  # not the blank counters
    assert page.select_one(".error-summary-title").get_text(" ", strip=True).startswith("Hand 1 can't be saved yet")
    assert page.select_one("#meld_1")["value"] == "-5"
    fixed = parse(client.post(f"/games/{game_id}/preview", data={"csrf_token": csrf(client), **typed, "bid": "60",
                                                                  "meld_1": "0", "counters_0": "30"}))
    assert fixed.select_one("#error-summary") is None and fixed.select_one("#preview .preview-score") is not None


def test_the_preview_announces_an_automatic_throw_in_before_counters(client):
    game_id = new_game(client, preset="double-deck-shg")
    page = parse(client.get(f"/games/{game_id}/preview", query_string={"bidder": "t0", "bid": "80",
                                                                       "meld_0": "25", "meld_1": "30"},
                            headers={"HX-Request": "true"}))
    assert "Automatic throw-in" in page.select_one(".note-warn").get_text()


def test_the_poll_answers_304_until_the_game_changes(client):
    game_id = new_game(client)
    etag = json.loads(parse(client.get(f"/games/{game_id}")).select_one("#live")["hx-headers"])["If-None-Match"]
    unchanged = client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag, "HX-Request": "true"})
    assert unchanged.status_code == 304 and unchanged.get_data() == b""
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    changed = client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag, "HX-Request": "true"})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    page = parse(changed)
    assert page.select_one("#scoreboard")["hx-swap-oob"] == "true"
    assert totals(page) == (50, 0)
    fresh_record = page.select_one("template#fresh-record")  # the page's script puts it in, or takes its number
    assert fresh_record.select_one("#expected")["value"] == "2"


# --- editing, deleting, winning ---------------------------------------------------------------------------

def play_to_500(client, game_id):
    for _ in range(3):
        record(client, game_id, bidder="t0", bid=150, meld_0=100, counters_0=50)
    record(client, game_id, bidder="t0", bid=50, counters_0=50)  # 150 × 3 + 50 = 500


def test_a_won_game_says_who_and_why_and_takes_no_more_hands(client, app):
    game_id = new_game(client)
    play_to_500(client, game_id)
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one(".winner-card h2").get_text() == "We won the game"
    assert page.select_one(".winner-card p").get_text() == "We reached 500 first (500 to 0)."
    assert page.select_one("#hand-form") is None
    response = client.post(f"/games/{game_id}/hands", data={"csrf_token": csrf(client), "token": "x",
                                                            "expected": "5", "bidder": "t0", "bid": "50",
                                                            "counters_0": "50"})
    assert response.status_code == 409
    assert hands_stored(app, game_id) == 4
    assert "Latest finished" in parse(client.get("/")).get_text()


def test_a_rematch_keeps_the_teams_and_moves_the_deal_on(client):
    game_id = new_game(client, team_0="Ann & Bob", team_1="Cat & Dan")
    play_to_500(client, game_id)
    response = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf(client)})
    assert response.status_code == 303
    page = parse(client.get(response.headers["Location"]))
    assert [t.get_text() for t in page.select(".team-name")] == ["Ann & Bob", "Cat & Dan"]
    assert totals(page) == (0, 0)
    assert page.select_one(".scoreboard .deal").get_text(strip=True).startswith("North deals")  # 4 hands on


def test_a_rematch_started_on_one_phone_is_news_to_the_other_with_the_way_there(client):
    game_id = new_game(client)
    play_to_500(client, game_id)
    poll = client.get(f"/games/{game_id}/live", headers={"HX-Request": "true"})
    etag = poll.headers["ETag"]
    assert client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag}).status_code == 304
    rematch = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf(client)}).headers["Location"]
    poll = client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag, "HX-Request": "true"})
    assert poll.status_code == 200  # the old game's version moved with its rematch
    fresh = parse(poll).select_one("template#fresh-record")
    card = fresh.select_one("#record")
    assert card.select_one("a.button")["href"] == rematch and card["data-rematch"] == rematch.rsplit("/", 1)[1]
    assert card.select("form[action$='/rematch']") == []  # the way there, not a second rematch
    assert "the rematch has started" in parse(poll).select_one("#live-notice").get_text(" ", strip=True)
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one("#record a.button", string=re.compile("Go to the rematch"))["href"] == rematch


def test_editing_an_earlier_hand_rescores_revokes_the_win_and_keeps_the_change(client):
    game_id = new_game(client)
    play_to_500(client, game_id)
    page = parse(client.get(f"/games/{game_id}"))
    first = page.select(".hands details")[-1]  # newest first: the last row is hand 1
    hand_id = first["id"].split("-")[1]
    edit = parse(client.get(f"/games/{game_id}/hands/{hand_id}/edit"))
    assert edit.select_one("input[name=bid]")["value"] == "150"
    # the bidders really took 45 counters, and bid 145: 145 + 150 + 150 + 50 = 495, short of 500
    data = {"csrf_token": csrf(client), "kind": "played", "bidder": "t0", "bid": "145", "meld_0": "100",
            "meld_1": "0", "counters_0": "45", "counters_1": "5"}
    asked = client.post(f"/games/{game_id}/hands/{hand_id}/edit", data=data)  # the win goes: asked first
    assert asked.status_code == 409 and parse(asked).select_one("#repeat-question button[name=reopen]")
    assert client.post(f"/games/{game_id}/hands/{hand_id}/edit", data={**data, "reopen": "1"}).status_code == 303
    page = parse(client.get(f"/games/{game_id}"))
    assert totals(page) == (495, 0)
    assert page.select_one(".winner-card") is None and page.select_one("#hand-form") is not None
    row = page.select_one(f"#hand-{hand_id}")
    # hand 1 of 4 is older than the latest three: its story comes when the row is opened
    assert row.select_one(".hand-detail")["hx-trigger"] == "toggle from:closest details once"
    detail = parse(client.get(f"/games/{game_id}/hands/{hand_id}/detail", headers={"HX-Request": "true"}))
    history = [li.get_text(" ", strip=True) for li in detail.select(".history li")]
    assert history[0].endswith("Recorded.")
    assert history[1].endswith("Bid 150 → 145; Counters 50 : 0 → 45 : 5")
    assert row.select_one(".badge-edited") is not None


def test_an_edit_that_would_end_the_game_before_later_hands_is_refused(client, app):
    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    record(client, game_id, bidder="t1", bid=50, counters_1=50)
    hand_id = parse(client.get(f"/games/{game_id}")).select(".hands details")[-1]["id"].split("-")[1]
    data = {"csrf_token": csrf(client), "kind": "played", "bidder": "t0", "bid": "500", "meld_0": "460",
            "meld_1": "0", "counters_0": "50", "counters_1": "0"}
    response = client.post(f"/games/{game_id}/hands/{hand_id}/edit", data=data)
    assert response.status_code == 409
    assert "Delete the hands after the winning one first" in parse(response).get_text()
    assert totals(parse(client.get(f"/games/{game_id}"))) == (50, 50)


def test_a_refused_edit_keeps_what_was_typed(client):
    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    hand_id = parse(client.get(f"/games/{game_id}")).select_one(".hands details")["id"].split("-")[1]
    data = {"csrf_token": csrf(client), "kind": "played", "bidder": "t0", "bid": "52", "meld_0": "0",
            "meld_1": "0", "counters_0": "30", "counters_1": "30"}
    response = client.post(f"/games/{game_id}/hands/{hand_id}/edit", data=data)
    assert response.status_code == 422
    page = parse(response)
    assert page.select_one("#counters-error").get_text() == "Counters must add up to 50; these add up to 60."
    assert page.select_one("input[name=bid]")["value"] == "52"


def test_deleting_a_hand_asks_once_then_rescores_and_keeps_a_record(client, app):
    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    record(client, game_id, bidder="t1", bid=50, counters_1=50)
    hand_id = parse(client.get(f"/games/{game_id}")).select(".hands details")[-1]["id"].split("-")[1]
    confirm = parse(client.get(f"/games/{game_id}/hands/{hand_id}/delete"))
    assert confirm.h1.get_text() == "Delete hand 1?"
    response = client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"csrf_token": csrf(client)})
    assert response.status_code == 303
    page = parse(client.get(f"/games/{game_id}"))
    assert totals(page) == (0, 50)
    assert [d.select_one(".num").get_text() for d in page.select(".hands details")] == ["1"]
    assert "1 deleted hand" in page.select_one(".deleted summary").get_text()
    assert hands_stored(app, game_id) == 1


# --- the shell ---------------------------------------------------------------------------------------------------

def test_a_team_called_script_shows_as_text(client):
    game_id = new_game(client, team_0="<script>alert(1)</script>")
    response = client.get(f"/games/{game_id}")
    assert b"<script>alert(1)</script>" not in response.data
    assert parse(response).select_one(".team-name").get_text() == "<script>alert(1)</script>"


def test_an_unknown_game_or_hand_is_a_404(client):
    assert client.get("/games/999").status_code == 404
    assert client.get("/games/99999999999999999999999").status_code == 404
    assert client.get("/games/99999999999999999999999/live").status_code == 404
    game_id = new_game(client)
    assert client.get(f"/games/{game_id}/hands/999/edit").status_code == 404


def test_the_app_can_be_added_to_the_home_screen(client):
    manifest = client.get("/manifest.webmanifest").get_json()
    assert manifest["display"] == "standalone"
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as response:
            assert response.status_code == 200


def test_the_meld_calculator_carries_a_count_back_into_the_hand_form(client):
    game_id = new_game(client)
    data = {**form_of(client, game_id), "bidder": "t0", "bid": "55", "meld_1": "12", "count_meld": "0"}
    response = client.post("/meld/start", data=data)
    assert response.status_code == 303
    calc = client.get(response.headers["Location"])
    page = parse(calc)
    assert page.select_one("input[name=table]")["value"] == "002"  # the game's own table, fixed
    back = client.get(response.headers["Location"] + "&cards=QS+JD&use=1")
    assert back.status_code == 303
    form = parse(client.get(back.headers["Location"]))
    assert form.select_one("input[name=meld_0]")["value"] == "4"
    assert form.select_one("input[name=meld_1]")["value"] == "12"
    assert form.select_one("input[name=bid]")["value"] == "55"
    assert "csrf_token" not in back.headers["Location"]


def test_the_meld_calculator_leads_back_to_the_hand_it_was_opened_from_with_everything_kept(client):
    game_id = new_game(client)
    data = {**form_of(client, game_id), "bidder": "t0", "bid": "55", "meld_1": "12", "count_meld": "0"}
    calc = parse(client.get(client.post("/meld/start", data=data).headers["Location"]))
    link = calc.select_one(".back-link a")
    assert link.get_text() == "← Back to hand 1"
    form = parse(client.get(link["href"]))
    assert (form.select_one("input[name=bid]")["value"], form.select_one("input[name=meld_1]")["value"]) == \
        ("55", "12")


def test_counting_meld_for_an_edit_goes_back_to_the_edit_with_its_changes(client):
    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    hand_id = parse(client.get(f"/games/{game_id}")).select_one(".hands details")["id"].split("-")[1]
    edit = parse(client.get(f"/games/{game_id}/hands/{hand_id}/edit"))
    assert edit.select_one("button[name=count_meld]") is not None  # Count cards, as when recording
    sent = {i["name"]: i.get("value", "") for i in edit.select("#hand-form input") if i.get("name")}
    calc = client.post("/meld/start", data={**sent, "bid": "60", "count_meld": "1"})
    page = parse(client.get(calc.headers["Location"]))
    link = page.select_one(".back-link a")
    assert link.get_text() == "← Back to hand 1"
    back = parse(client.get(link["href"]))
    assert back.select_one("input[name=bid]")["value"] == "60"
    assert back.select_one("input[name=edits_seen]")["value"] == "0"
    counted = client.get(calc.headers["Location"] + "&cards=QS+JD&use=1")
    form = parse(client.get(counted.headers["Location"]))
    assert form.select_one("input[name=meld_1]")["value"] == "4"
    assert f"/hands/{hand_id}/edit" in counted.headers["Location"]


def test_an_edit_has_a_live_preview_of_the_hand_in_its_place(client):
    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    record(client, game_id, bidder="t1", bid=50, counters_1=50)
    hand_id = parse(client.get(f"/games/{game_id}")).select(".hands details")[-1]["id"].split("-")[1]  # hand 1
    edit = parse(client.get(f"/games/{game_id}/hands/{hand_id}/edit"))
    preview = edit.select_one("#preview")
    assert preview["hx-get"] == f"/games/{game_id}/hands/{hand_id}/preview"
    answer = parse(client.get(preview["hx-get"], query_string={"kind": "played", "bidder": "t0", "bid": "50",
                                                                "meld_0": "0", "meld_1": "0", "counters_0": "20",
                                                                "counters_1": "30"},
                              headers={"HX-Request": "true"}))
    assert answer.select_one(".preview-score").get_text(" ", strip=True) == "Us −50 · Them +30 → −50 : 30"
    assert client.get(f"/games/{game_id}/hands/99999/preview").status_code == 404


def test_only_another_phones_change_is_announced_as_news(client, app):
    game_id = new_game(client)
    etag = '"stale"'
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    own = parse(client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag, "HX-Request": "true"}))
    assert own.select_one("#live-notice").has_attr("hidden")  # this phone saved it: no news
    other = app.test_client()
    record(other, game_id, bidder="t1", bid=50, counters_1=50)
    news = parse(client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag, "HX-Request": "true"}))
    assert "from another phone" in news.select_one("#live-notice").get_text(" ", strip=True).replace("\n    ", " ")


def test_pages_and_assets_are_gzipped_for_clients_that_take_it(client):
    import gzip

    game_id = new_game(client)
    plain = client.get(f"/games/{game_id}")
    packed = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) < len(plain.data) / 3
    assert gzip.decompress(packed.data).count(b'id="hand-form"') == 1
    css = parse(plain).select_one("link[rel=stylesheet]")["href"]
    assert "?v=" in css  # content-hashed: phones may keep it for a year
    with client.get(css, headers={"Accept-Encoding": "gzip"}) as asset:
        assert asset.headers["Content-Encoding"] == "gzip"
        assert asset.cache_control.max_age >= 30 * 24 * 3600
