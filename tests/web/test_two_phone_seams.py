"""The seams between the two-phone question, the hands a phone keeps and a restore, as the server answers them:
a typo never stops the question being asked, a hand typed for a game a restore took away never lands in another
game, and "mine is right" from a half-typed form changes only what was typed."""

from __future__ import annotations

import json
import shutil

import pytest

from scorepad.services import lookups
from scorepad.store import backups, connection
from scorepad.store import games as store_games
from tests.helpers import parse
from tests.web.helpers import form_of, hands_stored, new_game, record

THEIRS = {"kind": "played", "bidder": "t0", "bid": "55", "trump": "H", "meld_0": "30", "meld_1": "12",
          "counters_0": "28", "counters_1": "22"}


def question(client, game_id, typed: dict):
    return client.get(f"/games/{game_id}/hands/compare", query_string=typed, headers={"HX-Request": "true"})


def answer_form(page, label: str) -> tuple[str, dict]:
    """The form behind one of the question's answers: its address and what it sends."""
    button = next(b for b in page.select(".clash-choices button") if label in b.get_text())
    form = button.find_parent("form")
    return form["action"], {i["name"]: i["value"] for i in form.select("input[type=hidden]")}


def typed_here(page) -> dict[str, str]:
    rows = page.select(".clash-table tbody tr")
    return {row.th.get_text(): row.select("td")[1].get_text(" ", strip=True).replace("\xa0", " ") for row in rows}


# --- a typo in the compared hand ------------------------------------------------------------------------------

@pytest.mark.parametrize("typo", ["20.5", "2o", "1O", "½", "٢o", "-"])
@pytest.mark.parametrize("field", ["meld_0", "counters_0", "bid"])
def test_the_question_is_asked_whatever_was_typed_and_shows_it_as_typed(client, field, typo):
    game_id = new_game(client)
    phone_b = {**form_of(client, game_id), "kind": "played", "bidder": "t0", "bid": "60", "meld_0": "20",
               "counters_0": "30", field: typo}
    record(client, game_id, **THEIRS)
    answer = question(client, game_id, phone_b)
    assert answer.status_code == 200
    page = parse(answer)
    assert page.select_one("#record.clash")["data-clash"] == "1"
    label = {"meld_0": "Meld", "counters_0": "Counters", "bid": "Bid"}[field]
    assert typo in typed_here(page)[label]


def test_a_typo_saved_for_a_hand_another_phone_recorded_is_asked_about_as_typed(client, app):
    """Refused for the typo, the form would come back as the next hand's (hand 2), and fixing the typo would have
    recorded hand 1 twice: the question comes first, the typo shown as typed."""
    game_id = new_game(client)
    phone_b = {**form_of(client, game_id), **THEIRS, "meld_0": "3o"}
    record(client, game_id, **THEIRS)
    answer = client.post(f"/games/{game_id}/hands", data=phone_b)
    assert answer.status_code == 409 and answer.headers["Scorepad-Answer"] == "clash"
    assert "3o" in typed_here(parse(answer))["Meld"]
    assert hands_stored(app, game_id) == 1


def test_a_typo_in_the_next_hand_is_refused_under_its_own_number(client, app):
    game_id = new_game(client)
    answer = client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **THEIRS, "meld_0": "3o"})
    assert answer.status_code == 422 and answer.headers["Scorepad-Answer"] == "refused"
    page = parse(answer)
    assert page.select_one("#expected")["value"] == "1" and page.select_one("#meld_0")["value"] == "3o"


# --- "mine is right" from a half-typed form -------------------------------------------------------------------

