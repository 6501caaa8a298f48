"""A table passcode: anyone on the network may watch the score; changing anything asks for the passcode once
per device (a signed cookie). Without a passcode configured, nothing here does anything.

A change sent by a locked device is not lost: the answer is the passcode form carrying everything that was
sent, so typing the passcode sends the change on, as it was.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import threading
import time
from collections import deque
from dataclasses import dataclass
from datetime import timedelta

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for

from .paths import safe_path

bp = Blueprint("passcode", __name__)

# Requests that change nothing even though they are POSTs: the hand form's "Check" and "Count cards".
EXEMPT = {"passcode.unlock", "passcode.unlock_page", "games.preview", "meld.start", "static"}
FREE_GUESSES = 3
LOCKOUT_SECONDS = (2, 4, 8, 16, 30)  # after the free guesses, each wrong one waits longer
# Many addresses (a laptop can take dozens on a home network) share one budget, so they cannot guess fast either.
EVERYONE_FREE_GUESSES = 20
EVERYONE_WINDOW_SECONDS = 60
TRACKED_ADDRESSES = 4096  # memory for per-address counts stays bounded however many addresses guess


def _lockout(count: int, free: int) -> int:
    """Seconds the `count`th wrong guess in a row makes the next guess wait, after `free` that wait nothing."""
    if count <= free:
        return 0
    return LOCKOUT_SECONDS[min(count - free, len(LOCKOUT_SECONDS)) - 1]


class Guesses:
    """Wrong guesses per client address and from everyone together, in memory: enough to slow a guesser on a
    home network. `clock` is injectable so tests need not sleep."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[str, tuple[int, float]] = {}
        self._recent: deque[float] = deque()  # when each wrong guess from anywhere came, within the window
        self._everyone_until = 0.0

    def wait_left(self, who: str) -> int:
        """Whole seconds before `who` may guess again (0: now)."""
        with self._lock:
            _, until = self._wrong.get(who, (0, 0.0))
            until = max(until, self._everyone_until)
        return max(0, math.ceil(until - self._clock()))

    def wrong(self, who: str) -> int:
        """Count a wrong guess from `who`; returns how many in a row that address has made."""
        now = self._clock()
        with self._lock:
            count = self._wrong.pop(who, (0, 0.0))[0] + 1
            self._wrong[who] = (count, now + _lockout(count, FREE_GUESSES))
            if len(self._wrong) > TRACKED_ADDRESSES:
                del self._wrong[next(iter(self._wrong))]  # the address that guessed wrong longest ago
            self._count_for_everyone(now)
        return count

    def _count_for_everyone(self, now: float) -> None:
        self._recent.append(now)
        while self._recent[0] <= now - EVERYONE_WINDOW_SECONDS:
            self._recent.popleft()
        wait = _lockout(len(self._recent), EVERYONE_FREE_GUESSES)
        if wait:
            self._everyone_until = now + wait

    def right(self, who: str) -> None:
        """`who` knows the passcode: its own count starts again (the budget shared by everyone does not)."""
        with self._lock:
            self._wrong.pop(who, None)


@dataclass(frozen=True)
class Refusal:
    """Why a guess did not unlock this device: the words for the player and the status that goes with them."""

    message: str
    status: int


WRONG = Refusal("That is not the table's passcode.", 403)


def waiting(seconds: int) -> Refusal:
    return Refusal(f"Too many wrong guesses. Wait {seconds} seconds, then try again.", 429)


def configured() -> str | None:
    return current_app.config.get("PASSCODE") or None


def _fingerprint(passcode: str) -> str:
    # The cookie holds a keyed hash, not the passcode: changing the passcode locks every device again.
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, passcode.encode(), hashlib.sha256).hexdigest()[:32]


def unlocked() -> bool:
    passcode = configured()
    return passcode is None or hmac.compare_digest(session.get("unlocked", ""), _fingerprint(passcode))


def _client() -> str:
    return request.remote_addr or "unknown"


def _try(guess: str) -> Refusal | None:
    """Unlock this device with `guess`; None when it worked, else why not."""
    who = _client()
    wait = current_app.extensions["scorepad_guesses"].wait_left(who)
    if wait:
        return waiting(wait)
    if hmac.compare_digest(guess.encode(), configured().encode()):
        current_app.extensions["scorepad_guesses"].right(who)
        session.permanent = True
        session["unlocked"] = _fingerprint(configured())
        return None
    count = current_app.extensions["scorepad_guesses"].wrong(who)
    current_app.logger.warning("Wrong table passcode from %s (%d in a row)", who, count)
    return WRONG


def guard():
    """Before every request: a change from a locked device gets the passcode form, carrying what it sent."""
    if configured() is None or request.method in ("GET", "HEAD", "OPTIONS") or request.endpoint in EXEMPT:
        return None
    if unlocked():
        return None
    guess = request.form.get("passcode")
    if guess is not None:
        refusal = _try(guess)
        if refusal is None:
            return None  # unlocked: the request goes on to its view as it was sent
        return _ask(refusal.message, refusal.status)
    return _ask(None, 401)


def _ask(problem: str | None, status: int):
    carried = [(k, v) for k, v in request.form.items(multi=True) if k not in ("passcode", "csrf_token")]
    upload = bool(request.files)
    return render_template("passcode.html", problem=problem, carried=carried, action=request.path,
                           upload=upload), status


@bp.get("/unlock")
def unlock_page():
    return render_template("passcode.html", problem=None, carried=[("next", safe_path(request.args.get("next")))],
                           action=url_for("passcode.unlock"), upload=False)


@bp.post("/unlock")
def unlock():
    target = safe_path(request.form.get("next"))
    if configured() is None or unlocked():
        return redirect(target, 303)
    refusal = _try(request.form.get("passcode", ""))
    if refusal:
        return render_template("passcode.html", problem=refusal.message, carried=[("next", target)],
                               action=url_for("passcode.unlock"), upload=False), refusal.status
    return redirect(target, 303)


def init_app(app) -> None:
    app.extensions["scorepad_guesses"] = Guesses()
    app.permanent_session_lifetime = timedelta(days=400)
    app.before_request(guard)
    app.register_blueprint(bp)

    @app.context_processor
    def _locked():
        return {"table_locked": configured() is not None and not unlocked()}
