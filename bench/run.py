"""Scorepad's benchmarks, in one command (`make bench`): prints a table of figures against the goals.

1. A generated history of 10,000 finished games (about 200,000 hands) in a fresh database.
2. The production server the README starts (`python -m scorepad`, waitress) on a loopback port.
3. A club night: an open loop at 100 requests a second for a bounded time (phones polling their games,
   hands recorded, pages and fragments opened, history and records looked at); latency per kind of request
   is measured from the moment each request was due, so a slow server cannot hide its queue.
4. The most it serves: a closed loop of 20 clients (a save's median beside a game page's); then each kind alone,
   and the mix, against the floor: a bare Flask view rendering a compiled template of a game page's size on the
   same waitress with the same threads, measured in the same run, so that its share of the floor reads the same on
   any machine (issue 38's goals).
5. A club night of 20 tables on the clock: 80 phones polling every 3 s (half on their table's sheet, half on
   their seat card), the standings wall polling, and hands recorded at the pace of brisk play (one a minute at
   each table); latency per kind, from the moment each request was due.
6. A club night at club scale, as browsers make it (bench/club.py): 30 tables, 120 phones and the wall, each a
   browser keeping its connections alive, beside the floor (a bare Flask app under the same waitress settings,
   measured in the same run).
7. The server's peak memory and what each of its caches holds (its /healthz), the bytes of a game page's first
   load (gzip) and of one recorded hand.
8. In a real browser at a phone's size: taps and keystrokes for a typical played hand, for correcting one, and for
   a typical three-handed (cutthroat) hand.
9. What proving the replica costs on that database (bench/drill.py): a restore drill's time, CPU and disk.

Every loop is bounded in count and time and talks only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import queue
import random
import re
import socket
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

from bench.history import generate  # noqa: E402

MIX = [("poll", 55), ("game page", 10), ("fragment", 10), ("record hand", 5), ("history", 10), ("records", 10)]
GOALS = {"median_ms": 10, "p99_ms": 50, "first_load_kib": 35, "our_scripts_kib": 10.35,
         "taps_enter": 10, "taps_no_enter": 12}


# --- the server -------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(database: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "SCOREPAD_DATABASE": database}
    env.pop("SCOREPAD_PASSCODE", None)
    process = subprocess.Popen([sys.executable, "-m", "scorepad", "--host", "127.0.0.1", "--port", str(port),
                                "--no-qr"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    return listening(process, port, "the server")


def start_floor(port: int, size: int = 29_000) -> subprocess.Popen:
    """The floor: a bare Flask view rendering a compiled template of `size` bytes, on the same waitress with the
    same threads (see bench/floor.py)."""
    process = subprocess.Popen([sys.executable, "-m", "bench.floor", "--port", str(port), "--bytes", str(size)],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return listening(process, port, "the floor's server")


def server_memory(port: int) -> dict:
    """What the server says of its memory and of what each of its caches holds (/healthz)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/healthz")
        return json.loads(conn.getresponse().read()).get("memory", {})
    except (OSError, ValueError):
        return {}
    finally:
        conn.close()


def warmed(port: int, timeout: float = 900) -> dict:
    """Once the server's start-up warming (everyone's records, ladder and figures) is over: the bench measures the
    server as the phones meet it once it has been up a while, not a warming thread stepping aside meanwhile (it
    would run in the floor's turns, when ours is idle, and take the floor's CPU). What the pass took."""
    deadline, began = time.monotonic() + timeout, time.monotonic()
    while time.monotonic() < deadline:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request("GET", "/healthz")
            said = json.loads(conn.getresponse().read()).get("warming", {})
        except (OSError, ValueError):
            said = {}
        finally:
            conn.close()
        if said.get("passes") and not said.get("warming now"):
            return {"waited": time.monotonic() - began, **(said.get("last") or {})}
        time.sleep(0.5)
    return {"waited": time.monotonic() - began, "unfinished": True}


def listening(process: subprocess.Popen, port: int, what: str, path: str | None = None) -> subprocess.Popen:
    """`process` once it answers on `port` (with a 200 at `path`, when one is named) within 30 s; else it is
    killed and the bench stops, naming `what`."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if path is None:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    return process
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            try:
                conn.request("GET", path)
                if conn.getresponse().status == 200:
                    return process
            finally:
                conn.close()
        except OSError:
            pass
        time.sleep(0.1)
    process.kill()
    raise SystemExit(f"{what} did not start")


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# --- a phone's HTTP ---------------------------------------------------------------------------------------

class Session:
    """One keep-alive connection and one cookie, as a phone has."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        headers = {**(headers or {}), **({"Cookie": self.cookie} if self.cookie else {})}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data, response


