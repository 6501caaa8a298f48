"""A phone on a game that a restore took away (a backup taken before the game was put back while the phone's page
was open), or took hands from: the page says so where it cannot be missed and stops asking; the game that is
given its number later never shows up inside it; a hand the restore took can be recorded again on the phone that
kept the hands after it. (The server's side of it: tests/web/test_two_phone_seams.py.)"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorepad.store import backups, connection
from tests.browser.helpers import ARTIFACTS, record_hand, start_game
from tests.helpers import serving

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def own_server(tmp_path_factory):
    """A server over a database of this module's own: putting an older copy back takes every later game away."""
    from waitress.server import create_server

    from scorepad import create_app

    folder = tmp_path_factory.mktemp("gone")
    app = create_app({"SECRET_KEY": "gone", "DATABASE": str(folder / "scorepad.db"), "POLL_SECONDS": 1,
                      "BACKUP_DIR": str(folder / "backups")})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    with serving(server):
        yield f"http://127.0.0.1:{server.effective_port}", app, folder


def test_a_phone_on_a_game_a_restore_took_away_says_so_and_stops_asking(phone, other_phone, own_server):
    url, app, folder = own_server
    live = app.config["DATABASE"]
    start_game(other_phone, url)  # a game the backup has
    older = folder / "older.db"
    with connection.connect(live) as db:
        db.execute("VACUUM INTO ?", [str(older)])
    start_game(phone, url, players=("Ann", "Bob", "Cat", "Dan"))
    record_hand(phone, (20, 10), (30,), bidder="Ann", bid=50)
    polls: list[str] = []
    phone.on("request", lambda r: polls.append(r.url) if "/live" in r.url else None)
    with phone.expect_request(lambda r: "/live" in r.url):
        pass  # the page polls

    backups.restore(str(older), live)
    alert = phone.locator("#alert")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("This game is not on this Scorepad any more")
    expect(alert).to_contain_text("a hand typed here cannot be saved to it")
    expect(phone.locator("#offline")).to_be_hidden()
    expect(phone.locator("#live")).to_have_count(0)  # the page stops asking
    asked = len(polls)

    # the number is given to the next game; the page still shows its own game's sheet, never the new one's
    start_game(other_phone, url, players=("Grands", "Kids", "Aunt", "Uncle"))
    assert other_phone.url.endswith(phone.url.rsplit("/", 1)[1])
    phone.wait_for_timeout(2500)  # two and a half poll intervals
    assert len(polls) == asked
    expect(phone.locator("#scoreboard")).not_to_contain_text("Grands")
    expect(phone.locator("#sheet details.hand")).to_have_count(1)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "game-gone.png"))
    # the browser and htmx each log the one 404 the page was answered; nothing else
    said = [e for e in phone.js_errors if "404" not in e]
    assert not said and len(phone.js_errors) <= 2, phone.js_errors


def three_hands_and_a_copy_of_two(phone, own_server) -> tuple[str, Path]:
    """A game of three hands on `phone` (meld 20, 21, 22), and a copy of the database made after its second: the
    backup a restore puts back. Returns the live database's path and the copy's."""
    url, app, folder = own_server
    live = app.config["DATABASE"]
    start_game(phone, url)
    for meld in (20, 21):
        record_hand(phone, (meld, 10), (30,), bidder="Us", bid=50)
    older = folder / f"after-hand-2-{time.monotonic_ns()}.db"
    with connection.connect(live) as db:
        db.execute("VACUUM INTO ?", [str(older)])
    record_hand(phone, (22, 10), (30,), bidder="Us", bid=50)
    return live, older


def test_a_hand_a_restore_took_is_recorded_again_on_the_phone_that_kept_the_next_and_the_kept_one_lands_after_it(
        phone, own_server):
    """Hands 1 and 2 are in the backup, hand 3 is not; hand 4 was kept on the phone (the Wi-Fi gone) when the
    backup was put back. Hand 4 is held (the sheet has lost hand 3), and the form is for hand 3: recorded there
    again, hand 4 goes after it by itself, each under its own number."""
    live, older = three_hands_and_a_copy_of_two(phone, own_server)
    phone.context.set_offline(True)
    record_hand(phone, (24, 10), (30,), bidder="Us", bid=50)  # hand 4, kept on the phone
    expect(phone.locator("#outbox")).to_be_visible()
    backups.restore(str(older), live)
    phone.context.set_offline(False)
    expect(phone.locator("#outbox")).to_contain_text("fewer hands than when it was typed", timeout=30_000)
    expect(phone.locator("#expected")).to_have_value("3")
    expect(phone.locator("button.save-button")).to_have_text("Record hand 3")
    expect(phone.locator("#saved")).to_be_hidden()  # "Hand 3 recorded · Undo" spoke of the hand the restore took
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "restore-took-a-hand.png"), full_page=True)
    phone.locator("#field-bidder .choice", has_text="Us").click()  # hand 3 again, as it was played
    phone.fill("#bid", "50")
    phone.fill("#meld_0", "23")
    phone.fill("#meld_1", "10")
    phone.fill("#counters_0", "30")
    phone.locator("button.save-button").click()
    expect(phone.locator("#outbox")).to_have_count(0, timeout=30_000)
    expect(phone.locator("#expected")).to_have_value("5")
    expect(phone.locator("#sheet details.hand")).to_have_count(4)
    melds = phone.locator("#sheet details.hand summary").all_inner_texts()[::-1]
    assert ["meld 23·10" in melds[2], "meld 24·10" in melds[3]] == [True, True], melds


def test_a_hand_being_typed_across_a_restore_keeps_its_number_and_its_save_says_the_sheet_has_fewer_hands(
        phone, other_phone, own_server):
    """The other phone is typing hand 4 when a backup from after hand 2 is put back: its form is not renumbered
    unsaid (its hand 4 was recorded as hand 3 without a word, and the lost hand 3 never was); Record says the
    sheet has fewer hands, and nothing is stored until the player has looked."""
    live, older = three_hands_and_a_copy_of_two(phone, own_server)
    other_phone.goto(phone.url)
    expect(other_phone.locator("#expected")).to_have_value("4")
    other_phone.locator("#field-bidder .choice", has_text="Us").click()
    other_phone.fill("#bid", "50")
    other_phone.fill("#meld_0", "24")
    backups.restore(str(older), live)
    notice = other_phone.locator("#live-notice")  # (no other phone did anything: it was a restore)
    expect(notice).to_contain_text("The sheet has fewer hands (deleted, or an older copy put back): next is hand 3. "
                                   "Check it before you record this one.")
    expect(other_phone.locator("#sheet details.hand")).to_have_count(2)
    expect(other_phone.locator("#expected")).to_have_value("4")
    other_phone.fill("#meld_1", "10")
    other_phone.fill("#counters_0", "30")
    other_phone.locator("button.save-button").click()
    expect(other_phone.locator("#form-message")).to_contain_text("The sheet has fewer hands than when this hand was "
                                                                 "typed")
    expect(other_phone.locator("#sheet details.hand")).to_have_count(2)  # nothing stored unasked
    expect(other_phone.locator("#meld_0")).to_have_value("24")
    other_phone.screenshot(path=str(ARTIFACTS / "typed-across-a-restore.png"))
