"""What the family's third evening still tripped over (issue 35), through the Flask test client: the questions a
table is asked before a slip is recorded, the words a newcomer reads, and the choices the new-game page offers."""

import re

import pytest

from scorepad.core.rules import PRESETS, seated
from tests.helpers import parse
from tests.web.helpers import csrf, hand_ids, new_game, record


def text(node) -> str:
    return " ".join(node.get_text(" ").split())


# --- a meld no table melds -------------------------------------------------------------------------------------

def test_a_meld_above_what_one_hand_can_meld_is_asked_about_and_the_table_can_say_yes(client, app):
    game_id = new_game(client)
    typed = {"bidder": "t0", "bid": "50", "meld_0": "999", "counters_0": "30"}
    asked = record(client, game_id, repeat="", **typed)
    assert asked.status_code == 409
    question = parse(asked).select_one("#repeat-question")
    assert question is not None and "999" in text(question) and "914" in text(question), text(question)
    assert hand_ids(client, game_id) == []  # nothing recorded until the table says yes
    assert parse(asked).select_one("#meld_0")["value"] == "999"  # what was typed stays
    yes = question.select_one("button[name=meld_ok]")
    answered = record(client, game_id, repeat="", **typed, meld_ok=yes["value"])
    assert answered.status_code == 303
    assert len(hand_ids(client, game_id)) == 1


def test_a_meld_within_what_one_hand_melds_is_recorded_without_a_question(client):
    game_id = new_game(client)
    assert record(client, game_id, repeat="", bidder="t0", bid="50", meld_0="914", counters_0="30").status_code == 303


def test_the_preview_warns_of_a_meld_no_hand_melds_before_record_is_tapped(client):
    game_id = new_game(client)
    answer = client.get(f"/games/{game_id}/preview", query_string={"bidder": "t0", "bid": "50", "meld_0": "999"},
                        headers={"HX-Request": "true"})
    assert "more than any one hand can meld" in answer.get_data(as_text=True)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_most_one_hand_melds_comes_from_the_meld_table_and_grows_with_the_cards_held(preset):
    from scorepad.core.meld import hand_size, most_meld
    from scorepad.core.rules import most_one_hand_melds

    rules = PRESETS[preset]
    size = hand_size(rules.deck, rules.players)
    most = most_one_hand_melds(rules)
    assert most == most_meld(rules.meld_table, size) > 0
    assert most_meld(rules.meld_table, size - 4) <= most <= most_meld(rules.meld_table, size + 4)


def test_the_most_one_hand_melds_is_never_less_than_a_real_hand_of_that_many_cards_melds():
    from scorepad.core.meld import count_meld, most_meld

    # triple run in spades (15 cards), a royal marriage and a marriage: 300 + 4 + 2 in the family values
    hand = "AS AS AS TS TS TS KS KS KS KS QS QS QS QS JS JS JS KH QH"
    assert count_meld(hand, "S", "002").total <= most_meld("002", 20)
    # quadruple pinochle and quadruple jacks, 300 + 120, in twenty cards
    pinochles = "QS QS QS QS JD JD JD JD JS JS JS JS JH JH JH JH JC JC JC JC"
    assert count_meld(pinochles, "H", "002").total <= most_meld("002", 20)


# --- an edit that takes a win away ------------------------------------------------------------------------------

def a_won_game_with_its_rematch(client) -> tuple[int, list[int], int]:
    game_id = new_game(client)
    for _ in range(10):
        record(client, game_id, bidder="t0", bid="50", meld_0="0", counters_0="50")
    rematch = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf(client)})
    assert rematch.status_code == 303
    return game_id, hand_ids(client, game_id), int(re.search(r"/games/(\d+)", rematch.headers["Location"])[1])


