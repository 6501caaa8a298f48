"""The full copy (export version 4) holds everything Scorepad stores: export, import into an empty database and
export again give the same document, and the imported database reads the same everywhere (club nights and their
tables' games, records, standings, seasons and specials), for a database holding every kind of thing. Versions 1
to 3 still import."""

import copy

import pytest

from scorepad import services
from scorepad.core import document
from scorepad.core.errors import ImportRefused
from scorepad.services import club, seasons, transfer
from scorepad.store import clubs, connection, records
from scorepad.store import games as store_games
from scorepad.store import seasons as store_seasons
from tests.every_kind import DD, WIN_0, club_nights_of_every_kind, games_of_every_kind, record


@pytest.fixture
def full(db):
    games_of_every_kind(db)
    club_nights_of_every_kind(db)
    return db


@pytest.fixture
def elsewhere(new_database, tmp_path):
    db = connection.connect(str(new_database(tmp_path / "elsewhere" / "scorepad.db")))
    yield db
    db.close()


def without_moment(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "exported_at"}


def how_it_reads(db) -> dict:
    """What the pages read, by names rather than ids: each game's summary and seats, whether it takes changes,
    its figures, each night's standings and tables, and the records."""
    seats = db.execute("""SELECT s.game_id, s.seat, s.team, p.name, s.finished, s.won FROM game_seats s
                          JOIN players p ON p.id = s.player_id ORDER BY 1, 2""").fetchall()
    games = db.execute("""SELECT id, total_0, total_1, total_2, total_3, hands_count, winner, finished_at,
                          abandoned_at, rematch_of FROM games ORDER BY id""").fetchall()
    nights = {n.name: (n.kind, n.round, n.closed_at, n.round_started_at,
                       [(p.rank, p.name, p.wins, p.points, p.byes) for p in club.night_standings(db, n)],
                       [(t.round, t.table_no, t.game_id, t.result, t.ended_at, t.confirmed_by)
                        for t in clubs.tables(db, n.id)])
              for n in clubs.all_nights(db)}
    season_pages = {s.name: seasons.season_page(db, s.id) for s in store_seasons.all_seasons(db)}
    by_season = {name: ([n.name for n in page.nights], page.season.best_of, page.season.specials,
                        [(line.rank, line.name, line.wins, line.points, line.played)
                         for line in page.players + page.teams],
                        [(x.player, x.kind, x.round, x.table_no, x.hand, x.at) for x in page.specials],
                        [(p.what, p.holders, p.figure) for p in page.prizes])
                 for name, page in season_pages.items()}
    return {"games": games, "seats": seats, "nights": nights, "seasons": by_season,
            "closed": [club.game_closed(db, game_id) for game_id in store_games.game_ids(db)],
            "team_results": db.execute("SELECT * FROM team_results ORDER BY 1, 2").fetchall(),
            "seat_results": db.execute("SELECT * FROM seat_results ORDER BY 1, 2").fetchall(),
            "records": [{k: v for k, v in r.items() if not k.endswith("id")} for r in records.players(db)]}


def test_export_import_export_is_the_same_for_a_database_holding_every_kind_of_thing(full, elsewhere):
    exported = transfer.export_games(full)
    assert exported["version"] == 4
    assert [s["name"] for s in exported["club_seasons"]] == ["First season", "Spring league"]
    assert [n["season"] for n in exported["club_nights"]] == ["First season", "Spring league", "Spring league"]
    assert [x["kind"] for n in exported["club_nights"] for t in n["tables"] for x in t["specials"]] == \
        ["double_pinochle"]
    assert {len(g["players"]) for g in exported["games"]} == {2, 3, 4, 6, 8}
    actions = {e["action"] for g in exported["games"] for h in g["hands"] for e in h["edits"]}
    assert actions == {"recorded", "edited", "deleted", "restored"}
    tables = [t for n in exported["club_nights"] for t in n["tables"]]
    assert any(t["changes"] for t in tables) and any(t["confirmed_by"] for t in tables)
    assert any(t["ended_at"] is None for t in tables)
    assert "director_key" not in str(exported)

    transfer.import_document(elsewhere, copy.deepcopy(exported))
    assert without_moment(transfer.export_games(elsewhere)) == without_moment(exported)
    theirs, ours = how_it_reads(full), how_it_reads(elsewhere)
    for part in theirs:
        assert ours[part] == theirs[part], part


