"""Getting data out and back: a JSON document that imports without loss, and CSV score sheets for a spreadsheet.

The JSON holds everything a game is: its rules snapshot, teams, seats, every hand (deleted ones too) with its
history; and the full copy holds every club season (its settings) and club night: its settings and season,
entrants, each round's tables with the result that counts, who confirmed it, the director's corrections and the
specials tallied there (everything but the director's key, which a copy must not carry). An import checks the
whole document first (`core.document`, `core.document_nights`), replays every game and compares the totals
with the file's, then writes it all or nothing: a file that is not ours, or is damaged, changes nothing. CSV cells
are written so that no spreadsheet reads one as a formula (`cell`).
"""

from __future__ import annotations

import csv
import io
import secrets
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime

from ..core import document, document_nights, words
from ..core.cards import SUIT_SYMBOLS
from ..core.document import FORMAT, VERSION
from ..core.errors import ImportRefused
from ..core.hands import hand_from_columns, hand_to_export
from ..core.rules import can_be_stuck
from ..core.scoring import dix_value, play_game
from ..core.seats import dealer_for, seat_label
from ..store import clubs, connection, imports
from ..store import games as store_games
from ..store import seasons as store_seasons
from ..store.games import Game, StoredHand

# --- out ------------------------------------------------------------------------------------------------------

def export_games(db, game_ids: list[int] | None = None) -> dict:
    """Every game (or those of `game_ids`); the full copy (no `game_ids`) holds every club night too."""
    exported = {"format": FORMAT, "version": VERSION, "exported_at": connection.now(),
                "games": [_export_game(db, game_id) for game_id in store_games.game_ids(db, among=game_ids)]}
    if game_ids is None:
        seasons = {season.id: season for season in store_seasons.all_seasons(db)}
        exported["club_seasons"] = [_export_season(season) for season in reversed(seasons.values())]
        exported["club_nights"] = [_export_night(db, night, seasons) for night in clubs.all_nights(db)]
    return exported


def _export_season(season) -> dict:
    return {"name": season.name, "started_at": season.started_at, "best_of": season.best_of,
            "min_nights": season.min_nights, "specials": list(season.specials), "bye_rule": season.bye_rule,
            "bye_points": season.bye_points, "improved_min_nights": season.improved_min_nights,
            "last_place": season.last_place, "ratings": season.ratings}


def _export_game(db, game_id: int) -> dict:
    game = store_games.load_game(db, game_id)
    hands = store_games.hands_as_stored(db, game_id)
    finished_at, winner = _own_end(db, game)
    return {
        "id": game.id, "created_at": game.created_at, "rules": game.rules.to_dict(), "teams": list(game.teams),
        "players": list(game.players), "first_dealer": game.first_dealer, "rematch_of": game.rematch_of,
        "finished_at": finished_at, "totals": list(game.totals), "winner": winner,
        "hands": [_export_hand(db, h) for h in hands], "abandoned_at": game.abandoned_at,
    }


def _own_end(db, game) -> tuple[str | None, int | None]:
    """(finished_at, winner) as the game's own hands say. A club table's game keeps its table's result once its
    round is over (the director's clock may have stopped it, or the director changed the result): the document
    holds games, not club nights, and an import checks a game's end against its hands."""
    if clubs.table_of_game(db, game.id) is None:
        return game.finished_at, game.winner
    state = play_game(game.rules, [h.hand for h in store_games.live_hands(db, game.id)], names=game.teams)
    return (game.finished_at if state.winner is not None else None), state.winner


def _export_night(db, night, seasons: dict) -> dict:
    changes = clubs.result_changes(db, night.id)
    specials: dict[int, list] = {}
    for special in store_seasons.specials_of_nights(db, [night.id]):
        specials.setdefault(special.table_id, []).append(
            {"hand": special.hand, "player": special.player, "kind": special.kind, "at": special.at})
    season = seasons.get(night.season_id)
    entrants = clubs.entrants(db, night.id)
    unrated = clubs.unrated(db, night.id)
    return {
        "name": night.name, "created_at": night.created_at, "kind": night.kind, "rules": night.rules.to_dict(),
        "round_end": night.round_end, "round_size": night.round_size, "rounds": night.rounds,
        "tie_breaks": list(night.tie_breaks), "round": night.round, "round_started_at": night.round_started_at,
        "closed_at": night.closed_at, "movement": night.movement, "bye_rule": night.bye_rule,
        "bye_points": night.bye_points, "standings_hidden": night.standings_hidden,
        "unrated": sorted(name for e in entrants for pid, name in zip(e.player_ids, e.player_names, strict=True)
                          if pid in unrated),
        "entrants": [{"number": e.number, "name": e.name, "players": list(e.player_names),
                      "first_round": e.first_round, "last_round": e.last_round} for e in entrants],
        "tables": [_export_table(t, changes.get(t.id, []), specials.get(t.id, []))
                   for t in clubs.tables(db, night.id)],
        "season": season.name if season else None,
    }