def test_mine_is_right_from_a_half_typed_form_changes_only_what_was_typed(client, app):
    """Phone B had typed the bidder, the bid and one meld when phone A recorded the whole hand: trump, the other
    side's meld and the counters B never typed stay A's (a made hand never becomes a set by blanks)."""
    game_id = new_game(client)
    phone_b = {**form_of(client, game_id), "kind": "played", "bidder": "t0", "bid": "56", "meld_0": "30"}
    record(client, game_id, **THEIRS)
    before = parse(client.get(f"/games/{game_id}")).select_one("#scoreboard").get_text(" ", strip=True)
    page = parse(question(client, game_id, phone_b))
    assert [row.th.get_text() for row in page.select("tr.differs")] == ["Bid"]
    assert page.select_one("#clash-filled") is not None
    # the column of what was typed here says which of its values were not typed here (the other phone's)
    filled = {row.th.get_text(): row.select_one(".filled-in").get_text()
              for row in page.select(".clash-table tbody tr") if row.select_one(".filled-in")}
    assert filled == {"Trump": "not typed here", "Meld": "not typed here: Them", "Counters": "not typed here"}
    action, sent = answer_form(page, "mine is right")
    assert {name: sent[name] for name in ("bid", "trump", "meld_0", "meld_1", "counters_0", "counters_1")} == {
        "bid": "56", "trump": "H", "meld_0": "30", "meld_1": "12", "counters_0": "28", "counters_1": "22"}
    assert client.post(action, data=sent).status_code == 303
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one("#scoreboard").get_text(" ", strip=True) == before  # still made, by the same counters
    assert "Bid 55 → 56" in page.select_one(".hands details").get_text(" ", strip=True) or hands_stored(app, game_id)
    assert hands_stored(app, game_id) == 1


def test_mine_is_right_from_a_whole_hand_is_the_hand_as_typed(client):
    game_id = new_game(client)
    phone_b = {**form_of(client, game_id), **THEIRS, "trump": "", "counters_0": "30", "counters_1": "20"}
    record(client, game_id, **THEIRS)
    page = parse(question(client, game_id, phone_b))
    assert page.select_one("#clash-filled") is None and page.select_one(".filled-in") is None
    _, sent = answer_form(page, "mine is right")
    assert "trump" not in sent and sent["counters_0"] == "30"


def test_mine_is_right_from_a_whole_played_hand_is_played_whatever_the_other_phone_recorded(client):
    """A whole hand typed here takes nothing but a blank meld box from the other phone: its kind ("played", the
    form's own) and its unticked boxes say what they say (the other phone's renege was taken over it, and its
    counters dropped)."""
    game_id = new_game(client)
    phone_b = {**form_of(client, game_id), **THEIRS, "bid": "60", "trump": "S", "counters_0": "30",
               "counters_1": "20"}
    record(client, game_id, **{**THEIRS, "kind": "renege", "renege_team": "1", "counters_0": "", "counters_1": ""})
    page = parse(question(client, game_id, phone_b))
    action, sent = answer_form(page, "mine is right")
    assert sent["kind"] == "played" and "renege_team" not in sent and sent["counters_0"] == "30"
    assert client.post(action, data=sent).status_code == 303


def test_mine_is_right_takes_this_phone_s_counters_the_last_box_filled_in_as_a_save_fills_it(client):
    """Without JavaScript the last counters box is filled in by the save: taken from the other phone instead, the
    counters added up to 52 and "mine is right" was refused."""
    game_id = new_game(client)
    form = form_of(client, game_id)
    record(client, game_id, **THEIRS)
    for typed in ({**THEIRS, "counters_0": "30", "counters_1": ""},  # a whole hand
                  {"kind": "played", "bidder": "t0", "counters_0": "30"}):  # one still being typed
        page = parse(question(client, game_id, {**form, **typed}))
        assert typed_here(page)["Counters"].startswith("30 : 20")
        _, sent = answer_form(page, "mine is right")
        assert sent["counters_0"] == "30" and "counters_1" not in sent


