"""Every sentence of every explanation, pinned word for word: many hands and games of every preset at every
table size it is played at (tests/fixtures/explanations_every_table.jsonl, written by
tests/fixtures/make_explanations.py). A sentence changes only with the fixture, in a commit that says why."""

import json
from collections import Counter
from dataclasses import replace

import pytest

from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, play_game, score_hand
from tests.fixtures.make_explanations import PATH

CASES = [json.loads(line) for line in PATH.read_text(encoding="utf-8").splitlines()]


def _rules(case):
    return replace(PRESETS[case["preset"]], **case["changes"])


def _names(case):
    return tuple(case["names"]) if case["names"] else None


def _hand(data):
    return Hand(**{key: tuple(value) if isinstance(value, list) else value for key, value in data.items()})


def _table(case):
    rules = _rules(case)
    return f"{case['preset']} {rules.sides}x{rules.players_per_side}"


TABLES = sorted({_table(case) for case in CASES})


def test_the_fixture_reaches_every_table_size_and_every_kind_of_hand():
    kinds = Counter(case["hand"]["kind"] for case in CASES if "hand" in case)
    assert set(kinds) == {"played", "throw_in", "no_marriage", "renege", "redeal", "quad_run"}
    assert {table.split()[1] for table in TABLES} == {"2x1", "3x1", "2x2", "2x3", "3x2", "2x4"}
    assert any(case["automatic_throw_in"] for case in CASES if "hand" in case)
    assert sum(1 for case in CASES if case.get("winner") is not None) > 100


@pytest.mark.parametrize("table", TABLES)
def test_every_hand_and_game_reads_as_pinned(table):
    wrong = []
    for case in (case for case in CASES if _table(case) == table):
        rules, names = _rules(case), _names(case)
        if "hand" in case:
            result = score_hand(rules, _hand(case["hand"]), names=names)
            got = {"points": list(result.points), "made": result.made, "scored_as": result.scored_as,
                   "automatic_throw_in": result.automatic_throw_in, "explanation": result.explanation}
        else:
            state = play_game(rules, [_hand(h) for h in case["game"]], names)
            got = {"totals": list(state.totals), "winner": state.winner, "decided_on": state.decided_on,
                   "reason": state.reason}
        expected = {key: case[key] for key in got}
        if got != expected:
            wrong.append((case.get("hand") or case["game"], expected, got))
    assert not wrong, f"{len(wrong)} cases differ; the first: {wrong[0]}"
