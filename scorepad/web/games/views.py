"""Games: start one, record hands, correct them, watch the score. Each view parses the request, calls one use
case of `services`, and renders or redirects; a refusal is answered with the status its error hints."""

from __future__ import annotations

import secrets
import sqlite3
from datetime import UTC, datetime
from functools import lru_cache
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from ... import services
from ...core import words
from ...core.club.specials import SHORT as SPECIAL_SHORT
from ...core.club.specials import SPECIALS, TALLIED
from ...core.inputs import record_id, try_whole_number
from ...core.rules import PRESETS, SIX_PLAYER_PRESETS, cards_left_over, deals_evenly, seated
from ...core.rules_in_words import describe
from ...core.seats import seat_names
from ...services import (
    Declined,
    GameGone,
    HandChangedElsewhere,
    HandElsewhere,
    HandGone,
    HandTaken,
    LooksRepeated,
    MeldUnlikely,
    WinTakenAway,
    lookups,
    pages,
)
from ..shell import kept_pages
from ..shell.answers import answered
from ..shell.assets import asset_url
from ..shell.database import get_db
from ..shell.faults import refused
from ..shell.htmx import from_the_outbox, is_htmx, is_htmx_form, vary_on_htmx
from .forms import (
    DEFAULT_SEATING,
    HAND_FIELDS,
    HOUSE_RULES,
    SEATING_CHOICES,
    TEAM_PLACEHOLDERS,
    changed_over,
    edits_seen,
    filled_from,
    following,
    hand_values,
    kept,
    new_game_values,
    parse_hand,
    parse_new_game,
    preset_fits,
    seating_of,
)
from .unchanged_polls import UNCHANGED_HEADERS

bp = Blueprint("games", __name__, url_prefix="/games")

BLANK_HAND = {**dict.fromkeys(HAND_FIELDS, ""), "kind": "played"}
ALREADY_SAVED = "That hand was already saved (a second tap or a retry); it is on the sheet once."
ALREADY_DELETED = ("That hand was already deleted (on another phone, or by a second tap). Its record stays in the "
                   "history below the sheet.")


# --- home and new game ---------------------------------------------------------------------------------------

def home():
    db = get_db()

    def listed() -> dict:  # read only when the page must be rendered: a function of the lists
        finished = lookups.listed_games(db, finished=True, limit=10)
        return {"playing": lookups.listed_games(db, finished=False), "finished": finished,
                "club_games": lookups.club_tables_of(db, [g.id for g in finished])}

    return kept_pages.render("games/home.html", versions=lookups.lists_versions(db), line=lookups.LISTS_LINE,
                             build=listed)


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
    """The new-game form for the table `values` names (two teams of two by default): the rule sets that fit it,
    its teams and its seats."""
    sides, per_side = seating_of(values["seating"]) or seating_of(DEFAULT_SEATING)
    fitting = [(key, seated(rules, sides, per_side)) for key, rules in PRESETS.items()
               if preset_fits(key, values["seating"])]
    # the rule sets written for this very table come first (the three decks for six), then those whose deck deals
    # evenly to it (six players are offered the single deck before 80 cards that leave two over), then the rest;
    # a lone player's rule set written for another number of players last. The first one is ready to start.
    def offered_order(item):
        preset = PRESETS[item[0]]
        elsewhere = preset.players_per_side == 1 and (preset.sides, preset.players_per_side) != (sides, per_side)
        return elsewhere, item[0] not in SIX_PLAYER_PRESETS, not deals_evenly(item[1])

    presets = dict(sorted(fitting, key=offered_order))
    presets = presets or PRESETS
    if values["preset"] not in presets or not request.values.get("preset"):  # none chosen: the first is ready
        values = {**values, "preset": next(iter(presets))}
    return render_template("games/new_game.html", values=values, errors=errors, presets=presets,
                           seatings=SEATING_CHOICES, sides=sides, per_side=per_side,
                           team_placeholders=TEAM_PLACEHOLDERS,
                           house_rules=HOUSE_RULES, seats=seat_names(sides * per_side), left_over=cards_left_over,
                           deals_evenly=deals_evenly,
                           player_fields=[f"player_{seat}" for seat in range(sides * per_side)],
                           known_players=lookups.player_names(get_db())), status


@bp.get("/new")
def new_game():
    return _new_game_page(new_game_values(request.args), {})


@bp.post("/new")
def create_game():
    parsed = parse_new_game(request.form)
    if parsed.errors:
        return _new_game_page(parsed.values, parsed.errors, 422)
    game_id = services.start_game(get_db(), parsed.rules, parsed.teams, parsed.players, parsed.first_dealer)
    return redirect(url_for("games.show", game_id=game_id), 303)


