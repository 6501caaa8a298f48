"""A club night at club scale, as browsers make it: 30 tables (120 phones) and the standings wall, each a browser
that keeps its connections alive (HTTP/1.1 keep-alive, a pool of up to six a host as Chrome keeps, its headers,
gzip), polling every 3 s with the ETag the page sends; each table records a hand a minute, and the phone follows
the 303 to the sheet it lands on, as htmx does. Beside it, in the same run, the floor: the same load against a
bare Flask app under the same waitress settings, so a figure reads against what this machine costs any Python
web app at that load.

Run by `bench/run.py` (`make bench`) against its history; alone, over a fresh database:

    .venv/bin/python bench/club.py                      # 30 tables, 60 s each for Scorepad and the floor
    .venv/bin/python bench/club.py --tables 5 --seconds 10

Every connection goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import os
import queue
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import GOALS, club_setup, free_port, listening, percentile, start_server  # noqa: E402

POLL_EVERY = 3.0
HAND_EVERY = 60.0
KINDS = ("sheet poll", "seat poll", "wall poll", "record hand", "its sheet")
# A phone's browser (Chrome on Android), as the server sees it.
BROWSER = {
    "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/131.0.0.0 Mobile Safari/537.36",
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    "Accept-Encoding": "gzip, deflate",
    "Accept-Language": "en-US,en;q=0.9",
    "Connection": "keep-alive",
}


class Browser:
    """One phone's browser: a cookie, and a pool of keep-alive connections to the server (up to six, as Chrome
    keeps a host): a request takes an idle one or opens one, and gives it back unless the server closed it."""

    MOST = 6

    def __init__(self, port: int, cookie: str = ""):
        self.port, self.cookie = port, cookie
        self.idle: list[http.client.HTTPConnection] = []
        self.lock = threading.Lock()
        self.opened = self.requests = self.retried = 0

    def _take(self) -> http.client.HTTPConnection:
        with self.lock:
            self.requests += 1
            if self.idle:
                return self.idle.pop()
            self.opened += 1
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def _give(self, conn: http.client.HTTPConnection) -> None:
        with self.lock:
            if len(self.idle) < self.MOST:
                self.idle.append(conn)
                return
        conn.close()

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        headers = {**BROWSER, "Referer": f"http://127.0.0.1:{self.port}/", **(headers or {}),
                   **({"Cookie": self.cookie} if self.cookie else {})}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = self._take()
        for attempt in (1, 2):  # a kept connection the server closed meanwhile: the browser opens another
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, OSError):
                conn.close()
                if attempt == 2:
                    raise
                with self.lock:
                    self.opened += 1
                    self.retried += 1
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        if response.will_close:
            conn.close()
        else:
            self._give(conn)
        if response.getheader("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data, response

    def close(self) -> None:
        with self.lock:
            for conn in self.idle:
                conn.close()
            self.idle.clear()


# --- the floor: a bare Flask app under the same waitress settings ---------------------------------------------

FLOOR = """
import sys
from flask import Flask, request
from waitress import serve
from scorepad.web.shell.serve import server_options

app = Flask("floor")

@app.route("/", defaults={"path": ""}, methods=["GET", "POST"])
@app.route("/<path:path>", methods=["GET", "POST"])
def anything(path):
    if request.method == "POST":
        return "", 303, {"Location": "/landed"}
    return "<p>ok</p>"