def test_an_edit_that_would_take_the_win_away_says_so_in_its_preview_and_asks_before_saving(client):
    game_id, hands, rematch = a_won_game_with_its_rematch(client)
    set_hand = {"kind": "played", "bidder": "t0", "bid": "50", "meld_0": "0", "meld_1": "0", "counters_0": "10",
                "counters_1": "40"}
    preview = client.get(f"/games/{game_id}/hands/{hands[-1]}/preview", query_string=set_hand,
                         headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "nobody has won yet: the game won by Us takes hands again" in preview and "rematch is under way" in preview
    page = parse(client.get(f"/games/{game_id}/hands/{hands[-1]}/edit"))
    form = {i["name"]: i.get("value", "") for i in page.select("#hand-form input[type=hidden]")}
    asked = client.post(f"/games/{game_id}/hands/{hands[-1]}/edit", data={**form, **set_hand})
    assert asked.status_code == 409
    assert "the game won by Us takes hands again" in text(parse(asked).select_one("#repeat-question"))
    assert parse(client.get(f"/games/{game_id}")).select_one(".winner-card") is not None  # still won
    saved = client.post(f"/games/{game_id}/hands/{hands[-1]}/edit", data={**form, **set_hand, "reopen": "1"})
    assert saved.status_code == 303
    assert parse(client.get(f"/games/{game_id}")).select_one("#hand-form") is not None


def test_an_edit_that_leaves_the_win_where_it_was_is_not_asked_about(client):
    game_id, hands, _ = a_won_game_with_its_rematch(client)
    page = parse(client.get(f"/games/{game_id}/hands/{hands[0]}/edit"))
    form = {i["name"]: i.get("value", "") for i in page.select("#hand-form input[type=hidden]")}
    changed = {"kind": "played", "bidder": "t0", "bid": "50", "meld_0": "20", "meld_1": "0", "counters_0": "50",
               "counters_1": "0"}
    assert client.post(f"/games/{game_id}/hands/{hands[0]}/edit", data={**form, **changed}).status_code == 303


# --- the edit preview of an earlier hand ------------------------------------------------------------------------

def test_the_edit_preview_of_an_earlier_hand_shows_the_totals_after_it_and_the_games_apart(client):
    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid="50", meld_0="20", counters_0="30")  # 50 : 20
    record(client, game_id, bidder="t1", bid="50", meld_1="20", counters_1="30")  # 70 : 70
    record(client, game_id, bidder="t0", bid="60", meld_0="30", counters_0="40")  # 140 : 70
    first = hand_ids(client, game_id)[0]
    typed = {"kind": "played", "bidder": "t0", "bid": "50", "meld_0": "30", "meld_1": "0", "counters_0": "30",
             "counters_1": "20"}
    answer = parse(client.get(f"/games/{game_id}/hands/{first}/preview", query_string=typed,
                              headers={"HX-Request": "true"}))
    assert text(answer.select_one(".preview-score .arrow")) == "→ 60 : 20"  # after hand 1, not the game's 150 : 70
    later = text(answer.select_one(".game-after"))
    assert "150 : 70" in later and "now 140 : 70" in later, later


# --- words a newcomer reads ------------------------------------------------------------------------------------

def test_with_default_names_the_winner_is_we_or_they_not_us_or_them(client):
    game_id = new_game(client)
    for _ in range(10):
        record(client, game_id, bidder="t1", bid="50", meld_1="0", counters_1="50")
    card = parse(client.get(f"/games/{game_id}")).select_one(".winner-card")
    assert text(card.select_one("h2")) == "They won the game"
    assert text(card.select_one("p")).startswith("They reached 500 first")
    assert "Them won" not in client.get(f"/history/games/{game_id}").get_data(as_text=True)


def test_the_nine_of_trump_box_says_what_it_is_for(client):
    game_id = new_game(client, seating="3x1", preset="three-handed")
    box = parse(client.get(f"/games/{game_id}")).select_one(".nine-only")
    said = text(box)
    assert "9s of trump" in said and "without a counter" in said, said


# --- the rule sets offered --------------------------------------------------------------------------------------

@pytest.mark.parametrize("seating", ["2x3", "3x2"])
def test_six_players_are_offered_first_the_rule_sets_whose_deck_deals_evenly_to_six(client, seating):
    from scorepad.core.rules import deals_evenly

    page = parse(client.get(f"/games/new?seating={seating}"))
    offered = [i["value"] for i in page.select("#field-preset input[name=preset]")]
    sides, per_side = map(int, seating.split("x"))
    even = [deals_evenly(seated(PRESETS[key], sides, per_side)) for key in offered]
    assert even == sorted(even, reverse=True), offered  # every even one before any uneven one
    assert even[0] and offered[0] in ("six-handed-triple", "single-deck"), offered
    assert page.select_one("#field-preset input[name=preset][checked]")["value"] == offered[0]
    uneven = page.select_one("#field-preset input[value=double-deck]").find_parent("label")
    assert "does not deal evenly to 6" in text(uneven)


def test_four_players_are_still_offered_the_family_double_deck_first(client):
    page = parse(client.get("/games/new"))
    assert page.select_one("#field-preset input[name=preset]")["value"] == "double-deck"
    assert page.select_one("#field-preset input[checked]")["value"] == "double-deck"


