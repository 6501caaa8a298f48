"""Hostile input on every form and route: never a 500, always an answer, and nothing changed on a refusal.

Flask runs in testing mode here, so an exception in a view fails the test instead of becoming a 500 page.
The classes a stranger tries: digits of other scripts, superscripts, 5,000-digit numbers, ids past 2^63, huge
and negative numbers, control and bidi characters, 1 MB strings, repeated fields and missing ones.
"""

import io
import secrets
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from scorepad import create_app
from scorepad.core.rules import limits
from scorepad.store import connection, games
from scorepad.store import players as store_players
from tests.helpers import parse, quick_and_in_full
from tests.web.helpers import every_table


def fuzzed(**strategies):
    """`@given(**strategies)` with 150 examples under slow, and 15 of them in the quick loop."""
    return quick_and_in_full(quick=15, full=150, options={"deadline": None,
                                                          "suppress_health_check": [HealthCheck.too_slow]},
                             **strategies)


nasty_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", "-1", "0", "1e9", "99999999999999999999999999", "NaN", "½", "٣", "５０", "50.0",
                     "<script>", "' OR 1=1 --", "\x00", "𝟓𝟎", "+50", "--5", "5 0", "0x32", "s9", "t2", "t0", "s1"]),
    st.integers(-10**30, 10**30).map(str),
)
OTHER_DIGITS = ["٣", "۵۰", "५०", "৫০", "๕๐", "５０", "𝟓𝟎", "᠕᠐", "١", "２", "߁", "٢٥"]
SUPERSCRIPTS = ["²", "5²", "⁵⁰", "₅₀", "½", "①", "Ⅻ", "፩", "2³", "¹", "²²"]
HUGE = ["9" * 5000, "-" + "9" * 5000, "1" + "0" * 4400, str(2**63), str(2**63 - 1), str(2**64),
        "-" + str(2**63 + 1), "99999999999999999999", "9999-12-31", "0001-01-01", "1e400", "-0"]
CONTROL = ["\x00", "\x1b[31m", "\r\n", "\u202e", "Bo\u2066x\u2069", "\ufeff", "\x7f", "\x85", "\u200b", "Ann\x00Bob",
           "\t"]
# Made once and shared by the examples. A megabyte of "x" is a megabyte on the wire; characters that travel
# percent-encoded are kept to a few thousand (a megabyte of them takes the standard library seconds to decode).
LONG = ["x" * 2**20, "9" * 2**20, "²" * 4096, "\u202e" * 4096, "Ann " * 1000]
IDS = ["1", "2", "3", "0", "-1"]
hostile = st.one_of(  # one branch a class, so that each class is tried about as often as any other
    nasty_text,
    st.sampled_from(OTHER_DIGITS) | st.text(st.characters(categories=("Nd",)), min_size=1, max_size=4),
    st.sampled_from(SUPERSCRIPTS) | st.text(st.characters(categories=("No", "Nl")), min_size=1, max_size=4),
    st.sampled_from(HUGE),
    st.integers(2**63, 2**80).map(str),
    st.integers(-(10**40), 10**40).map(str),
    st.sampled_from(CONTROL) | st.text(st.characters(categories=("Cc", "Cf", "Zs")), min_size=1, max_size=6),
    st.sampled_from(LONG),
    st.sampled_from(IDS),
)


def fields_of(names, max_size=12):
    """(name, value) lists: any subset of the names (the rest missing), in any order, some names repeated."""
    one = st.tuples(st.sampled_from(names) | st.text(max_size=8), hostile)
    return st.lists(one, max_size=max_size) | st.lists(one, min_size=1, max_size=4).map(lambda fs: fs + fs[::-1])


HAND_FIELDS = ["kind", "bidder", "bid", "trump", "meld_0", "meld_1", "counters_0", "counters_1", "renege_team",
               "forced", "token", "expected", "passcode", "count_meld", "game_id"]
