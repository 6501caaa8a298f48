"""A club's whole year through the web, as a director meets it: which tables are still to confirm before the next
round, a correction of any round's table, an arrival, a departure, a withdrawal and a rename on the director's
page, what a bye is worth said on the standings, and the smaller words of the pages."""

import re

import pytest

from scorepad.store import clubs
from tests.helpers import parse
from tests.web.helpers import CLUB_WIN_0, club_post, every_table, form_of, read

NIGHT = {"name": "Tuesday", "kind": "progressive", "preset": "double-deck", "round_end": "hands", "round_size": "1",
         "rounds": "3"}
PLAYERS = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
TEAMS = [("Al", "Bo", "Aces"), ("Cy", "Di", "Kings"), ("Ed", "Flo", "Queens")]



def made(client, players=PLAYERS, **settings) -> int:
    response = club_post(client, "/club/new", **{**NIGHT, **settings})
    night_id = int(response.headers["Location"].split("/")[2])
    for player in players:
        fields = dict(zip(("player_0", "player_1", "team"), player, strict=False)) if isinstance(player, tuple) \
            else {"player_0": player}
        assert club_post(client, f"/club/{night_id}/register", **fields).status_code == 303
    return night_id


def play(client, app, night_id, number):
    for table in read(app, clubs.tables, night_id, number):
        response = client.post(f"/games/{table.game_id}/hands", data={**form_of(client, table.game_id), **CLUB_WIN_0})
        assert response.status_code == 303


# --- 1 -----------------------------------------------------------------------------------------------------------

def test_the_directors_page_names_the_tables_still_to_confirm_and_starting_anyway_keeps_the_reason(client, app):
    night_id = made(client)
    club_post(client, f"/club/{night_id}/start", round="1")
    play(client, app, night_id, 1)
    page = parse(client.get(f"/club/{night_id}/director"))
    assert "Tables 1 and 2 are over but not confirmed" in page.select_one("#round").get_text(" ", strip=True)
    assert page.select_one("#start-round")["class"] != ["primary"]
    before = every_table(app.config["DATABASE"])
    refused = club_post(client, f"/club/{night_id}/start", round="2")
    assert refused.status_code == 409 and every_table(app.config["DATABASE"]) == before
    first = read(app, clubs.tables, night_id, 1)[0]
    assert club_post(client, f"/club/{night_id}/tables/{first.id}/confirm-for-them").status_code == 303
    started = club_post(client, f"/club/{night_id}/start", round="2", unconfirmed="Di went home before confirming")
    assert started.status_code == 303
    listed = parse(client.get(f"/club/{night_id}")).select_one(".club-round").get_text(" ", strip=True)
    assert "ended on the clock" not in listed
    assert "confirmed by the director" in listed and "Di went home before confirming" in listed


# --- 2 -----------------------------------------------------------------------------------------------------------

def test_the_director_corrects_a_table_of_round_one_during_round_three_with_the_reason_beside_it(client, app):
    night_id = made(client)
    for number in (1, 2, 3):
        club_post(client, f"/club/{night_id}/start", round=str(number), unconfirmed="played on")
        play(client, app, night_id, number)
    table = read(app, clubs.tables, night_id, 1)[0]
    night_page = parse(client.get(f"/club/{night_id}"))
    link = night_page.select_one(f"#night-table-{table.id} a.correct-link")
    assert link is not None
    form = parse(client.get(link["href"])).select_one("form.correct-form")
    data = {i["name"]: i.get("value", "") for i in form.select("input")}
    response = client.post(form["action"], data={**data, "score_0": "0", "score_1": "480",
                                                 "note": "A dispute settled: counters on the wrong side"})
    assert response.status_code == 303
    after = parse(client.get(f"/club/{night_id}"))
    assert "A dispute settled" in after.select_one(f"#night-table-{table.id}").get_text(" ", strip=True)
    standings = {row.select("td")[1].get_text(" ", strip=True).split(" ")[0]: int(row.select("td")[2].get_text())
                 for row in after.select("#standings-table tbody tr")}
    assert standings[table.players[1]] >= 1


def test_a_closed_nights_director_still_finds_how_to_correct_a_result(client, app):
    night_id = made(client, rounds="1")
    club_post(client, f"/club/{night_id}/start", round="1")
    play(client, app, night_id, 1)
    club_post(client, f"/club/{night_id}/close", round="1", unconfirmed="closing")
    page = parse(client.get(f"/club/{night_id}/director"))
    assert page.select_one("a#correct-results")
    table = read(app, clubs.tables, night_id, 1)[0]
    assert client.get(f"/club/{night_id}/tables/{table.id}/correct").status_code == 200
    assert app.test_client().get(f"/club/{night_id}/tables/{table.id}/correct").status_code == 403


# --- 3 -----------------------------------------------------------------------------------------------------------

