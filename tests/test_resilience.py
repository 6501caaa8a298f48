"""The production server under pressure: two phones racing for the same hand, and the power cut mid-hand.

Both run the real thing: `python -m scorepad` (waitress) in a subprocess on a loopback port, driven over HTTP.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server(database: Path):
    port = free_port()
    env = {**os.environ, "SCOREPAD_DATABASE": str(database), "PYTHONUNBUFFERED": "1"}
    env.pop("SCOREPAD_PASSCODE", None)
    process = subprocess.Popen([sys.executable, "-m", "scorepad", "--host", "127.0.0.1", "--port", str(port),
                                "--no-qr", "--threads", "8"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(base + "/rules/", timeout=1).read()
            break
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.1)
    try:
        yield base, process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """A browser's worth of HTTP: its own cookies, no following of redirects (a 303 is the answer we want)."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                                  _NoRedirect)

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=10) as response:
            return response.read().decode()

    def post(self, path: str, data: dict) -> int:
        body = urllib.parse.urlencode(data).encode()
        try:
            with self.opener.open(self.base + path, body, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def csrf(self, page: str) -> str:
        return re.search(r'name="csrf-token" content="([^"]+)"', page)[1]

    def new_game(self) -> int:
        page = self.get("/games/new")
        data = {"csrf_token": self.csrf(page), "preset": "double-deck", "target": "100000"}
        assert self.post("/games/new", data) == 303
        return int(re.search(r"/games/(\d+)", self.get("/"))[1])

    def hand_form(self, game_id: int) -> dict:
        page = self.get(f"/games/{game_id}")
        return {"csrf_token": self.csrf(page), "token": re.search(r'name="token" value="([^"]+)"', page)[1],
                "expected": re.search(r'id="expected" name="expected" value="(\d+)"', page)[1]}


HAND = {"kind": "played", "bidder": "t0", "bid": "50", "meld_0": "0", "meld_1": "0", "counters_0": "50",
        "counters_1": "0"}


def hands_in(database: Path, game_id: int) -> int:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT count(*) FROM hands WHERE game_id = ? AND deleted_at IS NULL",
                          [game_id]).fetchone()[0]


def send_together(start, phone, game_id, form, answers, i) -> None:
    start.wait()
    answers[i] = phone.post(f"/games/{game_id}/hands", {**form, **HAND})


def keep_recording(phone, game_id, stop, answered) -> None:
    """Record hands one after another until stopped or the server is gone; keep the tokens answered 303."""
    while not stop.is_set():
        try:
            form = phone.hand_form(game_id)
            if phone.post(f"/games/{game_id}/hands", {**form, **HAND}) == 303:
                answered.append(form["token"])
        except (OSError, http.client.HTTPException):  # killed mid-answer: the server is gone
            return


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
            time.sleep(rng.uniform(0.3, 1.2))
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
