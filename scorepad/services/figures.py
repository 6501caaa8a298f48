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

import sqlite3
import threading

from ..core.figures import Figures, FiguresFold, SideGame
from ..core.scoring import HandResult, play_game
from ..store import connection, games, records

_MADE = {"made": True, "set": False}
_COMPUTING: dict[tuple, threading.Lock] = {}  # (database, player) -> the lock of its computation


def figures(db, player_ids: list[int]) -> Figures:
    """The figures of a player, or of partners on one team, over their finished games (a game that cannot be
    read is left out, as everywhere)."""
    ids = tuple(player_ids)
    return of_player(db, ids[0], [ids[1:]] if len(ids) > 1 else [])[ids]


def of_player(db, player_id: int, partnerships: list[tuple] = ()) -> dict[tuple, Figures]:
    """{(player_id,): their figures, (player_id, *mates): each partnership's} for the `partnerships` given (each
    a tuple of the player's mates on one team)."""
    keys = [(player_id,)] + [(player_id, *mates) for mates in partnerships]
    found = _cached(db, keys)
    if len(found) == len(keys):
        return found
    with _COMPUTING.setdefault((connection.database_path(db), player_id), threading.Lock()):
        found = _cached(db, keys)  # computed meanwhile by the look that held the lock
        missing = [key for key in keys if key not in found]
        if missing:
            marks = {key: records.records_mark(db, key) for key in missing}  # before reading: never newer
            computed = _compute(db, player_id, missing)
            for key in missing:
                records.keep_answer(db, "figures", key, marks[key], computed[key])
            found.update(computed)
    return found


def _cached(db, keys) -> dict[tuple, Figures]:
    found = {}
    for key in keys:
        hit = records.kept_answer(db, "figures", key, records.records_mark(db, key))
        if hit is not None:
            found[key] = hit
    return found


# Games read and folded at a time: a player's games are never all in memory at once (3,500 games and their 77,000
# hands took a hundred MiB at the peak of warming everyone's figures)
CHUNK = 200


def _compute(db, player_id: int, keys: list[tuple]) -> dict[tuple, Figures]:
    folds = {key: FiguresFold() for key in keys}
    with connection.snapshot(db):  # the games and their hands as of one moment
        seats = {key: records.finished_seats(db, list(key)) for key in keys}
        # a partnership's games are among the player's own: each game is read once, for every side it counts for
        sides: dict[int, list[tuple[tuple, dict]]] = {}
        for key, found in seats.items():
            for seat in found:
                sides.setdefault(seat["game_id"], []).append((key, seat))
        order = games.in_finished_order(db, list(sides))  # each side's games oldest first, as the runs count them
        for start in range(0, len(order), CHUNK):
            connection.writes_first()  # a courtesy, on a thread of its own: the phones' saves go first
            read = games.games_with_hands(db, order[start:start + CHUNK])
            for game_id in order[start:start + CHUNK]:
                if game_id not in read:
                    continue
                game, stored = read[game_id]
                hands, folded = [s.hand for s in stored], _results(game, stored)
                for key, seat in sides[game_id]:
                    folds[key].add(SideGame(game.id, game.rules, hands, folded, seat["team"], seat["seat"],
                                            bool(seat["won"]), game.created_at))
    return {key: fold.figures() for key, fold in folds.items()}


def _results(game, stored) -> list[HandResult]:
    """Each hand's points and whether its bid was made, as kept beside it; folded afresh when any is missing."""
    if all(s.kept is not None and None not in s.kept for s in stored):
        return [HandResult(tuple(s.kept[:-1]), _MADE.get(s.kept[-1])) for s in stored]
    return play_game(game.rules, [s.hand for s in stored], names=game.teams).results


def warm(path: str, player_ids: list[int] | None = None) -> None:
    """Compute and keep the figures a player's page shows (theirs, and each partnership's), ahead of the first
    look: everyone's at start-up, a game's players' when it ends. With a connection of its own."""
    db = connection.connect(path)
    try:
        ids = player_ids if player_ids is not None else [p["id"] for p in records.players(db)]
        for player_id in ids:
            of_player(db, player_id, [(mate["id"],) for mate in records.partners(db, player_id)])
    except sqlite3.Error:
        pass  # warming is a courtesy: the page computes what it needs itself
    finally:
        db.close()

