"""Rendered pages kept, so a page that nothing changed is not rendered again: rendering is most of what a page
costs once its data is kept (a game's sheet is built once per version, but its 30 KB of HTML were written out
afresh for every phone at every look).

A view opts in by calling `render` in place of `render_template`, naming what its page is built from:

    kept_pages.render("games/game.html", versions=(db_file, game.id, game.version), covered=("game", "sheet"),
                      slots={"token": token}, game=game, sheet=sheet, values=values, ...)

A page is kept under everything that can change it, so it can never be shown stale:

- `versions`: what the values named in `covered` are a function of, moved by the database's own triggers (a
  game's version, the records counter, the lists counter). The view names them; nothing else it passes is
  trusted to stay the same: every other value of the template's context is part of the key, as it is (a value
  that cannot be a key, such as an object with no version, is not kept at all: that page is simply rendered);
- the template, where the app is mounted (`request.script_root`: behind a proxy at /scorepad a page's links are
  another page), the path and the query, and what the context processors give every template (whether this
  phone is locked, the backup's and the replica's warnings).

A view may also find a page before it builds anything (`found`): a plain look at a page (no form sent back, nothing
said to this phone, nothing of the session shown) is a function of `versions` and the address alone, and the last
page such a look was answered with is found under those, so a game's page looked at again costs neither its
sheet nor its reads. The view says which looks are plain (`plain=True` when it renders one).

What differs from one request to the next is put in after, never kept: the CSRF token (in the page's meta tag,
htmx's headers and each form), and the `slots` a view names (a form's one-time token). They are rendered as
markers that nobody can type, and each marker is replaced by this request's value. A request with flashed
messages waiting is rendered and not kept (what a change just said is said once, to one phone), as is the page a
save is answered with (its view says so with `said_once`, which still moves the page's line on).

Pages are kept compressed (a game page's 36 KB in 5; one under SMALL_PAGE as it is), up to PAGES_BYTES, least
recently used first out: a club night's tables and hundreds of games looked back at fit in a few MiB. A view
whose versions end in counters that only grow says so (`line`: how many of its versions' first items name what
the counters count, a game's database, id and uid): the pages kept under earlier counters of the same line are
dropped as soon as one under later ones is kept, since no look can ask for them again. Left to be pushed out
last-used-first, every hand recorded and every game finished left pages behind that pushed out the games looked
back at (on the bench's club night, 3 pages in 4 kept were of versions gone, and a game page in 3 was rendered).
"""

from __future__ import annotations

import dataclasses
import datetime
import secrets
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import PurePath

from flask import current_app, g, render_template, request, session
from markupsafe import Markup, escape

from ...store import connection
from . import csrf_tokens

PAGES_BYTES = 4 * 2**20  # compressed: some 700 game pages
# A page smaller than this is kept as it is: compressed it would save a few KB, and every look at it would pay
# for unpacking it (a look at /about, 4.7 KB, spent a tenth of its time in zlib).
SMALL_PAGE = 8 * 1024
# A view's `build` run at once (a player's figures folded from every game of theirs, a history's lists): one holds
# megabytes of passing objects for seconds, and with one interpreter lock more than two at once finish no sooner.
# Sixteen server threads folding players' figures side by side took the server from 79 to 165 MiB; with two turns,
# 115 MiB. A game's page builds nothing here (its sheet is kept by `services.pages`): it never waits for a turn,
# nor does a page that is kept.
BUILDS_AT_ONCE = 2
_BUILDING = threading.BoundedSemaphore(BUILDS_AT_ONCE)
_BUILDER = threading.local()  # whether this thread holds a turn
_NONCE = secrets.token_hex(8)  # a marker nobody can type: it changes with every start of the server
_CSRF = "csrf"
# Flask's own context (what a template reads of it is keyed below) and flask-wtf's token helpers (markers here)
_SKIPPED = ("g", "request", "session", "csrf_token", "csrf_meta_tag")


# Values that are keys as they are: immutable, and equal exactly when they show the same
_AS_THEY_ARE = (str, int, float, bool, datetime.date, datetime.time, datetime.timedelta, PurePath)


class _Unkeyable(Exception):
    """A value of the context that cannot be part of a key: the page is rendered, not kept."""


# key -> (page with markers, its slots, whether the bytes are compressed): see `_packed`
_PAGES: OrderedDict[tuple, tuple[bytes, tuple[str, ...], bool]] = OrderedDict()
_PLAIN: OrderedDict[tuple, tuple] = OrderedDict()  # a plain look (`_plain_key`) -> the key of the page it was shown
PLAIN_KEPT = 4096
# A line (template, the first items of versions) -> (its latest counters, the keys of pages kept under them), and
# each such key -> its line: for the views that name a `line`
_LINES: dict[tuple, tuple[tuple, set[tuple]]] = {}
_LINE_OF: dict[tuple, tuple] = {}
_LOCK = threading.Lock()
_held = 0  # bytes kept
_counts = {"kept": 0, "rendered": 0, "unkeyable": 0}


