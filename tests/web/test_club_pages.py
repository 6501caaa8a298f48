"""Club nights through the web: the director's forms, a phone that follows its player and confirms with one tap,
the standings wall's cheap poll, the exports, and the night in history and on a player's page."""

import json
import re

import pytest
from bs4 import BeautifulSoup

from scorepad.store import clubs, connection, games, players
from tests.helpers import parse
from tests.web.helpers import CLUB_WIN_0, club_post, csrf, every_table, form_of

PLAYERS = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]
NIGHT = {"name": "Tuesday", "kind": "progressive", "preset": "double-deck", "round_end": "hands", "round_size": "1",
         "rounds": "2"}


@pytest.fixture
def started(client):
    """A progressive night of twelve players, round 1 started, made by this client (its director)."""
    assert club_post(client, "/club/new", **NIGHT).headers["Location"] == "/club/1/director"
    for name in PLAYERS:
        assert club_post(client, "/club/1/register", player_0=name).status_code == 303
    assert club_post(client, "/club/1/start").status_code == 303
    return 1


def game_of_table(app, table_no, number=1):
    db = connection.connect(app.config["DATABASE"])
    try:
        return next(t for t in clubs.tables(db, 1, number) if t.table_no == table_no)
    finally:
        db.close()


HOSTILE_NIGHTS = [
    ("rounds in superscript", {"rounds": "²"}, "rounds"),
    ("a round of a trillion hands", {"round_size": "9" * 5000}, "round_size"),
    ("no rounds", {"rounds": "0"}, "rounds"),
    ("a name with a bidi override", {"name": "Club\u202enight"}, "name"),
    ("a rule set nobody has", {"preset": "canasta"}, "preset"),
]


@pytest.mark.parametrize(("changes", "field"), [r[1:] for r in HOSTILE_NIGHTS], ids=[r[0] for r in HOSTILE_NIGHTS])
def test_a_refused_night_says_which_field_keeps_what_was_typed_and_stores_nothing(client, app, changes, field):
    before = every_table(app.config["DATABASE"])
    response = club_post(client, "/club/new", **{**NIGHT, **changes})
    assert response.status_code == 422
    page = parse(response)
    assert page.select_one(f"#{field}-error") or page.select_one(f"#field-{field} .field-error")
    assert every_table(app.config["DATABASE"]) == before


def test_the_director_registers_players_by_name_and_a_name_twice_is_refused_beside_the_field(client, app):
    club_post(client, "/club/new", **NIGHT)
    assert club_post(client, "/club/1/register", player_0="Al").status_code == 303
    response = club_post(client, "/club/1/register", player_0="al")
    assert response.status_code == 422
    page = parse(response)
    assert "registered already" in page.select_one("#player_0-error").get_text()
    assert page.select_one("#player_0")["value"] == "al"


def test_another_device_directs_a_night_only_with_its_key(client, app, started):
    stranger = app.test_client()
    assert stranger.get("/club/1/director").status_code == 403
    assert club_post(stranger, "/club/1/end").status_code == 403
    db = connection.connect(app.config["DATABASE"])
    key = clubs.load_night(db, 1).director_key
    db.close()
    assert stranger.get(f"/club/1/director?key={key}").status_code == 200
    assert stranger.get("/club/1/director").status_code == 200


def test_a_phone_shows_its_players_seat_and_confirms_the_score_with_one_tap(client, app, started):
    phone = app.test_client()
    table = parse(phone.get("/club/1/tables/2"))
    assert [b.get_text() for b in table.select(".who-am-i button")] == ["Ed", "Flo", "Gus", "Hal"]
    club_post(phone, "/club/1/me", player=store_id(app, "Flo"))
    seat = parse(phone.get("/club/1/me")).select_one(".seat-line").get_text()
    assert seat == "Round 1 · Table 2 · You: East, partner Hal, against Ed & Gus"
    game_id = game_of_table(app, 2).game_id
    assert phone.post(f"/games/{game_id}/hands", data={**form_of(phone, game_id), **CLUB_WIN_0}).status_code == 303
    club_post(phone, f"/club/1/tables/{game_of_table(app, 2).id}/confirm")
    assert "Confirmed by Flo" in parse(phone.get("/club/1/me")).select_one("#confirmed").get_text()
    refused = phone.post(f"/games/{game_id}/hands/{store_hand(app, game_id)}/delete",
                         data={"csrf_token": csrf(phone, "/club/")})
    assert refused.status_code == 409


