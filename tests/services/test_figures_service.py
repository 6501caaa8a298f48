"""A player's figures as the service keeps them: the same as a fresh fold of every finished game, read from the
points kept beside each hand, and computed again once a game of theirs changes."""

import secrets
from dataclasses import replace

from scorepad import services
from scorepad.core.figures import SideGame, side_figures
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, play_game
from scorepad.services import figures
from scorepad.store import games as store_games
from scorepad.store import players, records

TO_100 = replace(PRESETS["double-deck"], target=100)
SEATED = ("Ann", "Bob", "Cat", "Dan")
HANDS = (Hand(0, 50, (20, 10), (30, 20), trump="H", bidder_seat=0),  # made
         Hand(1, 60, (10, 0), (40, 10), trump="S", bidder_seat=1),  # set
         Hand(0, 50, (0, 30), kind="throw_in", bidder_seat=2),
         Hand(0, 70, (40, 20), (40, 10), trump="C", bidder_seat=2),  # made, and the game won
         )


def record(db, game_id, hand):
    count = store_games.load_game(db, game_id).hands_count
    return services.record_hand(db, game_id, hand, token=secrets.token_hex(8), expected=count + 1, repeat_ok=True)


def folded(db, player_ids):
    """The figures as the page used to compute them: every game loaded and folded afresh."""
    games = []
    for seat in records.finished_seats(db, player_ids):
        game = store_games.load_game(db, seat["game_id"])
        hands = [stored.hand for stored in store_games.live_hands(db, game.id)]
        games.append(SideGame(game.id, game.rules, hands, play_game(game.rules, hands).results, seat["team"],
                              seat["seat"], bool(seat["won"]), game.created_at))
    return side_figures(games)


def finished_game(db):
    game_id = services.start_game(db, TO_100, ("Us", "Them"), SEATED, 0)
    for hand in HANDS:
        record(db, game_id, hand)
    assert store_games.load_game(db, game_id).finished_at
    return game_id


def test_figures_from_the_kept_points_are_those_of_a_fresh_fold(db):
    finished_game(db)
    finished_game(db)
    ann, cat = (players.player_for(db, name) for name in ("Ann", "Cat"))
    for side in ([ann], [cat], [ann, cat]):
        assert figures.figures(db, side) == folded(db, side)
        assert figures.figures(db, side).games == 2


def test_a_game_whose_points_were_never_kept_is_folded(db):
    finished_game(db)
    db.execute("UPDATE hands SET points_0 = NULL")
    ann = players.player_for(db, "Ann")
    assert figures.figures(db, [ann]) == folded(db, [ann])


def test_figures_follow_a_change_to_a_finished_game(db):
    game_id = finished_game(db)
    ann = players.player_for(db, "Ann")
    before = figures.figures(db, [ann])
    first = store_games.live_hands(db, game_id)[0]
    services.edit_hand(db, game_id, first.id, replace(first.hand, trump="D"))
    after = figures.figures(db, [ann])
    assert after != before and after == folded(db, [ann])


def test_a_kept_answer_is_shared_until_the_records_change(db):
    game_id = finished_game(db)
    ann = players.player_for(db, "Ann")
    kept = figures.figures(db, [ann])
    assert figures.figures(db, [ann]) is kept  # read, never changed, by every page that shows it
    first = store_games.live_hands(db, game_id)[0]
    services.edit_hand(db, game_id, first.id, replace(first.hand, trump="S"))
    assert figures.figures(db, [ann]) is not kept


def test_a_game_that_ends_is_folded_onto_the_figures_of_the_games_before_it(db, monkeypatch):
    finished_game(db)
    finished_game(db)
    ann, cat = (players.player_for(db, name) for name in ("Ann", "Cat"))
    for side in ([ann], [ann, cat]):
        figures.figures(db, side)
    read = []
    games_with_hands = store_games.games_with_hands
    monkeypatch.setattr(store_games, "games_with_hands", lambda db, ids: read.extend(ids) or games_with_hands(db, ids))
    third = finished_game(db)
    for side in ([ann], [ann, cat]):
        assert figures.figures(db, side) == folded(db, side)
        assert figures.figures(db, side).games == 3
    assert set(read) == {third}  # the games before it were not read again


def test_a_change_to_an_earlier_game_folds_every_game_afresh(db):
    first = finished_game(db)
    finished_game(db)
    ann = players.player_for(db, "Ann")
    figures.figures(db, [ann])
    hand = store_games.live_hands(db, first)[0]
    services.edit_hand(db, first, hand.id, replace(hand.hand, trump="D"))
    finished_game(db)  # and a game after it: the kept fold's games are no longer the first of the games now
    assert figures.figures(db, [ann]) == folded(db, [ann])
    figures.forget_folds()
    assert figures.figures(db, [ann]) == folded(db, [ann])


def test_a_kept_fold_gone_on_from_leaves_the_figures_shown_before_as_they_were(db):
    finished_game(db)
    ann = players.player_for(db, "Ann")
    shown = figures.figures(db, [ann])
    before = (shown.games, shown.all_bids.bid, list(shown.best))
    finished_game(db)
    assert figures.figures(db, [ann]).games == 2
    assert (shown.games, shown.all_bids.bid, list(shown.best)) == before
