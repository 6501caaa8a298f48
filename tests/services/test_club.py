"""Club nights through the service layer: registering, starting rounds, tables that record, confirm and end,
what the director may change, and the standings, all without HTTP."""

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import club
from scorepad.store import clubs, games, players
from tests.services.helpers import everything, new_night

RULES = PRESETS["double-deck"]
NAMES = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou", "Max"]
WIN_0 = Hand(0, 50, (20, 0), (30, 20), trump="H")  # the team of North and South: 50 to 20
WIN_1 = Hand(1, 60, (10, 40), (10, 40), trump="S")  # the team of East and West: 80 to 10
TIE = Hand(0, 50, (20, 30), (30, 20), trump="H")  # 50 to 50


def night(db, kind="progressive", entrants=NAMES[:12], rounds=2, end="hands", size=1):
    return new_night(db, entrants, kind=kind, rules=RULES, end=end, size=size, rounds=rounds)


def play(db, table, hand):
    change = services.record_hand(db, table.game_id, hand, token=f"t{table.id}-{table.hands_count}",
                                  expected=table.hands_count + 1, repeat_ok=True)
    return change


def round_tables(db, night_id, number):
    return clubs.tables(db, night_id, number)


def test_starting_a_round_seats_every_table_as_a_game_by_the_movement(db):
    night_id = night(db)
    assert club.start_round(db, night_id) == 1
    tables = round_tables(db, night_id, 1)
    assert [t.players for t in tables] == [tuple(NAMES[i:i + 4]) for i in (0, 4, 8)]
    game = games.load_game(db, tables[0].game_id)
    assert game.teams == ("Al & Cy", "Bo & Di") and game.rules.hands_limit == 1


def test_a_partners_night_seats_each_team_opposite_its_partner(db):
    night_id = night(db, "partners", [("Al", "Cy"), ("Bo", "Di")])
    club.start_round(db, night_id)
    game = games.load_game(db, round_tables(db, night_id, 1)[0].game_id)
    assert game.players == ("Al", "Bo", "Cy", "Di") and game.teams == ("Al & Cy", "Bo & Di")


REFUSED_REGISTRATIONS = [
    ("a player twice", "progressive", [("Al",), ("al",)], {"player_0"}),
    ("a team of one", "partners", [("Al",)], {"player_1"}),
    ("a team of one person twice", "partners", [("Al", "AL")], {"player_1"}),
]


@pytest.mark.parametrize(("kind", "sent", "fields"), [r[1:] for r in REFUSED_REGISTRATIONS],
                         ids=[r[0] for r in REFUSED_REGISTRATIONS])
def test_a_refused_registration_says_which_name_and_stores_nothing(db, kind, sent, fields):
    night_id = night(db, kind, entrants=sent[:-1])
    before = everything(db)
    with pytest.raises(services.Refused) as refused:
        club.register(db, night_id, sent[-1])
    assert set(refused.value.errors) == fields
    assert everything(db) == before


def test_nobody_registers_once_the_last_round_has_started(db):
    night_id = night(db, rounds=1)
    club.start_round(db, night_id)
    before = everything(db)
    with pytest.raises(services.Conflict, match="no round left"):
        club.register(db, night_id, ("Max",))
    assert everything(db) == before


def test_the_next_round_waits_for_every_table_and_then_moves_the_players(db):
    night_id = night(db)
    club.start_round(db, night_id)
    first = round_tables(db, night_id, 1)
    play(db, first[0], WIN_0)
    play(db, first[1], WIN_1)
    before = everything(db)
    with pytest.raises(services.Conflict, match="Table 3 is still playing"):
        club.start_round(db, night_id)
    assert everything(db) == before
    play(db, first[2], WIN_0)
    assert club.start_round(db, night_id, unconfirmed="Played on before the scores were confirmed") == 2
    assert all(t.ended_at and t.score == t.totals for t in round_tables(db, night_id, 1))
    second = round_tables(db, night_id, 2)
    # North stays; the others move so that nobody meets a partner or an opponent again (with three tables the
    # fixed plan alone, East up one, South down one, West up two, would have seated Gus and Hal together again)
    assert second[0].players == ("Al", "Cy", "Gus", "Kit")


def test_a_player_at_the_table_confirms_once_and_then_the_game_takes_no_more_changes(db):
    night_id = night(db)
    club.start_round(db, night_id)
    table = round_tables(db, night_id, 1)[0]
    bo = players.player_for(db, "Bo")
    with pytest.raises(services.Conflict):
        club.confirm(db, table.id, bo)  # still playing
    play(db, table, WIN_0)
    with pytest.raises(services.Refused):
        club.confirm(db, table.id, players.player_for(db, "Ed"))  # another table's player
    assert club.confirm(db, table.id, bo) == club.Confirmed(night_id, 1)
    assert club.confirm(db, table.id, bo).already
    hand_id = games.live_hands(db, table.game_id)[0].id
    with pytest.raises(services.GameIsOver, match="only the club night's director"):
        services.delete_hand(db, table.game_id, hand_id)
    with pytest.raises(services.GameIsOver):
        services.edit_hand(db, table.game_id, hand_id, WIN_1)


