"""`url_for` for templates, each shape of address built once: a game's sheet names some forty addresses (each
hand's story and page), a history page some hundred, and werkzeug builds every one afresh, which cost a game page
more than its database did. An address depends only on its endpoint, its values and where the app is mounted (the
app has no URL defaults or value preprocessors that would make it depend on more), and the ids in it are written
as they are given: so an address is built once with stand-ins for its ids, and each later one of the same shape
puts its own ids in their places."""

from __future__ import annotations

from flask import current_app, has_request_context, request
from flask import url_for as build

KEPT = 4096  # shapes per app before the kept ones are dropped and built again
STAND_IN = 918_273_645_500  # + n for the nth id: a number no address holds otherwise, all of one length
_AN_ID = object()


def url_for(endpoint: str, **values) -> str:
    if endpoint.startswith(".") or not has_request_context() or any(name.startswith("_") for name in values):
        return build(endpoint, **values)  # relative to the blueprint, outside a request, external, anchored
    if not values:  # the shell's own links, a dozen on every page: one look
        return built(("plain", request.script_root, endpoint), lambda: build(endpoint))
    ids = sorted(name for name, value in values.items() if type(value) is int and 0 <= value < STAND_IN)
    try:
        shape = (request.script_root, endpoint,
                 tuple(sorted((name, _AN_ID if name in ids else value) for name, value in values.items())))
        hash(shape)
    except TypeError:  # a value that cannot be a key (a list of values for one name)
        return build(endpoint, **values)
    kept = current_app.extensions.setdefault("scorepad_urls", {})
    pattern = kept.get(shape)
    if pattern is None:
        pattern = build(endpoint, **{**values, **{name: STAND_IN + n for n, name in enumerate(ids)}})
        if len(kept) >= KEPT:
            kept.clear()
        kept[shape] = pattern
    for n, name in enumerate(ids):
        pattern = pattern.replace(str(STAND_IN + n), str(values[name]))
    return pattern


def built(shape: tuple, make) -> str:
    """The address kept under `shape`, made by `make` the first time (for one app, wherever it is mounted:
    `shape` holds the mount point)."""
    kept = current_app.extensions.setdefault("scorepad_urls", {})
    found = kept.get(shape)
    if found is None:
        if len(kept) >= KEPT:
            kept.clear()
        found = kept[shape] = make()
    return found
