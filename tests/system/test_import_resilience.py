"""Imports SIGKILLed at random moments, restores landing while imports write, at full size: nothing acknowledged
or restored is lost, no import is half there, and every backup taken afterwards restores."""

import os

import pytest

from tests.import_kills import kill_imports, report

pytestmark = pytest.mark.slow


def test_imports_killed_at_random_moments_and_restores_meanwhile_lose_nothing(new_database, tmp_path):
    rounds = int(os.environ.get("SCOREPAD_IMPORT_KILL_ROUNDS", "40"))
    figures = kill_imports(new_database(), tmp_path, rounds=rounds, games=150, seed=21)
    print(report(figures))
    assert (figures.lost, figures.half_imports, figures.broken) == ([], [], []), report(figures)
    assert figures.kills >= rounds // 5 and figures.restores >= rounds // 5, report(figures)