# --- the game page ------------------------------------------------------------------------------------------

# What a phone is told of a game that is not there: a hand kept on it through a restore of an older backup says so
GAME_GONE = ("This game is not on this Scorepad (any more): it may have been put back from a backup taken before "
             "it. Nothing was saved to it.")
# ... and a phone whose open page of it asks for news
GAME_GONE_HERE = ("This game is not on this Scorepad any more: a backup taken before it was put back. The sheet "
                  "below is how it stood; a hand typed here cannot be saved to it.")


def _load(game_id: int):
    """The game as it is now, to read a form by its rules; 404 when there is none."""
    game = pages.current_game(get_db(), game_id)
    if game is None:
        abort(404, description=GAME_GONE)
    return game


def _page(game_id: int) -> pages.GamePage:
    """The game and its sheet as they are now (built once per version of the game: see `services.pages`)."""
    page = pages.game_page(get_db(), game_id)
    if page is None:
        abort(404, description=GAME_GONE)
    return page


def _game_page(page, values=None, errors=None, message=None, status=200, fault=None, token=None, saved=None,
               clash=None, repeat=None, carried=False, behind=False, unlikely=None, answer=None, plain=False,
               checking=False):
    """The game page. `clash`: the hand number a form was started for that another phone recorded meanwhile
    (the two-phone question takes the form's place); `repeat`: the number of the hand the one typed repeats
    (the form asks whether to record it anyway); `unlikely`: why a meld typed is more than a hand can meld (asked
    the same way); `carried`: `values` are a change to a hand deleted meanwhile,
    kept in the form for the next hand (nothing typed is lost); `behind`: the form was started for a later hand
    than the sheet now takes (a hand was deleted on another phone), which a phone keeping it waits out.
    `answer`: the kind of answer the page is to a change (see `shell.answers`), said in its header. `plain`: the
    page answers a plain look (see `show`), which finds it again before reading the game, unless the game is a
    club table's (what its round did is not the game's version). `checking`: the page answers Check (the preview
    without JavaScript): what is wrong is said as what stops the hand being saved, not as a save refused."""
    game, sheet = page.game, page.sheet
    values = values if values is not None else _blank_hand(game, request.args)
    club = _club_table(game, sheet)
    token = token or secrets.token_urlsafe(16)
    context = dict(game=game, sheet=sheet, values=values, errors=errors or {}, message=message,
                   fault=fault, preview=_preview(game, values), rules_words=_rules_words(game.rules),
                   poll=current_app.config["POLL_SECONDS"], carried=carried, behind=behind,
                   saved=_saved_note(game, sheet, saved), club=club, readonly=_round_over(club), repeat=repeat,
                   unlikely=unlikely, answer=answer, checking=checking, **_specials(game, club))
    if clash:  # the two-phone question carries the form's token in its answers: rendered for this request only
        response = vary_on_htmx(render_template("games/game.html", token=token, **context,
                                                clash=_clash(game, sheet, clash, values, token, club)), status)
    elif context["saved"]:  # what a save just did is said once, to one phone: no look will ask for this page again
        kept_pages.said_once("games/game.html", versions=pages.versions(get_db(), page), line=pages.LINE)
        response = vary_on_htmx(render_template("games/game.html", token=token, clash=None, plain=False, **context),
                                status)
    else:
        response = vary_on_htmx(kept_pages.render("games/game.html", versions=pages.versions(get_db(), page),
                                                  line=pages.LINE, covered=GAME_COVERED, slots={"token": token},
                                                  clash=None,
                                                  plain=plain and club is None, **context), status)
    return answered(response, answer) if answer else response


# What a game's page is built from that its version stands for (the game, its sheet, its rules in words, and the
# preview of a form, which the form's values in the key decide)
GAME_COVERED = ("game", "sheet", "rules_words", "preview", "row")
_rules_words = lru_cache(maxsize=64)(describe)  # a rule set's words: the same every time it is asked


def _specials(game, club) -> dict:
    """A club table's specials for its hand form, and those the meld count just saw in the cards (`shows`)."""
    if club is None or club.over:
        return {"specials": None}
    shows = tuple(k for k in str(request.args.get("shows", "")).split(",") if k in TALLIED)
    team = try_whole_number(request.args.get("shows_team"), low=0, high=game.rules.sides - 1)
    return {"specials": services.seasons.table_specials(get_db(), game.id), "shows": shows, "shows_team": team,
            "special_names": SPECIALS, "special_short": SPECIAL_SHORT}


