"""Flask's signed-cookie sessions, each cookie's reading kept. A phone sends the same cookie with every poll, every
3 s, and checking its signature and decoding it again cost a third of an unchanged poll's time. A cookie is only
ever kept once its signature has been checked, under the very text that was checked (and the keys it was checked
with), and a kept one still expires at the age a fresh reading would refuse it."""

from __future__ import annotations

import copy
import threading
import time
from collections import OrderedDict

from flask import has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

KEPT = 4096  # cookies read: a club night's phones and then some


def cookie(request, name: str) -> str | None:
    """The cookie `name` as werkzeug reads it (the first of that name), without parsing every cookie into a
    MultiDict: that was a sixth of an unchanged poll's time. A header werkzeug would read otherwise than plainly
    (quotes, backslashes, a space inside a name or a value, a name without a value) is left to werkzeug."""
    header = request.environ.get("HTTP_COOKIE")
    if not header:
        return None
    if '"' in header or "\\" in header:
        return request.cookies.get(name)
    for part in header.split(";"):
        key, equals, value = part.partition("=")
        key, value = key.strip(" \t"), value.strip(" \t")
        if " " in key or "\t" in key or " " in value or "\t" in value or (not equals and key):
            return request.cookies.get(name)
        if key == name:
            return value
    return None


class KeptSessions(SecureCookieSessionInterface):
    def __init__(self) -> None:
        self._kept: OrderedDict[tuple, tuple[dict, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get_cookie_path(self, app) -> str:
        """Under a proxy's prefix (a NAS's /scorepad/, Home Assistant's ingress) the cookie is sent to this
        Scorepad only, not to the other apps on the same host; without one, to the whole site as before."""
        if not app.config.get("SESSION_COOKIE_PATH") and has_request_context() and request.script_root:
            return request.script_root
        return super().get_cookie_path(app)

    def census(self) -> dict:
        """The cookies whose reading is kept."""
        with self._lock:
            return {"cookies": len(self._kept)}

    def open_session(self, app, request):
        if not app.secret_key:
            return None
        text = cookie(request, self.get_cookie_name(app))
        if not text:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()), text)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
        if found is not None and 0 <= int(time.time()) - found[1] <= max_age:  # as itsdangerous's own age check
            return self.session_class(copy.deepcopy(found[0]))
        try:
            data, signed = self.get_signing_serializer(app).loads(text, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        with self._lock:
            self._kept[key] = (copy.deepcopy(data), int(signed.timestamp()))
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return self.session_class(data)
