"""`python -m scorepad`: serve the app on the local network with a production WSGI server (waitress), and
print the address and a QR code a phone can scan to open it."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time

from waitress.channel import HTTPChannel
from waitress.task import WSGITask

from ...core.inputs import NotANumber, whole_number
from .addresses import lan_addresses
from .version import version

EVERY_INTERFACE = ("0.0.0.0", "")


def banner(host: str, port: int, qr: bool = True, serving: bool = True) -> str:
    addresses = lan_addresses() if host in EVERY_INTERFACE else [host]
    urls = [f"http://{_in_url(a)}:{port}/" for a in addresses] or [f"http://127.0.0.1:{port}/"]
    lines = ["Scorepad is running. Open it on a phone on the same network:"]
    lines += [f"  {u}" for u in urls]
    if qr and not urls[0].startswith("http://127."):
        try:
            import io

            import segno

            out = io.StringIO()
            segno.make(urls[0], error="l").terminal(out=out, compact=True)
            lines.append(out.getvalue())
        except Exception as exc:  # a QR code is a convenience; the address above is enough
            lines.append(f"(no QR code: {exc})")
    if serving:
        lines.append("Press Ctrl+C to stop.")
    return "\n".join(lines)


def _in_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host  # an IPv6 address is bracketed in a URL


THREADS = 16  # a club night's bursts (a dozen phones polling at once) wait for no thread

# Connections. A club night of 30 tables is 120 phones and a wall, and a phone's browser keeps several connections
# open to one server (up to six): at most 726, and 2,000 leaves as many again for phones that reconnect and for
# anyone holding connections open (bench/club.py measures such a night: 121 connections kept alive by the polling
# phones, 242 sockets at most with the phones that had just signed in). waitress's default of 100 connections was
# used up by a night of 20 tables, and by anyone holding a hundred connections open, and then no save got through.
# Waitress hands a request to a thread only once all of it has arrived, so a slow sender holds a connection, never
# a thread: what is held is bounded by the limit, the idle timeout and the deadline for a request to arrive.
CONNECTION_LIMIT = 2000
IDLE_SECONDS = 60  # a keep-alive connection with nothing asked for this long is closed (a phone polls every 3 s)
REQUEST_SECONDS = 10  # a request's headers must have arrived this long after its first byte ...
BODY_BYTES_PER_SECOND = 16_384  # ... and from then on its body keeps up this pace (a 50 MB import: 53 minutes)
CHECK_SECONDS = 1  # how often held connections are looked at


def server_options(threads: int = THREADS) -> dict:
    """waitress's settings for a club night (see CONNECTION_LIMIT)."""
    return {"threads": threads, "connection_limit": CONNECTION_LIMIT, "channel_timeout": IDLE_SECONDS,
            "cleanup_interval": CHECK_SECONDS, "backlog": 2048,
            "asyncore_use_poll": True}  # select() cannot watch a socket numbered past 1023


class KeptAliveTask(WSGITask):
    """An answer that keeps its connection when it has no body. waitress (3.0) closes the connection after any
    answer without a Content-Length, and a 304 or 204 never has one (it may not), though it ends with its headers
    (RFC 9112, 6.3). A phone polls every 3 s and almost every answer is a 304: each poll closed its connection,
    and the next opened one again (30 tables: 1,143 connections opened for 1,365 requests in 30 s)."""

    _bodiless = False

    def build_response_header(self):
        asked_to_close = self.request.headers.get("CONNECTION", "").lower() == "close"
        self._bodiless = self.version == "1.1" and not self.has_body and not self.close_on_finish and not asked_to_close
        try:
            return super().build_response_header()
        finally:
            self._bodiless = False

    def set_close_on_finish(self) -> None:
        if not self._bodiless:  # nothing else here calls for a close: the answer ends with its headers
            super().set_close_on_finish()


class TimedChannel(HTTPChannel):
    """A connection that knows since when the request it is receiving has been arriving, and how many of its
    bytes have come, so that a sender dripping a byte now and then (slowloris) is closed once it is late."""

    task_class = KeptAliveTask
    request_started: float | None = None  # None between requests
    request_bytes = 0

    def received(self, data):
        done = super().received(data)
        if self.request is None:
            self.request_started, self.request_bytes = None, 0
        elif self.request_started is None:
            self.request_started, self.request_bytes = time.time(), len(data)
        else:
            self.request_bytes += len(data)
        return done


