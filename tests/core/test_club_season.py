
"""A season's standings across nights and the specials' prize list, in the core: tables of cases and properties."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.core.club import ClubError, NightScore, counted_nights, prize_list, season_standings, shown_by


def S(night, who, wins, points):
    return NightScore(night, who, wins, points)


def ranks(table):
    return [(row.rank, row.entrant, row.wins, row.points) for row in table]


@pytest.mark.parametrize("scores, best_of, min_nights, expected", [
    # wins first, then points: Bo's two wins beat Ann's one, whatever the points
    ([S(1, "Ann", 1, 900), S(1, "Bo", 2, 300)], None, 1, [(1, "Bo", 2, 300), (2, "Ann", 1, 900)]),
    # level on wins: points decide
    ([S(1, "Ann", 2, 500), S(2, "Ann", 0, 100), S(1, "Bo", 1, 200), S(2, "Bo", 1, 300)], None, 1,
     [(1, "Ann", 2, 600), (2, "Bo", 2, 500)]),
    # level on both: they share the rank, the next is third
    ([S(1, "Ann", 1, 300), S(1, "Bo", 1, 300), S(1, "Cy", 0, 100)], None, 1,
     [(1, "Ann", 1, 300), (1, "Bo", 1, 300), (3, "Cy", 0, 100)]),
    # best 2 of 3: Ann's worst night (0 wins) is dropped
    ([S(1, "Ann", 0, 900), S(2, "Ann", 2, 400), S(3, "Ann", 1, 300), S(1, "Bo", 2, 400), S(2, "Bo", 1, 350)], 2, 1,
     [(1, "Bo", 3, 750), (2, "Ann", 3, 700)]),
    # at least two nights to be ranked: Cy's one great night is listed after, unranked
    ([S(1, "Cy", 4, 2000), S(1, "Ann", 1, 300), S(2, "Ann", 1, 200)], None, 2,
     [(1, "Ann", 2, 500), (None, "Cy", 4, 2000)]),
])
def test_season_standings_rank_wins_then_points_over_the_nights_that_count(scores, best_of, min_nights, expected):
    assert ranks(season_standings(scores, best_of, min_nights)) == expected


def test_of_two_nights_alike_the_earlier_counts():
    nights = [S(3, "Ann", 1, 300), S(1, "Ann", 1, 300), S(2, "Ann", 0, 10)]
    assert [s.night for s in counted_nights(nights, 1)] == [1]
    assert [s.night for s in counted_nights(nights, 2)] == [1, 3]


@pytest.mark.parametrize("best_of, min_nights", [(0, 1), (201, 1), (None, 0), (None, 201)])
def test_settings_out_of_range_are_refused(best_of, min_nights):
    with pytest.raises(ClubError):
        season_standings([S(1, "Ann", 1, 1)], best_of, min_nights)


def test_an_entrant_twice_in_one_night_is_refused():
    with pytest.raises(ClubError, match="two results"):
        season_standings([S(1, "Ann", 1, 1), S(1, "Ann", 0, 5)])


scores = st.lists(st.builds(S, st.integers(1, 6), st.sampled_from("ABCDEFG"), st.integers(0, 5),
                            st.integers(-500, 2000)), max_size=40).map(
    lambda found: list({(s.night, s.entrant): s for s in found}.values()))


@given(scores, st.one_of(st.none(), st.integers(1, 6)), st.integers(1, 6))
def test_every_entrant_once_ranked_ones_first_in_order_with_shared_ranks(found, best_of, min_nights):
    table = season_standings(found, best_of, min_nights)
    assert sorted(row.entrant for row in table) == sorted({s.entrant for s in found})
    ranked = [row for row in table if row.rank is not None]
    assert table[:len(ranked)] == ranked and all(row.played < min_nights for row in table[len(ranked):])
    assert all(row.played >= min_nights for row in ranked)
    for before, after in pairwise(ranked):
        assert (before.wins, before.points) >= (after.wins, after.points)
        assert after.rank == (before.rank if (before.wins, before.points) == (after.wins, after.points)
                              else ranked.index(after) + 1)


@given(scores, st.integers(1, 6))
def test_best_n_counts_n_nights_and_never_less_than_any_other_n(found, best_of):
    for row in season_standings(found, best_of):
        mine = [s for s in found if s.entrant == row.entrant]
        assert len(row.counted) == min(best_of, len(mine))
        others = sorted(((s.wins, s.points) for s in mine), reverse=True)[:best_of]
        assert row.wins == sum(w for w, _ in others)


@pytest.mark.parametrize("cards, trump, shown", [
    ("QS QS JD JD", "H", ("double_pinochle",)),
    ("QS JD QS", "H", ()),
    ("AS AS AH AH AD AD AC AC", "S", ("double_aces",)),
    ("AS AH AD AC AS AH AD", "S", ()),
    ("AH AH TH TH KH KH QH QH JH JH", "H", ("double_run",)),
    ("AH AH TH TH KH KH QH QH JH JH", "S", ()),  # a double run is in trump
    ("AS AS AH AH AD AD AC AC QS QS JD JD TS TS KS KS JS JS", "S", ("double_pinochle", "double_aces", "double_run")),
])
def test_the_cards_show_the_specials_they_hold(cards, trump, shown):
    assert shown_by(cards, trump) == shown


def test_a_prize_list_names_the_first_places_and_each_special_chosen():
    prizes = prize_list([(1, "Aces"), (2, "Kings"), (2, "Jacks"), (4, "Nines")],
                        ("double_pinochle", "high_game", "high_series"),
                        [("Ann", "double_pinochle"), ("Bo", "double_pinochle"), ("Ann", "double_pinochle"),
                         ("Bo", "double_aces")],
                        [("Ann", 300), ("Cy", 420), ("Di", 420)], [("Ann", 900), ("Cy", 880)])
    assert [(p.what, p.holders, p.figure) for p in prizes] == [
        ("First place", ("Aces",), None), ("Second place", ("Kings", "Jacks"), None),
        ("Double pinochle", ("Ann",), 2), ("High game", ("Cy", "Di"), 420), ("High series", ("Ann",), 900)]


def test_a_special_nobody_holds_is_listed_empty():
    prize = prize_list([], ("double_run",), [], [], [])
    assert [(p.what, p.holders, p.figure) for p in prize] == [("Double run", (), None)]
