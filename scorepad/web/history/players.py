"""Records: each player, each partnership, head to head; and putting names right without touching a score."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from markupsafe import Markup

from ... import services
from ...core.inputs import record_id
from ...core.ratings import POOLS
from ...services import Declined, lookups, ratings
from ..shell import kept_pages
from ..shell.database import get_db
from ..shell.forms import ECHO
from ..shell.htmx import is_htmx, vary_on_htmx
from .forms import parse_player_name

bp = Blueprint("players", __name__, url_prefix="/players")


SIDE_PLAYERS = (1, 2, 3, 4)  # a side of head to head: a player, a partnership, or a team of three or four


@bp.get("/")
def records():
    db = get_db()
    chosen = {f"{side}{n}": record_id(request.args.get(f"{side}{n}")) for side in "ab" for n in SIDE_PLAYERS}
    pool = request.args.get("games") if request.args.get("games") in POOLS else "all"
    if any(chosen.values()):  # head to head: asked for now and then, rendered each time
        everyone = lookups.everyone_with_records(db)
        h2h = _head_to_head(db, everyone, chosen)
        return render_template("history/players.html", players=everyone, h2h=h2h, chosen=chosen,
                               ladder=ratings.ladder(db, pool=pool), pool=pool, pools=POOLS,
                               unfinished=lookups.unfinished_games(db)), \
            422 if h2h and h2h.get("error") else 200
    return kept_pages.render("history/players.html", versions=lookups.lists_versions(db), line=lookups.LISTS_LINE,
                             chosen=chosen, h2h=None,
                             pool=pool,
                             build=lambda: {"players": lookups.everyone_with_records(db), "pools": POOLS,
                                            "ladder": ratings.ladder(db, pool=pool),
                                            "unfinished": lookups.unfinished_games(db)})


def _side(chosen: dict, prefix: str) -> list[int]:
    ids = [chosen[f"{prefix}{n}"] for n in SIDE_PLAYERS if chosen[f"{prefix}{n}"] is not None]
    return list(dict.fromkeys(ids))


def _head_to_head(db, everyone, chosen: dict) -> dict | None:
    a, b = _side(chosen, "a"), _side(chosen, "b")
    if not a or not b:
        return None
    names = {p["id"]: p["name"] for p in everyone}
    if any(i not in names for i in a + b):
        return {"error": "A player chosen is no longer on the list (renamed or merged): choose again."}
    if set(a) & set(b):
        return {"error": "One player cannot sit on both sides: choose different players on the two sides."}
    result = lookups.head_to_head(db, a, b)
    return {**result, "a": " & ".join(names[i] for i in a), "b": " & ".join(names[i] for i in b)}


def _player_or_404(player_id: int) -> dict:
    found = lookups.player(get_db(), player_id)
    if found is None:
        abort(404)
    return found


def _player_page(player_id: int, errors=None, values=None, status=200):
    db = get_db()
    me = _player_or_404(player_id)

    def built() -> dict:  # read only when the page must be rendered: a function of the lists and the records
        # each partnership's record and figures come when its card is opened (`partnership`): a player of a long
        # history has a dozen partners, and their cards were four fifths of a 100 KB page
        recent = lookups.history_games(db, player_id, limit=10)
        rated = ratings.of_player(db, player_id)
        return {"record": lookups.side_record(db, [player_id]), "partners": lookups.partners(db, player_id),
                "figures": services.figures.figures(db, [player_id]),
                "rating": rated.rating, "rating_chart": Markup(rated.chart) if rated.chart else None,  # numbers only
                "teams": lookups.team_records(db, player_id),
                "others": [p for p in lookups.player_choices(db) if p["id"] != player_id], "recent": recent,
                "unfinished": lookups.unfinished_games(db, player_id).get(player_id),
                "club_games": lookups.club_tables_of(db, [g.id for g in recent]),
                "club_places": services.club.places_of_player(db, player_id)}

    return kept_pages.render("history/player.html", versions=lookups.lists_versions(db), line=lookups.LISTS_LINE,
                             build=built, player=me,
                             errors=errors or {}, values=values or {"name": me["name"]}), status


@bp.get("/<int:player_id>")
def show(player_id: int):
    return _player_page(player_id)


@bp.get("/<int:player_id>/with/<int:mate_id>")
def partnership(player_id: int, mate_id: int):
    """A partnership's record and figures: the card a player's page opens in place (htmx), or a page of its own
    (without JavaScript, the card's link)."""
    db = get_db()
    me = _player_or_404(player_id)
    mate = next((m for m in lookups.partners(db, player_id) if m["id"] == mate_id), None)
    if mate is None:  # no such player, or one this player never partnered in a finished game
        abort(404)
    template = "history/_partnership.html" if is_htmx() else "history/partnership.html"
    together = [player_id, mate_id]
    return vary_on_htmx(kept_pages.render(template, versions=lookups.lists_versions(db), line=lookups.LISTS_LINE,
                                          player=me, mate=mate,
                                          build=lambda: {"figures": services.figures.figures(db, together)}))


@bp.post("/<int:player_id>/rename")
def rename(player_id: int):
    typed = request.form.get("name", "")
    name, problem = parse_player_name(typed)
    if problem:
        return _player_page(player_id, {"name": problem}, {"name": typed[:ECHO]}, 422)
    try:
        renamed = services.rename_player(get_db(), player_id, name)
    except Declined as refusal:
        return _player_page(player_id, refusal.errors, {"name": typed[:ECHO]}, refusal.status_hint)
    flash(f"{renamed.old} is now {renamed.new}. No score changed.")
    return redirect(url_for("players.show", player_id=player_id), 303)


@bp.post("/<int:player_id>/merge")
def merge(player_id: int):
    try:
        merged = services.merge_players(get_db(), player_id, record_id(request.form.get("into")))
    except Declined as refusal:
        return _player_page(player_id, refusal.errors, status=refusal.status_hint)
    flash(f"{merged.source} and {merged.target} are one player now. No score changed.")
    return redirect(url_for("players.show", player_id=merged.target_id), 303)
