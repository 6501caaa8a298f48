"""Games: start one, record hands, correct them, watch the score. Views parse, call the core, store, render."""

from __future__ import annotations

import secrets
import sqlite3

from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, session, url_for

from .. import store
from ..errors import GameOver, InvalidHand
from ..inputs import record_id, try_whole_number
from ..rules import PRESETS, describe
from ..scoring import Hand, auto_throw_in_reason, score_hand
from ..seats import SEAT_NAMES, dealer_for
from .assets import asset_url
from .database import get_db
from .faults import refused
from .forms import (
    HAND_FIELDS,
    HOUSE_RULES,
    CsrfForm,
    bidder_of,
    hand_values,
    new_game_values,
    parse_hand,
    parse_new_game,
)
from .htmx import is_htmx, vary_on_htmx
from .sheet import build_sheet

bp = Blueprint("games", __name__, url_prefix="/games")

BLANK_HAND = {**dict.fromkeys(HAND_FIELDS, ""), "kind": "played"}


# --- home and new game ---------------------------------------------------------------------------------------

def home():
    db = get_db()
    return render_template("home.html", playing=store.list_games(db, finished=False),
                           finished=store.list_games(db, finished=True, limit=10))


def manifest():
    return jsonify({
        "name": "Scorepad", "short_name": "Scorepad", "start_url": url_for("home"), "display": "standalone",
        "background_color": "#0f3d2e", "theme_color": "#0f3d2e",
        "description": "Pinochle score keeper for the kitchen table.",
        "icons": [{"src": asset_url("icon.svg"), "sizes": "any", "type": "image/svg+xml"},
                  {"src": asset_url("icon-192.png"), "sizes": "192x192", "type": "image/png"},
                  {"src": asset_url("icon-512.png"), "sizes": "512x512", "type": "image/png"}],
    })


def _new_game_page(values, errors, status=200):
    return render_template("new_game.html", values=values, errors=errors, presets=PRESETS,
                           house_rules=HOUSE_RULES, seats=SEAT_NAMES, known_players=store.player_names(get_db()),
                           form=CsrfForm()), status


@bp.get("/new")
def new_game():
    return _new_game_page(new_game_values(request.args), {})


@bp.post("/new")
def create_game():
    parsed = parse_new_game(request.form)
    if parsed.errors:
        return _new_game_page(parsed.values, parsed.errors, 422)
    game_id = store.create_game(get_db(), parsed.rules, parsed.teams, parsed.players, parsed.first_dealer)
    return redirect(url_for("games.show", game_id=game_id), 303)


# --- the game page ------------------------------------------------------------------------------------------

def _load(game_id: int):
    game = store.load_game(get_db(), game_id)
    if game is None:
        abort(404)
    return game


def _sheet(game):
    db = get_db()
    return build_sheet(game, store.live_hands(db, game.id), store.hand_history(db, game.id),
                       store.deleted_hands(db, game.id))


def _game_page(game, values=None, errors=None, message=None, status=200, preview=None, fault=None, token=None):
    sheet = _sheet(game)
    values = values if values is not None else _blank_hand(game, request.args)
    return vary_on_htmx(render_template(
        "game.html", game=game, sheet=sheet, values=values, errors=errors or {}, message=message, fault=fault,
        preview=preview if preview is not None else _preview(game, sheet, values), rules_words=describe(game.rules),
        token=token or secrets.token_urlsafe(16), form=CsrfForm(), poll=current_app.config["POLL_SECONDS"]), status)


def _blank_hand(game, args) -> dict:
    """A fresh form: the minimum bid ready, nothing from the last hand. Values carried back from the meld
    calculator (which keeps the form's state in the URL) are filled in."""
    values = {**BLANK_HAND, "bid": str(game.rules.min_bid)}
    for name in values:
        if name in args:
            values[name] = str(args.get(name))[:40]
    return values


@bp.get("/<int:game_id>")
def show(game_id: int):
    game = _load(game_id)
    return _game_page(game)