serve(app, host="127.0.0.1", port=int(sys.argv[1]), **server_options())
"""


def start_floor(port: int) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-c", FLOOR, str(port)], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    return listening(process, port, "the floor's server", path="/")


# --- the load ---------------------------------------------------------------------------------------------

def browsers_of(port: int, club: dict) -> dict:
    """The night's phones and a wall, each as a browser of its own (a phone keeps the cookie it told the night
    who holds it with)."""
    phones = [{**phone, "session": Browser(port, phone["session"].cookie), "etag": ""} for phone in club["phones"]]
    return {"night": club["night"], "games": club["games"], "phones": phones, "expected": club["expected"],
            "wall": {"session": Browser(port), "kind": "wall poll", "etag": ""}}


def load(night: dict, seconds: float, workers: int = 48, fds=None) -> dict:
    """Every phone and the wall poll every 3 s (each at its own moment in the cycle); each table records a hand a
    minute, and is answered with its sheet (htmx's answer; a 303 is followed to it). Latency counts from when each
    request was due; `fds()`, sampled twice a second, says how many connections the server holds."""
    wall, phones, expected = night["wall"], night["phones"], night["expected"]
    recorder = {game: next(p for p in phones if p["game"] == game and p["csrf"]) for game in night["games"]}
    events = []
    for n, phone in enumerate([wall, *phones]):
        offset = POLL_EVERY * n / (len(phones) + 1)
        events += [(offset + k * POLL_EVERY, phone["kind"], phone) for k in range(int(seconds / POLL_EVERY) + 1)
                   if offset + k * POLL_EVERY < seconds]
    phase = random.Random(30)
    for n, game in enumerate(night["games"]):
        offset = HAND_EVERY * n / len(night["games"]) + phase.uniform(0, POLL_EVERY)
        events += [(offset + k * HAND_EVERY, "record hand", game) for k in range(int(seconds / HAND_EVERY) + 1)
                   if offset + k * HAND_EVERY < seconds]
    events.sort(key=lambda e: e[0])
    paths = {"sheet poll": lambda p: f"/games/{p['game']}/live",
             "seat poll": lambda p: f"/club/{night['night']}/me/live",
             "wall poll": lambda p: f"/club/{night['night']}/wall/live"}

    def poll(phone) -> int:
        headers = {"HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1/{phone['kind']}",
                   **({"If-None-Match": phone["etag"]} if phone["etag"] else {})}
        status, _, response = phone["session"].request("GET", paths[phone["kind"]](phone), headers=headers)
        phone["etag"] = response.getheader("ETag") or phone["etag"]
        return status

    def record(game) -> dict[str, tuple[int, float]]:
        """The POST as a phone's boosted form sends it, whose answer is the sheet itself (a 303's sheet, where one
        comes, is fetched after it): each kind's (status, when it answered)."""
        phone = recorder[game]
        body = urllib.parse.urlencode({"csrf_token": phone["csrf"], "token": uuid.uuid4().hex,
                                       "expected": expected[game], "kind": "played", "bidder": "s0", "bid": "50",
                                       "trump": "H", "meld_0": "20", "meld_1": "0", "counters_0": "30",
                                       "counters_1": "20", "repeat": "1"}).encode()
        status, _, response = phone["session"].request("POST", f"/games/{game}/hands", body=body,
                                                       headers={"HX-Request": "true"})
        answered = {"record hand": (status, time.perf_counter())}
        if status == 200 and response.getheader("Scorepad-Answer") == "saved":
            expected[game] += 1  # htmx's answer to a stored hand: the sheet itself, at once, as a phone gets it
        if status == 303:
            expected[game] += 1
            began = time.perf_counter()
            landed = phone["session"].request("GET", response.getheader("Location"),
                                              headers={"HX-Request": "true", "HX-Boosted": "true"})[0]
            answered["its sheet"] = (landed, began, time.perf_counter())
        return answered

    due: queue.Queue = queue.Queue()
    results, errors, lock = defaultdict(list), defaultdict(int), threading.Lock()

    def worker():
        while (item := due.get()) is not None:
            at, kind, what = item
            delay = at - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            try:
                if kind == "record hand":
                    answered = record(what)
                    timings = {"record hand": (answered["record hand"][0], at, answered["record hand"][1])}
                    if "its sheet" in answered:
                        timings["its sheet"] = answered["its sheet"]
                else:
                    timings = {kind: (poll(what), at, time.perf_counter())}
            except OSError:
                timings = {kind: (599, at, time.perf_counter())}
            with lock:
                for name, (status, began, ended) in timings.items():
                    results[name].append((ended - began) * 1000)
                    if status >= 400:
                        errors[name] += 1

    held, stop = [], threading.Event()

    def sample():
        while not stop.wait(0.5):
            held.append(fds())

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(workers)]
    if fds is not None:
        threads.append(threading.Thread(target=sample, daemon=True))
    for t in threads:
        t.start()
    start = time.perf_counter() + 0.5
    for offset, kind, what in events:
        due.put((start + offset, kind, what))
    for _ in range(workers):
        due.put(None)
    for t in threads[:workers]:
        t.join(timeout=seconds + 60)
    stop.set()
    browsers = [wall["session"], *(p["session"] for p in phones)]
    return {"latency": results, "errors": errors, "requests": len(events),
            "opened": sum(b.opened for b in browsers), "sent": sum(b.requests for b in browsers),
            "retried": sum(b.retried for b in browsers),
            "held": max(held, default=None)}


