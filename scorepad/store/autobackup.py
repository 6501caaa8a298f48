"""Backups by themselves, on disk: one into each folder, the old ones pruned, and a status file that says how the
last one went.

The decisions (which backups to keep) are the core's (`scorepad.retention`); this module lists, writes and
removes the files. The status is a small JSON file beside the backups, replaced whole (written aside, then
renamed), so a kill at any moment leaves the previous status or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .. import retention
from .backups import PARTIAL, BackupRefused, backup_into

STATUS_FILE = "status.json"
BACKUP_NAME = re.compile(r"^scorepad-(\d{8}-\d{6})(?:-\d+)?\.db$")  # as `backups.backup_into` names them
LEFTOVER_SECONDS = 600  # a hidden or empty file this old is a backup that was killed, not one being written


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
            clear_leftovers(folder, now)
            path = backup_into(live_path, folder)
            prune(folder, keep_last)
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


def taken_in(folder: Path) -> dict[str, datetime]:
    """The complete Scorepad backups in `folder`, by file name, with the local time each was made."""
    found = {}
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            match = BACKUP_NAME.match(path.name)
            if match and path.stat().st_size > 0:
                found[path.name] = datetime.strptime(match[1], "%Y%m%d-%H%M%S")
    return found


def prune(folder: Path, keep_last: int) -> list[str]:
    """Remove the backups in `folder` that the retention rules let go; returns their names."""
    gone = retention.to_remove(taken_in(folder), keep_last)
    for name in gone:
        (folder / name).unlink(missing_ok=True)
    return gone


def clear_leftovers(folder: Path, now: datetime) -> list[str]:
    """Remove what a backup killed midway left in `folder` (a hidden partial file, or a backup's name reserved
    and never filled), once it is old enough that no running backup can still be writing it."""
    gone = []
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            stat = path.stat()
            leftover = path.name.startswith(PARTIAL + "-") or (BACKUP_NAME.match(path.name) and stat.st_size == 0)
            if leftover and now.timestamp() - stat.st_mtime > LEFTOVER_SECONDS:
                path.unlink(missing_ok=True)
                gone.append(path.name)
    return gone


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
    aside = folder / f".{STATUS_FILE}.{os.getpid()}"
    with aside.open("w") as file:
        json.dump(data, file, indent=1)
        file.flush()
        os.fsync(file.fileno())
    os.replace(aside, folder / STATUS_FILE)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat(timespec="seconds") if moment else None


def _time(text) -> datetime | None:
    return datetime.fromisoformat(text) if text else None
