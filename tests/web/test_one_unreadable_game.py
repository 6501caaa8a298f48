"""One game today's code cannot read (its rules are not JSON, or a list) in the live database: Scorepad still
starts, logs it, serves every other game, and that game's page says in words that it cannot be read."""

import shutil
import sqlite3

import pytest

from scorepad import create_app
from scorepad.store import schema
from tests.helpers import FIXTURES

CLUB = FIXTURES / "historic" / "bbc0be9-club-table-end.db"


@pytest.fixture(params=["nope", "[1, 2]"], ids=["not JSON", "a list"])
def damaged(request, tmp_path):
    """A database whose game 1 has unreadable rules and no stored figures, so every start tries to re-score it."""
    path = tmp_path / "scorepad.db"
    shutil.copyfile(CLUB, path)
    schema.migrate(str(path))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET rules = ? WHERE id = 1", [request.param])
        db.execute("DELETE FROM team_results WHERE game_id = 1")
    return path


def test_start_up_keeps_going_past_a_game_it_cannot_read_and_says_so_in_the_log(damaged, caplog):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(damaged)})  # died in rescore_stale
    assert "Game 1 kept as stored" in caplog.text
    client = app.test_client()
    for url in ("/", "/history/", "/games/2", "/history/games/3", "/players/", "/club/1"):
        assert client.get(url).status_code == 200, url


def test_the_unreadable_games_page_says_so_in_words(damaged):
    client = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(damaged)}).test_client()
    for url in ("/games/1", "/history/games/1"):
        response = client.get(url)
        assert response.status_code == 422, url
        page = response.get_data(as_text=True)
        assert "This game cannot be read" in page
        assert "Game 1 cannot be read: its stored rules are not a rule set Scorepad knows" in page
    assert "/games/1\"" not in client.get("/history/").get_data(as_text=True)  # lists leave it out