class Table:
    """What the load knows about the server: games to read, games to write to, and a CSRF token."""

    def __init__(self, port: int, history: dict):
        self.port = port
        self.finished = list(range(1, history["finished"] + 1))
        self.open = history["open_games"]
        self.lock = threading.Lock()
        self.expected = {}
        self.etags = {}
        self.writing = {}  # one writer a game at a time, as at a table: a race is the resilience test's job
        setup = Session(port)
        _, page, _ = setup.request("GET", "/games/new")
        self.cookie = setup.cookie
        self.csrf = re.search(rb'name="csrf-token" content="([^"]+)"', page)[1].decode()
        for game_id in self.open:
            _, page, response = setup.request("GET", f"/games/{game_id}")
            self.expected[game_id] = int(re.search(rb'id="expected" name="expected" value="(\d+)"', page)[1])
            self.etags[game_id] = re.search(rb'If-None-Match": "\\"(g\d+-v\d+-[0-9a-f]+)\\""', page)[1].decode()
            self.writing[game_id] = threading.Lock()
        # a finished game of about the median length, for the page-weight figures
        self.typical_game = next(g for g in reversed(self.finished) if 18 <= hands_of(setup, g) <= 22)
        self.typical_page_bytes = len(setup.request("GET", f"/games/{self.typical_game}")[1])
        _, page, _ = setup.request("GET", "/players/")
        self.players = [int(x) for x in re.findall(rb'href="/players/(\d+)"', page)]
        # Each player's page once, before anything is measured: a player's figures fold every hand of their games
        # (seconds for a player of this history) once, and are kept until a game of theirs changes. The server
        # warms them itself after it starts; this waits for that, as a server that has been up a while has.
        for player_id in self.players:
            setup.request("GET", f"/players/{player_id}")

    def session(self) -> Session:
        s = Session(self.port)
        s.cookie = self.cookie
        return s


def hands_of(session: Session, game_id: int) -> int:
    _, page, _ = session.request("GET", f"/games/{game_id}")
    return len(re.findall(rb'<details class="hand', page))


def one_request(kind: str, table: Table, session: Session, rng: random.Random) -> int:
    if kind == "poll":
        # as a phone's page polls: with the ETag of the sheet it last had (each answer with news brings the next)
        game_id = rng.choice(table.open)
        etags = session.__dict__.setdefault("etags", {})
        status, _, response = session.request("GET", f"/games/{game_id}/live", headers={
            "HX-Request": "true", "If-None-Match": etags.get(game_id, f'"{table.etags[game_id]}"')})
        if status == 200 and response.getheader("ETag"):
            etags[game_id] = response.getheader("ETag")
        return status
    if kind == "game page":
        return session.request("GET", f"/games/{rng.choice(table.finished[-500:])}")[0]
    if kind == "fragment":
        query = urllib.parse.urlencode({"bidder": "t0", "bid": "55", "meld_0": "30", "meld_1": "12",
                                        "counters_0": "28", "counters_1": "22", "kind": "played"})
        return session.request("GET", f"/games/{rng.choice(table.open)}/preview?{query}",
                               headers={"HX-Request": "true"})[0]
    if kind == "record hand":
        game_id = rng.choice(table.open)
        with table.writing[game_id]:
            body = urllib.parse.urlencode({"csrf_token": table.csrf, "token": uuid.uuid4().hex,
                                           "expected": table.expected[game_id], "kind": "played", "bidder": "t0",
                                           "bid": "50", "meld_0": "20", "meld_1": "0", "counters_0": "30",
                                           "repeat": "1", "counters_1": "20"}).encode()
            status = session.request("POST", f"/games/{game_id}/hands", body=body)[0]
            if status == 303:
                table.expected[game_id] += 1
        return status
    if kind == "history":
        return session.request("GET", "/history/")[0]
    if kind == "records":
        if rng.random() < 0.5:
            return session.request("GET", "/players/")[0]
        return session.request("GET", f"/players/{rng.choice(table.players)}")[0]
    if kind == "a player's records":
        return session.request("GET", f"/players/{rng.choice(table.players)}")[0]
    if kind == "/about":
        return session.request("GET", "/about")[0]
    raise ValueError(kind)


def pick(rng: random.Random) -> str:
    return rng.choices([k for k, _ in MIX], [w for _, w in MIX])[0]


# --- the loads --------------------------------------------------------------------------------------------

def open_loop(table: Table, rate: float, seconds: float, workers: int = 32) -> dict:
    """Requests due at fixed times; latency counts from when each was due (no coordinated omission)."""
    due: queue.Queue = queue.Queue()
    results = defaultdict(list)
    errors = defaultdict(int)
    lock = threading.Lock()

    def worker(n: int):
        session, rng = table.session(), random.Random(n)
        while True:
            item = due.get()
            if item is None:
                return
            at, kind = item
            delay = at - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            try:
                status = one_request(kind, table, session, rng)
            except OSError:
                status = 599
            elapsed = (time.perf_counter() - at) * 1000
            with lock:
                results[kind].append(elapsed)
                if status >= 500 or status in (400, 409, 422):
                    errors[kind] += 1

    threads = [threading.Thread(target=worker, args=(n,), daemon=True) for n in range(workers)]
    for t in threads:
        t.start()
    rng = random.Random(42)
    start = time.perf_counter() + 0.5
    count = int(rate * seconds)
    for i in range(count):
        due.put((start + i / rate, pick(rng)))
    for _ in threads:
        due.put(None)
    for t in threads:
        t.join(timeout=seconds + 60)
    return {"latency": results, "errors": errors, "requests": count}


def closed_loop(table: Table, clients: int, seconds: float) -> dict:
    results = defaultdict(list)
    errors = defaultdict(int)
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def client(n: int):
        session, rng = table.session(), random.Random(100 + n)
        while time.perf_counter() < stop_at:
            kind = pick(rng)
            began = time.perf_counter()
            try:
                status = one_request(kind, table, session, rng)
            except OSError:
                status = 599
            with lock:
                results[kind].append((time.perf_counter() - began) * 1000)
                if status >= 500 or status in (400, 409, 422):
                    errors[kind] += 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 60)
    total = sum(len(v) for v in results.values())
    return {"latency": results, "errors": errors, "throughput": total / (time.perf_counter() - began),
            "clients": clients}


