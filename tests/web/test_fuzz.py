"""Hostile input on every form and route: never a 500, always an answer, and nothing changed on a refusal.

Flask runs in testing mode here, so an exception in a view fails the test instead of becoming a 500 page.
"""

import io
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from scorepad import create_app, store
from tests.helpers import parse

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

nasty_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", "-1", "0", "1e9", "99999999999999999999999999", "NaN", "½", "٣", "５０", "50.0",
                     "<script>", "' OR 1=1 --", "\x00", "𝟓𝟎", "+50", "--5", "5 0", "0x32", "s9", "t2", "t0", "s1"]),
    st.integers(-10**30, 10**30).map(str),
)
HAND_FIELDS = ["kind", "bidder", "bid", "trump", "meld_0", "meld_1", "counters_0", "counters_1", "renege_team",
               "forced", "token", "expected", "passcode", "count_meld", "game_id"]
form_data = st.lists(st.tuples(st.sampled_from(HAND_FIELDS) | st.text(max_size=8), nasty_text), max_size=16)


class Table:
    """One app, one game with a hand, for a whole hypothesis run (fixtures are per test, not per example)."""

    def __init__(self):
        self.folder = tempfile.TemporaryDirectory()
        self.app = create_app({"TESTING": True, "SECRET_KEY": "fuzz",
                               "DATABASE": str(Path(self.folder.name) / "fuzz.db")})
        self.client = self.app.test_client()
        page = parse(self.client.get("/games/new"))
        self.token = page.select_one("meta[name=csrf-token]")["content"]
        response = self.client.post("/games/new", data={"csrf_token": self.token, "player_0": "Ann",
                                                        "player_1": "Bob"})
        self.game_id = int(response.headers["Location"].rsplit("/", 1)[1])
        form = parse(self.client.get(f"/games/{self.game_id}")).select_one("#hand-form")
        hidden = {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}
        self.client.post(f"/games/{self.game_id}/hands", data={**hidden, "kind": "played", "bidder": "t0",
                                                               "bid": "50", "counters_0": "50"})
        self.hand_id = store.live_hands(self.db(), self.game_id)[0].id

    def db(self):
        return store.connect(self.app.config["DATABASE"])

    def snapshot(self) -> tuple:
        db = self.db()
        try:
            return tuple(db.execute(f"SELECT count(*), coalesce(sum(rowid), 0) FROM {t}").fetchone()
                         for t in ("games", "hands", "hand_edits", "players")) + \
                (db.execute("SELECT group_concat(version) FROM games").fetchone(),)
        finally:
            db.close()


@pytest.fixture(scope="module")
def table():
    t = Table()
    yield t
    t.folder.cleanup()


def answered(response) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)[:500]


@given(fields=form_data, with_csrf=st.booleans())
@FUZZ
def test_the_hand_form_survives_anything(table, fields, with_csrf):
    before = table.snapshot()
    data = MultiDict(fields)
    if with_csrf:
        data.add("csrf_token", table.token)
    response = table.client.post(f"/games/{table.game_id}/hands", data=data)
    answered(response)
    if response.status_code != 303:
        assert table.snapshot() == before
    else:
        # it was a real hand after all: take it off again so each example starts from the same sheet
        db = table.db()
        extra = [h for h in store.live_hands(db, table.game_id) if h.id != table.hand_id]
        with store.write_lock(db):
            for h in extra:
                db.execute("DELETE FROM hand_edits WHERE hand_id = ?", [h.id])
                db.execute("DELETE FROM hands WHERE id = ?", [h.id])
        db.close()


@given(fields=form_data)
@FUZZ
def test_editing_survives_anything(table, fields):
    before = table.snapshot()
    data = MultiDict(fields)
    data.add("csrf_token", table.token)
    response = table.client.post(f"/games/{table.game_id}/hands/{table.hand_id}/edit", data=data)
    answered(response)
    if response.status_code != 303:
        assert table.snapshot() == before