def store_id(app, name):
    db = connection.connect(app.config["DATABASE"])
    try:
        return str(players.player_for(db, name))
    finally:
        db.close()


def store_hand(app, game_id):
    db = connection.connect(app.config["DATABASE"])
    try:
        return games.live_hands(db, game_id)[0].id
    finally:
        db.close()


def test_the_wall_answers_304_until_a_table_records_then_the_fresh_standings(client, app, started):
    first = client.get("/club/1/wall/live", headers={"HX-Request": "true"})
    etag = first.headers["ETag"]
    assert client.get("/club/1/wall/live", headers={"If-None-Match": etag}).status_code == 304
    game_id = game_of_table(app, 1).game_id
    client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **CLUB_WIN_0})
    fresh = client.get("/club/1/wall/live", headers={"If-None-Match": etag, "HX-Request": "true"})
    assert fresh.status_code == 200
    rows = [[td.get_text(strip=True) for td in tr.select("td")]
            for tr in parse(fresh).select("#standings-table tbody tr")]
    assert rows[:2] == [["1", "Al", "1", "50", "50", "1"], ["1", "Cy", "1", "50", "50", "1"]]


def test_the_director_changes_a_result_the_change_is_kept_and_a_bad_score_is_refused(client, app, started):
    game_id = game_of_table(app, 1).game_id
    client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **CLUB_WIN_0})
    table_id = game_of_table(app, 1).id
    before = every_table(app.config["DATABASE"])
    refused = club_post(client, f"/club/1/tables/{table_id}/result", score_0="٣x", score_1="20", note="")
    assert refused.status_code == 422
    assert every_table(app.config["DATABASE"]) == before
    assert club_post(client, f"/club/1/tables/{table_id}/result", score_0="45", score_1="20",
                note="Meld counted twice").status_code == 303
    page = parse(client.get("/club/1"))
    assert "50 – 20 → 45 – 20 (Meld counted twice)" in page.get_text(" ", strip=True)


def test_the_standings_export_as_csv_with_formulas_kept_as_text_and_as_json(client, app):
    club_post(client, "/club/new", **NIGHT)
    for name in ["=HYPERLINK(1)", *PLAYERS[1:4]]:
        club_post(client, "/club/1/register", player_0=name)
    csv_text = client.get("/club/1/standings.csv").get_data(as_text=True)
    assert csv_text.splitlines()[0] == "rank,number,name,wins,points,high_round,played,byes"
    assert "'=HYPERLINK(1)" in csv_text
    document = json.loads(client.get("/club/1/standings.json").get_data(as_text=True))
    assert document["final"] is False and len(document["standings"]) == 4


def test_history_lists_the_night_in_its_evening_and_a_player_page_its_place(client, app, started):
    game_id = game_of_table(app, 1).game_id  # a hand at table 1; the other two tables play none (no game)
    client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **CLUB_WIN_0})
    assert club_post(client, "/club/1/close", round="1", unconfirmed="Closed early").status_code == 303
    history = parse(client.get("/history/"))
    assert history.select_one(".evening .club-line a")["href"] == "/club/1"
    rounds = parse(client.get("/club/1")).select(".club-round")
    assert len(rounds) == 1 and len(rounds[0].select("li")) == 3
    player = parse(client.get(f"/players/{store_id(app, 'Al')}"))
    assert "Tuesday: place 1 of 12" in player.select_one("#club-nights").get_text(" ", strip=True)


