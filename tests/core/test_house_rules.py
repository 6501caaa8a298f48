"""What a table's house rules bring along, and which rule sets a seating plays: rules of the game, kept beside
`Rules` in the core (the new-game form only reads them)."""

import pytest

from scorepad.core.rules import PRESETS, SEATINGS, fits_seating, with_house_rules


@pytest.mark.parametrize(("preset", "sides", "per_side", "fits"), [
    ("double-deck", 2, 2, True), ("double-deck", 2, 3, True), ("double-deck", 2, 4, True),
    ("double-deck", 3, 2, True),  # three partnerships play a rule set of teams
    ("double-deck", 2, 1, False), ("double-deck", 3, 1, False),
    ("three-handed", 3, 1, True), ("three-handed", 2, 1, True),  # two players may play a three-handed auction
    ("three-handed", 2, 2, False),
    ("two-handed", 2, 1, True), ("two-handed", 3, 1, False), ("two-handed", 2, 2, False),
    ("six-handed-triple", 2, 3, True), ("six-handed-triple", 3, 2, True), ("six-handed-triple", 2, 2, False),
    ("double-deck", 5, 1, False), ("no-such-rules", 2, 2, False),
])
def test_a_rule_set_fits_the_seatings_it_is_played_at(preset, sides, per_side, fits):
    assert fits_seating(preset, sides, per_side) is fits


def test_every_seating_has_a_rule_set_and_every_rule_set_a_seating():
    assert all(any(fits_seating(p, *seating) for p in PRESETS) for seating in SEATINGS)
    assert all(any(fits_seating(p, *seating) for seating in SEATINGS) for p in PRESETS)


def test_kings_and_queens_at_half_an_ace_take_half_a_counters_step_unless_the_table_set_its_own():
    base = PRESETS["double-pack-bicycle"]  # counters worth 10 each
    assert with_house_rules(base, {"card_count": "kings_queens_half"}).counter_step == 5
    assert with_house_rules(base, {"card_count": "kings_queens_half", "counter_step": 1}).counter_step == 1
    assert with_house_rules(base, {"target": 500}).counter_step == base.counter_step
