"""A club's whole year through the service layer: rounds started with tables still to confirm, any round corrected,
players who arrive late or leave early, tables that never played, names registered twice, what a bye is worth,
and the smaller things a director meets. Each refusal stores nothing."""

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.services import club, club_paper, seasons
from scorepad.store import clubs, players
from tests.every_kind import WIN_0, record
from tests.services.helpers import everything, new_night

DD = PRESETS["double-deck"]
NAMES = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou", "Max"]


def pid(db, name):
    return players.player_for(db, name)


# --- specials only in the hands a table plays (issue 33) ---------------------------------------------------------

@pytest.mark.parametrize("hand", [2, 3, 9999], ids=["the hand after a one-hand game", "two past", "hand 9999"])
def test_a_special_is_tallied_only_in_a_hand_the_table_plays(db, hand):
    night_id = new_night(db, NAMES[:4], size=1, rounds=1)
    club.start_round(db, night_id)
    table = clubs.tables(db, night_id)[0]
    before = everything(db)
    with pytest.raises(services.Refused, match="hand"):
        seasons.tally_special(db, table.game_id, hand, pid(db, table.players[0]), "double_aces")
    assert everything(db) == before


def test_a_special_is_tallied_in_the_hand_being_played_and_in_one_already_recorded(db):
    night_id = new_night(db, NAMES[:4], size=3, rounds=1)
    club.start_round(db, night_id)
    table = clubs.tables(db, night_id)[0]
    north = pid(db, table.players[0])
    seasons.tally_special(db, table.game_id, 1, north, "double_aces")
    record(db, table.game_id, WIN_0)
    seasons.tally_special(db, table.game_id, 1, north, "double_run")  # remembered after the hand was saved
    seasons.tally_special(db, table.game_id, 2, north, "double_run")
    with pytest.raises(services.Refused):
        seasons.tally_special(db, table.game_id, 3, north, "double_run")  # the hand after the next


def night(db, entrants=NAMES[:12], kind="progressive", rounds=3, end="hands", size=1):
    return new_night(db, entrants, kind=kind, end=end, size=size, rounds=rounds)


def play_round(db, night_id, number, hand=WIN_0):
    for table in clubs.tables(db, night_id, number):
        record(db, table.game_id, hand)


# --- 1. a round started with tables still to confirm -----------------------------------------------------------

def test_the_next_round_does_not_start_while_a_table_of_this_one_is_still_to_confirm(db):
    night_id = night(db)
    club.start_round(db, night_id)
    play_round(db, night_id, 1)
    first = clubs.tables(db, night_id, 1)
    club.confirm(db, first[0].id, pid(db, first[0].players[1]))
    before = everything(db)
    with pytest.raises(services.Conflict, match="Tables 2 and 3 are over but not confirmed"):
        club.start_round(db, night_id)
    assert everything(db) == before
    # the director confirms for one, and starts anyway with a reason for the other
    club.confirm_for_table(db, night_id, first[1].id)
    with pytest.raises(services.Conflict, match="Table 3 is over but not confirmed"):
        club.start_round(db, night_id)
    with pytest.raises(services.Refused):
        club.start_round(db, night_id, unconfirmed=" ")  # anyway, but with no reason
    assert club.start_round(db, night_id, unconfirmed="Ida had to leave") == 2
    ended = clubs.tables(db, night_id, 1)
    assert [(t.confirmed_by, t.end_note) for t in ended] == [
        (first[0].players[1], None), (None, None), (None, "Ida had to leave")]
    assert ended[1].confirmed_at and not ended[2].confirmed_at
    assert [t.ended_how for t in ended] == ["game"] * 3  # each ended by its own game's last hand, not a clock


def test_a_table_stopped_by_the_director_on_a_night_by_hands_is_said_stopped_and_one_on_the_clock_on_the_clock(db):
    by_hands = night(db, NAMES[:4], size=2)
    club.start_round(db, by_hands)
    club.end_round(db, by_hands)
    on_the_clock = night(db, NAMES[4:8], end="time", size=30)
    club.start_round(db, on_the_clock)
    record(db, clubs.tables(db, on_the_clock, 1)[0].game_id, WIN_0)
    club.end_round(db, on_the_clock)
    assert clubs.tables(db, by_hands, 1)[0].ended_how == "stopped"
    assert clubs.tables(db, on_the_clock, 1)[0].ended_how == "clock"


