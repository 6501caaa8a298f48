"""A season in a real browser: the director starts it from a night's director's page, then runs three nights in
it (partners, progressive, and partners on the clock with a substitute); specials are tapped on the hand form, one
ticked by the meld count; the season's page at a phone's size (and 320 wide), its wall on a 1920x1080 screen and
its printed prize list show the final standings, the specials with who and when, and the prizes.

Set SCOREPAD_SHOTS to a folder to keep a screenshot of each screen there."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import HAND, PHONE, no_sideways_scroll, post

pytestmark = pytest.mark.browser

TEAMS = [("Avis", "Bert", "Aces"), ("Cleo", "Dora", "Kings"), ("Emil", "Fern", "Queens"), ("Gert", "Hugo", "Jacks")]
PLAYERS = [name for team in TEAMS for name in team[:2]]
WALL = {"width": 1920, "height": 1080}


def shot(page, name):
    folder = os.environ.get("SCOREPAD_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def new_night(page, live_server, name, kind, entrants, end=("hands", "1")):
    """A night made, registered and round 1 started from the director's browser; its address and its tables'
    games' addresses."""
    page.goto(f"{live_server}/club/")
    director = post(page, f"{live_server}/club/new", {"name": name, "kind": kind, "preset": "double-deck",
                                                      "round_end": end[0], "round_size": end[1], "rounds": "1"})
    night = live_server + re.search(r"/club/\d+", director)[0]
    for entrant in entrants:
        names = dict(zip(("player_0", "player_1", "team"), entrant, strict=True)) if kind == "partners" else {
            "player_0": entrant}
        post(page, f"{night}/register", names)
    post(page, f"{night}/start", {})
    page.goto(f"{night}/director")
    games = [live_server + a.get_attribute("href") for a in page.locator("#tables .game-item").all()]
    return night, games


def record(page, game):
    """A hand North and South win, sent from the game's own form."""
    page.goto(game)
    hidden = {name: page.locator(f"#hand-form input[name={name}]").get_attribute("value")
              for name in ("token", "expected")}
    post(page, f"{game}/hands", {**hidden, **HAND})


