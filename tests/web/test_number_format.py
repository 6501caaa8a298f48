"""One way of writing numbers on every page: "Game to 1,500" sits above "1,500 to go", never "1500 to go". A game
to 1,500 played to four-figure scores is read page by page for a number of four or more digits without its
comma (dates and times, in <time>, are not scores)."""

import re

import pytest

from tests.helpers import parse
from tests.web.helpers import csrf, new_game, record

BARE = re.compile(r"(?<![\d,.\-−])\d{4,}(?![\d,])")


def visible_words(response) -> str:
    page = parse(response)
    for hidden in page.select("script, style, time, template, head"):
        hidden.decompose()
    return " ".join(page.get_text(" ").split())


@pytest.fixture
def big_game(client) -> int:
    """Single deck to 1,500, three hands of four-figure meld and bids."""
    game_id = new_game(client, preset="single-deck")
    for team in (0, 1, 0):
        answer = record(client, game_id, bidder=f"t{team}", bid=1000, **{f"meld_{team}": "800",
                        f"counters_{team}": "250", f"counters_{1 - team}": "0"})
        assert answer.status_code == 303, answer.get_data(as_text=True)[:2000]
    first = parse(client.get(f"/games/{game_id}")).select(".hands details")[-1]["id"].removeprefix("hand-")
    edit = {"csrf_token": csrf(client), "kind": "played", "bidder": "t0", "bid": "1050", "meld_0": "1000",
            "counters_0": "250", "counters_1": "0"}
    assert client.post(f"/games/{game_id}/hands/{first}/edit", data=edit).status_code == 303
    return game_id


def pages(client, game_id) -> list[str]:
    live = parse(client.get(f"/games/{game_id}"))
    hand = live.select(".hands details")[-1]["id"].removeprefix("hand-")  # the edited one
    return [f"/games/{game_id}", f"/history/games/{game_id}", f"/games/{game_id}/hands/{hand}/edit",
            f"/games/{game_id}/hands/{hand}/delete", f"/history/games/{game_id}/hands/{hand}",
            f"/games/{game_id}/hands/{hand}/detail", "/", "/history/"]


def test_no_page_of_a_game_to_1500_shows_a_number_without_its_thousands_comma(client, big_game):
    seen = {}
    for url in pages(client, big_game):
        response = client.get(url)
        assert response.status_code == 200, url
        bare = BARE.findall(visible_words(response))
        if bare:
            seen[url] = bare
    assert seen == {}



def test_a_games_score_in_a_list_reads_as_the_sheet_writes_it_even_below_zero(client):
    """"Us 0 – −65 Them" read as a dash beside a minus: the lists write the score as the sheet does, "0 : −65"."""
    game_id = new_game(client)
    record(client, game_id, bidder="t1", bid=65, meld_1=20, counters_0=30, counters_1=20)  # Them are set
    for page in ("/", "/history/"):
        item = parse(client.get(page)).select_one(".game-item .teams")
        assert " ".join(item.get_text(" ").split()) == "Us 30 : −65 Them", page
