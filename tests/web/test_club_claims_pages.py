"""Who is who, through the web: a name tapped on one phone is refused on another with a sentence saying what to
do; the director's page lists the claimed names with a release button each, and a released phone is asked again.
And the night on paper: the rotation chart and a card for each player, the director's only."""

import pytest

from scorepad.store import connection, players
from tests.helpers import parse
from tests.web.helpers import club_post

PLAYERS = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]
NIGHT = {"name": "Tuesday", "kind": "progressive", "preset": "double-deck", "round_end": "hands", "round_size": "1",
         "rounds": "2"}


@pytest.fixture
def started(client):
    """A progressive night of twelve players, round 1 started, made by this client (its director)."""
    club_post(client, "/club/new", **NIGHT)
    for name in PLAYERS:
        club_post(client, "/club/1/register", player_0=name)
    assert club_post(client, "/club/1/start").status_code == 303
    return 1


def store_id(app, name):
    db = connection.connect(app.config["DATABASE"])
    try:
        return str(players.player_for(db, name))
    finally:
        db.close()


@pytest.fixture
def phones(app):
    return app.test_client(), app.test_client()


def test_a_name_claimed_on_one_phone_is_refused_on_another_until_the_director_releases_it(client, app, started,
                                                                                         phones):
    one, two = phones
    al = store_id(app, "Al")
    assert club_post(one, "/club/1/me", player=al).status_code == 303
    refused = club_post(two, "/club/1/me", player=al, table="1")
    assert refused.status_code == 409
    assert "Al is already claimed on another phone; ask the director to release it." in \
        parse(refused).select_one("#form-message").get_text()
    assert two.get("/club/1/me").status_code == 303  # the second phone follows nobody
    card = parse(two.get("/club/1/tables/1"))
    assert card.select_one(f"#claimed-{al}").get_text() == "on a phone"  # the table's card says so
    assert card.select_one(f"button[value='{store_id(app, 'Bo')}'] .who-claimed") is None

    director = parse(client.get("/club/1/director"))
    claim = director.select_one(f"#claim-{al}")
    assert "Al" in claim.get_text() and "Table 1" in claim.get_text()
    release = claim.select_one("form")["action"]
    assert club_post(client, release).headers["Location"] == "/club/1/director#claims"
    assert parse(client.get("/club/1/director")).select_one("#no-claims")

    # the first phone is asked who it is again; the second may now tap Al
    assert one.get("/club/1/me").headers["Location"] == "/club/1/tables/1"
    assert club_post(two, "/club/1/me", player=al).status_code == 303
    assert "Table 1" in parse(two.get("/club/1/me")).select_one(".seat-line").get_text()


def test_a_released_phones_poll_says_it_follows_nobody(client, app, started, phones):
    one, _ = phones
    al = store_id(app, "Al")
    club_post(one, "/club/1/me", player=al)
    club_post(client, f"/club/1/claims/{al}/release")
    poll = one.get("/club/1/me/live", headers={"HX-Request": "true"})
    assert poll.status_code == 200
    assert parse(poll).select_one("#released")


def test_only_the_director_releases_a_name(client, app, started, phones):
    one, two = phones
    al = store_id(app, "Al")
    club_post(one, "/club/1/me", player=al)
    assert club_post(two, f"/club/1/claims/{al}/release").status_code == 403
    assert club_post(two, "/club/1/me", player=al).status_code == 409
    assert client.get(f"/club/1/claims/{al}/release").headers["Location"] == "/club/1/director"


def test_releasing_a_name_twice_says_so(client, app, started, phones):
    one, _ = phones
    al = store_id(app, "Al")
    club_post(one, "/club/1/me", player=al)
    club_post(client, f"/club/1/claims/{al}/release")
    again = club_post(client, f"/club/1/claims/{al}/release")
    assert again.status_code == 303
    assert "was not claimed" in parse(client.get("/club/1/director")).get_text()


def test_the_director_prints_the_whole_rotation_and_a_card_for_each_player(client, started):
    director = parse(client.get("/club/1/director"))
    chart = parse(client.get(director.select_one("#print-chart")["href"]))
    assert [h.get_text(" ", strip=True) for h in chart.select(".chart-round h2")] == ["Round 1 (under way)", "Round 2"]
    first = [row.get_text(" ", strip=True) for row in chart.select("#chart-round-1 tbody tr")]
    assert first[0] == "1 Al N & Cy S Bo E & Di W"
    cards = parse(client.get(director.select_one("#print-cards")["href"]))
    assert len(cards.select(".game-card")) == len(PLAYERS)
    al = cards.select_one("#game-card-1")
    assert "Al" in al.select_one("h2").get_text()
    rows = [[td.get_text(strip=True) for td in tr.select("td")] for tr in al.select("tbody tr")]
    assert rows[0] == ["1", "1", "North", "Cy", "Bo & Di"]
    assert len(rows) == 2


def test_the_print_pages_are_the_directors(app, started, phones):
    one, _ = phones
    assert one.get("/club/1/chart").status_code == 403
    assert one.get("/club/1/game-cards").status_code == 403


def test_a_partners_cards_seat_each_player_of_a_team_and_show_the_byes(client):
    club_post(client, "/club/new", name="Teams", kind="partners", preset="double-deck", round_end="hands",
              round_size="1", rounds="3")
    for a, b in (("Al", "Bo"), ("Cy", "Di"), ("Ed", "Flo")):
        club_post(client, "/club/1/register", player_0=a, player_1=b)
    chart = parse(client.get("/club/1/chart"))
    assert [p.get_text(strip=True) for p in chart.select(".chart-bye")] == ["Bye: Ed & Flo", "Bye: Cy & Di",
                                                                            "Bye: Al & Bo"]
    cards = parse(client.get("/club/1/game-cards"))
    flo = next(c for c in cards.select(".game-card") if "Flo" in c.select_one("h2").get_text())
    assert "team Ed & Flo" in flo.get_text()
    rows = [tr.get_text(" ", strip=True) for tr in flo.select("tbody tr")]
    assert rows[0] == "1 Bye: sit this round out"
    assert rows[1].startswith("2 1 South") and "Ed" in rows[1]


def test_before_anyone_registers_the_print_pages_say_what_to_do(client):
    club_post(client, "/club/new", name="Empty", kind="progressive", preset="double-deck", round_end="hands",
              round_size="1", rounds="2")
    assert parse(client.get("/club/1/chart")).select_one("#no-chart")
    assert parse(client.get("/club/1/game-cards")).select_one("#no-cards")
    assert not parse(client.get("/club/1/director")).select_one("#print-chart")