def late(channel, now: float) -> bool:
    """Whether the request `channel` is receiving comes slower than a phone on poor Wi-Fi sends one: its
    headers not all there after REQUEST_SECONDS, or its body falling behind BODY_BYTES_PER_SECOND after that."""
    started, request = getattr(channel, "request_started", None), channel.request
    if started is None or request is None:
        return False
    overdue = now - started - REQUEST_SECONDS
    if overdue <= 0:
        return False
    return not request.headers_finished or channel.request_bytes < overdue * BODY_BYTES_PER_SECOND


def create_server(app, **options):
    """waitress's server with `options`, whose connections close a request that arrives too slowly."""
    from waitress.server import BaseWSGIServer
    from waitress.server import create_server as waitress_server

    server = waitress_server(app, **options)
    sockets = getattr(server, "map", None) or server._map
    for listener in [s for s in sockets.values() if isinstance(s, BaseWSGIServer)]:
        listener.channel_class = TimedChannel
        listener.maintenance = _maintenance(listener, listener.maintenance)
    return server


def _maintenance(listener, idle_check):
    def maintenance(now: float) -> None:
        idle_check(now)  # waitress's own: idle keep-alive connections
        for channel in list(listener.active_channels.values()):
            if late(channel, now):
                channel.will_close = True
    return maintenance


def more_files() -> None:
    """Let the process hold as many connections as the limit allows (a shell's soft limit is often 1024)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CONNECTION_LIMIT + 256  # the database, its backups, the log
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE,
                               (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard))
        except (OSError, ValueError):  # not allowed here: the limit stays, and so does everything else
            pass


class QuietQueue(logging.Filter):
    """waitress warns whenever a request waits for a thread, which a burst of polls does for a millisecond on a
    normal night. Say so only when the queue is deeper than the threads (each waiting request then waits for
    more than one other), and then once a minute at most."""

    def __init__(self, threads: int, every: float = 60.0, clock=time.monotonic):
        super().__init__()
        self.threads, self.every, self.clock = threads, every, clock
        self._last = None

    def filter(self, record: logging.LogRecord) -> bool:
        depth = record.args[0] if isinstance(record.args, tuple) and record.args else 0
        if not isinstance(depth, int) or depth <= self.threads:
            return False
        now = self.clock()
        if self._last is not None and now - self._last < self.every:
            return False
        self._last = now
        return True


def setup_logging(threads: int) -> None:
    """Lines a person reads in a terminal or the journal: the time on the house's clock, then what happened."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
    for handler in logging.getLogger().handlers:
        if handler.formatter is not None:
            handler.formatter.converter = _house_clock
    logging.getLogger("waitress.queue").addFilter(QuietQueue(threads))


def _house_clock(seconds: float | None) -> time.struct_time:
    """A log line's time on the house's clock: in a container the machine's own clock says UTC."""
    from datetime import UTC, datetime

    from ...core import house_time

    return house_time.local(datetime.fromtimestamp(seconds or 0, UTC)).timetuple()


MEMORY_ARENAS = 2
# Freed memory glibc hands back to the system: blocks of this size or more are mapped on their own (and unmapped
# when freed), and a free heap top of this size is returned.
MEMORY_GIVEN_BACK = 128 * 1024
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8  # mallopt's parameters (malloc.h)


def memory_given_back() -> None:
    """glibc's allocator keeps what a busy server once held; on a Pi Zero 2 (512 MB) it must give it back.

    - Each thread that allocates gets its own arena (up to eight a core), and each keeps what it once held: sixteen
      server threads rendering pages held some 50 MiB more than two arenas do.
    - Its threshold for mapping a large block on its own rises each time such a block is freed (up to 32 MiB), so
      after one large page (a player's records: lists of thousands of games) every later one is carved from the
      heap, which fragments and is never returned: a player's records, eight at a time, took the server from 83 to
      108 MiB; with the threshold held at 128 KiB, to 89.
    Neither costs a speed the bench can see. (MALLOC_ARENA_MAX and MALLOC_MMAP_THRESHOLD_, set before the start,
    are the same: what is set there is left as it is.)"""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        if not os.environ.get("MALLOC_ARENA_MAX"):
            libc.mallopt(_M_ARENA_MAX, MEMORY_ARENAS)
        if not os.environ.get("MALLOC_MMAP_THRESHOLD_") and not os.environ.get("MALLOC_TRIM_THRESHOLD_"):
            libc.mallopt(_M_MMAP_THRESHOLD, MEMORY_GIVEN_BACK)
            libc.mallopt(_M_TRIM_THRESHOLD, MEMORY_GIVEN_BACK)
    except (OSError, AttributeError):  # a libc that is not glibc has none of these
        pass


