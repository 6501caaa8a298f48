"""A club's whole year through the service layer: rounds started with tables still to confirm, any round corrected,
players who arrive late or leave early, tables that never played, names registered twice, what a bye is worth,
and the smaller things a director meets. Each refusal stores nothing."""

import pytest

from scorepad import services
from scorepad.core.rules import PRESETS
from scorepad.services import club, seasons
from scorepad.store import clubs, players
from tests.every_kind import WIN_0, record
from tests.services.helpers import everything, new_night

DD = PRESETS["double-deck"]
NAMES = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou", "Max"]


def pid(db, name):
    return players.player_for(db, name)


# --- specials only in the hands a table plays (issue 33) ---------------------------------------------------------

@pytest.mark.parametrize("hand", [2, 3, 9999], ids=["the hand after a one-hand game", "two past", "hand 9999"])
def test_a_special_is_tallied_only_in_a_hand_the_table_plays(db, hand):
    night_id = new_night(db, NAMES[:4], size=1, rounds=1)
    club.start_round(db, night_id)
    table = clubs.tables(db, night_id)[0]
    before = everything(db)
    with pytest.raises(services.Refused, match="hand"):
        seasons.tally_special(db, table.game_id, hand, pid(db, table.players[0]), "double_aces")
    assert everything(db) == before


def test_a_special_is_tallied_in_the_hand_being_played_and_in_one_already_recorded(db):
    night_id = new_night(db, NAMES[:4], size=3, rounds=1)
    club.start_round(db, night_id)
    table = clubs.tables(db, night_id)[0]
    north = pid(db, table.players[0])
    seasons.tally_special(db, table.game_id, 1, north, "double_aces")
    record(db, table.game_id, WIN_0)
    seasons.tally_special(db, table.game_id, 1, north, "double_run")  # remembered after the hand was saved
    seasons.tally_special(db, table.game_id, 2, north, "double_run")
    with pytest.raises(services.Refused):
        seasons.tally_special(db, table.game_id, 3, north, "double_run")  # the hand after the next
