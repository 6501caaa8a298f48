"""Getting data out and back: a JSON document that imports without loss, and CSV score sheets.

The JSON holds everything a game is: its rules snapshot, teams, seats, every hand (deleted ones too) with its
history; and the full copy holds every club season (its settings) and club night: its settings and season,
entrants, each round's tables with the result that counts, who confirmed it, the director's corrections and the
specials tallied there (everything but the director's key, which a copy must not carry). An import checks the
whole document first (`scorepad.document`, `scorepad.document_nights`), replays every game and compares the
totals with the file's, then writes it all or nothing: a file that is not ours, or is damaged, changes nothing.
"""

from __future__ import annotations

import secrets
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime

from . import document, document_nights, store
from .document import FORMAT, VERSION
from .errors import ImportRefused
from .hands import hand_from_columns, hand_to_export
from .scoring import play_game

# --- out ------------------------------------------------------------------------------------------------------

def export_games(db, game_ids: list[int] | None = None) -> dict:
    """Every game (or those of `game_ids`); the full copy (no `game_ids`) holds every club night too."""
    exported = {"format": FORMAT, "version": VERSION, "exported_at": store.now(),
                "games": [_export_game(db, game_id) for game_id in store.game_ids(db, among=game_ids)]}
    if game_ids is None:
        seasons = {season.id: season for season in store.seasons.all_seasons(db)}
        exported["club_seasons"] = [_export_season(season) for season in reversed(seasons.values())]
        exported["club_nights"] = [_export_night(db, night, seasons) for night in store.clubs.all_nights(db)]
    return exported


def _export_season(season) -> dict:
    return {"name": season.name, "started_at": season.started_at, "best_of": season.best_of,
            "min_nights": season.min_nights, "specials": list(season.specials)}


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


def _export_night(db, night, seasons: dict) -> dict:
    changes = store.clubs.result_changes(db, night.id)
    specials: dict[int, list] = {}
    for special in store.seasons.specials_of_nights(db, [night.id]):
        specials.setdefault(special.table_id, []).append(
            {"hand": special.hand, "player": special.player, "kind": special.kind, "at": special.at})
    season = seasons.get(night.season_id)
    return {
        "name": night.name, "created_at": night.created_at, "kind": night.kind, "rules": night.rules.to_dict(),
        "round_end": night.round_end, "round_size": night.round_size, "rounds": night.rounds,
        "tie_breaks": list(night.tie_breaks), "round": night.round, "round_started_at": night.round_started_at,
        "closed_at": night.closed_at, "movement": night.movement,
        "entrants": [{"number": e.number, "name": e.name, "players": list(e.player_names)}
                     for e in store.clubs.entrants(db, night.id)],
        "tables": [_export_table(t, changes.get(t.id, []), specials.get(t.id, []))
                   for t in store.clubs.tables(db, night.id)],
        "season": season.name if season else None,
    }


def _export_table(table, changes: list[dict], specials: list[dict]) -> dict:
    return {
        "round": table.round, "table_no": table.table_no, "game": table.game_id, "entrants": list(table.entrants),
        "ended_at": table.ended_at, "score": None if table.score is None else list(table.score),
        "winner": table.winner, "confirmed_at": table.confirmed_at, "confirmed_by": table.confirmed_by,
        "changes": [{"at": c["at"], "before": None if c["before_0"] is None else [c["before_0"], c["before_1"]],
                     "after": [c["after_0"], c["after_1"]], "note": c["note"]} for c in changes],
        "specials": specials,
    }


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
    """Every game and club night of the document, all or nothing: each checked as the forms would check it and
    replayed before anything is written, then moved in by one short transaction. Returns the new game ids."""
    now = datetime.now(UTC)
    games = document.check(data, now)
    nights = [replace(night, director_key=secrets.token_urlsafe(12))  # as `services.club.create_night` gives one
              for night in document_nights.check(data, games, now)]
    seasons = document_nights.check_seasons(data, now)
    try:
        return store.import_games(db, games, nights, seasons)
    except sqlite3.IntegrityError as exc:  # a phone saved a hand with one of these tokens a moment ago
        raise ImportRefused(f"These games could not be written ({exc}). Nothing was imported.", 409) from None


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
