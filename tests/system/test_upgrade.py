"""Every schema Scorepad has shipped upgrades to today's: databases made by each old commit's own code (see
tests/fixtures/make_historic_databases.py) are opened by today's app and must keep every score and record."""

import contextlib
import importlib
import json
import pkgutil
import re
import shutil
import sqlite3
import types
from pathlib import Path

import pytest
import sqlite_utils

from scorepad import create_app, store
from scorepad.core.inputs import whole_number
from scorepad.core.scoring import play_game, score_hand
from scorepad.store import connection
from scorepad.store import games as store_games
from scorepad.store import records as store_records
from scorepad.store import schema as store_schema
from tests.helpers import FIXTURES, parse

pytestmark = pytest.mark.slow

HISTORIC = sorted((FIXTURES / "historic").glob("*.db"))
OLDEST = next(path for path in HISTORIC if path.name.startswith("fbb32c8"))  # games and hands, nothing derived


# The databases made before m010 gave every table size its columns: the ones m010 itself moves
BEFORE_M010 = [path for path in HISTORIC
               if "m010_tables_of_every_size" not in json.loads(path.with_suffix(".json").read_text())["migrations"]]


@pytest.fixture(params=HISTORIC, ids=[path.stem for path in HISTORIC])
def old(request, tmp_path):
    """A copy of one historic database and what its own code recorded about it."""
    path = tmp_path / request.param.name
    shutil.copyfile(request.param, path)
    return types.SimpleNamespace(path=str(path), **json.loads(request.param.with_suffix(".json").read_text()))


@pytest.fixture(scope="module")
def upgrades(tmp_path_factory) -> tuple[Path, dict[str, Path]]:
    """Where each historic database is kept as today's app left it when it first opened it, and which are."""
    return tmp_path_factory.mktemp("upgraded"), {}


@pytest.fixture
def upgraded(old, upgrades):
    """The historic database opened by today's app (which migrates it), and its client. Each historic database is
    upgraded by today's app in the first test of this module that asks for it; every later test gets a copy of
    what that upgrade left (taken whole with SQLite's backup, its log included) and opens it with an app of its
    own: the upgrade is the same every time, and each of its 14 × 8 repeats cost a second."""
    folder, done = upgrades
    name = Path(old.path).name
    if name in done:
        _copy_database(done[name], old.path)
    config = {"TESTING": True, "SECRET_KEY": "test", "DATABASE": old.path}
    app = create_app(config)
    if name not in done:
        done[name] = folder / name
        _copy_database(old.path, done[name])
    return types.SimpleNamespace(old=old, app=app, client=app.test_client())


def _copy_database(source, target) -> None:
    """`source` whole into `target` (SQLite's backup), both connections closed at once: one left to the garbage
    collector folds its log into the file whenever it goes, under a test comparing the file's bytes."""
    with contextlib.closing(sqlite3.connect(source)) as reading, contextlib.closing(sqlite3.connect(target)) as copy:
        reading.backup(copy)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A database today's migrations made from nothing (only read)."""
    path = str(tmp_path_factory.mktemp("fresh") / "fresh.db")
    store_schema.migrate(path)
    return path


def schema(path: str) -> set:
    with sqlite3.connect(path) as db:
        return set(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))


def applied(path: str) -> list[str]:
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]


