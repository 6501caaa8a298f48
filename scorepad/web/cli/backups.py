"""`flask --app scorepad backup` and `restore`: both safe while Scorepad serves the phones. And the backups
Scorepad takes by itself: where they go, how many are kept, and the warning every page shows when they fail."""

from __future__ import annotations

import contextlib
import logging
from datetime import UTC, datetime
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from ...core import house_time, retention
from ...core.inputs import try_whole_number
from ...services import replica
from ...services.backups import Backups, register
from ...store import backups, replica_marks
from ..shell import replica as replica_setup

_logger = logging.getLogger(__name__)


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
    return backup_folders(current_app.config)[0]


def backup_folders(config) -> list[Path]:
    """Where backups go: BACKUP_DIR (by default `backups/` beside the database: instance/backups), then
    SECOND_BACKUP_DIR when one is set (a USB stick, a network share)."""
    first = Path(config.get("BACKUP_DIR") or Path(config["DATABASE"]).parent / "backups")
    second = config.get("SECOND_BACKUP_DIR")
    return [first, Path(second)] if second else [first]


def backups_kept(config) -> int:
    """BACKUPS_KEPT: how many of the newest backups each folder keeps (besides one a month); 14 unless set to
    a whole number from 1 to 10,000."""
    setting = config.get("BACKUPS_KEPT")
    if setting is None or setting == "":
        return retention.KEEP_LAST
    kept = try_whole_number(setting, low=1, high=10_000)
    if kept is None:
        _logger.warning("BACKUPS_KEPT is %r, not a whole number from 1 to 10000: keeping %d", setting,
                        retention.KEEP_LAST)
        return retention.KEEP_LAST
    return kept


@click.command("restore")
@with_appcontext
@click.argument("source", required=False)
@click.option("--from-replica", is_flag=True, help="Restore from the replica REPLICA_URL names (Litestream).")
@click.option("--at", "at", metavar="TIME", help="With --from-replica: the database as it was at TIME "
              "(2026-11-25 18:03, this machine's time; or 2026-11-25T17:03:00Z).")
@click.option("--yes", is_flag=True, help="Do not ask: replace the live database.")
def restore_command(source: str | None, from_replica: bool, at: str | None, yes: bool) -> None:
    """Put a backup back in place of the live database (everything since the backup is replaced, and kept in
    a safety copy). Safe while Scorepad runs: phones' saves wait a moment. With --from-replica, the backup is
    the replica's database (its latest moment, or the one --at names), through the same checks; it says whose
    database it is before it is put in place."""
    live = current_app.config["DATABASE"]
    if from_replica == bool(source):
        raise click.UsageError("Name a backup file to restore, or give --from-replica (not both).")
    if at is not None and not from_replica:
        raise click.UsageError("--at goes with --from-replica.")
    with contextlib.ExitStack() as stack:
        said = source
        if from_replica:
            got = stack.enter_context(_from_replica(live, at))
            source = str(got.path)
            when = f"{house_time.local(got.written_at):%Y-%m-%d %H:%M:%S}" if got.written_at else "an unknown moment"
            said = f"the replica's database as it was at {when} (transaction {got.txid})"
            click.echo(f"Restoring {said}.")
            held = replica_marks.summarize_file(got.path, private=True)
            click.echo(f"It holds {held.said()}.")
            here = replica_marks.summarize_file(Path(live)) if Path(live).is_file() else None
            if here and here.games and held.identity and here.identity and held.identity != here.identity:
                click.echo(f"It is another database than this Scorepad's, which holds {here.said()}: those are "
                           "set aside in the safety copy.")
        restored = _restore(source, said, live, yes, from_replica)
        if from_replica:
            _say_later_hands(got.path, restored.safety_copy)


@contextlib.contextmanager
def _from_replica(live: str, at: str | None):
    place = replica.place_from(current_app.config)
    if place is None:
        raise click.ClickException("No replica is set up: set REPLICA_URL (in instance/config.py, or the "
                                   "environment) to the place it was written to. Nothing was changed.")
    try:
        moment = replica.parse_moment(at) if at is not None else None
    except ValueError as refused:
        raise click.BadParameter(str(refused).removeprefix("--at "), param_hint="--at") from None
    try:
        if moment is not None:
            try:
                replica.check_moment(moment, datetime.now(UTC), replica.span_of(place, live), place.shown())
            except ValueError as refused:
                raise click.BadParameter(str(refused).removeprefix("--at "), param_hint="--at") from None
        with replica.restored(place, live, moment) as got:
            yield got
    except replica.ReplicaRefused as refused:
        raise click.ClickException(str(refused)) from None


def _restore(source: str, said: str, live: str, yes: bool, from_replica: bool = False) -> backups.Restored:
    try:
        with backups.prepare(source, work_in=Path(live).parent) as prepared:
            if not yes:
                click.confirm(f"Replace {live} with {said}? Everything recorded since that backup is set "
                              "aside in a safety copy", abort=True)
            restored = backups.put_back(prepared, live, from_replica=from_replica)
    except backups.BackupRefused as refused:
        raise click.ClickException(str(refused).replace(source, said)) from None
    current_app.extensions["scorepad_backups"].prune_safety_copies()  # kept as backups are: they never pile up
    upgraded = " (made by an older Scorepad, brought up to date)" if restored.upgraded else ""
    # hands phones saved while the backup was being checked were saved: they are in the database it replaced
    click.echo(f"Restored {said}{upgraded}. The database as it was, with every hand recorded until the moment it "
               f"was replaced (saves from phones waited {restored.lock_seconds:.2f} s for that moment), is kept in "
               f"{restored.safety_copy}.")
    if restored.rescored:
        games = ", ".join(str(game) for game in restored.rescored[:12])
        more = f" and {len(restored.rescored) - 12} more" if len(restored.rescored) > 12 else ""
        click.echo(f"{len(restored.rescored)} game(s) kept totals that disagreed with their hands (games "
                   f"{games}{more}): they were scored again from their hands.")
    return restored


def _say_later_hands(copy: Path, safety_copy: Path) -> None:
    """The hands the database had when the replica's copy replaced it (kept in the safety copy, under the write
    lock) that the copy lacks: acknowledged after the replica's moment, they are only in the safety copy now."""
    count, first = replica_marks.hands_only_in_live(copy, str(safety_copy))
    if count:
        listed = "; ".join(f"game {game}, the hand recorded {_local(at)}" for game, _, at in first)
        more = f"; and {count - len(first)} more" if count > len(first) else ""
        click.echo(f"{count} hand(s) recorded here after the replica's moment are not in the restored database; "
                   f"they are only in {safety_copy}: {listed}{more}.")


def _local(stamp: str) -> str:
    try:
        return f"{datetime.fromisoformat(stamp).astimezone():%a %-d %b %H:%M:%S}"
    except ValueError:
        return stamp


def init_app(app) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
    taken = Backups(app.config["DATABASE"], backup_folders(app.config), keep_last=backups_kept(app.config))
    register(taken)  # every finished game is backed up
    app.extensions["scorepad_backups"] = taken
    # read from the app at each page, not kept from here: whoever replaces the app's backups is heard at once
    app.context_processor(lambda: {"backup_warning": current_app.extensions["scorepad_backups"].warning()})
    replica_setup.init_app(app, taken)
