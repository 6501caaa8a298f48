"""A night re-planned when players arrive after the first round or leave after one, by hypothesis over every count
of players and teams, arrivals and departures: everyone present is seated once or sits out, nobody absent is
seated, byes rotate over those present, nobody partners (progressive) or meets (partners) anyone again where a
seating without that is to be had, and a night whose players never change is seated as its movement seats it."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.core.club import ClubError, movement, partners_of
from scorepad.core.club.replan import Stay, plan
from tests.helpers import quick_and_in_full

ROUNDS = 8
# The quick loop tries a few nights of each kind; the full run (`slow`) many more.
SIZED = {"quick": 25, "full": 300, "options": {"deadline": None}}


@st.composite
def nights(draw, kind):
    """(stays, rounds): a night's entrants, some arriving after round 1 and some leaving before the end, never
    fewer present than a table needs."""
    fewest = 4 if kind == "progressive" else 2
    rounds = draw(st.integers(2, ROUNDS))
    count = draw(st.integers(fewest, 24 if kind == "progressive" else 16))
    stays = []
    for entrant in range(1, count + 1):
        first = draw(st.sampled_from([1, 1, 1, 1, *range(2, rounds + 1)]))
        last = draw(st.sampled_from([None, None, None, *range(first, rounds + 1)]))
        stays.append(Stay(entrant, first, last))
    for number in range(1, rounds + 1):
        present = sum(s.present(number) for s in stays)
        if present < fewest:  # too few that round: fill it with more who stay all night
            stays += [Stay(count + k + 1) for k in range(fewest - present)]
            count += fewest - present
    return stays, rounds


def present(stays, number):
    return [s.entrant for s in stays if s.present(number)]


def seated(round_):
    return [p for table in round_.tables for p in dict.fromkeys(table)]


def check_everyone_once_and_byes_rotate(stays, night):
    byes = Counter()
    for number, round_ in enumerate(night, start=1):
        here = present(stays, number)
        assert Counter(seated(round_) + list(round_.byes)) == Counter(here), f"round {number}"
        if round_.byes:
            # the bye goes to those who have sat out the fewest rounds of those present
            assert max(byes[p] for p in round_.byes) <= min(byes[p] for p in seated(round_)), f"round {number}"
        byes.update(round_.byes)


def fewest_repeats(teams, met) -> int:
    """The fewest meetings again of any pairing of `teams` (brute force)."""
    if not teams:
        return 0
    first, rest = teams[0], teams[1:]
    return min(met[frozenset((first, other))] + fewest_repeats([t for t in rest if t != other], met)
               for other in rest)


@quick_and_in_full(**SIZED, night=nights("partners"))
def test_a_partners_night_replanned_seats_everyone_present_once_and_pairs_the_fewest_meetings_again(night):
    stays, rounds = night
    planned = plan("partners", stays, rounds)
    check_everyone_once_and_byes_rotate(stays, planned)
    met = Counter()
    for round_ in planned:
        teams = seated(round_)
        again = sum(met[frozenset(table)] for table in round_.tables)
        if len(teams) <= 10:
            assert again == fewest_repeats(teams, met)
        met.update(frozenset(table) for table in round_.tables)


def fewest_partners_again(players, met) -> int:
    """The fewest partnerships again of any pairing of `players` into partners (brute force)."""
    if not players:
        return 0
    first, rest = players[0], players[1:]
    return min(met[frozenset((first, other))] + fewest_partners_again([p for p in rest if p != other], met)
               for other in rest)


@quick_and_in_full(**SIZED, night=nights("progressive"))
def test_a_progressive_night_replanned_seats_everyone_present_once_and_repeats_no_partner_it_can_avoid(night):
    stays, rounds = night
    planned = plan("progressive", stays, rounds)
    check_everyone_once_and_byes_rotate(stays, planned)
    met = Counter()
    for number, round_ in enumerate(planned, start=1):
        players = seated(round_)
        again = sum(met[pair] for table in round_.tables for pair in partners_of(table))
        if len(players) <= 8:
            assert again == fewest_partners_again(players, met), f"round {number}"
        elif number <= 4:
            assert again == 0, f"round {number}: at most three partners each so far, and many to choose from"
        met.update(pair for table in round_.tables for pair in partners_of(table))


@settings(max_examples=15, deadline=None)
@given(kind=st.sampled_from(["progressive", "partners"]), count=st.integers(4, 30), rounds=st.integers(1, 10))
def test_a_night_whose_players_never_change_is_seated_as_its_movement_seats_it(kind, count, rounds):
    assert plan(kind, [Stay(n) for n in range(1, count + 1)], rounds) == movement(kind, range(1, count + 1), rounds)


@quick_and_in_full(**SIZED, night=nights("progressive"), data=st.data())
def test_the_rounds_played_stay_as_they_were_and_the_plan_goes_on_from_them(night, data):
    """Planning again after some rounds are played keeps those rounds and plans the rest exactly as the whole
    plan did: a chart printed at the start holds until someone else arrives or leaves."""
    stays, rounds = night
    whole = plan("progressive", stays, rounds)
    done = data.draw(st.integers(0, rounds))
    assert plan("progressive", stays, rounds, played=whole[:done]) == whole


def test_an_arrival_does_not_sit_out_the_round_they_arrive_for_while_others_have_not():
    """Nine play; a tenth arrives for round 3: two sit out from then, those who have played most first."""
    stays = [Stay(n) for n in range(1, 10)] + [Stay(10, 3)]
    night = plan("progressive", stays, 6)
    assert 10 not in night[2].byes and 10 in seated(night[2])


def test_a_round_with_too_few_to_fill_a_table_is_refused():
    with pytest.raises(ClubError, match="a table needs four players"):
        plan("progressive", [Stay(1), Stay(2), Stay(3), Stay(4, 1, 1)], 3)
    with pytest.raises(ClubError, match="two teams"):
        plan("partners", [Stay(1), Stay(2, 1, 1)], 2)


def test_nobody_meets_a_team_again_after_a_pair_of_teams_swap_in_round_three():
    """Six teams; the last two leave after round 2 and two new ones come: the new ones meet whoever they have not."""
    stays = [Stay(n) for n in range(1, 5)] + [Stay(5, 1, 2), Stay(6, 1, 2), Stay(7, 3), Stay(8, 3)]
    night = plan("partners", stays, 5)
    met = Counter(frozenset(table) for round_ in night for table in round_.tables)
    assert max(met.values()) == 1
