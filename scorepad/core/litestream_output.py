"""What Litestream says, for the household: its log lines read as data (logfmt), sorted into what they mean for
the replica (`Heard`), in words a family understands, and with every secret taken out before a line goes
anywhere (a page, the server's log).

Litestream logs `time=... level=ERROR msg="monitor error" ... error="write ltx file: ... no space left on
device"` and goes on retrying; read here, such a line is a warning on every page within a second, not a line in
a log nobody reads. Pure: the services feed the lines in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

HIDDEN = "…"  # what a secret is replaced by

# user:password@ in an address, with or without a scheme in front (sftp://pi:pw@nas, pi:pw@nas:/srv)
_USERINFO = re.compile(r"(?P<user>[\w.~%!$&'()*+,;=-]+):(?P<password>[^@\s/:]+)@")
_LOGFMT = re.compile(r'(?P<key>[\w.-]+)=(?:"(?P<quoted>(?:[^"\\]|\\.)*)"|(?P<bare>\S*))')


def mask(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with every password written in an address (`user:password@`, with or without a scheme) and every
    one of `secrets` (a password, a key's path) replaced by "…"."""
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, HIDDEN)
    return _USERINFO.sub(lambda m: f"{m['user']}:{HIDDEN}@", text)


def fields(line: str) -> dict[str, str]:
    """A logfmt line's fields (`level=ERROR msg="monitor error"` -> {"level": "ERROR", "msg": "monitor error"})."""
    found: dict[str, str] = {}
    for match in _LOGFMT.finditer(line):
        quoted = match["quoted"]
        value = quoted.replace('\\"', '"').replace("\\\\", "\\") if quoted is not None else match["bare"]
        found.setdefault(match["key"], value)  # the first: a compaction's line has `level=ERROR` and `level=1`
    return found


class Meaning(Enum):
    """What a line means for the replica."""

    NOTHING = "nothing"  # information, or a warning that changes nothing
    FULL = "full"
    REFUSED = "refused"  # it does not let Scorepad write (permissions, a read-only share, keys refused)
    UNREACHABLE = "unreachable"
    HISTORY = "history"  # its files have a gap or are gone: a drill decides whether to start over
    OTHER = "other"  # an error of another kind: said as Litestream said it


# The first pattern found in a line's error decides its meaning (all compared in lower case).
PATTERNS: tuple[tuple[str, Meaning], ...] = (
    ("no space left on device", Meaning.FULL),
    ("disk quota exceeded", Meaning.FULL),
    ("quotaexceeded", Meaning.FULL),
    ("file too large", Meaning.FULL),
    ("non-contiguous", Meaning.HISTORY),
    ("no matching backup files", Meaning.HISTORY),
    ("no snapshots available", Meaning.HISTORY),
    ("ltx file not found", Meaning.HISTORY),
    ("permission denied", Meaning.REFUSED),
    ("operation not permitted", Meaning.REFUSED),
    ("read-only file system", Meaning.REFUSED),
    ("accessdenied", Meaning.REFUSED),
    ("access denied", Meaning.REFUSED),
    ("invalidaccesskeyid", Meaning.REFUSED),
    ("signaturedoesnotmatch", Meaning.REFUSED),
    ("unable to authenticate", Meaning.REFUSED),
    ("nosuchbucket", Meaning.REFUSED),
    ("knownhosts", Meaning.REFUSED),
    ("host key", Meaning.REFUSED),
    ("connection refused", Meaning.UNREACHABLE),
    ("no such host", Meaning.UNREACHABLE),
    ("no route to host", Meaning.UNREACHABLE),
    ("network is unreachable", Meaning.UNREACHABLE),
    ("i/o timeout", Meaning.UNREACHABLE),
    ("connection reset", Meaning.UNREACHABLE),
    ("broken pipe", Meaning.UNREACHABLE),
    ("timeout", Meaning.UNREACHABLE),
    ("deadline exceeded", Meaning.UNREACHABLE),
    ("dial tcp", Meaning.UNREACHABLE),
    ("no such file or directory", Meaning.HISTORY),  # a file it counted on is gone: a drill decides
)

# What each meaning is, in words, before the detail Litestream gave.
_SAYS = {
    Meaning.FULL: "the disk it is on is full",
    Meaning.REFUSED: "it does not let Scorepad write",
    Meaning.UNREACHABLE: "it cannot be reached",
    Meaning.HISTORY: "its files have a gap, or are gone",
    Meaning.OTHER: "Litestream reports an error",
}

MISSING_FILES = "files are missing from it, as when it is emptied or replaced"
GAP = "there is a gap in its files, as when its share drops for a while"

# Some errors deserve words of their own: what happened, what to check.
_OWN_WORDS = (
    ("non-contiguous", GAP),
    ("no matching backup files", MISSING_FILES),

    ("unable to authenticate", "the SFTP server refused the login (check REPLICA_SSH_KEY, or the password)"),
    ("knownhosts", "the SFTP server's host key is not the one in REPLICA_SSH_HOST_KEY"),
    ("host key", "the SFTP server's host key is not the one in REPLICA_SSH_HOST_KEY"),
    ("nosuchbucket", "the bucket does not exist"),
    ("invalidaccesskeyid", "the bucket refused Scorepad's keys (AWS_ACCESS_KEY_ID)"),
    ("signaturedoesnotmatch", "the bucket refused Scorepad's keys (AWS_SECRET_ACCESS_KEY)"),
)


@dataclass(frozen=True)
class Heard:
    """One line of Litestream's, understood: its level, what it means, and the household's words for it (masked)."""

    level: str
    meaning: Meaning
    words: str
    line: str  # the whole line, masked: for the server's log


def meaning_of(error: str) -> Meaning:
    lowered = error.lower()
    return next((meaning for pattern, meaning in PATTERNS if pattern in lowered), Meaning.OTHER)


def in_words(error: str, secrets: Iterable[str] = ()) -> str:
    """An error from Litestream in the household's words, with its last detail: "the disk it is on is full (no
    space left on device)"."""
    error = mask(error, secrets).strip()
    lowered = error.lower()
    for pattern, words in _OWN_WORDS:
        if pattern in lowered:
            return words
    meaning = meaning_of(error)
    detail = _detail(error)
    return f"{_SAYS[meaning]} ({detail})" if detail else _SAYS[meaning]


def _detail(error: str) -> str:
    """The innermost part of a Go error chain ("write ltx file: open x: no space left on device" -> "no space
    left on device"), short enough for a sentence."""
    last = error.rsplit(": ", 1)[-1].strip().strip('"')
    return last if len(last) <= 120 else last[:117] + "..."


def hear(line: str, secrets: Iterable[str] = ()) -> Heard:
    """One line of Litestream's output, understood. Only ERROR lines mean something for the replica; the rest
    (its INFO and WARN lines, a line that is not logfmt at all) is passed on to the log as it came, masked."""
    secrets = tuple(secrets)
    masked = mask(line.rstrip("\n"), secrets)
    found = fields(line)
    level = found.get("level", "").upper()
    if level != "ERROR":
        return Heard(level or "INFO", Meaning.NOTHING, "", masked)
    error = found.get("error") or found.get("msg") or line
    return Heard(level, meaning_of(error), in_words(error, secrets), masked)
