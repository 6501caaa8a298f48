"""A table passcode: anyone on the network may watch the score; changing anything asks for the passcode once
per device (a signed cookie). Without a passcode configured, nothing here does anything.

A change sent by a locked device is not lost: the answer is the passcode form carrying everything that was
sent, so typing the passcode sends the change on, as it was.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from datetime import timedelta

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for

from .paths import safe_path

bp = Blueprint("passcode", __name__)

# Requests that change nothing even though they are POSTs: the hand form's "Check" and "Count cards".
EXEMPT = {"passcode.unlock", "passcode.unlock_page", "games.preview", "meld.start", "static"}
FREE_GUESSES = 3
LOCKOUT_SECONDS = (2, 4, 8, 16, 30)  # after the free guesses, each wrong one waits longer


class Guesses:
    """Wrong guesses per client address, in memory: enough to slow a guesser on a home network."""

    def __init__(self):
        self._lock = threading.Lock()
        self._wrong: dict[str, tuple[int, float]] = {}

    def wait_left(self, who: str) -> int:
        with self._lock:
            count, until = self._wrong.get(who, (0, 0.0))
        return max(0, round(until - time.monotonic()))

    def wrong(self, who: str) -> int:
        with self._lock:
            count, _ = self._wrong.get(who, (0, 0.0))
            count += 1
            wait = 0 if count <= FREE_GUESSES else LOCKOUT_SECONDS[min(count - FREE_GUESSES, len(LOCKOUT_SECONDS)) - 1]
            self._wrong[who] = (count, time.monotonic() + wait)
        return count

    def right(self, who: str) -> None:
        with self._lock:
            self._wrong.pop(who, None)


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


def _try(guess: str) -> str | None:
    """Unlock this device with `guess`; None when it worked, else what to tell the player."""
    who = _client()
    wait = current_app.extensions["scorepad_guesses"].wait_left(who)
    if wait:
        return f"Too many wrong guesses. Wait {wait} seconds, then try again."
    if hmac.compare_digest(guess.encode(), configured().encode()):
        current_app.extensions["scorepad_guesses"].right(who)
        session.permanent = True
        session["unlocked"] = _fingerprint(configured())
        return None
    count = current_app.extensions["scorepad_guesses"].wrong(who)
    current_app.logger.warning("Wrong table passcode from %s (%d in a row)", who, count)
    return "That is not the table's passcode."


def guard():
    """Before every request: a change from a locked device gets the passcode form, carrying what it sent."""
    if configured() is None or request.method in ("GET", "HEAD", "OPTIONS") or request.endpoint in EXEMPT:
        return None
    if unlocked():
        return None
    guess = request.form.get("passcode")
    if guess is not None:
        problem = _try(guess)
        if problem is None:
            return None  # unlocked: the request goes on to its view as it was sent
        return _ask(problem, 429 if "Wait" in problem else 403)
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
    problem = _try(request.form.get("passcode", ""))
    if problem:
        return render_template("passcode.html", problem=problem, carried=[("next", target)],
                               action=url_for("passcode.unlock"), upload=False), 429 if "Wait" in problem else 403
    return redirect(target, 303)


def init_app(app) -> None:
    app.extensions["scorepad_guesses"] = Guesses()
    app.permanent_session_lifetime = timedelta(days=400)
    app.before_request(guard)
    app.register_blueprint(bp)

    @app.context_processor
    def _locked():
        return {"table_locked": configured() is not None and not unlocked()}