def marker(name: str) -> str:
    return f"\u27e6kept-{_NONCE}-{name}\u27e7"


def csrf_token() -> str:
    """The template global `csrf_token()`: this request's token, or its marker while a page is being kept."""
    if g.get("kept_rendering"):
        return marker(_CSRF)
    return csrf_tokens.token()


def csrf_meta_tag() -> Markup:
    """flask-wtf's `csrf_meta_tag()`, with the token of `csrf_token`."""
    return Markup('<meta name="csrf-token" content="{}">').format(csrf_token())


_HELPERS = {"csrf_token": csrf_token, "csrf_meta_tag": csrf_meta_tag}


def render(template: str, *, versions: tuple, covered: Iterable[str] = (), slots: dict[str, str] | None = None,
           build: Callable[[], dict] | None = None, plain: bool = False, line: int = 0, **context) -> str:
    """`template` rendered with `context`, or the page kept under the same key with this request's CSRF token and
    `slots` put in. See the module's docstring for what the key holds. `build`, when given, makes the rest of the
    context only when the page must be rendered: everything in it is a function of `versions` and the address (a
    list read from the database), so none of it is keyed. `line`: how many first items of `versions` name what
    the rest of them (counters that only grow) are versions of; 0, none are."""
    slots = slots or {}
    given = _given()  # once: the page kept is rendered with the very values it is kept under
    try:
        key = _key(template, versions, set(covered) | set(slots), context, given)
    except _Unkeyable:
        _counts["unkeyable"] += 1
        return render_template(template, **context, **_built(build), **slots)
    short = _plain_key(template, versions, given) if plain else None
    with _LOCK:
        found = _PAGES.get(key)
        if found is not None:
            _PAGES.move_to_end(key)
            _counts["kept"] += 1
        if short is not None:  # the next plain look finds this page before building anything
            _PLAIN[short] = key
            _PLAIN.move_to_end(short)
            while len(_PLAIN) > PLAIN_KEPT:
                _PLAIN.popitem(last=False)
    if found is not None:
        return _unpacked(found, slots)
    page, used = _render(template, slots, {**given, **context, **_built(build)})
    _keep(key, _packed(page, used), line)
    _counts["rendered"] += 1
    return _filled(page, used, slots)


def found(template: str, *, versions: tuple, slots: dict[str, str] | None = None) -> str | None:
    """The page the last plain look at `template` for `versions` and this address was shown, with this request's
    CSRF token and `slots` put in; None when there is none kept (the view builds and renders it, `plain=True`).
    Only for a look the view knows is plain: nothing it shows comes from the session or the request but the
    address."""
    if "_flashes" in session:
        return None
    try:
        short = _plain_key(template, versions, _given())
    except _Unkeyable:
        return None
    with _LOCK:
        key = _PLAIN.get(short)
        page = _PAGES.get(key) if key is not None else None
        if page is None:
            return None
        _PLAIN.move_to_end(short)
        _PAGES.move_to_end(key)
        _counts["kept"] += 1
    return _unpacked(page, slots or {})


def _packed(page: str, used: tuple[str, ...]) -> tuple[bytes, tuple[str, ...], bool]:
    """A page as it is kept: its bytes (counted against PAGES_BYTES as they are held), compressed unless small."""
    data = page.encode()
    if len(data) < SMALL_PAGE:
        return data, used, False
    return zlib.compress(data, 6), used, True  # a sixth smaller than at 1, for half a millisecond once


def _unpacked(kept: tuple[bytes, tuple[str, ...], bool], slots: dict) -> str:
    """A kept page as this request is given it: its CSRF token and `slots` put in."""
    data, used, compressed = kept
    return _filled((zlib.decompress(data) if compressed else data).decode(), used, slots)


def _plain_key(template: str, versions: tuple, given: dict) -> tuple:
    return (template, versions, request.script_root, request.path, tuple(sorted(request.args.items(multi=True))),
            _frozen(given))


def _built(build: Callable[[], dict] | None) -> dict:
    """What `build` makes, once one of the BUILDS_AT_ONCE turns is this thread's (a build inside a build takes no
    second turn)."""
    if build is None:
        return {}
    if getattr(_BUILDER, "holds", False):
        return build()
    with _BUILDING:
        _BUILDER.holds = True
        try:
            return build()
        finally:
            _BUILDER.holds = False


def _render(template: str, slots: dict, context: dict) -> tuple[str, tuple[str, ...]]:
    connection.writes_first()  # a save waiting or under way goes before this page is built
    g.kept_rendering = True
    try:
        page = render_template(template, **context, **{name: marker(name) for name in slots}, **_HELPERS)
    finally:
        g.kept_rendering = False
    return page, tuple(name for name in (_CSRF, *slots) if marker(name) in page)


