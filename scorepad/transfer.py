"""Getting data out and back: a JSON document that imports without loss, and CSV score sheets.

The JSON holds everything a game is: its rules snapshot, teams, seats, every hand (deleted ones too) with its
history. An import checks the whole document first (`scorepad.document`), replays every game and compares the
totals with the file's, then writes it all or nothing: a file that is not ours, or is damaged, changes nothing.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from . import document, store
from .document import FORMAT, VERSION
from .errors import ImportRefused
from .hands import hand_from_columns, hand_to_export
from .scoring import play_game


# --- out ------------------------------------------------------------------------------------------------------

def export_games(db, game_ids: list[int] | None = None) -> dict:
    return {"format": FORMAT, "version": VERSION, "exported_at": store.now(),
            "games": [_export_game(db, game_id) for game_id in store.game_ids(db, among=game_ids)]}


def _export_game(db, game_id: int) -> dict:
    game = store.load_game(db, game_id)
    hands = store.hands_as_stored(db, game_id)
    finished_at, winner = _own_end(db, game)
    return {
        "id": game.id, "created_at": game.created_at, "rules": game.rules.to_dict(), "teams": list(game.teams),
        "players": list(game.players), "first_dealer": game.first_dealer, "rematch_of": game.rematch_of,
        "finished_at": finished_at, "totals": list(game.totals), "winner": winner,
        "hands": [_export_hand(db, h) for h in hands], "abandoned_at": game.abandoned_at,
    }


def _own_end(db, game) -> tuple[str | None, int | None]:
    """(finished_at, winner) as the game's own hands say. A club table's game keeps its table's result once its
    round is over (the director's clock may have stopped it, or the director changed the result): the document
    holds games, not club nights, and an import checks a game's end against its hands."""
    if store.clubs.table_of_game(db, game.id) is None:
        return game.finished_at, game.winner
    state = play_game(game.rules, [h.hand for h in store.live_hands(db, game.id)], names=game.teams)
    return (game.finished_at if state.winner is not None else None), state.winner


def _export_hand(db, row: dict) -> dict:
    return {
        "seq": row["seq"], "token": row["token"], **hand_to_export(hand_from_columns(row)),
        "created_at": row["created_at"], "updated_at": row["updated_at"], "deleted_at": row["deleted_at"],
        "edits": [{k: e[k] for k in ("at", "action", "before", "after", "summary")}
                  for e in store.edits_of_hand(db, row["id"])],
    }


# --- back in --------------------------------------------------------------------------------------------------

def parse_document(raw: bytes | str) -> dict:
    """The document in an uploaded file, its header checked; raises ImportRefused."""
    return document.read(raw)


def import_document(db, data: dict) -> list[int]:
    """Every game of the document, all or nothing: each checked as the forms would check it and replayed before
    anything is written, then written without holding the write lock for long. Returns the new game ids."""
    games = document.check(data, datetime.now(UTC))
    try:
        return store.import_games(db, games)
    except sqlite3.IntegrityError as exc:  # a phone saved a hand with one of these tokens a moment ago
        raise ImportRefused(f"These games could not be written ({exc}). Nothing was imported.", 409) from None


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