def test_a_season_of_three_nights_runs_to_its_final_standings_specials_and_prize_list(context_for, club_server):
    live_server = club_server[0]  # a database of its own: its first night's director directs the first season
    director = context_for()
    # the last night of the season before: from its director's page, a new season starts
    autumn, _ = new_night(director, live_server, "Last of autumn", "partners", TEAMS)
    director.goto(f"{autumn}/director")
    director.locator("#season summary", has_text="Start a new season").click()
    director.fill("#new_season_name", "Winter league")
    director.get_by_role("button", name="Start the new season").click()
    expect(director.locator(".flash").first).to_contain_text("Winter league has started")
    no_sideways_scroll(director)
    shot(director, "1-director-season-card")

    # night 1, partners: Avis melds double pinochle, tallied with one tap on the hand form
    first, games = new_night(director, live_server, "Week 1", "partners", TEAMS)
    director.goto(games[0])
    director.fill("#bid", "55")
    director.get_by_role("button", name="Double pinochle for Avis", exact=True).click()
    expect(director.locator(".specials-tallied")).to_contain_text("Hand 1: Avis, double pinochle")
    expect(director.locator("#bid")).to_have_value("55")  # what was typed came back with the form
    no_sideways_scroll(director)
    shot(director, "2-hand-form-specials")
    director.set_viewport_size({"width": 320, "height": 640})
    no_sideways_scroll(director)
    shot(director, "2-hand-form-specials-320")
    director.set_viewport_size(PHONE)
    for game in games:
        record(director, game)
    post(director, f"{first}/close", {"unconfirmed": "Closed before the tables confirmed"})

    # night 2, progressive: the meld count sees double aces in the cards and ticks them on the form
    second, games = new_night(director, live_server, "Week 2", "progressive", PLAYERS)
    director.goto(games[0])
    director.locator("button.count-button[value='0']").click()
    director.locator("textarea[name=cards]").fill("AS AS AH AH AD AD AC AC")
    director.get_by_role("button", name="Count", exact=True).click()
    director.locator(".use-button").click()
    ticked = director.locator("#specials button.ticked")
    expect(ticked).to_have_count(2)
    expect(director.locator("#specials-shown")).to_contain_text("double aces")
    north = director.locator("#specials .special-who").first.inner_text()
    ticked.first.click()
    expect(director.locator(".specials-tallied")).to_contain_text(f"Hand 1: {north}, double aces")
    for game in games:
        record(director, game)
    post(director, f"{second}/close", {"unconfirmed": "Closed before the tables confirmed"})

    # night 3, partners on the clock: Iris sits in for Bert, and plays for the Aces
    third, games = new_night(director, live_server, "Week 3", "partners",
                             [("Avis", "Iris", "Aces"), *TEAMS[1:]], end=("time", "30"))
    for game in games:
        record(director, game)
    director.goto(f"{third}/director")
    expect(director.locator("#still-to-confirm")).to_contain_text("over but not confirmed")
    director.fill("#unconfirmed", "The Kings had a train to catch")
    director.get_by_role("button", name="Close the night anyway").click()
    expect(director.locator(".flash").first).to_contain_text("The night is closed")

    # the season's page at a phone's size: final standings, the substitute, the specials, the prizes
    director.locator("#season a", has_text="Winter league").first.click()
    expect(director.locator("h1")).to_have_text("Winter league")
    teams = director.locator("#season-teams-table tbody tr")
    expect(teams).to_have_count(4)
    ranks = [(row.locator("td").first.inner_text(), row.locator(".standing-name").inner_text().split("\n")[0])
             for row in teams.all()]
    assert ranks == [("1", "Aces"), ("1", "Kings"), ("3", "Queens"), ("3", "Jacks")]  # the A teams won both nights
    expect(teams.first).to_contain_text("substitute: Iris for Bert (Week 3)")
    expect(director.locator("#season-players-table tbody tr")).to_have_count(9)  # Iris too
    expect(director.locator("#season-specials li")).to_have_count(2)
    expect(director.locator("#season-specials")).to_contain_text("Avis · Double pinochle")
    # a season of more than partners nights gives its places to players: Avis and Cleo won all three nights
    expect(director.locator("#prize-place-1")).to_contain_text("Avis, Cleo")
    expect(director.locator("#prize-double_pinochle")).to_contain_text("Avis")
    expect(director.locator("#prize-double_aces")).to_contain_text(north)
    expect(director.locator("#prize-high_game td.num")).not_to_have_text("—")
    expect(director.locator("#season-nights li")).to_have_count(3)
    no_sideways_scroll(director)
    shot(director, "3-season-390")
    director.set_viewport_size({"width": 320, "height": 640})
    no_sideways_scroll(director)
    shot(director, "4-season-320")
    director.goto(second)  # the night's own page lists its specials, and its prize list
    expect(director.locator("#night-specials")).to_contain_text(f"{north} · Double aces")
    expect(director.locator("#night-prizes #prize-double_aces")).to_contain_text(north)
    no_sideways_scroll(director)

    # the season's wall on a 1920x1080 screen: everything at once, no scrolling
    wall = context_for(WALL)
    wall.goto(f"{live_server}/club/seasons/")
    wall.locator(".game-item", has_text="Winter league").click()
    wall.goto(wall.url + "/wall")
    expect(wall.locator(".wall-title")).to_have_text("Winter league · final standings")
    expect(wall.locator(".wall .season-standings tbody tr")).to_have_count(9)
    expect(wall.locator("#prize-place-1")).to_contain_text("Avis, Cleo")
    shot(wall, "5-season-wall-1920")
    assert wall.evaluate("document.documentElement.scrollHeight") <= WALL["height"]

    # the printed prize list: one page
    wall.goto(wall.url.replace("/wall", "/prizes"))
    expect(wall.locator("h1")).to_have_text("Winter league: prize list")
    assert len(re.findall(rb"/Type\s*/Page\b", wall.pdf(format="A4"))) == 1
    shot(wall, "6-season-prizes")
    for page in (director, wall):
        assert page.js_errors == []
