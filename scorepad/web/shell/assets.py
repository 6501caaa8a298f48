"""Static files: URLs that carry their content's hash, so phones may keep them for a year and still see a change.

A page's own scripts come as one answer (`scripts_url`): the shell's (the save machine, app.js, the outbox) and the
page's (a game page's record.js, drafts.js and game.js), each served lean (`lean_assets`), one after the other in
the order the page runs them. One gzip over all of them is a fifth smaller than one for each (they share their
words: 12.8 KiB in six files, 10.4 in one), and a phone on the kitchen table's Wi-Fi asks once, not six times.
htmx is not among them: every page has the same one, kept by the phone once. The files in static/ stay as they are
written; nothing is built.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from flask import Response, abort, current_app, has_request_context, request

from .lean_assets import lean
from .urls import built, url_for  # each address built once

_HASHES: dict[str, str] = {}
_BUNDLES: dict[tuple[str, ...], tuple[bytes, str]] = {}  # names -> (the answer's bytes, their hash)
_NAME = re.compile(r"[a-z][a-z_]*")  # one of our scripts, without its .js


def asset_url(filename: str) -> str:
    if not has_request_context():
        return _url(filename)
    return built(("asset", request.script_root, filename), lambda: _url(filename))


def _url(filename: str) -> str:
    if filename not in _HASHES:
        data = (Path(current_app.static_folder) / filename).read_bytes()
        _HASHES[filename] = hashlib.sha256(data).hexdigest()[:10]
    return url_for("static", filename=filename, v=_HASHES[filename])


def scripts_url(filenames) -> str:
    """The address of our scripts `filenames` (in static/, run in this order) as one answer."""
    names = tuple(name.removesuffix(".js") for name in filenames)
    return built(("scripts", request.script_root, names),
                 lambda: url_for("scripts", names=",".join(names) + ".js", v=_bundle(names)[1]))


def scripts(names: str) -> Response:
    """The view of `scripts_url`'s addresses: a script a phone keeps a year, as static files are."""
    wanted = tuple(names.removesuffix(".js").split(",")) if names.endswith(".js") else ()
    if not wanted or len(wanted) > 12 or len(set(wanted)) != len(wanted) or not all(map(_NAME.fullmatch, wanted)) \
            or not all((Path(current_app.static_folder) / f"{name}.js").is_file() for name in wanted):
        abort(404)
    body, digest = _bundle(wanted)
    response = Response(body, mimetype="text/javascript")
    response.set_etag(digest)
    max_age = current_app.get_send_file_max_age(names)  # a year, unless the owner set SEND_FILE_MAX_AGE_DEFAULT
    if max_age is None:
        response.cache_control.no_cache = True
    else:
        response.cache_control.public = True
        response.cache_control.max_age = max_age
    return response.make_conditional(request)


def _bundle(names: tuple[str, ...]) -> tuple[bytes, str]:
    """Each script lean, and a `;` after each: a script ending in `})()` and the next beginning with `(` would
    otherwise read as one call."""
    if names not in _BUNDLES:
        folder = Path(current_app.static_folder)
        body = "".join(lean((folder / f"{name}.js").read_text(encoding="utf-8")) + ";\n" for name in names).encode()
        _BUNDLES[names] = body, hashlib.sha256(body).hexdigest()[:10]
    return _BUNDLES[names]
