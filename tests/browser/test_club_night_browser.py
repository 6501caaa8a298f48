"""A club night in real browsers: a director at a phone, six players' phones and the standings wall. Three
tables, twelve players, two rounds of two hands: the tables record, the losers confirm with one tap, the
players move by the plan, and the wall's final standings are the ones worked out by hand below."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import no_sideways_scroll, record_played

pytestmark = pytest.mark.browser

PLAYERS = ["Avis", "Bert", "Cleo", "Dora", "Emil", "Fern", "Gert", "Hugo", "Iris", "Jude", "Kurt", "Lena"]
# Who sits where, by the movement: North stays; the plan (East up one table, South down one, West up two) would
# seat South and West together again at three tables, so the others are moved to meet someone new.
SEATING = {1: [("Avis", "Bert", "Cleo", "Dora"), ("Emil", "Fern", "Gert", "Hugo"), ("Iris", "Jude", "Kurt", "Lena")],
           2: [("Avis", "Cleo", "Gert", "Kurt"), ("Emil", "Bert", "Hugo", "Lena"), ("Iris", "Fern", "Jude", "Dora")]}
NORTHS, EASTS = ["Avis", "Emil", "Iris"], ["Bert", "Fern", "Jude"]  # six phones, and Cleo's: East in round 2


def hands_at(round_no: int, table_no: int):
    """Each table's two hands: North bids 50 and makes it, then East does. (meld of each team, counters of the
    bidders)."""
    return [("North", (25 + 10 * round_no, 0), 30), ("East", (0, 10 + 10 * table_no), 30)]


def table_score(round_no: int, table_no: int) -> tuple[int, int]:
    """Worked out by hand: North's side makes its bid (its meld + 30 counters) and takes 20 counters on East's
    hand; East's side takes 20 counters, then makes its bid (its meld + 30)."""
    return 25 + 10 * round_no + 30 + 20, 20 + 10 + 10 * table_no + 30


def expected_standings() -> list[tuple[str, int, int]]:
    """(name, wins, points), ranked by points, then wins, as a progressive night is."""
    wins, points = dict.fromkeys(PLAYERS, 0), dict.fromkeys(PLAYERS, 0)
    for round_no, tables in SEATING.items():
        for table_no, (north, east, south, west) in enumerate(tables, start=1):
            score = table_score(round_no, table_no)
            for side, members in enumerate(((north, south), (east, west))):
                for name in members:
                    points[name] += score[side]
                    wins[name] += score[side] > score[1 - side]
    ranked = sorted(PLAYERS, key=lambda n: (-points[n], -wins[n]))
    return [(name, wins[name], points[name]) for name in ranked]


def create_night(director, live_server) -> str:
    director.goto(f"{live_server}/club/")
    director.fill("#name", "Thursday club")
    director.locator("#field-round_end .choice", has_text="fixed number of hands").click()
    director.fill("#round_size", "2")
    director.fill("#rounds", "2")
    director.get_by_role("button", name="Create the night").click()
    expect(director.locator("h1")).to_have_text("Thursday club")
    for name in PLAYERS:
        director.fill("#player_0", name)
        director.get_by_role("button", name="Register").click()
        expect(director.locator(".flash").first).to_contain_text("Registered as number")
    return re.search(r"/club/(\d+)/", director.url)[1]


def play_round(round_no, phones, director):
    director.get_by_role("button", name=f"Start round {round_no}").click()
    expect(director.locator("#tables .club-table-line")).to_have_count(3)
    # while tables play, nothing on the director's page looks like the next step
    expect(director.locator("#round-actions button.primary")).to_have_count(0)
    for table_no, (north, east, _, _) in enumerate(SEATING[round_no], start=1):
        recorder, opponent = phones[north], phones[east]
        for page in (recorder, opponent):
            expect(page.locator(".seat-line")).to_contain_text(f"Round {round_no} · Table {table_no} · You:")
        seats = dict(zip(("North", "East"), SEATING[round_no][table_no - 1][:2], strict=True))
        recorder.locator("#score-sheet").click()
        for bidder, meld, counters in hands_at(round_no, table_no):
            record_played(recorder, seats[bidder], 50, meld, counters)
        score = table_score(round_no, table_no)
        expect(recorder.locator("#total-0")).to_have_text(str(score[0]))
        expect(recorder.locator("#total-1")).to_have_text(str(score[1]))
        no_sideways_scroll(recorder)
        recorder.go_back()
        # the side that did not win confirms: East's, or North's where East's side won
        confirmer, name = (opponent, east) if score[0] > score[1] else (recorder, north)
        (recorder if confirmer is opponent else opponent).locator("#waiting-confirm").wait_for()
        confirmer.locator("#confirm").click()
        expect(confirmer.locator("#confirmed")).to_contain_text(f"Confirmed by {name}")
        if table_no < 3:  # a table still plays: still no next step
            expect(director.locator("#round-actions button.primary")).to_have_count(0)
    # no reload: the director's poll brings the confirmed tables, and the next step becomes the primary button
    expect(director.locator("#tables .state-confirmed")).to_have_count(3)
    next_step = f"Start round {round_no + 1}" if round_no < len(SEATING) else "Close the night"
    expect(director.locator("#round-actions button.primary")).to_have_text(next_step)


def test_a_three_table_progressive_night_of_two_rounds_from_registration_to_the_final_standings(
        context_for, live_server):
    director = context_for()
    night = create_night(director, live_server)
    wall = context_for({"width": 1280, "height": 800})
    wall.goto(f"{live_server}/club/{night}/wall")
    expect(wall.locator(".wall-state")).to_contain_text("Before the first round")

    phones = {}
    for table_no, (north, east) in enumerate(zip(NORTHS, EASTS, strict=True), start=1):
        for name in (north, east):
            page = phones[name] = context_for()
            page.goto(f"{live_server}/club/{night}/tables/{table_no}")
            page.get_by_role("button", name=name).click()
            expect(page.locator("#seat h1")).to_have_text("Waiting for the first round")
    phones["Cleo"] = context_for()
    phones["Cleo"].goto(f"{live_server}/club/{night}/tables/1")
    phones["Cleo"].get_by_role("button", name="Cleo").click()

    play_round(1, phones, director)
    expect(wall.locator(".wall-state")).to_contain_text("Round 1 of 2 · every table is done")
    # the phones move with their players: Bert's phone follows him up a table, without a reload
    play_round(2, phones, director)
    expect(phones["Bert"].locator(".seat-line")).to_have_text(
        "Round 2 · Table 2 · You: East, partner Lena, against Emil & Hugo")

    director.get_by_role("button", name="Close the night").click()
    expect(wall.locator(".wall-title")).to_contain_text("final standings")
    rows = wall.locator(".standings tbody tr")  # the wall's columns, in order
    expect(rows).to_have_count(12)
    shown = [(cells[1].split(" ")[0], int(cells[2]), int(cells[3].replace(",", "")))
             for cells in (row.locator("td").all_inner_texts() for row in rows.all())]
    assert shown == expected_standings()
    printed = wall.pdf(format="A4")  # the final standings print on one page
    assert len(re.findall(rb"/Type\s*/Page\b", printed)) == 1
    for page in [director, wall, *phones.values()]:
        assert page.js_errors == []
