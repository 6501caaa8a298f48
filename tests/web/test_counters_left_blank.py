"""Counters left blank: with three or more sides the last blank one is worked out from the others, so a refusal
for two or more blanks says what to type, beside the counters; a field holding no number still says so; and two
sides keep the messages they had."""

import pytest

from tests.helpers import parse
from tests.web.helpers import every_table, new_game, record

CUTTHROAT = {"seating": "3x1", "preset": "three-handed"}
PARTNERSHIPS = {"seating": "3x2", "preset": "double-deck"}
TEAMS = {"seating": "2x2", "preset": "double-deck"}
ALL_BUT_ONE = "Type the counters of all {} but one (the last is worked out)."
WHOLE = "Counters must be a whole number (0 or more)."

# (game, the hand as typed, the message each field shows: "counters" is the one beside all the counters)
CASES = {
    "three players, two blank": (
        CUTTHROAT, {"bidder": "s0", "bid": 250, "meld_0": 100, "counters_0": 160},
        {"counters": ALL_BUT_ONE.format("players")}),
    "three players, only the last typed": (
        CUTTHROAT, {"bidder": "s0", "bid": 250, "meld_0": 100, "counters_2": 90},
        {"counters": ALL_BUT_ONE.format("players")}),
    "three players, one blank and one not a number": (
        CUTTHROAT, {"bidder": "s0", "bid": 250, "meld_0": 100, "counters_0": 160, "counters_1": "lots"},
        {"counters_1": WHOLE}),
    "three players, two blank and one not a number": (
        CUTTHROAT, {"bidder": "s0", "bid": 250, "meld_0": 100, "counters_0": "lots"},
        {"counters_0": WHOLE, "counters": ALL_BUT_ONE.format("players")}),
    "three partnerships, two blank": (
        PARTNERSHIPS, {"bidder": "t1", "bid": 50, "meld_1": 20, "counters_1": 30},
        {"counters": ALL_BUT_ONE.format("teams")}),
    "two teams, both blank": (
        TEAMS, {"bidder": "t0", "bid": 50, "meld_0": 20},
        {"counters": "Enter the counters each team took (together 50)."}),
    "two teams, one blank and one not a number": (
        TEAMS, {"bidder": "t0", "bid": 50, "meld_0": 20, "counters_0": "lots"},
        {"counters_0": WHOLE, "counters_1": WHOLE}),
}
COUNTER_MESSAGES = ["counters", "counters_0", "counters_1", "counters_2"]


@pytest.mark.parametrize("case", CASES)
def test_counters_left_blank_are_refused_with_what_to_type_beside_them(client, app, case):
    game, typed, messages = CASES[case]
    game_id = new_game(client, **game)
    before = every_table(app.config["DATABASE"])
    response = record(client, game_id, **typed)
    assert response.status_code == 422
    page = parse(response)
    shown = {name: page.select_one(f"#{name}-error") for name in COUNTER_MESSAGES}
    assert {name: found.get_text(" ", strip=True) for name, found in shown.items() if found} == messages
    # what was typed is still in the form
    assert {name: page.select_one(f"#{name}")["value"] for name in typed if name.startswith("counters_")} == {
        name: str(value) for name, value in typed.items() if name.startswith("counters_")}
    assert every_table(app.config["DATABASE"]) == before
