"""A player's (or a partnership's) figures over their finished games, kept until their records change.

Figures read every hand of thousands of games: a player of a club's year has some 70,000. They change when the
records do (a game of theirs finished, edited or reopened, a name changed), so they are kept under the same
counters the database's triggers move (see `store.records`), and read in two queries, with each hand's points
as its game's last fold kept them beside it (a game never scored by today's code is folded here).
"""

from __future__ import annotations

import sqlite3
import threading

from ..figures import Figures, SideGame, side_figures
from ..scoring import HandResult, play_game
from ..store import connection, games, records

_MADE = {"made": True, "set": False}


def figures(db, player_ids: list[int]) -> Figures:
    """The figures of a player, or of partners on one team, over their finished games (a game that cannot be
    read is left out, as everywhere)."""
    ids = tuple(player_ids)
    return records.kept_with_records(db, "figures", ids, _figures, players=ids)


def _figures(db, player_ids: tuple) -> Figures:
    with connection.snapshot(db):  # the games and their hands as of one moment
        seats = records.finished_seats(db, list(player_ids))
        found = dict((game.id, (game, hands)) for game, hands in games.games_with_hands(
            db, [seat["game_id"] for seat in seats]))
    side = []
    for seat in seats:
        if seat["game_id"] not in found:
            continue
        game, stored = found[seat["game_id"]]
        hands = [s.hand for s in stored]
        side.append(SideGame(game.id, game.rules, hands, _results(game, stored), seat["team"], seat["seat"],
                             bool(seat["won"]), game.created_at))
    return side_figures(side)


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
            figures(db, [player_id])
            for mate in records.partners(db, player_id):
                figures(db, [player_id, mate["id"]])
    except sqlite3.Error:
        pass  # warming is a courtesy: the page computes what it needs itself
    finally:
        db.close()


def warm_in_background(path: str, player_ids: list[int] | None = None) -> None:
    threading.Thread(target=warm, args=(path, player_ids), daemon=True, name="warm-figures").start()