form_data = fields_of(HAND_FIELDS, max_size=16)


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
        self.hand_id = games.live_hands(self.db(), self.game_id)[0].id

    def db(self):
        return connection.connect(self.app.config["DATABASE"])

    def snapshot(self) -> dict:
        return every_table(self.app.config["DATABASE"])

    def pages(self) -> list[str]:
        g = self.game_id
        db = self.db()
        players = [f"/players/{p['id']}" for p in store_players.player_choices(db)]  # merging may have taken player 1
        # a fuzzed request may have deleted the hand, rightly: /games/1/hands/1/delete is a hostile "1" twice
        hands = [hand.id for hand in games.live_hands(db, g)][:1]
        db.close()
        return ["/", "/games/new", f"/games/{g}", f"/games/{g}/live", *(f"/games/{g}/hands/{h}/edit" for h in hands),
                "/history/", f"/history/games/{g}", *(f"/history/games/{g}/hands/{h}" for h in hands), "/players/",
                *players, "/rules/", "/meld/", "/import"]

    def still_answers(self, every: bool = False) -> None:
        """The pages that show what a change stored answer (`every`: all of them)."""
        for url in self.pages() if every else ["/", f"/games/{self.game_id}", "/history/", "/players/"]:
            response = self.client.get(url)
            assert response.status_code == 200, (url, response.status_code)

    def refused_or_answering(self, before: dict, response) -> None:
        """A refusal changed nothing; a change leaves the pages that show it answering."""
        answered(response)
        if self.snapshot() != before:
            assert response.status_code in (200, 303), response.status_code
            self.still_answers()


@pytest.fixture(scope="module")
def table():
    t = Table()
    yield t
    t.folder.cleanup()


def answered(response) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)[:500]


@fuzzed(fields=form_data, with_csrf=st.booleans())
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
        table.still_answers()
        take_off_new_hands(table)


def take_off_new_hands(table) -> None:
    """It was a real hand after all: take it off again so each example starts from the same sheet."""
    db = table.db()
    extra = [h for h in games.live_hands(db, table.game_id) if h.id != table.hand_id]
    with connection.write_lock(db):
        for h in extra:
            db.execute("DELETE FROM hand_edits WHERE hand_id = ?", [h.id])
            db.execute("DELETE FROM hands WHERE id = ?", [h.id])
        games.rescore(db, games.load_game(db, table.game_id), games.live_hands(db, table.game_id))
    db.close()


# A hand the form would take, with one field made hostile, some left out, one sent twice: the refusals deepest
# in a view (the form's own `expected`, the counters' sum) are reached only when everything before is in order.
A_HAND = {"kind": "played", "bidder": "t0", "bid": "50", "meld_0": "20", "meld_1": "20", "counters_0": "30",
          "counters_1": "20", "trump": "H", "expected": "2"}


@fuzzed(field=st.sampled_from(list(A_HAND)), value=hostile, missing=st.sets(st.sampled_from(list(A_HAND)), max_size=2),
       twice=st.sampled_from([None, *A_HAND]))
@example(field="expected", value="²", missing=set(), twice=None)
@example(field="expected", value="9" * 5000, missing=set(), twice="expected")
def test_a_hand_with_one_hostile_field_is_refused_or_stored_once(table, field, value, missing, twice):
    before = table.snapshot()
    data = MultiDict({name: typed for name, typed in {**A_HAND, field: value}.items() if name not in missing})
    if twice:
        data.add(twice, A_HAND[twice])
    data.update({"csrf_token": table.token, "token": secrets.token_hex(8)})
    response = table.client.post(f"/games/{table.game_id}/hands", data=data)
    table.refused_or_answering(before, response)
    if response.status_code == 303:
        take_off_new_hands(table)


@fuzzed(fields=form_data)
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


@fuzzed(fields=fields_of(NEW_GAME_FIELDS + ["throw_in_penalty", "no_marriage", "forced_no_marriage_meld_only",
                                           "auto_throw_in_below_min_meld", "unsaved_counters_score",
                                           "opponents_score_when_made"]))
@example(fields=[("team_0", LONG[0])])
@example(fields=[("min_bid", "999999")])
def test_the_new_game_form_survives_anything(table, fields):
    before = table.snapshot()
    data = MultiDict(fields)
    data.add("csrf_token", table.token)
    response = table.client.post("/games/new", data=data)
    answered(response)
    if response.status_code != 303:
        assert table.snapshot() == before
        assert len(response.data) < 200_000  # what was typed comes back cut short, never a megabyte page
    else:
        table.still_answers()
        db = table.db()
        game = games.list_games(db, finished=False, limit=1)[0]
        db.close()
        assert all(len(name) <= 40 for name in (*game.teams, *filter(None, game.players)))
        assert all(low <= getattr(game.rules, name) <= high for name, (low, high) in limits(game.rules).items()
                   if getattr(game.rules, name) is not None)


