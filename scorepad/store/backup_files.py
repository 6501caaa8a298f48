"""The backups a person can choose from to restore, and what each holds: its games and the last hand in it.

Backups are read as they lie, read-only (a backup is a complete file: nothing is written beside it), and a file
that cannot be read is listed as such rather than failing the list. What a file holds is kept by its size and
time, so the list reads each backup once however often it is opened.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .autobackup import ANY_COPY_NAME

KINDS = {"scorepad": "backup", "before-upgrade": "before an upgrade", "before-restore": "before a restore"}
_KEPT: dict[tuple[str, int, int], Contents] = {}
_KEPT_LOCK = threading.Lock()
KEPT = 512


@dataclass(frozen=True)
class LastHand:
    """The hand recorded last in a database: its game's sides, its number on the sheet and when it was written."""

    teams: tuple[str, ...]
    number: int
    at: str


@dataclass(frozen=True)
class Contents:
    """What a database holds, as a list of backups says it; `problem` when it cannot be read."""

    games: int = 0
    hands: int = 0
    last_hand: LastHand | None = None
    problem: str | None = None


@dataclass(frozen=True)
class BackupFile:
    """One backup on disk: where it is, its name, its kind ("backup", "before an upgrade", "before a restore"),
    when it was made (the house's clock its name was written on) and its size."""

    path: Path
    kind: str
    made: datetime
    size: int


def listed(folder: Path, kinds: tuple[str, ...]) -> list[BackupFile]:
    """The complete backups of `kinds` (name stems: "scorepad", "before-upgrade", "before-restore") in `folder`,
    newest first; an empty list for a folder that is not there."""
    found = []
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            match = ANY_COPY_NAME.match(path.name)
            if not match or match[1] not in kinds:
                continue
            try:
                size = path.stat().st_size
                made = datetime.strptime(match[2], "%Y%m%d-%H%M%S")
            except (OSError, ValueError):
                continue
            if size > 0:
                found.append(BackupFile(path, KINDS[match[1]], made, size))
    return sorted(found, key=lambda b: (b.made, b.path.name), reverse=True)


def contents(path: Path, live: bool = False) -> Contents:
    """The games and the last hand in the database at `path`, read-only (`live`: the database in use, read as
    SQLite shares it; a backup is read as the complete file it is)."""
    try:
        stat = path.stat()
    except OSError as exc:
        return Contents(problem=f"cannot be read ({exc.strerror or exc})")
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if not live:
        with _KEPT_LOCK:
            if key in _KEPT:
                return _KEPT[key]
    found = _read(path, live)
    if not live:
        with _KEPT_LOCK:
            if len(_KEPT) >= KEPT:
                _KEPT.clear()
            _KEPT[key] = found
    return found


def _read(path: Path, live: bool) -> Contents:
    options = "mode=ro" if live or path.with_name(path.name + "-wal").exists() else "mode=ro&immutable=1"
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?{options}", uri=True,
                                                timeout=5)) as db:
            games = db.execute("SELECT count(*) FROM games").fetchone()[0]
            hands = db.execute("SELECT count(*) FROM hands WHERE deleted_at IS NULL").fetchone()[0]
            last = db.execute("SELECT id, game_id, seq, created_at FROM hands WHERE deleted_at IS NULL "
                              "ORDER BY id DESC LIMIT 1").fetchone()
            return Contents(games, hands, _last_hand(db, last) if last else None)
    except sqlite3.Error as exc:
        return Contents(problem=f"cannot be read ({exc})")


def _last_hand(db, row) -> LastHand:
    _, game_id, seq, at = row
    db.row_factory = sqlite3.Row
    game = db.execute("SELECT * FROM games WHERE id = ?", [game_id]).fetchone()
    db.row_factory = None
    teams = tuple(game[name] for name in sorted(game.keys()) if re.fullmatch(r"team_\d", name) and game[name])
    number = db.execute("SELECT count(*) FROM hands WHERE game_id = ? AND deleted_at IS NULL AND seq <= ?",
                        [game_id, seq]).fetchone()[0]
    return LastHand(teams, number, at)
