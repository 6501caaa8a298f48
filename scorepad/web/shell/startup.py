"""What stops Scorepad from starting, said in one sentence: `python -m scorepad` prints it and exits, and every
`flask --app scorepad` command says "Error: ..." (click shows a ClickException so), never a traceback.

The data folder is checked where it is used: made if missing, written to (the database beside its log, the
secret key, the safety copies and a restore's checked copy all need that), never assumed.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import tempfile
from pathlib import Path

import click

from ...store import autobackup, backups, files
from ...store.backups import BackupRefused


class CannotStart(click.ClickException):
    """Scorepad cannot start; the message says why and what to do."""


class UpgradeRefused(CannotStart, BackupRefused):
    """No upgrade without its copy (see `store.backups.migrate_after_backup`): a start-up refusal, and still the
    store's BackupRefused for a caller that looks for that."""


def _who() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):  # a container's user with no name
        return f"user {os.geteuid()}"


def _fix(folder: Path) -> str:
    return (f"Let the user that runs Scorepad ({_who()}) write there (for example: sudo chown -R {_who()} "
            f"{folder}), or give it another folder with SCOREPAD_INSTANCE.")


def _reason(exc: Exception) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


def folder_made(folder: Path, keeps: str) -> None:
    """Make `folder` if it is missing; CannotStart if it cannot be made. `keeps` says what Scorepad keeps there."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CannotStart(f"Scorepad cannot make the folder {folder} ({_reason(exc)}), where it keeps {keeps}. "
                          f"{_fix(folder)}") from None


def writable_folder(folder: Path, keeps: str) -> None:
    """Make `folder` if it is missing and check that a file can be written in it; CannotStart if not. `keeps`
    says what Scorepad keeps there ("its database")."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with files.being_written(folder):
            pass
    except OSError as exc:
        raise CannotStart(f"Scorepad cannot write in {folder} ({_reason(exc)}), where it keeps {keeps}. "
                          f"{_fix(folder)}") from None


def secret_key(path: Path) -> str:
    """The key that signs the phones' sessions: made once on first run and kept in `path` (only its owner may
    read it; nothing of it is in git). Written whole: a first start killed midway leaves no empty key, which
    would refuse every form; an empty one an older Scorepad left is made anew."""
    try:
        for _ in range(3):
            try:
                key = path.read_text().strip()
            except FileNotFoundError:
                key = ""
            if key:
                return key
            path.parent.mkdir(parents=True, exist_ok=True)
            path.unlink(missing_ok=True)
            files.create_whole(path, secrets.token_hex(32).encode(), private=True)  # False: another was first
    except OSError as exc:
        raise CannotStart(f"Scorepad cannot keep its secret key in {path} ({_reason(exc)}). "
                          f"{_fix(path.parent)}") from None
    raise CannotStart(f"Scorepad cannot keep its secret key in {path}: it stays empty. {_fix(path.parent)}")


def upgrade_database(live_path: str, backup_folder: Path) -> None:
    """Bring the database up to date, keeping a copy in `backup_folder` first when its schema changes; a
    refusal (no copy, no upgrade) or a database that cannot be opened becomes a start-up refusal."""
    try:
        backups.migrate_after_backup(live_path, backup_folder)
    except BackupRefused as refused:
        raise UpgradeRefused(str(refused)) from None
    except (OSError, sqlite3.Error) as exc:
        raise CannotStart(f"Scorepad cannot open its database {live_path} ({_reason(exc)}). Nothing was "
                          "changed.") from None


def clear_leftovers(*folders: Path) -> None:
    """What a backup, an upgrade's copy or a restore killed midway left in `folders` (and a restore's checked
    copy in the temporary folder): gone at every start and every command."""
    for folder in (*folders, Path(tempfile.gettempdir())):
        autobackup.clear_leftovers(folder)
