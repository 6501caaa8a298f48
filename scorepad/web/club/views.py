"""Club nights: the director's page, the table cards, each player's phone, and the standings wall. Each view
parses the request (the forms in `forms`), calls `services.club`, and renders or redirects."""

from __future__ import annotations

import secrets
from datetime import datetime

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for

from ...core import house_time, words
from ...core.club import MOST_ROUNDS, ROUND_ENDS, TIE_BREAKS, round_words
from ...core.evenings import clock_words
from ...core.inputs import record_id, try_whole_number
from ...services import Declined, club, club_paper, seasons
from ..shell.database import get_db
from ..shell.htmx import vary_on_htmx
from . import director_page as page
from . import forms, results
from .qr_codes import qr_data_uri
from .rights import direct, directed, directing, night_or_404, recalled, remember, shown_night

bp = Blueprint("club", __name__, url_prefix="/club")


def _nights_page(values, errors, status=200):
    return render_template("club/nights.html", nights=club.nights(get_db()), values=values,
                           season=seasons.season_under_way(get_db()),
                           errors=errors, presets=forms.CLUB_PRESETS, kinds=forms.KIND_WORDS, round_ends=ROUND_ENDS,
                           tie_breaks=TIE_BREAKS, bye_choices=forms.BYE_WORDS), status


@bp.get("/")
def nights():
    return _nights_page(forms.night_values(), {})


@bp.post("/new")
def create():
    values, settings, errors = forms.read_night(request.form)
    if errors:
        return _nights_page(values, errors, 422)
    try:
        night = club.create_night(get_db(), **settings)
    except Declined as refusal:
        return _nights_page(values, refusal.errors, refusal.status_hint)
    direct(night)
    return redirect(url_for("club.director", night_id=night.id), 303)


# --- the director ---------------------------------------------------------------------------------------------

@bp.get("/<int:night_id>/director")
def director(night_id: int):
    return page.director_page(directed(night_id))


@bp.get("/<int:night_id>/director/live")
def director_live(night_id: int):
    """The director's poll: 304 while the night is as it was, else everything on the page that moves with it
    (the round and its next step, its tables and byes, the registered, the standings), each swapped in by its id.
    Time running out on the clock changes the next step too, though nothing was written: it is in the ETag."""
    night = directed(night_id)
    etag = night.etag[:-1] + ('-up"' if page.clock_up(night) else '"')
    return _live(night_id, lambda night, etag: render_template(
        "club/_director_live.html", is_live_update=True, etag=etag, **page.director_context(night)), etag=etag)


@bp.post("/<int:night_id>/register")
def register(night_id: int):
    night = directed(night_id)
    typed, names, errors = forms.read_entrant(request.form)
    if errors:
        return page.director_page(night, typed, errors, status=422)
    try:
        number = club.register(get_db(), night_id, tuple(names[:2]), names[2])
    except Declined as refusal:
        return page.director_page(night, typed, refusal.errors, str(refusal) or None, refusal.status_hint)
    # said beside the Player field, where the eye and the cursor are, not in the flash at the top of the page
    name = names[2] or " & ".join(filter(None, names[:2]))
    session["club_registered"] = {"night": night_id, "number": number, "name": name}
    return redirect(url_for("club.director", night_id=night_id) + "#register-form", 303)


def _director_action(night_id: int, action, done, **more):
    """A button of the round card: `action(db, night_id, seen, **more)` where `seen` is the round the page showed
    (its hidden field), so a stale tab is refused instead of acting on a round it never saw."""
    directed(night_id)
    seen = try_whole_number(request.form.get("round"), low=0, high=MOST_ROUNDS)
    try:
        result = action(get_db(), night_id, seen, **more)
    except Declined as refusal:
        typed = {"unconfirmed": request.form.get("unconfirmed", "")[:club.MOST_NOTE]}
        return page.director_page(night_or_404(night_id), typed, refusal.errors, str(refusal) or None,
                                  refusal.status_hint)
    flash(done(night_or_404(night_id), result))
    return redirect(url_for("club.director", night_id=night_id), 303)


@bp.post("/<int:night_id>/start")
def start_round(night_id: int):
    return _director_action(night_id, club.start_round,
                            lambda night, number: f"Round {number} has started: the tables are on the cards.",
                            unconfirmed=forms.read_unconfirmed(request.form))


@bp.post("/<int:night_id>/end")
def end_round(night_id: int):
    return _director_action(night_id, club.end_round, _ended_words)


def _ended_words(night, playing: int) -> str:
    said = "Time: " if night.round_end == "time" else f"Round {night.round} is over: "
    if not playing:
        return said + "every table had finished."
    return said + (f"{playing} tables stopped where they stood." if playing > 1 else "1 table stopped where it stood.")


