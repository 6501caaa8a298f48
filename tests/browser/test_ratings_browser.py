"""Ratings on a phone at 390×844: the ladder on the players' page and a player's rating with its chart, whole on
the screen, no sideways scroll. Screenshots of both are kept in test-artifacts/ to look at."""

import random
import secrets
from dataclasses import replace

import pytest
from playwright.sync_api import expect

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.store import connection
from tests.browser.helpers import ARTIFACTS, no_sideways_scroll
from tests.helpers import serving

pytestmark = pytest.mark.browser

QUICK = replace(PRESETS["double-deck"], target=100)
FAMILY = ["Gramps", "Nana", "Unc", "Auntie", "Cousin Jo", "Maximilian-Alexander"]


def play(db, players, us_win) -> None:
    game_id = services.start_game(db, QUICK, ("Us", "Them"), players, 0)
    hand = Hand(0, 50, (0, 0), (50, 0)) if us_win else Hand(1, 50, (0, 0), (0, 50))
    for n in range(2):
        services.record_hand(db, game_id, hand, token=secrets.token_hex(8), expected=n + 1, repeat_ok=True)


@pytest.fixture
def family_server(tmp_path):
    """A server of its own over a family's year: 60 games among six, Nana winning most; a visitor's one game."""
    from waitress.server import create_server

    from scorepad import create_app

    path = str(tmp_path / "scorepad.db")
    app = create_app({"SECRET_KEY": "ratings", "DATABASE": path})
    db = connection.connect(path)
    rng = random.Random(25)
    for _ in range(60):
        four = rng.sample(FAMILY, 4)
        nana_side = 0 if "Nana" in four[0::2] else 1 if "Nana" in four else None
        us_win = rng.random() < (0.8 if nana_side == 0 else 0.2 if nana_side == 1 else 0.5)
        play(db, tuple(four), us_win)
    play(db, ("Gramps", "Visitor", "Unc", "Nana"), True)
    db.close()
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    with serving(server):
        yield f"http://127.0.0.1:{server.effective_port}"


def test_the_ladder_and_a_players_rating_read_whole_on_a_phone(phone, family_server):
    phone.goto(f"{family_server}/players/")
    ladder = phone.locator("#ladder")
    ladder.scroll_into_view_if_needed()
    expect(ladder.locator("tbody tr").first.locator("th a")).to_have_text("Nana")
    expect(ladder.locator("tbody tr").last).to_contain_text("Visitor")
    expect(ladder.locator("tbody tr").last).to_contain_text("not sure yet after 1 game")
    no_sideways_scroll(phone)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.locator("#ratings").screenshot(path=str(ARTIFACTS / "ratings-ladder-390.png"))

    ladder.locator("a", has_text="Nana").click()
    expect(phone.locator("h1")).to_have_text("Nana")
    card = phone.locator("#rating")
    expect(card.locator(".rating-words")).to_have_text("fairly sure after 40 games")
    chart = card.locator("svg.rating-chart")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "ratings-player-390.png"))  # the first screen: rating, words, chart