NEW_GAME_FIELDS = ["preset", "team_0", "team_1", "first_dealer", "player_0", "player_1", "player_2", "player_3",
                   "target", "hands_limit", "floor", "min_bid", "check_bid_steps", "all_pass", "min_meld",
                   "save_counters", "set_penalty", "throw_in_award", "meld_table", "counter_step",
                   "auto_throw_in_margin"]


@given(fields=st.lists(st.tuples(st.sampled_from(NEW_GAME_FIELDS), nasty_text), max_size=12))
@FUZZ
def test_the_new_game_form_survives_anything(table, fields):
    before = table.snapshot()
    data = MultiDict(fields)
    data.add("csrf_token", table.token)
    response = table.client.post("/games/new", data=data)
    answered(response)
    if response.status_code != 303:
        assert table.snapshot() == before


@given(path=st.sampled_from([
    "/", "/rules/", "/rules/{x}", "/meld/", "/games/new", "/games/{x}", "/games/{x}/live", "/games/{x}/preview",
    "/games/{x}/hands/{x}/edit", "/games/{x}/hands/{x}/delete", "/history/", "/history/games/{x}",
    "/history/games/{x}/hands/{x}", "/players/", "/players/{x}", "/export.json", "/games/{x}/export.csv",
    "/import", "/unlock", "/manifest.webmanifest", "/{x}"]),
    x=nasty_text, method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
    args=st.lists(st.tuples(st.sampled_from(["cards", "trump", "table", "add", "take", "back", "field", "carried",
                                             "state", "use", "partner", "player", "from", "to", "a1", "a2", "b1",
                                             "b2", "bid", "bidder", "meld_0", "counters_0", "kind", "next"])
                            | st.text(max_size=6), nasty_text), max_size=8))
@FUZZ
def test_every_route_answers_any_request_without_a_500(table, path, x, method, args):
    before = table.snapshot()
    url = path.replace("{x}", x.replace("/", "").replace("?", "").replace("#", "") or "0")
    response = table.client.open(url, method=method, query_string=MultiDict(args),
                                 data={"csrf_token": table.token} if method == "POST" else None)
    answered(response)
    if method != "GET":
        assert table.snapshot() == before or response.status_code in (200, 303)


@given(token=st.one_of(st.none(), nasty_text))
@FUZZ
def test_a_bad_csrf_token_is_refused_and_changes_nothing(table, token):
    before = table.snapshot()
    data = {"kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50", "token": "fresh", "expected": "2"}
    if token is not None:
        data["csrf_token"] = token
    response = table.client.post(f"/games/{table.game_id}/hands", data=data)
    assert response.status_code == 400
    assert table.snapshot() == before


@given(content=st.one_of(st.binary(max_size=300), nasty_text.map(str.encode),
                         st.just(b'{"format": "scorepad", "version": 1, "games": [{"id": 1}]}'),
                         st.just(b'{"format": "scorepad", "version": 1, "games": [null, 5, "x"]}')))
@FUZZ
def test_importing_any_file_never_half_writes(table, content):
    before = table.snapshot()
    data = {"csrf_token": table.token, "file": (io.BytesIO(content), "upload.json")}
    response = table.client.post("/import", data=data, content_type="multipart/form-data")
    answered(response)
    assert response.status_code == 422
    assert table.snapshot() == before


@given(fields=st.lists(st.tuples(st.sampled_from(["name", "into"]), nasty_text), max_size=4),
       action=st.sampled_from(["rename", "merge"]))
@FUZZ
def test_renaming_and_merging_survive_anything(table, fields, action):
    data = MultiDict(fields)
    data.add("csrf_token", table.token)
    response = table.client.post(f"/players/1/{action}", data=data)
    answered(response)
    if response.status_code == 303 and action == "rename":
        table.client.post("/players/1/rename", data={"csrf_token": table.token, "name": "Ann"})
