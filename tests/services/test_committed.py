"""What a committed change sets going, whichever change it was: the records of the players of a game whose end
moved are warmed (on the server's database only), and nothing is set going by a change that was refused."""

from dataclasses import replace

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import club, committed, pages, warming
from scorepad.store import clubs, connection, games
from scorepad.store import players as store_players
from tests.services.helpers import record

TO_100 = replace(PRESETS["double-deck"], target=100)
MADE = Hand(0, 50, (0, 0), (50, 0))  # Us +50
THEM = Hand(1, 50, (0, 0), (0, 50))  # Them +50
SEATED = ("Ann", "Bob", "Cat", "Dan")


@pytest.fixture
def warmed(db, monkeypatch) -> list[list[int]]:
    """The players whose records each change warmed, on a database the server registered."""
    monkeypatch.setattr(committed, "_WARMED", set())
    committed.warm_records_of(connection.database_path(db))
    asked = []
    monkeypatch.setattr(warming, "warm", lambda path, players: asked.append(players))
    return asked


def test_a_change_that_moves_a_games_end_warms_its_players_records(db, warmed):
    game_id = services.start_game(db, TO_100, ("Us", "Them"), SEATED, 0)
    record(db, game_id, MADE)
    assert warmed == []  # nothing decided
    first = games.live_hands(db, game_id)[0].id
    record(db, game_id, MADE)  # won
    services.delete_hand(db, game_id, first)  # reopened
    players = sorted(store_players.seated_players(db, game_id))
    assert warmed == [players, players]


def test_a_game_no_one_is_named_in_warms_nothing(db, warmed):
    """It has no records, figures or place on a ladder: warming everyone's ladder after it was 0.7 s of CPU at
    10,000 games beside the phones, after every such game."""
    game_id = services.start_game(db, TO_100, ("Us", "Them"), (None, None, None, None), 0)
    record(db, game_id, MADE)
    record(db, game_id, MADE)  # won
    assert games.load_game(db, game_id).winner == 0
    assert warmed == []


def test_a_club_round_ended_by_the_director_warms_its_players_records(db, warmed):
    night = club.create_night(db, name="Club", kind="progressive", rules=PRESETS["double-deck"], round_end="time",
                              round_size=50, rounds=2, tie_breaks=("wins", "points"))
    for name in SEATED:
        club.register(db, night.id, (name,))
    club.start_round(db, night.id)
    club.end_round(db, night.id)
    [table] = clubs.tables(db, night.id, 1)
    assert warmed == [sorted(store_players.seated_players(db, table.game_id))]


def test_records_are_not_warmed_for_a_database_the_server_did_not_register(db, monkeypatch):
    monkeypatch.setattr(committed, "_WARMED", set())
    asked = []
    monkeypatch.setattr(warming, "warm", lambda path, players: asked.append(players))
    game_id = services.start_game(db, TO_100, ("Us", "Them"), SEATED, 0)
    record(db, game_id, MADE)
    record(db, game_id, MADE)
    assert asked == []


def test_a_refused_change_keeps_no_page(db, monkeypatch):
    game_id = services.start_game(db, TO_100, ("Us", "Them"), SEATED, 0)
    record(db, game_id, MADE)
    pages.forget()
    with pytest.raises(services.Refused):
        record(db, game_id, Hand(0, 63, (0, 0), (50, 0)))
    assert pages._PAGES == {}
