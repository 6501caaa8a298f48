"""Warming records, figures and ratings ahead of the next look: one thread a database, asks that come while it
works merged into one more pass."""

import threading

import pytest

from scorepad.services import figures, ratings, warming
from scorepad.store import records
from tests.services.helpers import first_thread_cannot_start


@pytest.fixture
def passes(monkeypatch):
    """The passes each warmer made: (what, players); the first records pass held until `release` is set."""
    made, started, release = [], threading.Event(), threading.Event()

    def held_records(path, ids, pause):
        made.append(("records", ids))
        if not started.is_set():
            started.set()
            release.wait(10)
    monkeypatch.setattr(records, "warm_records", held_records)
    monkeypatch.setattr(ratings, "warm", lambda path: made.append(("ratings", None)))
    monkeypatch.setattr(figures, "warm", lambda path, ids, pause: made.append(("figures", ids)))
    return made, started, release


def test_asks_while_a_pass_runs_are_merged_into_one_more(passes, tmp_path):
    made, started, release = passes
    path = str(tmp_path / "live.db")
    warming.warm(path, [1, 2])
    assert started.wait(10)
    for players in ([3, 4], [2, 5], [6]):  # three more games ended meanwhile
        warming.warm(path, players)
    release.set()
    warming.wait()
    assert made == [("records", [1, 2]), ("ratings", None), ("figures", [1, 2]),
                    ("records", [2, 3, 4, 5, 6]), ("ratings", None), ("figures", [2, 3, 4, 5, 6])]


def test_everyone_asked_for_meanwhile_warms_everyone(passes, tmp_path):
    made, started, release = passes
    path = str(tmp_path / "live.db")
    warming.warm(path, [1])
    assert started.wait(10)
    warming.warm(path, [2])
    warming.warm(path)  # the server started again on it
    warming.warm(path, [3])
    release.set()
    warming.wait()
    assert [ids for what, ids in made if what == "records"] == [[1], None]


def test_a_pass_that_fails_ends_neither_the_thread_nor_the_next_ask(monkeypatch, tmp_path):
    made = []

    def broken(path, ids, pause):
        made.append(ids)
        raise OSError("the disk went away")
    monkeypatch.setattr(records, "warm_records", broken)
    monkeypatch.setattr(ratings, "warm", lambda path: None)
    monkeypatch.setattr(figures, "warm", lambda path, ids, pause: None)
    path = str(tmp_path / "live.db")
    warming.warm(path, [1])
    warming.wait()
    warming.warm(path, [2])
    warming.wait()
    assert made == [[1], [2]]


def test_a_warming_thread_that_cannot_start_leaves_the_next_ask_to_start_one(passes, tmp_path, monkeypatch):
    made, started, release = passes
    release.set()
    first_thread_cannot_start(monkeypatch, "scorepad-warm")
    path = str(tmp_path / "live.db")
    with pytest.raises(RuntimeError):
        warming.warm(path, [1])
    warming.warm(path, [2])
    warming.wait()
    assert ("records", [1, 2]) in made


def test_the_census_says_whether_warming_runs_and_what_the_last_pass_took(passes, tmp_path):
    made, started, release = passes
    before = warming.census()["passes"]
    warming.warm(str(tmp_path / "live.db"), [1, 2])
    assert started.wait(10)
    assert warming.census()["warming now"] == 1
    release.set()
    warming.wait()
    said = warming.census()
    assert said["warming now"] == 0 and said["passes"] == before + 1
    assert said["last"]["players"] == 2 and said["last"]["cpu seconds"] >= 0