@bp.post("/<int:night_id>/close")
def close(night_id: int):
    return _director_action(night_id, club.close_night, lambda night, done: " ".join(filter(None, (
        "The night is closed: these are the final standings. A result you correct from now on is shown beside "
        "its table, and the standings follow it.", results.publish(night_id)))),
        unconfirmed=forms.read_unconfirmed(request.form))


@bp.post("/<int:night_id>/remove")
def remove(night_id: int):
    """A night that never started goes, with its entrants: it leaves its season."""
    night = directed(night_id)
    try:
        name = club.remove_night(get_db(), night_id)
    except Declined as refusal:
        return page.director_page(night, message=str(refusal), status=refusal.status_hint)
    flash(f"{name} is removed: it never started, and it counts in no season.")
    return redirect(url_for("club.nights"), 303)


@bp.post("/<int:night_id>/standings/hidden")
def hide_standings(night_id: int):
    """The standings on the wall and the phones are hidden until the director reveals them, or revealed."""
    directed(night_id)
    hidden = request.form.get("hidden") == "1"
    club.hide_standings(get_db(), night_id, hidden)
    flash("The standings are hidden from the wall and the phones until you reveal them." if hidden else
          "The standings are revealed: the wall and the phones show them now.")
    return redirect(url_for("club.director", night_id=night_id) + "#director-standings", 303)


@bp.post("/<int:night_id>/claims/<int:player_id>/release")
def release(night_id: int, player_id: int):
    directed(night_id)
    player = club.player(get_db(), player_id)
    try:
        released = club.release_name(get_db(), night_id, player_id)
    except Declined as refusal:
        return page.director_page(night_or_404(night_id), message=str(refusal), status=refusal.status_hint)
    name = player["name"] if player else "That name"
    flash(f"{name} is released: the phone that held it follows nobody now, and {name} can be tapped on any phone."
          if released else f"{name} was not claimed (released already, from another tab or phone).")
    return redirect(url_for("club.director", night_id=night_id) + "#claims", 303)


@bp.get("/<int:night_id>/claims/<int:player_id>/release")
@bp.get("/<int:night_id>/remove")
@bp.get("/<int:night_id>/standings/hidden")
@bp.get("/<int:night_id>/register")
@bp.get("/<int:night_id>/start")
@bp.get("/<int:night_id>/end")
@bp.get("/<int:night_id>/close")
@bp.get("/<int:night_id>/tables/<int:table_id>/result")
def director_form_address(night_id: int, table_id: int | None = None, player_id: int | None = None):
    """A director's form address opened as a page (a reload or a restored tab after a refused form): the
    director's page, where the form is."""
    return redirect(url_for("club.director", night_id=night_id), 303)


@bp.get("/new")
def new_form_address():
    return redirect(url_for("club.nights"), 303)


@bp.get("/<int:night_id>/tables/<int:table_id>/confirm")
def confirm_form_address(night_id: int, table_id: int):
    return redirect(url_for("club.me", night_id=night_id), 303)


@bp.post("/<int:night_id>/tables/<int:table_id>/result")
def change_result(night_id: int, table_id: int):
    night = directed(night_id)
    typed, score, note, errors = forms.read_result(request.form, table_id)
    if errors:
        return page.director_page(night, typed, errors, status=422)
    try:
        done = club.change_result(get_db(), night_id, table_id, score, note)
    except Declined as refusal:
        errors = {f"{k}_{table_id}": v for k, v in refusal.errors.items()}
        return page.director_page(night, typed, errors, str(refusal) or None, refusal.status_hint)
    flash(page.corrected_words(done))
    results.publish_corrected(night, done)
    return redirect(url_for("club.director", night_id=night_id) + f"#table-{table_id}", 303)


@bp.get("/<int:night_id>/cards")
def cards(night_id: int):
    """A card a table, with the QR code a phone scans to say who is sitting there."""
    night = directed(night_id)
    count = club.table_count(get_db(), night)
    cards = []
    base = page.phones_base()
    for number in range(1, count + 1):
        address = base + url_for("club.table", night_id=night_id, table_no=number)
        cards.append({"number": number, "address": address,
                      "qr": qr_data_uri(address, scale=5)})
    return render_template("club/cards.html", night=night, cards=cards, reachable=page.phones_reach())


@bp.get("/<int:night_id>/chart")
def chart(night_id: int):
    """The whole night's rotation chart, to print: every round, table by table, and who sits out."""
    night = directed(night_id)
    return render_template("club/chart.html", night=night, chart=club_paper.rotation_chart(get_db(), night),
                           round_words=round_words(night.round_end, night.round_size))


@bp.get("/<int:night_id>/game-cards")
def game_cards(night_id: int):
    """A card for each player, to print and hand out: their table and seat every round, so a dead phone never
    stops a table."""
    night = directed(night_id)
    return render_template("club/game_cards.html", night=night, cards=club_paper.game_cards(get_db(), night),
                           round_words=round_words(night.round_end, night.round_size))