def test_a_two_handed_game_with_bidding_turned_on_is_not_titled_no_bidding(client):
    game_id = new_game(client, seating="2x1", preset="two-handed", bidding="yes")
    record(client, game_id, bidder="s0", bid="250", meld_0="100", counters_0="150", counters_1="100")
    for where in (f"/games/{game_id}", "/history/", "/"):
        shown = client.get(where).get_data(as_text=True)
        assert "no bidding" not in shown.lower(), where
    assert "with bidding" in text(parse(client.get(f"/games/{game_id}")).select_one("#scoreboard .target"))


# --- looking back ------------------------------------------------------------------------------------------------

def a_game_started_at(app, local: str) -> int:
    """A game started at `local` (the table's own clock), with one hand."""
    from datetime import UTC, datetime

    from scorepad.core.scoring import Hand
    from scorepad.store import connection, games

    stamp = datetime.fromisoformat(local).astimezone().astimezone(UTC).isoformat(timespec="seconds")
    db = connection.connect(app.config["DATABASE"])
    try:
        game_id = games.create_game(db, PRESETS["double-deck"], ("Us", "Them"), (None,) * 4, 0, created_at=stamp)
        with connection.write_lock(db):
            games.insert_hand(db, game_id, f"t-{game_id}", Hand(0, 50, (20, 0), (30, 20)))
            games.rescore(db, games.load_game(db, game_id), games.live_hands(db, game_id))
    finally:
        db.close()
    return game_id


def test_a_game_past_midnight_says_its_evening_and_the_filter_finds_it_by_either_date(client, app):
    game_id = a_game_started_at(app, "2026-11-27T04:09:00")
    for day in ("2026-11-26", "2026-11-27"):  # its evening, and the date on the clock
        page = parse(client.get(f"/history/?from={day}&to={day}"))
        [item] = page.select(f".game-list a[href='/history/games/{game_id}']")
        assert "Thu 26 Nov 2026, 04:09 after midnight" in text(item), text(item)
        assert text(page.select_one(".evening h2")) == "Thursday 26 November 2026"
    assert not parse(client.get("/history/?from=2026-11-28&to=2026-11-28")).select(".game-list a")


def test_the_history_page_of_a_game_and_its_print_start_with_the_teams_and_the_date(client, app):
    game_id = a_game_started_at(app, "2026-11-27T03:57:00")
    title = parse(client.get(f"/history/games/{game_id}")).select_one("h1")
    assert "visually-hidden" not in title.get("class", [])
    assert text(title) == "Us – Them Thu 26 Nov 2026, 03:57 after midnight"


def test_the_csv_of_a_two_team_game_has_no_column_that_is_always_empty_and_says_its_time_as_the_pages_do(client,
                                                                                                      app):
    from tests.helpers import csv_head, csv_sheets

    game_id = a_game_started_at(app, "2026-11-26T19:05:00")
    csv_text = client.get(f"/games/{game_id}/export.csv").get_data(as_text=True)
    assert csv_head(csv_text) == ["Hand", "Dealer", "Bidder", "Bid", "Trump", "Result", "Us meld", "Them meld",
                                  "Us counters", "Them counters", "Us points", "Them points", "Us total",
                                  "Them total", "Dealer stuck"]
    [(title, [row])] = csv_sheets(csv_text)
    assert title == [f"Game {game_id}", "Us – Them", "Thu 26 Nov 2026, 19:05", "Double deck (family rules)",
                     "in progress"]
    assert row["Result"] == "made" and row["Us total"] == "50" and row["Dealer stuck"] == "no"


def test_the_target_is_written_once_on_the_chart_and_not_over_the_lines_end():
    from xml.etree import ElementTree

    from scorepad.core.chart import PAD_LEFT, score_chart

    svg = ElementTree.fromstring(score_chart([(300, 120), (520, 150), (750, 160)], 750, [], ("Us", "Them")))
    said = [t for t in svg.iter("{http://www.w3.org/2000/svg}text") if t.text == "750"]
    assert len(said) == 1
    assert float(said[0].get("x")) <= PAD_LEFT  # on the axis, left of where the lines are drawn


# --- the meld behind a dispute -----------------------------------------------------------------------------------

RUN_AND_PINOCHLE = "AH TH KH QH JH QS JD"  # a run in hearts 15 and a pinochle 4: 19


