"""Merging two names of one person when club nights know them: refused while both are registered in one night
(it would hold the same person twice), and otherwise the night names its entrant by the name that stays."""

import pytest

from scorepad import services
from scorepad.services import club
from scorepad.store import clubs
from scorepad.store import players as store_players
from tests.services.helpers import everything, new_night

HELD_ON = "2026-11-01T18:00:00+00:00"  # the evening of 1 Nov wherever the table is, from UTC-12 to UTC+12


def night(db, entrants, kind="progressive", name="Friday club"):
    night_id = new_night(db, entrants, kind=kind, name=name)
    db.execute("UPDATE club_nights SET created_at = ? WHERE id = ?", [HELD_ON, night_id])
    return night_id


def pid(db, name):
    return store_players.player_for(db, name)


BOTH_REGISTERED = [
    ("two players of a progressive night", "progressive", [("Ann",), ("Annie",), ("Bo",), ("Cy",)], False),
    ("the same at one table once it started", "progressive", [("Ann",), ("Annie",), ("Bo",), ("Cy",)], True),
    ("the two partners of one team", "partners", [("Ann", "Annie"), ("Bo", "Cy")], False),
    ("players of two teams", "partners", [("Ann", "Bo"), ("Annie", "Cy")], False),
]


@pytest.mark.parametrize(("kind", "entrants", "started"), [b[1:] for b in BOTH_REGISTERED],
                         ids=[b[0] for b in BOTH_REGISTERED])
def test_two_names_registered_in_one_night_are_not_merged_and_the_refusal_names_the_night(db, kind, entrants,
                                                                                         started):
    night_id = night(db, entrants, kind)
    if started:
        club.start_round(db, night_id)
    db.conn.commit()
    before = everything(db)
    with pytest.raises(services.CannotMerge) as refused:
        services.merge_players(db, pid(db, "Annie"), pid(db, "Ann"))
    assert refused.value.errors == {
        "into": "Annie and Ann cannot be merged: both are registered in the club night Friday club (1 Nov)"}
    assert refused.value.status_hint == 409
    assert everything(db) == before


def entrant_names(db, night_id):
    return [e.name for e in clubs.entrants(db, night_id)]


def test_names_registered_in_different_nights_merge_and_each_night_shows_the_name_that_stays(db):
    first = night(db, [("Ann",), ("Bo",)])
    second = night(db, [("Annie",), ("Cy",)], name="Saturday club")
    services.merge_players(db, pid(db, "Annie"), pid(db, "Ann"))
    assert entrant_names(db, first) == ["Ann", "Bo"] and entrant_names(db, second) == ["Ann", "Cy"]
    assert [n.name for n in clubs.nights_of_player(db, pid(db, "Ann"))] == ["Saturday club", "Friday club"]


MERGED_TEAMS = [
    ("a team called by its two names", ("Annie", "Bo"), "", "Ann & Bo"),
    ("the second of a team called by its two names", ("Bo", "Annie"), "", "Bo & Ann"),
    ("a team with a name of its own", ("Annie", "Bo"), "The Aces", "The Aces"),
]


@pytest.mark.parametrize(("players", "team", "shown"), [m[1:] for m in MERGED_TEAMS], ids=[m[0] for m in MERGED_TEAMS])
def test_a_registered_name_merged_into_one_that_is_not_registered_names_the_entrant_after_it(db, players, team,
                                                                                            shown):
    made = night(db, [], kind="partners")
    club.register(db, made, players, team)
    pid(db, "Ann")
    services.merge_players(db, pid(db, "Annie"), pid(db, "Ann"))
    (entrant,) = clubs.entrants(db, made)
    assert entrant.name == shown and "Ann" in entrant.player_names and "Annie" not in entrant.player_names
