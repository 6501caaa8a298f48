"""Evenings are filed, and times shown, on the house's clock (TIMEZONE, else TZ, else the machine's), whatever zone
the machine runs in: a container's UTC no longer files a family's 22:30 game under the next evening."""

import re
from datetime import datetime

import pytest

from scorepad.core import house_time
from scorepad.store import autobackup, backups, connection
from scorepad.web.shell.startup import CannotStart
from tests.helpers import parse
from tests.web.helpers import new_game

FRIDAY_22_30_PACIFIC = "2026-11-28T06:30:00+00:00"  # as a machine on UTC stores it


def started_at(app, game_id: int, stamp: str) -> None:
    db = connection.connect(app.config["DATABASE"])
    try:
        with db.conn:
            db.execute("UPDATE games SET created_at = ? WHERE id = ?", [stamp, game_id])
    finally:
        db.close()


@pytest.mark.app_config(TIMEZONE="America/Los_Angeles")
def test_a_pacific_game_at_half_past_ten_is_filed_under_its_evening_and_reads_22_30(app, client):
    game_id = new_game(client, team_0="Grands", team_1="Kids")
    started_at(app, game_id, FRIDAY_22_30_PACIFIC)
    page = parse(client.get("/history/"))
    [evening] = page.select("section.evening")
    assert evening.select_one("h2 time")["datetime"] == "2026-11-27"
    assert "Fri 27 Nov 2026, 22:30" in evening.get_text(" ", strip=True)
    game = parse(client.get(f"/history/games/{game_id}"))
    assert game.select_one("time.game-date").get_text() == "Fri 27 Nov 2026, 22:30"
    # the evenings a search names are the house's too: the Friday evening holds it, the Saturday does not
    assert parse(client.get("/history/?from=2026-11-27&to=2026-11-27")).select("section.evening")
    assert not parse(client.get("/history/?from=2026-11-28&to=2026-11-28")).select("section.evening")


@pytest.mark.app_config(TIMEZONE="America/Los_Angeles")
def test_about_says_which_zone_evenings_are_filed_in_and_when_an_evening_starts(client):
    page = parse(client.get("/about"))
    zone = page.select_one("#house-zone").get_text(" ", strip=True)
    assert "America/Los_Angeles" in zone and "the TIMEZONE setting" in zone
    now = house_time.local(datetime.now(house_time.zone())).strftime("%H:%M")
    assert re.search(r"It is \d\d:\d\d on", zone) and now[:2] in zone
    assert "starts at 06:00" in page.select_one("#evening-starts").get_text()
    assert page.select_one("#house-zone-problem") is None


def test_the_environment_names_the_zone_and_tz_is_taken_when_nothing_else_is(make_app, monkeypatch, tmp_path):
    monkeypatch.setenv("TZ", "Europe/Berlin")
    app = make_app()
    assert "Europe/Berlin" in parse(app.test_client().get("/about")).select_one("#house-zone").get_text()
    monkeypatch.setenv("SCOREPAD_TIMEZONE", "Asia/Tokyo")
    app = make_app(DATABASE=str(tmp_path / "second" / "scorepad.db"))
    text = parse(app.test_client().get("/about")).select_one("#house-zone").get_text(" ", strip=True)
    assert "Asia/Tokyo" in text and "TIMEZONE setting" in text


def test_a_tz_that_names_no_zone_is_said_on_about(make_app, monkeypatch):
    monkeypatch.setenv("TZ", "Mars/Olympus")
    page = parse(make_app().test_client().get("/about"))
    assert "Mars/Olympus" in page.select_one("#house-zone-problem").get_text()


def test_a_timezone_that_names_no_zone_stops_the_start_with_a_sentence(make_app):
    with pytest.raises(CannotStart, match="“Europe/Berln”, which names no time zone"):
        make_app(TIMEZONE="Europe/Berln")


def test_backups_are_named_on_the_house_clock(live, tmp_path):
    house_time.set_house(house_time.choose("Pacific/Kiritimati", None))  # UTC+14: never the machine's date
    written = backups.backup_into(str(live), tmp_path / "backups")
    [(name, when)] = autobackup.taken_in(tmp_path / "backups").items()
    assert name == written.name
    assert abs((when - house_time.wall_clock()).total_seconds()) < 60
    assert autobackup.in_future([tmp_path / "backups"]) == []  # judged on the same clock it was named by
