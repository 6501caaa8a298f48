"""A night's results as they leave the room: one self-contained HTML file (its styles inside it, no script, no
link back to Scorepad, so it opens from a mail, a USB stick or a website with no Scorepad behind it) and a
plain-text summary to paste into a mail or the club's chat; both written to the folder CLUB_RESULTS_DIR names, if
it names one, when the night closes and again after each correction."""

from __future__ import annotations

import logging
from datetime import datetime

from flask import Blueprint, abort, current_app, flash, redirect, render_template, url_for

from ...core.club import SPECIALS
from ...services import Declined, club, results
from ..shell.database import get_db
from .rights import directed, shown_night

bp = Blueprint("results", __name__, url_prefix="/club")
_logger = logging.getLogger(__name__)


def _results(night):
    try:
        return results.night_results(get_db(), night)
    except Declined:
        abort(403)


def results_page(found) -> str:
    """The self-contained results page of `found` (`services.results.NightResults`)."""
    now = datetime.now().astimezone()
    return render_template("club/results_file.html", r=found, night=found.night, special_names=SPECIALS,
                           now_words=now.strftime("%Y-%m-%d %H:%M"))


def _index(pages: list[tuple[str, str]]) -> str:
    return render_template("club/results_index.html", pages=pages)


@bp.get("/<int:night_id>/results.html")
def results_file(night_id: int):
    night = shown_night(night_id)
    response = current_app.response_class(results_page(_results(night)), mimetype="text/html")
    response.headers["Content-Disposition"] = f'attachment; filename="{results.file_name(night)}.html"'
    return response


@bp.get("/<int:night_id>/results.txt")
def results_text(night_id: int):
    night = shown_night(night_id)
    response = current_app.response_class(results.summary(_results(night)), mimetype="text/plain")
    response.headers["Content-Disposition"] = f'inline; filename="{results.file_name(night)}.txt"'
    return response


def folder() -> str | None:
    """The folder results are written to (CLUB_RESULTS_DIR), or None."""
    return current_app.config.get("CLUB_RESULTS_DIR") or None


def publish(night_id: int) -> str | None:
    """Write the night's results to the results folder, if one is named (and its standings are not hidden).
    Returns the words for the director: where they went, or why they did not; None when there is no folder."""
    where = folder()
    night = club.night(get_db(), night_id)
    if where is None or night is None:
        return None
    if night.standings_hidden:
        return "The results are not written to the results folder while the standings are hidden: reveal them."
    found = results.night_results(get_db(), night)
    try:
        written = results.write_results(where, night, results_page(found), results.summary(found), _index)
    except OSError as exc:
        _logger.warning("The results of club night %s could not be written to %s: %s", night_id, where, exc)
        return f"The results could not be written to {where}: {exc.strerror or exc}. Nothing there changed."
    return f"The results are written to {written[0].parent}: {written[0].name} and {written[1].name}."


def publish_corrected(night, done) -> None:
    """After a correction (`done`, `services.club.Corrected`) of a closed night, its results are written again to the
    results folder, and the director told where (or why not)."""
    if night.closed_at and done.how != "unchanged":
        said = publish(night.id)
        if said:
            flash(said)


@bp.post("/<int:night_id>/results/write")
def write(night_id: int):
    directed(night_id)
    said = publish(night_id)
    flash(said or "No results folder is named: set CLUB_RESULTS_DIR (see the README).")
    return redirect(url_for("club.director", night_id=night_id) + "#results", 303)


@bp.get("/<int:night_id>/results/write")
def write_form_address(night_id: int):
    return redirect(url_for("club.director", night_id=night_id) + "#results", 303)
