"""A club table's game through the web once its round is over: the game page says in words how the round ended
and offers the way back to the night (never a rematch), history lists it as finished, and the records pages
count it with its table's result."""

import pytest

from scorepad.store import clubs, connection, games, players
from tests.helpers import parse
from tests.web.helpers import CLUB_WIN_0, club_post, csrf, form_of

CLUB_TIE = {**CLUB_WIN_0, "meld_1": "30"}  # North and South 50, East and West 30 + 20: 50 to 50

PLAYERS = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]  # table 1: Al & Cy against Bo & Di
NIGHT = {"name": "Friday club", "kind": "progressive", "preset": "double-deck", "round_end": "time",
         "round_size": "50", "rounds": "2"}


def tables(app):
    db = connection.connect(app.config["DATABASE"])
    try:
        return clubs.tables(db, 1, 1)
    finally:
        db.close()


def player_id(app, name):
    db = connection.connect(app.config["DATABASE"])
    try:
        return players.player_for(db, name)
    finally:
        db.close()


def night(client, app, **changes):
    """A night of two tables, round 1 started, this client its director and Bo's phone; table 1 has played a
    hand Al & Cy won, table 2 none. Returns the two tables' games."""
    club_post(client, "/club/new", **{**NIGHT, **changes})
    for name in PLAYERS:
        club_post(client, "/club/1/register", player_0=name)
    club_post(client, "/club/1/start")
    club_post(client, "/club/1/me", player=str(player_id(app, "Bo")))
    first, second = (t.game_id for t in tables(app))
    client.post(f"/games/{first}/hands", data={**form_of(client, first), **CLUB_WIN_0})
    return first, second


def record_card(client, game_id):
    return parse(client.get(f"/games/{game_id}")).select_one("#record")


STOPPED = [
    ("won on the clock", 0, False, "Round 1 ended on the director's clock: Al & Cy won, 50 to 20."),
    ("tied on the clock", 1, True, "Round 1 ended on the director's clock: tied 50 to 50: a win for neither."),
    ("no hand before the clock", 1, False, "Round 1 ended before a hand was played at this table: it is no game"),
]


@pytest.mark.parametrize(("table", "tie", "words"), [s[1:] for s in STOPPED], ids=[s[0] for s in STOPPED])
def test_a_game_the_clock_stopped_says_how_its_round_ended_and_leads_back_to_the_night(client, app, table, tie,
                                                                                       words):
    game_id = night(client, app)[table]
    if tie:
        client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **CLUB_TIE})
    club_post(client, "/club/1/end")
    page = parse(client.get(f"/games/{game_id}"))
    card = page.select_one("#record")
    assert words in card.select_one(".outcome-words").get_text()
    assert "won the game" not in page.get_text() and "to go" not in page.get_text()
    assert not page.select("#hand-form") and not page.select("form[action$='/rematch']")
    assert card.select_one("#back-to-seat")["href"] == "/club/1/me"
    assert {a["href"] for a in card.select("a")} >= {"/club/1/wall", "/club/1"}
    assert "only the club night's director can change its result" in " ".join(card.get_text().split())


def test_a_round_that_ended_by_its_own_hands_leads_back_to_the_night_not_to_a_rematch(client, app):
    game_id = night(client, app, round_end="hands", round_size="1")[0]
    card = record_card(client, game_id)
    assert "Round 1 is over: Al & Cy won, 50 to 20." in card.get_text()
    assert "Until its score is confirmed, editing or deleting a hand below can reopen it" in " ".join(
        card.get_text().split())
    assert not card.select("form[action$='/rematch']") and card.select_one("#back-to-seat")
    live = parse(client.get(f"/games/{game_id}/live", headers={"HX-Request": "true"}))
    fresh = live.select_one("template#fresh-record")
    assert "Round 1 is over" in fresh.decode_contents() and "/rematch" not in fresh.decode_contents()


def test_a_rematch_of_a_club_table_is_refused_in_words_and_starts_nothing(client, app):
    game_id = night(client, app, round_end="hands", round_size="1")[0]
    response = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf(client, f"/games/{game_id}")})
    assert response.status_code == 409
    assert "club night" in parse(response).select_one("#form-message").get_text()
    db = connection.connect(app.config["DATABASE"])
    try:
        assert games.load_game(db, game_id).rematch is None
    finally:
        db.close()


