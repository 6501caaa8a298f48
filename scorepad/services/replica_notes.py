"""Notes Scorepads leave each other beside a replica: a Scorepad that finds another database's replica at its
REPLICA_URL does not write into it, and leaves a note saying so; the Scorepad that writes the replica reads the
note and says it on its own pages. Both machines then tell the household that two Scorepads were given one place.

A note goes where the replica is (a folder, an SFTP server, a bucket) through Litestream itself, so it needs no
client of its own and the same settings reach it: a small database with one row, written to `scorepad-notes`
beside the replica's files (`litestream replicate -once`), read back with `litestream restore`. The replica's own
files are never touched.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime

from ..store import replica_marks
from . import replica

_logger = logging.getLogger(__name__)

NOTES = "scorepad-notes"


@dataclass(frozen=True)
class Note:
    """A Scorepad that was refused the replica: its database's identity, its machine, when, and why."""

    database: str
    host: str
    at: datetime
    why: str


def leave(place: replica.Place, live_path: str, note: Note) -> bool:
    """Write `note` beside the replica at `place`; False (logged) when it could not be written."""
    notes = place.child(NOTES)
    try:
        with replica.private_folder(live_path) as work:
            database = work / "note.db"
            replica_marks.write_note(database, json.dumps(
                {"database": note.database, "host": note.host, "at": note.at.isoformat(), "why": note.why}))
            config = replica.write_config(notes, str(database), work, level="error")
            done = replica.run(notes, ["replicate", "-config", str(config), "-no-expand-env", "-once",
                                       "-force-snapshot"], timeout=60, gently=True)
    except (OSError, sqlite3.Error, replica.ReplicaRefused) as exc:
        _logger.warning("Could not leave a note beside the replica %s: %s", place.shown(), place.masked(str(exc)))
        return False
    if done.returncode != 0:
        _logger.warning("Could not leave a note beside the replica %s: %s", place.shown(),
                        place.masked((done.stderr or done.stdout).strip()[-300:]))
        return False
    return True


def read(place: replica.Place, live_path: str) -> Note | None:
    """The last note left beside the replica at `place`; None when there is none (or it cannot be read)."""
    notes = place.child(NOTES)
    try:
        with replica.restored(notes, os.path.join(os.path.dirname(os.path.abspath(live_path)), "note.db"),
                              gently=True) as got:
            value = replica_marks.read_note(got.path)
        data = json.loads(value or "")
        return Note(str(data["database"]), str(data.get("host", "")), datetime.fromisoformat(data["at"]),
                    str(data.get("why", "")))
    except (replica.ReplicaRefused, OSError, sqlite3.Error, ValueError, KeyError, TypeError):
        return None
