"""Players: the names typed into seats, renaming one, and merging a person typed twice.

Names match by their key (`inputs.name_key`: "Émile" is "émile", "Ann" with an invisible joiner is "Ann"), kept
in `name_key`. A database from before keys may hold two players whose names have one key: the older takes the
key, the other keeps one of its own (the key, APART and its id) until it is merged or renamed. What a rename or
a merge changes in game versions and records versions, the database's triggers change (see
`schema.m007_version_triggers`).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from ..core import house_time
from ..core.evenings import evening_of
from ..core.inputs import name_key
from .connection import MAX_ID, now, rows, write_lock

APART = "\x1f"  # a control character: no key of a name holds one (`name_key` leaves them out)


def player_for(db, name: str | None) -> int | None:
    """The id of the player whose name has `name`'s key, added if new; None for an empty seat."""
    if not name:
        return None
    key = name_key(name)
    found = players_named(db, name)
    if found:
        if found[0]["name_key"] != key:  # a look-alike kept apart, whose older twin has gone: it takes the key
            db.execute("UPDATE players SET name_key = ? WHERE id = ?", [key, found[0]["id"]])
        return found[0]["id"]
    try:
        return db.execute("INSERT INTO players (name, name_key, created_at) VALUES (?, ?, ?)",
                          [name, key, now()]).lastrowid
    except sqlite3.IntegrityError:  # a row whose key was never made (a hand-made file): found by its name
        return db.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()[0]


def players_named(db, name: str) -> list[dict]:
    """The players whose name has `name`'s key: the one holding the key first, then look-alikes kept apart."""
    key = name_key(name)
    return rows(db, """SELECT id, name, name_key FROM players
                       WHERE name_key = ?1 OR (name_key > ?1 || ?2 AND name_key < ?1 || ?3)
                       ORDER BY name_key != ?1, id""", [key, APART, chr(ord(APART) + 1)])


def key_players(db) -> int:
    """Give each player without a key (all of them, the first time after `m015`) the key of its name, oldest
    first: one whose key an older player has keeps a key of its own. Returns how many were keyed; a database
    whose players all have a key is only read."""
    if db.execute("SELECT 1 FROM players WHERE name_key IS NULL LIMIT 1").fetchone() is None:
        return 0
    with write_lock(db):
        unkeyed = db.execute("SELECT id, name FROM players WHERE name_key IS NULL ORDER BY id").fetchall()
        for player_id, name in unkeyed:
            key = name_key(name)
            taken = db.execute("SELECT 1 FROM players WHERE name_key = ?", [key]).fetchone()
            db.execute("UPDATE players SET name_key = ? WHERE id = ?",
                       [f"{key}{APART}{player_id}" if taken else key, player_id])
    return len(unkeyed)


def player_names(db) -> list[str]:
    return [r[0] for r in db.execute("SELECT name FROM players ORDER BY name COLLATE NOCASE").fetchall()]


def player_choices(db) -> list[dict]:
    return rows(db, "SELECT id, name FROM players ORDER BY name COLLATE NOCASE")


def player(db, player_id: int) -> dict | None:
    found = rows(db, "SELECT id, name FROM players WHERE id = ?", [player_id]) if 0 < player_id <= MAX_ID else []
    return found[0] if found else None


def seated_players(db, game_id: int) -> list[int]:
    return [r[0] for r in db.execute("SELECT player_id FROM game_seats WHERE game_id = ?", [game_id])]


def rename_player(db, player_id: int, name: str) -> None:
    """The player is called `name`, whose key no other player has (the caller checked, under the write lock)."""
    with db.atomic():
        db.execute("UPDATE players SET name = ?, name_key = ? WHERE id = ?", [name, name_key(name), player_id])


class MergeRefused(Exception):
    pass