def counted_with_the_calculator(client, game_id, partner: str | None = None) -> dict:
    """The hand form's fields as the meld calculator sends them back after counting Us' cards (and a partner's
    first), tapping as a phone without JavaScript does: each step a GET of the calculator's form."""
    from urllib.parse import parse_qsl, urlsplit

    started = client.post("/meld/start", data={"csrf_token": csrf(client), "game_id": game_id, "count_meld": "0",
                                               "trump": "H", "bidder": "t0", "bid": "50", "expected": "1"})
    args = dict(parse_qsl(urlsplit(started.headers["Location"]).query))
    if partner:
        page = parse(client.get("/meld/", query_string={**args, "cards": partner, "partner": "1"}))
        args = {i["name"]: i.get("value", "") for i in page.select("#meld-calc input[type=hidden]")}
        args["trump"] = "H"
    used = client.get("/meld/", query_string={**args, "cards": RUN_AND_PINOCHLE, "use": "1"})
    assert used.status_code == 303, used.get_data(as_text=True)[:300]
    return dict(parse_qsl(urlsplit(used.headers["Location"]).query))


def test_the_cards_counted_with_the_calculator_are_kept_with_the_hand_and_shown_on_its_page(client):
    game_id = new_game(client)
    back = counted_with_the_calculator(client, game_id, partner="KS QS")
    assert back["meld_0"] == "21" and back["meld_cards_0"].startswith("H:")
    form = parse(client.get(f"/games/{game_id}", query_string=back))
    assert form.select_one("input[name=meld_cards_0]")["value"] == back["meld_cards_0"]
    assert record(client, game_id, **{**back, "counters_0": "30"}).status_code == 303
    [hand_id] = hand_ids(client, game_id)
    page = parse(client.get(f"/history/games/{game_id}/hands/{hand_id}"))
    counted = text(page.select_one("#counted-0"))
    assert "K♠ Q♠" in counted and "Q♠ A♥ 10♥ K♥ Q♥ J♥ J♦" in counted, counted
    assert "Run in ♥ 15" in counted and "Pinochle 4" in counted and "Marriage in ♠ 2" in counted
    assert "Counted: 21" in counted and "not the" not in counted


def test_the_cards_counted_travel_in_the_export_come_back_from_an_import_and_stay_in_the_history(client, app,
                                                                                               make_app, tmp_path):
    import io
    import json

    game_id = new_game(client)
    back = counted_with_the_calculator(client, game_id)
    record(client, game_id, **{**back, "counters_0": "30"})
    [hand_id] = hand_ids(client, game_id)
    # an edit of the meld typed: the count stays, the page says the two differ, and the history keeps both
    page = parse(client.get(f"/games/{game_id}/hands/{hand_id}/edit"))
    fields = {i["name"]: i.get("value", "") for i in page.select("#hand-form input[type=hidden]")}
    assert fields["meld_cards_0"] == back["meld_cards_0"]
    edited = {"kind": "played", "bidder": "t0", "bid": "50", "meld_0": "23", "meld_1": "0", "counters_0": "30",
              "counters_1": "20"}
    assert client.post(f"/games/{game_id}/hands/{hand_id}/edit", data={**fields, **edited}).status_code == 303
    page = parse(client.get(f"/history/games/{game_id}/hands/{hand_id}"))
    assert "Recorded as 23, not the 19 counted" in text(page.select_one("#counted-0"))
    exported = json.loads(client.get(f"/games/{game_id}/export.json").data)
    [hand] = exported["games"][0]["hands"]
    assert hand["meld_counted"] == [{"trump": "H", "hands": ["Q♠ A♥ 10♥ K♥ Q♥ J♥ J♦"]}, None]
    assert all("meld_counted" in json.loads(e["after"]) for e in hand["edits"] if e["after"])
    fresh = make_app(DATABASE=tmp_path / "fresh.db").test_client()
    upload = {"csrf_token": csrf(fresh), "file": (io.BytesIO(json.dumps(exported).encode()), "x.json")}
    assert fresh.post("/import", data=upload, content_type="multipart/form-data").status_code == 303
    again = json.loads(fresh.get("/export.json").data)["games"][0]["hands"][0]
    assert again["meld_counted"] == hand["meld_counted"] and again["edits"] == hand["edits"]