@bp.get("/<int:game_id>/live")
def live(game_id: int):
    """The phones' poll: 304 while nothing changed, else the fresh scoreboard and sheet as htmx fragments."""
    version = store.game_version(get_db(), game_id)
    if version is None:
        abort(404)
    etag = f'"g{game_id}-v{version}"'
    if request.headers.get("If-None-Match") == etag:
        response = current_app.response_class(status=304)
        response.headers["ETag"] = etag
        return response
    game = _load(game_id)
    # A poll that was on its way while this device saved sees the new version too: that is no news to it.
    news = session.get("wrote") != [game_id, version]
    response = vary_on_htmx(render_template("_live.html", game=game, sheet=_sheet(game), is_live_update=True,
                                            news=news, poll=current_app.config["POLL_SECONDS"]))
    response.headers["ETag"] = game.etag
    response.headers["Cache-Control"] = "no-cache"
    return response


def _preview(game, sheet, values):
    """What the hand would score, as typed so far; None while too little is typed to say anything."""
    if sheet.finished:
        return None
    parsed = parse_hand(values, game.rules, game.first_dealer, len(sheet.rows), game.has_players)
    notes = []
    hand_points = game.rules.hand_points
    c0, c1 = (try_whole_number(values.get(f"counters_{t}"), low=0) for t in (0, 1))
    if values.get("kind", "played") == "played" and c0 is not None and c1 is not None:
        total = c0 + c1
        notes.append(("ok" if total == hand_points else "warn",
                      f"Counters add up to {total} of {hand_points}."))
    if parsed.entry is None:
        hand = _partial_hand(values)
        if hand is not None:
            reason = auto_throw_in_reason(game.rules, hand)
            if reason:
                notes.append(("warn", reason + " No counters are needed."))
        return {"result": None, "notes": notes}
    result = score_hand(game.rules, parsed.entry.hand)
    totals = tuple(a + b for a, b in zip(sheet.state.totals, result.points, strict=True))
    if result.automatic_throw_in:
        notes.append(("warn", result.explanation[0] + " No counters are needed."))
    return {"result": result, "totals": totals, "notes": notes}


def _partial_hand(values):
    """Enough of a hand (bidder, bid, bidders' meld) to tell an automatic throw-in, or None."""
    bidder, _ = bidder_of(values.get("bidder", ""))
    bid = try_whole_number(values.get("bid"))
    typed = [str(values.get(f"meld_{t}") or "").strip() for t in (0, 1)]
    meld = [try_whole_number(text, low=0) if text else 0 for text in typed]  # a blank meld is none at all
    if bidder is None or bid is None or None in meld:
        return None
    return Hand(bidder, bid, tuple(meld), None, values.get("kind") or "played")


@bp.route("/<int:game_id>/preview", methods=["GET", "POST"])
def preview(game_id: int):
    """The live preview (htmx, GET), or without JavaScript the "Check" button (POST): the page with the preview,
    everything typed kept. Nothing is stored either way."""
    game = _load(game_id)
    source = request.form if request.method == "POST" else request.args
    values = {**BLANK_HAND, **{k: str(v)[:40] for k, v in source.items() if k in BLANK_HAND}}
    if not is_htmx():
        return _game_page(game, values=values)
    sheet = _sheet(game)
    return vary_on_htmx(render_template("_preview_body.html", game=game, sheet=sheet,
                                        preview=_preview(game, sheet, values)))


# --- recording, editing, deleting ----------------------------------------------------------------------------

