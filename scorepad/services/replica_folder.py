"""A folder replica: whether it lies on a share (a NAS mounted at /mnt/nas, a USB disk) or on the database's own
disk, and the marker Scorepad keeps in it.

A share that drops leaves its mount point behind: an empty folder on the machine's own disk. Litestream would
write into it, and when the share came back it would cover those files, leaving a gap in the replica that no
restore can cross. So the server remembers the mount point a folder replica was on (`replica_marks.share`), and
while that mount point is not mounted, the replica is not written to.

Mounts are read from /proc/self/mountinfo (a bind mount shows there as well as a network share does); where it
cannot be read (not Linux), every folder counts as on the database's disk and nothing is refused.

The marker (`scorepad-replica.json`, beside Litestream's `ltx` folder) says whose replica the folder holds and
which generation of it: a new one each time Scorepad starts the replica over. A folder emptied, replaced, or put
back as it was before the replica was started over (an old share mounted again) shows within seconds: its marker
is gone, or of an older generation.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path

MARKER = "scorepad-replica.json"

MOUNTINFO = "/proc/self/mountinfo"


def _unescape(field: bytes) -> bytes:
    """mountinfo writes a space, a tab, a newline and a backslash as \\040, \\011, \\012 and \\134."""
    for escaped, byte in ((b"\\040", b" "), (b"\\011", b"\t"), (b"\\012", b"\n"), (b"\\134", b"\\")):
        field = field.replace(escaped, byte)
    return field


def mount_points(text: bytes) -> list[str]:
    """The mount points mountinfo lists (its fifth field), as paths."""
    found = []
    for line in text.splitlines():
        parts = line.split(b" ")
        if len(parts) > 4:
            found.append(os.fsdecode(_unescape(parts[4])))
    return found


def _read_mounts() -> list[str] | None:
    try:
        with open(MOUNTINFO, "rb") as file:
            return mount_points(file.read())
    except OSError:
        return None


def _real(path: Path) -> str:
    """`path` with its links resolved as far as it exists: the rest of it is taken as written."""
    path = Path(os.path.abspath(path))
    missing = []
    while not path.exists() and path != path.parent:
        missing.append(path.name)
        path = path.parent
    return os.path.join(os.path.realpath(path), *reversed(missing))


def mount_of(path: Path, points: list[str]) -> str:
    """The mount point `path` lies under: the longest of `points` that holds it."""
    real = _real(path)
    best = "/"
    for point in points:
        if (real == point or real.startswith(point.rstrip("/") + "/")) and len(point) > len(best):
            best = point
    return best


def share_of(folder: Path, database: Path, points: list[str] | None = None) -> str | None:
    """The mount point of `folder` when it is not the one the database at `database` lies under (the folder is on
    a share, or another disk); None when both lie under the same one, or mounts cannot be read."""
    points = _read_mounts() if points is None else points
    if points is None:
        return None
    mount = mount_of(folder, points)
    return None if mount == mount_of(database, points) else mount


def still_on(folder: Path, mount: str, points: list[str] | None = None) -> bool:
    """Whether `folder` lies under the mount point `mount` now (True where mounts cannot be read: nothing is
    refused there)."""
    points = _read_mounts() if points is None else points
    return True if points is None else mount_of(folder, points) == mount


def read_marker(folder: Path) -> dict | None:
    """The marker in a folder replica ({"database", "writer", "generation"}); None when there is none."""
    try:
        found = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def write_marker(folder: Path, database: str, writer: str) -> str:
    """Mark `folder` as the replica of `database` written by `writer`, in a new generation; returns it. Written
    whole (aside, then renamed), so a reader never finds half a marker."""
    generation = secrets.token_hex(8)
    folder.mkdir(parents=True, exist_ok=True)
    aside = folder / f".{MARKER}.{generation}"
    aside.write_text(json.dumps({"database": database, "writer": writer, "generation": generation}),
                     encoding="utf-8")
    try:
        os.replace(aside, folder / MARKER)
    finally:
        with contextlib.suppress(OSError):
            aside.unlink(missing_ok=True)
    return generation
