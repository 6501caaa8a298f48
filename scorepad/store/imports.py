"""Writing an import: thousands of games without holding the write lock for long, and all or nothing.

Their hands and per-team and per-seat figures go in first, in short transactions, under game ids reserved for
them: no page reaches those but through their game, so nobody sees them. Then the games themselves go in with
their seats, in one short transaction that makes all of them appear at once. A failure takes the rest out
again; what an import that was cut off (a power cut) left goes before the next import starts. The hands go in
through `insert_hands`, as every hand does; the triggers keep the version counters, as for every write.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import threading

from ..document import ImportedGame
from ..errors import ImportRefused
from .connection import connect, database_path, write_lock
from ..inputs import name_key
from .games import NEXT_GAME_ID, RESERVED_GAME_IDS, NewHand, insert_hands, outcome
from .players import player_for

IMPORT_BATCH_ROWS = 5_000  # rows written in one transaction: about a twentieth of a second on a laptop
_IMPORTING = threading.Lock()  # one import at a time, so each may clear what a cut-off one left

_PLAYER = "(SELECT id FROM players WHERE name_key = ?)"  # a seat names its player by the key of the name
# Every game fills the columns of four sides and eight seats: those its table does not have are left empty.
_SIDES, _SEATS = 4, 8
_GAME_INSERT = f"""INSERT INTO games (id, created_at, rules, {', '.join(f'team_{t}' for t in range(_SIDES))},
    {', '.join(f'seat_{s}' for s in range(_SEATS))}, first_dealer, rematch_of,
    {', '.join(f'total_{t}' for t in range(_SIDES))}, hands_count, winner, finished_at, abandoned_at)
    VALUES (?, ?, ?, {'?, ' * _SIDES}{f'{_PLAYER}, ' * _SEATS}?, ?, {'?, ' * _SIDES}?, ?, ?, ?)"""
_SEAT_INSERT = ("INSERT INTO game_seats (game_id, seat, team, player_id, finished, won) "
                f"VALUES (?, ?, ?, {_PLAYER}, ?, ?)")
_FIGURES_INSERTS = {
    "team_results": "INSERT INTO team_results (game_id, team, hands, sum_meld, max_points, hands_bid, made, "
                    "went_set, sum_bid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "seat_results": "INSERT INTO seat_results (game_id, seat, hands_bid, made, went_set, sum_bid) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
}


def import_games(db, games: list[ImportedGame]) -> list[int]:
    """Write games that passed `scorepad.document.check`, all or nothing; returns their new ids, in order.

    Each hand's points and outcome, each game's totals and its per-team and per-seat figures are computed here,
    before any lock, exactly as `rescore` keeps them. Hands, their history and the figures go in transactions of
    at most `IMPORT_BATCH_ROWS` rows; the games and their seats in one last transaction of inserts only.
    Raises ImportRefused (409) when the games are already here."""
    if not games:
        return []
    hands = [(index, hand) for index, game in enumerate(games) for hand in _new_hands(game)]
    if not _IMPORTING.acquire(timeout=60):
        raise ImportRefused("Another import is being written; try again in a minute. Nothing was imported.", 409)
    writer = connect(database_path(db))
    try:
        _drop_cut_off_import(writer)
        _refuse_known_tokens(writer, games)
        first = _reserve_game_ids(writer, len(games))
        try:
            rows = _summary_rows(first, games)
            writer.execute("PRAGMA foreign_keys = OFF")  # their games come last
            for batch in _batches(hands):
                _write_hands(writer, first, batch)
            for table, sql in _FIGURES_INSERTS.items():
                for chunk in _chunks(rows[table], IMPORT_BATCH_ROWS):
                    with write_lock(writer):
                        writer.conn.executemany(sql, chunk)
            writer.execute("PRAGMA foreign_keys = ON")
            _write_games(writer, rows, {name for game in games for name in game.players if name})
        except BaseException:
            _drop_import(writer, first, first + len(games) - 1)
            raise
    finally:
        writer.close()
        _IMPORTING.release()
    return list(range(first, first + len(games)))


def _batches(hands: list):
    """The hands in runs whose rows (each hand and its history lines) fit in one transaction."""
    batch, rows = [], 0
    for hand in hands:
        _, new = hand
        size = 1 + len(new.edits)
        if batch and rows + size > IMPORT_BATCH_ROWS:
            yield batch
            batch, rows = [], 0
        batch.append(hand)
        rows += size
    if batch:
        yield batch


def _new_hands(game: ImportedGame) -> list[NewHand]:
    """Every hand of a game as it goes into the store, live hands with the points `rescore` gives them; deleted
    hands keep no points, as after any re-score."""
    kept = {h.seq: (*r.points, outcome(r)) for h, r in zip(game.live_hands, game.state.results, strict=True)}
    return [NewHand(h.token, h.hand, seq=h.seq, created_at=h.created_at, updated_at=h.updated_at,
                    deleted_at=h.deleted_at,
                    edits=[dataclasses.asdict(edit) for edit in h.edits], kept=kept.get(h.seq))
            for h in game.hands]


def _write_hands(db, first: int, batch: list) -> None:
    """One transaction: the hands of `batch`, each under the game id reserved for its game."""
    with write_lock(db):
        for index, hands in itertools.groupby(batch, key=lambda hand: hand[0]):
            insert_hands(db, first + index, [new for _, new in hands])


def _summary_rows(first: int, games: list[ImportedGame]) -> dict[str, list[tuple]]:
    """Every row of the games, their seats and their per-team and per-seat figures, built before the lock is
    taken: the games get the ids from `first` on, and seats name their players (found in the insert)."""
    rows: dict[str, list[tuple]] = {"games": [], "seats": [], "team_results": [], "seat_results": []}
    for game_id, game in enumerate(games, start=first):
        winner, sides = game.state.winner, game.rules.sides
        rows["games"].append((game_id, game.created_at, json.dumps(game.rules.to_dict()), *_padded(game.teams, _SIDES),
                              *_padded(_keys(game.players), _SEATS), game.first_dealer,
                              None if game.rematch_index is None else first + game.rematch_index,
                              *_padded(game.state.totals, _SIDES), len(game.live_hands), winner, game.finished_at,
                              game.abandoned_at))
        rows["seats"] += [(game_id, seat, seat % sides, name_key(name), int(winner is not None),
                           int(winner == seat % sides))
                          for seat, name in enumerate(game.players) if name]
        rows["team_results"] += [(game_id, *row) for row in _team_results(game)]
        rows["seat_results"] += [(game_id, *row) for row in _seat_results(game)]
    return rows


def _keys(names: tuple) -> tuple:
    return tuple(name and name_key(name) for name in names)


def _padded(values: tuple, size: int) -> tuple:
    return (*values, *(None,) * (size - len(values)))


def _write_games(db, rows: dict[str, list[tuple]], names: set[str]) -> None:
    """The games, their players and seats, in one transaction of inserts: they all appear at once."""
    with write_lock(db):
        # a name whose key a player has already is that player (the first of two look-alikes in the file, too)
        for name in sorted(names):
            player_for(db, name)
        db.conn.executemany(_GAME_INSERT, rows["games"])
        db.conn.executemany(_SEAT_INSERT, rows["seats"])
        db.execute("DELETE FROM counters WHERE name = ?", [RESERVED_GAME_IDS])


def _scored(game: ImportedGame) -> list[tuple]:
    """(hand, bidder_seat, result, outcome) for the live hands that were dealt and bid, not redealt."""
    return [(h.hand, h.hand.bidder_seat, r, outcome(r))
            for h, r in zip(game.live_hands, game.state.results, strict=True) if h.hand.kind != "redeal"]


def _team_results(game: ImportedGame) -> list[tuple]:
    """The rows `refresh_results` makes in team_results for this game, computed in Python."""
    scored = _scored(game)
    rows = []
    for team in range(game.rules.sides):
        bid = [(hand, kept) for hand, _, _, kept in scored if hand.bidder == team]
        rows.append((team, len(scored), sum(hand.meld[team] for hand, *_ in scored),
                     max((result.points[team] for _, _, result, _ in scored), default=None), len(bid),
                     sum(kept == "made" for _, kept in bid), sum(kept == "set" for _, kept in bid),
                     sum(hand.bid for hand, _ in bid)))
    return rows


def _seat_results(game: ImportedGame) -> list[tuple]:
    """The rows `refresh_results` makes in seat_results for this game: one for each seat that bid."""
    by_seat: dict[int, list] = {}
    for hand, seat, _, kept in _scored(game):
        if seat is not None:
            by_seat.setdefault(seat, []).append((hand.bid, kept))
    return [(seat, len(bids), sum(kept == "made" for _, kept in bids), sum(kept == "set" for _, kept in bids),
             sum(bid for bid, _ in bids)) for seat, bids in sorted(by_seat.items())]


def _chunks(values: list, size: int = 500):
    for start in range(0, len(values), size):
        yield values[start:start + size]


def _refuse_known_tokens(db, games: list[ImportedGame]) -> None:
    """A hand's token is unique: a game whose hands are here already was imported (or recorded) before."""
    game_of = {h.token: game.number for game in games for h in game.hands}
    for chunk in _chunks(list(game_of)):
        known = db.execute(f"SELECT token FROM hands WHERE token IN ({', '.join('?' * len(chunk))})", chunk)
        first = min((game_of[token] for (token,) in known), default=None)
        if first is not None:
            raise ImportRefused(f"Game {first} is already here: its hands were imported before. "
                                "Nothing was imported.", 409)


