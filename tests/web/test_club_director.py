"""The director's side of a club night, as a new director finds it: the director's link that survives a restart,
a page in words for a browser that is not the director, a stale tab refused in true words, results below zero,
a page that keeps itself fresh, table cards and byes, and the words of the page."""

import re
from urllib.parse import urlsplit

import pytest

from scorepad.store import clubs, connection
from tests.helpers import parse
from tests.web.helpers import CLUB_WIN_0, club_post, every_table, form_of

PLAYERS = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]
NIGHT = {"name": "Tuesday", "kind": "progressive", "preset": "double-deck", "round_end": "hands", "round_size": "1",
         "rounds": "2"}
TEAMS = [("Al", "Cy"), ("Bo", "Di"), ("Ed", "Flo"), ("Gus", "Hal"), ("Zed", "Yara")]


def tables(app, number):
    db = connection.connect(app.config["DATABASE"])
    try:
        return clubs.tables(db, 1, number)
    finally:
        db.close()


def director_key(app) -> str:
    db = connection.connect(app.config["DATABASE"])
    try:
        return clubs.load_night(db, 1).director_key
    finally:
        db.close()


def play_every_table(client, app, number):
    for table in tables(app, number):
        response = client.post(f"/games/{table.game_id}/hands", data={**form_of(client, table.game_id), **CLUB_WIN_0})
        assert response.status_code == 303


@pytest.fixture
def started(client):
    """A progressive night of twelve players and two rounds of one hand, round 1 started by this client."""
    club_post(client, "/club/new", **NIGHT)
    for name in PLAYERS:
        club_post(client, "/club/1/register", player_0=name)
    assert club_post(client, "/club/1/start", round="1").status_code == 303
    return 1


@pytest.fixture
def second_round(client, app, started):
    """The same night with round 1 played and round 2 just started."""
    play_every_table(client, app, 1)
    assert club_post(client, "/club/1/start", round="2", unconfirmed="Played on").status_code == 303
    return 2


def partners_night(client, rounds="1"):
    club_post(client, "/club/new", **{**NIGHT, "kind": "partners", "rounds": rounds})
    for first, second in TEAMS:
        assert club_post(client, "/club/1/register", player_0=first, player_1=second).status_code == 303


# --- 1. the director's link, and a page in words for everyone else ---------------------------------------------

def test_the_directors_page_shows_the_directors_link_as_text_and_as_a_qr_code(client, app, started):
    page = parse(client.get("/club/1/director"))
    link = page.select_one("#director-link")
    assert "Keep this link to direct the night from another phone or after a restart" in link.get_text()
    assert page.select_one("#director-address").get_text().endswith(f"/club/1/director?key={director_key(app)}")
    assert link.select_one("[data-copy='#director-address']").get_text() == "Copy"
    assert link.select_one("img.director-qr")["src"].startswith("data:image/svg+xml")


def test_the_directors_link_makes_a_restarted_browser_the_director_again(client, app, started):
    address = parse(client.get("/club/1/director")).select_one("#director-address").get_text()
    restarted = app.test_client()  # a browser that lost its session cookie
    assert restarted.get("/club/1/director").status_code == 403
    link = urlsplit(address)
    assert restarted.get(f"{link.path}?{link.query}").status_code == 200
    assert restarted.get("/club/1/director").status_code == 200


@pytest.mark.parametrize("url", ["/club/1/director", "/club/1/cards", "/club/1/director/live"])
def test_a_browser_that_does_not_direct_the_night_gets_a_page_in_words_and_never_the_key(client, app, started, url):
    response = app.test_client().get(url)
    assert response.status_code == 403
    page = parse(response)
    words = page.select_one("#not-director").get_text(" ", strip=True)
    assert "This is the director's page of Tuesday" in words
    assert "Open the director's link" in words and "Ask whoever made the night" in words
    assert page.select_one("link[rel=stylesheet]")
    assert director_key(app) not in response.get_data(as_text=True)


PLAYERS_PAGES = ["/club/1", "/club/1/wall", "/club/1/wall/live", "/club/1/tables/1", "/club/1/standings.json",
                 "/club/1/standings.csv", "/club/"]


def test_the_key_is_on_the_directors_page_only(client, app, started):
    key = director_key(app)
    assert key in client.get("/club/1/director").get_data(as_text=True)
    player = app.test_client()
    assert not [url for url in PLAYERS_PAGES if key in player.get(url).get_data(as_text=True)]


# --- 2. a stale tab --------------------------------------------------------------------------------------------

STALE = [
    ("start round 2 again", "/club/1/start", "Round 2 has already started (from another tab or phone)"),
    ("end round 1 from a page of round 1", "/club/1/end", "Round 2 has started since that page was opened"),
    ("close from a page of round 1", "/club/1/close", "Round 2 has started since that page was opened"),
]


