
"""The ratings fold: openskill over finished games in order. A player who always wins rises, partners share the
credit, the same games always give the same ratings, and a rating says how sure it is."""

import random
import re
import subprocess
import sys
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.core.ratings import NOT_SURE, START_MU, RatedGame, Rating, confidence, fold, ladder, places


@pytest.mark.parametrize(("totals", "winner", "expected"), [
    ((520, 300), 0, (0, 1)),
    ((300, 520), 1, (1, 0)),
    ((480, 510), 0, (0, 1)),            # the bidders went out below the others' total: they won
    ((500, 500), None, (0, 0)),         # a club table tied: a draw
    ((510, 300, 400), 0, (0, 2, 1)),    # three sides: the winner, then by total
    ((510, 300, 300), 0, (0, 1, 1)),    # the two behind tied: one place
    ((300, 300, 200), None, (0, 0, 2)),
])
def test_places_put_the_winner_first_then_the_others_by_total(totals, winner, expected):
    assert places(totals, winner) == expected


def game(n: int, winners, losers, at: str | None = None) -> RatedGame:
    return RatedGame(n, at or f"2026-01-01T00:{n // 60:02d}:{n % 60:02d}", (tuple(winners), tuple(losers)), (0, 1))


def history(seed: int, games: int, champion: int = 0, players: int = 8) -> list[RatedGame]:
    """Partnerships drawn at random from `players`, the champion always on the winning side."""
    rng = random.Random(seed)
    made = []
    for n in range(games):
        four = rng.sample(range(players), 4)
        if champion in four:
            four.remove(champion)
            four.insert(rng.choice((0, 1)), champion)
        first, second = four[:2], four[2:]
        won_first = champion in first if champion in four else rng.random() < 0.5
        made.append(game(n, *(first, second) if won_first else (second, first)))
    return made


@pytest.mark.parametrize("seed", range(5))
def test_a_player_who_always_wins_rises_with_every_game_and_tops_the_ladder(seed):
    games = history(seed, 120)
    folded = fold(games)
    mus = [step.mu for step in folded.history(0)]
    assert mus[0] > START_MU and all(later > earlier for earlier, later in pairwise(mus))
    assert ladder(folded)[0][0] == 0
    assert folded.now[0].games == len(mus)


def test_partners_who_both_start_fresh_move_the_same_on_a_win_and_the_losers_the_same_down():
    after = fold([game(1, (1, 2), (3, 4))]).now
    assert after[1] == after[2] and after[3] == after[4]
    assert after[1].mu - START_MU == pytest.approx(START_MU - after[3].mu)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=40))
def test_partners_who_always_sit_together_share_every_win_and_loss(results):
    """Ann and Bob partner each other in every game, against changing opponents: their ratings never part."""
    games = [game(n, (1, 2), (3 + n % 3, 6 + n % 2)) if won else game(n, (3 + n % 3, 6 + n % 2), (1, 2))
             for n, won in enumerate(results)]
    now = fold(games).now
    assert now[1].mu == pytest.approx(now[2].mu) and now[1].sigma == pytest.approx(now[2].sigma)


def test_a_winning_partner_gains_what_their_uncertainty_says_more_for_the_less_known():
    """Credit is shared by how much is known of each partner: the newcomer beside a regular moves more."""
    regular = fold(history(3, 60, champion=99))
    newcomer = 100
    after = fold([game(1000, (0, newcomer), (1, 2))], regular)
    gained_regular = after.now[0].mu - regular.now[0].mu
    gained_newcomer = after.now[newcomer].mu - START_MU
    assert 0 < gained_regular < gained_newcomer


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60), st.integers(0, 60))
def test_the_same_games_always_fold_to_the_same_ratings_at_once_or_in_two_goes(seed, count, cut):
    games = history(seed, count, champion=-1)
    once = fold(games)
    assert fold(games) == once
    split = min(cut, count)
    start = fold(games[:split])
    histories = {player: start.history(player) for player in start.now}
    in_two = fold(games[split:], start)
    assert in_two == once
    assert all(in_two.history(player) == once.history(player) for player in once.now)
    # going on from a fold leaves it as it was: another thread may be reading it
    assert {player: start.history(player) for player in start.now} == histories


