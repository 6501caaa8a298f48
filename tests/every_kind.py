"""A database holding every kind of thing Scorepad stores, made through the services as the app makes it: games of
every table size with edited, deleted and restored hands, an abandoned game, a rematch, and club nights (with a
confirmation, the director's corrections, a round stopped on the clock, a closed night, one under way, one not
started). For the tests of whole copies (export and import, backup and restore) to share."""

from dataclasses import replace

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand
from scorepad.services import club, seasons
from scorepad.store import clubs, games
from tests.services.helpers import new_night, record

DD = PRESETS["double-deck"]
SIZES = {
    "two": (PRESETS["two-handed"], Hand(None, None, (80, 20), (150, 100))),
    "three": (PRESETS["three-handed"], Hand(0, 250, (150, 40, 60), (160, 50, 40))),
    "four": (DD, Hand(0, 50, (20, 0), (30, 20), trump="H")),
    "six": (replace(DD, sides=3, players_per_side=2), Hand(0, 50, (30, 20, 20), (30, 10, 10))),
    "eight": (replace(DD, players_per_side=4), Hand(0, 65, (40, 30), (25, 25))),
}
WIN_0 = Hand(0, 50, (20, 0), (30, 20), trump="H")
WIN_1 = Hand(1, 60, (10, 40), (10, 40), trump="S")
NAMES = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def games_of_every_kind(db) -> None:
    for size, (rules, hand) in SIZES.items():
        players = [f"{size.title()} {seat + 1}" for seat in range(rules.players)]
        players[-1] = None  # a seat left empty
        game_id = services.start_game(db, rules, tuple(f"Side {s + 1}" for s in range(rules.sides)), players, 0)
        for _ in range(3):
            record(db, game_id, hand)
        first, second, third = (h.id for h in games.live_hands(db, game_id))
        services.edit_hand(db, game_id, first, replace(hand, meld=(hand.meld[0], hand.meld[1] + 20, *hand.meld[2:])))
        services.delete_hand(db, game_id, second)
        services.delete_hand(db, game_id, third)
        services.restore_hand(db, game_id, third)
        if size == "six":
            services.abandon_game(db, game_id)
    won = services.start_game(db, DD, ("Us", "Them"), ["Ann", "Ben", "Cat", "Dan"], 1)
    while record(db, won, WIN_0).winner is None:
        pass
    services.rematch(db, won)


def night(db, kind, entrants, *, round_end, round_size, rounds):
    return new_night(db, entrants, kind=kind, name=f"{kind.title()} night", end=round_end, size=round_size,
                     rounds=rounds)


def club_nights_of_every_kind(db) -> None:
    # progressive, two rounds of one hand: a confirmation, a round started past a table still to confirm (with the
    # reason) whose result is then corrected, a player who arrives for round 2 (a bye then), a table stopped on
    # the clock before any hand (no game), one the director confirms for its players, a player left out of the
    # ratings, closed
    progressive = night(db, "progressive", [(name,) for name in NAMES], round_end="hands", round_size=1, rounds=2)
    club.start_round(db, progressive)
    first, second = clubs.tables(db, progressive, 1)
    north = db.execute("SELECT seat_0 FROM games WHERE id = ?", [first.game_id]).fetchone()[0]
    seasons.tally_special(db, first.game_id, 1, north, "double_pinochle")  # a special, melded in hand 1
    record(db, first.game_id, WIN_0)
    record(db, second.game_id, WIN_1)
    club.confirm(db, first.id, db.execute("SELECT id FROM players WHERE name = 'Bo'").fetchone()[0])
    club.register(db, progressive, ("Ida",))  # plays from round 2
    club.start_round(db, progressive, unconfirmed="Cy and Di went home before confirming")
    club.change_result(db, progressive, second.id, (10, 90), "Scored on the wrong side.")
    played, _ = clubs.tables(db, progressive, 2)
    record(db, played.game_id, WIN_0)
    club.end_round(db, progressive)
    club.confirm_for_table(db, progressive, played.id)
    club.rate_player(db, progressive, db.execute("SELECT id FROM players WHERE name = 'Al'").fetchone()[0], False)
    club.close_night(db, progressive)
    # a new season, its settings its own; partners on the clock, a round under way with a hand at one table, a
    # team that leaves after it, a bye worth a fixed score
    seasons.new_season(db, "Spring league", 2, 1, ("double_run", "high_game"), improved_min_nights=1,
                       last_place=True, ratings="club", bye_rule="own")
    partners = new_night(db, [("Ida", "Jo"), ("Kit", "Lou"), ("Max", "Ned")], kind="partners", name="Partners night",
                         end="time", size=40, rounds=3, bye_rule="fixed", bye_points=200)
    club.start_round(db, partners)
    record(db, clubs.tables(db, partners, 1)[0].game_id, WIN_1)
    club.leave(db, partners, 3, after=1)
    # registered, not started, its standings to be hidden until revealed
    later = night(db, "progressive", [("Al",), ("Ida",), ("Zed",)], round_end="target", round_size=500, rounds=4)
    club.hide_standings(db, later, True)


def every_kind(db) -> None:
    games_of_every_kind(db)
    club_nights_of_every_kind(db)