def test_an_arrival_and_a_departure_are_taken_on_the_directors_page_and_the_standings_say_the_rounds(client, app):
    night_id = made(client, players=PLAYERS + ["Ida"])
    club_post(client, f"/club/{night_id}/start", round="1")
    page = parse(client.get(f"/club/{night_id}/director"))
    assert page.select_one("#register-form")  # still open: an arrival plays from the next round
    assert club_post(client, f"/club/{night_id}/register", player_0="Jo").status_code == 303
    leaving = read(app, clubs.entrants, night_id)[1]
    assert club_post(client, f"/club/{night_id}/entrants/{leaving.number}/leave", after="1").status_code == 303
    entrants = parse(client.get(f"/club/{night_id}/director")).select_one("#entrants").get_text(" ", strip=True)
    assert "Jo" in entrants and "from round 2" in entrants and "leaves after round 1" in entrants
    play(client, app, night_id, 1)
    club_post(client, f"/club/{night_id}/start", round="2", unconfirmed="played on")
    chart = parse(client.get(f"/club/{night_id}/chart")).select_one("#chart-round-2").get_text(" ", strip=True)
    assert "Jo" in chart and leaving.name not in chart
    wall = parse(client.get(f"/club/{night_id}/wall"))
    assert wall.select("#standings-table thead th")[-1].select_one(".heading-full").get_text() == "Rounds"


# --- 5 -----------------------------------------------------------------------------------------------------------

def test_the_command_line_prints_a_nights_directors_link_and_lists_the_nights(client, app):
    night_id = made(client)
    key = read(app, clubs.load_night, night_id).director_key
    runner = app.test_cli_runner()
    listed = runner.invoke(args=["club", "director"])
    assert listed.exit_code == 0 and "Tuesday" in listed.output and str(night_id) in listed.output
    link = runner.invoke(args=["club", "director", str(night_id)])
    assert link.exit_code == 0 and f"/club/{night_id}/director?key={key}" in link.output
    assert runner.invoke(args=["club", "director", "999"]).exit_code != 0


def test_an_empty_night_is_removed_by_its_director_and_leaves_its_season(client, app):
    kept = made(client, name="Week 1")
    empty = made(client, name="Never played")
    season_id = read(app, clubs.load_night, kept).season_id
    assert "2 nights" in parse(client.get(f"/club/seasons/{season_id}")).select_one(".lede").get_text()
    assert app.test_client().post(f"/club/{empty}/remove").status_code in (400, 403)
    assert club_post(client, f"/club/{empty}/remove").status_code == 303
    assert client.get(f"/club/{empty}").status_code == 404
    assert "1 night " in parse(client.get(f"/club/seasons/{season_id}")).select_one(".lede").get_text()
    club_post(client, f"/club/{kept}/start", round="1")
    assert club_post(client, f"/club/{kept}/remove").status_code == 409


# --- 6 -----------------------------------------------------------------------------------------------------------

def test_a_throwaway_nights_director_cannot_change_the_season_or_start_a_new_one(client, app):
    made(client, name="Week 1")  # the real director's night: the first of the season
    stranger = app.test_client()
    throwaway = made(stranger, name="Mine", players=["Zed", "Yan", "Xia", "Wes"])
    season_id = read(app, clubs.load_night, throwaway).season_id
    before = every_table(app.config["DATABASE"])
    changed = club_post(stranger, f"/club/{throwaway}/season", season_name="Hijacked", min_nights="1")
    started = club_post(stranger, f"/club/{throwaway}/season/new", new_season_name="Other", min_nights="1")
    assert (changed.status_code, started.status_code) == (403, 403)
    assert "the director of Week 1" in parse(changed).get_text(" ", strip=True)
    assert every_table(app.config["DATABASE"]) == before
    assert club_post(client, "/club/1/season", season_name="Spring", min_nights="1").status_code == 303
    assert read(app, lambda db: db.execute("SELECT name FROM club_seasons WHERE id = ?", [season_id]).fetchone()[0]) \
        == "Spring"


# --- 7 -----------------------------------------------------------------------------------------------------------

def test_a_second_team_of_a_name_is_refused_beside_the_name_and_an_entrant_is_renamed_or_withdrawn(client, app):
    night_id = made(client, players=TEAMS, kind="partners")
    response = club_post(client, f"/club/{night_id}/register", player_0="Gus", player_1="Hal", team="aces")
    assert response.status_code == 422
    assert "Aces is registered already" in parse(response).select_one("#field-team").get_text()
    assert club_post(client, f"/club/{night_id}/entrants/2/change", player_0="Cy", player_1="Di",
                     team="Jacks").status_code == 303
    assert club_post(client, f"/club/{night_id}/entrants/1/withdraw").status_code == 303
    listed = parse(client.get(f"/club/{night_id}/director")).select("#entrants li")
    assert [li.get_text(" ", strip=True).split(" (")[0] for li in listed][:2] == ["Jacks", "Queens"]


