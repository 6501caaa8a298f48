"""An entrant of a club night, on a page of the director's own: before the first round their names put right or
the entrant withdrawn; once the night is under way, the round after which they leave (or that they stay after
all); and, for a director who fills a seat, the night's games left out of their rating. Each view parses, calls
`services.club`, and renders or redirects."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ...services import Declined, club
from ..shell.database import get_db
from . import forms
from .rights import directed

bp = Blueprint("entrants", __name__, url_prefix="/club")


def _entrant(night, number: int):
    entrant = next((e for e in club.entrants(get_db(), night.id) if e.number == number), None)
    if entrant is None:
        abort(404)
    return entrant


def _entrant_page(night, number: int, values=None, errors=None, message=None, status=200):
    entrant = _entrant(night, number)
    typed = values or {"player_0": entrant.player_names[0],
                       "player_1": entrant.player_names[1] if len(entrant.player_names) > 1 else "",
                       "team": entrant.name if entrant.name != " & ".join(entrant.player_names) else ""}
    return render_template("club/entrant.html", night=night, entrant=entrant, values=typed, errors=errors or {},
                           message=message, unrated=club.unrated(get_db(), night.id),
                           known_players=club.player_names(get_db())), status


@bp.get("/<int:night_id>/entrants/<int:number>")
def entrant(night_id: int, number: int):
    return _entrant_page(directed(night_id), number)


def _acted(night, number: int, act, said):
    """`act()` done, the director back on the director's page with `said(result)`; refused, the entrant's page
    with the reason beside the field."""
    try:
        result = act()
    except Declined as refusal:
        if refusal.status_hint == 404:
            abort(404)
        return _entrant_page(night, number, request.form.to_dict(), refusal.errors, str(refusal) or None,
                             refusal.status_hint)
    flash(said(result))
    return redirect(url_for("club.director", night_id=night.id) + "#register", 303)


@bp.post("/<int:night_id>/entrants/<int:number>/change")
def change(night_id: int, number: int):
    night = directed(night_id)
    typed, names, errors = forms.read_entrant(request.form)
    if errors:
        return _entrant_page(night, number, typed, errors, status=422)
    name = names[2] or " & ".join(filter(None, names[:2]))
    return _acted(night, number, lambda: club.change_entrant(get_db(), night_id, number, tuple(names[:2]), names[2]),
                  lambda _: f"Number {number} is {name} now.")


@bp.post("/<int:night_id>/entrants/<int:number>/withdraw")
def withdraw(night_id: int, number: int):
    night = directed(night_id)
    return _acted(night, number, lambda: club.withdraw(get_db(), night_id, number),
                  lambda name: f"{name} is withdrawn; those registered after move up a number.")


@bp.post("/<int:night_id>/entrants/<int:number>/leave")
def leave(night_id: int, number: int):
    night = directed(night_id)
    after, problem = forms.read_leave(request.form, night.rounds)
    if problem:
        return _entrant_page(night, number, errors={"after": problem}, status=422)
    return _acted(night, number, lambda: club.leave(get_db(), night_id, number, after), lambda name: (
        f"{name} stays to the end of the night." if after is None else
        f"{name} leaves after round {after}: the rounds after it are planned without them (print the chart "
        "again)."))


@bp.post("/<int:night_id>/players/<int:player_id>/rated")
def rated(night_id: int, player_id: int):
    night = directed(night_id)
    rate = request.form.get("rated") == "1"
    number = next((e.number for e in club.entrants(get_db(), night_id) if player_id in e.player_ids), None)
    if number is None:
        abort(404)
    player = club.player(get_db(), player_id)
    return _acted(night, number, lambda: club.rate_player(get_db(), night_id, player_id, rate), lambda _: (
        f"{player['name']}'s games tonight count in the ratings." if rate else
        f"{player['name']}'s games tonight leave {player['name']}'s rating as it was (the others at the table are "
        "rated as usual)."))


@bp.get("/<int:night_id>/entrants/<int:number>/change")
@bp.get("/<int:night_id>/entrants/<int:number>/withdraw")
@bp.get("/<int:night_id>/entrants/<int:number>/leave")
def entrant_form_address(night_id: int, number: int):
    return redirect(url_for("entrants.entrant", night_id=night_id, number=number), 303)
