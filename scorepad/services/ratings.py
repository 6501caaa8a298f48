"""Everyone's rating, folded from the stored games and kept under the database's records counter: its triggers
move it whenever a finished game, its figures, its seats or its winner change (an edited or deleted hand
re-scores the game and rewrites its figures), so ratings kept under it are right by construction.

When only games at the end were added (a game just finished, the usual change), the kept fold goes on from
where it stopped; anything else (an edit, a deleted hand, a merge, a restore) folds every game again.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass

from ..core import ratings as core
from ..core.ratings import Rating, Ratings, Step
from ..store import records
from ..store.connection import connect, database_file, snapshot
from ..store.players import player_choices

_KEPT: dict[tuple, tuple[int, list, Ratings]] = {}  # database file -> (records counter, games folded, ratings)
_LOCK = threading.Lock()
_FOLDING = threading.Lock()


@dataclass(frozen=True)
class Rung:
    """One player on a ladder: place (None while not sure yet), name and rating."""

    place: int | None
    player_id: int
    name: str
    rating: Rating


def all_ratings(db) -> Ratings:
    """Every rated player's rating, and how each game moved them."""
    key = database_file(db)
    version = records.records_version(db)
    found = _kept(key, version)
    if found is not None:
        return found
    with _FOLDING:  # one fold at a time: phones asking together wait for the first one's, not fold it again each
        found = _kept(key, version)
        if found is not None:
            return found
        with _LOCK:
            kept = _KEPT.get(key)
        with snapshot(db):  # the games and the counter they are kept under, read at one moment
            version = records.records_version(db)
            games = records.rated_games(db)
        if kept is not None and kept[1] == games[:len(kept[1])]:
            folded = core.fold(games[len(kept[1]):], kept[2])
        else:
            folded = core.fold(games)
        with _LOCK:
            if len(_KEPT) > 16:
                _KEPT.clear()
            _KEPT[key] = (version, games, folded)
        return folded


def _kept(key: tuple, version: int) -> Ratings | None:
    with _LOCK:
        kept = _KEPT.get(key)
    return kept[2] if kept is not None and kept[0] == version else None


def warm(path: str) -> None:
    """Fold the ratings of the database at `path` ahead of the next look (at start-up, and after a game ends), with
    a connection of its own (see `warming`)."""
    try:
        db = connect(path)
    except sqlite3.Error:
        return
    try:
        all_ratings(db)
    except sqlite3.Error:
        pass  # warming is a courtesy: the page folds what it needs itself
    finally:
        db.close()


def forget() -> None:
    """Keep no ratings (a test that folds from a cold start)."""
    with _LOCK:
        _KEPT.clear()


def player_rating(db, player_id: int) -> tuple[Rating | None, list[Step]]:
    """The player's rating now (None before a rated game) and where it stood after each of their games."""
    folded = all_ratings(db)
    return folded.now.get(player_id), folded.history(player_id)


def ladder(db, players=None) -> list[Rung]:
    """The rated players (of the ids `players`, say a season's, or everyone), best first: those sure enough
    ranked by rating, then those not sure yet, unranked. Each as a `Rung`."""
    names = {p["id"]: p["name"] for p in player_choices(db)}
    rungs, place = [], 0
    for player_id, rating in core.ladder(all_ratings(db), players):
        if player_id not in names:
            continue
        if rating.sure:
            place += 1
        rungs.append(Rung(place if rating.sure else None, player_id, names[player_id], rating))
    return rungs
