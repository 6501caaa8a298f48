"""A phone on a game that a restore took away: a backup taken before the game was put back while the phone's page
was open. The page says so where it cannot be missed and stops asking; the game that is given its number later
never shows up inside it. (The server's side of it: tests/web/test_two_phone_seams.py.)"""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect

from scorepad.store import backups, connection
from tests.browser.helpers import ARTIFACTS, record_hand, start_game

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
    threading.Thread(target=server.run, daemon=True).start()
    yield f"http://127.0.0.1:{server.effective_port}", app, folder
    server.close()


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
