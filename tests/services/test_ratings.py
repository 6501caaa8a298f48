
"""Ratings read from the stored games: folded in the order games finished, kept until a record could change, and
moved by an edit or a deleted hand as if the game had always been so."""

import secrets
from dataclasses import replace
from itertools import pairwise

import pytest

from scorepad import services
from scorepad.core import ratings as core
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import ratings
from scorepad.store import games as store_games
from scorepad.store import players as store_players

QUICK = replace(PRESETS["double-deck"], target=100)  # two hands of 50 win
US, THEM = Hand(0, 50, (0, 0), (50, 0)), Hand(1, 50, (0, 0), (0, 50))


@pytest.fixture(autouse=True)
def cold():
    ratings.forget()
    yield
    ratings.forget()


def play(db, players, us_win=True) -> int:
    game_id = services.start_game(db, QUICK, ("Us", "Them"), players, 0)
    for n in range(2):
        services.record_hand(db, game_id, US if us_win else THEM, token=secrets.token_hex(8), expected=n + 1,
                             repeat_ok=True)
    return game_id


def ids(db) -> dict[str, int]:
    return {p["name"]: p["id"] for p in store_players.player_choices(db)}


def test_every_finished_game_with_every_seat_named_is_rated_in_the_order_games_finished(db):
    play(db, ("Ann", "Cat", "Bob", "Dan"))                     # Ann and Bob partners (seats 0 and 2) win
    services.start_game(db, QUICK, ("Us", "Them"), ("Ann", "Cat", "Bob", "Dan"), 0)  # not finished
    play(db, ("Ann", "Cat", None, "Dan"))                      # an empty seat: not rated
    who = ids(db)
    now = ratings.all_ratings(db).now
    assert set(now) == set(who.values())
    assert now[who["Ann"]] == now[who["Bob"]] and now[who["Ann"]].mu > core.START_MU > now[who["Cat"]].mu
    assert now[who["Ann"]].games == 1


def test_a_player_who_always_wins_climbs_the_ladder_to_the_top(db):
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    for n in range(12):
        mate, one, two = names[1 + n % 5], names[1 + (n + 1) % 5], names[1 + (n + 2) % 5]
        play(db, ("Ann", one, mate, two))
    ann = ids(db)["Ann"]
    rating, steps = ratings.player_rating(db, ann)
    assert rating.games == len(steps) == 12
    assert all(b.mu > a.mu for a, b in pairwise(steps))
    top = ratings.ladder(db)[0]
    assert (top.place, top.name, top.player_id) == (1, "Ann", ann)


def test_an_edited_hand_that_turns_the_result_moves_the_ratings_as_if_it_had_always_been_so(db):
    first = play(db, ("Ann", "Cat", "Bob", "Dan"))
    play(db, ("Ann", "Cat", "Bob", "Dan"))
    who = ids(db)
    before = ratings.all_ratings(db).now
    hand = store_games.live_hands(db, first)[1]
    services.edit_hand(db, first, hand.id, THEM, reopen_ok=True)  # the win goes: asked, and said yes to
    assert store_games.load_game(db, first).winner is None  # 50 all: the game goes on, no longer finished
    services.record_hand(db, first, THEM, token="t", expected=3, repeat_ok=True)
    after = ratings.all_ratings(db).now
    assert after[who["Ann"]].mu < before[who["Ann"]].mu and after[who["Cat"]].mu > before[who["Cat"]].mu
    ratings.forget()
    assert ratings.all_ratings(db).now == after  # the same as folding the stored games from nothing


def test_a_deleted_hand_that_unfinishes_a_game_takes_it_out_of_the_ratings(db):
    play(db, ("Ann", "Cat", "Bob", "Dan"))
    second = play(db, ("Ann", "Cat", "Bob", "Dan"))
    ann = ids(db)["Ann"]
    assert ratings.player_rating(db, ann)[0].games == 2
    services.delete_hand(db, second, store_games.live_hands(db, second)[1].id)
    rating, steps = ratings.player_rating(db, ann)
    assert rating.games == len(steps) == 1


def test_ratings_are_kept_until_a_record_could_change_and_a_finished_game_folds_only_itself(db, monkeypatch):
    play(db, ("Ann", "Cat", "Bob", "Dan"))
    first = ratings.all_ratings(db)
    assert ratings.all_ratings(db) is first
    folded = []
    real = core.fold
    monkeypatch.setattr(core, "fold", lambda games, start=None: folded.append(len(games)) or real(games, start))
    play(db, ("Ann", "Cat", "Bob", "Dan"))
    ratings.all_ratings(db)
    assert folded == [1]


def test_a_rename_keeps_the_rating_and_a_merge_folds_again(db):
    play(db, ("Ann", "Cat", "Bob", "Dan"))
    play(db, ("Eve", "Cat", "Bob", "Dan"))
    who = ids(db)
    services.rename_player(db, who["Ann"], "Anne")
    assert [r.name for r in ratings.ladder(db) if r.player_id == who["Ann"]] == ["Anne"]
    services.merge_players(db, who["Eve"], who["Ann"])
    assert ratings.player_rating(db, who["Ann"])[0].games == 2
    assert who["Eve"] not in ratings.all_ratings(db).now


def test_a_ladder_of_some_players_ranks_only_them_and_leaves_the_not_sure_unranked(db):
    play(db, ("Ann", "Cat", "Bob", "Dan"))
    who = ids(db)
    rungs = ratings.ladder(db, players=[who["Ann"], who["Cat"]])
    assert [(r.name, r.place) for r in rungs] == [("Ann", None), ("Cat", None)]
    assert rungs[0].rating.words == core.NOT_SURE



def test_a_players_rating_and_chart_are_built_once_a_records_version_and_again_after_a_game(db):
    play(db, ("Ann", "Cat", "Bob", "Dan"))
    ann = ids(db)["Ann"]
    first = ratings.of_player(db, ann)
    assert first.chart is None and first.rating.games == 1  # no chart before a second game
    assert ratings.of_player(db, ann) is first  # kept
    play(db, ("Ann", "Cat", "Bob", "Dan"), us_win=False)
    second = ratings.of_player(db, ann)
    assert second is not first and second.rating.games == 2
    assert second.chart.startswith("<svg") and second.rating.mu < first.rating.mu
