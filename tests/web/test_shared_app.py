"""The `app` fixture shares one app between tests: nothing one test does to it reaches the next."""

from __future__ import annotations

from tests.apps import SharedApps
from tests.helpers import parse
from tests.web.helpers import csrf, hands_stored, new_game, record


def two_tests(new_database, tmp_path, settings=None):
    """The same shared app as the first test and then the second one get it."""
    apps = SharedApps()
    first = apps.serve(settings or {}, new_database(tmp_path / "1" / "scorepad.db"), tmp_path / "1" / "backups")
    yield first
    apps.done_with(first)
    yield apps.serve(settings or {}, new_database(tmp_path / "2" / "scorepad.db"), tmp_path / "2" / "backups")


def test_the_next_test_gets_the_same_app_over_a_database_and_backups_of_its_own(new_database, tmp_path):
    tests = two_tests(new_database, tmp_path)
    first = next(tests)
    client = first.test_client()
    game_id = new_game(client)
    assert record(client, game_id, bidder="t0", bid="50", trump="H", meld_0="20", meld_1="0", counters_0="30",
                  counters_1="20").status_code == 303
    first.config["PASSCODE"] = "hearts"
    first_backups, first_guesses = first.extensions["scorepad_backups"], first.extensions["scorepad_guesses"]
    first_guesses.wrong("10.0.0.1")

    second = next(tests)
    assert second is first
    assert second.config["DATABASE"] == str(tmp_path / "2" / "scorepad.db")
    assert second.config.get("PASSCODE") is None and hands_stored(second, game_id) == 0
    assert second.extensions["scorepad_backups"] is not first_backups
    assert second.extensions["scorepad_backups"].live_path == second.config["DATABASE"]
    assert second.extensions["scorepad_backups"].folders[0] == tmp_path / "2" / "backups"
    assert second.extensions["scorepad_guesses"] is not first_guesses
    assert parse(second.test_client().get("/")).select_one(".locked") is None


def test_an_app_a_test_changed_is_not_shared_again(new_database, tmp_path):
    tests = two_tests(new_database, tmp_path)
    first = next(tests)
    first.before_request(lambda: None)
    assert next(tests) is not first


def test_settings_of_their_own_get_an_app_of_their_own(new_database, tmp_path):
    apps = SharedApps()
    plain = apps.serve({}, new_database(tmp_path / "1.db"), tmp_path / "b1")
    apps.done_with(plain)
    locked = apps.serve({"PASSCODE": "clubs"}, new_database(tmp_path / "2.db"), tmp_path / "b2")
    assert locked is not plain and locked.config["PASSCODE"] == "clubs"
    client = locked.test_client()
    assert client.post("/games/new", data={"csrf_token": csrf(client)}).status_code == 401
