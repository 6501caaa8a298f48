"""An import is a stranger's document: every hostile one is a 422 naming the game and the field, nothing is
stored, and every page still answers afterwards. A big import never makes a phone's save fail."""

import copy
import json
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import strategies as st

from scorepad import create_app
from scorepad.services import transfer
from scorepad.store import connection
from scorepad.store import games as store_games
from tests.helpers import parse, quick_and_in_full
from tests.web.helpers import HOSTILE_VALUES, csrf, every_table, hand_ids, new_game, record, upload

PLAYERS = {"player_0": "Ann", "player_1": "Bob", "player_2": "Cat", "player_3": "Dan"}


def play_history(client) -> None:
    """Game 1: Ann & Cat win 526 to −65 in hands 1 to 6; hand 1 was edited, hand 2 deleted. Game 2: Bicycle
    rules, a redeal and a played hand, not finished."""
    game_id = new_game(client, **PLAYERS)
    record(client, game_id, bidder="s1", bid=60, meld_1=30, counters_0=26)
    record(client, game_id, bidder="s0", bid=50, counters_0=50)
    first, second = hand_ids(client, game_id)
    client.post(f"/games/{game_id}/hands/{first}/edit", data={
        "csrf_token": csrf(client), "kind": "played", "bidder": "s1", "bid": "65", "meld_0": "0", "meld_1": "30",
        "counters_0": "26", "counters_1": "24"})
    client.post(f"/games/{game_id}/hands/{second}/delete", data={"csrf_token": csrf(client)})
    for _ in range(3):
        record(client, game_id, bidder="s0", bid=150, meld_0=100, counters_0=50)
    record(client, game_id, bidder="s2", bid=50, counters_0=50)
    bicycle = new_game(client, preset="double-pack-bicycle")
    record(client, bicycle, kind="redeal")
    record(client, bicycle, bidder="t0", bid=500, counters_0=500)


class Table:
    """One app with a played history, and its export: every refusal leaves it as it was, so one serves all."""

    def __init__(self):
        self.folder = tempfile.TemporaryDirectory()
        self.app = create_app({"TESTING": True, "SECRET_KEY": "hostile",
                               "DATABASE": str(Path(self.folder.name) / "hostile.db")})
        self.client = self.app.test_client()
        play_history(self.client)
        self.export = json.loads(self.client.get("/export.json").data)
        self.token = csrf(self.client)

    def fresh_export(self) -> dict:
        """The export with new tokens: it would import, so only the damage done to it can refuse it."""
        document = copy.deepcopy(self.export)
        prefix = uuid.uuid4().hex[:8]
        for game in document["games"]:
            for hand in game["hands"]:
                hand["token"] = f"{prefix}-{hand['token']}"
        return document

    def upload(self, content: bytes):
        return upload(self.client, content, self.token)

    def snapshot(self) -> dict:
        return every_table(self.app.config["DATABASE"])


@pytest.fixture(scope="module")
def table():
    t = Table()
    yield t
    t.folder.cleanup()


def game(d, number):
    return d["games"][number - 1]


def hand(d, number, seq):
    return game(d, number)["hands"][seq - 1]


def edit(d, number, seq, n):
    return hand(d, number, seq)["edits"][n - 1]


def put(target, key, value):
    target[key] = value


def snapshot_of(d, number, seq, n, **changes):
    """The history line's `after` hand, with some of its columns changed."""
    columns = json.loads(edit(d, number, seq, n)["after"])
    return json.dumps({**columns, **changes})


RAW = "@@RAW@@"  # a value replaced by raw JSON text after dumping: what json.dumps cannot write


def raw(target, key, text):
    target[key] = RAW
    return text


