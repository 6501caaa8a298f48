"""A game ended with "End this game unfinished" says so over its totals, and counts nothing down any more: no
"N to go", no hands left to play, nobody dealing next; on its page, the live poll's fragment, the history and the
player's page."""

import pytest

from tests.helpers import parse
from tests.web.helpers import csrf, new_game, record

PLAYERS = {"player_0": "Ann", "player_1": "Bo", "player_2": "Cy", "player_3": "Di"}


def ended_game(client, **fields) -> int:
    game_id = new_game(client, **PLAYERS, **fields)
    assert record(client, game_id, bidder="s0", bid=50, counters_0=50).status_code == 303
    assert client.post(f"/games/{game_id}/end", data={"csrf_token": csrf(client)}).status_code == 303
    return game_id


def scoreboard(client, url: str):
    # a poll that is behind (its tag is stale) gets the fresh fragment
    headers = {"HX-Request": "1", "If-None-Match": '"stale"'} if url.endswith("/live") else {}
    return parse(client.get(url, headers=headers)).select_one("#scoreboard")


@pytest.mark.parametrize("where", ["/games/{}", "/games/{}/live", "/history/games/{}"])
@pytest.mark.parametrize(("house_rules", "countdown"), [({}, "to go"), ({"hands_limit": "10"}, "to play")])
def test_an_ended_games_scoreboard_says_it_ended_unfinished_over_its_totals_and_counts_nothing_down(
        client, where, house_rules, countdown):
    game_id = ended_game(client, **house_rules)
    board = scoreboard(client, where.format(game_id))
    assert board.select_one(".target").get_text(" ", strip=True).startswith("Ended unfinished ·")
    assert [total.get_text() for total in board.select(".total")] == ["50", "0"]
    assert countdown not in board.get_text() and board.select(".to-go, .deal") == []


def test_a_game_in_progress_still_counts_down_to_its_target(client):
    game_id = new_game(client, **PLAYERS)
    board = scoreboard(client, f"/games/{game_id}")
    assert "Ended" not in board.get_text()
    assert [to_go.get_text() for to_go in board.select(".to-go")] == ["500 to go", "500 to go"]
    assert board.select_one(".deal").get_text(" ", strip=True) == "Ann deals · Bo bids first"


@pytest.mark.parametrize("where", ["/history/", "/players/1"])
def test_an_ended_game_is_listed_with_its_totals_as_ended_unfinished(client, where):
    ended_game(client)
    (item,) = parse(client.get(where)).select(".game-list li .game-item")
    text = " ".join(item.get_text(" ").split())
    assert text.startswith("Us 50 : 0 Them") and text.endswith("· abandoned unfinished")
    assert "to go" not in text


@pytest.mark.parametrize(("limit", "said"), [("1", "1 hand ·"), ("10", "10 hands · 10 to play")])
def test_a_game_of_so_many_hands_names_them_in_the_singular_or_plural(client, limit, said):
    """A club round of one hand said "1 hands" over its totals."""
    game_id = new_game(client, **PLAYERS, hands_limit=limit)
    assert scoreboard(client, f"/games/{game_id}").select_one(".target").get_text(" ", strip=True).startswith(said)