def test_the_fixtures_cover_every_schema_shipped_from_games_and_hands_to_today():
    shipped = {path.name.split("-")[0]: sorted(json.loads(path.with_suffix(".json").read_text())["migrations"])
               for path in HISTORIC}
    every = [m.name for m in store_schema.migrations.pending(sqlite_utils.Database(memory=True))]

    def upto(last: str, without=()) -> list[str]:
        return [name for name in every[:every.index(last) + 1] if name not in without]

    assert shipped == {"fbb32c8": upto("m002_games_and_hands"), "9201e01": upto("m003_results_and_seats"),
                       "f0058ef": upto("m005_records_counter"), "d77360e": upto("m006_per_player_records"),
                       "5d39dd8": upto("m007_version_triggers"),
                       "08b52c5": upto("m008_restored_hands_and_abandoned_games"),
                       "7086eed": upto("m009_dix_only_and_quad_run"),
                       "e24fc74": upto("m012_club_nights", without=["m010_tables_of_every_size"]),
                       "6d0c0cc": upto("m012_club_nights"), "5af2349": upto("m013_club_games_count_in_records"),
                       "bbc0be9": upto("m014_club_table_end_moves_its_game"),
                       "8ac31f3": upto("m016_player_name_keys"),
                       "a4c3318": upto("m018_club_seasons_and_specials"),
                       "4815ab9": upto("m019_rematch_moves_its_game")}
    # the last schema shipped, and what came since: a fixture made by the commit that ships them joins the list
    assert every[len(shipped["4815ab9"]):] == [name for name in every if name > "m019_rematch_moves_its_game"]


def test_an_upgraded_database_has_applied_every_migration(upgraded, fresh):
    # in the order they came: a club night's m012 was shipped before m010, and so applied before it there
    assert sorted(applied(upgraded.old.path)) == sorted(applied(fresh))
    assert applied(upgraded.old.path)[:len(upgraded.old.migrations)] == upgraded.old.migrations


def test_an_upgraded_database_has_the_schema_of_a_fresh_one(upgraded, fresh):
    assert schema(upgraded.old.path) == schema(fresh)


CLUB_NIGHTS = [path for path in HISTORIC
               if "m012_club_nights" in json.loads(path.with_suffix(".json").read_text())["migrations"]]


@pytest.mark.parametrize("path", CLUB_NIGHTS, ids=[path.stem for path in CLUB_NIGHTS])
def test_every_night_made_before_seasons_counts_in_a_first_season_and_its_page_ranks_them(path, tmp_path):
    copy = tmp_path / path.name
    shutil.copyfile(path, copy)
    with sqlite3.connect(copy) as db:
        nights = db.execute("SELECT id, name, created_at FROM club_nights ORDER BY id").fetchall()
    client = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(copy)}).test_client()
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT id, name FROM club_seasons").fetchall() == [(1, "First season")]
        assert db.execute("SELECT started_at FROM club_seasons").fetchone()[0] == min(n[2] for n in nights)
        assert db.execute("SELECT DISTINCT season_id FROM club_nights").fetchall() == [(1,)]
    page = parse(client.get("/club/seasons/1"))
    assert [a.select_one("span").get_text() for a in page.select("#season-nights a")] == [n[1] for n in nights]
    assert page.select("#season-players-table tbody tr td.num")  # the nights' players, ranked
    assert client.get(f"/club/{nights[0][0]}").status_code == 200


def test_every_game_keeps_the_totals_and_winner_its_own_code_gave_it(upgraded):
    db = connection.connect(upgraded.old.path)
    try:
        for game in upgraded.old.games:
            stored = store_games.load_game(db, game["id"])
            assert (list(stored.totals), stored.winner, stored.hands_count) == \
                (game["totals"], game["winner"], game["hands"]), game
            assert (stored.finished_at is not None) == game["finished"]
    finally:
        db.close()
    for game in upgraded.old.games:
        page = parse(upgraded.client.get(f"/games/{game['id']}"))
        shown = [whole_number(page.select_one(f"#total-{t}").get_text())  # "1,000", "−80"
                 for t in range(len(game["totals"]))]
        assert shown == game["totals"]


def test_every_live_hand_carries_the_points_and_outcome_todays_scoring_gives_it(upgraded):
    db = connection.connect(upgraded.old.path)
    try:
        for game in upgraded.old.games:
            record = store_games.load_game(db, game["id"])
            hands = store_games.live_hands(db, game["id"])
            state = play_game(record.rules, [h.hand for h in hands])
            assert [h.kept for h in hands] == [(*r.points, store_games.outcome(r)) for r in state.results]
            if hands:  # and the game's per-team summary beside them
                rows = db.execute("SELECT count(*) FROM team_results WHERE game_id = ?", [game["id"]]).fetchone()
                assert rows == (game.get("sides", 2),), game
    finally:
        db.close()


