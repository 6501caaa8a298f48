"""This session's CSRF token, signed once. flask-wtf signs the session's raw token afresh for every page (an HMAC
over it and the time), a fifth of what an empty page of ours costs. Tokens never expire here (WTF_CSRF_TIME_LIMIT
is None: a game evening is long), so the token signed for a raw token is as good at the next page as at this
one: it is kept, and given again."""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import current_app, g, session
from flask_wtf.csrf import generate_csrf

KEPT = 4096  # sessions whose signed token is kept (a token is some 90 bytes)
_SIGNED: OrderedDict[tuple, str] = OrderedDict()  # (secret, raw token) -> the token signed for it
_LOCK = threading.Lock()


def token() -> str:
    """flask-wtf's `generate_csrf()`, signed once for each session's raw token."""
    config = current_app.config
    if config.get("WTF_CSRF_TIME_LIMIT") is not None:
        return generate_csrf()  # a token that expires carries the time it was signed: signed each time
    field = config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    secret = config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key
    raw = session.get(field)
    if raw is not None and field not in g:
        with _LOCK:
            found = _SIGNED.get((secret, raw))
            if found is not None:
                _SIGNED.move_to_end((secret, raw))
        if found is not None:
            setattr(g, field, found)  # where generate_csrf finds this request's token
            return found
    signed = generate_csrf()  # (this request's, when a form made it first: the first one kept stays)
    raw = session.get(field)  # made just now, for a new session
    if isinstance(raw, str):
        with _LOCK:
            _SIGNED.setdefault((secret, raw), signed)
            _SIGNED.move_to_end((secret, raw))
            while len(_SIGNED) > KEPT:
                _SIGNED.popitem(last=False)
    return signed


def census() -> dict:
    with _LOCK:
        return {"tokens": len(_SIGNED)}
