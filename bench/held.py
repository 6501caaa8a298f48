"""Held connections: does a phone's save still get through while the server's connections are held?

Starts the production server (`python -m scorepad`, waitress) on a loopback port with a fresh database, then
for `--seconds`:

- `--phones` phone-like clients, each on one keep-alive connection, polling a game's sheet every 3 s (with its
  ETag, as the page does);
- `--held` connections held by someone else, in three equal parts: headers dripped a byte a second and never
  finished (slowloris), a request body dripped a byte a second, and keep-alive connections left idle after one
  request. Each is opened again as soon as the server closes it, as an attacker would;
- one phone recording a hand every second, half the time on its kept connection and half on a new one (a phone
  that wakes up opens one), each with a 25 s timeout as the page has.

Prints the saves' and the polls' latency (median, 99th percentile, most), failures, and how often the server
closed a held connection. The goal: every save answered within 1 s.

    .venv/bin/python bench/held.py                         # 150 phones and 120 held connections, 40 s
    .venv/bin/python bench/held.py --phones 20 --held 12 --seconds 5

Every connection goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.run import free_port, listening, percentile  # noqa: E402

GOAL_SECONDS = 1.0
POLL_EVERY = 3.0
SAVE_TIMEOUT = 25.0


def start_server(folder: Path, port: int):
    import subprocess

    env = {**os.environ, "SCOREPAD_INSTANCE": str(folder)}
    for name in ("SCOREPAD_PASSCODE", "SCOREPAD_DATABASE"):
        env.pop(name, None)
    process = subprocess.Popen([sys.executable, "-m", "scorepad", "--host", "127.0.0.1", "--port", str(port),
                                "--no-qr"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    return listening(process, port, "the server", path="/healthz")


class Phone:
    """A cookie, a CSRF token and a keep-alive connection, as a phone's browser has."""

    def __init__(self, port: int):
        self.port, self.cookie = port, ""
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=SAVE_TIMEOUT)

    def request(self, method: str, path: str, body: bytes | None = None, fresh: bool = False):
        if fresh:
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=SAVE_TIMEOUT)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):  # a kept connection the server closed meanwhile: the browser opens another
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=SAVE_TIMEOUT)
                if attempt == 2:
                    raise
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data, response


def new_game(phone: Phone) -> tuple[int, str, str]:
    """A game of four to record in: (its id, the page's CSRF token, its sheet's ETag)."""
    _, page, _ = phone.request("GET", "/games/new")
    csrf = re.search(rb'name="csrf-token" content="([^"]+)"', page)[1].decode()
    status, _, response = phone.request("POST", "/games/new", urllib.parse.urlencode(
        {"csrf_token": csrf, "preset": "double-deck"}).encode())
    assert status == 303, status
    game_id = int(re.search(r"/games/(\d+)", response.getheader("Location"))[1])
    _, page, _ = phone.request("GET", f"/games/{game_id}")
    etag = re.search(rb'If-None-Match": "\\"(g\d+-v\d+-[0-9a-f]+)\\""', page)[1].decode()
    return game_id, csrf, etag


# --- everyone else, in one event loop --------------------------------------------------------------------------

class Counts:
    def __init__(self):
        self.polls: list[float] = []
        self.poll_failures = 0
        self.closed = {"headers": 0, "body": 0, "idle": 0}
        self.held_now = 0


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """(status, whether the server keeps the connection) of one response, its body read."""
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    if length:
        await reader.readexactly(int(length[1]))
    return status, not re.search(rb"(?i)\r\nconnection: *close", head)


async def poller(port: int, game_id: int, etag: str, start_in: float, until: float, counts: Counts) -> None:
    """A phone on its table's sheet: one keep-alive connection, a poll every 3 s."""
    await asyncio.sleep(start_in)
    reader = writer = None
    request = (f"GET /games/{game_id}/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHX-Request: true\r\n"
               f'If-None-Match: "{etag}"\r\n\r\n').encode()
    while time.monotonic() < until:
        due = time.monotonic()
        try:
            if writer is None:
                reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), SAVE_TIMEOUT)
            writer.write(request)
            status, keep = await asyncio.wait_for(read_response(reader), SAVE_TIMEOUT)
            counts.polls.append(time.monotonic() - due)
            if status not in (200, 304):
                counts.poll_failures += 1
            if not keep:
                writer.close()
                writer = None
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
            counts.poll_failures += 1
            if writer is not None:
                writer.close()
            writer = None
        await asyncio.sleep(max(0.0, POLL_EVERY - (time.monotonic() - due)))
    if writer is not None:
        writer.close()