def test_every_page_of_games_history_and_players_answers(upgraded):
    client = upgraded.client
    urls = ["/", "/history/", "/players/"]
    urls += [f"/games/{game['id']}" for game in upgraded.old.games]
    urls += [f"/history/games/{game['id']}" for game in upgraded.old.games]
    links = parse(client.get("/players/")).select("a[href]")
    player_urls = sorted({a["href"] for a in links if re.fullmatch(r"/players/\d+", a["href"])})
    assert len(player_urls) == len(_named_players(upgraded.old.games))
    for url in urls + player_urls:
        assert client.get(url).status_code == 200, url


def _named_players(games) -> set[str]:
    return {name for game in games for name in game["players"] if name}


def expected_records(games) -> dict[str, dict]:
    """Games finished and won per player, from what the old code stored."""
    records = {name: {"games": 0, "wins": 0} for name in _named_players(games)}
    for game in games:
        if not game["finished"]:
            continue
        for seat, name in enumerate(game["players"]):
            if name:
                records[name]["games"] += 1
                records[name]["wins"] += game["winner"] == seat % game.get("sides", 2)
    return records


def test_records_count_the_finished_games_and_wins_of_every_player(upgraded):
    expected = expected_records(upgraded.old.games)
    assert sum(r["wins"] for r in expected.values()) > 0
    db = connection.connect(upgraded.old.path)
    try:
        listed = {p["name"]: {"games": p["games"], "wins": p["wins"]} for p in store_records.players(db)}
        assert listed == expected
        for player in store_records.players(db):
            record = store_records.side_record(db, [player["id"]])  # read from the per-game summaries
            assert (record["games"], record["wins"]) == (player["games"], player["wins"]), player["name"]
            assert (record["biggest_hand"] is not None) == (player["games"] > 0), player["name"]
    finally:
        db.close()


def a_hand(record, bidder: str) -> dict:
    """A hand any of the presets accepts: the bidders (side 0) meld 30 and take 30 of 50 counters (scaled), the
    next side the other 20."""
    scale = record.rules.hand_points // 50
    sides = range(record.rules.sides)
    return {"kind": "played", "bidder": bidder, "bid": str(record.rules.min_bid), "trump": "S",
            **{f"meld_{t}": str((30 if t == 0 else 10) * scale) for t in sides},
            **{f"counters_{t}": str({0: 30, 1: 20}.get(t, 0) * scale) for t in sides}}


def test_a_new_hand_can_be_recorded_on_every_game_in_progress(upgraded):
    in_progress = [game for game in upgraded.old.games if not game["finished"] and not game.get("abandoned")]
    assert in_progress
    for game in in_progress:
        db = connection.connect(upgraded.old.path)
        try:
            record = store_games.load_game(db, game["id"])
        finally:
            db.close()
        form = parse(upgraded.client.get(f"/games/{game['id']}")).select_one("#hand-form")
        hidden = {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}
        hand = a_hand(record, "s0" if record.has_players else "t0")
        response = upgraded.client.post(f"/games/{game['id']}/hands", data={**hidden, **hand})
        assert response.status_code == 303, response.get_data(as_text=True)
        db = connection.connect(upgraded.old.path)
        try:
            after = store_games.load_game(db, game["id"])
            points = score_hand(record.rules, store_games.live_hands(db, game["id"])[-1].hand).points
        finally:
            db.close()
        assert after.hands_count == game["hands"] + 1
        assert list(after.totals) == [total + points[t] for t, total in enumerate(game["totals"])]


