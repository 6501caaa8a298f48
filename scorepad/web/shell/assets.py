"""Static files: URLs that carry their content's hash, so phones may keep them for a year and still see a change."""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import current_app, has_request_context, request

from .urls import built, url_for  # each address built once

_HASHES: dict[str, str] = {}


def asset_url(filename: str) -> str:
    if not has_request_context():
        return _url(filename)
    return built(("asset", request.script_root, filename), lambda: _url(filename))


def _url(filename: str) -> str:
    if filename not in _HASHES:
        data = (Path(current_app.static_folder) / filename).read_bytes()
        _HASHES[filename] = hashlib.sha256(data).hexdigest()[:10]
    return url_for("static", filename=filename, v=_HASHES[filename])