async def holder(port: int, kind: str, until: float, counts: Counts) -> None:
    """One connection held open, opened again each time the server closes it."""
    host = f"Host: 127.0.0.1:{port}\r\n"
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.5)
            continue
        counts.held_now += 1
        try:
            if kind == "idle":
                writer.write(f"GET /healthz HTTP/1.1\r\n{host}\r\n".encode())
                await read_response(reader)
                await asyncio.wait_for(reader.read(1), max(0.1, until - time.monotonic()))  # "" once closed
            else:
                if kind == "headers":
                    writer.write(f"GET / HTTP/1.1\r\n{host}X-Waiting: ".encode())
                else:
                    writer.write(f"POST /games/new HTTP/1.1\r\n{host}Content-Type: application/x-www-form-urlencoded"
                                 f"\r\nContent-Length: 100000\r\n\r\n".encode())
                while time.monotonic() < until:
                    await asyncio.sleep(1)
                    writer.write(b"a")
                    await writer.drain()
                    if reader.at_eof():
                        break
                    try:  # the server's answer or its close shows here
                        if await asyncio.wait_for(reader.read(1), 0.001) == b"":
                            break
                    except TimeoutError:
                        pass
            if time.monotonic() < until:
                counts.closed[kind] += 1
        except (TimeoutError, OSError, asyncio.IncompleteReadError):
            if time.monotonic() < until:
                counts.closed[kind] += 1
        finally:
            counts.held_now -= 1
            writer.close()


async def crowd(port: int, games: list[tuple[int, str]], phones: int, held: int, seconds: float,
                counts: Counts, ready: threading.Event) -> None:
    until = time.monotonic() + seconds
    tasks = [asyncio.create_task(holder(port, ("headers", "body", "idle")[n % 3], until, counts))
             for n in range(held)]
    tasks += [asyncio.create_task(poller(port, *games[n % len(games)], POLL_EVERY * n / phones, until, counts))
              for n in range(phones)]
    await asyncio.sleep(min(3.0, seconds / 4))  # everyone has connected
    ready.set()
    await asyncio.gather(*tasks)


# --- the measured phone ---------------------------------------------------------------------------------------

def saves(port: int, games: list[int], csrf: str, phone: Phone, until: float) -> tuple[list[float], list]:
    """A hand recorded every second until `until`, at each game in turn (no game reaches its target): each
    save's seconds, and the statuses of those that failed."""
    latencies, failures, expected, n = [], [], dict.fromkeys(games, 1), 0
    while time.monotonic() < until:
        game_id = games[n % len(games)]
        body = urllib.parse.urlencode({"csrf_token": csrf, "token": uuid.uuid4().hex, "expected": expected[game_id],
                                       "kind": "played", "bidder": "t0", "bid": "50", "meld_0": "20",
                                       "meld_1": "0", "counters_0": "30", "counters_1": "20", "repeat": "1"}).encode()
        started = time.monotonic()
        try:
            status = phone.request("POST", f"/games/{game_id}/hands", body, fresh=n % 2 == 1)[0]
        except OSError as exc:
            status = exc.__class__.__name__
        latencies.append(time.monotonic() - started)
        if status == 303:
            expected[game_id] += 1
        else:
            failures.append(status)
        n += 1
        time.sleep(max(0.0, 1.0 - (time.monotonic() - started)))
    return latencies, failures


def run(phones: int, held: int, seconds: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="scorepad-held-") as folder:
        port = free_port()
        server = start_server(Path(folder), port)
        try:
            setup = Phone(port)
            games = [new_game(setup) for _ in range(max(1, phones // 4))]
            csrf = games[0][1]
            counts, ready = Counts(), threading.Event()
            loop = threading.Thread(target=lambda: asyncio.run(crowd(
                port, [(g, e) for g, _, e in games], phones, held, seconds, counts, ready)), daemon=True)
            loop.start()
            ready.wait(30)
            held_at_start = counts.held_now
            latencies, failures = saves(port, [g for g, _, _ in games], csrf, setup, time.monotonic() + seconds * 0.7)
            setup.conn.close()
            loop.join(seconds + 60)
        finally:
            server.terminate()
            server.wait(10)
    return {"saves": latencies, "save_failures": failures, "polls": counts.polls,
            "poll_failures": counts.poll_failures, "closed": counts.closed, "held_at_start": held_at_start}


def report(figures: dict, phones: int, held: int) -> list[str]:
    def ms(values: list[float], p: float | None = None) -> str:
        if not values:
            return "-"
        value = statistics.median(values) if p is None else percentile(values, p)
        return f"{value * 1000:,.0f} ms"

    saves, polls = figures["saves"], figures["polls"]
    met = bool(saves) and max(saves) <= GOAL_SECONDS and not figures["save_failures"]
    failed = figures["save_failures"]
    closed = figures["closed"]
    return [
        f"Held connections: {phones} phones polling every {POLL_EVERY:.0f} s, {held} connections held "
        f"({figures['held_at_start']} open when the saves began)",
        f"  saves   {len(saves):>5}   median {ms(saves):>9}   p99 {ms(saves, 99):>9}   most {ms(saves, 100):>9}"
        f"   failed {len(failed)}{' (' + ', '.join(map(str, failed[:5])) + ')' if failed else ''}",
        f"  polls   {len(polls):>5}   median {ms(polls):>9}   p99 {ms(polls, 99):>9}   most {ms(polls, 100):>9}"
        f"   failed {figures['poll_failures']}",
        f"  held connections the server closed: {closed['headers']} dripping headers, {closed['body']} dripping a "
        f"body, {closed['idle']} idle",
        f"  every save answered within {GOAL_SECONDS:.0f} s: {'yes' if met else 'NO'}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=150)
    parser.add_argument("--held", type=int, default=120)
    parser.add_argument("--seconds", type=float, default=40)
    args = parser.parse_args()
    figures = run(args.phones, args.held, args.seconds)
    print("\n".join(report(figures, args.phones, args.held)))


if __name__ == "__main__":
    main()
