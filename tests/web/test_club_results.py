"""What leaves the room at the end of a club night: one self-contained results page (everything inside it, so it
opens from a file with no Scorepad behind it), a plain-text summary to paste, both written to the results folder
the owner names; and standings the director hides from the wall and the phones until the prize-giving."""

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from scorepad.store import clubs
from tests.helpers import parse
from tests.web.helpers import CLUB_WIN_0, club_post, form_of, read

TEAMS = [("Al", "Bo", "Aces"), ("Cy", "Di", "Kings"), ("Ed", "Flo", "Queens")]
NIGHT = {"name": "Tuesday", "kind": "partners", "preset": "double-deck", "round_end": "hands", "round_size": "1",
         "rounds": "2"}


def parse_html(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")



def played_night(client, app, close=True, **settings) -> int:
    """Three teams, two rounds of one hand (a bye each round), every table played; closed."""
    response = club_post(client, "/club/new", **{**NIGHT, **settings})
    night_id = int(response.headers["Location"].split("/")[2])
    for a, b, team in TEAMS:
        club_post(client, f"/club/{night_id}/register", player_0=a, player_1=b, team=team)
    for number in (1, 2):
        club_post(client, f"/club/{night_id}/start", round=str(number), unconfirmed="played on")
        for table in read(app, clubs.tables, night_id, number):
            client.post(f"/games/{table.game_id}/hands", data={**form_of(client, table.game_id), **CLUB_WIN_0})
    if close:
        assert club_post(client, f"/club/{night_id}/close", round="2", unconfirmed="the end").status_code == 303
    return night_id


def test_the_results_page_is_one_file_with_everything_in_it_and_nothing_outside_it(client, app):
    night_id = played_night(client, app)
    response = client.get(f"/club/{night_id}/results.html")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    assert re.search(r'filename="\d{4}-\d\d-\d\d-tuesday-\d+\.html"', response.headers["Content-Disposition"])
    html = response.get_data(as_text=True)
    page = parse_html(html)
    # self-contained: no script, no stylesheet or image to fetch, no link anywhere
    assert not page.select("script, link, img, iframe, object, embed, [src], [href]")
    assert "url(" not in html and "@import" not in html
    assert page.select_one("style")
    words = page.get_text(" ", strip=True)
    for part in ("#standings", "#prizes", "#tables", "#season"):
        assert page.select_one(part), part
    assert [tr.select("td")[1].get_text(strip=True) for tr in page.select("#standings tbody tr")] == [
        "Aces", "Kings", "Queens"] or len(page.select("#standings tbody tr")) == 3
    assert "Round 1" in words and "Round 2" in words and "First place" in words and "A bye is worth" in words


def test_the_summary_is_plain_text_to_paste_with_the_standings_and_the_prizes(client, app):
    night_id = played_night(client, app)
    response = client.get(f"/club/{night_id}/results.txt")
    assert response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert text.startswith("Tuesday · ") and "final standings" in text.splitlines()[0]
    assert "  1. " in text and "Prizes:" in text and "First place:" in text and "<" not in text
    page = parse(client.get(f"/club/{night_id}/director"))
    assert page.select_one("#results-summary").get_text() == text
    assert page.select_one("#results-file")["href"] == f"/club/{night_id}/results.html"


def test_closing_the_night_writes_the_results_to_the_folder_named_and_an_index(make_app, tmp_path):
    folder = tmp_path / "share"
    folder.mkdir()
    app = make_app(CLUB_RESULTS_DIR=str(folder))
    client = app.test_client()
    night_id = played_night(client, app)
    names = sorted(p.name for p in folder.iterdir())
    assert names[-1] == "index.html" and len(names) == 3
    page, text = (folder / names[0]).read_text(), (folder / names[1]).read_text()
    assert names[0].endswith(".html") and names[1].endswith(".txt") and "Aces" in page and "Aces" in text
    assert parse_html((folder / "index.html").read_text()).select_one("a")["href"] == names[0]
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]  # nothing half written left beside them
    # a correction after the close writes them again
    table = read(app, clubs.tables, night_id, 1)[0]
    club_post(client, f"/club/{night_id}/tables/{table.id}/correct", score_0="11", score_1="222", note="Recount")
    assert "222" in (folder / names[0]).read_text()