@pytest.mark.parametrize(("url", "said"), [s[1:] for s in STALE], ids=[s[0] for s in STALE])
def test_a_stale_tabs_round_button_is_refused_in_true_words_and_changes_nothing(client, app, second_round, url,
                                                                                said):
    before = every_table(app.config["DATABASE"])
    response = club_post(client, url, round="2" if url.endswith("start") else "1")
    assert response.status_code == 409
    page = parse(response)
    assert said in page.select_one("#form-message").get_text()
    assert page.select_one("#round h2").get_text() == "Round 2 of 2"  # the page as it is now
    assert every_table(app.config["DATABASE"]) == before


def test_a_round_button_says_which_round_its_page_showed(client, started):
    page = parse(client.get("/club/1/director"))
    assert [page.select_one(f"form[action='/club/1/{a}'] input[name=round]")["value"]
            for a in ("start", "end", "close")] == ["2", "1", "1"]


def test_closing_from_a_page_that_is_up_to_date_still_closes_the_night(client, app, second_round):
    assert club_post(client, "/club/1/close", round="2").status_code == 303
    assert club_post(client, "/club/1/close", round="2").status_code == 409  # a second tab: closed already


# --- 3. a result below zero ------------------------------------------------------------------------------------

def score_fields(page):
    return page.select("#tables form input[name^=score_]")


def test_a_result_below_zero_can_be_typed_and_a_negative_prefilled_score_does_not_block_the_form(client, app,
                                                                                                 started):
    play_every_table(client, app, 1)
    table_id = tables(app, 1)[0].id
    assert club_post(client, f"/club/1/tables/{table_id}/result", score_0="-60", score_1="20",
                note="Set back").status_code == 303
    assert tables(app, 1)[0].score == (-60, 20)
    fields = score_fields(parse(client.get("/club/1/director")))
    assert fields[0]["value"] == "-60"
    for field in fields:  # the browser checks the pattern against the whole value
        assert re.fullmatch(field["pattern"].replace("\\-", "-"), field["value"]), field["value"]
        assert field["inputmode"] != "numeric"  # a keypad with no minus on some phones
    assert re.fullmatch(fields[0]["pattern"].replace("\\-", "-"), "−1,065")
    every_field = parse(client.get("/club/1/director")).select("#tables form input[id]:not([type=hidden])")
    assert len({f["id"] for f in every_field}) == len(every_field)  # one label for one field


def test_a_result_corrected_after_the_close_is_kept_and_the_page_says_corrections_are_shown(client, app, started):
    play_every_table(client, app, 1)
    club_post(client, "/club/1/close", round="1", unconfirmed="Closed before the scores were confirmed")
    after_close = parse(client.get("/club/1/director"))
    for words in (after_close.select_one("#round").get_text(" ", strip=True),
                  after_close.select_one(".flash").get_text()):
        assert "final standings" in words and "shown beside its table" in words
    stale = club_post(client, "/club/1/start", round="2")  # a tab opened before the close
    assert stale.status_code == 409
    assert "shown beside its table" in parse(stale).select_one("#form-message").get_text()
    table_id = tables(app, 1)[1].id
    assert club_post(client, f"/club/1/tables/{table_id}/result", score_0="-10", score_1="20",
                note="Recount").status_code == 303
    assert tables(app, 1)[1].score == (-10, 20)


# --- 4. the director's page keeps itself fresh ------------------------------------------------------------------

def test_the_directors_poll_brings_the_standings_and_the_round_as_well_as_the_tables(client, app, started):
    etag = client.get("/club/1/director/live", headers={"HX-Request": "true"}).headers["ETag"]
    play_every_table(client, app, 1)
    fresh = parse(client.get("/club/1/director/live", headers={"If-None-Match": etag, "HX-Request": "true"}))
    for part in ("#round", "#tables", "#entrants", "#director-standings"):
        assert fresh.select_one(part)["hx-swap-oob"] == "true", part
    first = [td.get_text(strip=True) for td in fresh.select("#director-standings tbody tr")[0].select("td")]
    assert first == ["1", "Al", "1", "50", "50", "1"]  # rank, name, wins, points, best round, rounds
    assert fresh.select_one("#register-form") is None  # what the director types is never replaced
    club_post(client, "/club/1/start", round="2", unconfirmed="Played on")
    later = parse(client.get("/club/1/director/live", headers={"HX-Request": "true"}))
    assert later.select_one("#round h2").get_text() == "Round 2 of 2"


# --- 5. table cards, and tables the night does not have ---------------------------------------------------------

def test_the_cards_before_the_start_are_the_first_rounds_tables_and_lead_back_to_the_director(client):
    partners_night(client)
    page = parse(client.get("/club/1/cards"))
    assert [c.select_one(".table-card-number").get_text() for c in page.select(".table-card")] == [
        "Table 1", "Table 2"]  # five teams: two tables and a bye
    assert page.select_one("a[href='/club/1/director']")