# (what, change, fragments): `change` mutates the document, or returns raw JSON text to put in place of RAW;
# every fragment must be in the refusal.
HOSTILE = [
    # what the forms would never accept
    ("a bidder seat on the other team", lambda d: put(hand(d, 1, 1), "bidder_seat", 0),
     ["Game 1, hand 1:", "bidder_seat 0 sits on team 0 (Team 1), but the bidding team (bidder) is team 1 "
                         "(Team 2)"]),
    ("a bidder seat on the other team, in the history", lambda d: put(edit(d, 1, 1, 2), "after",
                                                                      snapshot_of(d, 1, 1, 2, bidder_seat=2)),
     ["Game 1, hand 1:", "edit 2", "after", "bidder_seat 2 sits on team 0 (Team 1)"]),
    ("the same player in two seats, in other letters", lambda d: put(game(d, 1)["players"], 2, "ann"),
     ["Game 1:", "players[0] and players[2]", "one seat only"]),
    ("the same player in two seats, spaced out", lambda d: put(game(d, 1)["players"], 3, "  Ann "),
     ["Game 1:", "players[0] and players[3]"]),
    ("two teams of one name", lambda d: put(game(d, 2), "teams", ["Us", "US"]),
     ["Game 2:", "teams[0] and teams[1]", "different names"]),
    ("a team without a name", lambda d: put(game(d, 2), "teams", [" ", "Them"]), ["Game 2:", "teams[0] is empty"]),
    ("a history line that is not a hand", lambda d: put(edit(d, 1, 1, 2), "before", "{not json"),
     ["Game 1, hand 1:", "edit 2", "before must be null or a hand written as JSON"]),
    ("a history line with a hand the rules refuse", lambda d: put(edit(d, 1, 1, 2), "after",
                                                                  snapshot_of(d, 1, 1, 2, counters_0=20)),
     ["Game 1, hand 1:", "edit 2", "after", "Counters must add up to 50"]),
    ("a history line with a hand missing a column", lambda d: put(edit(d, 1, 1, 1), "after",
                                                                  json.dumps({"kind": "played"})),
     ["Game 1, hand 1:", "edit 1", "after", "missing"]),
    ("a history line with a number in a hand's JSON that is true", lambda d: put(
        edit(d, 1, 1, 1), "after", snapshot_of(d, 1, 1, 1, bidder=True)), ["edit 1", "after", "bidder"]),
    ("a hand before it was recorded", lambda d: put(edit(d, 1, 1, 1), "before", edit(d, 1, 1, 1)["after"]),
     ["Game 1, hand 1:", "edit 1", "before must be null"]),
    ("a hand after it was deleted", lambda d: put(edit(d, 1, 2, 2), "after", edit(d, 1, 2, 2)["before"]),
     ["Game 1, hand 2:", "edit 2", "after must be null"]),
    ("a history line that is no action", lambda d: put(edit(d, 1, 1, 1), "action", "rewritten"),
     ["Game 1, hand 1:", "edit 1", "action must be one of recorded, edited, deleted"]),
    ("a date past the year 9999 in UTC", lambda d: put(game(d, 1), "created_at", "9999-12-31T23:59:59-14:00"),
     ["Game 1:", "created_at", "is not between 2000-01-01 and"]),
    ("a hand's date past the year 9999", lambda d: put(hand(d, 1, 3), "updated_at", "9999-12-31T23:59:59-14:00"),
     ["Game 1, hand 3:", "updated_at"]),
    ("a history date past the year 9999", lambda d: put(edit(d, 1, 3, 1), "at", "9999-12-31T23:59:59-14:00"),
     ["Game 1, hand 3:", "edit 1", "at"]),
    ("a date without a time zone", lambda d: put(game(d, 1), "created_at", "2026-11-01T19:00:00"),
     ["Game 1:", "created_at", "no time zone"]),
    ("a date before Scorepad", lambda d: put(game(d, 2), "created_at", "1999-12-31T23:59:59+00:00"),
     ["Game 2:", "created_at", "is not between 2000-01-01"]),
    ("a date next year", lambda d: put(game(d, 2), "created_at", "2099-01-01T00:00:00+00:00"), ["Game 2:",
                                                                                              "created_at"]),
    ("a date that is words", lambda d: put(game(d, 1), "finished_at", "yesterday"), ["Game 1:", "finished_at"]),
    ("a date that is a number", lambda d: put(game(d, 1), "finished_at", 1700000000), ["Game 1:", "finished_at"]),
    ("a name too long", lambda d: put(game(d, 1)["players"], 1, "B" * 41),
     ["Game 1:", "players[1] can be at most 40 characters"]),
    ("a name that turns text around", lambda d: put(game(d, 1)["players"], 1, "\u202eboB"),
     ["Game 1:", "players[1]", "invisible or control"]),
    ("a team name with a bell in it", lambda d: put(game(d, 2)["teams"], 0, "Us\x07"), ["Game 2:", "teams[0]"]),
    ("a name that cannot be stored", lambda d: put(game(d, 1)["players"], 3, "\ud800"), ["Game 1:", "players[3]"]),
    ("a renege team on a played hand", lambda d: put(hand(d, 1, 3), "renege_team", 0),
     ["Game 1, hand 3:", "renege_team", "Only a renege"]),
    ("a renege without the team that reneged", lambda d: hand(d, 1, 3).update(kind="renege", counters=None),
     ["Game 1, hand 3:", "renege_team", "Choose the team that reneged"]),
    ("a forced bid above the minimum", lambda d: put(hand(d, 1, 3), "forced", True),
     ["Game 1, hand 3:", "forced", "minimum"]),
    ("a forced bid where nobody is stuck", lambda d: put(hand(d, 2, 2), "forced", True),
     ["Game 2, hand 2:", "forced", "nobody is stuck"]),
    ("counters on a throw-in", lambda d: put(hand(d, 1, 3), "kind", "throw_in"), ["Game 1, hand 3:", "counters"]),
    ("a kind of hand there is not", lambda d: put(hand(d, 1, 3), "kind", "cheated"), ["Game 1, hand 3:", "kind"]),
    ("a redeal with a bid", lambda d: put(hand(d, 2, 1), "bid", 500), ["Game 2, hand 1:", "bid must be 0 in a redeal"]),
    ("a redeal with a trump", lambda d: put(hand(d, 2, 1), "trump", "S"), ["Game 2, hand 1:", "trump"]),
    ("a redeal under rules that have none", lambda d: hand(d, 1, 2).update(
        kind="redeal", bid=0, bidder=0, bidder_seat=None, counters=None, trump=None, meld=[0, 0]),
     ["Game 1, hand 2:", "kind", "no redeal"]),
    ("hands out of order", lambda d: put(hand(d, 1, 2), "seq", 5), ["Game 1, hand 2:", "seq is 5"]),
    ("two hands of one number", lambda d: put(hand(d, 1, 2), "seq", 1), ["Game 1, hand 2:", "seq is 1"]),
    ("a hand numbered 0", lambda d: put(hand(d, 1, 1), "seq", 0), ["Game 1, hand 1:", "seq must be from 1"]),
    ("a meld table for the other deck", lambda d: put(game(d, 1)["rules"], "meld_table", "004"),
     ["Game 1:", "rules that make no sense", "meld_table '004' is for a single deck"]),
    ("a hand after the game was won", lambda d: game(d, 1)["hands"].append(
        {**hand(d, 1, 6), "seq": 7, "token": "one-more"}), ["Game 1, hand 7:", "after the hand that won"]),
    ("a wrong winner", lambda d: put(game(d, 1), "winner", 1), ["Game 1:", "winner says team 1 (Team 2)"]),
    ("a won game with no time of the win", lambda d: put(game(d, 1), "finished_at", None),
     ["Game 1:", "finished_at"]),
    ("a wrong total", lambda d: put(game(d, 1), "totals", [999, -65]), ["Game 1:", "adds up to 526 : -65"]),
    # what gave 500s: nesting, huge numbers, wrong types
    ("nesting deeper than Python recurses", lambda d: raw(game(d, 1), "teams", "[" * 100_000 + "]" * 100_000),
     ["nested deeper than any export"]),
    ("a number of 5,000 digits", lambda d: raw(hand(d, 1, 1), "seq", "1" + "0" * 4999),
     ["Game 1, hand 1:", "seq is a number of 5,000 digits"]),
    ("a number too large for SQLite", lambda d: put(hand(d, 1, 1), "seq", 10**30),
     ["Game 1, hand 1:", "seq is a number of 31 digits"]),
    ("a bid too large for SQLite in a redeal", lambda d: put(hand(d, 2, 1), "bid", 10**19),
     ["Game 2, hand 1:", "bid is a number of 20 digits"]),
    ("totals that are words", lambda d: put(game(d, 1), "totals", "lots"), ["Game 1:", "totals must be a list"]),
    ("totals with a fraction", lambda d: put(game(d, 1), "totals", [526.0, -65]),
     ["Game 1:", "totals must be a whole number, not 526.0"]),
    ("totals that are true", lambda d: put(game(d, 1), "totals", [True, -65]), ["Game 1:", "not true"]),
    ("totals of three teams", lambda d: put(game(d, 1), "totals", [1, 2, 3]), ["Game 1:", "totals must hold 2"]),
    ("an infinite total", lambda d: raw(game(d, 1), "totals", "[Infinity, 0]"), ["Game 1:", "not inf"]),
    ("a bid that is not a number", lambda d: raw(hand(d, 1, 3), "bid", "NaN"), ["Game 1, hand 3:", "bid", "nan"]),
    ("a bid with a fraction", lambda d: put(hand(d, 1, 3), "bid", 150.5), ["Game 1, hand 3:", "not 150.5"]),
    ("a bidder that is true", lambda d: put(hand(d, 1, 3), "bidder", True), ["Game 1, hand 3:", "bidder", "true"]),
    ("a bidder seat that is true", lambda d: put(hand(d, 1, 3), "bidder_seat", True),
     ["Game 1, hand 3:", "bidder_seat"]),
    ("meld that is true", lambda d: put(hand(d, 1, 3), "meld", [True, 0]), ["Game 1, hand 3:", "meld"]),
    ("a first dealer that is true", lambda d: put(game(d, 1), "first_dealer", True), ["Game 1:", "first_dealer"]),
    ("a winner that is false", lambda d: put(game(d, 1), "winner", False), ["Game 1:", "winner"]),
    ("a forced that is 1", lambda d: put(hand(d, 1, 3), "forced", 1), ["Game 1, hand 3:", "forced must be true"]),
    ("an id that is text", lambda d: put(game(d, 1), "id", "7"), ["Game 1:", "id must be a whole number"]),
    ("an id that is true", lambda d: put(game(d, 1), "id", True), ["Game 1:", "id"]),
    ("an id of 0", lambda d: put(game(d, 1), "id", 0), ["Game 1:", "id must be from 1"]),
    ("an id past SQLite", lambda d: put(game(d, 1), "id", 2**63), ["Game 1:", "id"]),
    ("two games of one id", lambda d: put(game(d, 2), "id", game(d, 1)["id"]), ["Game 2:", "also the id of game 1"]),
    ("a rematch of a list", lambda d: put(game(d, 2), "rematch_of", []), ["Game 2:", "rematch_of"]),
    ("a rematch of a negative game", lambda d: put(game(d, 2), "rematch_of", -1), ["Game 2:", "rematch_of"]),
    ("teams that are an object", lambda d: put(game(d, 1), "teams", {"a": 1}), ["Game 1:", "teams must be a list"]),
    ("three teams", lambda d: put(game(d, 1), "teams", ["A", "B", "C"]), ["Game 1:", "teams must hold 2"]),
    ("three seats", lambda d: put(game(d, 1), "players", ["A", "B", "C"]), ["Game 1:", "players must hold 4"]),
    ("a player that is a number", lambda d: put(game(d, 1)["players"], 0, 7), ["Game 1:", "players[0] must be a name"]),
    ("a field given twice", lambda d: raw(hand(d, 1, 1), "token", '"a-token", "token": "b-token"'),
     ["Game 1, hand 1:", "the field 'token' is given twice"]),
    ("a game's field given twice", lambda d: raw(game(d, 2), "winner", 'null, "winner": 0'),
     ["Game 2:", "'winner' is given twice"]),
    ("two hands of one token", lambda d: put(hand(d, 1, 3), "token", hand(d, 1, 1)["token"]),
     ["Game 1, hand 3:", "token", "also another hand's"]),
    ("an empty token", lambda d: put(hand(d, 1, 3), "token", ""), ["Game 1, hand 3:", "token is empty"]),
    ("a token too long", lambda d: put(hand(d, 1, 3), "token", "t" * 65), ["Game 1, hand 3:", "token", "64"]),
    ("a token with a NUL", lambda d: put(hand(d, 1, 3), "token", "t\x00"), ["Game 1, hand 3:", "token"]),
    ("hands that are words", lambda d: put(game(d, 1), "hands", "x"), ["Game 1:", "hands must be a list"]),
    ("a history that is an object", lambda d: put(hand(d, 1, 1), "edits", {}), ["Game 1, hand 1:", "edits"]),
    ("a history line that is a number", lambda d: put(hand(d, 1, 1), "edits", [5]), ["Game 1, hand 1:", "edit 1"]),
    ("a game that is null", lambda d: put(d["games"], 1, None), ["Game 2:", "not a game"]),
    ("a field a hand does not have", lambda d: put(hand(d, 1, 1), "cheat", 1),
     ["Game 1, hand 1:", "'cheat' is not one of the fields of a hand"]),
    ("a history line without its words", lambda d: edit(d, 1, 1, 1).pop("summary"),
     ["Game 1, hand 1:", "summary is missing"]),
    ("a summary too long", lambda d: put(edit(d, 1, 1, 1), "summary", "x" * 1001),
     ["Game 1, hand 1:", "summary is 1,001 characters long; the most is 1,000"]),
    ("a summary with an escape code", lambda d: put(edit(d, 1, 1, 1), "summary", "\x1b[2J"),
     ["Game 1, hand 1:", "summary"]),
    ("rules with a yes that is words", lambda d: put(game(d, 1)["rules"], "check_bid_steps", "no"),
     ["Game 1:", "rules that make no sense", "check_bid_steps must be true or false"]),
    ("rules with a bid step of one number", lambda d: put(game(d, 1)["rules"], "bid_steps", [[50]]),
     ["Game 1:", "bid_steps must hold 2"]),
    ("rules with a title too long", lambda d: put(game(d, 1)["rules"], "title", "T" * 201), ["Game 1:", "title"]),
    ("rules with a target past SQLite", lambda d: put(game(d, 1)["rules"], "target", 10**30), ["Game 1:", "target"]),
    ("rules that are a list", lambda d: put(game(d, 1), "rules", []), ["Game 1:", "not a rule set"]),
    ("an export time that is words", lambda d: put(d, "exported_at", "now"), ["exported_at"]),
    ("a field an export does not have", lambda d: put(d, "extra", 1), ["'extra' is not one of the fields"]),
    # limits, said in the refusal
    ("too many games", lambda d: put(d, "games", [{}] * 20_001),
     ["games holds 20,001; an import takes at most 20,000"]),
    ("too many hands", lambda d: put(game(d, 1), "hands", [{}] * 2_001),
     ["Game 1:", "hands holds 2,001; an import takes at most 2,000"]),
    ("too long a history", lambda d: put(hand(d, 1, 1), "edits", [{}] * 201),
     ["Game 1, hand 1:", "edits holds 201; an import takes at most 200"]),
]


