"""A player's figures, and each of their partnerships', over their finished games, kept until their records
change.

Figures read every hand of a player's games: a player of a long family history has some 3,500 games and 77,000
hands. They change when the records do (a game of theirs finished, edited or reopened, a name changed), so they
are kept under the same counters the database's triggers move (see `store.records`). A player's page wants their
own figures and each partnership's, and a partnership's games are among the player's own: the games are read
once, in two queries, with each hand's points as its game's last fold kept them beside it (a game never scored
by today's code is folded here). One computation a player at a time: a second look waits for the first's answer
instead of reading the same games again beside it.
"""

from __future__ import annotations

import copy
import hashlib
import sqlite3
import threading
from collections import OrderedDict

from ..core.figures import Figures, FiguresFold, SideGame
from ..core.scoring import HandResult, play_game
from ..store import connection, games, records
from . import courtesy

_MADE = {"made": True, "set": False}
_COMPUTING: dict[tuple, threading.Lock] = {}  # (database, player) -> the lock of its computation
_WARMING: set[tuple] = set()  # of those, the ones the warming thread holds (it is the one given a `pause`)


def figures(db, player_ids: list[int]) -> Figures:
    """The figures of a player, or of partners on one team, over their finished games (a game that cannot be
    read is left out, as everywhere)."""
    ids = tuple(player_ids)
    return of_player(db, ids[0], [ids[1:]] if len(ids) > 1 else [])[ids]


def of_player(db, player_id: int, partnerships: list[tuple] = (), pause=None) -> dict[tuple, Figures]:
    """{(player_id,): their figures, (player_id, *mates): each partnership's} for the `partnerships` given (each
    a tuple of the player's mates on one team). `pause`: called between pieces of the work (warming's
    `courtesy.step_aside`)."""
    keys = [(player_id,)] + [(player_id, *mates) for mates in partnerships]
    found = _cached(db, keys)
    if len(found) == len(keys):
        return found
    where = (connection.database_path(db), player_id)
    lock = _COMPUTING.setdefault(where, threading.Lock())
    if not lock.acquire(blocking=False):
        if where in _WARMING:
            with courtesy.awaited():  # the work waited for is warming's: it must not wait for this request
                lock.acquire()
        else:
            lock.acquire()
    if pause is not None:
        _WARMING.add(where)
    try:
        found = _cached(db, keys)  # computed meanwhile by the look that held the lock
        missing = [key for key in keys if key not in found]
        if missing:
            marks = {key: records.records_mark(db, key) for key in missing}  # before reading: never newer
            computed = _compute(db, player_id, missing, pause or _go_on)
            for key in missing:
                records.keep_answer(db, "figures", key, marks[key], computed[key])
            found.update(computed)
    finally:
        _WARMING.discard(where)
        lock.release()
    return found


def _go_on(patience: float | None = None) -> None:
    pass


def _cached(db, keys) -> dict[tuple, Figures]:
    found = {}
    for key in keys:
        hit = records.kept_answer(db, "figures", key, records.records_mark(db, key))
        if hit is not None:
            found[key] = hit
    return found


# The fold each computation ended with, kept: when a game of a player's ends, their figures go on from the fold of
# the games before it instead of folding their 3,500 games again (at 10,000 games that took 16 s of CPU for a
# game's four players, after every game, beside the phones). A fold is gone on from only when the games it folded
# are still, each at the same version and on the same side, the first of the games now (else it is folded afresh).
FOLDS_KEPT = 256
_FOLDS: OrderedDict[tuple, tuple[int, bytes, FiguresFold]] = OrderedDict()  # (database, key) -> (games, digest, fold)
_FOLDS_LOCK = threading.Lock()

# Games read and folded at a time: a player's games are never all in memory at once (3,500 games and their 77,000
# hands took a hundred MiB at the peak of warming everyone's figures)
CHUNK = 200
# Between two chunks warming waits for a quiet moment this long at most: it holds a snapshot of the database
# meanwhile, and a snapshot held keeps the log from being folded into the database behind it
IN_A_SNAPSHOT = 0.25


