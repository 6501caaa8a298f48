"""A club table's game in its players' records: once its round is over it counts with its table's result, however
the round ended (its own end, the director's clock, the night closed), after the director changes that result,
after the game is folded again, and in a database kept before this was so; and its export, as its hands say."""

import json

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import club, transfer
from scorepad.store import clubs, connection, games, players, records, schema
from tests.services.helpers import new_night

RULES = PRESETS["double-deck"]
NAMES = ("Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")  # table 1: Al & Cy against Bo & Di; table 2: Ed & Gus...
WIN_0 = Hand(0, 50, (20, 0), (30, 20), trump="H")  # North and South's team: 50 to 20
TIE = Hand(0, 50, (20, 30), (30, 20), trump="H")  # 50 to 50


def night(db, end="time", size=50, rounds=2):
    night_id = new_night(db, NAMES, name="Friday club", rules=RULES, end=end, size=size, rounds=rounds)
    club.start_round(db, night_id)
    return night_id


def table(db, night_id, table_no):
    return next(t for t in clubs.tables(db, night_id, 1) if t.table_no == table_no)


def play(db, night_id, table_no, hand=WIN_0):
    t = table(db, night_id, table_no)
    services.record_hand(db, t.game_id, hand, token=f"t{t.id}-{t.hands_count}", expected=t.hands_count + 1,
                            repeat_ok=True)


def ids(db, *names):
    return [players.player_for(db, name) for name in names]


def record_of(db, *names):
    found = records.side_record(db, ids(db, *names))
    return found["games"], found["wins"]


# Table 1 played a hand Al & Cy won, table 2 none: both stop where they stand.
STOPPERS = [
    ("the director's clock", lambda db, night_id: club.end_round(db, night_id)),
    ("the night closed mid-round", lambda db, night_id: club.close_night(db, night_id, unconfirmed="closing")),
]


@pytest.mark.parametrize("stop", [s[1] for s in STOPPERS], ids=[s[0] for s in STOPPERS])
def test_a_table_stopped_before_its_end_counts_with_its_tables_result_in_every_record(db, stop):
    night_id = night(db)
    play(db, night_id, 1)
    stop(db, night_id)
    assert record_of(db, "Al") == (1, 1) and record_of(db, "Bo") == (1, 0)
    assert record_of(db, "Al", "Cy") == (1, 1) and record_of(db, "Bo", "Di") == (1, 0)
    assert records.head_to_head(db, ids(db, "Al", "Cy"), ids(db, "Bo", "Di")) == {"games": 1, "wins_a": 1, "wins_b": 0}
    assert records.side_record(db, ids(db, "Al"))["longest_streak"] == 1
    al_partners = {p["name"]: (p["games"], p["wins"]) for p in records.partners(db, ids(db, "Al")[0])}
    assert al_partners == {"Cy": (1, 1)}
    listed = {p["name"]: (p["games"], p["wins"]) for p in records.players(db)}
    assert listed["Al"] == (1, 1) and listed["Di"] == (1, 0)


def test_a_table_tied_when_the_clock_stopped_it_counts_as_a_game_won_by_neither(db):
    night_id = night(db)
    play(db, night_id, 2, TIE)  # 50 to 50
    club.end_round(db, night_id)
    assert record_of(db, "Ed") == (1, 0) and record_of(db, "Flo") == (1, 0)
    assert records.head_to_head(db, ids(db, "Ed", "Gus"), ids(db, "Flo", "Hal")) == {"games": 1, "wins_a": 0,
                                                                                  "wins_b": 0}
    game = games.load_game(db, table(db, night_id, 2).game_id)
    assert game.finished_at is not None and game.winner is None


def test_a_round_that_ends_by_its_own_hands_counts_once_its_table_finished(db):
    night_id = night(db, end="hands", size=1)
    play(db, night_id, 1)
    assert record_of(db, "Al") == (1, 1) and record_of(db, "Bo") == (1, 0)
    club.confirm(db, table(db, night_id, 1).id, ids(db, "Bo")[0])
    assert record_of(db, "Al") == (1, 1) and record_of(db, "Bo") == (1, 0)