# --- at the table --------------------------------------------------------------------------------------------

@bp.get("/<int:night_id>/tables/<int:table_no>")
def table(night_id: int, table_no: int):
    """What a table card's QR code opens: tap who you are, and the phone follows you all night."""
    return _table_page(night_or_404(night_id), table_no)


def _table_page(night, table_no: int, message: str | None = None, status: int = 200):
    count = club.table_count(get_db(), night)
    if not 1 <= table_no <= max(count, 1):  # table 1 always: where a phone that has chosen nobody is sent
        return render_template("error.html", title="No such table",
                               message=_no_table_words(night, table_no, count)), 404
    here = next((t for t in club.tables(get_db(), night.id, night.round) if t.table_no == table_no), None)
    entrants = club.entrants(get_db(), night.id)
    # a player with a bye sits at no table, and finds their name at any: their phone says they sit out; so does
    # one who arrived for a round to come (or has left): their phone says when they play
    byes = {name for e in club.round_byes(get_db(), night, entrants) for name in e.player_names}
    if night.round:
        byes |= {name for e in entrants if not e.present(night.round) for name in e.player_names}
    # a name claimed on a phone says so: its player, if that is not their phone, asks the director
    claimed = {c.player_id for c in club.claims(get_db(), night.id)}
    return render_template("club/table.html", night=night, table_no=table_no, here=here, byes=byes,
                           message=message, entrants=entrants, claimed=claimed), status


@bp.post("/<int:night_id>/me")
def choose_me(night_id: int):
    night = night_or_404(night_id)
    player_id = record_id(request.form.get("player"))
    player = club.player(get_db(), player_id) if player_id is not None else None
    if player is None:
        abort(404)
    table_no = record_id(request.form.get("table")) or 1
    if not _registered(night_id, player_id):
        # the phone keeps whoever it followed before: a stranger's tap changes nothing
        return _not_registered(night, player["name"], table_no)
    try:
        club.claim_name(get_db(), night_id, player_id, _phone(create=True))
    except Declined as refusal:
        return _table_page(night, table_no, str(refusal), refusal.status_hint)
    remember("club_me", night, player_id, 10)
    return redirect(url_for("club.me", night_id=night_id), 303)


def _phone(create: bool = False) -> str | None:
    """This phone's mark: drawn once, kept in its session, and claimed names are held by it (the database keeps
    only its hash)."""
    mark = session.get("club_phone")
    if not isinstance(mark, str) and create:
        mark = session["club_phone"] = secrets.token_urlsafe(18)
    return mark if isinstance(mark, str) else None


def _registered(night_id: int, player_id: int) -> bool:
    return any(player_id in e.player_ids for e in club.entrants(get_db(), night_id))


def _not_registered(night, name: str, table_no: int):
    return _table_page(night, table_no, f"{name} is not registered tonight: tap a name the director registered, "
                                        "or ask the director to register you.", 422)


def _no_table_words(night, table_no: int, count: int) -> str:
    tables = "no tables yet" if not count else "one table" if count == 1 else f"tables 1 to {count}"
    return (f"{night.name} has {tables}, and no table {table_no}. Scan the code on your own table's card, or ask "
            "the director which table is yours.")


def _me(night) -> int | None:
    """The player this phone chose on this night ("I am ..."), if it chose one on this very night and still holds
    that name's claim (the director may have released it)."""
    me = recalled("club_me", night)
    if not isinstance(me, int) or not club.holds(get_db(), night.id, me, _phone()):
        return None
    return me


def _me_context(night) -> dict:
    me = _me(night)
    db = get_db()
    player = club.player(db, me) if me else None
    seat = club.seat_of(db, night, me) if player else None
    shown = night.closed_at and not night.standings_hidden  # hidden until the director reveals them
    finished = club.place_of(db, night, me) if player and shown else None
    return {"night": night, "player": player, "seat": seat, "poll": current_app.config["POLL_SECONDS"],
            "time_up": page.time_up_of(night), "finished": finished, "bye_worth": page.bye_worth(night)}


@bp.get("/<int:night_id>/me")
def me(night_id: int):
    night = night_or_404(night_id)
    context = _me_context(night)
    if context["player"] is None:
        return redirect(url_for("club.table", night_id=night_id, table_no=1), 303)
    if not _registered(night_id, context["player"]["id"]):
        return _not_registered(night, context["player"]["name"], 1)
    return render_template("club/me.html", etag=club.seat_etag(get_db(), night_id, _me(night)),
                           **context)


@bp.get("/<int:night_id>/me/live")
def me_live(night_id: int):
    """The phone's poll: 304 while the night is as it was, else its seat card afresh."""
    night = night_or_404(night_id)
    return _live(night_id, lambda night, etag: render_template("club/_seat.html", is_live_update=True, etag=etag,
                                                                **_me_context(night)),
                 etag=club.seat_etag(get_db(), night_id, _me(night)))


