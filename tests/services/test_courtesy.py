"""Warming steps aside while the server answers someone: it waits for a quiet moment between two pieces of its
work (a while at most), and never for a request that waits for that very work."""

import threading
import time
from dataclasses import replace

import pytest

from scorepad.services import courtesy, figures
from scorepad.store import connection
from scorepad.store import players as store_players
from tests.services.helpers import DD, record, start


def stepped_aside(patience: float) -> tuple[bool, float]:
    began = time.monotonic()
    quiet = courtesy.step_aside(patience)
    return quiet, time.monotonic() - began


def test_nothing_being_answered_is_a_quiet_moment_at_once():
    assert courtesy.census() == {"answering": 0, "awaiting warming": 0}
    quiet, waited = stepped_aside(5)
    assert quiet and waited < 0.5


def test_a_request_being_answered_is_waited_for_until_it_is_answered():
    answered = threading.Event()

    def request():
        with courtesy.answering():
            answered.wait(10)
    thread = threading.Thread(target=request)
    thread.start()
    while courtesy.census()["answering"] == 0:
        time.sleep(0.001)
    threading.Timer(0.3, answered.set).start()
    quiet, waited = stepped_aside(10)
    thread.join()
    assert quiet and 0.2 < waited < 5
    assert courtesy.census()["answering"] == 0


def test_a_load_that_never_pauses_is_waited_for_a_while_at_most():
    with courtesy.answering():
        quiet, waited = stepped_aside(0.2)
    assert not quiet and 0.15 < waited < 2


def test_a_request_that_raised_is_no_longer_counted():
    with pytest.raises(ValueError), courtesy.answering():
        raise ValueError("a page that failed")
    assert courtesy.census()["answering"] == 0


def test_a_look_at_figures_warming_is_computing_is_not_kept_waiting_by_warming_stepping_aside(db):
    """Warming holds the player's computation and steps aside for the very request that waits for it: without
    `awaited` each would wait for the other until warming's patience ran out, each time it stepped aside."""
    game_id = start(db, replace(DD, target=100), players=("Ann", "Bob", "Cat", "Dan"))
    record(db, game_id)
    record(db, game_id)  # won
    ann = store_players.player_for(db, "Ann")
    path = connection.database_path(db)
    figures.forget_folds()
    holding = threading.Event()

    def warming_pause():
        holding.set()
        courtesy.step_aside(30)

    def warm():
        own = connection.connect(path)
        try:
            figures.of_player(own, ann, [], pause=warming_pause)
        finally:
            own.close()
    with courtesy.answering():  # the look, being answered
        warmer = threading.Thread(target=warm)
        warmer.start()
        assert holding.wait(10)  # warming holds Ann's computation and waits for a quiet moment
        began = time.monotonic()
        found = figures.of_player(db, ann)  # the look waits for that computation
        assert time.monotonic() - began < 10
    warmer.join(10)
    assert found[(ann,)].games == 1


def test_a_look_waiting_for_another_looks_computation_does_not_call_warming_back(db):
    """Only warming's own work, waited for, stops it stepping aside: a page waiting for another page's
    computation of the same figures would otherwise have warming compete with the very work it waits for."""
    game_id = start(db, replace(DD, target=100), players=("Ann", "Bob", "Cat", "Dan"))
    record(db, game_id)
    record(db, game_id)
    ann = store_players.player_for(db, "Ann")
    path = connection.database_path(db)
    lock = figures._COMPUTING.setdefault((path, ann), threading.Lock())
    lock.acquire()  # another look is computing Ann's figures
    seen = []

    def look():
        own = connection.connect(path)
        try:
            figures.of_player(own, ann)
        finally:
            own.close()
    waiting = threading.Thread(target=look)
    waiting.start()
    for _ in range(20):
        time.sleep(0.01)
        seen.append(courtesy.census()["awaiting warming"])
    lock.release()
    waiting.join(10)
    assert seen == [0] * 20
