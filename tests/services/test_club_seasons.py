"""Seasons and specials as use cases: each change one function, refused in words, nothing stored when refused."""

import pytest

from scorepad import services
from scorepad.services import club, seasons
from scorepad.store import clubs, players
from scorepad.store import seasons as store_seasons
from tests.every_kind import WIN_0, WIN_1, night, record


def players_of(db, game_id):
    return store_seasons.table_players(db, game_id)


@pytest.fixture
def playing(db):
    """A progressive night of four, round 1 under way."""
    night_id = night(db, "progressive", [(n,) for n in ("Al", "Bo", "Cy", "Di")], round_end="hands", round_size=2,
                     rounds=2)
    club.start_round(db, night_id)
    return night_id, clubs.tables(db, night_id)[0]


def test_a_fresh_database_has_a_first_season_that_new_nights_count_in(db):
    night_id = night(db, "partners", [("Al", "Bo"), ("Cy", "Di")], round_end="hands", round_size=1, rounds=1)
    assert clubs.load_night(db, night_id).season_id == seasons.current_season(db).id == 1
    spring = seasons.new_season(db, "Spring", 3, 2, ("double_run",))
    later = night(db, "partners", [("Al", "Bo"), ("Cy", "Di")], round_end="hands", round_size=1, rounds=1)
    assert clubs.load_night(db, later).season_id == spring.id
    assert (spring.best_of, spring.min_nights, spring.specials) == (3, 2, ("double_run",))


@pytest.mark.parametrize("settings, field", [
    (("", None, 1, ()), "season_name"),
    (("Spring", 0, 1, ()), "best_of"),
    (("Spring", None, 0, ()), "min_nights"),
    (("Spring", None, 1, ("nines",)), "specials"),
    (("Spring", None, 1, ("double_run", "double_run")), "specials"),
])
def test_a_season_that_cannot_be_is_refused_beside_its_field_and_none_is_made(db, settings, field):
    with pytest.raises(services.Refused) as refused:
        seasons.new_season(db, *settings)
    assert field in refused.value.errors
    assert [s.name for s in store_seasons.all_seasons(db)] == ["First season"]


def test_a_special_is_tallied_once_however_often_it_is_tapped_and_taken_back(db, playing):
    night_id, table = playing
    seat, al, name = players_of(db, table.game_id)[0]
    seasons.tally_special(db, table.game_id, 1, al, "double_aces")
    seasons.tally_special(db, table.game_id, 1, al, "double_aces")
    tallied = seasons.night_specials(db, clubs.load_night(db, night_id))
    assert [(s.player, s.kind, s.hand, s.round, s.table_no) for s in tallied] == [(name, "double_aces", 1, 1, 1)]
    seasons.take_back_special(db, table.game_id, tallied[0].id)
    assert seasons.night_specials(db, clubs.load_night(db, night_id)) == []


def test_a_special_the_club_does_not_tally_or_for_someone_else_or_after_the_round_is_refused(db, playing):
    night_id, table = playing
    al = players_of(db, table.game_id)[0][1]
    stranger = players.player_for(db, "Zed")
    seasons.change_season(db, 1, "First season", None, 1, ("double_run",))
    with pytest.raises(services.Refused, match="does not tally"):
        seasons.tally_special(db, table.game_id, 1, al, "double_aces")
    with pytest.raises(services.Refused, match="at this table"):
        seasons.tally_special(db, table.game_id, 1, stranger, "double_run")
    with pytest.raises(services.NotFound):
        seasons.tally_special(db, 10**6, 1, al, "double_run")
    club.end_round(db, night_id)
    with pytest.raises(services.Conflict, match="is over"):
        seasons.tally_special(db, table.game_id, 1, al, "double_run")
    assert seasons.night_specials(db, clubs.load_night(db, night_id)) == []


def test_the_nights_prize_list_has_its_places_its_high_game_and_series_and_its_specials(db, playing):
    night_id, table = playing
    record(db, table.game_id, WIN_0)
    record(db, table.game_id, WIN_1)
    north = players_of(db, table.game_id)[0]
    seasons.tally_special(db, table.game_id, 2, north[1], "double_run")
    club.close_night(db, night_id, unconfirmed="Closed at the end of the night")
    the_night = clubs.load_night(db, night_id)
    read = seasons.read_night(db, the_night)
    prizes = {p.key: p for p in seasons.night_prizes(db, the_night, read)}
    assert prizes["double_run"].holders == (north[2],) and prizes["double_run"].figure == 1
    best = max(points for _, points in read.games)
    assert prizes["high_game"].figure == best
    assert prizes["high_series"].figure == max(read.series.values())
    assert prizes["place-1"].holders


def test_a_season_counts_each_ones_best_nights_and_ranks_after_the_minimum(db):
    def partners_night(teams):
        night_id = night(db, "partners", teams, round_end="hands", round_size=1, rounds=1)
        club.start_round(db, night_id)
        record(db, clubs.tables(db, night_id)[0].game_id, WIN_0)
        club.close_night(db, night_id, unconfirmed="Closed at the end of the night")
    partners_night([("Al", "Bo"), ("Cy", "Di")])
    partners_night([("Cy", "Di"), ("Al", "Bo")])
    partners_night([("Al", "Bo"), ("Ed", "Flo")])
    seasons.change_season(db, 1, "Winter", 1, 2, ())
    page = seasons.season_page(db, 1)
    teams = {line.name: line for line in page.teams}
    assert teams["Al & Bo"].played == 3 and len(teams["Al & Bo"].counted) == 1
    assert teams["Ed & Flo"].rank is None  # one night: fewer than two
    assert page.prizes == [] or page.prizes[0].holders[0] in teams  # a season of partners nights prizes its teams
    assert page.prizes[0].key == "place-1"
