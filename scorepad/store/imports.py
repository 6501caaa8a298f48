"""Writing an import: all or nothing, and nothing of it in the live database until all of it is.

Everything an import writes is first made in a staging database of its own, private and without a file name
(`connection.staging`), numbered on its own: the hands and their history go in there through `insert_hands`, as
every hand does. Then one short transaction, under the write lock, moves it all into the live database under ids
chosen there and then: players, games and seats, hands and their history, per-team and per-seat figures, club
nights with their entrants, tables and corrections. So a restore, a phone's save or another import, in this
process or another, lands wholly before the import or wholly after it, and never on ids the import thinks are
its own; an import cut off at any moment (a kill, a power cut) leaves the live database exactly as it was, and
nothing to clear up afterwards. The triggers keep the version counters, as for every write.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

from ..core.document import ImportedGame
from ..core.document_nights import ImportedNight, ImportedSeason
from ..core.errors import ImportRefused
from ..core.inputs import name_key
from . import hand_ids, replica_marks
from .connection import database_path, now, staging, write_lock
from .games import NewHand, insert_hands, outcome

# Every game fills the columns of four sides and eight seats: those its table does not have are left empty.
_SIDES, _SEATS = 4, 8
_TEAMS = [f"team_{t}" for t in range(_SIDES)]
_SEAT_COLUMNS = [f"seat_{s}" for s in range(_SEATS)]
_TOTALS = [f"total_{t}" for t in range(_SIDES)]
_ENTRANTS = [f"entrant_{s}" for s in range(4)]

# The staging database's tables, beside `hands` and `hand_edits` (copies of the live ones' columns). Their
# columns have no type, so that a name such as "1234" stays text until it is looked up among the players.
_STAGED = {
    "names": ["name"],
    "games": ["id", "created_at", "rules", *_TEAMS, *_SEAT_COLUMNS, "first_dealer", "rematch_of", *_TOTALS,
              "hands_count", "winner", "finished_at", "abandoned_at"],
    "seats": ["game_id", "seat", "team", "player", "finished", "won"],
    "team_results": ["game_id", "team", "hands", "sum_meld", "max_points", "hands_bid", "made", "went_set",
                     "sum_bid"],
    "seat_results": ["game_id", "seat", "hands_bid", "made", "went_set", "sum_bid"],
    "nights": ["id", "name", "created_at", "kind", "rules", "round_end", "round_size", "rounds", "tie_breaks",
               "director_key", "round", "round_started_at", "closed_at", "movement", "bye_rule", "bye_points",
               "standings_hidden"],
    "entrants": ["night_id", "number", "name", "player_0", "player_1", "first_round", "last_round"],
    "tables": ["id", "night_id", "round", "table_no", "game_id", *_ENTRANTS, "ended_at", "score_0", "score_1",
               "winner", "confirmed_at", "confirmed_by", "ended_how", "end_note"],
    "changes": ["table_id", "at", "before_0", "before_1", "after_0", "after_1", "note"],
    "seasons": ["name", "started_at", "best_of", "min_nights", "specials", "bye_rule", "bye_points",
                "improved_min_nights", "last_place", "ratings"],
    "unrated": ["night_id", "player"],
    "night_seasons": ["night_id", "season"],  # a night's season by its name; none: the season under way here
    "specials": ["table_id", "hand", "player", "kind", "at"],
}


def _player(column: str) -> str:
    # a name is the player whose name has its key (NFKC, case-folded, no invisible characters), as in the forms
    return f"(SELECT p.id FROM live.players p WHERE p.name_key = name_key(s.{column}))"


# How each staged table moves into the live one: its columns there, and what fills them. The ids are the
# staging database's own (from 1) plus the live table's highest id at that moment (:game, :hand, :night, :table).
_MOVES = [
    # a name whose key a player has already is that player (the first of two look-alikes in the file, too)
    ("players (name, name_key, created_at)",
     "SELECT name, name_key(name), :at FROM main.names WHERE true ORDER BY name ON CONFLICT DO NOTHING"),
    (f"games (id, created_at, rules, {', '.join(_TEAMS)}, {', '.join(_SEAT_COLUMNS)}, first_dealer, rematch_of, "
     f"{', '.join(_TOTALS)}, hands_count, winner, finished_at, abandoned_at)",
     f"SELECT id + :game, created_at, rules, {', '.join(_TEAMS)}, {', '.join(map(_player, _SEAT_COLUMNS))}, "
     f"first_dealer, rematch_of + :game, {', '.join(_TOTALS)}, hands_count, winner, finished_at, abandoned_at "
     "FROM main.games s ORDER BY id"),  # a rematch comes after its game
    ("game_seats (game_id, seat, team, player_id, finished, won)",
     f"SELECT game_id + :game, seat, team, {_player('player')}, finished, won FROM main.seats s"),
    ("hands ({hands})", "SELECT id + :hand, game_id + :game, {hands_rest} FROM main.hands ORDER BY id"),
    ("hand_edits ({edits})", "SELECT hand_id + :hand, {edits_rest} FROM main.hand_edits ORDER BY id"),
    (f"team_results ({', '.join(_STAGED['team_results'])})",
     f"SELECT game_id + :game, {', '.join(_STAGED['team_results'][1:])} FROM main.team_results"),
    (f"seat_results ({', '.join(_STAGED['seat_results'])})",
     f"SELECT game_id + :game, {', '.join(_STAGED['seat_results'][1:])} FROM main.seat_results"),
    # a season is one season by its name: the file's "First season" is the one here of that name, if there is one
    (f"club_seasons ({', '.join(_STAGED['seasons'])})",
     f"SELECT {', '.join(_STAGED['seasons'])} FROM main.seasons s WHERE NOT EXISTS ("
     "SELECT 1 FROM live.club_seasons l WHERE name_key(l.name) = name_key(s.name)) ORDER BY rowid"),
    (f"club_nights ({', '.join(_STAGED['nights'])}, season_id)",
     f"SELECT id + :night, {', '.join(_STAGED['nights'][1:])}, coalesce((SELECT l.id FROM live.club_seasons l "
     "JOIN main.night_seasons n ON name_key(l.name) = name_key(n.season) WHERE n.night_id = s.id ORDER BY l.id "
     "LIMIT 1), :current) FROM main.nights s ORDER BY id"),
    ("club_entrants (night_id, number, name, player_0, player_1, first_round, last_round)",
     f"SELECT night_id + :night, number, name, {_player('player_0')}, {_player('player_1')}, first_round, "
     "last_round FROM main.entrants s"),
    (f"club_tables (id, night_id, round, table_no, game_id, {', '.join(_ENTRANTS)}, ended_at, score_0, score_1, "
     "winner, confirmed_at, confirmed_by, ended_how, end_note)",
     f"SELECT id + :table, night_id + :night, round, table_no, game_id + :game, {', '.join(_ENTRANTS)}, ended_at, "
     f"score_0, score_1, winner, confirmed_at, {_player('confirmed_by')}, ended_how, end_note FROM main.tables s "
     "ORDER BY id"),
    ("club_unrated (night_id, player_id)",
     f"SELECT night_id + :night, {_player('player')} FROM main.unrated s ORDER BY rowid"),
    (f"club_result_changes ({', '.join(_STAGED['changes'])})",
     f"SELECT table_id + :table, {', '.join(_STAGED['changes'][1:])} FROM main.changes ORDER BY rowid"),
    ("club_specials (night_id, table_id, hand, player_id, kind, at)",
     f"SELECT t.night_id + :night, s.table_id + :table, s.hand, {_player('player')}, s.kind, s.at "
     "FROM main.specials s JOIN main.tables t ON t.id = s.table_id ORDER BY s.rowid"),
]
# A season here that the file's season of its name joins started when the earlier of the two did.
_SEASON_STARTED = """UPDATE live.club_seasons AS l SET started_at = s.started_at FROM main.seasons s
                     WHERE name_key(l.name) = name_key(s.name) AND s.started_at < l.started_at"""
# The season a night of a file without seasons counts in: the one under way here when the import began.
_CURRENT_SEASON = "SELECT id FROM live.club_seasons ORDER BY started_at DESC, id DESC LIMIT 1"
_HIGHEST = {"game": "games", "hand": "hands", "night": "club_nights", "table": "club_tables"}


def import_games(db, games: list[ImportedGame], nights: Sequence[ImportedNight] = (),
                 seasons: Sequence[ImportedSeason] = ()) -> list[int]:
    """Write games (and club nights) that passed `scorepad.core.document.check`, all or nothing; returns the games'
    new ids, in order. Each hand's points and outcome, each game's totals and its per-team and per-seat figures
    are computed here, before any lock, exactly as `rescore` keeps them (a club table whose round is over settles
    its game, as `clubs.settle_game` does). Raises ImportRefused (409) when they are here already."""
    if not games and not nights:
        return []
    _refuse_known_tokens(db, games)  # the usual refusal, at once: nothing is staged for it
    staged = staging(database_path(db))
    staged.conn.create_function("name_key", 1, _key_or_null, deterministic=True)
    try:
        _stage(staged, games, nights, seasons)
        staged.execute("PRAGMA foreign_keys = ON")  # for the live tables the move fills (not inside a transaction)
        with write_lock(staged):
            _refuse_known(staged)
            offsets = {name: staged.execute(f"SELECT coalesce(max(id), 0) FROM live.{table}").fetchone()[0]
                       for name, table in _HIGHEST.items()}
            offsets["hand"] = hand_ids.highest(staged, "live")  # above every id a hand has had
            current = (staged.execute(_CURRENT_SEASON).fetchone() or (None,))[0]
            columns = _hand_columns(staged)
            for target, select in _MOVES:
                staged.execute(f"INSERT INTO live.{target.format(**columns)} {select.format(**columns)}",
                               {**offsets, "at": now(), "current": current})
            staged.execute(_SEASON_STARTED)
            replica_marks.mark_changed(staged, "an import", schema="live")  # the replica is drilled after it
    finally:
        staged.close()
    return list(range(offsets["game"] + 1, offsets["game"] + 1 + len(games)))


def _key_or_null(name):
    # an empty seat (NULL) has no key; SQLite passes it as None
    return None if name is None else name_key(str(name))


def _hand_columns(db) -> dict[str, str]:
    """The columns of the hands and their history, as the live tables have them, for the moves' statements."""
    def names(table: str) -> list[str]:
        return [r[1] for r in db.execute(f"SELECT * FROM pragma_table_info('{table}', 'live')")]
    hands = [c for c in names("hands") if c not in ("id", "game_id")]
    edits = [c for c in names("hand_edits") if c not in ("id", "hand_id")]
    return {"hands": ", ".join(["id", "game_id", *hands]), "hands_rest": ", ".join(hands),
            "edits": ", ".join(["hand_id", *edits]), "edits_rest": ", ".join(edits)}


