"""What the game, history and players pages read, beside what they change: the web reaches the store only through
the services (the club's pages read through `services.club`), so a page never learns how a thing is stored. Each
function answers one question a page asks, in the store's own values; none writes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from ..store import clubs, connection, games, players, readable, records
from ..store.clubs import Night
from ..store.games import Game, StoredHand
from . import marked

# --- games and their hands -----------------------------------------------------------------------------------

def game(db, game_id: int) -> Game | None:
    return games.load_game(db, game_id)


def game_etag(db, game_id: int) -> str | None:
    """The game's ETag as it is now (its identity and version); None for a game that is not there."""
    stamp = games.game_stamp(db, game_id)
    return games.game_etag(game_id, *stamp) if stamp else None


def listed_games(db, finished: bool, limit: int = 20) -> list[Game]:
    """The latest games in progress, or the latest finished."""
    return games.list_games(db, finished=finished, limit=limit)


def history_games(db, player_id: int | None = None, start: str | None = None, end: str | None = None,
                  limit: int = 200, before: str | None = None) -> list[Game]:
    """Past games, newest first: of one player, between two moments, a page at a time."""
    return games.history_games(db, player_id, start, end, limit=limit, before=before)


def live_hand_count(db, game_id: int) -> int:
    return len(games.live_hands(db, game_id))


def hand_by_token(db, token: str) -> dict | None:
    """The hand a phone's save stored, found by the token its form carried."""
    return games.hand_by_token(db, token)


def deleted_hand(db, game_id: int, hand_id: int) -> StoredHand | None:
    return games.deleted_hand(db, game_id, hand_id)


# A change to a hand older than this is not what a poll's news is about: the game's version also moves by a restore
# or a player renamed, and the last change to a hand, from before, is not said again then. (A phone asleep for
# longer is told only the next hand's number.)
CHANGE_IS_NEWS = timedelta(minutes=2)


class Change(NamedTuple):
    """Another phone's latest change to a hand: `words` as its notice says them, and whether it was a deletion
    (which accounts for a sheet with fewer hands: the page says so itself, not from the words)."""

    words: str
    deleted: bool = False


NO_CHANGE = Change("")


def last_change(db, game_id: int, rows, now: datetime) -> Change:
    """The game's latest change to a hand, as another phone's notice says it ("hand 1 changed (Counters 20 : 30
    → 24 : 26)"), or NO_CHANGE when it was a hand recorded (the notice says the next hand's number), longer ago than
    CHANGE_IS_NEWS, or there is none. `rows`: the sheet's rows now, which number the hand."""
    edit = games.last_edit(db, game_id)
    if edit is None or edit["action"] == "recorded" or _when(edit["at"]) < now - CHANGE_IS_NEWS:
        return NO_CHANGE
    number = next((row.number for row in rows if row.stored.id == edit["hand_id"]), None)
    if edit["action"] == "edited" and number is not None:
        return Change(f"hand {number} changed ({edit['summary'].rstrip('.')})")
    if edit["action"] == "restored" and number is not None:
        return Change(f"hand {number} was put back")
    if edit["action"] == "deleted":
        place = sum(1 for row in rows if row.stored.seq < edit["seq"]) + 1
        return Change(f"hand {place} was deleted", deleted=True)
    return NO_CHANGE


def _when(stamp: str) -> datetime:
    try:
        return datetime.fromisoformat(stamp)
    except (TypeError, ValueError):  # a time no clock of ours wrote (an import's): not news
        return datetime.min.replace(tzinfo=UTC)


def edits_of_hand(db, hand_id: int) -> list[dict]:
    """Every change to a hand, first first."""
    return games.edits_of_hand(db, hand_id)


def edit_side(text: str | None) -> dict:
    """One side of a stored edit (before or after), read as it was written whatever version wrote it."""
    return readable.edit_side(text)


def club_tables_of(db, game_ids) -> dict[int, dict]:
    """The club table each of these games was played at, by game id (a family game has none)."""
    return clubs.tables_of_games(db, game_ids)


def nights_between(db, start: str | None = None, end: str | None = None) -> list[Night]:
    return clubs.list_nights(db, start=start, end=end)


# --- players and their records -------------------------------------------------------------------------------

def player(db, player_id: int) -> dict | None:
    """A player's id and name (None: no such player), kept while nothing is written (`marked`): asked at every
    look at their page."""
    found = marked.kept(db, ("player", player_id), lambda: players.player(db, player_id))
    return dict(found) if found is not None else None


def player_names(db) -> list[str]:
    """Every name known, for the forms' suggestions."""
    return players.player_names(db)


def player_choices(db) -> list[dict]:
    return players.player_choices(db)


def everyone_with_records(db) -> list[dict]:
    """Every player with their record, as the players' page lists them."""
    return records.players(db)


def unfinished_games(db, player_id: int | None = None) -> dict[int, dict]:
    return records.unfinished_games(db, player_id)


def side_record(db, player_ids: list[int]) -> dict:
    return records.side_record(db, player_ids)


def partners(db, player_id: int) -> list[dict]:
    return records.partners(db, player_id)


def team_records(db, player_id: int) -> list[dict]:
    return records.team_records(db, player_id)


def head_to_head(db, side_a: list[int], side_b: list[int]) -> dict:
    return records.head_to_head(db, side_a, side_b)


# `lists_versions`' first item (the database file) names what its counters count (`kept_pages.render`'s `line`)
LISTS_LINE = 1


def lists_versions(db) -> tuple:
    """What every list (home, history, the players' pages) is built from, as a key for a page kept rendered: the
    database file, the lists counter and the records counter, each moved by the database's own triggers (kept
    while nothing is written: `marked`)."""
    return marked.kept(db, "lists", lambda: (
        connection.database_file(db), games.lists_version(db), records.records_version(db)))