def _compute(db, player_id: int, keys: list[tuple], pause) -> dict[tuple, Figures]:
    where = connection.database_file(db)
    with connection.snapshot(db):  # the games and their hands as of one moment
        seats = {key: records.finished_seats(db, list(key)) for key in keys}
        # a partnership's games are among the player's own: each game is read once, for every side it counts for
        sides: dict[int, list[tuple[tuple, dict]]] = {}
        for key, found in seats.items():
            for seat in found:
                sides.setdefault(seat["game_id"], []).append((key, seat))
        versions = games.versions_of(db, list(sides))
        played = {key: [(s["game_id"], versions.get(s["game_id"]), s["team"], s["seat"], s["won"]) for s in found]
                  for key, found in seats.items()}  # each side's games oldest first, as the runs count them
        folds, new = {}, {}
        for key in keys:
            folds[key], start = _going_on((where, key), played[key])
            new[key] = {game[0] for game in played[key][start:]}
        order = games.in_finished_order(db, [g for g in sides if any(g in new[key] for key, _ in sides[g])])
        for start in range(0, len(order), CHUNK):
            connection.writes_first()  # a courtesy, on a thread of its own: the phones' saves go first
            pause()
            read = games.games_with_hands(db, order[start:start + CHUNK])
            for game_id in order[start:start + CHUNK]:
                if game_id not in read:
                    continue
                game, stored = read[game_id]
                hands, folded = [s.hand for s in stored], _results(game, stored)
                for key, seat in sides[game_id]:
                    if game_id in new[key]:
                        folds[key].add(SideGame(game.id, game.rules, hands, folded, seat["team"], seat["seat"],
                                                bool(seat["won"]), game.created_at))
    found = {key: fold.figures() for key, fold in folds.items()}
    for key, fold in folds.items():
        _kept_fold((where, key), played[key], fold)
    return found


def _digest(played: list[tuple]) -> bytes:
    return hashlib.blake2b(repr(played).encode(), digest_size=16).digest()


def _going_on(where: tuple, played: list[tuple]) -> tuple[FiguresFold, int]:
    """The fold to go on from for a side whose games are `played`, and how many of them it has folded: a copy of
    the kept one when the games it folded are the first of `played` as they are now, else a new fold."""
    with _FOLDS_LOCK:
        kept = _FOLDS.get(where)
    if kept is not None and kept[0] <= len(played) and _digest(played[:kept[0]]) == kept[1]:
        return copy.deepcopy(kept[2]), kept[0]  # a copy: the kept one's figures are shown by every page
    return FiguresFold(), 0


def _kept_fold(where: tuple, played: list[tuple], fold: FiguresFold) -> None:
    with _FOLDS_LOCK:
        _FOLDS[where] = (len(played), _digest(played), fold)
        _FOLDS.move_to_end(where)
        while len(_FOLDS) > FOLDS_KEPT:
            _FOLDS.popitem(last=False)


def forget_folds() -> None:
    """Keep no fold (a test that folds afresh)."""
    with _FOLDS_LOCK:
        _FOLDS.clear()


def _results(game, stored) -> list[HandResult]:
    """Each hand's points and whether its bid was made, as kept beside it; folded afresh when any is missing."""
    if all(s.kept is not None and None not in s.kept for s in stored):
        return [HandResult(tuple(s.kept[:-1]), _MADE.get(s.kept[-1])) for s in stored]
    return play_game(game.rules, [s.hand for s in stored], names=game.teams).results


def warm(path: str, player_ids: list[int] | None = None, pause=_go_on) -> None:
    """Compute and keep the figures a player's page shows (theirs, and each partnership's), ahead of the first
    look: everyone's at start-up, a game's players' when it ends. With a connection of its own; `pause` between
    pieces of the work."""
    db = connection.connect(path)
    try:
        ids = player_ids if player_ids is not None else [p["id"] for p in records.players(db)]
        for player_id in ids:
            pause()
            of_player(db, player_id, [(mate["id"],) for mate in records.partners(db, player_id)],
                      lambda: pause(IN_A_SNAPSHOT))
    except sqlite3.Error:
        pass  # warming is a courtesy: the page computes what it needs itself
    finally:
        db.close()

