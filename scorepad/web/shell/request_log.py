"""Request logs a person reads: one line for every change a phone sends, every request that failed on our side,
and every slow one. The phones' polls and page loads that went well are the normal hum, and say nothing.

    192.168.1.23 POST /games/4/hands -> 303 in 12 ms
"""

from __future__ import annotations

import logging
import time

from flask import g, request

logger = logging.getLogger("scorepad.requests")

SLOW_SECONDS = 1.0
READS = frozenset({"GET", "HEAD", "OPTIONS"})


def worth_a_line(method: str, status: int, seconds: float) -> bool:
    """A change, a server-side failure or a slow answer; not a read that went well (nor a 4xx read: a stranger's
    wrong address is not news)."""
    return method not in READS or status >= 500 or seconds >= SLOW_SECONDS


def _start() -> None:
    g.request_started = time.monotonic()


def note(address: str | None, method: str, path: str, status: int, seconds: float) -> None:
    """The line for one answered request, when it is worth one."""
    if worth_a_line(method, status, seconds):
        logger.info("%s %s %s -> %s in %d ms", address or "-", method, path, status, seconds * 1000)


def _log(response):
    seconds = time.monotonic() - g.get("request_started", time.monotonic())
    note(request.remote_addr, request.method, request.path, response.status_code, seconds)
    return response


def init_app(app) -> None:
    app.before_request(_start)
    app.after_request(_log)
