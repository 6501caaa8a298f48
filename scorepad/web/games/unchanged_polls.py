"""The phones' poll of a game that has not changed, answered before Flask: every phone at the table asks every
three seconds, and nearly every answer is "nothing new" (304). That answer needs the game's ETag and nothing
else: no session, no CSRF token, no template, no request context. Anything else (a changed or missing game, a
stranger's Host, a database that cannot be opened, an error) goes on to the view (`views.live`), which answers
it as before; this is only the quick way to the same 304."""

from __future__ import annotations

import re
import sqlite3
import time

from ...services import lookups, marked
from ..shell import database, request_log, security_headers
from ..shell.guards import addressed_here

_LIVE = re.compile(r"/games/([1-9][0-9]{0,17})/live")
# What the poll's 200 says to caches, said by its 304 too (RFC 9110: a 304 carries what the 200 would of these)
UNCHANGED_HEADERS = (("Cache-Control", "no-cache"), ("Vary", "HX-Request"))
_READS = ("GET", "HEAD")


class UnchangedPolls:
    """WSGI middleware around Flask's own app (inside the proxy fix, so Host and the ingress mark are settled)."""

    def __init__(self, app, flask_app):
        self.app, self.flask_app = app, flask_app

    def __call__(self, environ, start_response):
        asked = environ.get("HTTP_IF_NONE_MATCH")
        if asked is None or environ.get("REQUEST_METHOD") not in _READS:
            return self.app(environ, start_response)
        found = _LIVE.fullmatch(environ.get("PATH_INFO", ""))
        if found is None or not self._may_answer(environ):
            return self.app(environ, start_response)
        started = time.monotonic()
        if self._etag(int(found[1])) != asked:
            return self.app(environ, start_response)
        start_response("304 NOT MODIFIED", [("ETag", asked), *UNCHANGED_HEADERS,
                                            *security_headers.for_request(environ)])
        request_log.note(environ.get("REMOTE_ADDR"), environ["REQUEST_METHOD"], environ["PATH_INFO"], 304,
                         time.monotonic() - started)
        return []

    def _may_answer(self, environ) -> bool:
        extensions = self.flask_app.extensions
        hosts = extensions.get("scorepad_hosts")
        return (hosts is not None and "scorepad_unusable" not in extensions
                and addressed_here(environ, hosts))

    def _etag(self, game_id: int) -> str | None:
        try:
            with database.borrowed(self.flask_app) as db:
                return marked.kept(db, ("etag", game_id), lambda: lookups.game_etag(db, game_id))
        except sqlite3.Error:
            return None  # the view meets it again and answers it in words


def init_app(app) -> None:
    """Call before the proxy fix wraps the app (it must run inside it)."""
    app.wsgi_app = UnchangedPolls(app.wsgi_app, app)