def test_a_club_tables_game_page_leads_back_to_the_players_seat(client, app, started):
    game_id = game_of_table(app, 3).game_id
    link = parse(client.get(f"/games/{game_id}")).select_one(".club-line a")
    assert link["href"] == "/club/1/me" and "Round 1 · Table 3" in link.get_text()


@pytest.mark.parametrize("url", ["/club/99", "/club/99/wall", "/club/99/wall/live", "/club/99/standings.csv",
                                 "/club/99/tables/1", "/club/99999999999999999999/wall"])
def test_a_night_that_is_not_there_is_a_404(client, url):
    assert client.get(url).status_code == 404


def test_a_night_on_the_clock_shows_when_time_is_up_and_the_director_calls_it(client, app):
    club_post(client, "/club/new", **{**NIGHT, "round_end": "time", "round_size": "50"})
    for name in PLAYERS[:4]:
        club_post(client, "/club/1/register", player_0=name)
    club_post(client, "/club/1/start")
    assert "time is up at" in parse(client.get("/club/1/wall")).select_one(".wall-state").get_text()
    game_id = game_of_table(app, 1).game_id
    form = form_of(client, game_id)  # the hand form a phone had open when time was called
    assert club_post(client, "/club/1/end").status_code == 303
    flash = parse(client.get("/club/1/director")).select_one(".flash").get_text()
    assert "Time: 1 table stopped where it stood" in flash
    assert client.post(f"/games/{game_id}/hands", data={**form, **CLUB_WIN_0}).status_code == 409


def test_the_directors_page_follows_its_tables_with_a_cheap_poll(client, app, started):
    first = client.get("/club/1/director/live", headers={"HX-Request": "true"})
    etag = first.headers["ETag"]
    assert client.get("/club/1/director/live", headers={"If-None-Match": etag}).status_code == 304
    game_id = game_of_table(app, 2).game_id
    client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **CLUB_WIN_0})
    fresh = parse(client.get("/club/1/director/live", headers={"If-None-Match": etag, "HX-Request": "true"}))
    assert [s.get_text() for s in fresh.select("#tables .table-state")] == ["playing", "over, to confirm", "playing"]
    assert app.test_client().get("/club/1/director/live").status_code == 403


def test_table_cards_carry_a_qr_code_for_each_table_at_an_address_phones_can_reach(client, app, started,
                                                                                   monkeypatch):
    from scorepad.web.club import director_page as club_views

    monkeypatch.setattr(club_views, "lan_addresses", lambda: ["192.168.1.20", "127.0.0.1"])
    cards = parse(client.get("/club/1/cards", base_url="http://localhost:8000"))  # opened on the server itself
    assert [c.select_one(".table-card-address").get_text() for c in cards.select(".table-card")] == [
        f"http://192.168.1.20:8000/club/1/tables/{n}" for n in (1, 2, 3)]
    assert all(img["src"].startswith("data:image/svg+xml") for img in cards.select(".table-card img"))


@pytest.mark.parametrize(("who", "status"), [("Ed", 422), ("Bo", 409), (None, 422)],
                         ids=["a player of another table", "before the table is over", "a phone nobody chose"])
def test_a_refused_confirmation_says_why_with_its_status_and_stores_nothing(client, app, started, who, status):
    phone = app.test_client()
    if who:
        club_post(phone, "/club/1/me", player=store_id(app, who))
    before = every_table(app.config["DATABASE"])
    response = club_post(phone, f"/club/1/tables/{game_of_table(app, 1).id}/confirm")
    assert response.status_code == status
    assert every_table(app.config["DATABASE"]) == before