def _filled(page: str, used: tuple[str, ...], slots: dict) -> str:
    for name in used:
        value = csrf_tokens.token() if name == _CSRF else slots[name]
        page = page.replace(marker(name), str(escape(value)))
    return page


def _keep(key: tuple, found: tuple[bytes, tuple[str, ...], bool], line: int = 0) -> None:
    with _LOCK:
        if line and not _onto_its_line(key, line):
            return  # rendered from earlier counters than a page kept meanwhile: no look asks for it again
        if key not in _PAGES:
            _PAGES[key] = found
            _count(len(found[0]))
        while _held > PAGES_BYTES and _PAGES:
            dropped, (data, *_) = _PAGES.popitem(last=False)
            _count(-len(data))
            _off_its_line(dropped)


def _count(size: int) -> None:
    global _held
    _held += size


def said_once(template: str, *, versions: tuple, line: int) -> None:
    """A page of `template` at `versions` rendered for one request and not kept (what a change just did, said to
    the phone that made it): the pages kept under earlier counters of its line are dropped all the same, as
    keeping it would have dropped them (no look asks for them again)."""
    if not line:
        return
    with _LOCK:
        _moved_on((template, versions[:line]), versions[line:])


def _onto_its_line(key: tuple, line: int) -> bool:
    """`key` put on its line (the template and the first `line` items of its versions), dropping the pages kept
    under earlier counters; False when later ones are kept already."""
    versions = key[1]
    name, at = (key[0], versions[:line]), versions[line:]
    keys = _moved_on(name, at)
    if keys is None:
        return False
    keys.add(key)
    _LINE_OF[key] = name
    _LINES[name] = (at, keys)
    return True


def _moved_on(name: tuple, at: tuple) -> set | None:
    """The keys on line `name` once it is at counters `at` (the pages kept under earlier ones dropped); None when
    it is at later ones already. Under _LOCK."""
    latest, keys = _LINES.get(name, (at, set()))
    if at < latest:
        return None
    if at > latest:
        for old in keys:
            del _LINE_OF[old]
            if old in _PAGES:
                _count(-len(_PAGES.pop(old)[0]))
        keys = set()
        _LINES[name] = (at, keys)
    return keys


def _off_its_line(key: tuple) -> None:
    name = _LINE_OF.pop(key, None)
    if name is not None:
        keys = _LINES[name][1]
        keys.discard(key)
        if not keys:
            del _LINES[name]


def _key(template: str, versions: tuple, covered: set[str], context: dict, given: dict) -> tuple:
    if "_flashes" in session:  # said once, to this phone: not a page to keep
        raise _Unkeyable
    shown = tuple(sorted((name, _frozen(value)) for name, value in context.items() if name not in covered))
    return (*_plain_key(template, versions, given), shown)  # a plain look's key, and the rest of the context


def _given() -> dict:
    """What the app's context processors give every template now (whether this phone is locked, the warnings: a
    warning may come or go while a page renders, so they are asked once and the page is rendered with these)."""
    found = {}
    for processor in current_app.template_context_processors[None]:
        found.update((name, value) for name, value in processor().items() if name not in _SKIPPED)
    return found


def _frozen(value):
    """`value` as a key: itself when it is one; a dict, list or set as a tuple of its items, a dataclass as its
    fields. Anything else raises _Unkeyable."""
    if isinstance(value, datetime.tzinfo):  # equal zones may be named apart (UTC and GMT): keyed as shown
        return ("tz", type(value).__qualname__, str(value))
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:  # 12:00 UTC == 13:00+01:00
        return ("at", value.isoformat(), _frozen(value.tzinfo))
    if value is None or isinstance(value, _AS_THEY_ARE):
        return value
    if isinstance(value, dict):
        return ("dict", tuple(sorted(((k, _frozen(v)) for k, v in value.items()), key=repr)))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_frozen(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((_frozen(v) for v in value), key=repr)))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__qualname__,
                tuple(_frozen(getattr(value, f.name)) for f in dataclasses.fields(value)))
    raise _Unkeyable


def census() -> dict:
    """What is kept now: pages, their size, and how often a page was found kept."""
    with _LOCK:
        return {"pages": len(_PAGES), "bytes": _held, **_counts}


def forget() -> None:
    """Keep no page (a test)."""
    global _held
    with _LOCK:
        _PAGES.clear()
        _PLAIN.clear()
        _LINES.clear()
        _LINE_OF.clear()
        _held = 0


def init_app(app) -> None:
    """Every template's `csrf_token()` goes through `csrf_token` (call after CSRFProtect's init_app)."""
    app.jinja_env.globals.update(_HELPERS)