# --- 2. any round corrected ----------------------------------------------------------------------------------

def test_a_correction_of_an_earlier_round_moves_the_standings_the_records_the_ratings_and_the_prizes(db):
    from scorepad.services import ratings
    from scorepad.store import records

    night_id = night(db, NAMES[:4], rounds=3)
    for number in (1, 2, 3):
        club.start_round(db, night_id, unconfirmed="test" if number > 1 else None)
        play_round(db, night_id, number)
    table = clubs.tables(db, night_id, 1)[0]
    loser = table.players[1]
    the_night = clubs.load_night(db, night_id)
    wins_before = {p.name: p.wins for p in club.night_standings(db, the_night)}
    rated_before = ratings.all_ratings(db).now[pid(db, loser)].mu
    record_before = records.side_record(db, [pid(db, loser)])["wins"]
    club.change_result(db, night_id, table.id, (0, 500), "Counters were on the wrong side")
    places = {p.name: p for p in club.night_standings(db, the_night)}
    assert places[loser].wins == wins_before[loser] + 1
    assert records.side_record(db, [pid(db, loser)])["wins"] == record_before + 1
    assert ratings.all_ratings(db).now[pid(db, loser)].mu > rated_before
    prizes = {p.key: p for p in seasons.night_prizes(db, the_night)}
    assert prizes["high_game"].figure == 500 and loser in prizes["high_game"].holders
    assert clubs.result_changes(db, night_id)[table.id][-1]["note"] == "Counters were on the wrong side"


def test_a_closed_nights_table_is_corrected_too(db):
    night_id = night(db, NAMES[:4], rounds=1)
    club.start_round(db, night_id)
    play_round(db, night_id, 1)
    club.close_night(db, night_id, unconfirmed="closing")
    table = clubs.tables(db, night_id, 1)[0]
    club.change_result(db, night_id, table.id, (10, 20), "Recounted")
    assert clubs.tables(db, night_id, 1)[0].result == ((10, 20), 1)


# --- 3. late arrivals, early leavers ---------------------------------------------------------------------------

def test_a_player_registered_after_the_first_round_plays_from_the_next(db):
    night_id = night(db, NAMES[:11], rounds=4)  # eleven: three sit out each round
    club.start_round(db, night_id)
    number = club.register(db, night_id, ("Max",))
    assert [e.first_round for e in clubs.entrants(db, night_id)][-1] == 2
    play_round(db, night_id, 1)
    club.start_round(db, night_id, unconfirmed="test")
    chart = club_paper.rotation_chart(db, clubs.load_night(db, night_id))
    assert "Max" not in {name for t in chart[0].tables for name in t.players} | set(chart[0].byes)
    for later in chart[1:]:
        assert ("Max" in {name for t in later.tables for name in t.players}) != ("Max" in later.byes)
    assert number == 12


def test_a_player_who_leaves_after_a_round_is_seated_in_none_after_it_and_the_standings_say_how_many_they_played(db):
    night_id = night(db, NAMES[:9], rounds=4)  # nine: one sits out each round
    club.start_round(db, night_id)
    leaving = next(e for e in clubs.entrants(db, night_id) if e.name == "Bo")
    club.leave(db, night_id, leaving.number, after=1)
    play_round(db, night_id, 1)
    club.start_round(db, night_id, unconfirmed="test")
    the_night = clubs.load_night(db, night_id)
    chart = club_paper.rotation_chart(db, the_night)
    for later in chart[1:]:
        assert "Bo" not in {name for t in later.tables for name in t.players} | set(later.byes)
        assert len(later.tables) == 2 and not later.byes  # eight left: two tables, nobody sits out
    bo = next(p for p in club.night_standings(db, the_night) if p.name == "Bo")
    assert bo.played == 1