def test_the_directors_change_of_a_result_moves_the_records_already_cached(db):
    night_id = night(db)
    play(db, night_id, 1)
    club.end_round(db, night_id)
    assert record_of(db, "Al") == (1, 1) and record_of(db, "Bo") == (1, 0)  # now cached
    club.change_result(db, night_id, table(db, night_id, 1).id, (40, 90), "Counted again")
    assert record_of(db, "Al") == (1, 0) and record_of(db, "Bo") == (1, 1)
    assert games.load_game(db, table(db, night_id, 1).game_id).winner == 1


def test_folding_a_stopped_tables_game_again_keeps_its_tables_result(db):
    night_id = night(db)
    play(db, night_id, 1)
    club.end_round(db, night_id)
    club.change_result(db, night_id, table(db, night_id, 1).id, (40, 90), "Counted again")
    game_id = table(db, night_id, 1).game_id
    before = games.load_game(db, game_id)
    with connection.write_lock(db):
        games.rescore(db, before, games.live_hands(db, game_id))  # as a migration's re-score does
    after = games.load_game(db, game_id)
    assert (after.winner, after.finished_at) == (1, before.finished_at)
    assert record_of(db, "Bo") == (1, 1)


def test_migrating_settles_the_games_of_tables_that_ended_before_their_games_kept_it(db, tmp_path):
    night_id = night(db)
    play(db, night_id, 1)
    club.end_round(db, night_id)
    game_id = table(db, night_id, 1).game_id
    # as the code of m012's day left it: the table ended, its game neither finished nor won
    db.execute("UPDATE games SET finished_at = NULL, winner = NULL WHERE id = ?", [game_id])
    db.execute("UPDATE game_seats SET finished = 0, won = 0 WHERE game_id = ?", [game_id])
    db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm013_club_games_count_in_records'")
    db.conn.commit()
    assert record_of(db, "Al") == (0, 0)
    schema.migrate(connection.database_path(db))
    assert record_of(db, "Al") == (1, 1) and record_of(db, "Bo") == (1, 0)


def test_club_tables_are_rated_with_their_tables_result_a_tie_a_draw_and_the_directors_change_moves_them(db):
    from scorepad.core.ratings import START_MU
    from scorepad.services import ratings

    ratings.forget()
    night_id = night(db)
    play(db, night_id, 1)  # Al & Cy beat Bo & Di; table 2 ties 50 to 50 when time is called
    play(db, night_id, 2, TIE)
    club.end_round(db, night_id)
    al, bo, cy = ids(db, "Al", "Bo", "Cy")
    now = ratings.all_ratings(db).now
    assert now[al] == now[cy] and now[al].mu > START_MU > now[bo].mu
    assert {round(now[p].mu, 6) for p in ids(db, "Ed", "Flo", "Gus", "Hal")} == {START_MU}  # a draw of equals
    club.change_result(db, night_id, table(db, night_id, 1).id, (40, 90), "Counted again")
    now = ratings.all_ratings(db).now
    assert now[bo].mu > START_MU > now[al].mu


ENDINGS = [
    ("stopped on the clock", "time", 50, False),
    ("finished by its hands, then changed by the director", "hands", 1, True),
]


@pytest.mark.parametrize(("end", "size", "changed"), [e[1:] for e in ENDINGS], ids=[e[0] for e in ENDINGS])
def test_a_club_nights_games_export_as_their_hands_say_and_import_back(db, new_database, tmp_path, end, size,
                                                                       changed):
    night_id = night(db, end=end, size=size)
    play(db, night_id, 1)  # table 1: Al & Cy win a hand; table 2 plays none
    club.end_round(db, night_id)
    if changed:
        club.change_result(db, night_id, table(db, night_id, 1).id, (40, 90), "Recount")
    exported = transfer.export_games(db)
    assert [(g["winner"], g["finished_at"] is None) for g in exported["games"]] == [
        (0 if changed else None, not changed), (None, True)]
    fresh = connection.connect(str(new_database(tmp_path / "fresh" / "scorepad.db")))
    try:
        assert len(services.import_games(fresh, json.dumps(exported).encode())) == 2
    finally:
        fresh.close()
