"""A player's page names each partnership and opens its record and figures when its card is opened: a player of
a long history has a dozen partners, and their cards inline were four fifths of a 100 KB page."""

import pytest

from tests.helpers import parse
from tests.web.helpers import new_game, record

PLAYERS = {"player_0": "Ann", "player_1": "Bob", "player_2": "Cat", "player_3": "Dan"}


@pytest.fixture
def ids(client):
    """A finished game of Ann & Cat (who win, Ann bidding 150 three times) against Bob & Dan; the players' ids."""
    game_id = new_game(client, **PLAYERS)
    record(client, game_id, bidder="s1", bid=60, meld_1=30, counters_0=26)  # Bob's team set
    for _ in range(3):
        record(client, game_id, bidder="s0", bid=150, meld_0=100, counters_0=50)
    record(client, game_id, bidder="s2", bid=50, counters_0=50)
    page = parse(client.get("/players/"))
    return {a.strong.get_text(): int(a["href"].rsplit("/", 1)[1]) for a in page.select(".player-list a")}


def test_a_players_page_holds_each_partnerships_card_closed_with_where_its_record_is(client, ids):
    ann = parse(client.get(f"/players/{ids['Ann']}"))
    [card] = [d for d in ann.select("details.card") if d.summary.get_text().startswith("With Cat")]
    assert "1 game as partners" in card.summary.get_text(" ", strip=True)
    where = f"/players/{ids['Ann']}/with/{ids['Cat']}"
    lazy = card.select_one(".partnership")
    assert lazy["hx-get"] == where and lazy["hx-trigger"] == "toggle from:closest details once"
    assert lazy.a["href"] == where  # without JavaScript, the link opens it
    assert card.select_one(".record-grid") is None and card.select_one(".figures") is None
    assert ann.select_one("#figures .figures") is not None  # Ann's own figures stay on her page


def test_an_opened_card_gets_the_partnerships_record_and_figures_and_no_page_around_them(client, ids):
    answer = client.get(f"/players/{ids['Ann']}/with/{ids['Cat']}", headers={"HX-Request": "true"})
    assert answer.status_code == 200 and "HX-Request" in answer.headers["Vary"]
    fragment = parse(answer)
    assert fragment.select_one("html, header, h1") is None
    record = {d.dt.get_text(): d.dd.get_text() for d in fragment.select_one(".record-grid").select("div")}
    assert (record["Finished games"], record["Wins"], record["Hands bid"]) == ("1", "1", "4")
    rows = fragment.select(f"#with-{ids['Cat']}-by-level tbody tr")
    levels = [" ".join(tr.get_text(" ", strip=True).split()) for tr in rows]
    assert levels == ["50–59 1 of 1", "150–159 3 of 3"]


def test_without_javascript_the_partnership_is_a_page_of_its_own_with_the_way_back(client, ids):
    page = parse(client.get(f"/players/{ids['Ann']}/with/{ids['Cat']}"))
    assert page.h1.get_text() == "Ann and Cat"
    assert page.select_one(f"a[href='/players/{ids['Ann']}']").get_text() == "← Ann"
    assert page.select_one(".record-grid") is not None and page.select_one(".figures") is not None


@pytest.mark.parametrize("who", ["Bob", "Ann", "nobody"])
def test_a_partnership_that_never_played_is_not_found(client, ids, who):
    """Bob sat against Ann, Ann is herself, and an id no player has."""
    mate = ids.get(who, 10_000)
    assert client.get(f"/players/{ids['Ann']}/with/{mate}").status_code == 404
    assert client.get(f"/players/10000/with/{ids['Ann']}").status_code == 404
