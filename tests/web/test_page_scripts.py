"""A page's scripts as one answer (shell/assets.py): the shell's and the page's own, each lean, in the order the
page runs them; kept by the phone a year as a static file is, and refused for any name that is not one of ours."""

from __future__ import annotations

import gzip
import hashlib
import re

import pytest
from py_mini_racer import MiniRacer

from scorepad.web.shell import assets
from scorepad.web.shell.assets import alone
from scorepad.web.shell.lean_assets import lean
from tests.helpers import ROOT, parse
from tests.web.helpers import new_game, record

SHELL = ["save_machine", "app", "outbox"]


def page_scripts(client, path: str) -> list[str]:
    page = parse(client.get(path))
    return [script["src"] for script in page.select("script[src]")]


def names(src: str) -> list[str]:
    return re.fullmatch(r"/scripts/([a-z_,]+)\.js\?v=[0-9a-f]{10}", src)[1].split(",")


@pytest.mark.parametrize(("path", "own"), [
    ("/", []), ("/history/", []), ("/games/new", ["new_game"]),
    ("/games/{game}", ["record", "drafts", "game"]), ("/games/{game}/hands/{hand}/edit", ["game"]),
])
def test_each_page_asks_once_for_the_shells_scripts_and_its_own_in_order_and_for_htmx_apart(client, path, own):
    game_id = new_game(client)
    record(client, game_id, bidder="t0", bid="50", meld_0="20", meld_1="20", counters_0="30", counters_1="20")
    hand = parse(client.get(f"/games/{game_id}")).select_one(".hands details")["id"].removeprefix("hand-")
    htmx, ours = page_scripts(client, path.format(game=game_id, hand=hand))
    assert htmx.startswith("/static/htmx-")
    assert names(ours) == SHELL + own


def test_the_answer_is_each_script_lean_on_its_own_and_compiles(client):
    src = page_scripts(client, f"/games/{new_game(client)}")[1]
    body = client.get(src).get_data(as_text=True)
    assert body == "".join(alone(lean((ROOT / "static" / f"{name}.js").read_text())) for name in names(src))
    MiniRacer().eval(f"new Function({body!r})")  # compiles as one script (a SyntaxError fails the test)


def test_a_script_that_throws_as_it_starts_stops_none_after_it_and_its_error_is_still_thrown():
    js = MiniRacer()
    js.eval("globalThis.later = []; globalThis.setTimeout = (f) => later.push(f); globalThis.ran = [];")
    js.eval(alone("ran.push(1); null.x;") + alone("(function () { ran.push(2) })()") + alone("ran.push(3)"))
    assert js.eval("ran.join()") == "1,2,3"
    assert js.eval("later.length") == 1
    assert "null" in js.eval("(() => { try { later[0](); return 'not thrown'; } catch (e) { return String(e); } })()")


def test_a_script_whose_last_line_opens_a_call_is_not_joined_to_the_next():
    """A script ending in `})()` and the next beginning with `(` would otherwise read as one call."""
    js = MiniRacer()
    js.eval("globalThis.setTimeout = (f) => f(); globalThis.ran = [];")
    js.eval(alone("(function () { ran.push('a') })()") + alone("(function () { ran.push('b') })()"))
    assert js.eval("ran.join()") == "a,b"


def test_every_template_names_a_set_of_scripts_the_server_answers():
    """A page's own scripts are one of PAGE_SCRIPTS (any other list of names is a 404): a template naming another
    set would have its page fail, and a test rendering it would say so; this says it for every template."""
    named = {tuple(re.findall(r'"([a-z_]+)\.js"', found)) for path in (ROOT / "templates").rglob("*.html")
             for found in re.findall(r"{%-? set page_scripts = \[([^\]]*)\] -?%}", path.read_text())}
    assert named and named <= assets.PAGE_SCRIPTS
    assert all((ROOT / "static" / f"{name}.js").is_file() for names in assets.PAGE_SCRIPTS | {assets.SHELL}
               for name in names)


def test_the_address_of_another_set_of_scripts_is_refused_when_a_page_is_built(app):
    with app.test_request_context("/"), pytest.raises(ValueError, match="PAGE_SCRIPTS"):
        assets.scripts_url(["meld.js"])


def test_the_answer_is_kept_a_year_asked_again_only_if_changed_and_gzipped(client):
    src = page_scripts(client, "/")[1]
    first = client.get(src, headers={"Accept-Encoding": "gzip"})
    assert first.status_code == 200 and first.mimetype == "text/javascript"
    assert first.headers["Cache-Control"] == "public, max-age=31536000"
    assert first.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(first.data) == client.get(src).get_data()
    again = client.get(src, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_the_address_carries_the_hash_of_what_it_answers(client):
    """So a phone keeping last month's scripts a year still gets today's once they change."""
    src = page_scripts(client, "/")[1]
    assert src.endswith("?v=" + hashlib.sha256(client.get(src).get_data()).hexdigest()[:10])


@pytest.mark.parametrize("path", [
    "/scripts/nothing.js", "/scripts/app", "/scripts/app.css", "/scripts/..%2fapp.js", "/scripts/.js",
    "/scripts/htmx-2.0.11.min.js", "/scripts/app,app.js", "/scripts/,app.js", "/scripts/App.js",
    "/scripts/" + ",".join(["app", "outbox", "record", "drafts", "game", "kept", "live", "meld", "share", "awake",
                            "club", "question", "new_game"]) + ".js",
    "/scripts/outbox,app,save_machine.js", "/scripts/save_machine,app,outbox,game,record,drafts.js",
    "/scripts/save_machine,app,outbox,meld.js", "/scripts/save_machine,app.js", "/scripts/record,drafts,game.js",
    "/scripts/" + "a" * 300 + ".js", "/scripts/save_machine,app,outbox," + "b" * 300 + ".js",
])
def test_a_list_of_names_no_page_asks_for_is_not_found_and_nothing_is_kept_for_it(client, path):
    """Not a 500 for a name longer than a file's, and not an answer kept (and compressed) for each list a
    stranger makes up: only the sets our pages name are answered."""
    page_scripts(client, "/")  # the shell's, kept as any page's
    kept = set(assets._BUNDLES)
    assert client.get(path).status_code == 404
    assert set(assets._BUNDLES) == kept