def test_mine_is_right_from_a_hand_scored_as_typed_keeps_the_meld_the_other_phone_typed_and_this_one_did_not(
        client, app):
    """Phone B typed the bidder, the bid, Them's meld and the counters, and left Us's meld blank, which reads as 0:
    the hand could be scored as typed, so "mine is right" took it whole and wrote 0 over A's meld of 30 (Us, made
    at +58, became set at -55). A blank here is the other phone's, however much else was typed."""
    game_id = new_game(client)
    phone_b = {**form_of(client, game_id), "kind": "played", "bidder": "t0", "bid": "55", "meld_1": "12",
               "counters_0": "30", "counters_1": "20"}
    record(client, game_id, **THEIRS)
    page = parse(question(client, game_id, phone_b))
    assert typed_here(page)["Meld"] == "30 : 12 not typed here: Us"
    action, sent = answer_form(page, "mine is right")
    assert (sent["meld_0"], sent["counters_0"]) == ("30", "30")
    assert client.post(action, data=sent).status_code == 303
    row = parse(client.get(f"/games/{game_id}")).select_one(".hands details summary").get_text(" ", strip=True)
    assert "made" in row and "meld 30·12" in row


# --- a game a restore took away -------------------------------------------------------------------------------

def test_a_hand_typed_for_a_game_a_restore_took_away_never_lands_in_the_game_now_under_its_number(
        app, client, tmp_path):
    live = app.config["DATABASE"]
    new_game(client)
    older = tmp_path / "older.db"
    with connection.connect(live) as db:
        db.execute("VACUUM INTO ?", [str(older)])
    taken_away = new_game(client)  # game 2, which the older backup lacks
    kept = {**form_of(client, taken_away), **THEIRS}  # a phone keeps a hand for it, offline
    backups.restore(str(older), live)
    other_family = new_game(client, team_0="Grands", team_1="Kids")
    assert other_family == taken_away  # the id is given again
    answer = client.post(f"/games/{taken_away}/hands", data=kept)
    assert answer.status_code == 409 and answer.headers["Scorepad-Answer"] == "gone"
    assert "The game this hand was typed for is no longer here" in parse(answer).select_one("#form-message").get_text()
    assert hands_stored(app, other_family) == 0
    # and the page of the game under that number now is that game's, and takes its hands as usual
    assert "Grands" in parse(client.get(f"/games/{other_family}")).select_one("#scoreboard").get_text()
    assert record(client, other_family, **THEIRS).status_code == 303


def poll_of(client, game_id) -> tuple[str, dict]:
    """The address a phone's game page polls and what it sends with it, as the page gives them."""
    poller = parse(client.get(f"/games/{game_id}")).select_one("#live")
    sent = json.loads(poller["hx-headers"])
    return poller["hx-get"], {"HX-Request": "true", "X-Game": sent["X-Game"]}


def test_a_phone_polling_a_game_a_restore_took_away_is_told_so_even_when_its_number_went_to_another_game(
        app, client, tmp_path, monkeypatch):
    """Else the phone took the new game's scoreboard into the old game's page, or called itself offline."""
    live = app.config["DATABASE"]
    new_game(client)
    older = tmp_path / "older.db"
    with connection.connect(live) as db:
        db.execute("VACUUM INTO ?", [str(older)])
    taken_away = new_game(client)
    polled, sent = poll_of(client, taken_away)
    assert client.get(polled, headers=sent).status_code == 200
    backups.restore(str(older), live)
    for _ in range(2):  # gone; then its number given to another game
        answer = client.get(polled, headers=sent)
        assert answer.status_code == 404 and answer.headers["Scorepad-Answer"] == "gone"
        said = parse(answer).select_one(".error-message").get_text()
        assert "not on this Scorepad any more" in said and "cannot be saved to it" in said
        assert new_game(client, team_0="Grands", team_1="Kids") > 0
    # the moment between the identity's check and the page's reading: a page of the game as it is then is never
    # brought to a phone that asked for another
    original = lookups.game_etag
    with monkeypatch.context() as patched:
        patched.setattr(lookups, "game_etag", lambda db, game_id, uid=None: original(db, game_id))
        answer = client.get(polled, headers=sent)
    assert answer.status_code == 404 and answer.headers["Scorepad-Answer"] == "gone"
    # the phones of the game that has the number now poll it as usual
    polled, sent = poll_of(client, taken_away)
    assert client.get(polled, headers=sent).status_code == 200


