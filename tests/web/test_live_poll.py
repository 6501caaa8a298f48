"""The poll of a phone that sent a hand: once the hand is stored, the answer says it is saved (whether the save's
own answer is late, lost or already in), and never announces it as another phone's news."""

import pytest

from tests.helpers import parse
from tests.web.helpers import form_of, new_game

STALE = {"If-None-Match": '"stale"', "HX-Request": "true"}


def poll(client, game_id, token):
    return parse(client.get(f"/games/{game_id}/live", headers={**STALE, "X-Hand-Token": token}))


def test_a_poll_carrying_the_token_of_the_hand_it_finds_stored_says_that_hand_is_saved(client, app):
    game_id = new_game(client)
    form = form_of(client, game_id)
    other = app.test_client()  # the save's answer went to nobody: the session never heard of it
    stamp = form_of(other, game_id)["csrf_token"]
    hand = {"kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50"}
    sent = other.post(f"/games/{game_id}/hands", data={**form, "csrf_token": stamp, **hand})
    assert sent.status_code == 303
    notice = poll(client, game_id, form["token"]).select_one("#live-notice")
    assert notice.has_attr("data-saved") and not notice.has_attr("hidden")
    assert notice.get_text(strip=True) == "Hand 1 is saved: it is on the sheet."


@pytest.mark.parametrize("token", ["", "never-used", "x" * 500])
def test_a_poll_with_a_token_nobody_stored_is_plain_news(client, app, token):
    game_id = new_game(client)
    other = app.test_client()
    other.post(f"/games/{game_id}/hands", data={**form_of(other, game_id), "kind": "played", "bidder": "t0",
                                                "bid": "50", "counters_0": "50"})
    notice = poll(client, game_id, token).select_one("#live-notice")
    assert not notice.has_attr("data-saved")
    assert " ".join(notice.get_text(" ").split()).startswith("Updated from another phone: next is hand 2.")


def test_a_token_stored_in_another_game_says_nothing_of_this_one(client):
    first, second = new_game(client), new_game(client)
    form = form_of(client, first)
    client.post(f"/games/{first}/hands", data={**form, "kind": "played", "bidder": "t0", "bid": "50",
                                               "counters_0": "50"})
    notice = poll(client, second, form["token"]).select_one("#live-notice")
    assert not notice.has_attr("data-saved")


def test_the_other_phones_notice_says_which_hand_another_phone_changed_deleted_or_put_back_and_how(client, app):
    """It said only "Updated from another phone: next is hand 3", where the phone that made the change was told
    "Hand 1 changed: Counters 20 : 30 → 24 : 26"."""
    from tests.web.helpers import csrf, hand_ids, record

    game_id = new_game(client)
    other = app.test_client()
    for counters in ("20", "30"):
        record(other, game_id, bidder="t0", bid="50", meld_0="30", counters_0=counters)

    def said() -> str:
        notice = poll(client, game_id, "").select_one("#live-notice")
        # live.js reads the mark, not the words, for whether a deletion accounts for the sheet's fewer hands
        assert notice.has_attr("data-deleted") is (" was deleted." in notice.get_text()), notice
        return " ".join(notice.get_text(" ").split())

    assert said().startswith("Updated from another phone: next is hand 3.")  # a hand recorded: its number says it
    first, second = hand_ids(other, game_id)
    edit = parse(other.get(f"/games/{game_id}/hands/{first}/edit"))
    fields = {i["name"]: i.get("value", "") for i in edit.select("#hand-form input[name]")
              if i.get("type") not in ("radio", "checkbox")}
    changed = other.post(f"/games/{game_id}/hands/{first}/edit", data={
        **fields, "kind": "played", "bidder": "t0", "bid": "50", "meld_0": "30", "meld_1": "0",
        "counters_0": "24", "counters_1": "26"})
    assert changed.status_code == 303
    assert said().startswith("Updated from another phone: hand 1 changed (Counters 20 : 30 → 24 : 26). Next is hand 3.")
    other.post(f"/games/{game_id}/hands/{first}/delete", data={"csrf_token": csrf(other)})
    assert said().startswith("Updated from another phone: hand 1 was deleted. Next is hand 2.")
    other.post(f"/games/{game_id}/hands/{first}/restore", data={"csrf_token": csrf(other)})
    assert said().startswith("Updated from another phone: hand 1 was put back. Next is hand 3.")
    assert second  # (hand 2 stays as it was throughout)


def test_a_change_to_a_hand_from_minutes_ago_is_not_said_again_when_a_restore_or_a_rename_moves_the_game(
        client, app):
    """After a restore the other phone read "hand 2 was deleted", a delete from before the backup."""
    from datetime import UTC, datetime, timedelta

    from scorepad.services import lookups
    from scorepad.store import connection
    from scorepad.store import games as store_games
    from tests.web.helpers import csrf, hand_ids, record

    game_id = new_game(client)
    for _ in range(2):
        record(client, game_id, bidder="t0", bid="50", counters_0="50")
    client.post(f"/games/{game_id}/hands/{hand_ids(client, game_id)[1]}/delete", data={"csrf_token": csrf(client)})
    with connection.connect(app.config["DATABASE"]) as db:
        rows = [type("Row", (), {"number": n + 1, "stored": s})() for n, s in
                enumerate(store_games.live_hands(db, game_id))]
        now = datetime.now(UTC)
        assert lookups.last_change(db, game_id, rows, now) == ("hand 2 was deleted", True)
        later = now + lookups.CHANGE_IS_NEWS + timedelta(seconds=5)
        assert lookups.last_change(db, game_id, rows, later) == lookups.NO_CHANGE
