import pytest

from tests.services.helpers import counting_core_calls


@pytest.fixture
def calls(monkeypatch):
    """How often the core folds a game and validates a hand, from now on."""
    return counting_core_calls(monkeypatch)