def test_the_compare_of_a_hand_this_phone_saved_says_saved_and_asks_nothing(client):
    """A reload while a save's answer was lost: the phone put back what it had typed and asked about hand 1,
    and was told another phone had recorded it, every number the same."""
    game_id = new_game(client)
    form = form_of(client, game_id)
    assert record(client, game_id, **{**THEIRS, "token": form["token"]}).status_code == 303
    game = form["game"]  # the game's identity, as the form carries it
    own = question(client, game_id, {**THEIRS, "expected": "1", "token": form["token"], "game": game})
    assert (own.status_code, own.headers["Scorepad-Answer"], own.get_data()) == (409, "saved", b"")
    other = question(client, game_id, {**THEIRS, "expected": "1", "token": "another-phone", "game": game})
    assert other.status_code == 200 and parse(other).select_one(".clash-choices") is not None
    # typed otherwise since (corrected after the reload, or the hand changed on another phone): asked, never
    # dropped; and a hand of this phone's kept under another number is asked about under the number typed
    changed = question(client, game_id, {**THEIRS, "counters_0": "30", "counters_1": "20", "expected": "1",
                                         "token": form["token"], "game": game})
    assert changed.status_code == 200 and parse(changed).select_one(".clash-choices") is not None
    record(client, game_id, **{**THEIRS, "bid": "60"})
    elsewhere = question(client, game_id, {**THEIRS, "expected": "2", "token": form["token"], "game": game})
    assert elsewhere.status_code == 200 and parse(elsewhere).select_one(".clash-choices") is not None


def test_the_compare_of_a_hand_typed_for_another_game_says_the_game_is_gone(client):
    game_id = new_game(client)
    record(client, game_id, **THEIRS)
    answer = question(client, game_id, {**THEIRS, "expected": "1", "game": "not-this-game"})
    assert answer.status_code == 409 and answer.headers["Scorepad-Answer"] == "gone"


def test_a_hand_saved_in_one_game_and_sent_to_another_says_where_it_is(client, app):
    first, second = new_game(client), new_game(client, team_0="Grands", team_1="Kids")
    form = form_of(client, first)
    assert client.post(f"/games/{first}/hands", data={**form, **THEIRS}).status_code == 303
    sent_to_second = {**form, "game": form_of(client, second)["game"], "expected": "1"}
    answer = client.post(f"/games/{second}/hands", data={**sent_to_second, **THEIRS})
    assert answer.status_code == 409 and answer.headers["Scorepad-Answer"] == "elsewhere"
    words = parse(answer).select_one("#form-message").get_text()
    assert "saved already, in another game (Us : Them, game 1) as hand 1" in words
    assert "on the sheet once" not in answer.get_data(as_text=True)
    assert hands_stored(app, second) == 0 and hands_stored(app, first) == 1


def test_every_game_has_an_identity_of_its_own_kept_by_a_backup_made_before_identities(tmp_path, new_database):
    """A game from before m020 gets the same identity in the live database and in a backup of that time put back
    after the upgrade; new games get random ones."""
    from tests.helpers import FIXTURES
    old = FIXTURES / "historic" / "4815ab9-rematch-moves-its-game.db"
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    shutil.copyfile(old, one)
    shutil.copyfile(old, two)
    from scorepad.store import schema
    schema.migrate(str(one))
    schema.migrate(str(two))
    with connection.connect(str(one)) as a, connection.connect(str(two)) as b:
        uids = [store_games.load_game(a, i).uid for i in store_games.game_ids(a)]
        assert uids == [store_games.load_game(b, i).uid for i in store_games.game_ids(b)]
        assert len(set(uids)) == len(uids)


# --- the kind of answer, said as data -------------------------------------------------------------------------

