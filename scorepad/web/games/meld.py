"""The meld calculator page. Counting meld changes nothing stored, so it is all GET: every tap is a link-like
form submit that works without JavaScript, and htmx swaps only the calculator."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for

from ...core import counted
from ...core.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card, cards_text, parse_cards, suit_of
from ...core.club.specials import shown_by
from ...core.counted import MOST_TEXT
from ...core.inputs import record_id, try_whole_number
from ...core.meld import DECK_COPIES, TABLES, MeldCount, count_meld
from ...core.words import MELD_TABLE_TITLES
from ..shell.htmx import is_htmx, vary_on_htmx
from ..shell.paths import safe_path
from .forms import HAND_FIELDS, kept

bp = Blueprint("meld", __name__, url_prefix="/meld")

TABLE_TITLES = MELD_TABLE_TITLES
MELD_FIELDS = ("meld_0", "meld_1", "meld_2", "meld_3")


@dataclass
class Calculator:
    """What the page shows: the inputs as typed, the hand as counted, and what went wrong, if anything."""

    trump: str
    table: str
    text: str
    cards: list[Card] = field(default_factory=list)
    meld: MeldCount | None = None
    error: str | None = None
    carry: dict = field(default_factory=dict)  # the game form this count goes back to, if any

    @property
    def deck(self) -> str:
        return TABLES[self.table].deck

    @property
    def ranks(self) -> tuple[str, ...]:
        return RANKS if self.deck == "single" else RANKS[:-1]

    def held(self) -> Counter:
        return Counter(self.cards)

    def cell(self, rank: str, suit: str) -> dict:
        card = Card(rank, suit)
        n = self.held()[card]
        most = DECK_COPIES[self.deck]
        return {"card": card, "count": n, "full": n >= most, "max": most,
                "name": f"{'10' if rank == 'T' else rank} of {SUIT_NAMES[suit]}"}


@bp.post("/start")
def start():
    """From a game's hand form: open the calculator for one team, keeping everything typed so far."""
    from ...services import lookups
    from ..shell.database import get_db

    game_id = record_id(request.form.get("game_id"))
    game = lookups.game(get_db(), game_id) if game_id is not None else None
    if game is None:
        abort(404)
    team = {str(side): side for side in range(game.rules.sides)}.get(request.form.get("count_meld"), 0)
    fields = [(k, kept(k, request.form.get(k, ""))) for k in HAND_FIELDS if request.form.get(k)]
    hand_id = record_id(request.form.get("hand_id"))
    if hand_id is not None:  # from the edit form: back to it, with the edits it was opened on
        back = url_for("games.edit_hand", game_id=game.id, hand_id=hand_id)
        fields.append(("edits_seen", request.form.get("edits_seen", "")[:20]))
    else:
        back = url_for("games.show", game_id=game.id)
    state = urlencode(fields)
    trump = request.form.get("trump", "")
    args = {"back": back, "field": f"meld_{team}", "team_name": game.teams[team],
            "table": game.rules.meld_table, "state": state, "lock": "1", "players": game.rules.players}
    if game.rules.players_per_side == 1:
        args["lone"] = "1"  # a player on their own has no partner's hand to add
    else:
        args["partners"] = game.rules.players_per_side - 1  # the partners' hands still to add, at most
    if trump in SUITS:
        args["trump"] = trump
    hand = record_id(request.form.get("expected") or request.form.get("hand_number"))
    if hand is not None:
        args["hand"] = hand  # "Back to hand 7"
    return redirect(url_for("meld.calculator", **args), 303)


@bp.get("/")
def calculator():
    calc = _read(request.args)
    action = _carry_action(calc, request.args)
    if action is not None:
        return action
    template = "games/_meld_calculator.html" if is_htmx() else "games/meld.html"
    status = 422 if calc.error else 200
    response = vary_on_htmx(render_template(template, calc=calc, suits=SUITS, symbols=SUIT_SYMBOLS,
                                            suit_names=SUIT_NAMES, tables=TABLE_TITLES), status)
    if request.headers.get("HX-Boosted") == "true":
        # opened by Count cards from a hand form, which pushes no address of its own: this page gets one, so the
        # phone's Back button goes back to the hand (whose typed values the phone keeps), not past it
        response.headers["HX-Push-Url"] = request.script_root + request.full_path
    return response


def _read(args) -> Calculator:
    table = args.get("table") if args.get("table") in TABLES else "002"
    try:
        trump = suit_of(args.get("trump", "S") or "S")
    except ValueError:
        trump = "S"
    text = args.get("cards", "")[:2000]  # a hand is a few dozen characters; this bounds a paste
    calc = Calculator(trump, table, text, carry=_read_carry(args))
    try:
        cards = parse_cards(text)
    except ValueError as exc:
        calc.error = str(exc)
        return calc
    tapped = _apply_taps(cards, args, calc)
    calc.cards = tapped
    try:
        calc.meld = count_meld(tapped, trump, table, players=calc.carry.get("players", 4))
    except ValueError as exc:
        calc.error = str(exc)
        if tapped == cards:
            return calc  # what the player typed stays exactly as typed beside the message
    calc.text = cards_text(tapped)
    return calc