# --- 8 -----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("rule", "extra", "said"), [
    ("winners", {}, "a win and the average of that round's winners"),
    ("own", {}, "a win and the team's own average"),
    ("fixed", {"bye_points": "250"}, "a win and 250 points"),
    ("none", {}, "nothing: ranked by the average of the rounds played"),
])
def test_the_director_chooses_what_a_bye_is_worth_and_the_standings_say_it(client, app, rule, extra, said):
    night_id = made(client, players=TEAMS, kind="partners", bye_rule=rule, **extra)
    club_post(client, f"/club/{night_id}/start", round="1")
    for url in (f"/club/{night_id}/wall", f"/club/{night_id}", f"/club/{night_id}/director"):
        assert said in parse(client.get(url)).select_one(".bye-words").get_text(" ", strip=True), url


# --- 9 -----------------------------------------------------------------------------------------------------------

def test_a_correction_that_keeps_the_score_keeps_its_note_as_a_remark(client, app):
    night_id = made(client)
    club_post(client, f"/club/{night_id}/start", round="1")
    play(client, app, night_id, 1)
    table = read(app, clubs.tables, night_id, 1)[0]
    points, _ = table.result
    response = club_post(client, f"/club/{night_id}/tables/{table.id}/result", score_0=str(points[0]),
                         score_1=str(points[1]), note="Checked with both sides: it stands")
    assert response.status_code == 303
    kept = read(app, clubs.result_changes, night_id)[table.id]
    assert [c["note"] for c in kept] == ["Checked with both sides: it stands"]
    page = parse(client.get(f"/club/{night_id}/director"))
    assert "Remark: Checked with both sides" in page.select_one(f"#table-{table.id}").get_text(" ", strip=True)


def test_the_note_box_takes_exactly_what_the_server_keeps(client, app):
    night_id = made(client)
    club_post(client, f"/club/{night_id}/start", round="1")
    play(client, app, night_id, 1)
    table = read(app, clubs.tables, night_id, 1)[0]
    box = parse(client.get(f"/club/{night_id}/director")).select_one(f"#note_{table.id}")
    most = int(box["maxlength"])
    response = club_post(client, f"/club/{night_id}/tables/{table.id}/result", score_0="10", score_1="20",
                         note="x" * most)
    assert response.status_code == 303
    assert read(app, clubs.result_changes, night_id)[table.id][-1]["note"] == "x" * most


def test_a_one_minute_round_is_said_in_the_singular(client, app):
    night_id = made(client, round_end="time", round_size="1")
    assert "1 minute a round" in parse(client.get(f"/club/{night_id}/director")).select_one(".lede").get_text()


def test_a_closed_nights_prize_list_says_nobody_not_nobody_yet(client, app):
    night_id = made(client, rounds="1")
    club_post(client, f"/club/{night_id}/start", round="1")
    play(client, app, night_id, 1)
    club_post(client, f"/club/{night_id}/close", round="1", unconfirmed="closing")
    page = parse(client.get(f"/club/{night_id}/prizes"))
    said = page.select_one("#prize-double_pinochle").get_text(" ", strip=True)
    assert "nobody" in said and "yet" not in said


def test_the_standings_mark_a_bye_only_in_its_round(client, app):
    night_id = made(client, players=TEAMS, kind="partners")
    club_post(client, f"/club/{night_id}/start", round="1")
    play(client, app, night_id, 1)
    club_post(client, f"/club/{night_id}/start", round="2", unconfirmed="played on")
    byes = parse(client.get(f"/club/{night_id}/wall")).select("#wall-body .standing-bye")
    sitting_out = read(app, lambda db: [e.name for e in clubs.entrants(db, night_id)
                                        if e.number not in {n for t in clubs.tables(db, night_id, 2)
                                                            for n in t.entrants}])
    assert [b.find_parent("tr").select_one(".standing-name").get_text(" ", strip=True).split(" ")[0]
            for b in byes] == sitting_out


@pytest.mark.app_config(LISTENING_HOST="127.0.0.1")
def test_table_cards_keep_the_address_they_were_opened_at_when_scorepad_listens_only_on_this_machine(
        client, app, monkeypatch):
    from scorepad.web.club import director_page

    monkeypatch.setattr(director_page, "lan_addresses", lambda: ["192.168.1.20", "127.0.0.1"])
    night_id = made(client)
    cards = parse(client.get(f"/club/{night_id}/cards", base_url="http://localhost:8000"))
    addresses = [c.select_one(".table-card-address").get_text() for c in cards.select(".table-card")]
    assert addresses and all(a.startswith("http://localhost:8000/") for a in addresses)
    assert re.search(r"listens only on this machine", cards.select_one("#cards-unreachable").get_text())


def test_an_arrival_finds_their_name_on_any_table_card_and_their_phone_says_when_they_play(client, app):
    night_id = made(client)
    club_post(client, f"/club/{night_id}/start", round="1")
    club_post(client, f"/club/{night_id}/register", player_0="Jo")
    phone = app.test_client()
    card = parse(phone.get(f"/club/{night_id}/tables/2"))
    (button,) = [b for b in card.select(".who-am-i button") if "Jo" in b.get_text()]
    club_post(phone, f"/club/{night_id}/me", player=button["value"])
    assert parse(phone.get(f"/club/{night_id}/me")).select_one("#away").get_text() == "You play from round 2."