@bp.post("/<int:game_id>/hands")
def record(game_id: int):
    db = get_db()
    game = _load(game_id)
    token = request.form.get("token", "")[:64]
    expected = record_id(request.form.get("expected"))  # the hand this form was opened to record: 1, 2, ...
    if token and store.hand_by_token(db, token):
        flash("That hand was already saved (a second tap or a retry); it is on the sheet once.")
        return redirect(url_for("games.show", game_id=game_id) + "#sheet", 303)
    # the game's kept summary says how many hands and whether it is won: no need to fold the sheet here
    parsed = parse_hand(request.form, game.rules, game.first_dealer, game.hands_count, game.has_players)
    if game.winner is not None:
        return _game_page(game, message="The game is over: it takes no more hands. Edit or delete a hand "
                                        "to reopen it, or start a rematch.", status=409)
    if parsed.errors:
        return _game_page(game, values=parsed.values, errors=parsed.errors, status=422)
    if not token or expected is None:
        return _game_page(game, values=parsed.values, message="This form is incomplete; check the hand and "
                                                              "save it again.", status=422)
    try:
        with store.write_lock(db):
            if store.hand_by_token(db, token):
                raise _AlreadySaved
            count = db.execute("SELECT hands_count FROM games WHERE id = ?", [game_id]).fetchone()[0]
            if count + 1 != int(expected):
                raise _Conflict(count)
            store.insert_hand(db, game_id, token, parsed.entry)
            store.rescore(db, game, store.live_hands(db, game_id))  # a GameOver here undoes the insert
    except _AlreadySaved:
        flash("That hand was already saved (a second tap or a retry); it is on the sheet once.")
        return redirect(url_for("games.show", game_id=game_id) + "#sheet", 303)
    except _Conflict as conflict:
        game = _load(game_id)
        return _game_page(game, values=parsed.values, status=409, message=_conflict_words(conflict.count,
                                                                                           int(expected)))
    except GameOver:
        game = _load(game_id)
        return _game_page(game, message="The game is over: it takes no more hands.", status=409)
    except sqlite3.OperationalError as error:
        # the same token: if the hand did reach the disk after all, tapping again says so and stores nothing
        fault = refused(error)
        return _game_page(game, values=parsed.values, status=fault.status, token=token, fault=fault.sentence(
            "this hand was NOT saved", "tap Record again — it will be saved once"))
    _wrote(game_id, game.winner is not None)
    return redirect(url_for("games.show", game_id=game_id) + "#sheet", 303)


def _wrote(game_id: int, was_won: bool) -> None:
    """Remember the version this device's own change made, so its poll does not announce it as news; and when
    the game's end changed, refresh its players' records before anyone looks."""
    db = get_db()
    try:
        session["wrote"] = [game_id, store.game_version(db, game_id)]
        now_won = store.load_game(db, game_id).winner is not None
        if (was_won or now_won) and not current_app.testing:
            store.warm_in_background(current_app.config["DATABASE"], store.seated_players(db, game_id))
    except sqlite3.OperationalError:
        pass  # the change is committed: a page saying it was not saved would be wrong; the poll calls it news


def _conflict_words(count: int, expected: int) -> str:
    """Why a new hand was refused: the sheet has another number of hands than the form was opened on."""
    if count + 1 > expected:
        return (f"Hand {expected} was just recorded on another phone: it is on the sheet below. If yours is "
                f"a different hand, save it again as hand {count + 1}.")
    return (f"A hand was just deleted on another phone, so this one is now hand {count + 1}. Check the sheet "
            f"below, then save it again as hand {count + 1}.")


class _AlreadySaved(Exception):
    pass


class _Conflict(Exception):
    def __init__(self, count: int):
        self.count = count


def _find(sheet, hand_id: int):
    for row in sheet.rows:
        if row.stored.id == hand_id:
            return row
    abort(404)


def _hand_in_game(game_id: int, hand_id: int):
    """(game, sheet, row) for a live hand of a game, or 404."""
    game = _load(game_id)
    sheet = _sheet(game)
    return game, sheet, _find(sheet, hand_id)


def _hand_to_change(game_id: int, hand_id: int):
    """`_hand_in_game`, for a change: a hand of the game that another phone deleted raises HandDeleted."""
    game = _load(game_id)
    sheet = _sheet(game)
    if any(deleted["id"] == hand_id for deleted in sheet.deleted):
        raise store.HandDeleted(hand_id)
    return game, sheet, _find(sheet, hand_id)


def _entry(row) -> store.HandEntry:
    return store.HandEntry(row.hand, row.stored.trump, row.stored.bidder_seat)