def check(port: int) -> int:
    """Ask the Scorepad on this machine's `port` for /healthz: 0 when healthy (a container's HEALTHCHECK)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            print(response.read().decode())
            return 0
    except (OSError, urllib.error.URLError) as exc:
        print(f"Scorepad on port {port} is not healthy: {exc}", file=sys.stderr)
        return 1


def _stop_serving(signum, frame) -> None:
    """SIGTERM ends the server as Ctrl+C does (waitress closes on SystemExit): what follows `run` still runs, so
    Litestream sends what is left and its config, which may hold a password, is removed."""
    raise SystemExit(0)


def _port(text: str) -> int:
    try:
        port = whole_number(text, low=1, high=65535, what="The port")
    except NotANumber as refused:
        raise argparse.ArgumentTypeError(str(refused)) from None
    if port is None:
        raise argparse.ArgumentTypeError("The port is empty: give a number from 1 to 65535.")
    return port


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scorepad", description="Serve Scorepad.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=_port, default=os.environ.get("SCOREPAD_PORT") or "8000",
                        help="port (default: SCOREPAD_PORT, else 8000)")
    parser.add_argument("--threads", type=int, default=THREADS, help=f"worker threads (default: {THREADS})")
    parser.add_argument("--no-qr", action="store_true", help="do not print a QR code")
    parser.add_argument("--show-address", action="store_true",
                        help="print the address and QR code a phone opens, and exit (the server runs elsewhere)")
    parser.add_argument("--check", action="store_true",
                        help="ask the Scorepad running on --port whether it is healthy, and exit 0 if it is")
    parser.add_argument("--home-assistant", action="store_true",
                        help="run as Home Assistant's add-on: its options (/data/options.json) are the settings")
    parser.add_argument("--version", action="version", version=f"Scorepad {version()}")
    args = parser.parse_args(argv)
    if args.home_assistant:
        from .home_assistant import OptionsRefused, apply

        try:
            apply()
        except OptionsRefused as refused:
            sys.exit(str(refused))
    if args.check:
        sys.exit(check(args.port))
    if args.show_address:
        print(banner(args.host, args.port, qr=not args.no_qr, serving=False))
        return

    from ...store.backups import BackupRefused
    from .app import create_app
    from .startup import CannotStart

    setup_logging(args.threads)
    memory_given_back()
    try:
        app = create_app()
    except (BackupRefused, CannotStart) as refused:  # a sentence, as the rest of the start-up refusals
        sys.exit(str(refused))
    if args.host not in EVERY_INTERFACE:
        app.extensions["scorepad_hosts"].trust(args.host)  # the address printed below is one the app answers to
    app.config["LISTENING_HOST"] = args.host  # a club's table cards point phones at an address they can reach
    app.extensions["scorepad_backups"].start_daily()
    replication = app.extensions.get("scorepad_replica")
    if replication is not None:  # REPLICA_URL: Litestream runs beside the server, and stops with it
        replication.start()
    print(banner(args.host, args.port, qr=not args.no_qr), flush=True)
    more_files()
    signal.signal(signal.SIGTERM, _stop_serving)  # `systemctl stop`, a container's stop: the same as Ctrl+C
    try:
        server = create_server(app, host=args.host, port=args.port, ident="scorepad", **server_options(args.threads))
        server.print_listen("Serving on http://{}:{}")
        server.run()
    except OSError as exc:
        sys.exit(f"Could not listen on {args.host}:{args.port}: {exc}. Try another --port.")
    finally:
        try:
            app.extensions["scorepad_backups"].wait(stopping=True)  # a finished game's copy still to come: now
        finally:
            if replication is not None:
                replication.stop()  # what is left goes to the replica before the server is gone
