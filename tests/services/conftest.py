import pytest

from scorepad import store
from tests.services.helpers import counting_core_calls


@pytest.fixture
def db(new_database):
    """A database at today's schema of its own, opened as the app opens one."""
    db = store.connect(str(new_database()))
    yield db
    db.close()


@pytest.fixture
def calls(monkeypatch):
    """How often the core folds a game and validates a hand, from now on."""
    return counting_core_calls(monkeypatch)