def test_an_imported_club_tables_game_whose_round_is_over_takes_no_more_hands(full, elsewhere):
    transfer.import_document(elsewhere, transfer.export_games(full))
    ended = [t for n in clubs.all_nights(elsewhere) for t in clubs.tables(elsewhere, n.id)
             if t.ended_at is not None]
    assert ended
    for table in ended:
        with pytest.raises(services.Conflict, match="only the club night's director can change it"):
            record(elsewhere, table.game_id, WIN_0)


def test_an_imported_night_has_a_director_key_of_its_own(full, elsewhere):
    transfer.import_document(elsewhere, transfer.export_games(full))
    theirs = {n.name: n.director_key for n in clubs.all_nights(full)}
    ours = {n.name: n.director_key for n in clubs.all_nights(elsewhere)}
    assert ours.keys() == theirs.keys() and all(ours[name] != theirs[name] for name in ours)
    assert all(len(key) >= 16 for key in ours.values())


def test_a_full_copy_imported_twice_is_refused_the_second_time_and_changes_nothing(full, elsewhere):
    exported = transfer.export_games(full)
    transfer.import_document(elsewhere, copy.deepcopy(exported))
    before = how_it_reads(elsewhere)
    with pytest.raises(ImportRefused, match="already here"):
        transfer.import_document(elsewhere, exported)
    nights_only = {**exported, "games": []}
    nights_only["club_nights"] = [n for n in exported["club_nights"] if not n["tables"]]
    with pytest.raises(ImportRefused, match=r"Club night 1 \(Progressive night\) is already here"):
        transfer.import_document(elsewhere, nights_only)
    assert how_it_reads(elsewhere) == before


def test_a_version_2_file_imports_its_games_as_before(full, elsewhere):
    exported = transfer.export_games(full)
    older = {**without_moment(exported), "version": 2}
    del older["club_nights"], older["club_seasons"]
    ids = transfer.import_document(elsewhere, older)
    assert len(ids) == len(exported["games"]) and clubs.all_nights(elsewhere) == []
    with pytest.raises(ImportRefused, match="club_nights came with version 3"):
        document.check({**older, "club_nights": []}, document.EARLIEST)


def test_a_version_1_file_still_imports(elsewhere):
    game = {"id": 1, "created_at": "2026-11-01T19:00:00+00:00", "rules": {
        k: v for k, v in DD.to_dict().items() if k not in ("sides", "players_per_side", "bidding")},
        "teams": ["Us", "Them"], "players": [None] * 4, "first_dealer": 0, "rematch_of": None, "finished_at": None,
        "totals": [0, 0], "winner": None, "hands": []}
    assert len(transfer.import_document(elsewhere, {"format": "scorepad", "version": 1, "games": [game]})) == 1


def test_a_version_3_file_imports_its_nights_into_the_season_under_way(full, elsewhere):
    exported = transfer.export_games(full)
    older = {**without_moment(exported), "version": 3}
    del older["club_seasons"]
    for night in older["club_nights"]:
        del night["season"]
        for table in night["tables"]:
            del table["specials"]
    seasons.new_season(elsewhere, "Autumn", None, 1, ("high_game",))
    transfer.import_document(elsewhere, older)
    autumn = next(s for s in store_seasons.all_seasons(elsewhere) if s.name == "Autumn")
    assert [n.season_id for n in clubs.all_nights(elsewhere)] == [autumn.id] * 3
    with pytest.raises(ImportRefused, match="club_seasons came with version 4"):
        document.check({**older, "club_seasons": []}, document.EARLIEST)


@pytest.mark.parametrize("change, named", [
    (lambda d: d["club_nights"][0].update(season="Summer"), "season 'Summer' is not among the file's seasons"),
    (lambda d: d["club_seasons"][0].update(specials=["nines"]), "Season 1"),
    (lambda d: d["club_seasons"][1].update(name="first SEASON"), "is the name of an earlier season"),
    (lambda d: d["club_nights"][0]["tables"][0]["specials"][0].update(player="Zed"), "is not a player at this table"),
    (lambda d: d["club_nights"][0]["tables"][0]["specials"][0].update(kind="high_game"), "kind must be one of"),
    (lambda d: d["club_nights"][0]["tables"][0]["specials"].append(
        dict(d["club_nights"][0]["tables"][0]["specials"][0])), "lists one special twice"),
])
def test_a_damaged_season_or_special_is_refused_by_name_and_nothing_is_imported(full, elsewhere, change, named):
    exported = transfer.export_games(full)
    change(exported)
    with pytest.raises(ImportRefused, match=named):
        transfer.import_document(elsewhere, exported)
    assert clubs.all_nights(elsewhere) == [] and store_games.game_ids(elsewhere) == []
