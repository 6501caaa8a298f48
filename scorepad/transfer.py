"""Getting data out and back: a JSON document that imports without loss, and CSV score sheets.

The JSON holds everything a game is: its rules snapshot, teams, seats, every hand (deleted ones too) with its
history. An import checks the whole document first, writes it in one transaction, re-scores every game and
compares the totals with the file's: a file that is not ours, or is damaged, changes nothing.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

from . import store
from .errors import InvalidHand, InvalidRules
from .rules import Rules
from .scoring import KINDS, Hand, validate_hand

FORMAT, VERSION = "scorepad", 1
HAND_KEYS = {"seq", "token", "kind", "bidder", "bidder_seat", "bid", "trump", "meld", "counters", "renege_team",
             "forced", "created_at", "updated_at", "deleted_at", "edits"}
GAME_KEYS = {"id", "created_at", "rules", "teams", "players", "first_dealer", "rematch_of", "finished_at",
             "totals", "winner", "hands"}


class ImportRefused(Exception):
    """The file cannot be imported; the message says why, in words for the person who chose the file."""


# --- out ------------------------------------------------------------------------------------------------------

def export_games(db, game_ids: list[int] | None = None) -> dict:
    return {"format": FORMAT, "version": VERSION, "exported_at": store.now(),
            "games": [_export_game(db, game_id) for game_id in store.game_ids(db, among=game_ids)]}


def _export_game(db, game_id: int) -> dict:
    game = store.load_game(db, game_id)
    hands = store.hands_as_stored(db, game_id)
    return {
        "id": game.id, "created_at": game.created_at, "rules": game.rules.to_dict(), "teams": list(game.teams),
        "players": list(game.players), "first_dealer": game.first_dealer, "rematch_of": game.rematch_of,
        "finished_at": game.finished_at, "totals": list(game.totals), "winner": game.winner,
        "hands": [_export_hand(db, h) for h in hands],
    }


def _export_hand(db, row: dict) -> dict:
    counters = None if row["counters_0"] is None else [row["counters_0"], row["counters_1"]]
    return {
        "seq": row["seq"], "token": row["token"], "kind": row["kind"], "bidder": row["bidder"],
        "bidder_seat": row["bidder_seat"], "bid": row["bid"], "trump": row["trump"],
        "meld": [row["meld_0"], row["meld_1"]], "counters": counters, "renege_team": row["renege_team"],
        "forced": bool(row["forced"]), "created_at": row["created_at"], "updated_at": row["updated_at"],
        "deleted_at": row["deleted_at"],
        "edits": [{k: e[k] for k in ("at", "action", "before", "after", "summary")}
                  for e in store.edits_of_hand(db, row["id"])],
    }


# --- back in --------------------------------------------------------------------------------------------------

def parse_document(raw: bytes | str) -> dict:
    try:
        document = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ImportRefused(f"This is not a Scorepad export: it is not JSON ({exc.__class__.__name__}).") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused("This is not a Scorepad export: it does not say it is one.")
    if document.get("version") != VERSION:
        raise ImportRefused(f"This export is version {document.get('version')!r}; this Scorepad reads "
                            f"version {VERSION}.")
    if not isinstance(document.get("games"), list):
        raise ImportRefused("This export is damaged: it has no list of games.")
    return document


def import_document(db, document: dict) -> list[int]:
    """Every game of the document, all or nothing. Returns the new game ids."""
    games = document["games"]
    for number, game in enumerate(games, start=1):
        _check_game(game, number)
    new_ids: dict[int, int] = {}
    try:
        with store.write_lock(db):
            for number, game in enumerate(games, start=1):
                new_ids[game["id"]] = _import_game(db, game, number, new_ids)
    except sqlite3.IntegrityError as exc:
        if "token" in str(exc):
            raise ImportRefused("These games are already here: the file was imported before. Nothing was "
                                "changed.") from None
        raise ImportRefused(f"This export is damaged ({exc}). Nothing was changed.") from None
    return list(new_ids.values())


def _check_game(game, number: int) -> None:
    where = f"Game {number}"
    if not isinstance(game, dict) or set(game) != GAME_KEYS:
        raise ImportRefused(f"This export is damaged: {where} does not have the fields of a game.")
    try:
        rules = Rules.from_dict(game["rules"])
    except (InvalidRules, TypeError, AttributeError) as exc:
        raise ImportRefused(f"This export is damaged: {where} has rules that make no sense ({exc}).") from None
    if not (_strings(game["teams"], 2) and isinstance(game["players"], list) and len(game["players"]) == 4
            and all(p is None or isinstance(p, str) for p in game["players"])
            and game["first_dealer"] in (0, 1, 2, 3) and _timestamp(game["created_at"])
            and isinstance(game["hands"], list)):
        raise ImportRefused(f"This export is damaged: {where} has teams, seats or dates that are not right.")
    for hand in game["hands"]:
        _check_hand(rules, hand, where)


def _check_hand(rules: Rules, hand, where: str) -> None:
    if not isinstance(hand, dict) or set(hand) != HAND_KEYS or hand.get("kind") not in KINDS:
        raise ImportRefused(f"This export is damaged: {where} has a hand that is not one.")
    shape_ok = (isinstance(hand["token"], str) and hand["token"] and isinstance(hand["seq"], int)
                and _timestamp(hand["created_at"]) and _timestamp(hand["updated_at"])
                and (hand["deleted_at"] is None or _timestamp(hand["deleted_at"]))
                and hand["trump"] in (None, "S", "H", "D", "C") and hand["bidder_seat"] in (None, 0, 1, 2, 3)
                and isinstance(hand["edits"], list) and isinstance(hand["forced"], bool)
                and isinstance(hand["meld"], list))
    if not shape_ok:
        raise ImportRefused(f"This export is damaged: {where}, hand {hand.get('seq')}, is not well formed.")
    problems = validate_hand(rules, _hand(hand))
    if problems:
        raise ImportRefused(f"This export is damaged: {where}, hand {hand['seq']}: {' '.join(problems.values())}")
    for edit in hand["edits"]:
        if not (isinstance(edit, dict) and set(edit) == {"at", "action", "before", "after", "summary"}
                and edit["action"] in ("recorded", "edited", "deleted") and _timestamp(edit["at"])
                and isinstance(edit["summary"], str)):
            raise ImportRefused(f"This export is damaged: {where}, hand {hand['seq']}, has a broken history.")


def _hand(data: dict) -> Hand:
    counters = tuple(data["counters"]) if isinstance(data["counters"], list) else data["counters"]
    return Hand(data["bidder"], data["bid"], tuple(data["meld"]), counters, data["kind"], data["renege_team"],
                data["forced"])


def _strings(value, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(isinstance(v, str) and v for v in value)


def _timestamp(value) -> bool:
    try:
        return isinstance(value, str) and datetime.fromisoformat(value) is not None
    except ValueError:
        return False


def _import_game(db, data: dict, number: int, new_ids: dict[int, int]) -> int:
    rules = Rules.from_dict(data["rules"])
    game_id = store.create_game(db, rules, tuple(data["teams"]), data["players"], data["first_dealer"],
                                rematch_of=new_ids.get(data["rematch_of"]), created_at=data["created_at"])
    store.insert_hands(db, game_id, [_new_hand(hand) for hand in data["hands"]])
    game = store.load_game(db, game_id)
    try:
        state = store.rescore(db, game, store.live_hands(db, game_id), finished_at=data["finished_at"])
    except (InvalidHand, ValueError) as exc:
        raise ImportRefused(f"This export is damaged: game {number} cannot be replayed ({exc}).") from None
    if list(state.totals) != data["totals"] or state.winner != data["winner"]:
        raise ImportRefused(f"This export is damaged: game {number} adds up to {state.totals[0]} : "
                            f"{state.totals[1]}, but the file says {data['totals'][0]} : {data['totals'][1]}.")
    return game_id


def _new_hand(hand: dict) -> store.NewHand:
    return store.NewHand(hand["token"], store.HandEntry(_hand(hand), hand["trump"], hand["bidder_seat"]),
                         seq=hand["seq"], created_at=hand["created_at"], updated_at=hand["updated_at"],
                         deleted_at=hand["deleted_at"], edits=hand["edits"])


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