@pytest.mark.parametrize("table_no", [99, 0, 3])
def test_a_table_the_night_does_not_have_is_a_page_in_words_that_says_so(client, table_no):
    partners_night(client)
    response = client.get(f"/club/1/tables/{table_no}")
    assert response.status_code == 404
    words = parse(response).select_one(".error-message").get_text()
    assert f"no table {table_no}" in words and "tables 1 to 2" in words


# --- 6. the bye ------------------------------------------------------------------------------------------------

def test_the_director_and_the_bye_teams_phone_say_who_sits_out_and_what_it_scores(client, app):
    partners_night(client)
    club_post(client, "/club/1/start", round="1")
    playing = {n for t in tables(app, 1) for n in t.players}
    (bye_team,) = [team for team in TEAMS if team[0] not in playing]
    said = f"Bye: {bye_team[0]} & {bye_team[1]} (worth a win and the average of that round's winners)"
    assert [p.get_text() for p in parse(client.get("/club/1/director")).select("#tables .club-bye")] == [said]
    phone = app.test_client()
    at_a_table = parse(phone.get("/club/1/tables/2"))  # any table's card finds the bye's players
    (button,) = at_a_table.select(f".who-am-i button[value]:-soup-contains('{bye_team[1]}')")
    club_post(phone, "/club/1/me", player=button["value"])
    assert said in parse(phone.get("/club/1/me")).select_one("#bye").get_text()


# --- 7. words -------------------------------------------------------------------------------------------------

def test_a_night_of_one_round_says_one_round(client):
    club_post(client, "/club/new", **{**NIGHT, "rounds": "1"})
    lede = parse(client.get("/club/1/director")).select_one(".lede").get_text()
    assert lede.endswith("· 1 round")


def test_a_team_named_by_its_players_is_listed_once_and_a_named_team_with_its_players(client):
    club_post(client, "/club/new", **{**NIGHT, "kind": "partners"})
    club_post(client, "/club/1/register", player_0="Ann", player_1="Bo")
    club_post(client, "/club/1/register", player_0="Cy", player_1="Di", team="Aces")
    lines = [li.get_text(" ", strip=True) for li in parse(client.get("/club/1/director")).select(".entrants li")]
    assert lines == ["Ann & Bo", "Aces (Cy & Di)"]


@pytest.mark.parametrize(("round_end", "size", "button"), [("hands", "4", "End round 1 where it stands"),
                                                          ("target", "500", "End round 1 where it stands"),
                                                          ("time", "50", "Time: end round 1")])
def test_time_is_called_only_on_a_night_on_the_clock(client, round_end, size, button):
    club_post(client, "/club/new", **{**NIGHT, "round_end": round_end, "round_size": size})
    for name in PLAYERS[:4]:
        club_post(client, "/club/1/register", player_0=name)
    club_post(client, "/club/1/start", round="1")
    assert parse(client.get("/club/1/director")).select_one("#end-round").get_text() == button


def test_the_length_of_a_round_is_labelled_for_all_three_ways_a_round_ends_without_javascript(client):
    label = parse(client.get("/club/")).select_one("label[for=round_size]").get_text()
    assert all(word in label for word in ("hands", "target", "minutes"))


# --- 8. registration ------------------------------------------------------------------------------------------

def test_after_registering_the_number_is_said_beside_the_player_field(client):
    club_post(client, "/club/new", **NIGHT)
    response = club_post(client, "/club/1/register", player_0="Al")
    assert response.headers["Location"].endswith("/club/1/director#register-form")
    page = parse(client.get("/club/1/director"))
    said = page.select_one("#register-form #registered")
    assert said.get_text().startswith("Registered as number 1: Al.")
    assert said.find_next("input")["id"] == "player_0"
    assert parse(client.get("/club/1/director")).select_one("#registered") is None  # said once


FORM_ADDRESSES = [("/club/1/register", "/club/1/director"), ("/club/1/start", "/club/1/director"),
                  ("/club/1/end", "/club/1/director"), ("/club/1/close", "/club/1/director"),
                  ("/club/1/tables/1/result", "/club/1/director"), ("/club/new", "/club/"),
                  ("/club/1/tables/1/confirm", "/club/1/me")]


@pytest.mark.parametrize(("url", "to"), FORM_ADDRESSES)
def test_a_form_address_opened_as_a_page_leads_to_the_page_of_its_form(client, url, to):
    club_post(client, "/club/new", **NIGHT)
    assert club_post(client, "/club/1/register", player_0="").status_code == 422  # a refused form: its address stays
    response = client.get(url)
    assert response.status_code == 303 and response.headers["Location"] == to