CONFIRMERS = [
    ("the side that won is refused", WIN_0, "Al", False),
    ("its partner too", WIN_0, "Cy", False),
    ("an opponent confirms", WIN_0, "Di", True),
    ("after the other side won, the first side confirms", WIN_1, "Cy", True),
    ("after the other side won, it is refused", WIN_1, "Bo", False),
    ("after a tie, North and South", TIE, "Al", True),
    ("after a tie, East and West", TIE, "Di", True),
]


@pytest.mark.parametrize(("hand", "who", "allowed"), [c[1:] for c in CONFIRMERS], ids=[c[0] for c in CONFIRMERS])
def test_only_a_player_of_the_side_that_did_not_win_confirms_the_tables_score(db, hand, who, allowed):
    night_id = night(db, end="time", size=50)
    club.start_round(db, night_id)
    table = round_tables(db, night_id, 1)[0]
    if hand:
        play(db, table, hand)
    club.end_round(db, night_id)
    if allowed:
        assert club.confirm(db, table.id, players.player_for(db, who)) == club.Confirmed(night_id, 1)
        return
    before = everything(db)
    waiting = "Bo or Di" if hand is WIN_0 else "Al or Cy"
    with pytest.raises(services.Refused, match=f"waiting for {waiting} to confirm"):
        club.confirm(db, table.id, players.player_for(db, who))
    assert everything(db) == before


def test_only_the_director_changes_a_confirmed_score_and_the_change_is_kept(db):
    night_id = night(db)
    club.start_round(db, night_id)
    table = round_tables(db, night_id, 1)[0]
    play(db, table, WIN_0)
    club.confirm(db, table.id, players.player_for(db, "Bo"))
    club.change_result(db, night_id, table.id, (40, 60), "Counted again")
    changed = round_tables(db, night_id, 1)[0]
    assert (changed.score, changed.winner) == ((40, 60), 1)
    assert [(c["before_0"], c["before_1"], c["after_0"], c["after_1"], c["note"])
            for c in clubs.result_changes(db, night_id)[table.id]] == [(50, 20, 40, 60, "Counted again")]


def test_the_directors_clock_ends_every_table_where_it_stands(db):
    night_id = night(db, end="time", size=50)
    club.start_round(db, night_id)
    tables = round_tables(db, night_id, 1)
    play(db, tables[0], WIN_1)
    assert club.end_round(db, night_id) == 3
    ended = round_tables(db, night_id, 1)
    # the two tables that played no hand keep no score: they are no game (see test_club_year.py)
    assert [(t.score, t.winner, t.ended_how) for t in ended] == [((0, 80), 1, "clock"), (None, None, "clock"),
                                                                 (None, None, "clock")]
    with pytest.raises(services.GameIsOver):
        play(db, ended[1], WIN_0)


def test_standings_match_a_hand_calculation_with_a_bye_worth_the_winners_average(db):
    teams = [("Al", "Bo"), ("Cy", "Di"), ("Ed", "Flo")]  # 3 teams: two tables, one of them a bye
    night_id = night(db, "partners", teams, rounds=1)
    club.start_round(db, night_id)
    (table,) = round_tables(db, night_id, 1)
    play(db, table, WIN_0)  # Al & Bo 50, Cy & Di 20; Ed & Flo, the last registered, sit out first
    made = clubs.load_night(db, night_id)
    places = [(p.rank, p.name, p.wins, p.points, p.byes) for p in club.night_standings(db, made)]
    assert places == [(1, "Al & Bo", 1, 50, 0), (1, "Ed & Flo", 1, 50, 1), (3, "Cy & Di", 0, 20, 0)]


def test_a_phone_learns_its_players_seat_partner_and_opponents(db):
    night_id = night(db, entrants=NAMES[:13])
    made = clubs.load_night(db, night_id)
    assert club.seat_of(db, made, players.player_for(db, "Al")) is None  # before the first round
    club.start_round(db, night_id)
    made = clubs.load_night(db, night_id)
    seat = club.seat_of(db, made, players.player_for(db, "Flo"))
    assert (seat.round, seat.table.table_no, seat.seat, seat.partner, seat.opponents) == \
        (1, 2, "East", "Hal", ("Ed", "Gus"))
    assert club.seat_of(db, made, players.player_for(db, "Max")).table is None  # the bye


