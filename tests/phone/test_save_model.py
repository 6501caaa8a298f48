"""The save machine under random evenings: two or three phones type, record, lose and find the network, reload,
answer the two-phone question each way, fix and discard kept hands, while backups are made and an older one is
restored and new games take the numbers of games gone. After every step, against a model of the server
(tests/phone/simulation.js): no hand is on a sheet twice, none kept on a phone is lost, none is sent under
another number than its phone says, none lands in another game, no phone is asked about a hand of its own (a
kept hand renumbered wrong meets its own phone's hand); and at the end, with every phone online, nothing kept is
left going nowhere. Hundreds of evenings in the quick loop, thousands under `slow`."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import ROOT
from tests.phone.machine import engine

ACTIONS = 14
steps = st.tuples(st.integers(0, 99), st.integers(0, 2), st.integers(0, 99))
evenings = st.tuples(st.integers(2, 3), st.lists(steps, min_size=5, max_size=60))


@cache
def simulator():
    js = engine()
    js.eval((ROOT / "tests" / "phone" / "simulation.js").read_text())
    return js


def play(phones: int, actions: list) -> dict:
    return simulator().call("ScorepadSimulation.simulate", [list(a) for a in actions], phones)


def check(evening) -> None:
    phones, actions = evening
    result = play(phones, actions)
    assert not result["violations"], "\n".join(result["violations"] + ["", *result["trace"]])


@pytest.mark.quick_twin("test_thousands_of_random_evenings_lose_double_or_misplace_no_hand")
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evenings)
def test_random_evenings_on_two_or_three_phones_lose_double_or_misplace_no_hand(evening):
    check(evening)


@pytest.mark.slow
@settings(max_examples=4000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evenings)
def test_thousands_of_random_evenings_lose_double_or_misplace_no_hand(evening):
    check(evening)


def test_the_simulation_knows_every_action():
    assert simulator().eval("ScorepadSimulation.ACTIONS") == ACTIONS
