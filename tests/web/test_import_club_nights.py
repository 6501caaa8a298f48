"""The club nights of a full copy are a stranger's document too: every hostile night is refused naming the night,
the table and the field, with nothing stored, and a night that is taken opens on every page (the director's,
the wall, a table's card, its games) without a server error."""

import copy
import json
import sqlite3
import tempfile
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import strategies as st

from scorepad import create_app
from scorepad.store import connection
from tests.every_kind import every_kind
from tests.helpers import parse, quick_and_in_full
from tests.web.helpers import HOSTILE_VALUES, csrf, every_table, upload


class House:
    """One app whose database holds every kind of thing, and its full copy; refusals leave it as it was."""

    def __init__(self):
        self.folder = tempfile.TemporaryDirectory()
        self.app = create_app({"TESTING": True, "SECRET_KEY": "nights",
                               "DATABASE": str(Path(self.folder.name) / "nights.db")})
        db = connection.connect(self.app.config["DATABASE"])
        try:
            every_kind(db)
        finally:
            db.close()
        self.client = self.app.test_client()
        self.export = json.loads(self.client.get("/export.json").data)
        self.token = csrf(self.client)
        self.known: dict | None = None  # the tables as they were last read, while no import has been taken since
        self.pages_looked_at = False  # every page of the nights opened since the last import that was taken

    def fresh_export(self) -> dict:
        """The copy with new tokens and night names: it would import, so only the damage done to it refuses it."""
        document = copy.deepcopy(self.export)
        prefix = uuid.uuid4().hex[:8]
        for game in document["games"]:
            for hand in game["hands"]:
                hand["token"] = f"{prefix}-{hand['token']}"
        for night in document["club_nights"]:
            night["name"] = f"{night['name']} {prefix}"
        return document

    def upload(self, document: dict):
        response = upload(self.client, json.dumps(document).encode(), self.token)
        if response.status_code == 303:
            self.known, self.pages_looked_at = None, False
        return response

    def snapshot(self, *, fresh: bool = False) -> dict:
        """Every table's rows: read again when `fresh`, else as last read if no import was taken since (a
        refusal's check reads them fresh, so a refusal that stored something is still caught)."""
        if fresh or self.known is None:
            self.known = every_table(self.app.config["DATABASE"])
        return self.known

    def look_at_every_page(self) -> None:
        """Opens every page of the nights, unless they were opened since the last import taken: a refusal leaves
        the database as it was (its test says so), and the pages of the same database were opened then."""
        if self.pages_looked_at:
            return
        for page in self.pages_of_nights():
            assert self.client.get(page).status_code < 500, page
        self.pages_looked_at = True

    def pages_of_nights(self) -> list[str]:
        db = sqlite3.connect(self.app.config["DATABASE"])
        try:
            pages = ["/club/", "/players/", "/history/"]
            for night_id, key in db.execute("SELECT id, director_key FROM club_nights"):
                pages += [f"/club/{night_id}", f"/club/{night_id}/director?key={key}", f"/club/{night_id}/wall",
                          f"/club/{night_id}/standings.json", f"/club/{night_id}/standings.csv",
                          f"/club/{night_id}/cards", f"/club/{night_id}/tables/1", f"/club/{night_id}/chart",
                          f"/club/{night_id}/game-cards"]
            pages += [f"/games/{game_id}" for (game_id,) in db.execute("SELECT game_id FROM club_tables")]
            return pages
        finally:
            db.close()


@pytest.fixture(scope="module")
def house():
    h = House()
    yield h
    h.folder.cleanup()


def progressive(d):
    return d["club_nights"][0]


def partners(d):
    return d["club_nights"][1]


def table(d, n):
    return progressive(d)["tables"][n - 1]