# --- each kind against the floor ----------------------------------------------------------------------------

# What each kind must serve of the floor (a bare Flask view rendering a compiled template of a game page's size,
# on the same waitress with the same threads, measured in the same run): issue 38's goals. "record hand" is its
# POST and the page the phone lands on after it, counted once: as the hand form sends it with JavaScript, one
# boosted POST answered with the page itself; printed beside it, without JavaScript (a 303 and a GET).
FLOOR_KINDS = ("/about", "poll", "game page", "history", "a player's records", "record hand",
               "record hand, no JavaScript", "fragment", "the mix")
FLOOR_GOALS = {"/about": 0.7, "poll": 0.9, "game page": 0.33, "history": 0.25, "a player's records": 0.2,
               "record hand": 0.1}
FLOOR_WORDS = {"/about": "an empty page of ours (/about)", "poll": "the poll (304)", "record hand":
               "record a hand (page + POST)", "record hand, no JavaScript": "  the same without JavaScript"}
FLOOR_CLIENTS = 8
MEMORY_GOAL_MIB = 100
SAVE_GOAL = 2.0  # a save's median under overload, at most this many times a page's


def served(port: int, seconds: float, clients: int, ask, states: list[dict] | None = None) -> float:
    """Requests a second that `clients` keep-alive clients, each asking `ask(session, rng, state)` again as soon as
    it is answered, get answered with success in `seconds`. `states`: each client's state, kept from one call to
    the next (a game of its own to record into is made once, not at every turn)."""
    stop_at = time.perf_counter() + seconds
    counts = [0] * clients
    states = states if states is not None else [{} for _ in range(clients)]

    def client(n: int):
        state = states[n]
        session, rng = Session(port), state.setdefault("rng", random.Random(200 + n))  # one sequence over turns
        while time.perf_counter() < stop_at:
            try:
                counts[n] += ask(session, rng, state)
            except OSError:
                pass

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 60)
    return sum(counts) / (time.perf_counter() - began)


def _own_game(session: Session, csrf: str) -> dict:
    status, _, response = session.request("POST", "/games/new", body=urllib.parse.urlencode(
        {"csrf_token": csrf, "preset": "double-deck"}).encode())
    assert status == 303, status
    return {"game": int(re.search(r"/games/(\d+)", response.getheader("Location"))[1]), "expected": 1}


def kind_asker(kind: str, table: Table):
    """One request of `kind` as the mix asks it, counted 1 when it succeeded; a hand is recorded into a game of the
    client's own (a new one once a game is won, not counted), so no client waits for another's game."""
    def ask(session: Session, rng: random.Random, state: dict) -> int:
        if not session.cookie:
            session.cookie = table.cookie
        if kind in ("record hand", "record hand, no JavaScript"):
            if "game" not in state:
                state.update(_own_game(session, table.csrf))
            return _recorded(session, table, state, boosted=kind == "record hand")
        # the ETags a phone's page had are its own, kept from one turn's connection to the next: with each turn's
        # new connection forgetting them, every poll of a turn's first round was a whole sheet, not a 304
        session.etags = state.setdefault("etags", {})
        status = one_request(pick(rng) if kind == "the mix" else kind, table, session, rng)
        return int(status in (200, 303, 304))
    return ask


def _recorded(session: Session, table: Table, state: dict, boosted: bool) -> int:
    """A hand recorded into the client's own game, counted 1 when it was saved and its page came back. `boosted`:
    as the hand form sends it with JavaScript (htmx's boosted POST, answered with the game's page itself, built
    from the save's own fold); else as a form without JavaScript sends it (a 303, and the page it sends to)."""
    body = urllib.parse.urlencode({"csrf_token": table.csrf, "token": uuid.uuid4().hex, "expected": state["expected"],
                                   "kind": "played", "bidder": "t0", "bid": "50", "meld_0": "20", "meld_1": "0",
                                   "counters_0": "30", "counters_1": "20", "repeat": "1"}).encode()
    path = f"/games/{state['game']}"
    headers = {"HX-Request": "true", "HX-Boosted": "true",
               "HX-Current-URL": f"http://127.0.0.1:{table.port}{path}"} if boosted else {}
    status, _, response = session.request("POST", f"{path}/hands", body=body, headers=headers)
    saved = response.getheader("Scorepad-Answer") == "saved" if boosted else status == 303
    if not saved:  # the game is won (or the answer was not a save): a new game next turn, this one not counted
        state.clear()
        return 0
    state["expected"] += 1
    if boosted:
        return int(status == 200)
    return int(session.request("GET", response.getheader("Location"))[0] == 200)


def floor_asker(session: Session, rng: random.Random, state: dict) -> int:
    return int(session.request("GET", "/")[0] == 200)


FLOOR_TURNS = 5  # each kind and its floor measured in turns, floor first: a shared machine's speed drifts


