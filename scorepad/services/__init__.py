"""The middle: each change a family makes (start a game, record, edit or delete a hand, rename a player, import
a file...) is one function of plain values, one transaction, one validation, one fold. The web shell parses the
request, calls one of these, and answers with what it returns or with the `status_hint` of what it raises."""

from . import club, club_paper, committed, figures, kept, other_rules, pages, ratings, results, seasons, warming
from .errors import (
    CannotMerge,
    Conflict,
    Declined,
    EndsTooEarly,
    FormIncomplete,
    GameGone,
    GameIsOver,
    HandChangedElsewhere,
    HandElsewhere,
    HandGone,
    HandTaken,
    LooksRepeated,
    MeldUnlikely,
    NotFound,
    NotLastHand,
    Refused,
    ServiceError,
    WinTakenAway,
)
from .games import (
    Change,
    Difference,
    Preview,
    Rematch,
    abandon_game,
    compare_hands,
    delete_hand,
    describe_change,
    edit_hand,
    preview_edit,
    preview_hand,
    record_hand,
    rematch,
    restore_hand,
    start_game,
)
from .players import Merged, Renamed, merge_players, rename_player
from .transfer import import_games, sheets_csv

__all__ = [
    "CannotMerge", "Change", "Conflict", "Declined", "Difference", "EndsTooEarly", "FormIncomplete", "GameGone",
    "GameIsOver", "HandChangedElsewhere", "HandElsewhere", "HandGone", "HandTaken", "LooksRepeated", "MeldUnlikely",
    "Merged", "NotFound", "NotLastHand", "Preview", "Refused", "Rematch", "Renamed", "ServiceError", "WinTakenAway",
    "abandon_game", "club", "club_paper", "committed", "compare_hands", "delete_hand", "describe_change",
    "edit_hand", "figures", "import_games", "kept", "merge_players", "other_rules", "pages", "preview_edit",
    "preview_hand", "ratings", "record_hand", "rematch", "rename_player", "restore_hand", "results", "seasons",
    "sheets_csv", "start_game", "warming",
]
