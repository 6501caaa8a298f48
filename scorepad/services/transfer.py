"""Getting games out and back in: CSV score sheets for a spreadsheet, and an export file imported all or nothing
(`scorepad.transfer` writes it, `scorepad.document` checks it)."""

from __future__ import annotations

import csv
import io

from .. import store, transfer, words
from ..errors import ImportRefused
from ..scoring import play_game
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

CSV_COLUMNS = ["game", "started", "team_1", "team_2", "hand", "dealer", "bidder", "bid", "trump", "kind",
               "result", "meld_1", "meld_2", "counters_1", "counters_2", "points_1", "points_2", "total_1",
               "total_2"]
# A game of three or four sides fills these too (a game of two leaves them empty): after the two-team columns, so
# that a spreadsheet made from an older export still finds every column where it was.
CSV_FURTHER_SIDES = [f"{what}_{side}" for what in ("team", "meld", "counters", "points", "total") for side in (3, 4)]
CSV_COLUMNS += CSV_FURTHER_SIDES
# What a hand's explanation turns on beyond its numbers, last for the same reason: whether the bid was forced on
# the dealer, which side reneged (its name), and each side's "meld of only the dix" box ("yes" or "no"; empty
# for a side the game does not have).
CSV_FLAGS = ["forced", "reneged", *(f"dix_only_{side}" for side in (1, 2, 3, 4))]
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
        sides = [game.teams, h.meld, counters, result.points, running]
        yield [game.id, game.created_at, *game.teams[:2], number, dealer, _bidder(game, stored),
               "" if h.kind == "redeal" or h.bid is None else h.bid, h.trump or "", h.kind,
               words.outcome(result.made, h.kind, result.automatic_throw_in),
               *(value for each in sides[1:] for value in each[:2]),
               *(each[side] if side < len(each) else "" for each in sides for side in (2, 3)), *_flags(game, h)]


def _flags(game: Game, h) -> list[str]:
    """The hand's `CSV_FLAGS` cells."""
    reneged = "" if h.renege_team is None else game.teams[h.renege_team]
    dix_only = [_yes_no(h.dix_only[side]) if side < len(h.dix_only) else "" for side in range(4)]
    return [_yes_no(h.forced), reneged, *dix_only]


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _bidder(game: Game, stored: StoredHand) -> str:
    """Who bid, as the score sheet names them: the player's seat where it was kept, else the team."""
    if stored.hand.kind == "redeal" or stored.hand.bidder is None:
        return "—"
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