def test_each_answer_to_a_save_says_its_kind_in_a_header(client, app):
    game_id = new_game(client)
    form = form_of(client, game_id)
    saved = client.post(f"/games/{game_id}/hands", data={**form, **THEIRS}, headers={"HX-Request": "true"})
    assert (saved.status_code, saved.headers["Scorepad-Answer"]) == (200, "saved")  # the page itself, no redirect
    assert parse(saved).select_one("#saved") is not None  # "Hand 1 recorded: ..."
    again = client.post(f"/games/{game_id}/hands", data={**form, **THEIRS}, headers={"HX-Request": "true"})
    assert again.headers["Scorepad-Answer"] == "saved" and hands_stored(app, game_id) == 1
    plain = client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **THEIRS, "repeat": "1"})
    assert plain.status_code == 303  # without JavaScript: the page after the save is a redirect, as ever
    repeated = client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **THEIRS})
    assert (repeated.status_code, repeated.headers["Scorepad-Answer"]) == (409, "repeat")
    wrong = client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **THEIRS, "counters_0": "60"})
    assert (wrong.status_code, wrong.headers["Scorepad-Answer"]) == (422, "refused")
    late = client.post(f"/games/{game_id}/hands", data={**form, **THEIRS, "token": "another", "expected": "2"})
    assert (late.status_code, late.headers["Scorepad-Answer"]) == (409, "clash")
    ahead = client.post(f"/games/{game_id}/hands", data={**form, **THEIRS, "token": "ahead", "expected": "9"})
    assert (ahead.status_code, ahead.headers["Scorepad-Answer"]) == (409, "behind")


@pytest.mark.app_config(PASSCODE="clubs")
def test_a_save_from_a_locked_phone_is_answered_passcode(client, app):
    game_id = new_game(client, passcode="clubs")
    other = app.test_client()
    form = form_of(other, game_id)
    locked = other.post(f"/games/{game_id}/hands", data={**form, **THEIRS})
    assert (locked.status_code, locked.headers["Scorepad-Answer"]) == (401, "passcode")


def test_the_kinds_of_answer_are_the_ones_the_phone_knows():
    from scorepad.web.shell.answers import KINDS
    from tests.helpers import ROOT
    machine = (ROOT / "static" / "save_machine.js").read_text()
    for kind in KINDS:
        assert f'"{kind}"' in machine or f"{kind}:" in machine, kind


def test_a_hand_sent_to_a_game_that_is_gone_is_told_so_in_words_and_saved_nowhere(client):
    """A hand kept on a phone through a restore of a backup from before its game: the phone shows these words."""
    from tests.helpers import parse
    from tests.web.helpers import csrf

    response = client.post("/games/4242/hands", data={"csrf_token": csrf(client), "token": "t", "expected": "2",
                                                      "bidder": "t0", "bid": "51", "meld_0": "21", "meld_1": "12",
                                                      "counters_0": "31", "counters_1": "19"})
    assert response.status_code == 404
    said = parse(response).select_one(".error-message").get_text()
    assert "not on this Scorepad" in said and "Nothing was saved" in said
    assert "no page at this address" in client.get("/no/such/page").get_data(as_text=True)


def test_the_form_a_poll_brings_is_a_fresh_one_as_a_fresh_page_has_it(client):
    """Else live.js took the other phone's untouched form for one being typed in, and asked the two-phone question
    about it at the next hand (it did, once the poll named its game in the address)."""
    game_id = new_game(client)
    polled, sent = poll_of(client, game_id)
    record(client, game_id, **THEIRS)
    answer = client.get(polled, headers={**sent, "If-None-Match": '"stale"'})
    assert answer.status_code == 200
    fresh = parse(answer).select_one("template#fresh-record")
    assert fresh is not None and "data-fresh" in str(fresh)