def _clash(game, sheet, number: int, values: dict, token: str, club) -> dict | None:
    """The two-phone question about hand `number`: the hand on the sheet beside the one typed here, and what
    each answer sends. None when the sheet has no such hand (any more). The hand typed here is compared as "mine
    is right" would make it: what it leaves blank is the other phone's (see `forms.filled_from`: all of it while
    the hand is still being typed, a blank meld box even in a hand that scores as typed)."""
    if not 1 <= number <= len(sheet.rows):
        return None
    row = sheet.rows[number - 1]
    typed = parse_hand(values, game.rules, game.has_players)
    as_typed = services.preview_edit(get_db(), game.id, row.stored.id, typed.hand, unreadable=typed.unreadable,
                                     typed_counters=typed.typed_counters)
    mine = filled_from(values, hand_values(row.hand), whole=as_typed.result is not None)
    mine_hand = parse_hand(mine, game.rules, game.has_players).hand
    lines = services.compare_hands(row.hand, mine_hand, game, typed.hand)
    # what "mine is right" would do to a win the other phone's hand made: said with that answer, and the answer
    # says yes to it (asked once, here, not again on an edit page the question sends to)
    reopens = (as_typed if mine == values else
               services.preview_edit(get_db(), game.id, row.stored.id, mine_hand)).win_moved
    open_for_more = not (sheet.finished or game.abandoned_at or (club and club.over))
    # a hand still being typed (no counters yet) is not saved by "keep it as the next hand": it goes on in the form
    # (and a game the other phone's hand has just won takes no next hand at all: nothing to preview)
    preview = _preview(game, values) if open_for_more else None
    complete = preview is not None and preview.result is not None
    return {"number": number, "row": row, "lines": lines, "differs": any(line.differs for line in lines),
            "values": {name: value for name, value in values.items() if value}, "token": token,
            "mine": {name: value for name, value in mine.items() if value}, "filled": mine != values,
            "next": sheet.next_number, "open": open_for_more, "complete": complete, "reopens": reopens}


def _round_over(club) -> bool:
    """A club table's game whose round is over: its hands are shown, with nothing offered to change them."""
    return club is not None and club.kept


def _club_table(game, sheet) -> services.club.TableOutcome | None:
    """The club table the game is played at, and what happened there once its round is over; None for a game
    of no club night (see `services.club.table_outcome`)."""
    return services.club.table_outcome(get_db(), game.id, game.teams, sheet.finished)


def _saved_note(game, sheet, saved: dict | None) -> dict | None:
    """What the page after a save says it did ("Hand 4 recorded: Us +54, Them +20"), which row it lights up,
    and whether it offers Undo: for a hand just recorded that is still the last one (`undo`: taken back into the
    form), and for a hand just deleted that is still deleted (`restore`: put back in its place)."""
    if not saved or saved.get("game") != game.id:
        return None
    if saved.get("how") == "deleted":
        if not any(d["id"] == saved.get("hand") for d in sheet.deleted):  # put back since, on another phone
            return None
        return {"hand_id": saved.get("hand"), "undo": False, "restore": True,
                "words": f"Hand {saved.get('number')} deleted. Its record stays in the history below the sheet."}
    row = next((row for row in sheet.rows if row.stored.id == saved.get("hand")), None)
    if row is None:  # deleted since, on another phone
        return None
    if saved.get("how") == "changed":
        return {"hand_id": row.stored.id, "words": f"Hand {row.number} changed: {saved.get('summary', '')}",
                "undo": False}
    points = ", ".join(f"{game.teams[t]} {words.signed(row.result.points[t])}" for t in range(game.rules.sides))
    return {"hand_id": row.stored.id, "words": f"Hand {row.number} recorded: {points}",
            "undo": row is sheet.rows[-1]}


def _blank_hand(game, args) -> dict:
    """A fresh form: the minimum bid ready as the bid's placeholder (a blank bid is the minimum), nothing from
    the last hand. Values carried back from the meld calculator (which keeps the form's state in the URL) are
    filled in."""
    values = dict(BLANK_HAND)
    for name in values:
        if name in args:
            values[name] = kept(name, args.get(name))
    return values


@bp.get("/<int:game_id>")
def show(game_id: int):
    # a plain look (no Undo taken back, no rematch followed, nothing just saved on this phone to say) is found kept
    # before the game is read, when it was looked at so since it last changed
    plain = not ({"followed", "undone"} & request.args.keys()) and "saved" not in session
    if plain:
        versions = pages.versions_now(get_db(), game_id)
        if versions is None:
            abort(404)
        found = kept_pages.found("games/game.html", versions=versions, slots={"token": secrets.token_urlsafe(16)})
        if found is not None:
            return vary_on_htmx(found)
    page = _page(game_id)
    followed = record_id(request.args.get("followed"))
    if followed is not None:  # a phone that followed the rematch another phone started: said once, then a plain page
        if followed == page.game.rematch_of:
            same = "Same teams" if page.game.rules.players_per_side > 1 else "Same players"
            flash(f"The rematch was started on another phone: this is it. {same}, next dealer.")
        return redirect(url_for("games.show", game_id=game_id), 303)
    return _game_page(page, values=_taken_back(page, request.args.get("undone")), saved=session.pop("saved", None),
                      plain=plain)


