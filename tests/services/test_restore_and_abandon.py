"""Two changes that undo a mistake at the table: a deleted hand put back in its place, and a game nobody will
finish ended as abandoned. Each is one function, one transaction, kept in history, refused with nothing stored."""

from dataclasses import replace

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS, can_be_stuck
from scorepad.core.scoring import Hand
from scorepad.store import games, records
from tests.services.helpers import everything, record, start

DD = PRESETS["double-deck"]
SEATED = ("Ann", "Bob", "Cat", "Dan")


def made_by(team: int, bid: int) -> Hand:
    """A hand its bidders make exactly: all the counters, and the rest of the bid in meld (none, or 20 and up)."""
    meld, counters = (bid - 50, 0), (50, 0)
    return Hand(team, bid, meld if team == 0 else meld[::-1], counters if team == 0 else counters[::-1])


def bids(db, game_id) -> list[int]:
    return [stored.hand.bid for stored in games.live_hands(db, game_id)]


def a_game_with_hand_2_deleted(db) -> tuple[int, int]:
    """Us 50, Them 55 (deleted), Us 70, Us 75."""
    game_id = start(db)
    for team, bid in ((0, 50), (1, 55), (0, 70), (0, 75)):
        record(db, game_id, made_by(team, bid) if bid != 55 else Hand(1, 55, (0, 0), (0, 50)))
    hand_2 = games.live_hands(db, game_id)[1].id
    services.delete_hand(db, game_id, hand_2)
    return game_id, hand_2


def test_a_restored_hand_goes_back_in_its_place_and_the_sheet_is_scored_again(db):
    game_id, hand_2 = a_game_with_hand_2_deleted(db)
    assert games.load_game(db, game_id).totals == (195, 0)
    change = services.restore_hand(db, game_id, hand_2)
    assert (change.number, change.already) == (2, False)
    assert bids(db, game_id) == [50, 55, 70, 75]
    game = games.load_game(db, game_id)
    assert (game.hands_count, game.totals) == (4, (195, -55))  # the hand was a set: −55 for Them
    assert games.deleted_hands(db, game_id) == []


def test_the_restore_is_kept_in_the_hands_history(db):
    game_id, hand_2 = a_game_with_hand_2_deleted(db)
    services.restore_hand(db, game_id, hand_2)
    assert [edit["action"] for edit in games.edits_of_hand(db, hand_2)] == ["recorded", "deleted", "restored"]
    assert games.live_hands(db, game_id)[1].edits == 0  # put back, not edited: no "edited" mark on the sheet


def test_restoring_twice_puts_the_hand_back_once(db):
    game_id, hand_2 = a_game_with_hand_2_deleted(db)
    services.restore_hand(db, game_id, hand_2)
    again = services.restore_hand(db, game_id, hand_2)
    assert (again.already, again.number, again.version) == (True, 2, None)
    assert len(games.live_hands(db, game_id)) == 4


@pytest.mark.parametrize("hand_id", [10**6, 2**63 + 5])
def test_a_hand_the_game_never_had_is_not_found_and_nothing_changes(db, hand_id):
    game_id, _ = a_game_with_hand_2_deleted(db)
    rows = everything(db)
    with pytest.raises(services.NotFound):
        services.restore_hand(db, game_id, hand_id)
    assert everything(db) == rows


def test_a_hand_of_another_game_is_not_found_in_this_one(db):
    game_id, hand_2 = a_game_with_hand_2_deleted(db)
    other = start(db)
    with pytest.raises(services.NotFound):
        services.restore_hand(db, other, hand_2)


def test_a_hand_that_would_win_the_game_before_the_last_hands_is_refused_and_nothing_changes(db):
    game_id = start(db, replace(DD, target=150))
    record(db, game_id, made_by(0, 50))
    record(db, game_id, made_by(0, 100))  # Us 150: won
    won_early = games.live_hands(db, game_id)[1].id
    services.delete_hand(db, game_id, won_early)  # the game goes on
    record(db, game_id, made_by(1, 50))
    record(db, game_id, made_by(1, 50))
    rows = everything(db)
    with pytest.raises(services.EndsTooEarly):
        services.restore_hand(db, game_id, won_early)
    assert everything(db) == rows


