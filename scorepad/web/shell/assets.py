"""Static files: URLs that carry their content's hash, so phones may keep them for a year and still see a change.

A page's own scripts come as one answer (`scripts_url`): the shell's (the save machine, app.js, the outbox) and the
page's (a game page's record.js, drafts.js and game.js), each served lean (`lean_assets`), one after the other in
the order the page runs them. One gzip over all of them is a fifth smaller than one for each (they share their
words: 12.8 KiB in six files, 10.4 in one), and a phone on the kitchen table's Wi-Fi asks once, not six times.
htmx is not among them: every page has the same one, kept by the phone once. The files in static/ stay as they are
written; nothing is built.

Only the sets of scripts our pages name are answered (`SHELL` and one of `PAGE_SCRIPTS`): any other list of names is
a 404, so no stranger's address makes the server keep (or compress) an answer of its own. Each script in the answer
runs on its own, as it did in a tag of its own: one that throws as it starts does not stop those after it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Response, abort, current_app, has_request_context, request

from .lean_assets import lean
from .urls import built, url_for  # each address built once

_HASHES: dict[str, str] = {}
_BUNDLES: dict[tuple[str, ...], tuple[bytes, str]] = {}  # names -> (the answer's bytes, their hash)
SHELL = ("save_machine", "app", "outbox")  # every page's, first (base.html)
# What a page's template may name in `page_scripts`, each run after the shell's: a page with a script of its own
# to run on opening adds its set here (tests/web/test_page_scripts.py reads every template's against this).
PAGE_SCRIPTS = frozenset({(), ("record", "drafts", "game"), ("game",), ("new_game",), ("club",)})


def asset_url(filename: str) -> str:
    if not has_request_context():
        return _url(filename)
    return built(("asset", request.script_root, filename), lambda: _url(filename))


def _url(filename: str) -> str:
    if filename not in _HASHES:
        data = (Path(current_app.static_folder) / filename).read_bytes()
        _HASHES[filename] = hashlib.sha256(data).hexdigest()[:10]
    return url_for("static", filename=filename, v=_HASHES[filename])


def scripts_url(page_scripts=()) -> str:
    """The address of the shell's scripts and then the page's own (`page_scripts`, one of `PAGE_SCRIPTS`, named as
    in static/) as one answer."""
    names = SHELL + tuple(name.removesuffix(".js") for name in page_scripts)
    if not _answered(names):
        raise ValueError(f"{page_scripts} is not a set of PAGE_SCRIPTS (shell/assets.py)")
    return built(("scripts", request.script_root, names),
                 lambda: url_for("scripts", names=",".join(names) + ".js", v=_bundle(names)[1]))


def _answered(names: tuple[str, ...]) -> bool:
    return names[:len(SHELL)] == SHELL and names[len(SHELL):] in PAGE_SCRIPTS


def scripts(names: str) -> Response:
    """The view of `scripts_url`'s addresses: a script a phone keeps a year, as static files are."""
    wanted = tuple(names.removesuffix(".js").split(",")) if names.endswith(".js") else ()
    if not _answered(wanted):
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
    if names not in _BUNDLES:
        folder = Path(current_app.static_folder)
        body = "".join(alone(lean((folder / f"{name}.js").read_text(encoding="utf-8"))) for name in names).encode()
        _BUNDLES[names] = body, hashlib.sha256(body).hexdigest()[:10]
    return _BUNDLES[names]


def alone(script: str) -> str:
    """`script` as one of several in an answer, run as if in a tag of its own: what it throws as it starts is
    thrown again after it (the console and the page's error handlers still see it), and the scripts after it run.
    Its last statement ends before the next script begins, whatever its last line is."""
    return f"try {{\n{script};\n}} catch (e) {{ setTimeout(function () {{ throw e; }}); }}\n"