def against_floor(table: Table, floor_port: int, seconds: float) -> list[dict]:
    """Each kind's requests a second beside the floor's, the two measured in FLOOR_TURNS alternating turns of
    `seconds / FLOOR_TURNS` each. Measured one after the other (5 s, then 5 s), two runs of the same code gave a
    floor of 594 and of 1,123 requests a second for the same kind: a shared machine's speed drifts within seconds,
    and turns see the same drift."""
    found = []
    for kind in FLOOR_KINDS:
        if kind == "game page":
            found.append(looked_at_once(table))
        asker, states, floors, rates = kind_asker(kind, table), [{} for _ in range(FLOOR_CLIENTS)], [], []
        for _ in range(FLOOR_TURNS):
            floors.append(served(floor_port, seconds / FLOOR_TURNS, FLOOR_CLIENTS, floor_asker))
            rates.append(served(table.port, seconds / FLOOR_TURNS, FLOOR_CLIENTS, asker, states))
        floor, rate = sum(floors) / FLOOR_TURNS, sum(rates) / FLOOR_TURNS
        found.append({"kind": kind, "rate": rate, "floor": floor, "ratio": rate / floor if floor else float("nan")})
    return found


def looked_at_once(table: Table) -> dict:
    """Each of the games the game page's turns ask for looked at once before them, one after the other, as a server
    up a while has (as each player's page is, `Table`): the turns measure a look at a game's page, not its first
    render since the server started. How many were rendered afresh then, and what that took, is said beside."""
    session, before = table.session(), server_memory(table.port)["kept"]["rendered pages"]["rendered"]
    began = time.perf_counter()
    for game_id in table.finished[-500:]:
        session.request("GET", f"/games/{game_id}")
    took = time.perf_counter() - began
    rendered = server_memory(table.port)["kept"]["rendered pages"]["rendered"] - before
    return {"kind": "first looks", "games": len(table.finished[-500:]), "rendered": rendered, "seconds": took}


def floor_report(rows: list[dict], seconds: float, size: int) -> list[str]:
    lines = [f"each kind against the floor: a bare Flask view rendering a compiled template of {size / 1024:.1f} KiB "
             f"(a game page's size) on the same waitress, same threads ({FLOOR_CLIENTS} clients, keep-alive, "
             f"{seconds:.0f} s each, the floor measured just before each kind)",
             f"  {'kind':<30} {'req/s':>7} {'floor':>7} {'ratio':>6}  goal"]
    for row in rows:
        if row["kind"] == "first looks":
            lines.append(f"  (the game page's {row['games']} games looked at once before its turns, one after the "
                         f"other: {row['rendered']} rendered afresh, {row['seconds']:.1f} s in all)")
            continue
        goal = FLOOR_GOALS.get(row["kind"])
        mark = f"≥ {goal:.2f}× {_ok(row['ratio'] >= goal)}" if goal else ""
        name = FLOOR_WORDS.get(row["kind"], row["kind"])
        lines.append(f"  {name:<30} {row['rate']:>7.0f} {row['floor']:>7.0f} {row['ratio']:>5.2f}×  {mark}")
    return lines


def save_words(run: dict) -> str:
    """A save's median under the closed loop beside a page's, against the goal."""
    saves, pages = run["latency"].get("record hand", []), run["latency"].get("game page", [])
    if not saves or not pages:
        return "a save under overload: not measured"
    save, page = statistics.median(saves), statistics.median(pages)
    return (f"a save under overload (closed loop, {run['clients']} clients): median {save:.0f} ms, a game page's "
            f"{page:.0f} ms = {save / page:.1f}×  (goal ≤ {SAVE_GOAL:.0f}× a page's: {_ok(save <= SAVE_GOAL * page)})")


def memory_words(peak: float, said: dict) -> list[str]:
    """Peak memory against the goal, and what each cache held at the end."""
    lines = [f"server peak memory (VmHWM), {MEMORY_GOAL_MIB:,} MiB goal: {peak:.0f} MiB  "
             f"({_ok(peak <= MEMORY_GOAL_MIB)}; {said.get('now_mib', '?')} MiB at the end)"]
    for name, held in (said.get("kept") or {}).items():
        what = ", ".join(f"{k} {v:,}" for k, v in held.items()) if isinstance(held, dict) else f"{held:,}"
        lines.append(f"  kept: {name}: {what or 'nothing'}")
    return lines


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


# --- a club night ----------------------------------------------------------------------------------------

CLUB_KINDS = ("sheet poll", "seat poll", "wall poll", "record hand")
HAND_EVERY = 60.0  # seconds between hands at a table: brisk play (a hand at a kitchen table takes 2 to 5 minutes)


def _csrf(page: bytes) -> str:
    return re.search(rb'name="csrf-token" content="([^"]+)"', page)[1].decode()


def _post(session: Session, path: str, csrf: str, **fields) -> int:
    return session.request("POST", path, body=urllib.parse.urlencode({"csrf_token": csrf, **fields}).encode())[0]


def club_setup(port: int, tables: int) -> dict:
    """A progressive night on the clock with 4 players a table, round 1 started, and a phone for each player
    that has told the night who holds it. Returns the night, its games and the phones."""
    director = Session(port)
    csrf = _csrf(director.request("GET", "/club/")[1])
    _post(director, "/club/new", csrf, name="Bench club", kind="progressive", preset="double-deck",
          round_end="time", round_size="50", rounds="4")
    _, page, _ = director.request("GET", "/club/")
    night = int(re.findall(rb'href="/club/(\d+)"', page)[0])
    names = [f"Club player {n}" for n in range(1, 4 * tables + 1)]
    for name in names:
        _post(director, f"/club/{night}/register", csrf, player_0=name)
    assert _post(director, f"/club/{night}/start", csrf) == 303, "the round did not start"
    _, page, _ = director.request("GET", f"/club/{night}/director")
    games = [int(g) for g in re.findall(rb'href="/games/(\d+)"', page)]
    phones = []
    for table_no in range(1, tables + 1):
        seated = []
        for seat in range(4):
            phone = Session(port)
            _, card, _ = phone.request("GET", f"/club/{night}/tables/{table_no}")
            ids = re.findall(rb'name="player" value="(\d+)"', card)
            _post(phone, f"/club/{night}/me", _csrf(card), player=ids[seat].decode())
            seated.append(phone)
        phone_csrf = _csrf(seated[0].request("GET", f"/games/{games[table_no - 1]}")[1])
        for seat, phone in enumerate(seated):
            # two phones a table keep its sheet open, the other two their seat card
            phones.append({"session": phone, "kind": "sheet poll" if seat % 2 == 0 else "seat poll",
                           "game": games[table_no - 1], "etag": "", "csrf": phone_csrf if seat == 0 else None})
    return {"night": night, "games": games, "phones": phones, "expected": dict.fromkeys(games, 1)}