def test_a_stuck_dealers_hand_that_no_longer_fits_the_deal_is_refused(db):
    rules = next(rules for rules in PRESETS.values() if can_be_stuck(rules))
    game_id = start(db, rules, SEATED)
    record(db, game_id, made_by(0, rules.min_bid))  # dealt by Ann
    stuck = Hand(1, rules.min_bid, (0, 0), (0, rules.hand_points), bidder_seat=1, forced=True)  # Bob deals hand 2
    record(db, game_id, stuck)
    stuck_id = games.live_hands(db, game_id)[1].id
    services.delete_hand(db, game_id, stuck_id)
    services.delete_hand(db, game_id, games.live_hands(db, game_id)[0].id)  # now it would be Ann's deal
    rows = everything(db)
    with pytest.raises(services.Conflict, match="cannot go back in its place"):
        services.restore_hand(db, game_id, stuck_id)
    assert everything(db) == rows


def a_stuck_dealers_hand_3(db) -> tuple[int, list[int]]:
    """Ann deals hand 1, Bob hand 2, Cat hand 3, where everyone passed and Cat was stuck: the game and its hands."""
    rules = next(rules for rules in PRESETS.values() if can_be_stuck(rules))
    game_id = start(db, rules, SEATED)
    record(db, game_id, made_by(0, rules.min_bid))
    record(db, game_id, made_by(1, rules.min_bid))
    record(db, game_id, Hand(0, rules.min_bid, (0, 0), (rules.hand_points, 0), bidder_seat=2, forced=True))
    return game_id, [stored.id for stored in games.live_hands(db, game_id)]


def test_a_hand_deleted_before_a_stuck_dealers_hand_is_refused_as_it_would_move_it_to_another_deal(db):
    """It moved to Bob's deal, was scored without complaint, and every edit of it was refused ("Only the dealer
    can be stuck")."""
    game_id, (_, hand_2, hand_3) = a_stuck_dealers_hand_3(db)
    rows = everything(db)
    with pytest.raises(services.Conflict, match="Deleting this hand moves hand 3 to hand 2, which someone else "
                                                "deals: Only the dealer can be stuck"):
        services.delete_hand(db, game_id, hand_2)
    assert everything(db) == rows
    services.delete_hand(db, game_id, hand_3)  # the stuck hand itself goes, and then the one before it
    services.delete_hand(db, game_id, hand_2)
    assert bids(db, game_id) == [50]


def test_a_hand_put_back_before_a_stuck_dealers_hand_is_refused_as_it_would_move_it_to_another_deal(db):
    rules = next(rules for rules in PRESETS.values() if can_be_stuck(rules))
    game_id = start(db, rules, SEATED)
    record(db, game_id, made_by(0, rules.min_bid))  # Ann deals
    record(db, game_id, made_by(1, rules.min_bid))  # Bob deals, then it is deleted: Bob deals hand 2 again
    deleted = games.live_hands(db, game_id)[1].id
    services.delete_hand(db, game_id, deleted)
    record(db, game_id, Hand(1, rules.min_bid, (0, 0), (0, rules.hand_points), bidder_seat=1, forced=True))
    rows = everything(db)
    with pytest.raises(services.Conflict, match="Putting this hand back moves hand 2 to hand 3, which someone "
                                                "else deals: Only the dealer can be stuck"):
        services.restore_hand(db, game_id, deleted)
    assert everything(db) == rows


# --- ending a game unfinished -----------------------------------------------------------------------------

def test_an_abandoned_game_leaves_the_games_in_progress_and_nobody_won_it(db):
    game_id = start(db, players=SEATED)
    record(db, game_id, made_by(0, 50))
    change = services.abandon_game(db, game_id)
    assert not change.already
    game = games.load_game(db, game_id)
    assert game.abandoned_at is not None and game.winner is None and game.finished_at is None
    assert game_id not in [g.id for g in games.list_games(db, finished=False)]
    assert game_id not in [g.id for g in games.list_games(db, finished=True)]
    assert game_id in [g.id for g in games.history_games(db)]
    assert all(p["wins"] == 0 and p["games"] == 0 for p in records.players(db))


def test_an_abandoned_game_takes_no_more_hands(db):
    game_id = start(db)
    services.abandon_game(db, game_id)
    rows = everything(db)
    with pytest.raises(services.GameIsOver, match="ended unfinished"):
        record(db, game_id, made_by(0, 50))
    assert everything(db) == rows


def test_ending_a_game_twice_ends_it_once(db):
    game_id = start(db)
    services.abandon_game(db, game_id)
    first = games.load_game(db, game_id).abandoned_at
    assert services.abandon_game(db, game_id).already
    assert games.load_game(db, game_id).abandoned_at == first


def test_a_won_game_cannot_be_abandoned(db):
    game_id = start(db, replace(DD, target=50))
    record(db, game_id, made_by(0, 50))
    rows = everything(db)
    with pytest.raises(services.GameIsOver):
        services.abandon_game(db, game_id)
    assert everything(db) == rows
