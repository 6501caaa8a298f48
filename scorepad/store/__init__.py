"""All SQL lives here. Rows go in and out as the core's dataclasses; the schema is sqlite-utils migrations.

Every change runs in one transaction. Recording a hand takes the write lock first (BEGIN IMMEDIATE), so the
check "is this still hand N?" and the insert cannot interleave with another phone's. Version counters (a
game's ETag, the records caches' keys) are the database's own: its triggers move them on every write.

One module a thing held: `connection` (opening, the per-thread pool, the write lock), `schema` (migrations),
`games` (games, hands, their history, what a fold says), `players` (names, rename, merge), `records` (records
and their cache, warmed ahead), `imports` (an import's games, written in short transactions), `backups` (backup
and restore). Callers use the names below: `store.load_game`.
"""

from . import autobackup, backups, clubs, imports, seasons
from .connection import (
    MAX_ID,
    analyze,
    connect,
    database_file,
    database_path,
    forget_pool,
    now,
    pooled,
    release,
    snapshot,
    write_lock,
)
from .games import (
    Game,
    HandChanged,
    HandDeleted,
    HandRestored,
    NewHand,
    StoredHand,
    abandon_game,
    create_game,
    delete_hand,
    deleted_hand,
    deleted_hands,
    edits_of_hand,
    game_ids,
    game_version,
    hand_by_token,
    hand_history,
    hands_as_stored,
    history_games,
    insert_hand,
    insert_hands,
    keep_state,
    list_games,
    live_hand,
    live_hands,
    load_game,
    outcome,
    refresh_results,
    rematch_for,
    rescore,
    restore_hand,
    save_results,
    save_summary,
    update_hand,
)
from .imports import import_games
from .players import (
    MergeRefused,
    key_players,
    merge_players,
    player,
    player_choices,
    player_for,
    player_names,
    players_named,
    rename_player,
    seated_players,
)
# `store.players` is the records list (a function): it takes the place of the module of that name
from .records import (
    cached_records,
    finished_seats,
    forget_records,
    head_to_head,
    partners,
    players,
    records_version,
    side_record,
    team_records,
    unfinished_games,
    warm_in_background,
    warm_records,
)
from .readable import edit_side, first_unreadable
from .schema import migrate, migrations, pending_migrations, rescore_stale

__all__ = [
    "MAX_ID", "Game", "HandChanged", "HandDeleted", "MergeRefused", "NewHand", "StoredHand",
    "analyze", "backups", "cached_records", "clubs", "connect", "create_game", "database_path", "delete_hand",
    "deleted_hands", "edits_of_hand", "forget_pool", "forget_records", "game_ids", "game_version", "hand_by_token",
    "hand_history", "hands_as_stored", "head_to_head", "history_games", "import_games", "imports",
    "insert_hand", "insert_hands", "keep_state", "list_games", "live_hands", "load_game", "merge_players", "migrate",
    "migrations", "now", "outcome", "partners", "player", "player_choices", "player_for", "player_names", "players", "players_named", "key_players",
    "pooled", "records_version", "refresh_results", "release", "rematch_for", "rename_player", "rescore",
    "rescore_stale", "save_results", "save_summary", "seated_players", "side_record", "team_records", "update_hand",
    "warm_in_background", "warm_records", "write_lock",
    "HandRestored", "abandon_game", "deleted_hand", "restore_hand",
    "autobackup", "pending_migrations", "edit_side", "first_unreadable", "live_hand", "snapshot", "database_file",
    "finished_seats", "unfinished_games",
]