def _taken_back(page, undone) -> dict | None:
    """The form after Undo: the hand taken back, as it was stored (never what a cookie says), to fix and record
    again; None (a blank form) once it is not the next hand any more, or for a hand not undone."""
    hand_id = record_id(undone)
    stored = lookups.deleted_hand(get_db(), page.game.id, hand_id) if hand_id is not None else None
    if stored is None or any(row.stored.seq > stored.seq for row in page.sheet.rows):
        return None
    return {**BLANK_HAND, **hand_values(stored.hand)}


@bp.get("/<int:game_id>/live")
def live(game_id: int):
    """The phones' poll: 304 while nothing changed, else the fresh scoreboard and sheet as htmx fragments, the
    record card as a fresh page has it, and a notice: news from another phone, or that the hand of the form the
    poll names (`X-Hand-Token`) is saved."""
    # the game the page was made for (X-Game; a header, not the address: a form's freshness and a kept page's
    # key read the address's query)
    asked_for = request.headers.get("X-Game", "")[:64] or None
    etag = lookups.game_etag(get_db(), game_id)  # (another game's ETag is another: it names its identity)
    if etag is None:
        return _gone_from_here()
    if request.headers.get("If-None-Match") == etag:
        response = current_app.response_class(status=304, headers=UNCHANGED_HEADERS)
        response.headers["ETag"] = etag
        return response
    page = _page(game_id)
    game, sheet = page.game, page.sheet
    if asked_for is not None and game.uid != asked_for:  # another game, given its number after a restore
        return _gone_from_here()
    saved_here = _saved_from_here(sheet, request.headers.get("X-Hand-Token", "")[:64])
    # A poll that was on its way while this device saved sees the new version too: that is no news to it.
    news = session.get("wrote") != [game_id, game.version] and saved_here is None
    change = lookups.last_change(get_db(), game_id, sheet.rows, datetime.now(UTC)) if news else lookups.NO_CHANGE
    values = _blank_hand(game, {})
    club = _club_table(game, sheet)
    response = vary_on_htmx(kept_pages.render(
        "games/_live.html", versions=pages.versions(get_db(), page), line=pages.LINE, covered=GAME_COVERED,
        slots={"token": secrets.token_urlsafe(16)},
        game=game, sheet=sheet, is_live_update=True, news=news, change=change, saved_here=saved_here,
        values=values, errors={}, preview=_preview(game, values),
        poll=current_app.config["POLL_SECONDS"],
        club=club, readonly=_round_over(club)))
    response.headers["ETag"] = game.etag
    response.headers["Cache-Control"] = "no-cache"
    return response


def _gone_from_here():
    """The poll of a page whose game is not on this Scorepad any more: said on the page, and the page stops asking
    (app.js)."""
    return answered((render_template("error.html", title="This game is gone", message=GAME_GONE_HERE), 404), "gone")


def _saved_from_here(sheet, token: str) -> int | None:
    """The number on the sheet of the hand this phone's form sent (its one-time `token`), once it is stored:
    a save whose answer is late or lost is then known to be saved."""
    found = lookups.hand_by_token(get_db(), token) if token else None
    if found is None or found["game_id"] != sheet.game.id:
        return None
    return next((row.number for row in sheet.rows if row.stored.id == found["id"]), None)


def _preview(game, values, hand_id: int | None = None, *, read_blank: bool = False):
    """What the hand would score, as typed so far: as the next hand (see `services.preview_hand`), or in place
    of hand `hand_id` (`services.preview_edit`). `read_blank`: a blank form is read all the same (one refused once
    is told what a save would refuse in it, blank as it is)."""
    if hand_id is None and values == BLANK_HAND and not read_blank:  # a fresh form: nothing to read or to score
        return services.preview_hand(game, None)
    form = parse_hand(values, game.rules, game.has_players)
    typed = {"unreadable": form.unreadable, "typed_counters": form.typed_counters,
             "typed": {name for name, value in values.items() if str(value).strip()}}
    if hand_id is None:
        return services.preview_hand(game, form.hand, **typed)
    return services.preview_edit(get_db(), game.id, hand_id, form.hand, **typed)