def hostile_bytes(table, change) -> bytes:
    document = table.fresh_export()
    text = change(document)
    dumped = json.dumps(document)
    if isinstance(text, str):
        dumped = dumped.replace(json.dumps(RAW), text)
    return dumped.encode()


@pytest.mark.parametrize(("what", "change", "fragments"), HOSTILE, ids=[case[0] for case in HOSTILE])
def test_a_hostile_document_is_refused_naming_the_game_and_the_field(table, what, change, fragments):
    before = table.snapshot()
    response = table.upload(hostile_bytes(table, change))
    assert response.status_code == 422
    message = parse(response).select_one("#file-error").get_text()
    for fragment in fragments:
        assert fragment in message
    assert message.endswith("Nothing was imported.")
    assert table.snapshot() == before
    for page in ("/", "/history/", "/players/"):
        assert table.client.get(page).status_code == 200


def test_an_export_imports_once_and_a_second_time_is_a_conflict_naming_the_game(table):
    content = json.dumps(table.fresh_export()).encode()  # untouched: only the damage refuses the cases above
    assert table.upload(content).status_code == 303
    for page in ("/", "/history/", "/players/"):
        assert table.client.get(page).status_code == 200
    before = table.snapshot()
    response = table.upload(content)
    assert response.status_code == 409
    assert "Game 1 is already here" in parse(response).select_one("#file-error").get_text()
    assert table.snapshot() == before