def test_a_second_start_finds_nothing_to_re_score_and_writes_nothing(upgraded):
    connection.forget_pool()  # the app's connections closed, so the file alone holds the database
    before = Path(upgraded.old.path).read_bytes()
    store_schema.migrate(upgraded.old.path)
    assert Path(upgraded.old.path).read_bytes() == before
    db = connection.connect(upgraded.old.path)
    try:
        assert store_schema.rescore_stale(db) == []
    finally:
        db.close()


def test_an_upgrade_cut_short_before_its_re_score_is_made_good_at_the_next_start(old):
    db = connection.connect(old.path)
    try:
        store_schema.migrations.apply(db)  # the migrations alone, as if the power went before the re-score
    finally:
        db.close()
    store_schema.migrate(old.path)
    db = connection.connect(old.path)
    try:
        for game in old.games:
            assert list(store_games.load_game(db, game["id"]).totals) == game["totals"]
        assert db.execute("SELECT count(*) FROM hands WHERE deleted_at IS NULL AND points_0 IS NULL").fetchone() \
            == (0,)
    finally:
        db.close()


def test_a_game_todays_rules_cannot_fold_is_kept_as_stored_and_the_others_are_re_scored(tmp_path, caplog):
    path = tmp_path / "odd.db"
    shutil.copyfile(OLDEST, path)  # every game in it needs re-scoring
    games = json.loads(OLDEST.with_suffix(".json").read_text())["games"]
    with sqlite3.connect(path) as db:  # a bid no rule set allows, as if an old version had let it through
        db.execute("UPDATE hands SET bid = 3 WHERE game_id = 4 AND seq = 1")
    store_schema.migrate(str(path))
    assert "Game 4 kept as stored" in caplog.text
    db = connection.connect(str(path))
    try:
        for game in games:
            assert list(store_games.load_game(db, game["id"]).totals) == game["totals"]
        assert store_schema.rescore_stale(db) == []  # tried again at every start, and still kept
    finally:
        db.close()


def test_no_migration_calls_into_the_code_of_today(fresh):
    """A migration is frozen history: it may use the database handle and builtins, never the store's functions,
    dataclasses or shared SQL, which change with the app."""
    modules = [importlib.import_module(f"scorepad.store.{m.name}") for m in pkgutil.iter_modules(store.__path__)]
    live = {name for module in modules for name, value in vars(module).items()
            if not name.startswith(("_", "m0")) and (isinstance(value, str) or callable(value)
                                                   and getattr(value, "__module__", None) == module.__name__)}
    every = store_schema.migrations.pending(sqlite_utils.Database(memory=True))
    assert [migration.name for migration in every] == applied(fresh)
    for migration in every:
        assert not names_used(migration.fn.__code__) & live, migration.name


def names_used(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= names_used(const)
    return names


@pytest.mark.parametrize("old", BEFORE_M010, ids=[path.stem for path in BEFORE_M010], indirect=True)
def test_m010_moves_every_game_to_the_n_side_shape_without_changing_a_hand(old):
    """Tables of every size: every kept game is two teams of two who bid, its hands exactly as they were typed."""
    columns = "id, kind, bidder, bidder_seat, bid, meld_0, meld_1, counters_0, counters_1, renege_team, forced"
    with sqlite3.connect(old.path) as db:
        typed = db.execute(f"SELECT {columns} FROM hands ORDER BY id").fetchall()
    store_schema.migrate(old.path)
    with sqlite3.connect(old.path) as db:
        assert db.execute(f"SELECT {columns} FROM hands ORDER BY id").fetchall() == typed
        assert db.execute("SELECT count(*) FROM hands WHERE meld_2 IS NOT NULL OR counters_2 IS NOT NULL "
                          "OR points_2 IS NOT NULL").fetchone() == (0,)
        seatings = {tuple(json.loads(rules)[k] for k in ("sides", "players_per_side", "bidding"))
                    for (rules,) in db.execute("SELECT rules FROM games")}
        assert seatings == {(2, 2, True)}
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert "m010_tables_of_every_size" in applied(old.path)
