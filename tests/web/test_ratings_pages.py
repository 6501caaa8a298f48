"""Ratings on the pages: a ladder on the players' page, and each player's rating with its uncertainty, in words
and as a chart of how it moved."""

import secrets
from dataclasses import replace

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import ratings
from scorepad.store import connection, games
from scorepad.store import players as store_players
from tests.helpers import parse

QUICK = replace(PRESETS["double-deck"], target=100)
US = Hand(0, 50, (0, 0), (50, 0))
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve"]


@pytest.fixture(autouse=True)
def cold():
    ratings.forget()
    yield
    ratings.forget()


def play(db, players) -> int:
    game_id = services.start_game(db, QUICK, ("Us", "Them"), players, 0)
    for n in range(2):
        services.record_hand(db, game_id, US, token=secrets.token_hex(8), expected=n + 1, repeat_ok=True)
    return game_id


@pytest.fixture
def season(app) -> dict[str, int]:
    """Twenty games among five, Ann always winning; then one game of four newcomers. Name -> id."""
    db = connection.connect(app.config["DATABASE"])
    for n in range(20):
        others = NAMES[1:][n % 4:] + NAMES[1:][:n % 4]
        play(db, ("Ann", others[0], others[1], others[2]))
    play(db, ("Gus", "Hal", "Ida", "Jo"))
    found = {p["name"]: p["id"] for p in store_players.player_choices(db)}
    db.close()
    return found


def ladder_rows(client) -> list[tuple[str, str, str]]:
    page = parse(client.get("/players/"))
    return [(row.select_one("td").get_text(strip=True), row.select_one("th a").get_text(strip=True),
             row.select_one("td.num").get_text(strip=True)) for row in page.select("#ladder tbody tr")]


def test_the_players_page_ranks_the_sure_by_rating_and_lists_the_not_sure_after_them_unranked(client, season):
    rows = ladder_rows(client)
    assert [name for _, name, _ in rows[:5]][0] == "Ann"
    assert [place for place, _, _ in rows] == ["1", "2", "3", "4", "5", "–", "–", "–", "–"]
    assert {name for _, name, _ in rows[5:]} == {"Gus", "Hal", "Ida", "Jo"}
    numbers = [float(n) for _, _, n in rows[:5]]
    assert numbers == sorted(numbers, reverse=True)
    words = parse(client.get("/players/")).select("#ladder tbody tr th .small")
    assert words[0].get_text(strip=True) == "a first guess after 20 games"
    assert words[-1].get_text(strip=True) == "not sure yet after 1 game"


def test_a_players_page_gives_the_rating_its_uncertainty_and_its_words_and_charts_how_it_moved(client, season):
    page = parse(client.get(f"/players/{season['Ann']}"))
    card = page.select_one("#rating")
    db = connection.connect(client.application.config["DATABASE"])
    rating = ratings.player_rating(db, season["Ann"])[0]
    db.close()
    assert card.select_one(".rating-number").get_text() == f"{rating.mu:.1f}"
    assert card.select_one(".rating-now .muted").get_text() == f"± {2 * rating.sigma:.1f}"
    assert card.select_one(".rating-words").get_text() == "a first guess after 20 games"
    chart = card.select_one("svg.rating-chart")
    assert chart["aria-label"] == (f"Rating chart: from 25.0 to {rating.mu:.1f} over 20 games, shaded two sigmas "
                                   "either side.")
    assert len(chart.select_one("polyline")["points"].split()) == 21
    assert chart.select_one("polygon.band")


def test_a_newcomer_is_not_sure_yet_with_no_chart_and_a_player_with_no_rated_game_has_no_rating(client, season):
    card = parse(client.get(f"/players/{season['Gus']}")).select_one("#rating")
    assert card.select_one(".rating-words").get_text() == "not sure yet after 1 game"
    assert card.select_one("svg") is None
    db = connection.connect(client.application.config["DATABASE"])
    services.start_game(db, QUICK, ("Us", "Them"), ("Kim", None, None, None), 0)
    kim = store_players.players_named(db, "Kim")[0]["id"]
    db.close()
    card = parse(client.get(f"/players/{kim}")).select_one("#rating")
    assert "No rating yet" in card.get_text()


def test_a_hand_deleted_on_the_web_moves_the_rating_shown(client, season, app):
    db = connection.connect(app.config["DATABASE"])
    last = games.history_games(db, season["Ann"], limit=1)[0]
    hand = games.live_hands(db, last.id)[-1]
    services.delete_hand(db, last.id, hand.id)
    db.close()
    card = parse(client.get(f"/players/{season['Ann']}")).select_one("#rating")
    assert card.select_one(".rating-words").get_text() == "a first guess after 19 games"


def test_an_empty_database_says_there_is_no_ladder_yet(client):
    assert parse(client.get("/players/")).select_one("#ladder") is None