CREATE_REFUSALS = [
    ("no rounds", {"rounds": 0}, "rounds"),
    ("a round of no hands", {"round_size": 0}, "round_size"),
    ("an unknown tie break", {"tie_breaks": ("luck",)}, "tie_breaks"),
    ("a format nobody plays", {"kind": "howell"}, "kind"),
]


@pytest.mark.parametrize(("changes", "field"), [r[1:] for r in CREATE_REFUSALS], ids=[r[0] for r in CREATE_REFUSALS])
def test_a_night_that_cannot_be_held_is_refused_beside_its_field(db, changes, field):
    settings = {"name": "Club", "kind": "progressive", "rules": RULES, "round_end": "hands", "round_size": 4,
                "rounds": 3, "tie_breaks": ("wins",), **changes}
    before = everything(db)
    with pytest.raises(services.Refused) as refused:
        club.create_night(db, **settings)
    assert field in refused.value.errors
    assert everything(db) == before


def test_a_closed_night_starts_no_round(db):
    night_id = night(db)
    club.start_round(db, night_id)
    assert club.close_night(db, night_id) is True
    assert club.close_night(db, night_id) is False
    with pytest.raises(services.Conflict):
        club.start_round(db, night_id)


def test_a_tables_game_moves_its_nights_games_version_and_only_its_own_players_seat_cards(db):
    night_id = night(db)
    club.start_round(db, night_id)
    version, games_version = clubs.night_version(db, night_id)
    al, ed = players.player_for(db, "Al"), players.player_for(db, "Ed")
    cards = {p: clubs.seat_etag(db, night_id, p) for p in (al, ed)}
    play(db, round_tables(db, night_id, 1)[0], WIN_0)  # Al's table
    after = clubs.night_version(db, night_id)
    assert after[0] == version and after[1] > games_version
    assert clubs.seat_etag(db, night_id, al) != cards[al]
    assert clubs.seat_etag(db, night_id, ed) == cards[ed]
    club.confirm(db, round_tables(db, night_id, 1)[0].id, players.player_for(db, "Bo"))
    assert clubs.night_version(db, night_id)[0] > version
    assert clubs.seat_etag(db, night_id, ed) != cards[ed]  # the night moved on: every card is sent again


def test_a_bye_waits_for_the_rounds_last_table_before_it_counts(db):
    teams = [("Al", "Bo"), ("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal"), ("Ida", "Jo")]  # two tables and a bye
    night_id = night(db, "partners", teams, rounds=1)
    club.start_round(db, night_id)
    first, second = round_tables(db, night_id, 1)
    made = clubs.load_night(db, night_id)

    def bye():
        return next((p.wins, p.points) for p in club.night_standings(db, made) if p.byes)
    play(db, first, WIN_0)  # 50 to 20
    assert bye() == (0, 0)
    play(db, second, WIN_1)  # 0 to 80: the winners average (50 + 80) / 2
    assert bye() == (1, 65)


STALE_PAGES = [
    ("start the round that started", lambda db, n: club.start_round(db, n, 2), "Round 2 has already started"),
    ("end a round that is over", lambda db, n: club.end_round(db, n, 1), "round 2 was not ended"),
    ("close from a page of round 1", lambda db, n: club.close_night(db, n, 1), "the night was not closed"),
]


@pytest.mark.parametrize(("act", "said"), [s[1:] for s in STALE_PAGES], ids=[s[0] for s in STALE_PAGES])
def test_a_button_of_a_page_that_showed_another_round_is_refused_and_changes_nothing(db, act, said):
    night_id = night(db)
    club.start_round(db, night_id, 1)
    for table in round_tables(db, night_id, 1):
        play(db, table, WIN_0)
    club.start_round(db, night_id, 2, unconfirmed="Played on")
    before = everything(db)
    with pytest.raises(services.Conflict, match=said):
        act(db, night_id)
    assert everything(db) == before


def test_five_teams_sit_at_two_tables_and_the_fifth_has_the_bye(db):
    night_id = night(db, "partners", [("Al", "Cy"), ("Bo", "Di"), ("Ed", "Flo"), ("Gus", "Hal"), ("Ida", "Jo")])
    made = clubs.load_night(db, night_id)
    assert club.table_count(db, made) == 2 and club.round_byes(db, made) == []
    club.start_round(db, night_id)
    made = clubs.load_night(db, night_id)
    seated = {number for t in round_tables(db, night_id, 1) for number in t.entrants}
    (bye,) = club.round_byes(db, made)
    assert bye.number not in seated and len(seated) == 4
    assert club.seat_of(db, made, bye.player_ids[0]).bye == bye.name
