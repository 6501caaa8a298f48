"""A club's seasons and specials: the season's page, wall and prize list, a night's prize list, the director's
season forms, and a special tapped on a club table's hand form. Each view parses, calls one use case of
`services.seasons` (or reads through it), and renders or redirects."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for

from ...core.club import SPECIALS
from ...core.inputs import record_id
from ...services import Declined, seasons
from ..games.forms import HAND_FIELDS
from ..games.forms import kept as kept_as
from ..shell.database import get_db
from ..shell.htmx import vary_on_htmx
from . import forms
from .director_page import director_page
from .rights import directed, directs_season, not_season_director_words, shown_night

bp = Blueprint("seasons", __name__, url_prefix="/club")

# --- the season's pages ------------------------------------------------------------------------------------------

def _season(season_id: int):
    try:
        return seasons.season_page(get_db(), season_id)
    except Declined:
        abort(404)


@bp.get("/seasons/")
def season_list():
    db = get_db()
    return render_template("club/seasons.html", seasons=seasons.all_seasons(db),
                           current=seasons.current_season(db))


@bp.get("/seasons/<int:season_id>")
def season(season_id: int):
    page = _season(season_id)
    return render_template("club/season.html", page=page, **_words(page))


@bp.get("/seasons/<int:season_id>/wall")
def season_wall(season_id: int):
    page = _season(season_id)
    return render_template("club/season_wall.html", page=page, poll=current_app.config["POLL_SECONDS"],
                           etag=seasons.season_etag(get_db(), season_id), **_words(page))


@bp.get("/seasons/<int:season_id>/wall/live")
def season_wall_live(season_id: int):
    """The season wall's poll: 304 while no night of the season (nor its settings) changed."""
    etag = seasons.season_etag(get_db(), season_id)
    if etag is None:
        abort(404)
    if request.headers.get("If-None-Match") == etag:
        response = current_app.response_class(status=304)
    else:
        page = _season(season_id)
        response = vary_on_htmx(render_template("club/_season_wall_live.html", page=page, is_live_update=True,
                                                etag=etag, poll=current_app.config["POLL_SECONDS"], **_words(page)))
        response.headers["Cache-Control"] = "no-cache"
    response.headers["ETag"] = etag
    return response


@bp.get("/seasons/<int:season_id>/prizes")
def season_prizes(season_id: int):
    page = _season(season_id)
    return render_template("club/prizes.html", title=page.season.name, prizes=page.prizes,
                           final=page.over, back=url_for("seasons.season", season_id=season_id),
                           lines=page.teams if _teams_first(page) else page.players, **_words(page))


def _teams_first(page) -> bool:
    """A season of partners nights only ranks its teams first; any other, its players."""
    return bool(page.teams) and all(n.kind == "partners" for n in page.nights)


def _words(page) -> dict:
    season = page.season
    counts = ("every night counts" if season.best_of is None else
              f"each one's best {season.best_of} night{'s' if season.best_of != 1 else ''} count")
    ranked = ("" if season.min_nights <= 1 else f" · ranked after {season.min_nights} nights")
    return {"season_words": f"{len(page.nights)} night{'s' if len(page.nights) != 1 else ''} · {counts}{ranked}",
            "special_names": SPECIALS, "teams_first": _teams_first(page)}


@bp.get("/<int:night_id>/prizes")
def night_prizes(night_id: int):
    night = shown_night(night_id)
    db = get_db()
    read = seasons.read_night(db, night)
    return render_template("club/prizes.html", title=night.name, prizes=seasons.night_prizes(db, night, read),
                           final=night.closed_at is not None, back=url_for("club.show", night_id=night_id),
                           lines=None, special_names=SPECIALS)


# --- the director's season forms -----------------------------------------------------------------------------------

def _refused(night, typed: dict, errors: dict, name_field: str):
    if "season_name" in errors and name_field != "season_name":
        errors[name_field] = errors.pop("season_name")
    return director_page(night, {**typed, "form": name_field}, errors, status=422)


def _season_directed(night, season):
    """None for a browser that directs `season`, else the director's page saying who does (403)."""
    if season is not None and directs_season(season):
        return None
    words = not_season_director_words(season) if season else "This night counts in no season."
    return director_page(night, message=words, status=403)


@bp.post("/<int:night_id>/season")
def change_season(night_id: int):
    night = directed(night_id)
    refused = _season_directed(night, seasons.season_of(get_db(), night))
    if refused:
        return refused
    typed, settings, errors = forms.read_season(request.form, "season_name")
    if errors or night.season_id is None:
        return _refused(night, typed, errors or {"season_name": "This night counts in no season."}, "season_name")
    try:
        seasons.change_season(get_db(), night.season_id, **settings)
    except Declined as refusal:
        return _refused(night, typed, refusal.errors, "season_name")
    flash("The season's settings are saved: its standings follow them.")
    return redirect(url_for("club.director", night_id=night_id) + "#season", 303)


@bp.post("/<int:night_id>/season/new")
def new_season(night_id: int):
    night = directed(night_id)
    refused = _season_directed(night, seasons.season_under_way(get_db()))  # its director starts the next one
    if refused:
        return refused
    typed, settings, errors = forms.read_season(request.form, "new_season_name")
    if errors:
        return _refused(night, typed, errors, "new_season_name")
    try:
        started = seasons.new_season(get_db(), director_night=night_id, **settings)
    except Declined as refusal:
        return _refused(night, typed, refusal.errors, "new_season_name")
    flash(f"{started.name} has started: the nights made from now on count in it.")
    return redirect(url_for("club.director", night_id=night_id) + "#season", 303)


@bp.get("/<int:night_id>/season")
@bp.get("/<int:night_id>/season/new")
def season_form_address(night_id: int):
    return redirect(url_for("club.director", night_id=night_id) + "#season", 303)


# --- a special at a club table -------------------------------------------------------------------------------------

@bp.post("/games/<int:game_id>/specials")
def tally(game_id: int):
    """One tap on a club table's hand form: the special is tallied, and the form comes back as it was typed."""
    kind, _, player = str(request.form.get("special", "")).partition(":")
    hand = record_id(request.form.get("expected"))
    try:
        done = seasons.tally_special(get_db(), game_id, hand, record_id(player), kind)
    except Declined as refusal:
        if refusal.status_hint == 404:
            abort(404)
        flash(str(refusal))
    else:
        flash(f"{SPECIALS[done.kind]} tallied for {done.player} in hand {done.hand}.")
    return _back_to_form(game_id, request.form)


@bp.post("/games/<int:game_id>/specials/<int:special_id>/take-back")
def take_back(game_id: int, special_id: int):
    try:
        seasons.take_back_special(get_db(), game_id, special_id)
    except Declined as refusal:
        if refusal.status_hint == 404:
            abort(404)
        flash(str(refusal))
    else:
        flash("The special is taken back.")
    return _back_to_form(game_id, request.form)


def _back_to_form(game_id: int, form):
    """The game page with the hand form as it was typed (as the meld calculator brings it back)."""
    kept = [(k, kept_as(k, form.get(k, ""))) for k in HAND_FIELDS if form.get(k)]
    query = f"?{urlencode(kept)}" if kept else ""
    return redirect(url_for("games.show", game_id=game_id) + query + "#specials", 303)


@bp.get("/games/<int:game_id>/specials")
def tally_form_address(game_id: int):
    return redirect(url_for("games.show", game_id=game_id), 303)



@bp.app_template_filter("special_name")
def special_name(kind: str) -> str:
    """A special's name as the club says it: "Double pinochle"."""
    return SPECIALS.get(kind, kind)