def test_a_file_over_the_size_limit_says_the_limit_and_changes_nothing(client):
    for size in (50 * 1024 * 1024 + 1, 51 * 1024 * 1024):  # the file itself, and the whole request
        response = upload(client, b" " * size)
        assert response.status_code == 413
        assert "larger than 50 MB" in parse(response).select_one("#file-error").get_text()
    assert "game-item" not in client.get("/history/").get_data(as_text=True)


# --- any change to a valid export --------------------------------------------------------------------------

@st.composite
def mutated(draw, document):
    """The document with one value somewhere in it replaced by a hostile one, or one of its keys dropped."""
    parent, key = None, None
    node = document
    while isinstance(node, (dict, list)) and node and (parent is None or draw(st.integers(0, 4)) > 0):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        parent, key = node, draw(st.sampled_from(keys))
        node = parent[key]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[key]
    else:
        parent[key] = draw(HOSTILE_VALUES)
    return document


@quick_and_in_full(quick=15, full=150, options={"deadline": None, "suppress_health_check": [HealthCheck.too_slow]},
                   data=st.data())
def test_no_change_to_a_valid_export_gets_a_server_error(table, data):
    document = data.draw(mutated(table.fresh_export()))
    before = table.snapshot()
    response = table.upload(json.dumps(document).encode())
    assert response.status_code in (303, 409, 422), response.get_data(as_text=True)[:500]
    if response.status_code != 303:
        assert table.snapshot() == before
    for page in ("/", "/history/", "/players/"):
        assert table.client.get(page).status_code == 200