@bp.get("/<int:game_id>/hands/compare")
def compare(game_id: int):
    """The two-phone question for a form being typed in whose hand (`expected`) another phone recorded, asked
    by live.js when the poll brings that hand: 204 while the sheet has no such hand, "saved" when the hand on the
    sheet is the one this phone's `token` sent, every number as typed."""
    page = _page(game_id)
    game, sheet = page.game, page.sheet
    if request.args.get("game", game.uid) != game.uid:  # typed for a game that is no longer here
        return answered(("", 409), "gone")
    number = record_id(request.args.get("expected"))
    token = request.args.get("token", "")[:64]
    values = {**BLANK_HAND, **{k: kept(k, v) for k, v in request.args.items() if k in BLANK_HAND}}
    clash = _clash(game, sheet, number, values, token or secrets.token_urlsafe(16),
                   _club_table(game, sheet)) if number else None
    if clash is None:
        return "", 204
    if not clash["differs"] and _saved_from_here(sheet, token) == number:
        # this phone's own save under this number, as it is typed here, stored while its answer was lost (a reload
        # mid-save): nothing to ask. Anything else (it was changed since, here or on another phone; kept as another
        # hand) is asked. A 409, so a page whose scripts do not know this answer asks again later
        return answered(("", 409), "saved")
    return vary_on_htmx(render_template("games/_two_phones.html", game=game, sheet=sheet, clash=clash))


@bp.route("/<int:game_id>/preview", methods=["GET", "POST"])
def preview(game_id: int):
    """The live preview (htmx, GET), or without JavaScript the "Check" button (POST): the page with the preview,
    everything typed kept. Nothing is stored either way."""
    source = request.form if request.method == "POST" else request.args
    values = {**BLANK_HAND, **{k: kept(k, v) for k, v in source.items() if k in BLANK_HAND}}
    if not is_htmx():  # Check: what a save would refuse in what is typed is said as a save would say it
        page = _page(game_id)
        now = _preview(page.game, values)
        wrong = following(now.refused, values, (), page.game.teams)["lines"] if now else {}
        return _game_page(page, values=values, errors=wrong, checking=True)
    game = _load(game_id)
    return _preview_answer(game, _preview(game, values, read_blank="shown" in request.args), values)


@bp.get("/<int:game_id>/hands/<int:hand_id>/preview")
def edit_preview(game_id: int, hand_id: int):
    """The edit form's live preview (htmx): the hand as typed in its place, and the totals after it."""
    game = _load(game_id)
    values = {**BLANK_HAND, **{k: kept(k, v) for k, v in request.args.items() if k in BLANK_HAND}}
    try:
        preview = _preview(game, values, hand_id)
    except (HandGone, services.NotFound):
        abort(404)
    return _preview_answer(game, preview, values)


def _preview_answer(game, preview, values):
    """The live preview's answer: what the hand would score, the line above Record (out of band), and for a form
    that was refused (its script sends `shown`, the fields it says are wrong) what a save would refuse now."""
    shown = request.args.get("shown")
    follow = None
    if shown is not None and preview is not None:
        follow = following(preview.refused, values, set(shown[:400].split(",")), game.teams)
    return vary_on_htmx(render_template("games/_preview_body.html", game=game, preview=preview, preview_oob=True,
                                        follow=follow))


# --- recording, editing, deleting ----------------------------------------------------------------------------

@bp.post("/<int:game_id>/hands")
def record(game_id: int):
    game = _load(game_id)
    form = parse_hand(request.form, game.rules, game.has_players)
    token = request.form.get("token", "")[:64]
    try:
        change = services.record_hand(get_db(), game_id, form.hand, token=token, unreadable=form.unreadable,
                                      expected=record_id(request.form.get("expected")),
                                      repeat_ok=request.form.get("repeat") == "1",
                                      meld_ok=request.form.get("meld_ok") == "1",
                                      game_uid=request.form.get("game", "")[:64] or None)
    except HandTaken as taken:
        if not taken.recorded_elsewhere:
            return _game_page(_page(game_id), form.values, token=token, behind=True, answer="behind", **_said(taken))
        # the hand this form was started for is on the sheet: which hand is this one? (nothing is moved on)
        return _game_page(_page(game_id), form.values, token=token, clash=taken.expected,
                          status=taken.status_hint, answer="clash")
    except LooksRepeated as repeated:
        return _game_page(_page(game_id), form.values, token=token, repeat=repeated.number,
                          status=repeated.status_hint, answer="repeat")
    except MeldUnlikely as unlikely:  # asked as a repeat is: the table can still say yes (meld_ok)
        return _game_page(_page(game_id), form.values, token=token, unlikely=unlikely.words,
                          status=unlikely.status_hint, answer="repeat")
    except (GameGone, HandElsewhere) as elsewhere:
        # never this game's hand: the page is this game's as it is, the form blank, the words above it
        return _game_page(_page(game_id), answer="gone" if isinstance(elsewhere, GameGone) else "elsewhere",
                          message=str(elsewhere), status=elsewhere.status_hint)
    except Declined as refusal:
        return _game_page(_page(game_id), form.values, token=token or None, answer="refused", **_said(refusal))
    except sqlite3.OperationalError as error:  # the same token: tapping again stores the hand once
        return _game_page(_page(game_id), form.values, token=token, answer="fault",
                          **_not_saved(error, "this hand was NOT saved", "tap Record again — it will be saved once"))
    _wrote(change, None if from_the_outbox() else ALREADY_SAVED)
    saved = None if change.already else {"game": game_id, "hand": change.hand_id, "how": "recorded"}
    return _after_save(game_id, change, saved)


