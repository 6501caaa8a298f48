"""Backups by themselves, on disk: one into each folder, the old ones pruned, and a status file that says how the
last one went.

The decisions (which backups to keep) are the core's (`scorepad.core.retention`); this module lists, writes and
removes the files. The status is a small JSON file beside the backups, replaced whole (written aside, then
renamed), so a kill at any moment leaves the previous status or the new one, never half of one.

The safety copies a restore keeps beside the database (before-restore-<time>.db) are a series of their own,
pruned by the same rules: a restore never pushes a daily backup out, and safety copies do not pile up.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ..core import house_time, retention
from . import files
from .backups import BackupRefused, backup_into

STATUS_FILE = "status.json"
BACKUPS = "scorepad"  # scorepad-<local time>[-n].db, as `backups.backup_into` names them
SAFETY_COPIES = "before-restore"  # as `backups.put_back` names them, beside the database
_NAMED = r"^({stems})-(\d{{8}}-\d{{6}})(?:-\d+)?\.db$"
BACKUP_NAME = re.compile(_NAMED.format(stems=BACKUPS))
ANY_COPY_NAME = re.compile(_NAMED.format(stems="scorepad|before-upgrade|before-restore"))


@dataclass(frozen=True)
class Status:
    """How the backups went: the last one that worked, and the last attempt (with why it failed, if it did)."""

    succeeded_at: datetime | None = None
    file: str | None = None  # the last backup that worked, in the first folder that took it
    attempted_at: datetime | None = None
    reason: str = ""  # what the last attempt was for: "daily", "after a finished game"
    problem: str | None = None  # why the last attempt failed, in one folder or all; None when it worked


def take(live_path: str, folders: Sequence[Path], *, keep_last: int, reason: str, now: datetime,
         previous: Status) -> Status:
    """A backup of the live database into every folder, each folder then pruned to the backups worth keeping;
    returns the new status and writes it beside the first folder's backups (when that folder can be written).
    Never raises for a folder that refused: the status says what failed. The first folder is made if it is
    missing; any other must be there already (a USB stick that is not plugged in is not written under its
    mount point, on the very card the first copy is on)."""
    now = now.replace(microsecond=0)  # as the status file keeps it
    made, problems = None, []
    for place, folder in enumerate(folders):
        try:
            if place and not folder.is_dir():
                raise BackupRefused(f"The folder {folder} is not there (is the drive plugged in?). "
                                    "Nothing was written.")
            clear_leftovers(folder)
            path = backup_into(live_path, folder)
            prune(folder, keep_last, now)
        except (BackupRefused, OSError) as exc:
            problems.append(str(exc))
            continue
        made = made or path
    status = Status(succeeded_at=now if made else previous.succeeded_at,
                    file=str(made) if made else previous.file, attempted_at=now, reason=reason,
                    problem=" ".join(problems) or None)
    with contextlib.suppress(OSError):
        write_status(folders[0], status)
    return status


def taken_in(folder: Path, stem: str = BACKUPS) -> dict[str, datetime]:
    """The complete Scorepad backups in `folder` (or another series, such as SAFETY_COPIES), by file name, with
    the local time each was made."""
    named = re.compile(_NAMED.format(stems=re.escape(stem)))
    found = {}
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            match = named.match(path.name)
            if match and path.stat().st_size > 0:
                found[path.name] = datetime.strptime(match[2], "%Y%m%d-%H%M%S")
    return found


def prune(folder: Path, keep_last: int, now: datetime | None = None, stem: str = BACKUPS) -> list[str]:
    """Remove the backups in `folder` (or another series) that the retention rules let go, judged at `now`
    (by default the clock's time): one named in the future is kept. Returns their names."""
    gone = retention.to_remove(taken_in(folder, stem), keep_last, local_time(now))
    for name in gone:
        (folder / name).unlink(missing_ok=True)
    return gone


def prune_safety_copies(live_path: str, keep_last: int, now: datetime | None = None) -> list[str]:
    """Remove the safety copies restores kept beside the database at `live_path` that the retention rules let
    go (the last `keep_last` and one a month are kept, as for backups); returns their names."""
    return prune(Path(live_path).parent, keep_last, now, stem=SAFETY_COPIES)


def in_future(folders: Sequence[Path], now: datetime | None = None) -> list[str]:
    """The backups in `folders` named later than `now` (by default the clock's time): made while the clock ran
    fast. The pages say so; pruning keeps them."""
    now = local_time(now)
    return sorted(name for folder in folders for name in retention.in_future(taken_in(folder), now))


def local_time(now: datetime | None) -> datetime:
    """`now` as the backups' names say time: the house's clock, without a zone (see `core.house_time`)."""
    return house_time.wall_clock(now)


def clear_leftovers(folder: Path, now: datetime | None = None) -> list[str]:
    """Remove what a backup or restore killed midway left in `folder`: hidden files and private folders no
    running process holds, and a backup's name reserved and never filled. (`now` is no longer needed: a
    leftover is told by its lock, see `files.clear_leftovers`.)"""
    return files.clear_leftovers(folder, empty_names=lambda name: bool(ANY_COPY_NAME.match(name)))


def read_status(folder: Path) -> Status:
    """The status kept in `folder`; an empty one when there is none or it cannot be read."""
    try:
        data = json.loads((folder / STATUS_FILE).read_text())
        return Status(succeeded_at=_time(data.get("succeeded_at")), file=data.get("file"),
                      attempted_at=_time(data.get("attempted_at")), reason=str(data.get("reason") or ""),
                      problem=data.get("problem"))
    except (OSError, ValueError, TypeError, AttributeError):
        return Status()


def write_status(folder: Path, status: Status) -> None:
    """Replace the status in `folder` whole: written aside, on disk, then renamed over the old one."""
    data = {"succeeded_at": _iso(status.succeeded_at), "file": status.file,
            "attempted_at": _iso(status.attempted_at), "reason": status.reason, "problem": status.problem}
    files.replace_whole(folder / STATUS_FILE, json.dumps(data, indent=1).encode())


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat(timespec="seconds") if moment else None


def _time(text) -> datetime | None:
    return datetime.fromisoformat(text) if text else None
