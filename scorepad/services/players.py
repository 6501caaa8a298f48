"""Players: putting names right without touching a score. Each change runs in one transaction holding the write
lock, and raises one of `errors` when refused."""

from __future__ import annotations

from dataclasses import dataclass

from ..store import connection, players
from .errors import CannotMerge, NotFound, Refused


@dataclass(frozen=True)
class Renamed:
    old: str
    new: str


@dataclass(frozen=True)
class Merged:
    source: str  # the name that went
    target: str  # the name that stays
    target_id: int


def rename_player(db, player_id: int, name: str) -> Renamed:
    """The player is called `name` (cleaned and checked as a name already) from now on; no score changes.
    Raises NotFound, and Refused when another player has that name, by its key ("émile" is "Émile"; merging
    says they are one person)."""
    with connection.write_lock(db):
        me = _player(db, player_id)
        same = next((p for p in players.players_named(db, name) if p["id"] != player_id), None)
        if same:
            raise Refused(errors={"name": f"{same['name']} is another player already. To say they are the same "
                                          "person, merge them."})
        players.rename_player(db, player_id, name)
    return Renamed(me["name"], name)


def merge_players(db, player_id: int, into: int | None) -> Merged:
    """The player and player `into` are the same person: every seat of the first becomes the second's, and the
    first name goes. Raises NotFound, Refused (no other player chosen) and CannotMerge (both sat in one game,
    or are both registered in one club night)."""
    with connection.write_lock(db):
        me = _player(db, player_id)
        target = players.player(db, into) if into is not None else None
        if target is None or target["id"] == player_id:
            raise Refused(errors={"into": "Choose the other name of the same person."})
        try:
            players.merge_players(db, player_id, target["id"])
        except players.MergeRefused as refused:
            raise CannotMerge(errors={"into": f"{me['name']} and {target['name']} cannot be merged: "
                                              f"{refused}"}) from None
    return Merged(me["name"], target["name"], target["id"])


def _player(db, player_id: int) -> dict:
    found = players.player(db, player_id)
    if found is None:
        raise NotFound("There is no such player.")
    return found
