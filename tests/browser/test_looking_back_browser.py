"""Looking back after an evening, on a phone at 390×844: records that say what they count and add up, the
chart and head to head whole on the screen, a CSV a side a column, and the figures a player looks for."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import boxes_overlap, no_sideways_scroll, record_played
from tests.browser.helpers import record_hand as record
from tests.helpers import csv_head, csv_sheets

pytestmark = pytest.mark.browser


def new_game(page, live_server, players, hands=None, seating=None):
    page.goto(f"{live_server}/games/new" + (f"?seating={seating}" if seating else ""))
    if not page.locator("#player_0").is_visible():
        page.get_by_text("Players and first dealer").click()
    for seat, name in enumerate(players):
        page.fill(f"#player_{seat}", name)
    if hands:
        page.get_by_text("House rules").click()
        page.fill("#hands_limit", str(hands))
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#hand-form")).to_be_visible()
    return page.url


def player_page(page, live_server, name):
    page.goto(f"{live_server}/players/")
    player_line(page, name).click()
    expect(page.locator("h1")).to_have_text(name)


def player_line(page, name):
    return page.locator(".player-list a", has=page.locator("strong", has_text=re.compile(f"^{re.escape(name)}$")))


def record_values(page) -> dict[str, str]:
    grid = page.locator("section.card .record-grid").first
    return {div.locator("dt").inner_text(): div.locator("dd").inner_text() for div in grid.locator("div").all()}


def test_records_say_they_count_finished_games_and_show_the_unfinished_beside_them(phone, live_server):
    players = ["Gramps", "Nana", "Unc", "Auntie"]
    new_game(phone, live_server, players)
    record_played(phone, "Gramps", 55, (30, 20), 30)
    abandoned = new_game(phone, live_server, players)
    phone.goto(abandoned)
    phone.get_by_role("link", name="End this game unfinished").click()
    phone.get_by_role("button", name="End the game").click()
    new_game(phone, live_server, players)  # and one just started
    phone.goto(f"{live_server}/players/")
    line = player_line(phone, "Gramps")
    expect(line).to_contain_text("0 finished games · 0 won · 2 in progress · 1 ended unfinished")
    expect(phone.locator("#records-count")).to_contain_text("Records count finished games only")
    player_page(phone, live_server, "Gramps")
    expect(phone.locator("#records-count")).to_have_text(re.compile(
        r"Over 0 finished games; 2 in progress; 1 ended unfinished \(not counted until finished\)\."))
    assert record_values(phone)["Finished games"] == "0"


def test_hands_bid_add_up_to_made_set_and_not_played_out(phone, live_server):
    new_game(phone, live_server, ["Ma", "Pa", "Sis", "Bro"], hands=3)
    record_played(phone, "Ma", 55, (30, 20), 30)  # made
    record(phone, (20, 30), (), bidder="Ma", bid=60, kind="Throw-in")
    record_played(phone, "Ma", 65, (20, 20), 20)  # set: 40 of 65
    expect(phone.locator(".winner-card")).to_be_visible()
    player_page(phone, live_server, "Ma")
    values = record_values(phone)
    assert (values["Hands bid"], values["Made"], values["Set"], values["Not played out"]) == ("3", "1", "1", "1")


def test_the_chart_axis_is_readable_and_head_to_head_is_whole_on_the_screen(phone, live_server):
    game = new_game(phone, live_server, ["Lou", "Mo", "Ned", "Oz"])
    record_played(phone, "Mo", 50, (40, 15), 25)  # Mo's side set: −50, just under the 0 of a chart up to 500
    phone.goto(game.replace("/games/", "/history/games/"))
    chart = phone.locator("svg.chart")
    expect(chart).to_be_visible()
    ticks = [t.bounding_box() for t in chart.locator("text.tick").all()]
    for i, a in enumerate(ticks):
        for b in ticks[i + 1:]:
            assert not boxes_overlap(a, b), (a, b)
    # a family's list of players is long: the answer must still be seen without looking for it
    new_game(phone, live_server, ["Pia", "Quin", "Rae", "Sol", "Tam", "Uma", "Vic", "Wyn"], seating="2x4")
    phone.goto(f"{live_server}/players/")
    for side, name in (("a1", "Lou"), ("a2", "Ned"), ("b1", "Mo"), ("b2", "Oz")):
        phone.locator(f"select[name={side}]").select_option(label=name)
    phone.get_by_role("button", name="Compare").click()
    result = phone.locator(".h2h-result")
    expect(result).to_contain_text("Lou & Ned 0 – 0 Mo & Oz")
    box = result.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= phone.viewport_size["height"], box
    no_sideways_scroll(phone)


def csv_text(page, game_url) -> str:
    page.goto(game_url.replace("/games/", "/history/games/"))
    href = page.locator("a[href$='export.csv']").first.get_attribute("href")
    return page.request.get(page.url.split("/history")[0] + href).text()


def test_the_csv_has_a_column_a_side_for_each_figure_headed_by_its_name_and_no_column_that_never_applies(
        phone, live_server):
    cutthroat = new_game(phone, live_server, ["Xia", "Yan", "Zoe"], seating="3x1")
    record(phone, (150, 40, 60), (160, 50), bidder="Xia", bid=300)
    text = csv_text(phone, cutthroat)
    head = csv_head(text)
    for what in ("meld", "counters", "points", "total"):
        at = head.index(f"Xia {what}")
        assert head[at:at + 3] == [f"{name} {what}" for name in ("Xia", "Yan", "Zoe")], head
    [(title, [row])] = csv_sheets(text)
    assert title[1] == "Xia – Yan – Zoe"
    assert [row[f"{name} total"] for name in ("Xia", "Yan", "Zoe")] == ["310", "90", "100"]
    assert row["Result"] == "made"
    two = new_game(phone, live_server, ["Abe", "Bea"], seating="2x1")
    phone.fill("#meld_0", "100")
    phone.fill("#meld_1", "40")
    phone.fill("#counters_0", "150")
    expect(phone.locator("#counters_1")).to_have_value("100")
    phone.locator("button.save-button").click()
    expect(phone.locator("#expected")).to_have_value("2")
    text = csv_text(phone, two)
    assert not {"Bidder", "Bid", "Result", "Dealer stuck"} & set(csv_head(text))  # nobody bids: no such column
    [(_, [row])] = csv_sheets(text)
    assert (row["Abe points"], row["Bea points"]) == ("250", "140")


def test_a_player_and_a_partnership_see_their_bids_points_set_rate_best_hands_and_runs(phone, live_server):
    new_game(phone, live_server, ["Flo", "Gus", "Hal", "Ivy"], hands=3)
    record_played(phone, "Flo", 55, (30, 20), 30)  # made, ♥: meld 30 and tricks 30
    record(phone, (20, 30), (), bidder="Flo", bid=60, kind="Throw-in")  # −60
    record_played(phone, "Hal", 65, (20, 20), 20, trump="♠")  # Flo's partner is set: −65
    expect(phone.locator(".winner-card")).to_be_visible()
    player_page(phone, live_server, "Flo")
    figures = phone.locator("#figures")
    expect(figures).to_be_visible()
    levels = figures.locator("#me-by-level tbody tr")
    assert [" ".join(row.inner_text().split()) for row in levels.all()] == ["50–59 1 of 1", "60–69 0 of 1"]
    assert [" ".join(r.inner_text().split()) for r in figures.locator("#me-by-trump tbody tr").all()] == ["♥ 1 of 1"]
    facts = {d.locator("dt").inner_text(): d.locator("dd").inner_text()
             for d in figures.locator(".fig-facts div").all()}
    assert facts == {"Set rate": "0%", "Most bids made in a row": "1", "Most games won in a row": "0"}
    expect(figures.locator("#me-points")).to_contain_text("Meld 30 (50%) · Tricks 30 (50%) · Lost when set 125")
    # the hand's game, by when it started (a time alone read as the hand's own)
    expect(figures.locator("#me-best li").first).to_have_text(
        re.compile(r"\+60, hand 1\s+in the game of \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d"))
    expect(figures.locator("#me-points svg rect")).to_have_count(3)  # the picture: meld, tricks, lost
    # the partnership: Flo's and Hal's bids together
    phone.locator("details.card summary", has_text="With Hal").click()  # its record and figures come when opened
    together = phone.locator("details.card[open] .figures")
    expect(together.locator("table").first.locator("tbody tr").first).to_be_visible()
    assert [" ".join(r.inner_text().split()) for r in together.locator("table").first.locator("tbody tr").all()] == \
        ["50–59 1 of 1", "60–69 0 of 2"]
    expect(together.locator(".fig-facts")).to_contain_text("50%")
    no_sideways_scroll(phone)
