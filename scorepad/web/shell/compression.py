"""gzip for the answers that shrink: a game page and its assets arrive in a fraction of the bytes. Static files are
compressed once, at their first request, and kept (their addresses carry their content's hash): by gzip's best at
once, and then, beside the answers, by Zopfli: the same gzip any browser reads, searched harder for the shortest one
(4% smaller than gzip's best here: htmx 16,873 bytes → 16,380, app.css 8,741 → 8,378), for a fifth of a second a
file. A phone opening the first page after a start waits for no search (it waited for eight, one after the other,
and its scripts came late enough that what it typed first was not kept). A page is compressed at every answer,
quickly."""

from __future__ import annotations

import gzip
import threading

from flask import request

try:
    from zopfli.gzip import compress as _zopfli
except ImportError:  # a machine zopfli's wheel does not reach, which would build it: gzip's best, a little larger
    _zopfli = None

COMPRESSIBLE = {"text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                "text/csv", "image/svg+xml", "application/manifest+json"}
_GZIPPED: dict[tuple[str, str], bytes] = {}
_STARTING = threading.Lock()  # a file's first compression, once however many ask for it at once
_TIGHTENING = threading.Lock()  # Zopfli's searches, one at a time (it lets the server's threads run meanwhile)


def compress(response):
    """gzip text answers for clients that take it: a game page and its assets arrive in a fraction of the bytes.
    Static files are compressed once and kept."""
    if ("gzip" not in request.headers.get("Accept-Encoding", "") or response.status_code != 200
            or response.mimetype not in COMPRESSIBLE or "Content-Encoding" in response.headers):
        return response
    response.vary.add("Accept-Encoding")
    static = request.endpoint in ("static", "scripts")  # files whose address carries their content's hash
    key = (request.path, response.headers.get("ETag", "")) if static else None
    original = response.response
    if key in _GZIPPED:
        body = _GZIPPED[key]
    else:
        response.direct_passthrough = False
        data = response.get_data()
        if len(data) < 1024:
            return response
        body = _static(key, data) if static else gzip.compress(data, compresslevel=6, mtime=0)
    if hasattr(original, "close"):
        original.close()  # the file behind a static answer, now that its bytes are not needed
    response.direct_passthrough = False
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    return response


def _static(key: tuple[str, str], data: bytes) -> bytes:
    """A static file's gzip: gzip's best now, kept, and Zopfli's in its place once it is found."""
    with _STARTING:
        body = _GZIPPED.get(key)
        if body is None:
            body = _GZIPPED[key] = gzip.compress(data, compresslevel=9, mtime=0)
            if _zopfli is not None:
                threading.Thread(target=_tighten, args=(key, data), name="scorepad-zopfli", daemon=True).start()
    return body


def _tighten(key: tuple[str, str], data: bytes) -> None:
    with _TIGHTENING:
        _GZIPPED[key] = tightest(data)


def settled(timeout: float = 30) -> None:
    """Wait until every static file asked for so far is in its tightest gzip (a test, the bench)."""
    for thread in [t for t in threading.enumerate() if t.name == "scorepad-zopfli"]:
        thread.join(timeout)


def tightest(data: bytes) -> bytes:
    """`data` in the shortest gzip we can find, for a file compressed once: Zopfli's, else gzip's best."""
    if _zopfli is not None:
        return _zopfli(data)
    return gzip.compress(data, compresslevel=9, mtime=0)


def census() -> dict:
    """The static files kept compressed, and their bytes."""
    kept = dict(_GZIPPED)
    return {"files": len(kept), "bytes": sum(len(body) for body in kept.values())}
