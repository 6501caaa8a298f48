"""Everyone's rating, folded from the stored games and kept under the database's records counter: its triggers
move it whenever a finished game, its figures, its seats or its winner change (an edited or deleted hand
re-scores the game and rewrites its figures), so ratings kept under it are right by construction.

When only games at the end were added (a game just finished, the usual change), the kept fold goes on from
where it stopped; anything else (an edit, a deleted hand, a merge, a restore) folds every game again. Each pool
of games (every game, the club's, the kitchen table's: `core.ratings.POOLS`) has a fold of its own.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass

from ..core import ratings as core
from ..core.chart import rating_chart
from ..core.ratings import Rating, Ratings, Step
from ..store import records
from ..store.connection import connect, database_file, snapshot
from ..store.players import player_choices

# (database file, pool) -> (records counter, how many games were folded, their mark, ratings). The games themselves
# are not kept (2.9 MiB a pool at 10,000 games): their mark says whether the games read next begin with them.
_KEPT: dict[tuple, tuple[int, int, int, Ratings]] = {}
_PLAYERS: dict[tuple, PlayerRating] = {}  # (database file, records counter, player, pool) -> rating and chart
_LOCK = threading.Lock()
_FOLDING = threading.Lock()


@dataclass(frozen=True)
class Rung:
    """One player on a ladder: place (None while not sure yet), name and rating."""

    place: int | None
    player_id: int
    name: str
    rating: Rating


def all_ratings(db, pool: str = "all") -> Ratings:
    """Every rated player's rating from the games of `pool` (every game, or the club's, or the kitchen table's),
    and how each game moved them."""
    key = (database_file(db), pool)
    version = records.records_version(db)
    found = _cached(key, version)
    if found is not None:
        return found
    with _FOLDING:  # one fold at a time: phones asking together wait for the first one's, not fold it again each
        found = _cached(key, version)
        if found is not None:
            return found
        with _LOCK:
            kept = _KEPT.get(key)
        with snapshot(db):  # the games and the counter they are kept under, read at one moment
            version = records.records_version(db)
            games = core.of_pool(records.rated_games(db), pool)
        if kept is not None and kept[1] <= len(games) and _mark(games[:kept[1]]) == kept[2]:
            folded = core.fold(games[kept[1]:], kept[3])
        else:
            folded = core.fold(games)
        with _LOCK:
            if len(_KEPT) > 16:
                _KEPT.clear()
            _KEPT[key] = (version, len(games), _mark(games), folded)
        return folded


def _mark(games: list[core.RatedGame]) -> int:
    """What the games folded are, in their order, in one number (a game is frozen, and equal games hash alike):
    another list with the same mark holds the same games, but for a chance of one in 2**64."""
    return hash(tuple(games))


def _cached(key: tuple, version: int) -> Ratings | None:
    with _LOCK:
        kept = _KEPT.get(key)
    return kept[3] if kept is not None and kept[0] == version else None


def warm(path: str) -> None:
    """Fold the ratings of the database at `path` ahead of the next look (at start-up, and after a game ends), with
    a connection of its own (see `warming`)."""
    try:
        db = connect(path)
    except sqlite3.Error:
        return
    try:
        all_ratings(db)  # every game's: the ladder most pages show (a pool of its own is folded when first asked)
    except sqlite3.Error:
        pass  # warming is a courtesy: the page folds what it needs itself
    finally:
        db.close()


def census() -> dict:
    """What is kept: each database's fold (its games) and the players' ratings with their charts."""
    with _LOCK:
        return {"folds": len(_KEPT), "games folded": sum(kept[1] for kept in _KEPT.values()),
                "players": len(_PLAYERS)}


def forget() -> None:
    """Keep no ratings (a test that folds from a cold start)."""
    with _LOCK:
        _KEPT.clear()
        _PLAYERS.clear()


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating now (None before a rated game) and the chart of where it stood after each of their
    games (an SVG of numbers only; None before a second game). The steps themselves are not kept: at 10,000 games
    the players' steps held 6 MiB, and their page shows only the chart."""

    rating: Rating | None
    chart: str | None


def player_rating(db, player_id: int, pool: str = "all") -> tuple[Rating | None, list[Step]]:
    """The player's rating now (None before a rated game) and where it stood after each of their games."""
    folded = all_ratings(db, pool)
    return folded.now.get(player_id), folded.history(player_id)


def of_player(db, player_id: int, pool: str = "all") -> PlayerRating:
    """The player's `PlayerRating` in `pool`, kept under the records counter as the ratings are: a player of a
    thousand games has a chart of a thousand steps, built once, not at every look at their page."""
    memo = (database_file(db), records.records_version(db), player_id, pool)
    with _LOCK:
        found = _PLAYERS.get(memo)
    if found is not None:
        return found
    folded = all_ratings(db, pool)
    steps = tuple(folded.history(player_id))
    chart = rating_chart([(s.mu, s.sigma) for s in steps], (core.START_MU, core.START_SIGMA)) \
        if len(steps) >= 2 else None
    found = PlayerRating(folded.now.get(player_id), chart)
    with _LOCK:
        if len(_PLAYERS) > 256:
            _PLAYERS.clear()
        _PLAYERS[memo] = found
    return found


def ladder(db, players=None, pool: str = "all") -> list[Rung]:
    """The rated players (of the ids `players`, say a season's, or everyone) in the games of `pool`, best first:
    those sure enough ranked by rating, then those not sure yet, unranked. Each as a `Rung`."""
    names = {p["id"]: p["name"] for p in player_choices(db)}
    rungs, place = [], 0
    for player_id, rating in core.ladder(all_ratings(db, pool), players):
        if player_id not in names:
            continue
        if rating.sure:
            place += 1
        rungs.append(Rung(place if rating.sure else None, player_id, names[player_id], rating))
    return rungs