def _export_table(table, changes: list[dict], specials: list[dict]) -> dict:
    return {
        "round": table.round, "table_no": table.table_no, "game": table.game_id, "entrants": list(table.entrants),
        "ended_at": table.ended_at, "score": None if table.score is None else list(table.score),
        "winner": table.winner, "confirmed_at": table.confirmed_at, "confirmed_by": table.confirmed_by,
        "ended_how": table.ended_how, "end_note": table.end_note,
        "changes": [{"at": c["at"], "before": None if c["before_0"] is None else [c["before_0"], c["before_1"]],
                     "after": [c["after_0"], c["after_1"]], "note": c["note"]} for c in changes],
        "specials": specials,
    }


def _export_hand(db, row: dict) -> dict:
    return {
        "seq": row["seq"], "token": row["token"], **hand_to_export(hand_from_columns(row)),
        "created_at": row["created_at"], "updated_at": row["updated_at"], "deleted_at": row["deleted_at"],
        "edits": [{k: e[k] for k in ("at", "action", "before", "after", "summary")}
                  for e in store_games.edits_of_hand(db, row["id"])],
    }


# --- back in --------------------------------------------------------------------------------------------------

def parse_document(raw: bytes | str) -> dict:
    """The document in an uploaded file, its header checked; raises ImportRefused."""
    return document.read(raw)


def import_document(db, data: dict) -> list[int]:
    """Every game and club night of the document, all or nothing: each checked as the forms would check it and
    replayed before anything is written, then moved in by one short transaction. Returns the new game ids."""
    now = datetime.now(UTC)
    games = document.check(data, now)
    nights = [replace(night, director_key=secrets.token_urlsafe(12))  # as `services.club.create_night` gives one
              for night in document_nights.check(data, games, now)]
    seasons = document_nights.check_seasons(data, now)
    try:
        return imports.import_games(db, games, nights, seasons)
    except sqlite3.IntegrityError as exc:  # a phone saved a hand with one of these tokens a moment ago
        raise ImportRefused(f"These games could not be written ({exc}). Nothing was imported.", 409) from None


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")


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
    return import_document(db, parse_document(raw))


# --- CSV ---------------------------------------------------------------------------------------------------

# The score sheets for people (the JSON is the full copy): one block a game, its line of who, when, under which rules
# and how it stands, then one row a hand under a header that names its sides ("Us meld", "Them meld"), with only the
# columns its table has: no third side's column in a game of two, no bid where nobody bids, the "dealer stuck" and
# "only 9s of trump" boxes only where the hand form asks them. A blank line between games.
FIGURES = ("meld", "counters", "points", "total")
# A spreadsheet opens a file that starts with this mark as UTF-8 (the suits, names with accents), not as its
# own old code page.
BYTE_ORDER_MARK = "\ufeff"


def sheets_csv(db, game_ids: list[int] | None = None, *, time_words=str) -> str:
    """Score sheets for a spreadsheet, a block a game (see `FIGURES` above), in order, with the running totals. No
    text cell is read as a formula (see `cell`); numbers stay numbers. `time_words` writes a stored time as the
    pages do (in the house's zone): the web shell gives its own."""
    out = io.StringIO()
    out.write(BYTE_ORDER_MARK)
    writer = csv.writer(out)
    for n, game_id in enumerate(game_ids or store_games.game_ids(db)):
        if n:
            writer.writerow([])
        game = store_games.load_game(db, game_id)
        writer.writerows(map(cell, row) for row in _sheet(game, store_games.live_hands(db, game_id), time_words))
    return out.getvalue()


def _sheet(game: Game, hands: list[StoredHand], time_words):
    """A game's block: its title line, its header, a row a hand."""
    rules, teams = game.rules, game.teams
    state = play_game(rules, [h.hand for h in hands], names=teams)
    stuck, nines = rules.bidding and can_be_stuck(rules), bool(dix_value(rules) and rules.save_counters)
    yield [f"Game {game.id}", " – ".join(teams), time_words(game.created_at), rules.title, _standing(game, state)]
    yield ["Hand", "Dealer", *(("Bidder", "Bid", "Trump", "Result") if rules.bidding else ()),
           *(f"{team} {figure}" for figure in FIGURES for team in teams),
           *(("Dealer stuck",) if stuck else ()), *(f"{team}: only 9s of trump" for team in teams if nines)]
    for number, (stored, result, running) in enumerate(zip(hands, state.results, state.running, strict=True), 1):
        h = stored.hand
        dealer = seat_label(dealer_for(game.first_dealer, number - 1, rules.players), game.players)
        bid = [_bidder(game, stored), "" if h.kind == "redeal" or h.bid is None else h.bid,
               SUIT_SYMBOLS.get(h.trump or "", ""), _result(game, h, result)] if rules.bidding else []
        counters = h.counters or ("",) * len(h.meld)
        yield [number, dealer, *bid, *(value for each in (h.meld, counters, result.points, running) for value in each),
               *([_yes_no(h.forced)] if stuck else []), *(_yes_no(flag) for flag in h.dix_only if nines)]


def _standing(game: Game, state) -> str:
    if state.winner is not None:
        return words.won(game.teams[state.winner])
    return "ended unfinished" if game.abandoned_at else "in progress"


def _result(game: Game, h, result) -> str:
    """What happened, in the one word the sheet's badge says ("made", "set", "throw-in"), and who reneged."""
    said = words.outcome(result.made, h.kind, result.automatic_throw_in)
    return f"{said} by {game.teams[h.renege_team]}" if h.kind == "renege" and h.renege_team is not None else said


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
