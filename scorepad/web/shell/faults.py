"""When the database refuses a change: what the family reads, and the status the phone gets.

SQLite says "database or disk is full"; a family at the table needs to hear that the hand was not saved,
why, and what to do. Each failure is mapped here once, and every view that writes uses the same words.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from flask import current_app, request


@dataclass(frozen=True)
class Fault:
    status: int
    title: str
    cause: str  # what happened, in a family's words
    remedy: str  # what to do about it, before trying again

    def sentence(self, lost: str = "that change was NOT saved", again: str = "send it again") -> str:
        """'<cause>: <lost>. <remedy>, then <again>.' — for a change that the database refused."""
        return f"{self.cause}: {lost}. {self.remedy}, then {again}."

    def reading(self) -> str:
        """For a page that only reads: nothing was lost, the page could not be shown."""
        return f"{self.cause}. {self.remedy}, then reload this page."


# (SQLite's primary result code, the words of its message, the Fault). The code is the surer sign; the words
# are for errors that carry no code.
_FAULTS = (
    (13, "database or disk is full", Fault(
        507, "The disk is full", "The disk of the machine running Scorepad is full", "Free some space")),
    (8, "readonly database", Fault(
        503, "Scorepad may not write", "Scorepad is not allowed to write to its database file (it is read-only)",
        "Make the file writable on the machine running Scorepad, or restart Scorepad")),
    (5, "database is locked", Fault(
        503, "Scorepad was busy", "Scorepad waited too long for another change to finish (another phone, an "
        "import or a backup)", "Wait a few seconds")),
    (6, "database table is locked", Fault(
        503, "Scorepad was busy", "Scorepad waited too long for another change to finish (another phone, an "
        "import or a backup)", "Wait a few seconds")),
    (14, "unable to open database file", Fault(
        503, "Scorepad cannot open its data", "Scorepad cannot open its database file (was a disk or memory card "
        "unplugged?)", "Check the machine running Scorepad")),
    (10, "disk i/o error", Fault(
        503, "The disk failed", "The disk of the machine running Scorepad failed to read or write",
        "Check its disk or memory card")),
)


def fault_of(error: BaseException) -> Fault | None:
    """The Fault for a database error a family can do something about, or None for any other error (a bug,
    which stays a plain 500)."""
    if not isinstance(error, sqlite3.OperationalError):
        return None
    code = getattr(error, "sqlite_errorcode", None)
    message = str(error).lower()
    for primary, words, fault in _FAULTS:
        if (code is not None and code & 0xFF == primary) or words in message:
            return fault
    return None


def refused(error: sqlite3.OperationalError) -> Fault:
    """The Fault for a database error met while answering a request, logged for whoever runs Scorepad; any
    error `fault_of` does not know is raised again, to be the 500 a bug is."""
    fault = fault_of(error)
    if fault is None:
        raise error
    current_app.logger.error("%s %s: %s", request.method, request.path, error)
    return fault