# --- a phone's save during a big import ---------------------------------------------------------------------

def big_export(tmp_path, games: int) -> bytes:
    from bench.history import generate

    path = str(tmp_path / "history.db")
    generate(path, games=games, open_games=0)
    db = connection.connect(path)
    try:
        return json.dumps(transfer.export_games(db)).encode()
    finally:
        db.close()


@pytest.mark.parametrize("games", [
    pytest.param(1500, marks=pytest.mark.slow, id="1,500 games"),
    pytest.param(300, id="300 games",  # the quick loop's, where the 1,500 are not written
                 marks=pytest.mark.quick_twin("test_a_phone_saves_a_hand_while_a_big_import_is_written"))])
def test_a_phone_saves_a_hand_while_a_big_import_is_written(app, client, tmp_path, monkeypatch, games):
    """The phone waits for the write lock at most PATIENCE seconds (10 s in the app, 2 s here so that the test is
    quick): no transaction of the import may hold the lock that long. Writing these games in one transaction
    holds it for several seconds."""
    patience = 2
    connect = connection.connect

    def impatient(path):
        db = connect(path)
        db.execute(f"PRAGMA busy_timeout = {patience * 1000}")
        return db

    monkeypatch.setattr(connection, "connect", impatient)
    content = big_export(tmp_path, games=games)
    game_id = new_game(client, target="100000")
    importer = app.test_client()
    token = csrf(importer)
    answers = []
    thread = threading.Thread(target=lambda: answers.append(upload(importer, content, token).status_code))
    thread.start()
    saved = 0
    try:
        while thread.is_alive():
            assert record(client, game_id, bidder="t0", bid=50, counters_0=50).status_code == 303
            saved += 1
            # Quicker than a table's pace, not a tight loop: a tight loop only fights the import for the GIL, and
            # each save folds a game longer by one (hundreds of hands by the end on a busy machine). A save still
            # starts every fifth of a second, so a transaction holding the lock for `patience` still fails one.
            time.sleep(0.2)
    finally:
        thread.join()
    assert answers == [303]
    assert saved > 0
    db = connect(app.config["DATABASE"])
    try:
        assert len(store_games.live_hands(db, game_id)) == saved
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == games + 1
    finally:
        db.close()