HOSTILE = [
    ("a kind of night there is not", lambda d: progressive(d).update(kind="swiss"),
     ["Club night 1", "kind must be one of progressive, partners"]),
    ("rules for three", lambda d: progressive(d)["rules"].update(sides=3),
     ["Club night 1", "rules must be for two teams of two"]),
    ("a round past the night's rounds", lambda d: progressive(d).update(round=9),
     ["Club night 1", "round must be"]),
    ("a tie break twice", lambda d: progressive(d).update(tie_breaks=["wins", "wins"]),
     ["Club night 1", "tie_breaks must name each"]),
    ("a round size the round cannot have", lambda d: progressive(d).update(round_size=5000),
     ["Club night 1", "round_size 5000"]),
    ("an entrant numbered out of order", lambda d: progressive(d)["entrants"][1].update(number=7),
     ["Club night 1", "entrant 2", "numbered 1, 2, 3"]),
    ("a player registered twice", lambda d: progressive(d)["entrants"][1].update(players=["al"]),
     ["Club night 1", "entrant 2", "'al' is registered already, as number 1"]),
    ("a team of one on a partners night", lambda d: partners(d)["entrants"][0].update(players=["Ida"]),
     ["Club night 2", "entrant 1", "players must hold 2"]),
    ("a table whose game is not in the file", lambda d: table(d, 1).update(game=9999),
     ["Club night 1, round 1, table 1", "game 9999 is not among the file's games"]),
    ("two tables of one game", lambda d: table(d, 2).update(game=table(d, 1)["game"]),
     ["Club night 1, round 1, table 2", "also the game of night 1, round 1, table 1"]),
    ("a table's game of two players", lambda d: table(d, 1).update(game=1),
     ["Club night 1, round 1, table 1", "not a game of two teams of two"]),
    ("an entrant who is not registered", lambda d: table(d, 1).update(entrants=[1, 2, 3, 99]),
     ["Club night 1, round 1, table 1", "number 99, who is not registered"]),
    ("entrants who are not the game's players", lambda d: table(d, 1).update(entrants=[5, 6, 7, 8]),
     ["Club night 1, round 1, table 1", "its game's players are Al, Bo, Cy, Di"]),
    ("a partners table of one team twice", lambda d: partners(d)["tables"][0].update(entrants=[1, 1, 1, 1]),
     ["Club night 2, round 1, table 1", "not two teams"]),
    ("a table listed twice", lambda d: progressive(d)["tables"].append(copy.deepcopy(table(d, 1))),
     ["Club night 1, round 1, table 1", "listed twice"]),
    ("a table of a round not played", lambda d: partners(d)["tables"][0].update(round=2),
     ["Club night 2, table 1", "round is 2, but the night's round"]),
    ("a table playing on with a score", lambda d: partners(d)["tables"][0].update(score=[1, 2]),
     ["Club night 2, round 1, table 1", "ended_at is null"]),
    ("an ended table without its score", lambda d: table(d, 1).update(score=None),
     ["Club night 1, round 1, table 1", "score must be the result that counts"]),
    ("confirmed by someone not at the table", lambda d: table(d, 1).update(confirmed_by="Hal"),
     ["Club night 1, round 1, table 1", "confirmed_by 'Hal' is not a player at this table"]),
    # (a confirmed table with nobody who confirmed it is one the director confirmed for its players)
    ("confirmed by someone at no moment", lambda d: table(d, 1).update(confirmed_at=None),
     ["Club night 1, round 1, table 1", "confirmed_by is given without confirmed_at"]),
    ("an ending Scorepad does not know", lambda d: table(d, 1).update(ended_how="coin toss"),
     ["Club night 1, round 1, table 1", "ended_how must be one of game, clock, stopped"]),
    ("a bye worth a fixed score of nothing said", lambda d: d["club_nights"][0].update(bye_rule="fixed"),
     ["Club night 1", "bye_rule fixed"]),
    ("an arrival after the last round", lambda d: d["club_nights"][0]["entrants"][0].update(first_round=99),
     ["Club night 1", "entrant 1", "first_round"]),
    ("a winner of three", lambda d: table(d, 1).update(winner=2),
     ["Club night 1, round 1, table 1", "winner must be one of 0, 1"]),
    ("a correction without a note", lambda d: table(d, 2)["changes"][0].update(note=" "),
     ["Club night 1, round 1, table 2", "change 1", "note is empty"]),
    ("a correction of one number", lambda d: table(d, 2)["changes"][0].update(after=[1]),
     ["Club night 1, round 1, table 2", "change 1", "after must hold 2"]),
    ("the director's key in the file", lambda d: progressive(d).update(director_key="x"),
     ["Club night 1", "'director_key' is not one of the fields of a club night"]),
    ("a movement this Scorepad does not know", lambda d: progressive(d).update(movement=3),
     ["Club night 1", "movement"]),
    ("nights in a version 2 file", lambda d: d.update(version=2),
     ["club_nights came with version 3"]),
    ("nights that are not a list", lambda d: d.update(club_nights={}),
     ["club_nights must be a list"]),
]


@pytest.mark.parametrize(("change", "fragments"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_a_hostile_night_is_refused_naming_the_night_the_table_and_the_field(house, change, fragments):
    document = house.fresh_export()
    change(document)
    before = house.snapshot()
    response = house.upload(document)
    assert response.status_code == 422, response.get_data(as_text=True)[:300]
    said = parse(response).select_one("#file-error").get_text()
    assert all(fragment in said for fragment in fragments), said
    assert house.snapshot(fresh=True) == before


@st.composite
def mutated_night(draw, document):
    """The copy with one value somewhere in its club nights replaced by a hostile one, or a key dropped."""
    parent, key = document, "club_nights"
    node = document["club_nights"]
    while isinstance(node, (dict, list)) and node and draw(st.integers(0, 5)) > 0:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        parent, key = node, draw(st.sampled_from(keys))
        node = parent[key]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[key]
    else:
        parent[key] = draw(HOSTILE_VALUES)
    return document


@quick_and_in_full(quick=8, full=60, options={"deadline": None, "suppress_health_check": [HealthCheck.too_slow]},
                   data=st.data())
def test_no_change_to_a_night_of_a_valid_copy_gets_a_server_error(house, data):
    document = data.draw(mutated_night(house.fresh_export()))
    before = house.snapshot()
    response = house.upload(document)
    assert response.status_code in (303, 409, 422), response.get_data(as_text=True)[:500]
    if response.status_code != 303:
        assert house.snapshot(fresh=True) == before
    house.look_at_every_page()


def test_a_copy_keeps_each_nights_movement_and_a_file_from_before_movements_is_the_first(house):
    """A night seated by one version of the movement must go on by it where it is taken: the copy says which. A
    file written before there were versions has nights of the first."""
    assert {night["movement"] for night in house.export["club_nights"]} == {2}
    document = house.fresh_export()
    progressive(document).pop("movement")
    assert house.upload(document).status_code == 303
    db = sqlite3.connect(house.app.config["DATABASE"])
    try:
        taken = db.execute("SELECT movement FROM club_nights ORDER BY id DESC LIMIT ?",
                           [len(document["club_nights"])]).fetchall()
    finally:
        db.close()
    assert [m for (m,) in reversed(taken)] == [1] + [2] * (len(document["club_nights"]) - 1)
