"""Looking back: past evenings, any game as a read-only sheet with its chart, and a hand's whole story."""

from __future__ import annotations

from datetime import UTC, date, datetime

from flask import Blueprint, abort, make_response, render_template, request, url_for
from markupsafe import Markup

from ... import services
from ...core import counted, house_time, words
from ...core.chart import score_chart
from ...core.evenings import FIRST_EVENING, LAST_EVENING, group_by_evening, search_bounds
from ...core.hands import ADDED_COLUMNS, HAND_COLUMNS, SIDE_COLUMNS
from ...core.inputs import record_id
from ...core.rules_in_words import describe
from ...core.seats import seat_label
from ...services import lookups
from ..shell import kept_pages
from ..shell.database import get_db
from ..shell.htmx import is_htmx, vary_on_htmx

bp = Blueprint("history", __name__, url_prefix="/history")


def _date(text: str | None) -> tuple[date | None, str | None]:
    if not text:
        return None, None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return None, "A date is written like 2026-11-20."
    if not FIRST_EVENING <= day <= LAST_EVENING:
        return None, f"Choose an evening from {FIRST_EVENING.year} to {LAST_EVENING.year}."
    return day, None


@bp.get("/")
def evenings():
    db = get_db()
    args = request.args
    errors = {}
    first, errors["from"] = _date(args.get("from"))
    last, errors["to"] = _date(args.get("to"))
    errors = {k: v for k, v in errors.items() if v}
    if first and last and first > last:
        errors["to"] = "The last evening comes after the first."
    player_id = record_id(args.get("player"))
    # an evening, or the date a clock said: a game past midnight is found by either (see `search_bounds`)
    start, end = search_bounds(first, last, house_time.zone()) if not errors else (None, None)
    before = args.get("before", "")
    if before and not _is_time(before):
        before = ""

    def listed() -> dict:  # read only when the page must be rendered: a function of the lists and the address
        games = lookups.history_games(db, player_id, _utc(start), _utc(end), limit=PAGE + 1, before=before or None)
        older = games[PAGE].created_at if len(games) > PAGE else None
        games = games[:PAGE]
        groups = group_by_evening(games, lambda g: house_time.local(datetime.fromisoformat(g.created_at)))
        nights = dict(group_by_evening(lookups.nights_between(db, start=_utc(start), end=_utc(end)),
                                       lambda n: house_time.local(datetime.fromisoformat(n.created_at))))
        return {"groups": groups, "club_nights": nights, "players": lookups.player_choices(db),
                "club_games": lookups.club_tables_of(db, [g.id for g in games]),
                "older": _older_link(args, games[-1].created_at) if older else None}

    # the evenings' bounds are the house's clock: its zone is part of what the page is built from
    return kept_pages.render("history/index.html", versions=(str(house_time.zone()), *lookups.lists_versions(db)),
                             line=1 + lookups.LISTS_LINE,
                             build=listed, player_id=player_id, errors=errors,
                             values={"from": args.get("from", ""), "to": args.get("to", "")}), \
        422 if errors else 200


PAGE = 30  # games a page: a few evenings, quick to send and to read on a phone


def _is_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
        return True
    except ValueError:
        return False


def _older_link(args, oldest_shown: str) -> str:
    query = {k: v for k, v in args.items() if k != "before"}
    return url_for("history.evenings", **query, before=oldest_shown)