def _apply_taps(cards: list[Card], args, calc: Calculator) -> list[Card]:
    if "clear" in args:
        return []
    for key, change in (("add", 1), ("take", -1)):
        code = args.get(key)
        if not code:
            continue
        try:
            (card,) = parse_cards(code)
        except ValueError:
            continue  # a forged button value; the hand stays as it was
        if change > 0 and card.rank in calc.ranks:
            if cards.count(card) < DECK_COPIES[calc.deck]:
                cards = [*cards, card]
        elif change < 0 and card in cards:
            cards = list(cards)
            cards.remove(card)
    return cards


def _read_carry(args) -> dict:
    """The game form to return to: a local path, which team's meld, what partners already counted."""
    back = safe_path(args.get("back"), default="")
    if not back:
        return {}
    target = args.get("field") if args.get("field") in MELD_FIELDS else "meld_0"
    carried = try_whole_number(args.get("carried"), low=0, high=100_000) or 0  # partners' meld counted so far
    players = try_whole_number(args.get("players"), low=2, high=8) or 4  # the table: how many cards a hand has
    state = args.get("state", "")[:4000]
    return {"back": back, "field": target, "carried": carried, "state": state,
            "team": args.get("team_name", "")[:60], "lock": args.get("lock") == "1", "players": players,
            "lone": args.get("lone") == "1",
            # partners' hands still to add; None (a link made before it was counted): as many as they like
            "partners": try_whole_number(args.get("partners"), low=0, high=7),
            "plain": args.get("plain") == "1",  # partners' meld counted so far holds more than the dix
            "hand": try_whole_number(args.get("hand"), low=1, high=100_000),
            # the cards of the partners' hands counted so far, kept with the hand once the total is used
            "counted": [cards[:MOST_TEXT] for cards in args.get("counted", "").split(";") if cards.strip()][:7],
            # the way back with nothing counted: the form as it was left, every field kept
            "return_to": f"{back}?{urlencode(parse_qsl(state))}#record" if state else f"{back}#record"}


def _only_dix(calc: Calculator) -> bool:
    """Whether the team's whole meld, partners' included, is the dix."""
    if calc.carry["plain"] or calc.meld.total > 0 and not calc.meld.only_dix:
        return False
    return calc.carry["carried"] + calc.meld.total > 0


def _carry_action(calc: Calculator, args):
    """"Add partner's hand" keeps the total and clears the cards; "Use" goes back to the game form."""
    if not calc.carry or calc.meld is None:
        return None
    if "partner" in args:
        calc.carry["plain"] = calc.carry["plain"] or (calc.meld.total > 0 and not calc.meld.only_dix)
        calc.carry["carried"] += calc.meld.total
        if calc.cards:
            calc.carry["counted"].append(cards_text(calc.cards))
        if calc.carry["partners"]:
            calc.carry["partners"] -= 1
        calc.cards, calc.text = [], ""
        calc.meld = count_meld([], calc.trump, calc.table, players=calc.carry.get("players", 4))
        return None
    if "use" in args:
        dix_field, cards_field = "dix_only_" + calc.carry["field"][-1], "meld_cards_" + calc.carry["field"][-1]
        state = [(k, v) for k, v in parse_qsl(calc.carry["state"])
                 if k not in (calc.carry["field"], dix_field, cards_field)]
        state.append((calc.carry["field"], str(calc.carry["carried"] + calc.meld.total)))
        hands = [*calc.carry["counted"], *([cards_text(calc.cards)] if calc.cards else [])]
        if hands:  # what was counted goes back with the total, to be kept with the hand (see `core.counted`)
            state.append((cards_field, counted.field_text((calc.trump, tuple(hands)))))
        if _only_dix(calc):  # the calculator knows the cards: it ticks "only the dix" itself
            state.append((dix_field, "1"))
        shows = shown_by(calc.cards, calc.trump)
        if shows:  # a club table's hand form ticks the specials these cards hold (see `club/_specials.html`)
            state += [("shows", ",".join(shows)), ("shows_team", calc.carry["field"][-1])]
        url = f"{calc.carry['back']}?{urlencode(state)}#record"
        if is_htmx():  # a whole-page move: htmx must not swap the game page into the calculator
            response = make_response("", 200)
            response.headers["HX-Redirect"] = url
            return response
        return redirect(url, 303)
    return None