@pytest.mark.parametrize(("counted", "words"), [
    ([{"trump": "X", "hands": ["AH"]}, None], "trump must be one of"),
    ([{"trump": "H", "hands": ["9H"]}, None], "no 9s"),
    ([{"trump": "H", "hands": ["AH", "AH", "AH"]}, None], "at most 2 hands"),
    ([{"trump": "H", "hands": ["ZZ"]}, None], "is not a card"),
    ({"trump": "H"}, "a list of 2"),
    ([{"trump": "H", "hands": ["AH"], "x": 1}, None], "null or"),
])
def test_an_import_checks_the_cards_counted_as_the_calculator_counts_them(client, counted, words):
    import io
    import json

    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid="50", meld_0="20", counters_0="30")
    exported = json.loads(client.get(f"/games/{game_id}/export.json").data)
    exported["games"][0]["hands"][0]["meld_counted"] = counted
    exported["games"][0]["hands"][0]["token"] = "another"
    upload = {"csrf_token": csrf(client), "file": (io.BytesIO(json.dumps(exported).encode()), "x.json")}
    refused = client.post("/import", data=upload, content_type="multipart/form-data")
    assert refused.status_code == 422 and words in text(parse(refused)), text(parse(refused))[:400]


# --- under whose rules? ------------------------------------------------------------------------------------------

def a_family_game(client) -> int:
    game_id = new_game(client)
    for hand in (dict(bidder="t0", bid="55", meld_0="30", counters_0="30"),
                 dict(bidder="t1", bid="60", meld_1="20", counters_1="25"),
                 dict(bidder="t0", bid="50", meld_0="10", counters_0="18"),  # meld not on the board: set
                 dict(bidder="t1", bid="105", meld_1="80", counters_1="30")):
        assert record(client, game_id, **hand).status_code == 303
    return game_id


def test_a_game_is_shown_under_each_other_rule_set_of_its_table_each_difference_in_the_rules_words(client, app):
    from tests.web.helpers import every_table

    game_id = a_family_game(client)
    offered = [a["href"] for a in parse(client.get(f"/history/games/{game_id}")).select("#other-rules a")]
    assert offered == [f"/history/games/{game_id}/under/{key}" for key in
                       ("double-deck-shg", "double-pack-bicycle", "double-deck-gamerules")]
    before = every_table(app.config["DATABASE"])
    online = parse(client.get(offered[0]))
    [hand] = online.select(".under-hand")
    said = text(hand)
    assert said.startswith("Hand 3 Under Double deck (tournament, online) hand 3 is an automatic throw-in:")
    assert "the bidders' meld 10 is below the 20 needed to be on the board" in said  # the engine's own words
    assert "55 : 70" in text(online.select_one("#under-end")) and "55 : 102" in text(online.select_one("#under-end"))
    assert "throw in automatically" in text(online.select_one("#under-rules"))  # the rule that differs, in words
    bicycle = parse(client.get(offered[1]))  # the same hands ×10: no hand scores differently
    assert "0 of 4 hands score differently" in text(bicycle.select_one("#under-end"))
    assert "550 : 1,020" in text(bicycle.select_one("#under-end"))
    assert every_table(app.config["DATABASE"]) == before  # a view: nothing stored
    assert client.get(f"/history/games/{game_id}/under/three-handed").status_code == 404


def test_a_hands_page_says_what_it_would_score_under_the_other_rule_sets(client):
    game_id = a_family_game(client)
    third = hand_ids(client, game_id)[2]
    section = parse(client.get(f"/history/games/{game_id}/hands/{third}")).select_one("#other-rules")
    assert section["hx-trigger"] == "revealed"  # scored when it comes into view: the page itself scores nothing
    said = text(parse(client.get(section["hx-get"], headers={"HX-Request": "true"})))
    assert "Under Double deck (tournament, online): auto throw-in · Us −50 · Them +0" in said, said
    assert "Under Double pack (Bicycle, ×10): set · Us −500 · Them +320 (the same)" in said


def test_the_hands_counted_with_the_calculator_are_counted_again_under_the_other_meld_table(app):
    from scorepad.core.rules import PRESETS
    from scorepad.core.scoring import Hand, play_game
    from scorepad.services import other_rules
    from scorepad.store.games import Game

    rules = PRESETS["double-deck"]
    # jacks around and a double pinochle: 4 + 30 in the family values, 40 + 300 in Bicycle's (×10); the table
    # typed 70 for the hand, which Bicycle's scale would make 700
    hand = Hand(0, 80, (70, 0), (20, 30), trump="H", counted=(("H", ("J♠ J♠ J♥ J♦ J♦ J♣ Q♠ Q♠",)), None))
    game = Game(1, "2026-11-26T19:00:00+00:00", rules, ("Us", "Them"), (None,) * 4, 0, 1, (0, 0), 1, None, None,
                None)
    played = play_game(rules, [hand], names=game.teams)
    bicycle = other_rules.under(game, [hand], played, "double-pack-bicycle")
    [row] = bicycle.hands
    assert "Bidders' meld 340 counts." in row.result.explanation  # counted again from the cards, not 70 × 10
