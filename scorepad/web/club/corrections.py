"""What the director settles about a table's result, at any time: a score confirmed for the players (who agreed it
at the table, or have gone home), and a result of any round put right, from its own page, with the reason kept
beside the table. Each view parses, calls `services.club`, and renders or redirects."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ...services import Declined, club
from ..shell.database import get_db
from . import director_page as page
from . import forms, results
from .rights import directed

bp = Blueprint("corrections", __name__, url_prefix="/club")


@bp.post("/<int:night_id>/tables/<int:table_id>/confirm-for-them")
def confirm_for_them(night_id: int, table_id: int):
    night = directed(night_id)
    try:
        done = club.confirm_for_table(get_db(), night_id, table_id)
    except Declined as refusal:
        if refusal.status_hint == 404:
            abort(404)
        return page.director_page(night, message=str(refusal), status=refusal.status_hint)
    table = club.table_of(get_db(), night_id, table_id)
    flash(f"Table {table.table_no}'s score is confirmed by you, for its players." if done else
          f"Table {table.table_no}'s score was confirmed already.")
    return redirect(url_for("club.director", night_id=night_id) + "#round", 303)


def _correction_page(night, table_id: int, values=None, errors=None, message=None, status=200):
    db = get_db()
    try:
        table = club.table_of(db, night.id, table_id)
    except Declined:
        abort(404)
    points, _ = table.result
    typed = values or {f"score_0_{table.id}": "" if table.unplayed else str(points[0]),
                       f"score_1_{table.id}": "" if table.unplayed else str(points[1])}
    return render_template("club/correct.html", night=night, t=table, values=typed, errors=errors or {},
                           message=message, changes=club.result_changes(db, night.id).get(table.id, []),
                           ending=club.ending_words(table, night), most_note=club.MOST_NOTE), status


@bp.get("/<int:night_id>/tables/<int:table_id>/correct")
def correct_form(night_id: int, table_id: int):
    """A table of any round, on a page of its own: its result, every change made to it, and the form that puts it
    right (the night's page links here from each table)."""
    return _correction_page(directed(night_id), table_id)


@bp.post("/<int:night_id>/tables/<int:table_id>/correct")
def correct(night_id: int, table_id: int):
    night = directed(night_id)
    typed, score, note, errors = forms.read_result(request.form, table_id)
    if errors:
        return _correction_page(night, table_id, typed, errors, status=422)
    try:
        done = club.change_result(get_db(), night_id, table_id, score, note)
    except Declined as refusal:
        if refusal.status_hint == 404:
            abort(404)
        errors = {f"{k}_{table_id}": v for k, v in refusal.errors.items()}
        return _correction_page(night, table_id, typed, errors, str(refusal) or None, refusal.status_hint)
    flash(page.corrected_words(done))
    results.publish_corrected(night, done)
    return redirect(url_for("club.show", night_id=night_id) + f"#night-table-{table_id}", 303)