@fuzzed(path=st.sampled_from([
    "/", "/rules/", "/rules/{x}", "/meld/", "/games/new", "/games/{x}", "/games/{x}/live", "/games/{x}/preview",
    "/games/{x}/hands/{x}/edit", "/games/{x}/hands/{x}/delete", "/history/", "/history/games/{x}",
    "/history/games/{x}/hands/{x}", "/players/", "/players/{x}", "/export.json", "/games/{x}/export.csv",
    "/import", "/unlock", "/manifest.webmanifest", "/{x}"]),
    x=hostile, method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
    args=st.lists(st.tuples(st.sampled_from(["cards", "trump", "table", "add", "take", "back", "field", "carried",
                                             "state", "use", "partner", "player", "from", "to", "a1", "a2", "b1",
                                             "b2", "bid", "bidder", "meld_0", "counters_0", "kind", "next"])
                            | st.text(max_size=6), hostile), max_size=8))
def test_every_route_answers_any_request_without_a_500(table, path, x, method, args):
    before = table.snapshot()
    url = path.replace("{x}", x.replace("/", "").replace("?", "").replace("#", "")[:5000] or "0")
    response = table.client.open(url, method=method, query_string=MultiDict(args),
                                 data={"csrf_token": table.token} if method == "POST" else None)
    answered(response)
    if method == "GET":
        assert table.snapshot() == before  # looking changes nothing
    else:
        table.refused_or_answering(before, response)


# Each page with the query arguments it reads, so that every argument meets every hostile value.
QUERIES = {
    "/players/": ["a1", "a2", "b1", "b2"],
    "/history/": ["player", "from", "to", "before"],
    "/meld/": ["cards", "trump", "table", "add", "take", "back", "field", "carried", "state", "team_name", "lock",
               "partner", "use", "clear"],
    "/games/{game}": HAND_FIELDS,
    "/games/{game}/preview": HAND_FIELDS,
    "/games/new": NEW_GAME_FIELDS,
}


@fuzzed(path=st.sampled_from(sorted(QUERIES)), data=st.data(), htmx=st.booleans())
def test_every_query_argument_is_read_without_a_500(table, path, data, htmx):
    before = table.snapshot()
    args = data.draw(fields_of(QUERIES[path]))
    response = table.client.get(path.replace("{game}", str(table.game_id)), query_string=MultiDict(args),
                                headers={"HX-Request": "true"} if htmx else {})
    answered(response)
    assert table.snapshot() == before


@fuzzed(fields=fields_of(["game_id", "count_meld", "trump", "bid", "meld_0", "counters_0", "bidder"]))
@example(fields=[("game_id", "²")])
def test_opening_the_meld_calculator_from_a_hand_survives_anything(table, fields):
    before = table.snapshot()
    data = MultiDict(fields)
    data.add("csrf_token", table.token)
    response = table.client.post("/meld/start", data=data)
    answered(response)
    assert response.status_code in (303, 404)
    assert table.snapshot() == before


@fuzzed(token=st.one_of(st.none(), nasty_text))
def test_a_bad_csrf_token_is_refused_and_changes_nothing(table, token):
    before = table.snapshot()
    data = {"kind": "played", "bidder": "t0", "bid": "50", "counters_0": "50", "token": "fresh", "expected": "2"}
    if token is not None:
        data["csrf_token"] = token
    response = table.client.post(f"/games/{table.game_id}/hands", data=data)
    assert response.status_code == 400
    assert table.snapshot() == before


@fuzzed(content=st.one_of(st.binary(max_size=300), nasty_text.map(str.encode),
                         st.just(b'{"format": "scorepad", "version": 1, "games": [{"id": 1}]}'),
                         st.just(b'{"format": "scorepad", "version": 1, "games": [null, 5, "x"]}')))
def test_importing_any_file_never_half_writes(table, content):
    before = table.snapshot()
    data = {"csrf_token": table.token, "file": (io.BytesIO(content), "upload.json")}
    response = table.client.post("/import", data=data, content_type="multipart/form-data")
    answered(response)
    assert response.status_code == 422
    assert table.snapshot() == before


@fuzzed(fields=fields_of(["name", "into"], max_size=4), action=st.sampled_from(["rename", "merge"]))
def test_renaming_and_merging_survive_anything(table, fields, action):
    before = table.snapshot()
    data = MultiDict(fields)
    data.add("csrf_token", table.token)
    response = table.client.post(f"/players/1/{action}", data=data)
    answered(response)
    if response.status_code != 303:
        assert table.snapshot() == before
        assert len(response.data) < 200_000
        return
    table.still_answers()
    if action == "rename":
        table.client.post("/players/1/rename", data={"csrf_token": table.token, "name": "Ann"})


def test_every_page_still_answers_after_all_of_it(table):
    table.still_answers(every=True)