def merge_players(db, source_id: int, target_id: int) -> None:
    """The same person typed twice: every seat of `source` becomes `target`'s, and `source` goes. Scores are
    not touched. Refused when both sat in one game (one person cannot hold two seats) or are both registered in
    one club night (one person cannot be two of its entrants). A night's entrant named after `source` (a player,
    or a team called by its two names) is named after `target` from now on."""
    with db.atomic():
        night = _night_of_both(db, source_id, target_id)
        if night:
            raise MergeRefused(f"both are registered in the club night {night[0]} ({_day(night[1])})")
        shared = db.execute("""SELECT a.game_id FROM game_seats a JOIN game_seats b ON a.game_id = b.game_id
                               WHERE a.player_id = ? AND b.player_id = ? LIMIT 1""",
                            [source_id, target_id]).fetchone()
        if shared:
            raise MergeRefused(f"Both played in game {shared[0]}, in different seats: they are two people.")
        db.execute("UPDATE game_seats SET player_id = ? WHERE player_id = ?", [target_id, source_id])
        for seat in range(8):  # every seat of the largest table, eight players
            db.execute(f"UPDATE games SET seat_{seat} = ? WHERE seat_{seat} = ?", [target_id, source_id])
        _rename_entrants(db, source_id, target_id)
        for column in ("player_0", "player_1"):  # a club night's registration is the person's too
            db.execute(f"UPDATE club_entrants SET {column} = ? WHERE {column} = ?", [target_id, source_id])
        db.execute("UPDATE club_tables SET confirmed_by = ? WHERE confirmed_by = ?", [target_id, source_id])
        db.execute("UPDATE club_specials SET player_id = ? WHERE player_id = ?", [target_id, source_id])
        # a claimed name too: never both claimed on one night, as never both registered in one
        db.execute("UPDATE club_claims SET player_id = ? WHERE player_id = ?", [target_id, source_id])
        db.execute("DELETE FROM players WHERE id = ?", [source_id])
        _take_own_key(db, target_id)


def _take_own_key(db, player_id: int) -> None:
    """A look-alike kept apart takes its name's key once no other player holds it (its twin merged into it)."""
    name = db.execute("SELECT name FROM players WHERE id = ?", [player_id]).fetchone()[0]
    key = name_key(name)
    if db.execute("SELECT 1 FROM players WHERE name_key = ?", [key]).fetchone() is None:
        db.execute("UPDATE players SET name_key = ? WHERE id = ?", [key, player_id])


def _night_of_both(db, a: int, b: int) -> tuple[str, str] | None:
    """(name, created_at) of the latest club night both players are registered in, or None."""
    return db.execute("""
        SELECT n.name, n.created_at FROM club_nights n
        WHERE EXISTS (SELECT 1 FROM club_entrants e WHERE e.night_id = n.id AND ?1 IN (e.player_0, e.player_1))
          AND EXISTS (SELECT 1 FROM club_entrants e WHERE e.night_id = n.id AND ?2 IN (e.player_0, e.player_1))
        ORDER BY n.created_at DESC LIMIT 1""", [a, b]).fetchone()


def _day(stamp: str) -> str:
    """The evening a night was held on, as a person says it: "1 Nov"."""
    evening = evening_of(house_time.local(datetime.fromisoformat(stamp)))
    return f"{evening.day} {evening:%b}"


def _rename_entrants(db, source_id: int, target_id: int) -> None:
    """Entrants named by `source`'s name (a player on their own, or a team called by its two names) take
    `target`'s; a team's own name stays."""
    db.execute("""
        WITH names AS (SELECT (SELECT name FROM players WHERE id = ?1) AS old,
                              (SELECT name FROM players WHERE id = ?2) AS new)
        UPDATE club_entrants SET name = CASE
            WHEN player_1 IS NULL THEN (SELECT new FROM names)
            WHEN player_0 = ?1 THEN (SELECT new FROM names) || ' & ' || (SELECT name FROM players WHERE id = player_1)
            ELSE (SELECT name FROM players WHERE id = player_0) || ' & ' || (SELECT new FROM names) END
        WHERE ?1 IN (player_0, player_1) AND name = CASE
            WHEN player_1 IS NULL THEN (SELECT old FROM names)
            WHEN player_0 = ?1 THEN (SELECT old FROM names) || ' & ' || (SELECT name FROM players WHERE id = player_1)
            ELSE (SELECT name FROM players WHERE id = player_0) || ' & ' || (SELECT old FROM names)
            END COLLATE NOCASE""", [source_id, target_id])