def test_a_partners_night_registers_teams_and_a_phone_names_its_partner_and_the_other_team(client, app):
    club_post(client, "/club/new", **{**NIGHT, "kind": "partners"})
    assert club_post(client, "/club/1/register", player_0="Al", player_1="Cy", team="Aces").status_code == 303
    assert club_post(client, "/club/1/register", player_0="Bo", player_1="Di").status_code == 303
    refused = club_post(client, "/club/1/register", player_0="Ed", player_1="")
    assert refused.status_code == 422 and parse(refused).select_one("#player_1-error")
    club_post(client, "/club/1/start")
    phone = app.test_client()
    club_post(phone, "/club/1/me", player=store_id(app, "Di"))
    assert parse(phone.get("/club/1/me")).select_one(".seat-line").get_text() == \
        "Round 1 · Table 1 · You: West, partner Bo, against Al & Cy"
    wall = [[td.get_text(strip=True) for td in tr.select("td")]
            for tr in parse(client.get("/club/1/wall")).select("#standings-table tbody tr")]
    assert [row[1] for row in wall] == ["Aces", "Bo & Di"]


def test_a_phones_seat_card_is_not_sent_again_for_a_hand_at_another_table(client, app, started):
    phone = app.test_client()
    club_post(phone, "/club/1/me", player=store_id(app, "Al"))
    etag = phone.get("/club/1/me/live", headers={"HX-Request": "true"}).headers["ETag"]
    elsewhere, own = game_of_table(app, 2).game_id, game_of_table(app, 1).game_id
    client.post(f"/games/{elsewhere}/hands", data={**form_of(client, elsewhere), **CLUB_WIN_0})
    assert phone.get("/club/1/me/live", headers={"If-None-Match": etag}).status_code == 304
    client.post(f"/games/{own}/hands", data={**form_of(client, own), **CLUB_WIN_0})
    fresh = phone.get("/club/1/me/live", headers={"If-None-Match": etag, "HX-Request": "true"})
    assert fresh.status_code == 200 and "50 – 20" in parse(fresh).select_one(".seat-score").get_text()


def test_the_winners_phone_waits_for_an_opponent_and_its_confirmation_is_refused_in_words(client, app, started):
    game_id = game_of_table(app, 1).game_id
    client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **CLUB_WIN_0})  # Al & Cy win
    winner, loser = app.test_client(), app.test_client()
    club_post(winner, "/club/1/me", player=store_id(app, "Al"))
    club_post(loser, "/club/1/me", player=store_id(app, "Di"))
    card = parse(winner.get("/club/1/me"))
    assert card.select_one("#confirm") is None
    assert card.select_one("#waiting-confirm").get_text() == "Waiting for Bo or Di to confirm."
    assert parse(loser.get("/club/1/me")).select_one("#confirm")
    before = every_table(app.config["DATABASE"])
    refused = club_post(winner, f"/club/1/tables/{game_of_table(app, 1).id}/confirm")
    assert refused.status_code == 422
    assert "waiting for Bo or Di to confirm" in parse(refused).select_one("#form-message").get_text()
    assert every_table(app.config["DATABASE"]) == before


def test_a_player_not_registered_tonight_is_refused_by_name_and_the_phone_keeps_its_choice(client, app, started):
    phone = app.test_client()
    club_post(phone, "/club/1/me", player=store_id(app, "Bo"))
    zed = store_id(app, "Zed")
    before = every_table(app.config["DATABASE"])
    refused = club_post(phone, "/club/1/me", player=zed, table="2")
    assert refused.status_code == 422
    page = parse(refused)
    assert page.select_one("#form-message").get_text().startswith("Zed is not registered tonight")
    assert page.select_one("h1").get_text() == "Tuesday · Table 2"
    assert every_table(app.config["DATABASE"]) == before
    assert "You: East" in parse(phone.get("/club/1/me")).select_one(".seat-line").get_text()


def parse_html(html):
    return BeautifulSoup(html, "html.parser")


