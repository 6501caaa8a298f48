"""`flask --app scorepad backup` and `restore`: both safe while Scorepad serves the phones."""

from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from .. import backups


@click.command("backup")
@with_appcontext
@click.argument("target", required=False)
@click.option("--force", is_flag=True, help="Write over TARGET if it is an earlier Scorepad backup.")
def backup_command(target: str | None, force: bool) -> None:
    """Write a consistent copy of the database (safe while Scorepad runs). TARGET defaults to a new file
    instance/backups/scorepad-<time>.db; an existing TARGET is only replaced with --force, and only if it is
    an earlier Scorepad backup."""
    live = current_app.config["DATABASE"]
    try:
        if target is None:
            written = backups.backup_into(live, _default_folder())
        else:
            written = backups.backup(live, target, replace=force)
    except backups.BackupRefused as refused:
        raise click.ClickException(str(refused)) from None
    click.echo(f"Backed up {live} to {written}")


def _default_folder() -> Path:
    return Path(current_app.config.get("BACKUP_DIR") or Path(current_app.instance_path) / "backups")


@click.command("restore")
@with_appcontext
@click.argument("source")
@click.option("--yes", is_flag=True, help="Do not ask: replace the live database.")
def restore_command(source: str, yes: bool) -> None:
    """Put a backup back in place of the live database (everything since the backup is replaced, and kept in
    a safety copy). Safe while Scorepad runs: phones' saves wait a moment."""
    live = current_app.config["DATABASE"]
    try:
        with backups.prepare(source) as prepared:
            if not yes:
                click.confirm(f"Replace {live} with {source}? Everything recorded since that backup is set "
                              "aside in a safety copy", abort=True)
            restored = backups.put_back(prepared, live)
    except backups.BackupRefused as refused:
        raise click.ClickException(str(refused)) from None
    upgraded = " (made by an older Scorepad, brought up to date)" if restored.upgraded else ""
    click.echo(f"Restored {source}{upgraded}. Saves from phones waited {restored.lock_seconds:.2f} s while it "
               f"was put in place. The database as it was is kept in {restored.safety_copy}.")


def init_app(app) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
