"""Export (JSON that imports back, CSV for a spreadsheet) and import."""

from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from .. import store, transfer
from . import backup_commands
from .database import get_db
from .forms import CsrfForm
from .sheet import build_sheet

bp = Blueprint("transfer", __name__)
# A year of a family's evenings exports to a few megabytes; reading a file takes about six times its size in
# memory, which a Raspberry Pi must spare. The app refuses any request larger than the file plus its form.
MAX_IMPORT_BYTES = 50 * 1024 * 1024  # years of family evenings (about 4,000 games); parsing it peaks near 330 MB
MAX_REQUEST_BYTES = MAX_IMPORT_BYTES + 64 * 1024


def _download(body: str, name: str, kind: str) -> Response:
    return Response(body, mimetype=kind, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _game_or_404(game_id: int):
    if store.load_game(get_db(), game_id) is None:
        abort(404)


@bp.get("/export.json")
def export_all():
    document = transfer.export_games(get_db())
    return _download(json.dumps(document, ensure_ascii=False, separators=(",", ":")), f"scorepad-{transfer.stamp()}.json",
                     "application/json")


@bp.get("/games/<int:game_id>/export.json")
def export_game(game_id: int):
    _game_or_404(game_id)
    document = transfer.export_games(get_db(), [game_id])
    return _download(json.dumps(document, ensure_ascii=False, separators=(",", ":")), f"scorepad-game-{game_id}.json",
                     "application/json")


@bp.get("/export.csv")
def export_all_csv():
    return _download(sheets_csv(get_db()), f"scorepad-sheets-{transfer.stamp()}.csv", "text/csv")


@bp.get("/games/<int:game_id>/export.csv")
def export_game_csv(game_id: int):
    _game_or_404(game_id)
    return _download(sheets_csv(get_db(), [game_id]), f"scorepad-game-{game_id}.csv", "text/csv")


CSV_COLUMNS = ["game", "started", "team_1", "team_2", "hand", "dealer", "bidder", "bid", "trump", "kind",
               "result", "meld_1", "meld_2", "counters_1", "counters_2", "points_1", "points_2", "total_1",
               "total_2"]


def sheets_csv(db, game_ids: list[int] | None = None) -> str:
    """Score sheets for a spreadsheet: one row a hand, in order, with the running totals. No text cell is read as
    a formula (see `cell`); numbers stay numbers."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game_id in game_ids or store.game_ids(db):
        game = store.load_game(db, game_id)
        sheet = build_sheet(game, store.live_hands(db, game_id))
        for row in sheet.rows:
            h = row.hand
            counters = h.counters or ("", "")
            writer.writerow(map(cell, [game.id, game.created_at, *game.teams, row.number, row.dealer, row.bidder,
                                       h.bid if h.kind != "redeal" else "", row.stored.trump or "", h.kind,
                                       row.outcome, *h.meld, *counters, *row.result.points, *row.running]))
    return out.getvalue()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """A value as a spreadsheet should read it. Text that starts with = + - @, a tab or a carriage return
    (even after blank space) is a formula to a spreadsheet: a name like =HYPERLINK(...) would run. Such text gets a
    leading apostrophe, which spreadsheets take to mean "plain text" (OWASP's advice). Numbers are left as they
    are: −50 points must stay a number."""
    if isinstance(value, str) and (value.startswith(FORMULA_STARTS) or value.lstrip().startswith(FORMULA_STARTS)):
        return "'" + value
    return value




@bp.get("/import")
def import_form():
    return render_template("import.html", form=CsrfForm(), error=None)


def _import_page(error: str, status: int):
    return render_template("import.html", form=CsrfForm(), error=error), status


TOO_LARGE = (f"That file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MB, the most one import takes. "
             "Nothing was imported.")


@bp.post("/import")
def import_file():
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _import_page("Choose a Scorepad export file (.json).", 422)
    raw = upload.read(MAX_IMPORT_BYTES + 1)
    if len(raw) > MAX_IMPORT_BYTES:
        return _import_page(TOO_LARGE, 413)
    try:
        ids = transfer.import_document(get_db(), transfer.parse_document(raw))
    except transfer.ImportRefused as refused:
        return _import_page(str(refused), refused.status_hint)
    flash(f"Imported {len(ids)} game{'s' if len(ids) != 1 else ''}.")
    return redirect(url_for("history.evenings"), 303)


@bp.errorhandler(RequestEntityTooLarge)
def upload_too_large(_error):
    """A request past MAX_CONTENT_LENGTH is refused before its body is read (before the CSRF check, even)."""
    return _import_page(TOO_LARGE, 413)


def init_app(app) -> None:
    backup_commands.init_app(app)