def _after_save(game_id: int, change, saved: dict | None, anchor: str = ""):
    """The answer to a change that was stored: a plain form is sent on to the game's page (303), which says what
    was done; htmx gets that page at once, built from the change's own fold, marked `saved`."""
    if not is_htmx_form():
        if saved and not from_the_outbox():
            session["saved"] = saved
        return redirect(url_for("games.show", game_id=game_id) + anchor, 303)
    return _addressed(_game_page(change.page or _page(game_id), saved=saved, answer="saved"),
                      url_for("games.show", game_id=game_id) + anchor)


def _said(refusal: Declined) -> dict:
    """A refusal as a page shows it: each field's message, the sentence above the form, and the status."""
    return {"errors": refusal.errors, "message": str(refusal) or None, "status": refusal.status_hint}


def _not_saved(error, lost: str, again: str) -> dict:
    """A change the database refused, as a page shows it: the banner's sentence and the status (`faults`)."""
    fault = refused(error)
    return {"fault": fault.sentence(lost, again), "status": fault.status}


def _wrote(change: services.Change, already: str | None = None, done: str | None = None) -> None:
    """Say what a change did, or that it had been done before. Remember the version this device's own change
    made, so its poll does not announce it as news. (What a change sets going once committed, the service
    does: see `services.committed`.)"""
    if change.already:
        if already:
            flash(already)
        return
    session["wrote"] = [change.game_id, change.version]
    if done:
        flash(done)


def _find(sheet, hand_id: int):
    for row in sheet.rows:
        if row.stored.id == hand_id:
            return row
    abort(404)


def _hand_in_game(game_id: int, hand_id: int):
    """(game, sheet, row) for a live hand of a game, or 404."""
    page = _page(game_id)
    return page.game, page.sheet, _find(page.sheet, hand_id)


def _edit_page(game, sheet, row, values, errors=None, message=None, status=200, fault=None, edits_seen=None,
               reopens=None, answering=None, changed=None):
    """The edit form; `edits_seen` is how many edits the hand had when the form was first opened, kept
    through refusals so that a change made meanwhile on another phone is noticed; `reopens`: what the change
    would do to the game's win, asked before it is saved; `answering`: the token of the kept hand whose
    "mine is right" this change is (the two-phone question's answer, sent on here), which its form carries on;
    `changed`: a change refused because another phone changed the hand meanwhile, asked beside it (see
    `_changed_meanwhile`)."""
    # a club table's game whose round is over shows its hand, but no form to change it with
    closed = services.club.game_closed(get_db(), game.id)
    preview = None if closed else _preview(game, values, row.stored.id)
    response = make_response(render_template(
        "games/edit_hand.html", game=game, sheet=sheet, row=row, values=values, errors=errors or {},
        message=message, fault=fault, closed=closed, preview=preview, answering=answering,
        edits_seen=row.stored.edits if edits_seen is None else edits_seen, reopens=reopens, changed=changed), status)
    return _addressed(response, url_for("games.edit_hand", game_id=game.id, hand_id=row.stored.id))


def _addressed(response, address: str):
    """A page htmx swapped in from a form sent from another page's address (the two-phone question's "mine is
    right" answered with the edit page, its save answered with the game page): the address bar says the page's
    own address, so its links go where they say, a reload reloads it and Back goes back to the page before."""
    if is_htmx_form() and urlsplit(request.headers.get("HX-Current-URL", "")).path != urlsplit(address).path:
        response.headers["HX-Push-Url"] = address
    return response