def _edit_page(game, sheet, row, values, errors=None, message=None, status=200, fault=None, edits_seen=None):
    """The edit form; `edits_seen` is how many edits the hand had when the form was first opened, kept
    through refusals so that a change made meanwhile on another phone is noticed."""
    return render_template("edit_hand.html", game=game, sheet=sheet, row=row, values=values,
                           errors=errors or {}, message=message, fault=fault, form=CsrfForm(),
                           edits_seen=row.stored.edits if edits_seen is None else edits_seen), status


@bp.get("/<int:game_id>/hands/<int:hand_id>/edit")
def edit_hand(game_id: int, hand_id: int):
    game, sheet, row = _hand_in_game(game_id, hand_id)
    return _edit_page(game, sheet, row, hand_values(_entry(row)))


@bp.post("/<int:game_id>/hands/<int:hand_id>/edit")
def save_hand(game_id: int, hand_id: int):
    try:
        return _save_hand(game_id, hand_id)
    except (store.HandDeleted, store.HandChanged):
        return _stale_edit(game_id, hand_id)


def _save_hand(game_id: int, hand_id: int):
    db = get_db()
    game, sheet, row = _hand_to_change(game_id, hand_id)
    parsed = parse_hand(request.form, game.rules, game.first_dealer, row.number - 1, game.has_players)
    # a form from before this field existed was opened on the hand as it is now, as far as anyone can tell
    seen = try_whole_number(request.form.get("edits_seen", str(row.stored.edits)), low=0)
    if seen is None:
        return _edit_page(game, sheet, row, parsed.values, status=422, message="This form is incomplete; check "
                                                                               "the hand and save it again.")
    if parsed.errors:
        return _edit_page(game, sheet, row, parsed.values, parsed.errors, status=422, edits_seen=seen)
    before = _entry(row)
    summary = describe_change(before, parsed.entry, game, sheet)
    if not summary:  # nothing to change, or a retry of a change that was saved: either way it is done
        return redirect(url_for("games.show", game_id=game_id) + f"#hand-{hand_id}", 303)
    if seen != row.stored.edits:
        raise store.HandChanged(hand_id)
    try:
        with store.write_lock(db):
            store.update_hand(db, hand_id, parsed.entry, summary, before, edits_seen=seen)
            store.rescore(db, game, store.live_hands(db, game_id))  # a GameOver here undoes the change
    except GameOver:
        return _edit_page(game, sheet, row, parsed.values, status=409, edits_seen=seen, message=(
            "With this change the game would be won before the last hands on the sheet. Delete the hands "
            "after the winning one first, then make this change."))
    except InvalidHand as exc:
        return _edit_page(game, sheet, row, parsed.values, exc.errors, status=422, edits_seen=seen)
    except sqlite3.OperationalError as error:
        fault = refused(error)
        return _edit_page(game, sheet, row, parsed.values, status=fault.status, edits_seen=seen,
                          fault=fault.sentence("this change was NOT saved", "tap Save changes again"))
    _wrote(game_id, game.winner is not None)
    flash(f"Hand {row.number} changed: {summary}")
    return redirect(url_for("games.show", game_id=game_id) + f"#hand-{hand_id}", 303)


def _stale_edit(game_id: int, hand_id: int):
    """409 for an edit of a hand that another phone changed or deleted after this form was opened: the hand as
    it is now, or the sheet without it. Nothing this phone typed is written over what it never saw."""
    try:
        game, sheet, row = _hand_to_change(game_id, hand_id)
    except store.HandDeleted:
        return _game_page(_load(game_id), status=409, message=(
            "The hand you were editing was just deleted on another phone: your change was NOT saved. The sheet "
            "below is as it is now."))
    latest = f" ({row.history[-1]['summary']})" if row.history else ""
    return _edit_page(game, sheet, row, hand_values(_entry(row)), status=409, message=(
        f"Hand {row.number} was just changed on another phone{latest}. This is the hand as it is now: your "
        f"change was NOT saved. Make it again if it is still needed."))


