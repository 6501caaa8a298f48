"""A list of games reads each game's stored rules: a rule set the page has already read is not parsed and
checked again, and what comes back is what was stored."""

import json
from dataclasses import replace

import pytest

from scorepad.core.rules import PRESETS, InvalidRules
from scorepad.store import games


def test_games_played_under_the_same_rules_share_one_rule_set(db):
    first = games.create_game(db, PRESETS["double-deck"], ("Us", "Them"), [], 0)
    second = games.create_game(db, PRESETS["double-deck"], ("Us", "Them"), [], 0)
    assert games.load_game(db, first).rules is games.load_game(db, second).rules


def test_a_house_rule_read_after_its_preset_is_not_taken_for_the_preset():
    house = replace(PRESETS["double-deck"], min_bid=PRESETS["double-deck"].min_bid + 10)
    assert games.stored_rules(json.dumps(PRESETS["double-deck"].to_dict())) == PRESETS["double-deck"]
    assert games.stored_rules(json.dumps(house.to_dict())) == house


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_stored_rule_set_reads_back_as_the_rules_it_was(preset):
    assert games.stored_rules(json.dumps(PRESETS[preset].to_dict())) == PRESETS[preset]


def test_a_broken_stored_rule_set_is_refused_every_time_it_is_read():
    broken = json.dumps(PRESETS["double-deck"].to_dict() | {"no_such_option": 1})
    for _ in range(2):
        with pytest.raises(InvalidRules):
            games.stored_rules(broken)