def club_load(port: int, club: dict, seconds: float, poll: float = 3.0, workers: int = 32) -> dict:
    """Every phone and the wall poll every `poll` seconds (each at its own moment in the cycle), and each table
    records a hand every HAND_EVERY seconds; latency counts from when each request was due."""
    night = club["night"]
    wall = {"session": Session(port), "kind": "wall poll", "etag": ""}
    expected = club["expected"]  # each table's next hand number, across loads
    recorder = {game: next(p for p in club["phones"] if p["game"] == game and p["csrf"]) for game in club["games"]}
    events = []
    for n, phone in enumerate([wall, *club["phones"]]):  # the wall first: even a short run has its poll
        offset = poll * n / (len(club["phones"]) + 1)
        events += [(offset + k * poll, phone["kind"], phone) for k in range(int(seconds / poll) + 1)
                   if offset + k * poll < seconds]
    # Each table's hands come at its own moment in the poll cycle, as at real tables. Spread evenly instead, table
    # n's hand fell due at 3n s, the very moment of the wall's poll, and the two heaviest requests of the night
    # met on the server every time, which no room of players does.
    phase = random.Random(15)
    for n, game in enumerate(club["games"]):
        offset = HAND_EVERY * n / len(club["games"]) + phase.uniform(0, poll)
        events += [(offset + k * HAND_EVERY, "record hand", game) for k in range(int(seconds / HAND_EVERY) + 1)
                   if offset + k * HAND_EVERY < seconds]
    events.sort(key=lambda e: e[0])
    paths = {"sheet poll": lambda p: f"/games/{p['game']}/live", "seat poll": lambda p: f"/club/{night}/me/live",
             "wall poll": lambda p: f"/club/{night}/wall/live"}
    due: queue.Queue = queue.Queue()
    results, errors, lock = defaultdict(list), defaultdict(int), threading.Lock()
    busy = defaultdict(threading.Lock)  # one request at a time on a phone's connection, as on a phone

    def poll_once(phone):
        with busy[id(phone)]:
            headers = {"HX-Request": "true", **({"If-None-Match": phone["etag"]} if phone["etag"] else {})}
            status, _, response = phone["session"].request("GET", paths[phone["kind"]](phone), headers=headers)
            phone["etag"] = response.getheader("ETag") or phone["etag"]
            return status

    def record(game):
        phone = recorder[game]
        with busy[id(phone)]:
            body = urllib.parse.urlencode({"csrf_token": phone["csrf"], "token": uuid.uuid4().hex,
                                           "expected": expected[game], "kind": "played", "bidder": "s0",
                                           "bid": "50", "trump": "H", "meld_0": "20", "meld_1": "0",
                                           "counters_0": "30", "counters_1": "20", "repeat": "1"}).encode()
            status = phone["session"].request("POST", f"/games/{game}/hands", body=body)[0]
            if status == 303:
                expected[game] += 1
            return status

    def worker():
        while True:
            item = due.get()
            if item is None:
                return
            at, kind, what = item
            delay = at - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            try:
                status = record(what) if kind == "record hand" else poll_once(what)
            except OSError:
                status = 599
            with lock:
                results[kind].append((time.perf_counter() - at) * 1000)
                if status >= 400:
                    errors[kind] += 1

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(workers)]
    for t in threads:
        t.start()
    start = time.perf_counter() + 0.5
    for offset, kind, what in events:
        due.put((start + offset, kind, what))
    for _ in threads:
        due.put(None)
    for t in threads:
        t.join(timeout=seconds + 60)
    return {"latency": results, "errors": errors, "requests": len(events)}


def club_report(title: str, run: dict) -> list[str]:
    lines = [title, f"  {'kind':<13} {'n':>6} {'median ms':>10} {'p99 ms':>8} {'errors':>7}"]
    for kind in CLUB_KINDS:
        values = run["latency"].get(kind, [])
        if not values:
            continue
        median, p99 = statistics.median(values), percentile(values, 99)
        mark = "  ok" if median < GOALS["median_ms"] and p99 < GOALS["p99_ms"] else "  MISSED"
        lines.append(f"  {kind:<13} {len(values):>6} {median:>10.1f} {p99:>8.1f} {run['errors'].get(kind, 0):>7}"
                     f"{mark}")
    return lines


# --- bytes and taps -----------------------------------------------------------------------------------------