# --- staging ----------------------------------------------------------------------------------------------------

def _stage(db, games: list[ImportedGame], nights: Sequence[ImportedNight],
           seasons: Sequence[ImportedSeason] = ()) -> None:
    """Everything the import writes, into the staging database `db`, numbered from 1: game i of the list is
    game i + 1, a night's tables are numbered across the nights."""
    with db.conn:
        # (counters empty: the staged hands are numbered from 1, and moved above the live ones' highest id)
        for table in ("hands", "hand_edits", "counters"):
            db.execute(f"CREATE TABLE main.{table} AS SELECT * FROM live.{table} WHERE false")
        for table, columns in _STAGED.items():
            db.execute(f"CREATE TABLE main.{table} ({', '.join(columns)})")
        ended = {table.game: table for night in nights for table in night.tables if table.ended_at is not None}
        for number, game in enumerate(games, start=1):
            insert_hands(db, number, _new_hands(game))
        rows = _game_rows(games, ended)
        rows.update(_night_rows(nights))
        rows["seasons"] = [(s.name, s.started_at, s.best_of, s.min_nights, ",".join(s.specials), s.bye_rule,
                            s.bye_points, s.improved_min_nights, int(s.last_place), s.ratings) for s in seasons]
        rows["names"] = [(name,) for name in sorted(_names(games, nights))]
        for table, values in rows.items():
            marks = ", ".join("?" * len(_STAGED[table]))
            db.conn.executemany(f"INSERT INTO main.{table} VALUES ({marks})", values)


