"""Who is who at a club night: a name claimed on one phone cannot be claimed on another until the director
releases it; and a night keeps the movement version it was made with."""

import pytest

from scorepad import services
from scorepad.core.club import LATEST
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import club
from scorepad.store import clubs, connection, players

NAMES = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]
WIN_1 = Hand(1, 60, (10, 40), (10, 40), trump="S")  # the team of East and West: 80 to 10


def night(db, kind="progressive", entrants=NAMES, rounds=2):
    made = club.create_night(db, name="Club", kind=kind, rules=PRESETS["double-deck"], round_end="hands",
                             round_size=1, rounds=rounds, tie_breaks=("wins", "points"))
    for entrant in entrants:
        club.register(db, made.id, entrant if isinstance(entrant, tuple) else (entrant,))
    return made.id


def play(db, table, hand):
    services.record_hand(db, table.game_id, hand, token=f"t{table.id}-{table.hands_count}",
                         expected=table.hands_count + 1, repeat_ok=True)


def round_tables(db, night_id, number):
    return clubs.tables(db, night_id, number)


def ids(db, *names):
    return [players.player_for(db, name) for name in names]


def test_a_name_claimed_on_one_phone_is_refused_on_another_until_the_director_releases_it(db):
    night_id = night(db)
    (al,) = ids(db, "Al")
    assert club.claim_name(db, night_id, al, "phone-a") == "Al"
    assert club.claim_name(db, night_id, al, "phone-a") == "Al"  # the same phone again: nothing changes
    before = clubs.claims(db, night_id)
    with pytest.raises(services.Conflict) as refused:
        club.claim_name(db, night_id, al, "phone-b")
    assert str(refused.value) == "Al is already claimed on another phone; ask the director to release it."
    assert clubs.claims(db, night_id) == before
    assert club.holds(db, night_id, al, "phone-a") and not club.holds(db, night_id, al, "phone-b")
    assert club.release_name(db, night_id, al)
    assert not club.release_name(db, night_id, al)  # released already: nothing to do
    assert not club.holds(db, night_id, al, "phone-a")
    club.claim_name(db, night_id, al, "phone-b")
    assert club.holds(db, night_id, al, "phone-b")


def test_a_phone_follows_one_player_choosing_another_frees_the_first(db):
    night_id = night(db)
    al, bo = ids(db, "Al", "Bo")
    club.claim_name(db, night_id, al, "phone-a")
    club.claim_name(db, night_id, bo, "phone-a")
    assert [c.player_id for c in clubs.claims(db, night_id)] == [bo]
    club.claim_name(db, night_id, al, "phone-b")  # Al is free again


def test_only_a_registered_player_can_be_claimed(db):
    night_id = night(db)
    (max_,) = ids(db, "Max")  # a player, not registered tonight
    with pytest.raises(services.Refused, match="Max is not registered tonight"):
        club.claim_name(db, night_id, max_, "phone-a")
    with pytest.raises(services.NotFound):
        club.claim_name(db, 999, max_, "phone-a")
    assert clubs.claims(db, night_id) == []


def test_the_database_keeps_a_hash_of_the_phones_mark_not_the_mark(db):
    night_id = night(db)
    (al,) = ids(db, "Al")
    club.claim_name(db, night_id, al, "the phone's secret mark")
    (claim,) = clubs.claims(db, night_id)
    assert "secret" not in claim.phone and len(claim.phone) == 64


def test_the_director_sees_each_claimed_name_and_where_its_player_sits(db):
    night_id = night(db, entrants=["Al", "Bo", "Cy", "Di", "Ed"])  # one table and a bye
    al, ed = ids(db, "Al", "Ed")
    club.claim_name(db, night_id, al, "phone-a")
    club.claim_name(db, night_id, ed, "phone-e")
    made = clubs.load_night(db, night_id)
    assert [(c.name, c.where) for c in club.claimed_names(db, made)] == [("Al", ""), ("Ed", "")]
    club.start_round(db, night_id)
    made = clubs.load_night(db, night_id)
    assert [(c.name, c.where) for c in club.claimed_names(db, made)] == [("Al", "Table 1"), ("Ed", "Bye")]


def test_a_phone_whose_name_was_released_cannot_confirm(db):
    night_id = night(db, entrants=["Al", "Bo", "Cy", "Di"], rounds=1)
    al, bo = ids(db, "Al", "Bo")
    club.start_round(db, night_id)
    (table,) = round_tables(db, night_id, 1)
    play(db, table, WIN_1)  # East and West win: North and South confirm
    club.claim_name(db, night_id, al, "phone-a")
    club.release_name(db, night_id, al)
    with pytest.raises(services.Refused, match="released by the director"):
        club.confirm(db, table.id, al, "phone-a")
    club.claim_name(db, night_id, al, "phone-a")
    assert club.confirm(db, table.id, al, "phone-a").table_no == 1


def test_a_new_night_is_seated_by_the_latest_movement(db):
    assert clubs.load_night(db, night(db)).movement == LATEST


def test_a_night_under_way_when_the_movement_changed_is_seated_by_its_own_to_the_end(db):
    """Seven teams, made before version 2 (its row says movement 1): its rounds and byes are version 1's, the
    byes that fell on teams 4, 1, 2 (version 2 gives them to 7, 6, 5)."""
    night_id = night(db, "partners", [(f"A{i}", f"B{i}") for i in range(1, 8)], rounds=3)
    with connection.write_lock(db):
        db.execute("UPDATE club_nights SET movement = 1 WHERE id = ?", [night_id])
    byes = []
    for _ in range(3):
        club.start_round(db, night_id)
        made = clubs.load_night(db, night_id)
        byes.append(tuple(e.number for e in club.round_byes(db, made)))
        club.end_round(db, night_id)
    assert byes == [(4,), (1,), (2,)]
    made = clubs.load_night(db, night_id)
    assert {p.number: p.byes for p in club.night_standings(db, made)} == {1: 1, 2: 1, 3: 0, 4: 1, 5: 0, 6: 0, 7: 0}


def test_the_byes_of_rounds_played_are_read_from_their_tables(db):
    """Who sat a round out is whoever its tables did not seat, as they were made, not what the movement says
    today: here the night's movement is changed under it after its first round (version 1 would have given
    team 4 the bye), and the standings still credit team 7, who sat out."""
    night_id = night(db, "partners", [(f"A{i}", f"B{i}") for i in range(1, 8)], rounds=2)
    club.start_round(db, night_id)
    with connection.write_lock(db):
        db.execute("UPDATE club_nights SET movement = 1 WHERE id = ?", [night_id])
    made = clubs.load_night(db, night_id)
    assert [e.number for e in club.round_byes(db, made)] == [7]
    assert {p.number: p.byes for p in club.night_standings(db, made)}[7] == 1


def test_a_claimed_name_merged_into_another_stays_claimed_by_its_phone_under_the_name_that_stays(db):
    night_id = night(db)
    (al,) = ids(db, "Al")
    club.claim_name(db, night_id, al, "phone-a")
    with connection.write_lock(db):
        albert = players.player_for(db, "Albert")  # plays no night: the merge is allowed
    services.merge_players(db, al, albert)
    assert club.holds(db, night_id, albert, "phone-a")
    assert [c.name for c in clubs.claims(db, night_id)] == ["Albert"]