def test_changing_one_early_result_moves_every_later_rating():
    games = history(7, 30, champion=-1)
    flipped = [RatedGame(g.game_id, g.finished_at, g.sides, tuple(1 - p for p in g.places)) if i == 0 else g
               for i, g in enumerate(games)]
    before, after = fold(games), fold(flipped)
    assert before.now != after.now
    moved = set(games[0].sides[0] + games[0].sides[1])
    assert all(before.now[p] != after.now[p] for p in moved)


def test_three_players_on_their_own_are_three_sides_and_a_tie_for_second_is_one_place():
    folded = fold([RatedGame(1, "2026-01-01", ((1,), (2,), (3,)), (0, 1, 1))]).now
    assert folded[1].mu > START_MU > folded[2].mu
    assert folded[2] == folded[3]


def test_a_side_with_nobody_or_a_game_of_one_side_rates_nothing():
    assert fold([RatedGame(1, "x", ((1,), ()), (0, 1)), RatedGame(2, "x", ((1, 2),), (0,))]).now == {}


@pytest.mark.parametrize(("sigma", "words"), [
    (8.3, NOT_SURE), (7.0, NOT_SURE), (6.99, "a first guess"), (5.0, "a first guess"), (4.99, "fairly sure"),
    (3.5, "fairly sure"), (3.49, "sure"), (1.0, "sure"),
])
def test_a_rating_says_how_sure_it_is_by_its_sigma(sigma, words):
    assert confidence(sigma) == words


def test_a_player_with_few_games_is_not_sure_yet_and_unranked_below_the_sure():
    folded = fold(history(1, 200, champion=-1, players=8) + [game(500, (40, 41), (42, 43))])
    assert folded.now[40].shown == f"{folded.now[40].mu:.1f}, not sure yet after 1 game"
    order = [player for player, _ in ladder(folded)]
    assert set(order[-4:]) == {40, 41, 42, 43}
    assert all(folded.now[p].sure for p in order[:-4])


def test_a_rating_reads_as_its_number_its_words_and_its_games():
    assert Rating(27.345, 4.2, 48).shown == "27.3, fairly sure after 48 games"
    assert Rating(27.345, 4.2, 48).spread == pytest.approx(8.4)


def test_a_ladder_of_chosen_players_leaves_the_others_out():
    folded = fold(history(2, 50, champion=0))
    assert [p for p, _ in ladder(folded, [3, 0, 99])] == [0, 3]


def test_the_ratings_import_nothing_of_flask_or_the_database():
    code = ("import sys, scorepad.core.ratings; bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'flask', 'werkzeug', 'sqlite_utils', 'sqlite3', 'jinja2'}); print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_rating_chart_of_a_thousand_games_draws_at_most_its_most_points_with_the_first_and_last():
    from scorepad.core.chart import MOST_POINTS, rating_chart
    steps = [(25 + n / 100, 8 - n / 200) for n in range(1000)]
    svg = rating_chart(steps, (25.0, 25 / 3))
    line = svg.split('<polyline class="line team-0" points="')[1].split('"')[0].split()
    assert len(line) == MOST_POINTS
    assert line[-1].startswith("348.0,") and line[0].startswith("56.0,")
    assert "over 1000 games" in svg


def test_a_rating_chart_never_labels_its_axis_minus_zero():
    from scorepad.core.chart import rating_chart
    svg = rating_chart([(-0.4, 1.0), (0.3, 1.0), (2.0, 1.0)], (-0.2, 3.0))  # ticks at about 0
    ticks = re.findall(r'text-anchor="end">(-?\d+)</text>', svg)
    assert ticks and "-0" not in ticks, ticks
