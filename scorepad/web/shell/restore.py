"""About → Backups: every backup listed with what it holds, and one put back from the browser (a household on a
NAS has no shell). The restore is the command's (`services.backups.restore_from`: the same checks, the same copy of
the database kept first), guarded by the table's passcode typed on its own form where one is set."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for

from ...core import house_time, retention
from ...services import backups as backup_service
from ...store import backup_files
from ...store.backups import BackupRefused
from . import passcode

bp = Blueprint("restore", __name__, url_prefix="/about/backups")


def _backups() -> backup_service.Backups:
    return current_app.extensions["scorepad_backups"]


def _now_contents() -> backup_files.Contents:
    """What the database in use holds now, to set beside a backup."""
    return backup_files.contents(Path(_backups().live_path), live=True)


def _chosen(shelves, key: str | None):
    """The backup `key` names ("<shelf>/<file name>"), looked up among those listed: never a path from a form."""
    shelf, _, name = (key or "").partition("/")
    for number, found in enumerate(shelves):
        if str(number) == shelf:
            return next((f for f in found.files if f.path.name == name), None)
    return None


def _key(shelves, chosen) -> str:
    for number, shelf in enumerate(shelves):
        if chosen in shelf.files:
            return f"{number}/{chosen.path.name}"
    return ""


@bp.get("/")
def backups():
    shelves = backup_service.shelves(_backups())
    return render_template("shell/backups.html", title="Backups", shelves=shelves, now=_now_contents(),
                           contents=backup_files.contents, key=lambda f: _key(shelves, f), ago=_ago)


def _ago(made: datetime) -> str:
    return retention.age_in_words(made, house_time.wall_clock())


@bp.get("/restore")
def confirm():
    shelves = backup_service.shelves(_backups())
    chosen = _chosen(shelves, request.args.get("backup"))
    if chosen is None:
        return _gone()
    return _confirm_page(shelves, chosen)


def _confirm_page(shelves, chosen, problem: str | None = None, status: int = 200):
    return render_template("shell/restore.html", title="Restore a backup", chosen=chosen, key=_key(shelves, chosen),
                           held=backup_files.contents(chosen.path), now=_now_contents(), problem=problem,
                           asks_passcode=passcode.configured() is not None, ago=_ago), status


def _gone():
    return render_template("error.html", title="No such backup", message=(
        "That backup is not among the ones Scorepad keeps (it may have been removed as an old one). "
        "Go back to the list of backups and choose another.")), 404


@bp.post("/restore")
def restore():
    shelves = backup_service.shelves(_backups())
    chosen = _chosen(shelves, request.form.get("backup"))
    if chosen is None:
        return _gone()
    refusal = passcode.confirmed(request.form.get("passcode"))
    if refusal is not None:
        return _confirm_page(shelves, chosen, refusal.message, refusal.status)
    try:
        restored = backup_service.restore_from(_backups(), chosen.path)
    except BackupRefused as refused:
        return _confirm_page(shelves, chosen, str(refused), 422)
    upgraded = " (made by an older Scorepad, brought up to date)" if restored.upgraded else ""
    flash(f"Restored the {chosen.kind} of {chosen.made:%a %-d %b %Y, %H:%M}{upgraded}. Every phone shows it on "
          f"its next look. The games as they were a moment ago are kept as {restored.safety_copy.name}, under "
          "“Kept before a restore”: restore that to undo this.")
    return redirect(url_for("restore.backups"), 303)
