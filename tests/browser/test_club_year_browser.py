"""A club's year in a real browser: a season of three nights run as a director runs it, the director at a laptop
(1280×800), the tables on phones (390×844), the wall on a 1920×1080 screen.

Night 1 (partners, five teams: a bye every round): a team arrives after round 1 and plays from round 2, a team
leaves after round 2, round 2 starts past a table still to confirm (the reason kept), a table of round 1 is
corrected in round 3, the night closes, its results page goes to the results folder and opens from a file with the
network cut. Night 2 (progressive, nine players): the director's browser is lost; the command line gives the link
back. Night 3 closes the season; an empty trial night is removed; the season's page and wall show it all.

Set SCOREPAD_SHOTS to a folder to keep a screenshot of each screen there (they are looked at: see the report)."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, no_sideways_scroll, post

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
WALL = {"width": 1920, "height": 1080}
TEAMS = [("Avis", "Bert", "Aces"), ("Cleo", "Dora", "Kings"), ("Emil", "Fern", "Queens"), ("Gert", "Hugo", "Jacks"),
         ("Iris", "Joel", "Tens")]
NS_WINS = {"kind": "played", "bidder": "s0", "bid": "50", "trump": "H", "meld_0": "120", "meld_1": "0",
           "counters_0": "30", "counters_1": "20"}
EW_WINS = {"kind": "played", "bidder": "s1", "bid": "50", "trump": "S", "meld_0": "0", "meld_1": "80",
           "counters_0": "10", "counters_1": "40"}
PLAYERS = ["Ada", "Ben", "Cal", "Deb", "Eli", "Fay", "Gus", "Hal", "Ivy"]


def shot(page, name):
    folder = os.environ.get("SCOREPAD_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def tables_of(director, night):
    """The games of the round under way, table by table, as the director's page lists them."""
    director.goto(f"{night}/director")
    return [a.get_attribute("href") for a in director.locator("#tables .club-table-line > a").all()]


def record(page, base, game, hand):
    page.goto(base + game)
    hidden = {name: page.locator(f"#hand-form input[name={name}]").get_attribute("value")
              for name in ("token", "expected")}
    post(page, f"{base}{game}/hands", {**hidden, **hand})