@bp.get("/<int:game_id>/hands/<int:hand_id>/edit")
def edit_hand(game_id: int, hand_id: int):
    """The edit form: the hand as stored, or as it was left for the meld calculator (its fields and the edits
    it was opened on come back in the address)."""
    game, sheet, row = _hand_in_game(game_id, hand_id)
    carried = {k: kept(k, v) for k, v in request.args.items() if k in BLANK_HAND}
    seen, _ = edits_seen(request.args)
    return _edit_page(game, sheet, row, {**hand_values(row.hand), **carried}, edits_seen=seen)


@bp.post("/<int:game_id>/hands/<int:hand_id>/edit")
def save_hand(game_id: int, hand_id: int):
    game = _load(game_id)
    form = parse_hand(request.form, game.rules, game.has_players)
    seen, garbled = edits_seen(request.form)
    # "mine is right" (the two-phone question's answer), carried on by the edit page should it ask something first
    answering = request.form.get("answering", "")[:64] or None
    try:
        change = services.edit_hand(get_db(), game_id, hand_id, form.hand, edits_seen=seen, incomplete=garbled,
                                    unreadable=form.unreadable, reopen_ok=request.form.get("reopen") == "1")
    except (HandGone, HandChangedElsewhere) as stale:  # not mine over what this phone never saw: asked again
        return _stale_edit(game_id, hand_id, stale, form.values, answering)
    except WinTakenAway as taken:
        return _edit_page(*_hand_in_game(game_id, hand_id), form.values, edits_seen=seen, reopens=taken.words,
                          status=taken.status_hint, answering=answering)
    except Declined as refusal:
        return _edit_page(*_hand_in_game(game_id, hand_id), form.values, edits_seen=seen, answering=answering,
                          **_said(refusal))
    except sqlite3.OperationalError as error:
        return _edit_page(*_hand_in_game(game_id, hand_id), form.values, edits_seen=seen, answering=answering,
                          **_not_saved(error, "this change was NOT saved", "tap Save changes again"))
    _wrote(change)
    saved = None if change.already else {"game": game_id, "hand": hand_id, "how": "changed", "summary": change.summary}
    return _after_save(game_id, change, saved, f"#hand-{hand_id}")


def _stale_edit(game_id: int, hand_id: int, stale: Declined, typed: dict, answering: str | None = None):
    """An edit of a hand that another phone changed or deleted after this form was opened: the hand as it is
    now, or the sheet without it. Nothing this phone typed is written over what it never saw; a change to a
    hand deleted meanwhile stays in the form for the next hand (the other phone may have undone the very hand
    this one typed: "mine is right" after an Undo), recorded only if the player says so.

    `answering`: the change is "mine is right" (the two-phone question's answer). Changed meanwhile, the question
    is asked again, beside the hand as it is now. Deleted, the page also says `behind`: a phone that kept the hand
    sends it as typed and clears the form (the hand is never in both)."""
    page = _page(game_id)
    game, sheet = page.game, page.sheet
    row = next((row for row in sheet.rows if row.stored.id == hand_id), None)
    if row is None:  # deleted, then or since
        return _game_page(page, values=typed, message=str(HandGone()), status=HandGone.status_hint, carried=True,
                          answer="behind" if answering else None)
    if answering:
        return _game_page(page, values={**BLANK_HAND, **typed}, token=answering, clash=row.number, answer="clash")
    return _edit_page(game, sheet, row, hand_values(row.hand), message=str(stale), status=stale.status_hint,
                      changed=_changed_meanwhile(game, row, typed, getattr(stale, "opened", None)))


def _changed_meanwhile(game, row, typed: dict, opened) -> dict:
    """The question an edit refused as changed on another phone meanwhile asks: the hand as it is now beside it
    with this phone's change made over it (`forms.changed_over`: what was changed here, from `opened`, the hand
    the form was opened on), and those fields, for "mine is right"."""
    as_typed = hand_values(parse_hand(typed, game.rules, game.has_players).hand)
    was = None if opened is None else hand_values(opened)
    mine = changed_over(as_typed, was, hand_values(row.hand))
    lines = services.compare_hands(row.hand, parse_hand(mine, game.rules, game.has_players).hand, game)
    return {"lines": lines, "differs": any(line.differs for line in lines), "changed_here": as_typed != was,
            "mine": {name: value for name, value in mine.items() if value}}


@bp.get("/<int:game_id>/hands/<int:hand_id>/detail")
def hand_detail(game_id: int, hand_id: int):
    """One sheet row's story, for htmx to put in when the row is opened."""
    page = _page(game_id)
    game, sheet, row = page.game, page.sheet, _find(page.sheet, hand_id)
    readonly = request.args.get("readonly") == "1" or services.club.game_closed(get_db(), game_id) is not None
    return vary_on_htmx(kept_pages.render("games/_hand_detail.html", versions=pages.versions(get_db(), page),
                                          line=pages.LINE, covered=GAME_COVERED, game=game, sheet=sheet, row=row,
                                          readonly=readonly))


