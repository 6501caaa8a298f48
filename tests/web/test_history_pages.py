"""History, a hand's page, records, rename/merge, export/import and the backup commands, through the app."""

import io
import json
import re
import sqlite3

import pytest

from tests.helpers import csv_sheets, parse
from tests.web.helpers import csrf, new_game, record, totals

PLAYERS = {"player_0": "Ann", "player_1": "Bob", "player_2": "Cat", "player_3": "Dan"}


@pytest.fixture
def played(client):
    """A finished game with named players (Ann & Cat win, one set on the way) and one hand edited."""
    game_id = new_game(client, **PLAYERS)
    record(client, game_id, bidder="s1", bid=60, meld_1=30, counters_0=26)  # Bob's team set: 30 + 24 < 60
    for _ in range(3):
        record(client, game_id, bidder="s0", bid=150, meld_0=100, counters_0=50)
    record(client, game_id, bidder="s2", bid=50, counters_0=50)
    return game_id


def test_history_groups_games_by_evening_and_filters_by_player(client, played):
    other = new_game(client, team_0="X", team_1="Y")
    page = parse(client.get("/history/"))
    evening = page.select_one("section.evening")
    assert evening.h2.get_text()  # today's evening, written out
    assert len(evening.select(".game-item")) == 2
    ann = next(o["value"] for o in page.select("#player option") if o.get_text() == "Ann")
    only_ann = parse(client.get(f"/history/?player={ann}"))
    assert [a["href"] for a in only_ann.select(".game-item")] == [f"/history/games/{played}"]
    assert other != played


def test_a_date_range_that_makes_no_sense_says_why(client, played):
    response = client.get("/history/?from=2026-11-20&to=2026-11-01")
    assert response.status_code == 422
    assert parse(response).select_one("#to-error").get_text() == "The last evening comes after the first."
    assert client.get("/history/?from=yesterday").status_code == 422


def test_a_past_game_is_a_read_only_sheet_with_its_chart_and_rules(client, played):
    page = parse(client.get(f"/history/games/{played}"))
    assert page.select_one("#hand-form") is None
    assert page.select(".hands details")[0].select_one("a[href$='/edit']") is None
    svg = page.select_one("svg.chart")
    assert len(svg.select("polyline")) == 2
    assert len(svg.select("circle.set-mark")) == 1  # Bob's team was set on hand 1
    assert svg.select_one("line.target") is not None
    assert "Game is 500" in page.select_one(".rules-card").get_text()
    assert page.select_one(".winner-line").get_text(" ", strip=True).startswith("We won the game.")


def test_a_hands_page_shows_why_and_every_change_before_and_after(client, played):
    sheet = parse(client.get(f"/games/{played}"))
    hand_id = sheet.select(".hands details")[-1]["id"].split("-")[1]  # hand 1
    data = {"csrf_token": csrf(client), "kind": "played", "bidder": "s1", "bid": "65", "meld_0": "0",
            "meld_1": "30", "counters_0": "26", "counters_1": "24"}
    assert client.post(f"/games/{played}/hands/{hand_id}/edit", data=data).status_code == 303
    page = parse(client.get(f"/history/games/{played}/hands/{hand_id}"))
    assert page.h1.get_text() == "Hand 1"
    assert "short of the bid of 65: −65" in page.select_one(".explanation").get_text()
    rows = [[c.get_text() for c in tr.select("th, td")] for tr in page.select("table.changes tbody tr")]
    assert rows == [["Bid", "60", "65"]]
    assert [p.get_text(" ", strip=True).split("·")[1].strip() for p in page.select(".edit > p")] == \
        ["Recorded", "Edited"]


def test_records_pages_show_a_player_and_head_to_head(client, played):
    page = parse(client.get("/players/"))
    names = [a.strong.get_text() for a in page.select(".player-list a")]
    assert names == ["Ann", "Bob", "Cat", "Dan"]
    ids = {a.strong.get_text(): a["href"].rsplit("/", 1)[1] for a in page.select(".player-list a")}
    ann = parse(client.get(f"/players/{ids['Ann']}"))
    record_values = {d.dt.get_text(): d.dd.get_text() for d in ann.select_one(".record-grid").select("div")}
    assert record_values["Finished games"] == "1" and record_values["Wins"] == "1" and record_values["Hands bid"] == "3"
    assert record_values["Biggest hand"] == "150"
    h2h = parse(client.get(f"/players/?a1={ids['Ann']}&a2={ids['Cat']}&b1={ids['Bob']}&b2={ids['Dan']}"))
    assert h2h.select_one(".h2h-result").get_text(" ", strip=True).startswith("Ann & Cat 1 – 0 Bob & Dan")


