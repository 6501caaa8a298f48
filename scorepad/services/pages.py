"""A game's page data (the game and its sheet), built once per game version and read by every page of the game:
its page, its poll, its history page and each hand's page.

A game's version is moved by the database's own triggers on every write to the game, its hands or its players'
names (and past every value at a restore), so a page kept under (database file, game, its identity, version) is
right by construction: a change makes a new version, and the next look builds (or finds) the page of that one.
(The identity too: a game made after a restore may be given a gone game's id at a version that game had.) A
change folds its game anyway: it hands its page over (`written`), so the page after it folds nothing again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import cached_property

from ..core.scoring import GameState
from ..store import connection, games
from ..store.games import Game, StoredHand
from . import marked
from .sheet import Sheet, build_sheet

# Pages kept in this process: the games being played tonight and a few looked back at. A page of a long game
# is some tens of KiB.
PAGES_KEPT = 64

_PAGES: OrderedDict[tuple, GamePage] = OrderedDict()
_LOCK = threading.Lock()


@dataclass(frozen=True)
class GamePage:
    """What every page of a game shows, at one version of it: the game and its sheet, built from the rows read
    together (and the fold of the change that wrote them, if it was that change that made the page). Shared
    between requests: read it, never change it."""

    game: Game
    hands: list[StoredHand] = field(repr=False)
    history: dict = field(repr=False)
    deleted: list[dict] = field(repr=False)
    state: GameState | None = field(default=None, repr=False, compare=False)

    @cached_property
    def sheet(self) -> Sheet:
        """Built at the first look, outside any transaction or write lock (two first looks at once may both build
        it: the same sheet)."""
        return build_sheet(self.game, self.hands, self.history, self.deleted, self.state)


def stamp_now(db, game_id: int) -> tuple[str, int] | None:
    """The game's (identity, version) now, None for no such game: asked at every look at a game, so kept while
    nothing is written (`marked`)."""
    return marked.kept(db, ("stamp", game_id), lambda: games.game_stamp(db, game_id))


def game_page(db, game_id: int) -> GamePage | None:
    """The game's page data as it is now; None when there is no such game. Raises `store.UnreadableGame` for a
    game whose stored rules do not read."""
    stamp = stamp_now(db, game_id)
    if stamp is None:
        return None
    found = _cached(db, game_id, stamp)
    if found is not None:
        return found
    with connection.snapshot(db):  # the game, its hands and their history as of one moment, read in a moment
        game = games.load_game(db, game_id)
        if game is None:
            return None
        page = _page(db, game, games.live_hands(db, game_id), None)
    keep(db, page)
    return page


def current_game(db, game_id: int) -> Game | None:
    """The game as it is now (from its kept page when that is current): for reading a form by its rules."""
    stamp = stamp_now(db, game_id)
    if stamp is None:
        return None
    found = _cached(db, game_id, stamp)
    return found.game if found is not None else games.load_game(db, game_id)


def written(db, game_id: int, hands: list[StoredHand], state: GameState) -> GamePage:
    """Inside a change's transaction, once it has written everything: the page of the version it made, from the
    hands it folded and its own fold (`state`); its sheet is built at the first look, after the write lock is
    let go. Kept by `keep` once the change is committed, never before: a change rolled back leaves no page."""
    game = games.load_game(db, game_id)
    kept = [replace(stored, kept=(*result.points, games.outcome(result)))
            for stored, result in zip(hands, state.results, strict=True)]
    return _page(db, game, kept, state)


# How many first items of `versions` name the game (its database file, id and uid): its version, the last, only
# grows (a page kept rendered supersedes its game's pages of earlier versions: `kept_pages.render`'s `line`)
LINE = 3


def versions(db, page: GamePage) -> tuple:
    """What every page of the game at `page`'s version is built from, as a key for a page kept rendered."""
    return (connection.database_file(db), page.game.id, page.game.uid, page.game.version)


def versions_now(db, game_id: int) -> tuple | None:
    """`versions` of the game's page as the game is now, read without reading the game; None for no such game."""
    stamp = stamp_now(db, game_id)
    return (connection.database_file(db), game_id, *stamp) if stamp else None


def keep(db, page: GamePage) -> None:
    """Keep `page` for the next look at its game's version."""
    key = (connection.database_file(db), page.game.id, (page.game.uid, page.game.version))
    with _LOCK:
        _PAGES[key] = page
        _PAGES.move_to_end(key)
        while len(_PAGES) > PAGES_KEPT:
            _PAGES.popitem(last=False)


def census() -> dict:
    """What is kept: games' pages, and the hands on their sheets."""
    with _LOCK:
        return {"games": len(_PAGES), "hands": sum(len(page.hands) for page in _PAGES.values())}


def forget() -> None:
    """Keep no page (a test that counts folds from a cold start)."""
    with _LOCK:
        _PAGES.clear()


def _cached(db, game_id: int, stamp: tuple[str, int]) -> GamePage | None:
    key = (connection.database_file(db), game_id, stamp)
    with _LOCK:
        found = _PAGES.get(key)
        if found is not None:
            _PAGES.move_to_end(key)
        return found


def _page(db, game: Game, hands: list[StoredHand], state: GameState | None) -> GamePage:
    """The page of `game` and its live `hands` (folded as `state`, or at the first look), with every hand's
    history and the deleted hands read beside them."""
    return GamePage(game, hands, games.hand_history(db, game.id), games.deleted_hands(db, game.id), state)
