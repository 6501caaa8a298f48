"""What a change to games sets going once it is committed, in one place, whichever change it was (a hand
recorded, edited, deleted or put back, a club table's round ended or its result changed):

- the page its writer folded is kept for the next look (`pages`);
- a game that ended (won, or its club round over) is backed up, beside the answer, never in its way;
- the records of the players of a game whose end moved (it ended, was reopened, or has another winner), and
  everyone's ratings, are computed again ahead of the next look, on threads of their own.

Never before the commit: a change rolled back sets nothing going.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from collections.abc import Iterable

from ..store import connection
from ..store import players as store_players
from . import backups, pages, warming

_logger = logging.getLogger(__name__)

# The databases whose records are warmed after a change (the server's; not a script's, nor a test's of the
# service alone, where a thread of its own would outlive the test's database).
_WARMED: set[str] = set()
_WARMED_LOCK = threading.Lock()


def warm_records_of(path: str) -> None:
    """From now on, a change that moves a game's end on the database at `path` warms its players' records."""
    with _WARMED_LOCK:
        _WARMED.add(os.path.realpath(path))


def after_commit(db, *, page: pages.GamePage | None = None, ended: Iterable[int] = (),
                 moved: Iterable[int] = ()) -> None:
    """Everything a committed change sets going: keep the `page` it folded; back up after games that `ended`;
    warm the records of the players of games whose end `moved` (those that ended included). Never raises: the
    change is committed, and an answer saying it was not saved would be wrong (the next look reads the page,
    the next daily backup comes, the records catch up, all by themselves)."""
    ended = list(ended)
    moved = sorted(set(moved) | set(ended))
    try:
        if page is not None:
            pages.keep(db, page)
        if ended:
            backups.after_finished_game(db)
        if moved:
            _warm(db, moved)
    except (sqlite3.Error, OSError, RuntimeError) as error:  # RuntimeError: no thread to be had
        _logger.warning("After a change was saved, what follows it failed: %s", error)


def _warm(db, game_ids: list[int]) -> None:
    path = connection.database_path(db)
    with _WARMED_LOCK:
        wanted = os.path.realpath(path) in _WARMED
    if not wanted:
        return
    players = sorted({p for game_id in game_ids for p in store_players.seated_players(db, game_id)})
    # A game no one is named in has no records, figures or place on the ladder to warm: warming everyone's ladder
    # for it (0.7 s of CPU at 10,000 games, beside the phones) after every such game was a third of a quick
    # table's saves. Should a page ask, it folds the ladder itself, once.
    if players:
        warming.warm(path, players)  # their records and figures, and everyone's ladder (a game's end moves it)