@bp.get("/<int:game_id>/hands/<int:hand_id>/detail")
def hand_detail(game_id: int, hand_id: int):
    """One sheet row's story, for htmx to put in when the row is opened."""
    game, sheet, row = _hand_in_game(game_id, hand_id)
    return vary_on_htmx(render_template("_hand_detail.html", game=game, sheet=sheet, row=row,
                                        readonly=request.args.get("readonly") == "1"))


def _delete_page(game, sheet, row, message=None, status=200, fault=None):
    return render_template("delete_hand.html", game=game, sheet=sheet, row=row, form=CsrfForm(),
                           message=message, fault=fault), status


@bp.get("/<int:game_id>/hands/<int:hand_id>/delete")
def confirm_delete(game_id: int, hand_id: int):
    game, sheet, row = _hand_in_game(game_id, hand_id)
    return _delete_page(game, sheet, row)


@bp.post("/<int:game_id>/hands/<int:hand_id>/delete")
def delete_hand(game_id: int, hand_id: int):
    try:
        return _delete(*_hand_to_change(game_id, hand_id))
    except store.HandDeleted:  # by another phone, or by this one's first tap: either way it is done, once
        flash("That hand was already deleted (on another phone, or by a second tap). Its record stays in the "
              "history below the sheet.")
        return redirect(url_for("games.show", game_id=game_id) + "#sheet", 303)


def _delete(game, sheet, row):
    db = get_db()
    try:
        with store.write_lock(db):
            store.delete_hand(db, row.stored.id)
            store.rescore(db, game, store.live_hands(db, game.id))  # a GameOver here undoes the delete
    except GameOver:
        return _delete_page(game, sheet, row, status=409, message=(
            "Without this hand the game would be won before the last hands on the sheet. Delete the later "
            "hands first."))
    except sqlite3.OperationalError as error:
        fault = refused(error)
        return _delete_page(game, sheet, row, status=fault.status,
                            fault=fault.sentence("the hand was NOT deleted", "tap Delete again"))
    _wrote(game.id, game.winner is not None)
    flash(f"Hand {row.number} deleted. Its record stays in the history below the sheet.")
    return redirect(url_for("games.show", game_id=game.id) + "#sheet", 303)


@bp.post("/<int:game_id>/rematch")
def rematch(game_id: int):
    db = get_db()
    game = _load(game_id)
    next_dealer = dealer_for(game.first_dealer, game.hands_count)
    with store.write_lock(db):  # two phones tapping Rematch together start one game, not two
        existing = store.rematch_for(db, game.id)
        new_id = existing or store.create_game(db, game.rules, game.teams, game.players, next_dealer,
                                               rematch_of=game.id)
    if existing:
        flash("The rematch was already started (on another phone, or by a second tap): here it is.")
    return redirect(url_for("games.show", game_id=new_id), 303)


# --- words for a change -------------------------------------------------------------------------------------

def describe_change(before, after, game, sheet) -> str:
    """'Bid 55 → 60; Counters 25 : 25 → 28 : 22' — what an edit changed, for the hand's history."""
    a, b = hand_values(before), hand_values(after)
    teams = game.teams
    words = []

    def bidder_word(v):
        if v.startswith("s"):
            return sheet.seat(int(v[1]))
        return teams[int(v[1])] if v.startswith("t") else "—"

    labels = [("kind", "Kind", lambda v: v.replace("_", " ")), ("bidder", "Bidder", bidder_word),
              ("bid", "Bid", str), ("trump", "Trump", lambda v: v or "none"),
              ("renege_team", "Reneged", lambda v: teams[int(v)] if v else "—"),
              ("forced", "Dealer stuck", lambda v: "yes" if v else "no")]
    for name, label, show in labels:
        if a[name] != b[name]:
            words.append(f"{label} {show(a[name])} → {show(b[name])}")
    for name, label in (("meld", "Meld"), ("counters", "Counters")):
        old = (a[f"{name}_0"], a[f"{name}_1"])
        new = (b[f"{name}_0"], b[f"{name}_1"])
        if old != new:
            words.append(f"{label} {old[0] or '—'} : {old[1] or '—'} → {new[0] or '—'} : {new[1] or '—'}")
    return "; ".join(words)


