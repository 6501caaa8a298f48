"""gzip for the answers that shrink: a game page and its assets arrive in a fraction of the bytes. Static files are
compressed once and kept (their addresses carry their content's hash)."""

from __future__ import annotations

import gzip

from flask import request

COMPRESSIBLE = {"text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                "text/csv", "image/svg+xml", "application/manifest+json"}
_GZIPPED: dict[tuple[str, str], bytes] = {}


def compress(response):
    """gzip text answers for clients that take it: a game page and its assets arrive in a fraction of the bytes.
    Static files are compressed once and kept."""
    if ("gzip" not in request.headers.get("Accept-Encoding", "") or response.status_code != 200
            or response.mimetype not in COMPRESSIBLE or "Content-Encoding" in response.headers):
        return response
    response.vary.add("Accept-Encoding")
    static = request.endpoint == "static"
    key = (request.path, response.headers.get("ETag", "")) if static else None
    original = response.response
    if key in _GZIPPED:
        body = _GZIPPED[key]
    else:
        response.direct_passthrough = False
        data = response.get_data()
        if len(data) < 1024:
            return response
        # a static file is compressed once, so as tightly as gzip can; a page, at every answer, quickly
        body = gzip.compress(data, compresslevel=9 if static else 6, mtime=0)
        if static:
            _GZIPPED[key] = body
    if hasattr(original, "close"):
        original.close()  # the file behind a static answer, now that its bytes are not needed
    response.direct_passthrough = False
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    return response


def census() -> dict:
    """The static files kept compressed, and their bytes."""
    kept = dict(_GZIPPED)
    return {"files": len(kept), "bytes": sum(len(body) for body in kept.values())}
