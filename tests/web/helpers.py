"""What a phone does through the Flask test client, for the web tests to share."""

from __future__ import annotations

import io
import re

from hypothesis import strategies as st
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from scorepad.store import connection, games
from tests.helpers import parse, parse_text
from tests.services.helpers import everything

# Most tests only want the page's token or the hand form's hidden fields: reading them needs no parse of the whole
# page (a game page's parse is most of a short web test's time), only of the part that holds them.
_TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]*)">')
_HAND_FORM = re.compile(r'<form id="hand-form".*?</form>', re.S)


def csrf(client, url="/games/new") -> str:
    page = client.get(url).get_data(as_text=True)
    found = _TOKEN.search(page)
    assert found, f"{url} carries no CSRF token: {page[:300]}"
    return found[1]


def new_game(client, **fields) -> int:
    data = {"csrf_token": csrf(client), "preset": "double-deck", **fields}
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(re.search(r"/games/(\d+)", response.headers["Location"])[1])


def form_of(client, game_id) -> dict:
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    found = _HAND_FORM.search(page)
    assert found, f"game {game_id} has no hand form: {page[:300]}"
    form = parse_text(found[0])
    return {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}


def record(client, game_id, **fields):
    """Records a hand as the form would send it. Hands alike one after another are what the tests mean (the
    repeat question, asked of a phone, has tests of its own): pass repeat="" to be asked."""
    data = {**form_of(client, game_id), "kind": "played", "repeat": "1", **{k: str(v) for k, v in fields.items()}}
    return client.post(f"/games/{game_id}/hands", data=data)


def hand_ids(client, game_id) -> list[int]:
    """The live hands' ids as the game page lists them, first hand first."""
    page = parse(client.get(f"/games/{game_id}"))
    return [int(d["id"].removeprefix("hand-")) for d in reversed(page.select(".hands details"))]


def hands_stored(app, game_id) -> int:
    db = connection.connect(app.config["DATABASE"])
    try:
        return len(games.live_hands(db, game_id))
    finally:
        db.close()


def totals(page) -> tuple[int, int]:
    """The two big numbers, read as a player reads them (a negative total has a true minus sign)."""
    return tuple(int(page.select_one(f"#total-{t}").get_text().replace("−", "-")) for t in (0, 1))


def every_table(path: str) -> dict:
    """Every row of every table of the database at `path`: a refusal must leave all of it as it was."""
    db = connection.connect(path)
    try:
        return everything(db)
    finally:
        db.close()


# --- club nights -----------------------------------------------------------------------------------------------

# A hand North and South win at a club table: 50 to 20.
CLUB_WIN_0 = {"kind": "played", "bidder": "s0", "bid": "50", "trump": "H", "meld_0": "20", "meld_1": "0",
              "counters_0": "30", "counters_1": "20"}


def read(app, how, *args):
    """`how(db, *args)` on the app's database, read as the store reads it (a connection of the test's own)."""
    db = connection.connect(app.config["DATABASE"])
    try:
        return how(db, *args)
    finally:
        db.close()


def club_post(client, url, **data):
    """A club page's form, sent with the CSRF token the club pages carry."""
    return client.post(url, data={"csrf_token": csrf(client, "/club/"), **data})


# --- imports ------------------------------------------------------------------------------------------------

def upload(client, content: bytes, token: str | None = None):
    """Post a file to /import, the form encoded in memory (a large one would otherwise be left in an open
    temporary file)."""
    boundary, body = encode_multipart({"csrf_token": token or csrf(client),
                                       "file": FileStorage(io.BytesIO(content), "scorepad.json")})
    return client.post("/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")


# Values a hostile file may hold anywhere in place of the right one
HOSTILE_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.sampled_from([0, 1, -1, 2**63, 2**63 - 1]),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
    st.sampled_from(["", "9999-12-31T23:59:59-14:00", "2026-11-01T19:00:00", "\ud800", "=1+1", "x" * 5000]),
    st.lists(st.integers(-3, 3), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
