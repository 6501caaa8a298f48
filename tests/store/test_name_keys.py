"""One key for a name in the store: "Émile" and "émile", "Ann" and "Ann" with an invisible joiner, are one
player however they come in (a seat, an import); a database from before keys, holding such look-alikes as two
players, is brought up to date without a refusal, and each look-alike is kept apart until it is merged."""

import json
import sqlite3

import pytest

from scorepad import services
from scorepad.core.errors import ImportRefused
from scorepad.core.rules import PRESETS
from scorepad.services import transfer
from scorepad.services.transfer import export_games
from scorepad.store import connection, schema
from scorepad.store import players as store_players

DD = PRESETS["double-deck"]
AT = "2024-11-02T19:00:00+00:00"


def names(db) -> list[str]:
    return sorted(p["name"] for p in store_players.player_choices(db))


@pytest.mark.parametrize("one, other", [("Émile", "émile"), ("Ann", "Ann\u200d"), ("Ann", "ＡＮＮ"),
                                        ("Straße", "STRASSE"), ("Zoë", "Zoe\u0308")])
def test_two_spellings_with_one_key_are_one_player(db, one, other):
    with connection.write_lock(db):
        first = store_players.player_for(db, one)
        assert store_players.player_for(db, other) == first
    assert names(db) == [one]


def test_two_new_games_typed_with_emile_in_either_case_seat_one_player(db):
    services.start_game(db, DD, ("Us", "Them"), ("Émile", "Bo", None, None), 0)
    services.start_game(db, DD, ("Us", "Them"), ("émile", "Bo", None, None), 0)
    assert names(db) == ["Bo", "Émile"]


def exported(new_database, folder, *seatings) -> dict:
    """An export of one game per seating, made in a database of its own."""
    other = connection.connect(str(new_database(folder / "other.db")))
    try:
        for players in seatings:
            services.start_game(other, DD, ("Us", "Them"), players, 0)
        return export_games(other)
    finally:
        other.close()


def test_an_import_seats_a_look_alike_name_on_the_player_already_here(db, new_database, tmp_path):
    services.start_game(db, DD, ("Us", "Them"), ("Émile", "Bo", None, None), 0)
    document = exported(new_database, tmp_path, ("émile", None, "ÉMILE2", None), ("émile2", None, None, None))
    transfer.import_games(db, json.dumps(document).encode())
    assert names(db) == ["Bo", "ÉMILE2", "Émile"]


def test_a_file_with_one_player_in_two_seats_by_look_alike_names_is_refused(db, new_database, tmp_path):
    document = exported(new_database, tmp_path, ("Émile", None, "Bo", None))
    document["games"][0]["players"][2] = "ÉＭＩＬＥ"  # fullwidth: not the same to casefold alone
    with pytest.raises(ImportRefused, match="a player sits in one seat only"):
        transfer.import_games(db, json.dumps(document).encode())


# --- a database from before keys -------------------------------------------------------------------------------

def test_a_database_holding_look_alikes_upgrades_and_keeps_each_apart_until_merged(tmp_path):
    path = tmp_path / "old.db"
    db = connection.connect(str(path))
    schema.migrations.apply(db, stop_before="m016_player_name_keys")
    with db.conn:
        for name in ("Émile", "Ann", "émile", "Ann\u200d", "Bo"):
            db.execute("INSERT INTO players (name, created_at) VALUES (?, ?)", [name, AT])
        seats = [db.execute("SELECT id FROM players WHERE name = ?", [n]).fetchone()[0]
                 for n in ("Ann", "Émile", "Ann\u200d", "Bo")]
        game = db.execute("INSERT INTO games (created_at, rules, team_0, team_1, seat_0, seat_1, seat_2, seat_3, "
                          "first_dealer) VALUES (?, ?, 'Us', 'Them', ?, ?, ?, ?, 0)",
                          [AT, json.dumps(DD.to_dict()), *seats]).lastrowid
        for seat, player in enumerate(seats):
            db.execute("INSERT INTO game_seats (game_id, seat, team, player_id) VALUES (?, ?, ?, ?)",
                       [game, seat, seat % 2, player])
    db.close()

    schema.migrate(str(path))
    db = connection.connect(str(path))
    try:
        assert names(db) == sorted(["Ann", "Ann\u200d", "Bo", "Émile", "émile"])  # nobody renamed or merged
        ids = {p["name"]: p["id"] for p in store_players.player_choices(db)}
        with connection.write_lock(db):  # a name typed from now on is the older player
            assert store_players.player_for(db, "ÉMILE") == ids["Émile"]
            assert store_players.player_for(db, "ann") == ids["Ann"]
        # renaming the look-alike to its twin's name is refused; merging it is how they become one
        with pytest.raises(services.Refused):
            services.rename_player(db, ids["émile"], "Émile")
        services.merge_players(db, ids["émile"], ids["Émile"])
        # the twins at one table cannot be merged; the look-alike can be renamed to a name of its own
        with pytest.raises(services.CannotMerge):
            services.merge_players(db, ids["Ann\u200d"], ids["Ann"])
        services.rename_player(db, ids["Ann\u200d"], "Annie")
        with connection.write_lock(db):
            assert store_players.player_for(db, "annie") == ids["Ann\u200d"]
        assert names(db) == ["Ann", "Annie", "Bo", "Émile"]
        assert store_players.key_players(db) == 0  # every player has a key now: a start only reads
    finally:
        db.close()


def test_a_look_alike_whose_twin_went_takes_the_key(tmp_path):
    path = tmp_path / "old.db"
    db = connection.connect(str(path))
    schema.migrations.apply(db, stop_before="m016_player_name_keys")
    with db.conn:
        for name in ("Émile", "émile"):
            db.execute("INSERT INTO players (name, created_at) VALUES (?, ?)", [name, AT])
    db.close()
    schema.migrate(str(path))
    db = connection.connect(str(path))
    try:
        ids = {p["name"]: p["id"] for p in store_players.player_choices(db)}
        services.merge_players(db, ids["Émile"], ids["émile"])  # the older one goes into the look-alike
        with connection.write_lock(db):
            assert store_players.player_for(db, "ÉMILE") == ids["émile"]
        services.rename_player(db, ids["émile"], "Émile")  # its own name, in another case: allowed
        assert names(db) == ["Émile"]
    finally:
        db.close()


def test_every_player_of_a_database_made_today_has_the_key_of_its_name(db):
    services.start_game(db, DD, ("Us", "Them"), ("Émile", "Ann", "Bo", "Cy"), 0)
    services.rename_player(db, store_players.player_for(db, "Bo"), "Ｂｏｂ")
    assert db.execute("SELECT count(*) FROM players WHERE name_key IS NULL").fetchone()[0] == 0
    assert sorted(r[0] for r in db.execute("SELECT name_key FROM players")) == ["ann", "bob", "cy", "émile"]


def test_the_key_is_unique_in_the_database_itself(db):
    with connection.write_lock(db):
        store_players.player_for(db, "Émile")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO players (name, name_key, created_at) VALUES ('émile', 'émile', ?)", [AT])