def test_a_results_folder_that_is_not_there_is_said_and_the_night_closes_all_the_same(make_app, tmp_path):
    app = make_app(CLUB_RESULTS_DIR=str(tmp_path / "unplugged"))
    client = app.test_client()
    night_id = played_night(client, app, close=False)
    response = club_post(client, f"/club/{night_id}/close", round="2", unconfirmed="the end")
    assert response.status_code == 303
    said = parse(client.get(response.headers["Location"])).get_text(" ", strip=True)
    assert "could not be written to" in said and "unplugged" in said
    assert read(app, clubs.load_night, night_id).closed_at
    assert not (tmp_path / "unplugged").exists()  # never made on the machine's own card


# --- standings hidden until the director reveals them ------------------------------------------------------------

def test_hidden_standings_are_on_no_wall_phone_page_or_file_until_the_director_reveals_them(client, app):
    night_id = played_night(client, app, hidden="1")
    stranger = app.test_client()
    wall = parse(stranger.get(f"/club/{night_id}/wall"))
    assert wall.select_one("#standings-hidden") and not wall.select("#standings-table")
    assert not parse(client.get(f"/club/{night_id}/wall")).select("#standings-table")  # the wall is the room's
    night_page = parse(stranger.get(f"/club/{night_id}"))
    assert night_page.select_one("#standings-hidden") and not night_page.select("#standings-table, #prize-list")
    for url in ("standings.csv", "standings.json", "prizes", "results.html", "results.txt"):
        assert stranger.get(f"/club/{night_id}/{url}").status_code == 403, url
    season_id = read(app, clubs.load_night, night_id).season_id
    season = parse(stranger.get(f"/club/seasons/{season_id}"))
    assert "hidden until" in season.select_one("#hidden-nights").get_text() and not season.select(
        "#season-players-table tbody tr td.num")
    phone = app.test_client()
    club_post(phone, f"/club/{night_id}/me", player=str(read(app, lambda db: clubs.entrants(db, night_id))[0]
                                                          .player_ids[0]))
    assert parse(phone.get(f"/club/{night_id}/me")).select_one("#standings-hidden") is not None
    assert parse(client.get(f"/club/{night_id}/director")).select("#director-standings tbody tr")  # the director's
    club_post(client, f"/club/{night_id}/standings/hidden", hidden="0")
    assert parse(stranger.get(f"/club/{night_id}/wall")).select("#standings-table tbody tr")
    assert parse(phone.get(f"/club/{night_id}/me")).select_one("#finished")
    assert stranger.get(f"/club/{night_id}/results.html").status_code == 200


@pytest.mark.parametrize("hidden", ["", "1"])
def test_the_new_night_form_offers_to_hide_the_standings(client, hidden):
    response = club_post(client, "/club/new", **{**NIGHT, "hidden": hidden})
    night_id = int(response.headers["Location"].split("/")[2])
    page = parse(client.get(f"/club/{night_id}/director"))
    assert bool(page.select_one("#standings-hidden-mark")) == bool(hidden)


def test_a_results_page_opens_from_a_file(client, app, tmp_path):
    """The file alone, as a mail's attachment is opened: every part of it is in it (see the browser test for the
    page drawn by Chromium from file://)."""
    night_id = played_night(client, app)
    path = Path(tmp_path / "results.html")
    path.write_bytes(client.get(f"/club/{night_id}/results.html").get_data())
    page = parse_html(path.read_text())
    assert page.select_one("title").get_text() == "Tuesday: results"
