"""A session cookie read once is kept (see `web.sessions`): what it holds reads the same the second time, a kept
reading is a copy, and a cookie that was tampered with or has grown too old is refused as a fresh reading is."""

import time

from flask import session

from scorepad.web.shell import sessions


def cookie_of(app, **data) -> str:
    with app.test_request_context("/"):
        return app.session_interface.get_signing_serializer(app).dumps(data)


def opened(app, text: str) -> dict:
    with app.test_request_context("/", headers={"Cookie": f"session={text}"}):
        return dict(session)


def test_a_cookie_reads_the_same_twice_and_each_reading_is_a_copy(app):
    text = cookie_of(app, wrote=[4, 7], csrf_token="abc")
    first = opened(app, text)
    first["wrote"].append(99)
    assert opened(app, text) == {"wrote": [4, 7], "csrf_token": "abc"}


def test_a_tampered_cookie_is_refused_even_beside_a_kept_one(app):
    text = cookie_of(app, wrote=[1, 1])
    opened(app, text)
    assert opened(app, text[:-2] + ("AA" if not text.endswith("AA") else "BB")) == {}


def test_a_kept_cookie_grows_old_as_a_fresh_one_does(app, monkeypatch):
    text = cookie_of(app, wrote=[1, 2])
    assert opened(app, text) == {"wrote": [1, 2]}
    later = time.time() + app.permanent_session_lifetime.total_seconds() + 5
    monkeypatch.setattr(sessions.time, "time", lambda: later)
    assert opened(app, text) == {}


def test_the_app_uses_kept_sessions(app):
    assert isinstance(app.session_interface, sessions.KeptSessions)