def first_load_bytes(table: Table) -> dict:
    """A game page's first load as a phone takes it (gzip): the page, its styles and the scripts it runs on
    opening; beside it, the script fetched ahead when the page is idle (the kept hands') and those run only when
    needed (the question, the poll's news, the form's answers, the keep-awake switch, the share box)."""
    session = table.session()
    game_id = table.typical_game
    _, packed, _ = session.request("GET", f"/games/{game_id}", headers={"Accept-Encoding": "gzip"})
    html = gzip.decompress(packed) if packed[:2] == b"\x1f\x8b" else packed

    def size(ref: str) -> int:
        return len(session.request("GET", ref.replace("&amp;", "&"), headers={"Accept-Encoding": "gzip"})[1])

    name = lambda ref: ref.split("?")[0].rsplit("/", 1)[1]  # noqa: E731
    sizes = {"html": len(packed)}
    refs = [ref.decode() for ref in
            re.findall(rb'<(?:script src|link rel="stylesheet" href)="(/(?:static|scripts)/[^"]+)"', html)]
    prefetched = [ref.decode() for ref in re.findall(rb'<link rel="prefetch" href="([^"]+)"', html)]
    later = re.search(rb'data-scripts="([^"]+)"', html)
    needed = json.loads(later[1].decode().replace("&#34;", '"').replace("&quot;", '"')) if later else {}
    # as a phone meets a server that has been up a while: the first answer for a file after a start is gzip's best,
    # and the server finds its tightest gzip beside the answers, a fifth of a second a file
    for ref in refs + prefetched + list(needed.values()):
        size(ref)
    time.sleep(3)
    for ref in refs:
        sizes[name(ref)] = size(ref)
    ahead = {name(ref): size(ref) for ref in prefetched}
    when_needed = {name(ref): size(ref) for ref in needed.values() if name(ref) not in ahead}
    ours = sum(v for k, v in sizes.items() if k.endswith(".js") and not k.startswith("htmx-"))
    hands = len(re.findall(rb'<details class="hand', html))
    return {"sizes": sizes, "total": sum(sizes.values()), "hands_on_sheet": hands, "ours": ours, "ahead": ahead,
            "when_needed": when_needed}


def recorded_hand_bytes(table: Table) -> dict:
    """A hand as a phone with JavaScript records it: the boosted POST, answered with the game's page itself."""
    session = table.session()
    game_id = table.open[0]
    _, page, _ = session.request("GET", f"/games/{game_id}")
    expected = re.search(rb'id="expected" name="expected" value="(\d+)"', page)[1].decode()
    table.expected[game_id] = int(expected) + 1
    body = urllib.parse.urlencode({"csrf_token": table.csrf, "token": uuid.uuid4().hex, "expected": expected,
                                   "kind": "played", "bidder": "t0", "bid": "50", "meld_0": "20", "meld_1": "0",
                                   "counters_0": "30", "counters_1": "20", "repeat": "1"}).encode()
    status, answer, response = session.request("POST", f"/games/{game_id}/hands", body=body, headers={
        "HX-Request": "true", "HX-Boosted": "true", "HX-Current-URL": f"http://127.0.0.1:{table.port}/games/{game_id}",
        "Accept-Encoding": "gzip"})
    return {"status": f"{status} {response.getheader('Scorepad-Answer')}", "sent": len(body), "received": len(answer)}