def test_a_departure_that_would_leave_too_few_for_a_table_is_refused(db):
    night_id = night(db, NAMES[:4], rounds=3)
    club.start_round(db, night_id)
    before = everything(db)
    with pytest.raises(services.Refused, match="four players"):
        club.leave(db, night_id, 1, after=1)
    assert everything(db) == before


# --- 4. a table with no hand is not a game --------------------------------------------------------------------

def test_a_table_that_played_no_hand_is_not_a_game_in_the_standings_the_records_or_the_ratings(db):
    from scorepad.store import records

    night_id = night(db, NAMES[:8], rounds=1, end="time", size=30)
    club.start_round(db, night_id)
    played, empty = clubs.tables(db, night_id, 1)
    record(db, played.game_id, WIN_0)
    club.end_round(db, night_id)
    club.close_night(db, night_id, unconfirmed="closing")
    the_night = clubs.load_night(db, night_id)
    places = {p.name: p for p in club.night_standings(db, the_night)}
    assert all(places[name].played == 0 and places[name].points == 0 for name in empty.players)
    assert empty.game_id not in {g.game_id for g in records.rated_games(db)}
    assert db.execute("SELECT finished_at FROM games WHERE id = ?", [empty.game_id]).fetchone()[0] is None
    outcome = club.table_outcome(db, empty.game_id, ("A", "B"), False)
    assert outcome.unplayed and "confirm" not in outcome.words.lower()


def test_a_director_who_types_the_result_of_a_table_played_on_paper_makes_it_count(db):
    night_id = night(db, NAMES[:4], rounds=1, end="time", size=30)
    club.start_round(db, night_id)
    club.end_round(db, night_id)
    table = clubs.tables(db, night_id, 1)[0]
    club.change_result(db, night_id, table.id, (350, 240), "Played on paper: the phone died")
    places = {p.name: p for p in club.night_standings(db, clubs.load_night(db, night_id))}
    assert places[table.players[0]].played == 1 and places[table.players[0]].wins == 1


# --- 7. one name, one entrant ------------------------------------------------------------------------------------

def test_a_second_team_under_a_name_taken_tonight_is_refused_beside_the_teams_name(db):
    night_id = night(db, [("Al", "Bo")], kind="partners")
    club.register(db, night_id, ("Cy", "Di"), "Aces")
    before = everything(db)
    with pytest.raises(services.Refused) as refused:
        club.register(db, night_id, ("Ed", "Flo"), "ACES")
    assert "Aces is registered already" in refused.value.errors["team"]
    with pytest.raises(services.Refused) as refused:
        club.register(db, night_id, ("Ed", "Flo"), "Al & Bo")  # the first team's name, its two players'
    assert "team" in refused.value.errors
    assert everything(db) == before


def test_a_director_renames_or_withdraws_an_entrant_before_the_first_round(db):
    night_id = night(db, [("Al", "Bo"), ("Cy", "Di"), ("Ed", "Flo")], kind="partners")
    club.change_entrant(db, night_id, 2, ("Cy", "Dee"), "Kings")
    club.withdraw(db, night_id, 1)
    assert [(e.number, e.name, e.player_names) for e in clubs.entrants(db, night_id)] == [
        (1, "Kings", ("Cy", "Dee")), (2, "Ed & Flo", ("Ed", "Flo"))]
    club.start_round(db, night_id)
    with pytest.raises(services.Conflict):
        club.withdraw(db, night_id, 1)


def test_a_season_with_two_teams_of_one_name_in_one_night_from_an_older_scorepad_still_reads(db):
    night_id = night(db, [("Al", "Bo"), ("Cy", "Di")], kind="partners", rounds=1)
    db.execute("UPDATE club_entrants SET name = 'Aces' WHERE night_id = ?", [night_id])
    club.start_round(db, night_id)
    play_round(db, night_id, 1)
    page = seasons.season_page(db, clubs.load_night(db, night_id).season_id)
    assert len(page.teams) == 2 and len({line.name for line in page.teams}) == 2
