"""The database keeps its own version counters: every kind of write moves the ones it should, whoever writes
it, and no Python outside the migrations writes one. All SQL lives in the store; every hand goes in by one path."""

import ast
import re
import shutil
import sqlite3
import uuid
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.core.errors import GameOver
from scorepad.core.rules import PRESETS
from scorepad.core.scoring import Hand, play_game, validate_hand
from scorepad.store import connection as store_connection
from scorepad.store import games, players, records
from scorepad.store.games import NewHand
from tests.helpers import ROOT

DD = PRESETS["double-deck"]
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
AT = "2026-11-01T21:00:00+00:00"


def record(db, game_id: int, hands: list[Hand]) -> None:
    """The hands recorded as a phone records them, in one save."""
    with store_connection.write_lock(db):
        for hand in hands:
            games.insert_hand(db, game_id, uuid.uuid4().hex, replace(hand, trump="S", bidder_seat=hand.bidder))
        games.rescore(db, games.load_game(db, game_id), games.live_hands(db, game_id))


@pytest.fixture
def db(new_database):
    """Game 1, finished: Ann & Cat beat Bob & Dan. Game 2, in progress: Ann & Cat against Eve & Fay. Gus has
    played no game."""
    path = str(new_database())
    connection = store_connection.connect(path)
    finished = games.create_game(connection, DD, ("Us", "Them"), PLAYERS[:4], 0)
    record(connection, finished, [Hand(0, 450, (400, 0), (50, 0)), Hand(0, 50, (0, 0), (50, 0))])
    playing = games.create_game(connection, DD, ("Us", "Them"), ["Ann", "Eve", "Cat", "Fay"], 0)
    record(connection, playing, [Hand(1, 50, (20, 30), (20, 30))])
    players.player_for(connection, "Gus")
    assert (finished, playing) == (1, 2) and games.load_game(connection, 1).winner == 0
    yield path
    connection.close()


def counters(path: str) -> dict:
    """Every version counter by name: "game 1", "game 2", "records", and each player's by their name."""
    with sqlite3.connect(path) as db:
        found = {f"game {i}": v for i, v in db.execute("SELECT id, version FROM games")}
        found["records"] = db.execute("SELECT value FROM counters WHERE name = 'records'").fetchone()[0]
        found |= dict(db.execute("SELECT name, records_version FROM players"))
    return found


def moved(before: dict, after: dict) -> set:
    return {name for name in before | after if before.get(name) != after.get(name)}


GAME_1 = {"game 1", "records", "Ann", "Bob", "Cat", "Dan"}
FINISHED_FIGURES = {"records", "Ann", "Bob", "Cat", "Dan"}

# Each write as any SQL client would make it, and the counters it must move: no more, no fewer.
WRITES = [
    ("a hand recorded in a game in progress",
     "INSERT INTO hands (game_id, seq, token, kind, bidder, bid, meld_0, meld_1, counters_0, counters_1, "
     f"created_at, updated_at) VALUES (2, 9, 'sql', 'played', 0, 50, 20, 0, 30, 20, '{AT}', '{AT}')", {"game 2"}),
    ("a hand re-scored", "UPDATE hands SET points_0 = points_0 + 10 WHERE game_id = 2", {"game 2"}),
    ("a hand deleted from the sheet", f"UPDATE hands SET deleted_at = '{AT}' WHERE game_id = 2", {"game 2"}),
    ("a hand removed for good",
     "DELETE FROM hand_edits WHERE hand_id IN (SELECT id FROM hands WHERE game_id = 2); "
     "DELETE FROM hands WHERE game_id = 2", {"game 2"}),
    ("a team renamed", "UPDATE games SET team_0 = 'We' WHERE id = 2", {"game 2"}),
    ("the totals of a game in progress", "UPDATE games SET total_0 = total_0 + 10 WHERE id = 2", {"game 2"}),
    ("the winner of a finished game", "UPDATE games SET winner = 1 WHERE id = 1", GAME_1),
    ("a game finishing", f"UPDATE games SET winner = 1, finished_at = '{AT}' WHERE id = 2",
     {"game 2", "records", "Ann", "Cat", "Eve", "Fay"}),
    ("a finished game reopened", "UPDATE games SET winner = NULL, finished_at = NULL WHERE id = 1", GAME_1),
    ("a finished game's figures per team", "UPDATE team_results SET sum_meld = sum_meld + 1 WHERE game_id = 1",
     FINISHED_FIGURES),
    ("a finished game's figures per seat, added",
     "INSERT INTO seat_results VALUES (1, 3, 1, 1, 0, 50)", FINISHED_FIGURES),
    ("a finished game's figures per seat, removed", "DELETE FROM seat_results WHERE game_id = 1",
     FINISHED_FIGURES),
    ("a finished game's seat given to another player",
     "UPDATE game_seats SET player_id = (SELECT id FROM players WHERE name = 'Gus') WHERE game_id = 1 AND seat = 1",
     FINISHED_FIGURES | {"Gus"}),
    ("a player renamed", "UPDATE players SET name = 'Anne' WHERE name = 'Ann'",
     {"game 1", "game 2", "records", "Ann", "Anne", "Bob", "Cat", "Dan", "Eve", "Fay"}),
    ("a rematch started", "INSERT INTO games (id, created_at, rules, team_0, team_1, first_dealer, rematch_of) "
     f"SELECT 3, '{AT}', rules, team_0, team_1, 1, 1 FROM games WHERE id = 1", {"game 1", "game 3"}),
    ("a player added", f"INSERT INTO players (name, created_at) VALUES ('Hal', '{AT}')", {"records", "Hal"}),
    ("a player removed", "DELETE FROM players WHERE name = 'Gus'", {"records", "Gus"}),
]


