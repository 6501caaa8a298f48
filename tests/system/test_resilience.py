"""The production server under pressure: two phones racing for the same hand, and the power cut mid-hand.

Both run the real thing: `python -m scorepad` (waitress) in a subprocess on a loopback port, driven over HTTP.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from tests.system.helpers import HAND, Phone, keep_recording, server

pytestmark = pytest.mark.slow


def hands_in(database: Path, game_id: int) -> int:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT count(*) FROM hands WHERE game_id = ? AND deleted_at IS NULL",
                          [game_id]).fetchone()[0]


def send_together(start, phone, game_id, form, answers, i) -> None:
    start.wait()
    answers[i] = phone.post(f"/games/{game_id}/hands", {**form, **HAND})


def test_two_phones_recording_the_same_hand_at_the_same_moment_store_it_once(tmp_path):
    database = tmp_path / "race.db"
    with server(database) as (base, _):
        phones = [Phone(base), Phone(base)]
        game_id = phones[0].new_game()
        for round_ in range(40):
            forms = [phone.hand_form(game_id) for phone in phones]
            assert forms[0]["expected"] == forms[1]["expected"] == str(round_ + 1)
            start = threading.Barrier(2)
            answers = [None, None]
            threads = [threading.Thread(target=send_together, args=(start, phones[i], game_id, forms[i], answers, i))
                       for i in (0, 1)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(answers) == [303, 409], answers
            assert hands_in(database, game_id) == round_ + 1


def test_killing_the_server_mid_hand_loses_no_answered_hand_and_half_writes_none(tmp_path):
    database = tmp_path / "crash.db"
    rng = random.Random(7)
    answered: list[str] = []
    game_id = None
    for _ in range(6):
        with server(database) as (base, process):
            phone = Phone(base)
            if game_id is None:
                game_id = phone.new_game()
            stop = threading.Event()
            writer = threading.Thread(target=keep_recording, args=(phone, game_id, stop, answered))
            writer.start()
            # killed once a few more hands were answered, then at a random moment of the hands that follow: a
            # busy machine records fewer hands a second, and a kill after a set time could then fall before any
            before, deadline = len(answered), time.monotonic() + 30
            while len(answered) < before + rng.randint(2, 4) and time.monotonic() < deadline and writer.is_alive():
                time.sleep(0.01)
            time.sleep(rng.uniform(0, 0.3))
            process.send_signal(signal.SIGKILL)
            process.wait()
            stop.set()
            writer.join(timeout=15)
        with sqlite3.connect(database) as db:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            tokens = {row[0] for row in db.execute("SELECT token FROM hands")}
            assert set(answered) <= tokens, "a hand the server answered for is missing"
            # no half-written hand: each has its history line, and the summary matches the hands
            orphans = db.execute("SELECT count(*) FROM hands h WHERE NOT EXISTS "
                                 "(SELECT 1 FROM hand_edits e WHERE e.hand_id = h.id)").fetchone()[0]
            assert orphans == 0
            count, total = db.execute("SELECT hands_count, total_0 FROM games WHERE id = ?", [game_id]).fetchone()
            assert count == len(tokens) and total == 50 * count
    assert len(answered) > 10  # the test really did record hands between the kills
