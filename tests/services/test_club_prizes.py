"""A season's prizes beyond the places and specials, and the ratings a club keeps apart: the most improved (the
rating's rise over the season, after a least number of nights), the last place, ratings of club games only or of
kitchen-table games only, and a director who fills a seat left out of the ratings for the night."""

import pytest

from scorepad.core.ratings import START_MU
from scorepad.services import club, ratings, seasons
from scorepad.store import clubs, players, schema
from tests.every_kind import WIN_0, WIN_1, record
from tests.services.helpers import new_night, start

FOUR = ["Al", "Bo", "Cy", "Di"]


def pid(db, name):
    return players.player_for(db, name)


def one_table_night(db, hand, name="Week"):
    """Four players, one round of one hand, closed: Al & Cy against Bo & Di."""
    night_id = new_night(db, FOUR, name=name, size=1, rounds=1)
    club.start_round(db, night_id)
    record(db, clubs.tables(db, night_id, 1)[0].game_id, hand)
    club.close_night(db, night_id, unconfirmed="closing")
    return night_id


@pytest.fixture(autouse=True)
def fresh_ratings():
    ratings.forget()


def test_the_most_improved_is_whose_rating_rose_most_over_the_season_after_the_least_nights(db):
    seasons.change_season(db, 1, "Autumn", None, 1, (), improved_min_nights=2, last_place=True)
    one_table_night(db, WIN_1, "Week 1")  # Bo & Di win
    one_table_night(db, WIN_0, "Week 2")  # Al & Cy win
    one_table_night(db, WIN_0, "Week 3")  # Al & Cy win again: they rose most from where they began
    prizes = {p.key: p for p in seasons.season_page(db, 1).prizes}
    assert set(prizes["most_improved"].holders) == {"Al", "Cy"} and prizes["most_improved"].figure > 0
    assert set(prizes["last-place"].holders) == {"Bo", "Di"}


def test_a_player_of_fewer_nights_than_the_least_is_not_the_most_improved(db):
    seasons.change_season(db, 1, "Autumn", None, 1, (), improved_min_nights=2)
    one_table_night(db, WIN_0, "Week 1")
    prizes = {p.key: p for p in seasons.season_page(db, 1).prizes}
    assert prizes["most_improved"].holders == ()  # one night each: nobody yet


def test_a_season_without_those_prizes_gives_neither(db):
    one_table_night(db, WIN_0)
    keys = [p.key for p in seasons.season_page(db, 1).prizes]
    assert "most_improved" not in keys and "last-place" not in keys


def test_a_nights_prize_list_gives_its_last_place_where_the_season_gives_one(db):
    seasons.change_season(db, 1, "Autumn", None, 1, (), last_place=True)
    night_id = one_table_night(db, WIN_0)
    prizes = {p.key: p for p in seasons.night_prizes(db, clubs.load_night(db, night_id))}
    assert set(prizes["last-place"].holders) == {"Bo", "Di"}


def test_club_games_and_kitchen_table_games_are_rated_apart(db):
    one_table_night(db, WIN_0)  # at the club, Al wins
    home = start(db, players=("Al", "Bo", "Cy", "Di"))
    while record(db, home, WIN_1).winner is None:  # at home, Al loses
        pass
    al = pid(db, "Al")
    assert ratings.all_ratings(db, "club").now[al].mu > START_MU
    assert ratings.all_ratings(db, "home").now[al].mu < START_MU
    assert ratings.all_ratings(db, "club").now[al].games == ratings.all_ratings(db, "home").now[al].games == 1
    assert ratings.all_ratings(db).now[al].games == 2
    assert [r.name for r in ratings.ladder(db, pool="club")][:2] == ["Al", "Cy"]


def test_a_season_rated_by_club_games_only_shows_a_ladder_home_games_do_not_move(db):
    seasons.change_season(db, 1, "Autumn", None, 1, (), ratings="club")
    one_table_night(db, WIN_0)
    home = start(db, players=("Al", "Bo", "Cy", "Di"))
    while record(db, home, WIN_1).winner is None:
        pass
    ladder = {r.name: r.rating for r in seasons.season_page(db, 1).ladder}
    assert ladder["Al"].games == 1 and ladder["Al"].mu > START_MU


def test_a_director_who_fills_a_seat_can_be_left_out_of_the_ratings_for_the_night(db):
    night_id = new_night(db, FOUR, size=1, rounds=1)
    club.rate_player(db, night_id, pid(db, "Al"), False)
    club.start_round(db, night_id)
    record(db, clubs.tables(db, night_id, 1)[0].game_id, WIN_0)
    club.close_night(db, night_id, unconfirmed="closing")
    now = ratings.all_ratings(db).now
    assert pid(db, "Al") not in now  # the director's rating is as it was: none yet
    assert now[pid(db, "Cy")].mu > START_MU > now[pid(db, "Bo")].mu  # the others at the table are rated
    club.rate_player(db, night_id, pid(db, "Al"), True)  # rated after all: every rating folds again
    assert ratings.all_ratings(db).now[pid(db, "Al")].games == 1


def test_only_a_player_of_the_night_is_left_out_of_its_ratings(db):
    from scorepad import services

    night_id = new_night(db, FOUR, size=1, rounds=1)
    with pytest.raises(services.Refused):
        club.rate_player(db, night_id, pid(db, "Zed"), False)


def test_migrating_makes_a_table_kept_as_a_0_0_tie_before_any_hand_no_game(db):
    from scorepad.store import connection, records

    night_id = new_night(db, FOUR, size=1, rounds=1, end="time")
    club.start_round(db, night_id)
    table = clubs.tables(db, night_id, 1)[0]
    # as Scorepad kept it before: a finished 0-0 tie, won by nobody, in every record
    db.execute("UPDATE club_tables SET ended_at = '2026-01-01T20:00:00+00:00', score_0 = 0, score_1 = 0 WHERE id = ?",
               [table.id])
    db.execute("UPDATE games SET finished_at = '2026-01-01T20:00:00+00:00' WHERE id = ?", [table.game_id])
    db.execute("UPDATE game_seats SET finished = 1 WHERE game_id = ?", [table.game_id])
    db.execute("""INSERT INTO team_results (game_id, team, hands, sum_meld, max_points, hands_bid, made, went_set,
                  sum_bid) VALUES (?1, 0, 0, 0, NULL, 0, 0, 0, 0), (?1, 1, 0, 0, NULL, 0, 0, 0, 0)""", [table.game_id])
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm022_club_year'")
    for column in ("bye_rule", "bye_points", "standings_hidden"):
        db.execute(f"ALTER TABLE club_nights DROP COLUMN {column}")
    for column in ("last_round", "first_round"):
        db.execute(f"ALTER TABLE club_entrants DROP COLUMN {column}")
    for column in ("ended_how", "end_note"):
        db.execute(f"ALTER TABLE club_tables DROP COLUMN {column}")
    for column in ("director_night", "bye_rule", "bye_points", "improved_min_nights", "last_place", "ratings"):
        db.execute(f"ALTER TABLE club_seasons DROP COLUMN {column}")
    db.execute("DROP TABLE club_unrated")
    db.conn.commit()
    assert records.side_record(db, [pid(db, "Al")])["games"] == 1
    schema.migrate(connection.database_path(db))
    assert records.side_record(db, [pid(db, "Al")])["games"] == 0
    assert clubs.tables(db, night_id, 1)[0].unplayed
    assert table.game_id not in {g.game_id for g in records.rated_games(db)}