def _utc(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat(timespec="seconds") if moment else None


def chart_for(sheet) -> Markup:
    """The SVG is built from numbers and escaped names only, so it is safe to place in the page."""
    sets = [(row.number - 1, row.hand.bidder) for row in sheet.rows if row.result.was_set]
    target = None if sheet.game.rules.hands_limit else sheet.game.rules.target
    return Markup(score_chart(sheet.state.running, target, sets, sheet.game.teams))


def _page(game_id: int) -> services.pages.GamePage:
    page = services.pages.game_page(get_db(), game_id)
    if page is None:
        abort(404)
    return page


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    db = get_db()
    page = _page(game_id)
    record, sheet = page.game, page.sheet
    return kept_pages.render("history/game.html", versions=services.pages.versions(db, page), line=services.pages.LINE,
                             build=lambda: {"chart": chart_for(sheet), "rules_words": describe(record.rules),
                                            "others": services.other_rules.fitting(record)},
                             covered=("game", "sheet"), game=record, sheet=sheet, readonly=True,
                             club=services.club.table_outcome(db, game_id, record.teams, sheet.finished))


@bp.get("/games/<int:game_id>/under/<key>")
def under(game_id: int, key: str):
    """Under whose rules? The game's hands scored under another rule set that fits its table, beside the game as
    played, each difference in the rules' words. Nothing is stored."""
    page = _page(game_id)
    record, sheet = page.game, page.sheet
    compared = services.other_rules.under(record, [row.hand for row in sheet.rows], sheet.state, key[:40])
    if compared is None:
        abort(404)
    return render_template("history/under.html", game=record, sheet=sheet, compared=compared,
                           others=services.other_rules.fitting(record))


@bp.get("/games/<int:game_id>/sheet.svg")
def sheet_picture(game_id: int):
    """The score sheet as a picture (SVG): opened to print, or downloaded (`download`) to keep or send on."""
    response = make_response(_page(game_id).sheet.picture())
    response.mimetype = "image/svg+xml"
    if request.args.get("download"):
        response.headers["Content-Disposition"] = f'attachment; filename="scorepad-game-{game_id}.svg"'
    return response


@bp.get("/games/<int:game_id>/hands/<int:hand_id>")
def hand(game_id: int, hand_id: int):
    db = get_db()
    page = _page(game_id)
    record, sheet = page.game, page.sheet
    row = next((r for r in sheet.rows if r.stored.id == hand_id), None)
    if row is None:
        abort(404)
    return kept_pages.render(
        "history/hand.html", versions=services.pages.versions(db, page), line=services.pages.LINE,
        covered=("game", "sheet", "row"),
        build=lambda: {"rules_words": describe(record.rules), "counts": counts_of(row.hand, record),
                       "others": services.other_rules.fitting(record),
                       "edits": [_edit_view(e, record) for e in lookups.edits_of_hand(db, hand_id)]},
        game=record, sheet=sheet, row=row)


@bp.get("/games/<int:game_id>/hands/<int:hand_id>/under")
def hand_under(game_id: int, hand_id: int):
    """The hand scored under each other rule set that fits its game: loaded into the hand's page when it comes
    into view (the page itself scores nothing again), or a page of its own without JavaScript."""
    page = _page(game_id)
    record, sheet = page.game, page.sheet
    row = next((r for r in sheet.rows if r.stored.id == hand_id), None)
    if row is None:
        abort(404)
    others = services.other_rules.fitting(record)
    under = [(key, rules, services.other_rules.hand_under(record, row.hand, row.result, row.number, key))
             for key, rules in others.items()]
    return vary_on_htmx(render_template("history/_hand_under.html" if is_htmx() else "history/hand_under.html",
                                        game=record, row=row, under=under))


def counts_of(hand, game) -> list[tuple[int, counted.Counted | None]]:
    """What the meld calculator counted for each side of `hand`, counted again under the game's meld table:
    (side, its count), for the sides that have one."""
    rules = game.rules
    return [(side, counted.counted(count, rules.meld_table, rules.players))
            for side, count in enumerate(hand.counted or ()) if count]


# Each of a hand's columns in words, shown in their order (`HAND_COLUMNS`).
FIELD_WORDS = {"kind": "Kind", "bidder": "Bidding team", "bidder_seat": "Bidder", "bid": "Bid", "trump": "Trump",
               "meld_0": "Meld {0}", "meld_1": "Meld {1}", "counters_0": "Counters {0}", "counters_1": "Counters {1}",
               "renege_team": "Reneged", "forced": "Dealer stuck", "dix_only": "Meld only 9s of trump",
               "meld_2": "Meld {2}", "counters_2": "Counters {2}", "meld_3": "Meld {3}", "counters_3": "Counters {3}",
               "meld_counted": "Meld counted (the cards)"}


def _edit_view(edit: dict, game) -> dict:
    """An edit as rows of (what, before, after), every field, the changed ones marked."""
    before, after = lookups.edit_side(edit["before"]), lookups.edit_side(edit["after"])
    rows = []
    for key in HAND_COLUMNS + SIDE_COLUMNS[:2 * (len(game.teams) - 2)]:
        label = FIELD_WORDS[key]
        # a line written before a column was added holds its default
        old, new = (side.get(key, ADDED_COLUMNS.get(key)) if side else None for side in (before, after))
        rows.append({"what": label.format(*game.teams), "before": _show(key, old, game),
                     "after": _show(key, new, game), "changed": bool(before) and bool(after) and old != new})
    return {**edit, "rows": rows}


def _show(key: str, value, game) -> str:
    if value is None or value == "":
        return "—"
    if key in ("bidder", "renege_team"):
        return game.teams[value]
    if key == "bidder_seat":
        return seat_label(value, game.players)
    if key == "forced":
        return "yes" if value else "no"
    if key == "dix_only":  # one bit a team
        return ", ".join(team for t, team in enumerate(game.teams) if value >> t & 1) or "no"
    if key == "kind":
        return str(value).replace("_", " ")
    if key == "meld_counted":  # each side's hands, as the calculator counted them
        counts = counted.from_column(value, len(game.teams))
        return "; ".join(f"{game.teams[side]} ({count[0]} trump): {' / '.join(count[1])}"
                         for side, count in enumerate(counts or ()) if count) or "—"
    if isinstance(value, int):
        return words.number(value)
    return str(value)
