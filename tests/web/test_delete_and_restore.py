"""Deleting a hand moves the deal of every later hand (the deal follows the hands on the sheet), so the
confirmation says who will be shown dealing what before anything is deleted; and a deleted hand can be put back
in its place from the list of deleted hands."""

import re

from tests.helpers import parse
from tests.web.helpers import csrf, every_table, hand_ids, new_game, record

PLAYERS = {"player_0": "Ann", "player_1": "Bo", "player_2": "Cy", "player_3": "Di", "first_dealer": "0"}


def seven_hands(client) -> int:
    game_id = new_game(client, **PLAYERS)
    for _ in range(7):
        assert record(client, game_id, bidder="s0", bid=50, counters_0=25, counters_1=25).status_code == 303
    return game_id


def said(page, selector) -> list[str]:
    return [" ".join(item.get_text(" ").split()) for item in page.select(selector)]


def test_the_delete_confirmation_says_who_will_be_shown_dealing_each_later_hand_and_who_deals_next(client):
    game_id = seven_hands(client)
    hand_4 = hand_ids(client, game_id)[3]
    page = parse(client.get(f"/games/{game_id}/hands/{hand_4}/delete"))
    assert said(page, ".deal-moves li") == ["hand 5 (Ann dealt) becomes hand 4, dealt by Di",
                                            "hand 6 (Bo dealt) becomes hand 5, dealt by Ann",
                                            "hand 7 (Cy dealt) becomes hand 6, dealt by Bo"]
    assert "Cy deals next, not Di." in said(page, "p")


def test_a_long_tail_of_later_hands_is_told_in_four_lines_and_a_count(client):
    game_id = seven_hands(client)
    page = parse(client.get(f"/games/{game_id}/hands/{hand_ids(client, game_id)[0]}/delete"))
    assert said(page, ".deal-moves li")[-1] == "and 2 more hands the same way"
    assert len(page.select(".deal-moves li")) == 5


def test_deleting_the_last_hand_moves_no_other_hand(client):
    game_id = seven_hands(client)
    page = parse(client.get(f"/games/{game_id}/hands/{hand_ids(client, game_id)[-1]}/delete"))
    assert page.select(".deal-moves") == []
    assert "Cy deals next, not Di." in said(page, "p")


def delete(client, game_id, hand_id):
    return client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"csrf_token": csrf(client)})


def restore(client, game_id, hand_id):
    return client.post(f"/games/{game_id}/hands/{hand_id}/restore", data={"csrf_token": csrf(client)})


def test_a_deleted_hand_is_restored_in_its_place_from_the_list_of_deleted_hands(client):
    game_id = seven_hands(client)
    ids = hand_ids(client, game_id)
    assert delete(client, game_id, ids[3]).status_code == 303
    page = parse(client.get(f"/games/{game_id}"))
    button = page.select_one(".deleted form button")
    # what tells it from another deleted hand, and what putting it back does to the hands after it
    assert button.get_text(" ", strip=True) == "Restore as hand 4 (the hands from 4 on move down one)"
    assert "· meld " in page.select_one(".deleted li").get_text(" ", strip=True)
    action = page.select_one(".deleted form")["action"]
    answer = client.post(action, data={"csrf_token": csrf(client)})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"#hand-{ids[3]}")
    page = parse(client.get(answer.headers["Location"]))
    assert hand_ids(client, game_id) == ids
    assert "Hand 4 is back in its place" in said(page, ".flash")[0]
    assert page.select(".deleted") == []


def test_the_page_after_a_delete_says_so_with_an_undo_that_puts_the_hand_back(client):
    game_id = seven_hands(client)
    ids = hand_ids(client, game_id)
    answer = delete(client, game_id, ids[3])
    page = parse(client.get(answer.headers["Location"]))
    toast = page.select_one("#saved")
    assert " ".join(toast.select_one("p").get_text(" ").split()) == (
        "Hand 4 deleted. Its record stays in the history below the sheet.")
    undo = toast.select_one("form")
    assert undo.select_one("button").get_text(strip=True) == "Undo"
    answer = client.post(undo["action"], data={"csrf_token": csrf(client)})
    assert "Hand 4 is back in its place" in said(parse(client.get(answer.headers["Location"])), ".flash")[0]
    assert hand_ids(client, game_id) == ids


def test_the_undo_after_a_delete_is_said_once_and_not_offered_once_the_hand_is_back(client):
    game_id = seven_hands(client)
    ids = hand_ids(client, game_id)
    delete(client, game_id, ids[6])
    restore(client, game_id, ids[6])  # put back (another phone, or the list below the sheet) before the page
    page = parse(client.get(f"/games/{game_id}"))
    assert not any("deleted" in words for words in said(page, "#saved p"))
    assert page.select("#saved form") == []
    assert parse(client.get(f"/games/{game_id}")).select("#saved") == []  # said once


def test_a_second_restore_of_the_same_hand_changes_nothing(client, app):
    game_id = seven_hands(client)
    ids = hand_ids(client, game_id)
    delete(client, game_id, ids[1])
    restore(client, game_id, ids[1])
    tables = every_table(app.config["DATABASE"])
    again = restore(client, game_id, ids[1])
    assert again.status_code == 303
    assert every_table(app.config["DATABASE"]) == tables
    assert "already back on the sheet" in said(parse(client.get(f"/games/{game_id}")), ".flash")[0]


def test_restoring_a_hand_that_would_end_the_game_too_early_is_refused_with_nothing_changed(client, app):
    game_id = new_game(client, target="150")
    record(client, game_id, bidder="t0", bid=50, counters_0=50)
    record(client, game_id, bidder="t0", bid=100, meld_0=50, counters_0=50)  # Us 150: won
    winning = hand_ids(client, game_id)[1]
    delete(client, game_id, winning)
    for _ in range(2):
        record(client, game_id, bidder="t1", bid=50, counters_1=50)
    tables = every_table(app.config["DATABASE"])
    refused = restore(client, game_id, winning)
    assert refused.status_code == 409
    assert re.search(r"would be won before the last hands", parse(refused).select_one("#form-message").get_text())
    assert every_table(app.config["DATABASE"]) == tables


def test_restoring_a_hand_the_game_never_had_is_not_found(client):
    game_id = seven_hands(client)
    assert restore(client, game_id, 99999).status_code == 404
    assert restore(client, game_id, 2**64).status_code == 404


def test_deleting_a_hand_before_a_stuck_dealers_hand_says_why_it_is_refused_and_keeps_the_sheet(client, app):
    game_id = new_game(client, player_0="Ann", player_1="Bob", player_2="Cat", player_3="Dan")
    record(client, game_id, bidder="s0", bid=50, counters_0=50)  # Ann deals
    record(client, game_id, bidder="s1", bid=50, counters_1=50, counters_0=0)  # Bob deals
    assert record(client, game_id, bidder="s2", bid=50, counters_0=50, forced="1").status_code == 303  # Cat stuck
    hand_2 = hand_ids(client, game_id)[1]
    tables = every_table(app.config["DATABASE"])
    page = client.post(f"/games/{game_id}/hands/{hand_2}/delete", data={"csrf_token": csrf(client)})
    assert page.status_code == 409
    assert "Deleting this hand moves hand 3 to hand 2, which someone else deals" in parse(page).get_text(" ")
    assert every_table(app.config["DATABASE"]) == tables