def test_a_season_of_three_nights_with_arrivals_departures_a_correction_and_a_lost_link(context_for, club_server,
                                                                                         tmp_path):
    base, app, results_folder = club_server
    director = context_for(LAPTOP)

    # --- night 1: partners, five teams ---------------------------------------------------------------------------
    director.goto(f"{base}/club/")
    director.fill("#name", "Week 1")
    director.locator("#field-kind .choice", has_text="Partners: each team").click()
    director.locator("#field-round_end .choice", has_text="fixed number of hands").click()
    director.fill("#round_size", "1")
    director.fill("#rounds", "3")
    director.get_by_role("button", name="Create the night").click()
    expect(director.locator("h1")).to_have_text("Week 1")
    night = re.search(r"(.*/club/\d+)/director", director.url)[1]
    for first, second, team in TEAMS:
        director.fill("#player_0", first)
        director.fill("#player_1", second)
        director.fill("#team", team)
        director.get_by_role("button", name="Register").click()
        expect(director.locator("#registered")).to_contain_text(team)
    # a second team under a name taken is refused beside the name
    director.fill("#player_0", "Kurt")
    director.fill("#player_1", "Lars")
    director.fill("#team", "aces")
    director.get_by_role("button", name="Register").click()
    expect(director.locator("#team-error")).to_contain_text("Aces is registered already")
    director.fill("#team", "")
    director.fill("#player_0", "")
    director.fill("#player_1", "")
    director.get_by_role("button", name="Start round 1").click()
    expect(director.locator("#round h2")).to_have_text("Round 1 of 3")
    expect(director.locator("#tables .club-bye")).to_contain_text("Tens")  # five teams: the last registered sits out
    shot(director, "01-director-round-1")

    # a table on two phones: North records the hand, East's side confirms it
    games = tables_of(director, night)
    north, east = context_for(PHONE), context_for(PHONE)
    north.goto(f"{night}/tables/1")
    north.get_by_role("button", name="Avis").click()
    expect(north.locator(".seat-line")).to_contain_text("Round 1 · Table 1 · You: North, partner Bert")
    east_name = re.search(r"against (\S+) & ", north.locator(".seat-line").inner_text())[1]
    east.goto(f"{night}/tables/1")
    east.get_by_role("button", name=east_name).click()
    north.locator("#score-sheet").click()
    record(north, base, games[0], NS_WINS)
    north.goto(f"{night}/me")
    expect(east.locator("#confirm")).to_be_visible()
    no_sideways_scroll(east)
    shot(east, "02-phone-confirm-390")
    east.locator("#confirm").click()
    expect(east.locator("#confirmed")).to_contain_text(f"Confirmed by {east_name}")
    record(director, base, games[1], EW_WINS)

    # a team arrives during round 1: it plays from round 2
    director.goto(f"{night}/director")
    expect(director.locator("#arrivals")).to_contain_text("plays from round 2")
    director.fill("#player_0", "Kurt")
    director.fill("#player_1", "Lars")
    director.fill("#team", "Nines")
    director.get_by_role("button", name="Register").click()
    expect(director.locator("#entrants")).to_contain_text("Nines")
    expect(director.locator("#entrants")).to_contain_text("from round 2")
    # table 2 is over, nobody confirmed it: named, with a button that confirms it for its players
    expect(director.locator("#still-to-confirm")).to_contain_text("Table 2 is over but not confirmed")
    expect(director.locator("#round-actions button.primary")).to_have_count(0)
    shot(director, "03-director-table-to-confirm")
    director.get_by_role("button", name="Confirm table 2's score for its players").click()
    expect(director.locator("#round-actions button.primary")).to_have_text("Start round 2")
    director.get_by_role("button", name="Start round 2").click()
    expect(director.locator("#tables .club-table-line")).to_have_count(3)  # six teams now: no bye
    expect(director.locator("#tables .club-bye")).to_have_count(0)

    # round 2: every table plays; one is left unconfirmed and round 3 starts past it with the reason
    for game, hand in zip(tables_of(director, night), (NS_WINS, EW_WINS, NS_WINS), strict=True):
        record(director, base, game, hand)
    director.goto(f"{night}/director")
    for row in director.locator("#to-confirm li").all()[:2]:
        row.get_by_role("button").click()
        director.wait_for_load_state()
    # the Jacks leave after round 2: their page, on the director's
    director.locator("#entrants a", has_text="Jacks").click()
    director.locator("#field-after .choice", has_text="after round 2").click()
    director.get_by_role("button", name="Save").click()
    expect(director.locator("#entrants")).to_contain_text("leaves after round 2")
    director.fill("#unconfirmed", "Gert and Hugo left before confirming")
    shot(director, "04-director-start-anyway")
    director.get_by_role("button", name="Start round 3 anyway").click()
    expect(director.locator("#round h2")).to_have_text("Round 3 of 3")
    expect(director.locator("#tables .club-bye")).to_have_count(1)  # five teams again: a bye
    for game in tables_of(director, night):
        record(director, base, game, EW_WINS)

    # in round 3 a dispute about round 1 is settled: the night's page, the table's Correct
    director.goto(f"{night}/director")
    director.get_by_role("link", name="Correct a result of any round").click()
    expect(director.locator("#round-2")).to_contain_text("not confirmed: Gert and Hugo left before confirming")
    director.locator("#round-1 .night-table").first.get_by_role("link", name="Correct").click()
    director.fill("input[name=score_0]", "150")
    director.fill("input[name=score_1]", "90")
    director.fill("input[name=note]", "Meld of 120 was 150: agreed by both sides")
    shot(director, "05-correct-round-1")
    director.get_by_role("button", name="Save the result").click()
    expect(director.locator("#round-1")).to_contain_text("Meld of 120 was 150")
    shot(director, "06-night-page-corrected")

    # the night closes (the last round's tables confirmed for them); its results go to the folder
    director.goto(f"{night}/director")
    for _ in range(director.locator("#to-confirm li").count()):
        director.locator("#to-confirm li").first.get_by_role("button").click()
        director.wait_for_load_state()
    director.get_by_role("button", name="Close the night").click()
    expect(director.locator(".flash").first).to_contain_text("The night is closed")
    expect(director.locator(".flash").nth(0)).to_contain_text("The results are written to")
    summary = director.locator("#results-summary").input_value()
    assert summary.startswith("Week 1 · ") and "Nines" in summary and "Jacks" in summary
    shot(director, "07-director-closed-results")
    wall = context_for(WALL)
    wall.goto(f"{night}/wall")
    expect(wall.locator(".wall-title")).to_have_text("Week 1 · final standings")
    expect(wall.locator(".standings tbody tr")).to_have_count(6)
    assert wall.evaluate("document.documentElement.scrollHeight") <= WALL["height"]
    shot(wall, "08-wall-1920")

    # the published page opens from a file, with every request but the file's refused
    written = sorted(p.name for p in results_folder.iterdir())
    assert len(written) == 3 and written[-1] == "index.html"
    offline = context_for(LAPTOP)
    asked = []
    offline.context.route("**/*", lambda route: (asked.append(route.request.url), route.abort()
                                                 if not route.request.url.startswith("file:") else route.continue_()))
    offline.goto((results_folder / written[0]).as_uri())
    expect(offline.locator("h1")).to_have_text("Week 1")
    expect(offline.locator("#standings tbody tr")).to_have_count(6)
    expect(offline.locator("#tables")).to_contain_text("Meld of 120 was 150")
    assert [url for url in asked if not url.startswith("file:")] == []
    shot(offline, "09-results-file-offline")
    offline.goto((results_folder / "index.html").as_uri())
    expect(offline.locator("a")).to_have_count(1)

    # --- night 2: progressive, nine players; the director's browser is lost ------------------------------------
    lost = context_for(LAPTOP)
    lost.goto(f"{base}/club/")
    where = post(lost, f"{base}/club/new", {"name": "Week 2", "kind": "progressive", "preset": "double-deck",
                                            "round_end": "hands", "round_size": "1", "rounds": "2"})
    second = base + re.search(r"/club/\d+", where)[0]
    for name in PLAYERS:
        post(lost, f"{second}/register", {"player_0": name})
    lost.context.clear_cookies()  # the browser forgot everything
    lost.goto(f"{second}/director")
    expect(lost.locator("#not-director")).to_contain_text("This is the director's page of Week 2")
    shot(lost, "10-lost-director-page")
    night_id = second.rsplit("/", 1)[1]
    printed = app.test_cli_runner().invoke(args=["club", "director", night_id]).output
    link = re.search(r"http://\S+/club/\d+/director\?key=\S+", printed)[0]
    path = link[link.index("/club/"):]
    lost.goto(base + path)
    expect(lost.locator("h1")).to_have_text("Week 2")
    lost.get_by_role("button", name="Start round 1").click()
    expect(lost.locator("#tables .club-bye")).to_have_count(1)  # nine: two tables and a bye
    for game in tables_of(lost, second):
        record(lost, base, game, NS_WINS)
    lost.goto(f"{second}/director")
    lost.fill("#player_0", "Jon")
    lost.get_by_role("button", name="Register").click()
    expect(lost.locator("#entrants")).to_contain_text("from round 2")
    lost.fill("#unconfirmed", "Played on at once")
    lost.get_by_role("button", name="Start round 2 anyway").click()
    expect(lost.locator("#tables .club-bye")).to_have_count(2)  # ten: two tables and two byes
    for game in tables_of(lost, second):
        record(lost, base, game, EW_WINS)
    lost.goto(f"{second}/director")
    lost.fill("#unconfirmed", "The last round: closed at once")
    lost.get_by_role("button", name="Close the night anyway").click()
    expect(lost.locator(".flash").first).to_contain_text("The night is closed")

    # --- night 3, and a trial night removed --------------------------------------------------------------------
    director.goto(f"{base}/club/")
    where = post(director, f"{base}/club/new", {"name": "Week 3", "kind": "partners", "preset": "double-deck",
                                                "round_end": "hands", "round_size": "1", "rounds": "1"})
    third = base + re.search(r"/club/\d+", where)[0]
    for first, second_player, team in TEAMS[:4]:
        post(director, f"{third}/register", {"player_0": first, "player_1": second_player, "team": team})
    post(director, f"{third}/start", {"round": "1"})
    for game in tables_of(director, third):
        record(director, base, game, NS_WINS)
    post(director, f"{third}/close", {"round": "1", "unconfirmed": "Closed at the end of the season"})
    where = post(director, f"{base}/club/new", {"name": "Trial", "kind": "partners", "preset": "double-deck",
                                                "round_end": "hands", "round_size": "1", "rounds": "1"})
    director.goto(base + where)
    director.locator("#remove-night summary").click()
    director.get_by_role("button", name="Remove Trial").click()
    expect(director.locator(".flash").first).to_contain_text("Trial is removed")

    # the season: its page at a phone's size, its wall on the big screen
    season = context_for(PHONE)
    season.goto(f"{base}/club/seasons/1")
    expect(season.locator(".lede")).to_contain_text("3 nights")
    expect(season.locator("#season-players-table tbody tr")).to_have_count(len({
        *[n for t in TEAMS for n in t[:2]], "Kurt", "Lars", *PLAYERS, "Jon"}))
    no_sideways_scroll(season)
    shot(season, "11-season-390")
    wall.goto(f"{base}/club/seasons/1/wall")
    expect(wall.locator(".wall-title")).to_contain_text("final standings")
    shot(wall, "12-season-wall-1920")
    for page in (director, north, east, wall, lost, season):
        assert page.js_errors == [], page.js_errors
