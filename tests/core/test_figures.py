"""A side's figures over its finished games: bids by level and trump, where its points came from, set rate,
best hands and runs."""

from scorepad.core.figures import SideGame, side_figures
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, play_game

DD = PRESETS["double-deck"]
SD = PRESETS["single-deck"]


def side_game(game_id, rules, hands, team=0, seat=0, won=False):
    state = play_game(rules, hands)
    return SideGame(game_id, rules, hands, state.results, team, seat, won, f"2026-11-0{game_id}T20:00:00+00:00")


def test_bids_are_counted_by_level_and_trump_only_where_the_player_bid():
    hands = [
        Hand(0, 55, (30, 20), (30, 20), trump="H", bidder_seat=0),  # mine: made, +60
        Hand(0, 60, (20, 30), kind="throw_in", bidder_seat=0),  # mine: not played out, −60
        Hand(0, 65, (20, 20), (20, 30), trump="S", bidder_seat=2),  # my partner's: set, −65
        Hand(1, 50, (25, 30), (24, 26), trump="D", bidder_seat=1),  # theirs: we score meld 25 + counters 24
    ]
    figures = side_figures([side_game(1, DD, hands)])
    assert {level: (b.bid, b.made, b.went_set) for level, b in figures.by_level.items()} == {
        "50–59": (1, 1, 0), "60–69": (1, 0, 0)}
    assert {trump: (b.bid, b.made) for trump, b in figures.by_trump.items()} == {"♥": (1, 1)}
    assert figures.set_rate == 0
    assert (figures.from_meld, figures.from_tricks, figures.lost_on_sets) == (55, 54, 125)
    assert figures.best[0][:3] == (60, 1, 1)
    partners = side_figures([side_game(1, DD, hands, seat=None)])
    assert partners.all_bids.bid == 3 and partners.set_rate == 0.5


def test_levels_follow_the_scale_and_runs_go_across_games():
    made = Hand(0, 250, (100, 0), (200, 50), trump="C", bidder_seat=0)
    games = [side_game(1, SD, [made, made], won=True), side_game(2, SD, [made], won=True),
             side_game(3, SD, [Hand(0, 260, (50, 0), (100, 150), bidder_seat=0)])]  # set: 150 of 260
    figures = side_figures(games)
    assert {level: (b.bid, b.made, b.went_set) for level, b in figures.by_level.items()} == {"200–290": (4, 3, 1)}
    assert (figures.longest_made_run, figures.longest_winning_run) == (3, 2)
    assert figures.set_rate == 0.25


def test_meld_not_on_the_board_is_not_counted_as_meld():
    hands = [Hand(0, 50, (18, 30), (50, 0), bidder_seat=0)]  # 18 not on the board: +50 is all tricks
    figures = side_figures([side_game(1, DD, hands)])
    assert (figures.from_meld, figures.from_tricks) == (0, 50)


def test_no_games_no_figures():
    figures = side_figures([])
    assert figures.games == 0 and figures.set_rate is None and figures.best == []