def test_an_undo_or_edit_of_a_hand_a_restore_took_away_never_reaches_the_hand_recorded_after_it(
        app, client, tmp_path):
    """Hand ids came round again after a restore: the next hand took the id of one it took away, and the Undo
    still on the recording phone's screen, or an edit form opened before, deleted or changed that new hand."""
    live = app.config["DATABASE"]
    game_id = new_game(client)
    record(client, game_id, **THEIRS)
    older = tmp_path / "older.db"
    with connection.connect(live) as db:
        db.execute("VACUUM INTO ?", [str(older)])
    record(client, game_id, **THEIRS)
    with connection.connect(live) as db:
        gone = store_games.live_hands(db, game_id)[1].id
    edit = client.get(f"/games/{game_id}/hands/{gone}/edit")
    assert edit.status_code == 200  # opened on a phone before the restore
    edit_form = {i["name"]: i.get("value", "") for i in parse(edit).select("#hand-form input[name]")}
    backups.restore(str(older), live)
    assert record(client, game_id, **{**THEIRS, "bid": "60", "meld_0": "40"}).status_code == 303  # another hand 2
    with connection.connect(live) as db:
        before = [(stored.id, stored.hand) for stored in store_games.live_hands(db, game_id)]
    undo = client.post(f"/games/{game_id}/hands/{gone}/undo", data={"csrf_token": edit_form["csrf_token"]})
    assert undo.status_code == 404 and "no such hand" in undo.get_data(as_text=True)
    changed = client.post(f"/games/{game_id}/hands/{gone}/edit", data={**edit_form, **THEIRS, "bid": "65"})
    assert changed.status_code == 404
    with connection.connect(live) as db:
        assert [(stored.id, stored.hand) for stored in store_games.live_hands(db, game_id)] == before
    assert before[1][0] > gone


# --- "mine is right" about the hand that won the game ---------------------------------------------------------

def won_on_the_other_phone(client) -> tuple[int, dict]:
    """Hands 1 and 2 (450 for Us), then hand 3 (bid 50 made with every counter: 500, won) recorded on the other
    phone; returns the game and the hand 3 this phone kept, Them's bid set (so nobody would have won)."""
    game_id = new_game(client)
    for meld, bid in (("200", "250"), ("150", "200")):
        record(client, game_id, kind="played", bidder="t0", bid=bid, trump="H", meld_0=meld, meld_1="0",
               counters_0="50", counters_1="0")
    kept = {**form_of(client, game_id), "kind": "played", "bidder": "t1", "bid": "50", "trump": "H",
            "meld_0": "0", "meld_1": "20", "counters_0": "30", "counters_1": "20"}
    record(client, game_id, kind="played", bidder="t0", bid="50", trump="H", meld_0="0", meld_1="0",
           counters_0="50", counters_1="0")
    assert parse(client.get(f"/games/{game_id}")).select_one(".winner-card") is not None
    return game_id, kept


def boosted(client, url, data, current: str):
    """A form htmx sends as boosted from the page at `current`, as a phone's answer goes."""
    return client.post(url, data=data, headers={"HX-Request": "true", "HX-Boosted": "true",
                                                "HX-Current-URL": "http://localhost" + current})


def test_mine_is_right_about_the_winning_hand_says_what_it_does_to_the_win_and_says_yes_to_it(client):
    game_id, kept = won_on_the_other_phone(client)
    page = parse(question(client, game_id, kept))
    assert "If mine is right: With this change nobody has won yet" in page.select_one("#clash-win").get_text()
    action, sent = answer_form(page, "mine is right")
    assert sent["reopen"] == "1" and sent["answering"] == kept["token"]
    answer = boosted(client, action, sent, f"/games/{game_id}")
    assert answer.status_code == 200 and answer.headers["Scorepad-Answer"] == "saved"
    assert "HX-Push-Url" not in answer.headers  # the game's page, at the game's address already
    after = parse(answer)
    assert after.select_one(".winner-card") is None and after.select_one("#expected")["value"] == "4"


def test_mine_is_right_about_a_hand_that_did_not_win_asks_nothing_of_the_win(client):
    game_id = new_game(client)
    kept = {**form_of(client, game_id), **THEIRS, "bid": "56"}
    record(client, game_id, **THEIRS)
    page = parse(question(client, game_id, kept))
    _, sent = answer_form(page, "mine is right")
    assert page.select_one("#clash-win") is None and "reopen" not in sent