def _names(games: list[ImportedGame], nights: Sequence[ImportedNight]) -> set[str]:
    names = {name for game in games for name in game.players if name}
    return names | {name for night in nights for entrant in night.entrants for name in entrant.players}


def _new_hands(game: ImportedGame) -> list[NewHand]:
    """Every hand of a game as it goes into the store, live hands with the points `rescore` gives them; deleted
    hands keep no points, as after any re-score."""
    kept = {h.seq: (*r.points, outcome(r)) for h, r in zip(game.live_hands, game.state.results, strict=True)}
    return [NewHand(h.token, h.hand, seq=h.seq, created_at=h.created_at, updated_at=h.updated_at,
                    deleted_at=h.deleted_at,
                    edits=[dataclasses.asdict(edit) for edit in h.edits], kept=kept.get(h.seq))
            for h in game.hands]


def _game_rows(games: list[ImportedGame], ended: dict) -> dict[str, list[tuple]]:
    """Every row of the games, their seats and their per-team and per-seat figures, as the app would have left
    them. A game at a club table whose round is over is finished when the round ended (unless it was won
    before) and won by the table's winner: its seats are finished with it, and it has its figures."""
    rows: dict[str, list[tuple]] = {"games": [], "seats": [], "team_results": [], "seat_results": []}
    for game_id, game in enumerate(games, start=1):
        sides, winner, finished_at = game.rules.sides, game.state.winner, game.finished_at
        table = ended.get(game_id - 1)
        abandoned_at = game.abandoned_at
        if table is not None and table.score is None:  # no hand played at the table: no game (`settle_game`)
            winner, finished_at, abandoned_at = None, None, table.ended_at
        elif table is not None:
            winner, finished_at, abandoned_at = table.winner, finished_at or table.ended_at, None
        rows["games"].append((game_id, game.created_at, json.dumps(game.rules.to_dict()), *_padded(game.teams, _SIDES),
                              *_padded(game.players, _SEATS), game.first_dealer,
                              None if game.rematch_index is None else game.rematch_index + 1,
                              *_padded(game.state.totals, _SIDES), len(game.live_hands), winner, finished_at,
                              abandoned_at))
        finished = int(finished_at is not None)
        rows["seats"] += [(game_id, seat, seat % sides, name, finished, int(winner == seat % sides))
                          for seat, name in enumerate(game.players) if name]
        if game.hands or (table is not None and table.score is not None):  # written with its first hand, or its end
            rows["team_results"] += [(game_id, *row) for row in _team_results(game)]
        rows["seat_results"] += [(game_id, *row) for row in _seat_results(game)]
    return rows


