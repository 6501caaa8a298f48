"""The winner card and a game in History carry its result to share (a line to copy, a picture of the sheet to
download or print, which work without JavaScript); a game's page carries the switch that keeps the screen on,
hidden until its script shows it. Each script is linked from the pages that use it only."""

import json
import xml.etree.ElementTree as ET

import pytest

from scorepad.store import connection
from tests.helpers import parse
from tests.web.helpers import csrf, new_game, record

HAND = {"bidder": "t0", "bid": "50", "trump": "H", "meld_0": "40", "meld_1": "12", "counters_0": "30",
        "counters_1": "20"}
WIN = {**HAND, "meld_0": "460", "counters_0": "50", "counters_1": "0"}


def friday_evening(app, game_id: int) -> None:
    db = connection.connect(app.config["DATABASE"])
    try:
        with db.conn:
            db.execute("UPDATE games SET created_at = '2026-11-27T20:05:00+00:00' WHERE id = ?", [game_id])
    finally:
        db.close()


def scripts(page) -> set[str]:
    return {s["src"].split("/")[-1].split("?")[0] for s in page.select("script[src]")}


def test_the_winner_card_carries_the_line_to_send_and_the_picture_of_the_sheet(app, client):
    game_id = new_game(client, team_0="Grands", team_1="Kids")
    friday_evening(app, game_id)
    record(client, game_id, **HAND)
    record(client, game_id, **WIN)
    card = parse(client.get(f"/games/{game_id}")).select_one("#record.winner-card")
    share = card.select_one("[data-share]")
    assert share.select_one("textarea[data-share-text]").get_text() == \
        "Grands 580 : Kids 20 — Grands won, 2 hands, Fri 27 Nov"
    assert share.select_one("[data-share-actions]").has_attr("hidden")  # the button is the script's to show
    link = share.select_one("a[data-share-picture]")
    assert link["href"] == f"/history/games/{game_id}/sheet.svg?download=1" and link["download"].endswith(".svg")
    assert card.has_attr("data-game-over")


def test_a_game_in_history_shares_its_result_so_far_or_unfinished(app, client):
    game_id = new_game(client)
    friday_evening(app, game_id)
    record(client, game_id, **HAND)
    line = parse(client.get(f"/history/games/{game_id}")).select_one("[data-share-text]").get_text()
    assert line == "Us 70 : Them 20 — 1 hand so far, Fri 27 Nov"
    client.post(f"/games/{game_id}/end", data={"csrf_token": csrf(client)})
    line = parse(client.get(f"/history/games/{game_id}")).select_one("[data-share-text]").get_text()
    assert line == "Us 70 : Them 20 — ended unfinished, 1 hand, Fri 27 Nov"


def test_the_picture_of_the_sheet_is_an_svg_to_open_or_download(app, client):
    game_id = new_game(client, team_0="Grands", team_1='Kids <&> "Co"')
    friday_evening(app, game_id)
    record(client, game_id, **HAND)
    opened = client.get(f"/history/games/{game_id}/sheet.svg")
    assert opened.status_code == 200 and opened.mimetype == "image/svg+xml"
    assert "Content-Disposition" not in opened.headers
    texts = [t.text for t in ET.fromstring(opened.data).iter("{http://www.w3.org/2000/svg}text")]
    assert texts[0] == 'Grands 70 : Kids <&> "Co" 20'
    assert "1 hand so far" in texts[1] and "Fri 27 Nov 2026" in texts[2]
    downloaded = client.get(f"/history/games/{game_id}/sheet.svg?download=1")
    assert downloaded.headers["Content-Disposition"] == f'attachment; filename="scorepad-game-{game_id}.svg"'
    assert client.get("/history/games/9999/sheet.svg").status_code == 404


def test_a_games_page_has_the_keep_awake_switch_hidden_until_its_script_shows_it(app, client):
    game_id = new_game(client)
    page = parse(client.get(f"/games/{game_id}"))
    island = page.select_one("[data-keep-awake]")
    assert island.has_attr("hidden")
    assert island.select_one("input[type=checkbox][role=switch][data-keep-awake-switch]").has_attr("checked")
    videos = island["data-videos"].split()
    assert [v.split("?")[0] for v in videos] == ["/static/awake.webm", "/static/awake.mp4"]
    for video in videos:
        answer = client.get(video)
        assert answer.status_code == 200 and answer.mimetype in ("video/webm", "video/mp4")
        answer.close()


@pytest.mark.parametrize(("path", "expected"), [
    ("/", set()), ("/history/", set()), ("/games/new", set()),
    ("/games/{game}", {"awake"}), ("/history/games/{game}", {"share"}),
])
def test_each_island_brings_its_script_only_on_the_pages_that_use_it(client, path, expected):
    """An island names its script (data-needs): run once the page is idle, never a script tag of every page."""
    game_id = new_game(client)
    page = parse(client.get(path.format(game=game_id)))
    assert scripts(page) & {"awake.js", "share.js"} == set()
    assert {island["data-needs"] for island in page.select("[data-needs]")} == expected
    later = json.loads(page.select_one("html")["data-scripts"])
    assert all(client.get(later[name]).status_code == 200 for name in expected)