def test_renaming_and_merging_from_the_players_page(client, played):
    ids = {a.strong.get_text(): a["href"].rsplit("/", 1)[1] for a in parse(client.get("/players/")).select(
        ".player-list a")}
    taken = client.post(f"/players/{ids['Dan']}/rename", data={"csrf_token": csrf(client), "name": "bob"})
    assert taken.status_code == 422
    assert "merge them" in parse(taken).select_one("#name-error").get_text()
    assert client.post(f"/players/{ids['Dan']}/rename", data={"csrf_token": csrf(client),
                                                               "name": "Daniel"}).status_code == 303
    refused = client.post(f"/players/{ids['Ann']}/merge", data={"csrf_token": csrf(client), "into": ids["Cat"]})
    assert refused.status_code == 409
    assert "two people" in parse(refused).select_one("#into-error").get_text()
    page = parse(client.get(f"/games/{played}"))
    assert "Daniel" in page.select_one(".scoreboard").get_text()
    assert totals(page) == (526, -60)


def test_export_imports_back_and_csv_reads_as_a_sheet(client, app, played, make_app, tmp_path):
    exported = client.get("/export.json")
    assert exported.headers["Content-Disposition"].startswith("attachment")
    document = json.loads(exported.data)
    [(title, rows)] = csv_sheets(client.get(f"/games/{played}/export.csv").get_data(as_text=True))
    assert [r["Hand"] for r in rows] == ["1", "2", "3", "4", "5"]
    assert rows[0]["Result"] == "set" and rows[-1]["Us total"] == "526"
    assert title[1] == "Us – Them"
    fresh = make_app(DATABASE=tmp_path / "fresh.db").test_client()
    upload = {"csrf_token": csrf(fresh), "file": (io.BytesIO(exported.data), "scorepad.json")}
    assert fresh.post("/import", data=upload, content_type="multipart/form-data").status_code == 303
    again = json.loads(fresh.get("/export.json").data)
    assert [g["totals"] for g in again["games"]] == [g["totals"] for g in document["games"]]
    assert [len(g["hands"]) for g in again["games"]] == [len(g["hands"]) for g in document["games"]]


@pytest.mark.parametrize(("content", "message"), [
    (b"hello", "not JSON"),
    (b'{"format": "other"}', "does not say it is one"),
])
def test_an_import_that_is_not_ours_says_why_and_changes_nothing(client, played, content, message):
    upload = {"csrf_token": csrf(client), "file": (io.BytesIO(content), "x.json")}
    response = client.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 422
    assert message in parse(response).select_one("#file-error").get_text()
    assert len(parse(client.get("/history/")).select(".game-item")) == 1


def test_backup_and_restore_commands(app, client, played, tmp_path):
    runner = app.test_cli_runner()
    target = tmp_path / "copy.db"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0 and "Backed up" in result.output
    assert sqlite3.connect(target).execute("SELECT count(*) FROM hands").fetchone()[0] == 5
    new_game(client, team_0="After", team_1="Backup")
    refused = runner.invoke(args=["restore", str(tmp_path / "missing.db"), "--yes"])
    assert refused.exit_code != 0 and "Nothing was changed" in refused.output
    result = runner.invoke(args=["restore", str(target), "--yes"])
    assert result.exit_code == 0, result.output
    assert "After" not in parse(client.get("/history/")).get_text()
    kept = re.search(r"kept in (\S+)\.$", result.output.strip())[1]
    assert sqlite3.connect(kept).execute("SELECT count(*) FROM games").fetchone()[0] == 2
    default = runner.invoke(args=["backup"])
    assert default.exit_code == 0 and str(tmp_path / "backups") in default.output


def test_there_is_a_print_stylesheet_for_one_game_on_one_page(client):
    with client.get("/static/app.css") as response:
        css = response.get_data(as_text=True)
    printing = css[css.index("@media print"):]
    assert "#hand-form" in printing and ".topbar" in printing