def test_the_directors_change_shows_on_the_game_page_and_in_the_records(client, app):
    game_id = night(client, app)[0]
    club_post(client, "/club/1/end")
    table_id = tables(app)[0].id
    club_post(client, f"/club/1/tables/{table_id}/result", score_0="40", score_1="90", note="Counted again")
    words = record_card(client, game_id).select_one(".outcome-words").get_text()
    assert "the director changed its result: Bo & Di won, 90 to 40." in words
    bo = parse(client.get(f"/players/{player_id(app, 'Bo')}"))
    assert [dd.get_text() for dd in bo.select(".record-grid dd")][:2] == ["1", "1"]  # games, wins


def test_history_lists_a_stopped_game_as_finished_and_the_records_count_it(client, app):
    won, tied = night(client, app)
    client.post(f"/games/{tied}/hands", data={**form_of(client, tied), **CLUB_TIE})
    club_post(client, "/club/1/end")
    states = [" ".join(s.get_text().split()) for s in parse(client.get("/history/")).select(".game-state")]
    assert sorted(states) == ["round 1, table 1: Al & Cy won", "round 1, table 2: a tie, a win for neither"]
    assert "tied 50 to 50" in parse(client.get(f"/history/games/{tied}")).select_one(".winner-line").get_text()
    listed = {li.select_one("strong").get_text(): li.select_one(".muted").get_text()
              for li in parse(client.get("/players/")).select(".player-list li")}
    assert listed["Al"] == "1 finished game · 1 won" and listed["Bo"] == listed["Ed"] == "1 finished game · 0 won"
    home = parse(client.get("/"))
    assert "No game in progress" in home.select_one("section.card").get_text()
    assert home.select(f"a[href='/games/{won}']") and home.select(f"a[href='/games/{tied}']")  # latest finished
    assert "won the game" not in home.get_text()
    al = parse(client.get(f"/players/{player_id(app, 'Al')}"))
    assert " ".join(al.select_one(".game-state").get_text().split()) == "round 1, table 1: Al & Cy won"


def test_a_table_where_no_hand_was_played_is_in_no_list_of_games_and_no_record(client, app):
    _, empty = night(client, app)
    club_post(client, "/club/1/end")
    assert not [s for s in parse(client.get("/history/")).select(".game-item") if f"/{empty}" in s.get("href", "")]
    assert len(parse(client.get("/history/")).select(".game-state")) == 1
    listed = {li.select_one("strong").get_text(): li.select_one(".muted").get_text()
              for li in parse(client.get("/players/")).select(".player-list li")}
    assert listed["Ed"] == "0 finished games · 0 won"  # no game in progress, none ended unfinished either


def test_a_kept_games_hands_show_no_edit_or_delete_and_their_pages_say_why(client, app):
    game_id = night(client, app)[0]
    hand_id = games.live_hands(connection.connect(app.config["DATABASE"]), game_id)[0].id
    open_sheet = parse(client.get(f"/games/{game_id}")).select_one("#sheet")
    assert open_sheet.select(f"a[href='/games/{game_id}/hands/{hand_id}/edit']")  # still playing: editable
    club_post(client, "/club/1/end")
    sheet = parse(client.get(f"/games/{game_id}")).select_one("#sheet")
    detail = parse(client.get(f"/games/{game_id}/hands/{hand_id}/detail", headers={"HX-Request": "true"}))
    for shown in (sheet, detail):
        assert not shown.select("a[href$='/edit'], a[href$='/delete']")
    for page_url in (f"/games/{game_id}/hands/{hand_id}/edit", f"/games/{game_id}/hands/{hand_id}/delete"):
        page = parse(client.get(page_url))
        assert "only the club night's director can change it now" in page.select_one("#closed").get_text()
        assert not page.select("form button[type=submit]"), page_url
        assert page.select_one(".button.primary")["href"].startswith(f"/games/{game_id}")
