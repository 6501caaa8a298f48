"""Export (JSON that imports back, CSV for a spreadsheet) and import."""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from ... import services
from ...core.errors import ImportRefused
from ...services import lookups, transfer
from ...services.transfer import MAX_IMPORT_BYTES, TOO_LARGE
from ..cli import backups as backup_commands
from ..shell.database import get_db

bp = Blueprint("transfer", __name__)
MAX_REQUEST_BYTES = MAX_IMPORT_BYTES + 64 * 1024  # the app refuses any request larger than the file plus its form


def _download(body: str, name: str, kind: str) -> Response:
    return Response(body, mimetype=kind, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _game_or_404(game_id: int):
    if lookups.game(get_db(), game_id) is None:
        abort(404)


@bp.get("/export.json")
def export_all():
    document = transfer.export_games(get_db())
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return _download(text, f"scorepad-{transfer.stamp()}.json", "application/json")


@bp.get("/games/<int:game_id>/export.json")
def export_game(game_id: int):
    _game_or_404(game_id)
    document = transfer.export_games(get_db(), [game_id])
    return _download(json.dumps(document, ensure_ascii=False, separators=(",", ":")), f"scorepad-game-{game_id}.json",
                     "application/json")


def _sheets(game_ids=None) -> str:
    # a time in the CSV is written as every page writes it, by the app's own filter (the house's zone)
    return services.sheets_csv(get_db(), game_ids, time_words=current_app.jinja_env.filters["played_on"])


@bp.get("/export.csv")
def export_all_csv():
    return _download(_sheets(), f"scorepad-sheets-{transfer.stamp()}.csv", "text/csv")


@bp.get("/games/<int:game_id>/export.csv")
def export_game_csv(game_id: int):
    _game_or_404(game_id)
    return _download(_sheets([game_id]), f"scorepad-game-{game_id}.csv", "text/csv")


@bp.get("/import")
def import_form():
    return render_template("history/import.html", error=None)


def _import_page(error: str, status: int):
    return render_template("history/import.html", error=error), status


@bp.post("/import")
def import_file():
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _import_page("Choose a Scorepad export file (.json).", 422)
    try:
        ids = services.import_games(get_db(), upload.read(MAX_IMPORT_BYTES + 1))
    except ImportRefused as refused:
        return _import_page(str(refused), refused.status_hint)
    flash(f"Imported {len(ids)} game{'s' if len(ids) != 1 else ''}.")
    return redirect(url_for("history.evenings"), 303)


@bp.errorhandler(RequestEntityTooLarge)
def upload_too_large(_error):
    """A request past MAX_CONTENT_LENGTH is refused before its body is read (before the CSRF check, even)."""
    return _import_page(TOO_LARGE, 413)


def init_app(app) -> None:
    backup_commands.init_app(app)