def connections_of(pid: int):
    """How many sockets the server process has open now (its listening socket among them)."""
    def count() -> int:
        try:
            return sum(1 for fd in os.listdir(f"/proc/{pid}/fd")
                       if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"))
        except OSError:
            return 0
    return count


def measure(port: int, pid: int, tables: int, seconds: float) -> tuple[dict, dict]:
    """The club night at Scorepad's `port` (its server's process `pid`), then the same load against the floor.
    Returns both runs."""
    club = club_setup(port, tables)
    night = browsers_of(port, club)
    load(night, seconds=3)  # a warm-up: every phone's first answer is a whole fragment
    scorepad = load(night, seconds=seconds, fds=connections_of(pid))
    floor_port = free_port()
    floor = start_floor(floor_port)
    try:
        bare = browsers_of(floor_port, club)
        load(bare, seconds=3)
        floor_run = load(bare, seconds=seconds, fds=connections_of(floor.pid))
    finally:
        floor.kill()
        floor.wait()
    for browser in [night["wall"]["session"], *(p["session"] for p in night["phones"]),
                    bare["wall"]["session"], *(p["session"] for p in bare["phones"])]:
        browser.close()
    return scorepad, floor_run


def report(tables: int, seconds: float, scorepad: dict, floor: dict) -> list[str]:
    from scorepad.web.shell.serve import CONNECTION_LIMIT, THREADS

    lines = [f"a club night of {tables} tables as browsers make it, for {seconds:.0f} s: {4 * tables} phones and the "
             f"wall polling every 3 s on kept-alive connections, a hand a minute at each table (the POST as a "
             f"phone's boosted form sends it, its answer the sheet, timed from when it was asked for); beside it the "
             f"floor, a bare Flask app under the same waitress settings "
             f"({scorepad['requests']} requests each; goal: median < {GOALS['median_ms']} ms, "
             f"p99 < {GOALS['p99_ms']} ms)",
             f"  {'kind':<12} {'n':>6} {'median ms':>10} {'p99 ms':>8} {'errors':>7}   "
             f"{'floor median':>12} {'floor p99':>9}"]
    for kind in KINDS:
        values, bare = scorepad["latency"].get(kind, []), floor["latency"].get(kind, [])
        if not values:
            continue
        median, p99 = statistics.median(values), percentile(values, 99)
        mark = "ok" if median < GOALS["median_ms"] and p99 < GOALS["p99_ms"] else "MISSED"
        failed = scorepad["errors"].get(kind, 0)
        lines.append(f"  {kind:<12} {len(values):>6} {median:>10.1f} {p99:>8.1f} {failed:>7}   "
                     f"{statistics.median(bare):>12.1f} {percentile(bare, 99):>9.1f}  {mark}")
    held = scorepad["held"]
    lines.append(f"  connections: {scorepad['opened']} opened for {scorepad['sent']} requests (kept alive; "
                 f"{scorepad['retried']} opened again after the server closed one); the "
                 f"server held at most {held if held is not None else '?'} sockets at once, of its limit of "
                 f"{CONNECTION_LIMIT} connections, with {THREADS} threads")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    database = str(Path(tempfile.mkdtemp(prefix="scorepad-club-")) / "club.db")
    port = free_port()
    server = start_server(database, port)
    try:
        scorepad, floor = measure(port, server.pid, args.tables, args.seconds)
    finally:
        server.kill()
        server.wait()
    print("\n".join(report(args.tables, args.seconds, scorepad, floor)))


if __name__ == "__main__":
    main()