def test_an_answer_the_edit_page_asks_about_first_is_at_its_own_address_and_still_answers_the_question(client):
    """The win came after the question was asked (or the hand typed here is refused): the edit page asks, at its own
    address, so No and Cancel go somewhere; Yes and No still answer the question about the kept hand."""
    game_id, kept = won_on_the_other_phone(client)
    action, sent = answer_form(parse(question(client, game_id, kept)), "mine is right")
    del sent["reopen"]  # as if the question had been asked before the win
    answer = boosted(client, action, sent, f"/games/{game_id}")
    assert answer.status_code == 409 and answer.headers["HX-Push-Url"] == action
    page = parse(answer)
    form = page.select_one("#hand-form")
    assert (form["data-how"], form["data-forget"], form["data-forget-hand"]) == ("mine", kept["token"], "3")
    assert form.select_one("input[name=answering]")["value"] == kept["token"]
    no = page.select_one("#repeat-question a")
    assert (no["data-how"], no["data-forget"]) == ("same", kept["token"]) and "discard mine" in no.get_text()
    cancel = page.select_one(".action-bar a")
    assert no["hx-boost"] == cancel["hx-boost"] == "false"  # a plain load of the game, not under the answer's form
    yes = {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")} | {
        name: sent[name] for name in sent if name not in ("csrf_token",)} | {"reopen": "1"}
    saved = boosted(client, action, yes, action)
    assert saved.status_code == 200 and saved.headers["Scorepad-Answer"] == "saved"
    assert saved.headers["HX-Push-Url"].startswith(f"/games/{game_id}#hand-")
    assert parse(saved).select_one(".winner-card") is None


def test_an_edit_page_opened_by_hand_answers_no_question(client):
    game_id, _ = won_on_the_other_phone(client)
    hand = parse(client.get(f"/games/{game_id}")).select_one(".hands details")["id"].removeprefix("hand-")
    page = parse(client.get(f"/games/{game_id}/hands/{hand}/edit"))
    assert not page.select_one("#hand-form").has_attr("data-how")
    assert page.select_one("input[name=answering]") is None


def test_mine_is_right_about_a_hand_deleted_meanwhile_is_answered_behind_with_what_was_typed_kept(client):
    """The other phone deleted the hand after the question was asked: its place is free. The page keeps what was
    typed in the form (a hand only typed is recorded from there), and says `behind`: a phone that kept the hand
    sends it as typed and clears the form (tests/phone: the machine's row)."""
    game_id, kept = won_on_the_other_phone(client)
    action, sent = answer_form(parse(question(client, game_id, kept)), "mine is right")
    assert client.post(action.replace("/edit", "/delete"), data={"csrf_token": sent["csrf_token"]}).status_code == 303
    answer = boosted(client, action, sent, f"/games/{game_id}")
    assert answer.headers["Scorepad-Answer"] == "behind"
    page = parse(answer)
    assert page.select_one("#expected")["value"] == "3" and page.select_one("#meld_1")["value"] == "20"


def test_mine_is_right_about_a_hand_changed_meanwhile_asks_again_beside_the_hand_as_it_is(client):
    game_id, kept = won_on_the_other_phone(client)
    page = parse(question(client, game_id, kept))
    action, sent = answer_form(page, "mine is right")
    edit = parse(client.get(action))
    changed = {i["name"]: i.get("value", "") for i in edit.select("#hand-form input[type=hidden]")} | {
        "kind": "played", "bidder": "t0", "bid": "50", "trump": "H", "meld_0": "10", "meld_1": "0",
        "counters_0": "30", "counters_1": "20", "reopen": "1"}
    assert client.post(action, data=changed).status_code == 303  # the other phone's edit: Us 490, not won
    answer = boosted(client, action, sent, f"/games/{game_id}")
    assert answer.headers["Scorepad-Answer"] == "clash"
    again = parse(answer)
    assert again.select_one("#record.clash")["data-clash"] == "3"
    assert "10 : 0" in typed_here_and_theirs(again)["Meld"][0]
    _, resent = answer_form(again, "mine is right")
    assert resent["answering"] == kept["token"] and "reopen" not in resent  # nobody has won now: nothing to ask


def typed_here_and_theirs(page) -> dict[str, tuple[str, str]]:
    return {row.th.get_text(): tuple(td.get_text(" ", strip=True).replace("\xa0", " ") for td in row.select("td"))
            for row in page.select(".clash-table tbody tr")}