@pytest.mark.parametrize("sql, expected", [(sql, expected) for _, sql, expected in WRITES],
                         ids=[name for name, _, _ in WRITES])
def test_each_kind_of_write_moves_the_counters_that_depend_on_it_whoever_writes_it(db, sql, expected):
    before = counters(db)
    with sqlite3.connect(db) as raw:
        raw.executescript(sql)
    assert moved(before, counters(db)) == expected


def test_a_partners_new_name_shows_in_the_cached_partners_of_everyone_who_played_with_them(db):
    connection = store_connection.connect(db)
    ann, cat = (players.player_for(connection, name) for name in ("Ann", "Cat"))
    assert [p["name"] for p in records.partners(connection, ann)] == ["Cat"]
    players.rename_player(connection, cat, "Catherine")
    assert [p["name"] for p in records.partners(connection, ann)] == ["Catherine"]
    connection.close()


# --- who writes what --------------------------------------------------------------------------------------------

def python_files(*folders: str):
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def registered_migrations(tree: ast.AST) -> set[ast.AST]:
    """The functions decorated as migrations (`@migrations()`): frozen history, free to write what they like."""
    return {node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
            and any(isinstance(d, ast.Call) and getattr(d.func, "id", None) == "migrations"
                    for d in node.decorator_list)}