def _reserve_game_ids(db, count: int) -> int:
    """Keep `count` game ids for this import (new games are given ids past them); returns the first."""
    with write_lock(db):
        first = db.execute(NEXT_GAME_ID).fetchone()[0]
        db.execute("INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE "
                   "SET value = excluded.value", [RESERVED_GAME_IDS, first + count - 1])
    return first


def _drop_cut_off_import(db) -> None:
    """Clear what an import that was cut off left: hands under the game ids it had reserved, and the reservation.
    Its games were never written, so nobody has seen any of it."""
    row = db.execute("SELECT value FROM counters WHERE name = ?", [RESERVED_GAME_IDS]).fetchone()
    if row is not None:
        below = db.execute("SELECT coalesce(max(id), 0) FROM games WHERE id <= ?", [row[0]]).fetchone()[0]
        _drop_import(db, below + 1, row[0])


def _drop_import(db, low: int, high: int) -> None:
    """Take out the hands (and their history) and figures written under game ids [low, high], a batch at a time,
    then the reservation of those ids."""
    while True:
        with write_lock(db):
            ids = [r[0] for r in db.execute("SELECT id FROM hands WHERE game_id BETWEEN ? AND ? LIMIT ?",
                                            [low, high, IMPORT_BATCH_ROWS])]
            for chunk in _chunks(ids):
                marks = ", ".join("?" * len(chunk))
                db.execute(f"DELETE FROM hand_edits WHERE hand_id IN ({marks})", chunk)
                db.execute(f"DELETE FROM hands WHERE id IN ({marks})", chunk)
        if not ids:
            break
    with write_lock(db):
        for table in _FIGURES_INSERTS:
            db.execute(f"DELETE FROM {table} WHERE game_id BETWEEN ? AND ?", [low, high])
        db.execute("DELETE FROM counters WHERE name = ?", [RESERVED_GAME_IDS])
