"""A table passcode: anyone on the network may watch the score; changing anything asks for the passcode once
per device (a signed cookie). Without a passcode configured, nothing here does anything.

A change sent by a locked device is not lost: the answer is the passcode form carrying everything that was
sent, so typing the passcode sends the change on, as it was.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import threading
import time
from dataclasses import dataclass
from datetime import timedelta

from flask import Blueprint, current_app, redirect, render_template, request, session, url_for

from .answers import answered
from .paths import here, safe_path

bp = Blueprint("passcode", __name__)

# Requests that change nothing even though they are POSTs: the hand form's "Check" and "Count cards".
EXEMPT = {"passcode.unlock", "passcode.unlock_page", "games.preview", "meld.start", "static", "scripts"}
FREE_GUESSES = 3
LOCKOUT_SECONDS = (2, 4, 8, 16, 30)  # after the free guesses, each wrong one waits longer
# Many addresses (a laptop can take dozens on a home network) share one budget, so they cannot guess fast either:
# twenty at once, then one every six seconds (ten a minute; about half of what the one-minute window that was
# here before allowed: 1,170 an hour against 620).
EVERYONE_FREE_GUESSES = 20
EVERYONE_REFILL_SECONDS = 6
# ... but a guesser that keeps that budget spent must not keep the family out: an address that has never guessed
# wrong is heard once even then (see `Guesses`), borrowing from the budget's future, up to this many guesses:
# one for every address a home network's /24 hands out.
NEWCOMERS_AHEAD = 256
TRACKED_ADDRESSES = 4096  # memory for per-address counts stays bounded however many addresses guess


def _lockout(count: int, free: int) -> int:
    """Seconds the `count`th wrong guess in a row makes the next guess wait, after `free` that wait nothing."""
    if count <= free:
        return 0
    return LOCKOUT_SECONDS[min(count - free, len(LOCKOUT_SECONDS)) - 1]


def guesser(address: str) -> str:
    """Who a guess is counted against: the address, or for IPv6 its /64, since one machine may take any address
    in its network's /64 (and would otherwise be a newcomer with every guess)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    if ip.version == 6:
        return f"{ipaddress.IPv6Address(int(ip) >> 64 << 64)}/64"
    return str(ip)


class Guesses:
    """Wrong guesses per guesser and from everyone together, in memory: enough to slow a guesser on a home
    network. `clock` is injectable so tests need not sleep.

    Everyone shares a budget of guesses (a bucket of EVERYONE_FREE_GUESSES refilled one every
    EVERYONE_REFILL_SECONDS), so taking many addresses does not make guessing faster. One machine that takes a
    new address for every guess can keep that budget spent for good, and the family, which guesses from the same
    kind of address, would wait with it. A guess that the budget refuses is not checked, so the right passcode
    cannot simply be let through either: a "wait" for a wrong guess and a welcome for the right one would tell
    the guesser which was which, at the speed it sends them. What the guesser lacks is addresses that have not
    guessed wrong yet, so those are heard: an address with no wrong guess on record gets its guess checked even
    when the budget is spent, and that guess is borrowed from the budget's future (up to NEWCOMERS_AHEAD). A
    guesser gains one guess per address it ever uses, paid back before any address that guessed wrong is heard
    again, so over time the guesses checked never outrun the budget (up to NEWCOMERS_AHEAD + 20 + 10 a
    minute); the phone of someone who knows the passcode is heard at once, unless the guesser has used more
    than NEWCOMERS_AHEAD addresses of its own lately (then it waits as before, and guessing is no faster)."""

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[str, tuple[int, float]] = {}  # guesser: (wrong guesses in a row, when it may guess)
        self._tokens = float(EVERYONE_FREE_GUESSES)  # below zero: borrowed by newcomers
        self._filled_at = clock()

    def admit(self, address: str) -> int:
        """Whether a guess from `address` may be checked now: 0, and the guess is taken from the shared budget
        (given back by `right`); else whole seconds to wait."""
        who = guesser(address)
        with self._lock:
            now = self._refill()
            count, until = self._wrong.get(who, (0, 0.0))
            if until > now:
                return math.ceil(until - now)
            if self._tokens >= 1 or (count == 0 and self._tokens > -NEWCOMERS_AHEAD):
                self._tokens -= 1
                return 0
            return max(1, math.ceil((1 - self._tokens) * EVERYONE_REFILL_SECONDS - (now - self._filled_at)))

    def _refill(self) -> float:
        now = self._clock()
        whole = int((now - self._filled_at) // EVERYONE_REFILL_SECONDS)
        if self._tokens + whole >= EVERYONE_FREE_GUESSES:
            self._tokens, self._filled_at = float(EVERYONE_FREE_GUESSES), now
        else:
            self._tokens += whole
            self._filled_at += whole * EVERYONE_REFILL_SECONDS
        return now

    def wrong(self, address: str) -> int:
        """Count a wrong guess (admitted) from `address`; returns how many in a row its guesser has made."""
        who = guesser(address)
        now = self._clock()
        with self._lock:
            count = self._wrong.pop(who, (0, 0.0))[0] + 1
            self._wrong[who] = (count, now + _lockout(count, FREE_GUESSES))
            if len(self._wrong) > TRACKED_ADDRESSES:
                del self._wrong[next(iter(self._wrong))]  # the guesser that guessed wrong longest ago
        return count

    def right(self, address: str) -> None:
        """`address` knows the passcode: its own count starts again, and its guess goes back to the budget."""
        with self._lock:
            self._wrong.pop(guesser(address), None)
            self._tokens = min(self._tokens + 1, float(EVERYONE_FREE_GUESSES))


@dataclass(frozen=True)
class Refusal:
    """Why a guess did not unlock this device: the words for the player and the status that goes with them."""

    message: str
    status: int


WRONG = Refusal("That is not the table's passcode.", 403)


def waiting(seconds: int) -> Refusal:
    wait = ("1 second" if seconds == 1 else f"{seconds} seconds" if seconds < 120
            else f"{math.ceil(seconds / 60)} minutes")
    return Refusal(f"Too many wrong guesses. Wait {wait}, then try again.", 429)


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
    wait = current_app.extensions["scorepad_guesses"].admit(who)
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


def confirmed(guess: str | None) -> Refusal | None:
    """For a change that replaces every game (a restore): the passcode typed again on its own form, even on a
    device already unlocked, and counted as any guess is. None when it is right, or when no passcode is set."""
    if configured() is None:
        return None
    return _try(guess or "")


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
    page = render_template("shell/passcode.html", problem=problem, carried=carried, action=here(), upload=upload)
    return answered((page, status), "passcode")


def _next(values) -> str:
    """Where to go once unlocked: the page a locked device came from (a path as its browser saw it), else home."""
    return safe_path(values.get("next"), default=url_for("home"))


@bp.get("/unlock")
def unlock_page():
    return render_template("shell/passcode.html", problem=None, carried=[("next", _next(request.args))],
                           action=url_for("passcode.unlock"), upload=False)


@bp.post("/unlock")
def unlock():
    target = _next(request.form)
    if configured() is None or unlocked():
        return redirect(target, 303)
    refusal = _try(request.form.get("passcode", ""))
    if refusal:
        return render_template("shell/passcode.html", problem=refusal.message, carried=[("next", target)],
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