def taps(port: int) -> dict:
    """Taps and keystrokes in Debian's Chromium at 390×844 (Playwright), counted as the browser tests do."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {"error": "playwright is not installed"}
    chromium = os.environ.get("SCOREPAD_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        return {"error": f"{chromium} is missing"}
    base = f"http://127.0.0.1:{port}"
    flags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
             "--no-first-run", "--disable-quic", "--disable-sync"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=flags)
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        count = 0

        def tap(locator):
            nonlocal count
            locator.click()
            count += 1

        def type_in(locator, text):
            nonlocal count
            tap(locator)
            locator.press_sequentially(text)
            count += len(text)

        def keys(text):
            nonlocal count
            page.keyboard.type(text) if text != "Enter" else page.keyboard.press("Enter")
            count += len(text) if text != "Enter" else 1

        # A typical hand, as the issue tells it: Ann won the bid at 52 in hearts, meld 24 and 16, Us took 30
        # counters. Counted as the browser test does: a tap or an Enter is one, each key typed is one.
        played = {}
        ways = (("trump between, Enter", False, True), ("trump between, no Enter", False, False),
                ("trump first, Enter", True, True), ("trump first, no Enter", True, False))
        for name, trump_first, enter in ways:
            page.goto(f"{base}/games/new")
            page.get_by_text("Players and first dealer").click()
            for seat, player in enumerate(("Ann", "Bob", "Cat", "Dan")):
                page.fill(f"#player_{seat}", player)
            page.get_by_role("button", name="Start the game").click()
            page.wait_for_selector("#hand-form")
            count = 0
            tap(page.locator("#field-bidder .choice", has_text="Ann"))
            tap(page.locator(".chip", has_text="52"))  # the cursor goes on to Us's meld
            if trump_first:
                tap(page.locator("#field-trump .suit-choice.suit-H"))
            keys("24")
            if not trump_first:
                tap(page.locator("#field-trump .suit-choice.suit-H"))  # and the cursor goes on to Them's meld
            elif enter:
                keys("Enter")
            else:
                tap(page.locator("#meld_1"))
            for text, then in (("16", "#counters_0"), ("30", "button.save-button")):
                keys(text)
                keys("Enter") if enter else tap(page.locator(then))
            page.wait_for_selector("#saved")
            played[name] = count
        # The same hand later in a game, at a bid this table made before (65): one tap on its chip, as 52 is
        page.goto(f"{base}/games/new")
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_selector("#hand-form")
        page.locator("#field-bidder .choice").first.click()
        page.fill("#bid", "65")
        for field, value in (("#meld_0", "40"), ("#meld_1", "0"), ("#counters_0", "40")):
            page.fill(field, value)
        page.locator("button.save-button").click()
        page.wait_for_selector("#saved")
        count = 0
        tap(page.locator("#field-bidder .choice").first)
        tap(page.locator(".chip", has_text="65"))
        keys("24")
        tap(page.locator("#field-trump .suit-choice.suit-H"))
        for text in ("16", "Enter", "30", "Enter"):
            keys(text)
        page.wait_for_selector("#saved p:has-text('Hand 2 recorded')")
        later = count
        # Correcting it: the counters were really 26.
        count = 0
        tap(page.locator(".hands details summary").first)
        tap(page.get_by_role("link", name="Edit"))
        page.wait_for_selector("#counters_0")
        type_in(page.locator("#counters_0"), "26")
        tap(page.get_by_role("button", name="Save changes"))
        page.wait_for_selector(".badge-edited")
        corrected = count
        # A typical cutthroat hand (three players, each for themselves), on today's form as the four-handed hand
        # above: tap Ann, tap the 300 chip (the cursor goes on to her meld), 150, tap ♥ (on to Bob's meld), then
        # Bob's and Cat's meld and the counters of all but the last, each with ⏎: the last counters fill
        # themselves in and the last ⏎ saves.
        page.goto(f"{base}/games/new?seating=3x1")
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_selector("#hand-form")
        count = 0
        tap(page.locator("#field-bidder .choice").first)
        tap(page.locator(".chip", has_text="300"))
        keys("150")
        tap(page.locator("#field-trump .suit-choice.suit-H"))
        for text in ("40", "Enter", "60", "Enter", "160", "Enter", "50", "Enter"):
            keys(text)
        page.wait_for_selector("#saved")
        # the count is only worth reporting for the hand meant: Ann made 300 with 150 meld and 160 counters
        totals = [page.locator(f"#total-{side}").inner_text() for side in range(3)]
        cutthroat = count if totals == ["310", "90", "100"] else f"the hand saved wrong ({' '.join(totals)})"
        browser.close()
    return {"played hand": played, "correct a hand": corrected, "cutthroat hand": cutthroat, "later hand": later}


def tap_words(tapped: dict) -> list[str]:
    """'taps for a typical hand: 11 with an Enter key, 11 without …', against the goals."""
    hand = tapped["played hand"]
    best_enter = min(hand["trump between, Enter"], hand["trump first, Enter"])
    best_without = min(hand["trump between, no Enter"], hand["trump first, no Enter"])
    met = best_enter <= GOALS["taps_enter"] and best_without <= GOALS["taps_no_enter"]
    return [f"taps for a typical hand: {best_enter} with an Enter key, {best_without} without "
            f"(trump tapped after the first meld; {hand['trump first, Enter']} and {hand['trump first, no Enter']} "
            f"with trump tapped before it)  (goal ≤ {GOALS['taps_enter']} with Enter, ≤ {GOALS['taps_no_enter']} "
            f"without: {_ok(met)})",
            f"the same hand later in a game, at a bid this table made before (65, one tap on its chip): "
            f"{tapped['later hand']} with an Enter key",
            f"taps and keystrokes to correct a hand at 390×844: {tapped['correct a hand']}",
            f"taps and keystrokes for a typical three-handed (cutthroat) hand: {tapped['cutthroat hand']}"]


# --- the report ---------------------------------------------------------------------------------------------

def report(title: str, run: dict, goals: bool) -> list[str]:
    lines = [title, f"  {'kind':<13} {'n':>6} {'median ms':>10} {'p99 ms':>8} {'errors':>7}"]
    for kind, _ in MIX:
        values = run["latency"].get(kind, [])
        if not values:
            continue
        median, p99 = statistics.median(values), percentile(values, 99)
        mark = ""
        if goals:
            mark = "  ok" if median < GOALS["median_ms"] and p99 < GOALS["p99_ms"] else "  MISSED"
        lines.append(f"  {kind:<13} {len(values):>6} {median:>10.1f} {p99:>8.1f} {run['errors'].get(kind, 0):>7}"
                     f"{mark}")
    return lines


def _ok(met: bool) -> str:
    return "ok" if met else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=100.0, help="open-loop requests a second")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each load")
    parser.add_argument("--clients", type=int, default=20, help="closed-loop clients")
    parser.add_argument("--club-tables", type=int, default=20, help="tables of the club night")
    parser.add_argument("--club-seconds", type=float, default=60.0,
                        help="length of the club night's load (a minute: the wall polls 20 times, each table records "
                             "a hand)")
    parser.add_argument("--scale-tables", type=int, default=30, help="tables of the club night as browsers make it")
    parser.add_argument("--scale-seconds", type=float, default=60.0,
                        help="length of that night's load, and of the floor's beside it")
    parser.add_argument("--floor-seconds", type=float, default=5.0,
                        help="length of each kind's run, and of the floor's before it")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="scorepad-bench-")
    database = str(Path(folder) / "bench.db")
    began = time.perf_counter()
    history = generate(database, games=args.games)
    print(f"history: {history['finished']:,} finished games, {len(history['open_games'])} in progress, "
          f"{history['hands']:,} hands, written in {time.perf_counter() - began:.1f} s "
          f"({Path(database).stat().st_size / 2**20:.0f} MiB)", flush=True)
    port, floor_port = free_port(), free_port()
    server = start_server(database, port)
    floor_server = None
    try:
        warming = warmed(port)
        print(f"start-up warming: {warming.get('cpu seconds', '?')} s of CPU, over in {warming['waited']:.0f} s",
              flush=True)
        table = Table(port, history)
        floor_server = start_floor(floor_port, table.typical_page_bytes)
        # a short warm-up, so the first figures are not Python importing templates
        phases = {"warmed": peak_memory_mb(server.pid)}
        open_loop(table, rate=50, seconds=2)
        club = open_loop(table, rate=args.rate, seconds=args.seconds)
        phases["open loop"] = peak_memory_mb(server.pid)
        most = closed_loop(table, clients=args.clients, seconds=args.seconds)
        phases["closed loop"] = peak_memory_mb(server.pid)
        floors = against_floor(table, floor_port, args.floor_seconds)
        phases["beside the floor"] = peak_memory_mb(server.pid)
        club_night = club_setup(port, args.club_tables)
        club_load(port, club_night, seconds=3)  # a warm-up: every phone's first answer is a whole fragment
        tables_night = club_load(port, club_night, seconds=args.club_seconds)
        phases["club night"] = peak_memory_mb(server.pid)
        from bench import club as browsers  # it builds on this module's night

        at_scale, floor = browsers.measure(port, server.pid, args.scale_tables, args.scale_seconds)
        memory = phases["club night as browsers"] = peak_memory_mb(server.pid)
        said = server_memory(port)
        load = first_load_bytes(table)
        hand = recorded_hand_bytes(table)
        tapped = {} if args.no_browser else taps(port)
    finally:
        for process in (server, floor_server):
            if process is not None:
                process.kill()
                process.wait()

    lines = [f"Scorepad benchmarks · {os.cpu_count()} cores · python {sys.version.split()[0]}",
             f"start-up warming of {args.games:,} games (everyone's records, ladder and figures, on a thread that "
             f"steps aside for requests): {warming.get('cpu seconds', '?')} s of CPU, over "
             f"{warming['waited']:.0f} s after the server answered; measured from then on", ""]
    lines += report(f"club night: open loop at {args.rate:.0f} requests/s for {args.seconds:.0f} s "
                    f"({club['requests']} requests; goal: median < {GOALS['median_ms']} ms, "
                    f"p99 < {GOALS['p99_ms']} ms)", club, goals=True)
    lines += [""] + report(f"the most it serves: closed loop, {args.clients} clients for {args.seconds:.0f} s "
                           f"→ {most['throughput']:.0f} requests/s", most, goals=False)
    lines += [save_words(most)]
    lines += [""] + floor_report(floors, args.floor_seconds, table.typical_page_bytes)
    lines += [""] + club_report(
        f"a club night of {args.club_tables} tables for {args.club_seconds:.0f} s: {4 * args.club_tables} phones and "
        f"the wall polling every 3 s, a hand a minute at each table ({tables_night['requests']} requests; goal: median "
        f"< {GOALS['median_ms']} ms, p99 < {GOALS['p99_ms']} ms)", tables_night)
    lines += [""] + browsers.report(args.scale_tables, args.scale_seconds, at_scale, floor)
    lines += [""] + memory_words(memory, said)
    lines += ["  peak by the end of each phase (MiB): " + ", ".join(f"{k} {v:.0f}" for k, v in phases.items())]
    lines += [f"first load of a game page, gzip ({load['hands_on_sheet']} hands on its sheet): "
              f"{load['total'] / 1024:.1f} KiB = " + " + ".join(f"{k} {v / 1024:.1f}" for k, v in
                                                           load["sizes"].items())
              + f"  (goal ≤ {GOALS['first_load_kib']} KiB: {_ok(load['total'] <= GOALS['first_load_kib'] * 1024)})",
              f"  our scripts run on opening it: {load['ours'] / 1024:.2f} KiB (goal ≤ "
              f"{GOALS['our_scripts_kib']} KiB: {_ok(load['ours'] <= GOALS['our_scripts_kib'] * 1024)}); "
              "fetched ahead when idle: "
              + ", ".join(f"{k} {v / 1024:.1f}" for k, v in load["ahead"].items())
              + "; run when needed: " + ", ".join(f"{k} {v / 1024:.1f}" for k, v in load["when_needed"].items()),
              f"one recorded hand: {hand['sent']} bytes sent, {hand['received'] / 1024:.1f} KiB received "
              f"(the game's page it is answered with, gzip; answer {hand['status']})"]
    if tapped:
        if "error" in tapped:
            lines.append(f"taps: not measured ({tapped['error']})")
        else:
            lines += tap_words(tapped)
    # In a process of its own: what its children (Litestream) use is then theirs alone, not the server's above
    drilled = subprocess.run([sys.executable, "-m", "bench.drill", "--database", database], cwd=ROOT,
                             capture_output=True, text=True, timeout=1800)
    lines += [""] + (drilled.stdout.strip().splitlines() or [f"restore drill: not measured ({drilled.stderr[-300:]})"])
    print("\n".join(lines))
    (Path(folder) / "results.json").write_text(json.dumps({"club": {k: v for k, v in club.items()
                                                                     if k != "latency"}}, default=str))


if __name__ == "__main__":
    main()
