"""The real thing, for the system tests to share: `python -m scorepad` (waitress) in a subprocess on a loopback
port, and phones that speak plain HTTP to it."""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from tests.helpers import ROOT


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


# The same hand again and again, said to be meant: the repeat question ("This looks like hand 7 again") has
# tests of its own
HAND = {"kind": "played", "bidder": "t0", "bid": "50", "meld_0": "0", "meld_1": "0", "counters_0": "50",
        "counters_1": "0", "repeat": "1"}


def keep_recording(phone, game_id, stop, answered) -> None:
    """Record hands one after another until stopped or the server is gone; keep the tokens answered 303."""
    while not stop.is_set():
        try:
            form = phone.hand_form(game_id)
            if phone.post(f"/games/{game_id}/hands", {**form, **HAND}) == 303:
                answered.append(form["token"])
        except (OSError, http.client.HTTPException):  # killed mid-answer: the server is gone
            return