@bp.post("/<int:night_id>/tables/<int:table_id>/confirm")
def confirm(night_id: int, table_id: int):
    night = night_or_404(night_id)
    try:
        done = club.confirm(get_db(), table_id, _me(night), _phone())
    except Declined as refusal:
        if refusal.status_hint == 404:
            abort(404)
        context = _me_context(night_or_404(night_id))
        if context["player"] is None:
            return render_template("error.html", title="Not saved", message=str(refusal)), refusal.status_hint
        return render_template("club/me.html", message=str(refusal), **context,
                               etag=club.seat_etag(get_db(), night_id, _me(night))), refusal.status_hint
    flash("Already confirmed: the score stands." if done.already else
          f"Table {done.table_no}'s score is confirmed: only the director can change it now.")
    return redirect(url_for("club.me", night_id=night_id), 303)


# --- the standings -------------------------------------------------------------------------------------------

def _standings(night):
    return club.night_standings(get_db(), night)


def _live(night_id: int, render, etag=None):
    """A poll's answer: 304 while `etag` (by default the whole night's) is what the page has, else `render`'s
    fragments. The ETag is read before the page is made, so a change in between is sent again, never lost."""
    if etag is None:
        etag = club.night_etag(get_db(), night_id)
    if etag is None:
        abort(404)
    if request.headers.get("If-None-Match") == etag:
        response = current_app.response_class(status=304)
        response.headers["ETag"] = etag
        return response
    response = vary_on_htmx(render(night_or_404(night_id), etag))
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


bp.add_app_template_filter(words.ordinal, "ordinal")


@bp.app_template_filter("clock_time")
def clock_time(stamp: str) -> str:
    """A time of tonight as a clock on the wall says it ("13:53", "00:12", local); another day's with its date.
    Tonight is Scorepad's evening, 06:00 to 06:00, not the calendar's day."""
    return clock_words(house_time.local(datetime.fromisoformat(stamp)), house_time.local(page.now()))


def _wall_context(night) -> dict:
    db = get_db()
    tables = club.tables(db, night.id)  # once: the standings and the tables still playing both read them
    # hidden from the wall even on the director's own screen: the wall is the room's
    return {"night": night, "places": [] if night.standings_hidden else club.night_standings(db, night,
                                                                                             tables=tables),
            "bye_worth": page.bye_worth(night),
            "playing": [t.table_no for t in tables if t.round == night.round and not t.over],
            "poll": current_app.config["POLL_SECONDS"], "round_words": round_words(night.round_end, night.round_size),
            "tie_words": [TIE_BREAKS[k] for k in night.tie_breaks], "time_up": page.time_up_of(night)}


@bp.get("/<int:night_id>/wall")
def wall(night_id: int):
    return render_template("club/wall.html", **_wall_context(night_or_404(night_id)))


@bp.get("/<int:night_id>/wall/live")
def wall_live(night_id: int):
    return _live(night_id, lambda night, etag: render_template("club/_wall_live.html", is_live_update=True,
                                                                etag=etag, **_wall_context(night)))


@bp.get("/<int:night_id>/standings.csv")
def standings_csv(night_id: int):
    night = shown_night(night_id)
    return _download(club.standings_csv(_standings(night)), f"club-night-{night_id}-standings.csv", "text/csv")


@bp.get("/<int:night_id>/standings.json")
def standings_json(night_id: int):
    import json

    night = shown_night(night_id)
    return _download(json.dumps(club.standings_document(night, _standings(night)), indent=1),
                     f"club-night-{night_id}-standings.json", "application/json")


def _download(body: str, filename: str, mimetype: str):
    response = current_app.response_class(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --- looking back --------------------------------------------------------------------------------------------

@bp.get("/<int:night_id>")
def show(night_id: int):
    """The night as history keeps it: its standings, and each round's tables with their games."""
    night = night_or_404(night_id)
    db = get_db()
    entrants = club.entrants(db, night_id)
    tables = club.tables(db, night_id)
    rounds: dict[int, list] = {}
    for t in tables:
        rounds.setdefault(t.round, []).append(t)
    directs = directing(night)
    shown = directs or not night.standings_hidden
    return render_template("club/night.html", night=night, rounds=rounds, entrants=entrants,
                           places=club.night_standings(db, night, entrants, tables) if shown else None,
                           changes=club.result_changes(db, night_id),
                           round_words=round_words(night.round_end, night.round_size),
                           directing=directs, specials=seasons.night_specials(db, night),
                           prizes=seasons.night_prizes(db, night) if shown else None,
                           season=seasons.season_of(db, night), ending_words=club.ending_words,
                           bye_worth=page.bye_worth(night))