def clock_night(client, app):
    club_post(client, "/club/new", **{**NIGHT, "round_end": "time", "round_size": "50"})
    for name in PLAYERS[:4]:
        club_post(client, "/club/1/register", player_0=name)
    club_post(client, "/club/1/start")
    return game_of_table(app, 1).game_id


def test_a_table_on_the_clock_shows_when_its_round_ends_on_the_game_page_and_the_seat_card(client, app):
    game_id = clock_night(client, app)
    clock = parse(client.get(f"/games/{game_id}")).select_one("#club-clock").get_text(" ", strip=True)
    assert re.fullmatch(r"Round 1 ends at \d\d:\d\d \(the director's clock\), or when a side reaches 500", clock)
    club_post(client, "/club/1/me", player=store_id(app, "Al"))
    seat = parse(client.get("/club/1/me")).select_one("#seat-clock").get_text(" ", strip=True)
    assert seat == clock
    assert re.search(r"time is up at \d\d:\d\d ·", parse(client.get("/club/1/wall")).select_one(".wall-state").text)


def test_time_called_replaces_the_open_form_through_the_game_pages_poll(client, app):
    game_id = clock_night(client, app)
    client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **CLUB_WIN_0})  # a hand: a game
    etag = client.get(f"/games/{game_id}/live").headers["ETag"]
    assert client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag}).status_code == 304
    club_post(client, "/club/1/end")
    fresh = client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag, "HX-Request": "true"})
    assert fresh.status_code == 200
    card = parse(fresh).select_one("template#fresh-record").decode_contents()
    record = parse_html(card).select_one("#record")
    assert record.select_one("h2").get_text() == "Round 1 is over: confirm the score"
    assert record.select_one("#back-to-seat")["href"] == "/club/1/me"
    assert record.select_one("[data-if-typed]").has_attr("hidden")
    assert parse(fresh).select_one("#club-clock").has_attr("hidden")
    page = parse(client.get(f"/games/{game_id}"))
    assert page.select_one("#hand-form") is None and page.select_one(".round-over-card")


def test_a_hand_sent_after_time_was_called_is_said_not_recorded(client, app):
    game_id = clock_night(client, app)
    form = form_of(client, game_id)
    club_post(client, "/club/1/end")
    before = every_table(app.config["DATABASE"])
    refused = client.post(f"/games/{game_id}/hands", data={**form, **CLUB_WIN_0})
    assert refused.status_code == 409
    note = parse(refused).select_one(".round-over-card [data-if-typed]")
    assert not note.has_attr("hidden") and "not recorded" in note.get_text()
    assert every_table(app.config["DATABASE"]) == before


def test_after_the_night_is_closed_the_seat_card_says_the_players_place(client, app, started):
    game_id = game_of_table(app, 1).game_id
    client.post(f"/games/{game_id}/hands", data={**form_of(client, game_id), **CLUB_WIN_0})  # Al & Cy 50, Bo & Di 20
    club_post(client, "/club/1/close", round="1", unconfirmed="The night ended before Bo confirmed")
    phone = app.test_client()
    club_post(phone, "/club/1/me", player=store_id(app, "Bo"))
    said = parse(phone.get("/club/1/me")).select_one("#finished").get_text()
    assert said == "You finished 3rd of 12, 0 wins, 20 points"


def test_the_wall_explains_the_best_round_once_however_many_columns_it_has(client, app):
    club_post(client, "/club/new", **NIGHT)
    for number in range(30):
        club_post(client, "/club/1/register", player_0=f"Player {number}")
    wall = parse(client.get("/club/1/wall"))
    assert len(wall.select(".wall-columns table")) == 3
    assert {t.select("th")[-1].select_one(".heading-full").get_text() for t in wall.select(".wall-columns table")} \
        == {"Rounds"}  # (a phone shows the short word beside it instead)
    assert [p.get_text() for p in wall.select(".standings-legend")] == [
        "Best: the most points a player scored in one round. Rounds: the rounds each was there for. A bye is worth a "
        "win and the average of that round's winners."]