def strings_outside(tree: ast.AST, skipped: set[ast.AST]):
    """Every string in the code outside `skipped`, f-strings with their holes shown as {}."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node in skipped:
            continue
        if isinstance(node, ast.JoinedStr):
            yield "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value
        stack.extend(ast.iter_child_nodes(node))


VERSION_WRITES = [
    re.compile(r"\bUPDATE\s+\w+\s+SET\b[^;]*\b(records_)?version\b", re.I | re.S),
    re.compile(r"\bINSERT\s+(OR\s+\w+\s+)?INTO\s+\w+\s*\([^)]*\b(records_)?version\b", re.I | re.S),
    re.compile(r"\b(UPDATE\s+counters|INSERT\s+(OR\s+\w+\s+)?INTO\s+counters)\b[^;]*'records'", re.I | re.S),
]


def test_no_python_outside_the_migrations_writes_a_version_or_the_records_counter():
    found = []
    for path in python_files("scorepad", "bench"):
        tree = ast.parse(path.read_text())
        for text in strings_outside(tree, registered_migrations(tree)):
            found += [f"{path.relative_to(ROOT)}: {text.strip()[:80]}" for pattern in VERSION_WRITES
                      if pattern.search(text)]
    assert found == []


SQL = re.compile(r"\.execute(many|script)?\(|\bSELECT\s|\bINSERT\s+INTO\b|\bDELETE\s+FROM\b|\bUPDATE\s+\w+\s+SET\b|"
                 r"\bdb\[\"\w+\"\]")


def test_no_sql_outside_the_store_in_the_app_or_the_benchmarks():
    outside = [path for path in python_files("scorepad", "bench") if "store" not in path.relative_to(ROOT).parts[1:-1]]
    assert {"scorepad/services/transfer.py", "bench/history.py", "scorepad/web/games/views.py"} <= \
        {str(path.relative_to(ROOT)) for path in outside}
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in outside
             for n, line in enumerate(path.read_text().splitlines(), start=1) if SQL.search(line)]
    assert found == []


# --- one way in for hands -----------------------------------------------------------------------------------------

def stored(path: str, game_id: int) -> dict:
    """What a game holds, leaving out ids and times: its summary, its hands with their points, its figures."""
    with sqlite3.connect(path) as db:
        return {
            "game": db.execute("SELECT total_0, total_1, hands_count, winner, finished_at IS NOT NULL FROM games "
                               "WHERE id = ?", [game_id]).fetchall(),
            "hands": db.execute("SELECT seq, kind, bidder, bidder_seat, bid, trump, meld_0, meld_1, counters_0, "
                                "counters_1, renege_team, forced, points_0, points_1, outcome FROM hands "
                                "WHERE game_id = ? ORDER BY seq", [game_id]).fetchall(),
            "history": db.execute("SELECT e.action, e.after FROM hand_edits e JOIN hands h ON h.id = e.hand_id "
                                  "WHERE h.game_id = ? ORDER BY h.seq", [game_id]).fetchall(),
            "teams": db.execute("SELECT team, hands, sum_meld, max_points, hands_bid, made, went_set, sum_bid "
                                "FROM team_results WHERE game_id = ? ORDER BY team", [game_id]).fetchall(),
            "seats": db.execute("SELECT seat, hands_bid, made, went_set, sum_bid FROM seat_results "
                                "WHERE game_id = ? ORDER BY seat", [game_id]).fetchall(),
            "seated": db.execute("SELECT seat, finished, won FROM game_seats WHERE game_id = ? ORDER BY seat",
                                 [game_id]).fetchall(),
        }


hands = st.builds(
    lambda bidder, bid, meld, took, kind: Hand(bidder, bid, meld, (took, 50 - took) if kind == "played" else None,
                                               kind, 0 if kind == "renege" else None),
    st.integers(0, 1), st.sampled_from([50, 60, 250, 450]),
    st.tuples(st.sampled_from([0, 20, 400]), st.sampled_from([0, 30])), st.integers(0, 50),
    st.sampled_from(["played", "played", "throw_in", "renege"]))


def playable(rules, candidates: list[Hand]) -> list[Hand]:
    """The hands these rules take, up to the one that ends the game."""
    kept = []
    for hand in candidates:
        if validate_hand(rules, hand):
            continue
        try:
            play_game(rules, [*kept, hand])
        except GameOver:
            break
        kept.append(hand)
    return kept


@given(st.lists(hands, min_size=1, max_size=12))
@settings(max_examples=25, deadline=None)
def test_hands_written_all_at_once_are_stored_exactly_as_hands_recorded_one_by_one(template_database,
                                                                                   tmp_path_factory, candidates):
    """Recording, import and the benchmark's history all write hands through `insert_hands`: given the points a
    fold gave them, a game's hands written at once keep what recording them one by one keeps."""
    rules = replace(DD, target=1000)
    played = playable(rules, candidates)
    state = play_game(rules, played)
    path = str(tmp_path_factory.mktemp("hands") / "hands.db")
    shutil.copyfile(template_database, path)
    db = store_connection.connect(path)
    try:
        one_by_one = games.create_game(db, rules, ("Us", "Them"), PLAYERS[:4], 0)
        for hand in played:
            record(db, one_by_one, [hand])
        at_once = games.create_game(db, rules, ("Us", "Them"), PLAYERS[:4], 0)
        with store_connection.write_lock(db):
            games.insert_hands(db, at_once, [
                NewHand(f"at-once-{n}", replace(hand, trump="S", bidder_seat=hand.bidder), seq=n + 1,
                        kept=(*result.points, games.outcome(result)))
                for n, (hand, result) in enumerate(zip(played, state.results, strict=True))])
            games.save_results(db, at_once, state.totals, len(played), state.winner)
    finally:
        db.close()
    assert stored(path, at_once) == stored(path, one_by_one)
