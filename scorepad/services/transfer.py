"""Getting games out and back in: CSV score sheets for a spreadsheet, and an export file imported all or nothing
(`scorepad.transfer` writes it, `scorepad.document` checks it)."""

from __future__ import annotations

import csv
import io

from .. import store, transfer, words
from ..errors import ImportRefused
from ..scoring import dix_value, play_game
from ..seats import dealer_for, seat_label
from ..store import Game, StoredHand

# A year of a family's evenings exports to a few megabytes; reading a file takes about six times its size in
# memory, which a Raspberry Pi must spare.
MAX_IMPORT_BYTES = 50 * 1024 * 1024  # years of family evenings (about 4,000 games); parsing it peaks near 330 MB
TOO_LARGE = (f"That file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MB, the most one import takes. "
             "Nothing was imported.")


def import_games(db, raw: bytes) -> list[int]:
    """Every game of an export file (`raw`, read up to one byte past MAX_IMPORT_BYTES), all or nothing; returns
    the new game ids. Raises ImportRefused (its `status_hint` 413 for a file too large, 409 for games already
    here or written meanwhile, else 422), saying why in words for the person who chose the file."""
    if len(raw) > MAX_IMPORT_BYTES:
        raise ImportRefused(TOO_LARGE, 413)
    # the import takes the write lock itself, in short turns: thousands of games never keep a phone waiting
    return transfer.import_document(db, transfer.parse_document(raw))


# --- CSV ----------------------------------------------------------------------------------------------------

# One column a side for each figure, the sides side by side (team_1 … team_4, then meld_1 … meld_4 …); a cell
# where a figure does not apply (a third side in a game of two, a bidder where nobody bids, counters of a
# throw-in) is empty. Read by name: the names are those of every earlier export.
SIDES = (1, 2, 3, 4)
CSV_COLUMNS = ["game", "started", *(f"team_{side}" for side in SIDES), "hand", "dealer", "bidder", "bid", "trump",
               "kind", "result",
               *(f"{what}_{side}" for what in ("meld", "counters", "points", "total") for side in SIDES)]
# What a hand's explanation turns on beyond its numbers: whether the bid was forced on the dealer, which side
# reneged (its name), and each side's "meld of only 9s of trump" box ("yes" or "no"; empty for a side the game
# does not have, or where the rules do not ask it).
CSV_FLAGS = ["forced", "reneged", *(f"dix_only_{side}" for side in SIDES)]
CSV_COLUMNS += CSV_FLAGS


def sheets_csv(db, game_ids: list[int] | None = None) -> str:
    """Score sheets for a spreadsheet: one row a hand, in order, with the running totals. No text cell is read as
    a formula (see `cell`); numbers stay numbers."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game_id in game_ids or store.game_ids(db):
        game = store.load_game(db, game_id)
        writer.writerows(map(cell, row) for row in _rows(game, store.live_hands(db, game_id)))
    return out.getvalue()


def _rows(game: Game, hands: list[StoredHand]):
    state = play_game(game.rules, [h.hand for h in hands], names=game.teams)
    for number, (stored, result, running) in enumerate(zip(hands, state.results, state.running, strict=True), 1):
        h = stored.hand
        counters = h.counters or ("",) * len(h.meld)
        dealer = seat_label(dealer_for(game.first_dealer, number - 1, game.rules.players), game.players)
        yield [game.id, game.created_at, *_each_side(game.teams), number, dealer, _bidder(game, stored),
               "" if h.kind == "redeal" or h.bid is None else h.bid, h.trump or "", h.kind,
               words.outcome(result.made, h.kind, result.automatic_throw_in),
               *(value for each in (h.meld, counters, result.points, running) for value in _each_side(each)),
               *_flags(game, h)]


def _each_side(values) -> list:
    """A figure of every side, one cell each of `SIDES`: empty past the game's own sides."""
    return [values[side] if side < len(values) else "" for side in range(len(SIDES))]


def _flags(game: Game, h) -> list[str]:
    """The hand's `CSV_FLAGS` cells."""
    reneged = "" if h.renege_team is None else game.teams[h.renege_team]
    asked = dix_value(game.rules) and game.rules.save_counters  # the hand form asks it only then
    dix_only = [_yes_no(flag) if asked else "" for flag in h.dix_only]
    return ["" if not game.rules.bidding else _yes_no(h.forced), reneged, *_each_side(dix_only)]


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _bidder(game: Game, stored: StoredHand) -> str:
    """Who bid, as the score sheet names them: the player's seat where it was kept, else the team."""
    if stored.hand.kind == "redeal" or stored.hand.bidder is None:
        return ""  # nobody bid: a redeal, or a game without bidding
    if stored.hand.bidder_seat is not None:
        return seat_label(stored.hand.bidder_seat, game.players)
    return game.teams[stored.hand.bidder]


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """A value as a spreadsheet should read it. Text that starts with = + - @, a tab or a carriage return
    (even after blank space) is a formula to a spreadsheet: a name like =HYPERLINK(...) would run. Such text gets a
    leading apostrophe, which spreadsheets take to mean "plain text" (OWASP's advice). Numbers are left as they
    are: −50 points must stay a number."""
    if isinstance(value, str) and (value.startswith(FORMULA_STARTS) or value.lstrip().startswith(FORMULA_STARTS)):
        return "'" + value
    return value