def _night_rows(nights: Sequence[ImportedNight]) -> dict[str, list[tuple]]:
    """Every row of the club nights, their entrants, tables and the director's corrections. A table's game is
    the place of its game in the import's list (game 1 is 0)."""
    rows: dict[str, list[tuple]] = {"nights": [], "entrants": [], "tables": [], "changes": [], "night_seasons": [],
                                    "specials": [], "unrated": []}
    table_id = 0
    for night_id, night in enumerate(nights, start=1):
        rows["nights"].append((night_id, night.name, night.created_at, night.kind, json.dumps(night.rules.to_dict()),
                               night.round_end, night.round_size, night.rounds, ",".join(night.tie_breaks),
                               night.director_key, night.round, night.round_started_at, night.closed_at,
                               night.movement, night.bye.kind, night.bye.points, int(night.standings_hidden)))
        rows["entrants"] += [(night_id, e.number, e.name, *_padded(e.players, 2), e.first_round, e.last_round)
                             for e in night.entrants]
        rows["unrated"] += [(night_id, player) for player in night.unrated]
        for table in night.tables:
            table_id += 1
            rows["tables"].append((table_id, night_id, table.round, table.table_no, table.game + 1, *table.entrants,
                                   table.ended_at, *_padded(table.score or (), 2), table.winner, table.confirmed_at,
                                   table.confirmed_by, table.ended_how, table.end_note))
            rows["changes"] += [(table_id, c.at, *_padded(c.before or (), 2), *c.after, c.note) for c in table.changes]
            rows["specials"] += [(table_id, x.hand, x.player, x.kind, x.at) for x in table.specials]
        if night.season is not None:
            rows["night_seasons"].append((night_id, night.season))
    return rows


def _padded(values: tuple, size: int) -> tuple:
    return (*values, *(None,) * (size - len(values)))


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


# --- what is here already -----------------------------------------------------------------------------------

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
            raise _already_here(first)


def _already_here(number: int) -> ImportRefused:
    return ImportRefused(f"Game {number} is already here: its hands were imported before. Nothing was imported.", 409)


def _refuse_known(db) -> None:
    """Under the write lock, as the staged rows are about to move: none of them is here already (a phone, or
    another import, may have written some since the first look)."""
    game = db.execute("SELECT min(s.game_id) FROM main.hands s JOIN live.hands l ON l.token = s.token").fetchone()[0]
    if game is not None:
        raise _already_here(game)
    night = db.execute("""SELECT s.id, s.name FROM main.nights s JOIN live.club_nights l
                          ON l.name = s.name AND l.created_at = s.created_at ORDER BY s.id LIMIT 1""").fetchone()
    if night is not None:
        raise ImportRefused(f"Club night {night[0]} ({night[1]}) is already here: a night of that name was held "
                            "at that moment. Nothing was imported.", 409)