def _delete_page(game, sheet, row, message=None, status=200, fault=None):
    return render_template("games/delete_hand.html", game=game, sheet=sheet, row=row,
                           message=message, fault=fault, closed=services.club.game_closed(get_db(), game.id)), status


@bp.get("/<int:game_id>/hands/<int:hand_id>/delete")
def confirm_delete(game_id: int, hand_id: int):
    game, sheet, row = _hand_in_game(game_id, hand_id)
    return _delete_page(game, sheet, row)


@bp.post("/<int:game_id>/hands/<int:hand_id>/delete")
def delete_hand(game_id: int, hand_id: int):
    try:
        change = services.delete_hand(get_db(), game_id, hand_id)
    except Declined as refusal:
        return _delete_page(*_hand_in_game(game_id, hand_id), message=str(refusal), status=refusal.status_hint)
    except sqlite3.OperationalError as error:
        return _delete_page(*_hand_in_game(game_id, hand_id), **_not_saved(error, "the hand was NOT deleted",
                                                                           "tap Delete again"))
    _wrote(change, ALREADY_DELETED)
    if not change.already:  # said in the toast, with an Undo that puts it back
        session["saved"] = {"game": game_id, "hand": hand_id, "how": "deleted", "number": change.number}
    return redirect(url_for("games.show", game_id=game_id) + "#sheet", 303)


@bp.post("/<int:game_id>/hands/<int:hand_id>/restore")
def restore_hand(game_id: int, hand_id: int):
    try:
        change = services.restore_hand(get_db(), game_id, hand_id)
    except Declined as refusal:
        return _game_page(_page(game_id), message=str(refusal), status=refusal.status_hint)
    except sqlite3.OperationalError as error:
        return _game_page(_page(game_id), **_not_saved(error, "the hand was NOT put back", "tap Restore again"))
    later = lookups.live_hand_count(get_db(), game_id) - (change.number or 0)
    _wrote(change, f"Hand {change.number} is already back on the sheet.",
           f"Hand {change.number} is back in its place{_moved_down(later)}.")
    return redirect(url_for("games.show", game_id=game_id) + f"#hand-{hand_id}", 303)


def _moved_down(later: int) -> str:
    """What putting a hand back did to the hands after it, said only when there are some."""
    if later <= 0:
        return ", the last on the sheet"
    return "; the hand after it moved down one place" if later == 1 else \
        f"; the {later} hands after it moved down one place"


@bp.get("/<int:game_id>/end")
def confirm_end(game_id: int):
    page = _page(game_id)
    return render_template("games/end_game.html", game=page.game, sheet=page.sheet)


@bp.post("/<int:game_id>/end")
def end_game(game_id: int):
    try:
        change = services.abandon_game(get_db(), game_id)
    except Declined as refusal:
        page = _page(game_id)
        return render_template("games/end_game.html", game=page.game, sheet=page.sheet,
                               message=str(refusal)), refusal.status_hint
    _wrote(change, "That game was already ended (on another phone, or by a second tap).",
           "The game was ended unfinished. It stays in History, marked abandoned; nobody won it.")
    return redirect(url_for("home"), 303)


@bp.post("/<int:game_id>/hands/<int:hand_id>/undo")
def undo_hand(game_id: int, hand_id: int):
    """The Undo beside "Hand 4 recorded": the hand is deleted (its history kept) while it is still the last."""
    try:
        change = services.delete_hand(get_db(), game_id, hand_id, only_if_last=True)
    except Declined as refusal:
        return _game_page(_page(game_id), message=str(refusal), status=refusal.status_hint)
    except sqlite3.OperationalError as error:
        return _game_page(_page(game_id), **_not_saved(error, "the hand was NOT undone", "tap Undo again"))
    _wrote(change, ALREADY_DELETED, f"Hand {change.number} taken back: fix it and record it again. Its record "
                                    "stays in the history below the sheet.")
    # the form comes back filled with the hand taken back, read from the store by its id
    return redirect(url_for("games.show", game_id=game_id, undone=hand_id), 303)


@bp.post("/<int:game_id>/rematch")
def rematch(game_id: int):
    try:
        started = services.rematch(get_db(), game_id)
    except Declined as refusal:
        return _game_page(_page(game_id), message=str(refusal), status=refusal.status_hint)
    if started.already:
        flash("The rematch was already started (on another phone, or by a second tap): here it is.")
    return redirect(url_for("games.show", game_id=started.game_id), 303)
