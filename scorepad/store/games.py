"""Games, their hands and each hand's history, and what a fold of the hands says, kept beside them.

Rows go in and out as the core's dataclasses. Every hand goes in through `insert_hands`, whether a phone
recorded it, an import brought it or a benchmark made it up.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..core.errors import ScorepadError
from ..core.hands import hand_from_columns, hand_to_columns, hand_to_history
from ..core.rules import Rules
from ..core.scoring import Hand, play_game
from . import hand_ids
from .connection import MAX_ID, created_within, now, rows
from .players import player_for

_logger = logging.getLogger(__name__)

# --- games ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Game:
    id: int
    created_at: str
    rules: Rules
    teams: tuple[str, ...]  # one per side (a player's own name where each plays alone)
    players: tuple[str | None, ...]  # one per seat
    first_dealer: int
    version: int
    totals: tuple[int, ...]  # one per side
    hands_count: int
    winner: int | None
    finished_at: str | None
    rematch_of: int | None
    abandoned_at: str | None = None  # ended unfinished: no longer in progress, and nobody won it
    rematch: int | None = None  # the game started as this one's rematch, once there is one
    uid: str = ""  # the game's identity: never another game's, even after a restore reuses its id (m020)

    @property
    def etag(self) -> str:
        return game_etag(self.id, self.uid, self.version)

    @property
    def has_players(self) -> bool:
        return any(self.players)


NEXT_GAME_ID = "SELECT coalesce(max(id), 0) + 1 FROM games"


def create_game(db, rules: Rules, teams: tuple[str, ...], players, first_dealer: int,
                rematch_of: int | None = None, created_at: str | None = None) -> int:
    """A new game of `rules`' seating: `teams` one name per side, `players` one name (or None) per seat."""
    with db.atomic():
        seat_ids = [player_for(db, name) for name in players]
        columns = [f"team_{side}" for side in range(len(teams))] + [f"seat_{seat}" for seat in range(len(seat_ids))]
        # a third and fourth side's totals start at 0 as the first two do (their columns default to NULL, which a
        # restore's check of kept totals took for a game to score again)
        zeros = [f"total_{side}" for side in range(2, len(teams))]
        # the id is chosen inside the insert itself, so under the write lock
        game_id = db.execute(
            f"""INSERT INTO games (id, uid, created_at, rules, {', '.join(columns + zeros)}, first_dealer, rematch_of)
                VALUES (({NEXT_GAME_ID}), ?, ?, ?, {', '.join('?' * len(columns + zeros))}, ?, ?)""",
            [secrets.token_hex(12), created_at or now(), json.dumps(rules.to_dict()), *teams, *seat_ids,
             *(0 for _ in zeros), first_dealer, rematch_of]).lastrowid
        db.conn.executemany("INSERT INTO game_seats (game_id, seat, team, player_id) VALUES (?, ?, ?, ?)",
                            [(game_id, seat, seat % len(teams), player_id) for seat, player_id in enumerate(seat_ids)
                             if player_id is not None])
        return game_id


MOST_SEATS, MOST_SIDES = 8, 4
_GAME_SELECT = f"""
SELECT g.*, {', '.join(f'p{seat}.name AS name_{seat}' for seat in range(MOST_SEATS))},
       (SELECT min(r.id) FROM games r WHERE r.rematch_of = g.id) AS rematch
FROM games g
{' '.join(f'LEFT JOIN players p{seat} ON p{seat}.id = g.seat_{seat}' for seat in range(MOST_SEATS))}
"""


@lru_cache(maxsize=256)
def stored_rules(text: str) -> Rules:
    """The Rules a game's stored snapshot (its JSON text) describes, checked as a kept game's are. A page lists
    dozens of games and nearly all share a few rule sets: each distinct text is parsed and checked once, and the
    frozen Rules it gives is shared."""
    return Rules.from_dict(json.loads(text), kept=True)


def _game(row: dict) -> Game:
    rules = stored_rules(row["rules"])
    return Game(
        id=row["id"], created_at=row["created_at"], rules=rules,
        teams=tuple(row[f"team_{side}"] for side in range(rules.sides)),
        players=tuple(row[f"name_{seat}"] for seat in range(rules.players)),
        first_dealer=row["first_dealer"], version=row["version"],
        totals=tuple(row[f"total_{side}"] or 0 for side in range(rules.sides)), hands_count=row["hands_count"],
        winner=row["winner"], finished_at=row["finished_at"], rematch_of=row["rematch_of"],
        abandoned_at=row.get("abandoned_at"), rematch=row.get("rematch"), uid=row.get("uid") or "",
    )


class UnreadableGame(ScorepadError):
    """A stored game today's code cannot read (its rules are not a rule set): its page says so, in words, and
    lists leave it out; every other game opens as usual."""

    status_hint = 422
    title = "This game cannot be read"


def _readable_game(row: dict) -> Game:
    try:
        return _game(row)
    except Exception as exc:  # noqa: BLE001 - whatever the row holds, it is one game, not the whole app
        raise UnreadableGame(
            f"Game {row['id']} cannot be read: its stored rules are not a rule set Scorepad knows "
            f"({exc.__class__.__name__}). Every other game is as it was. To get it back, restore a backup made "
            "before it was damaged.") from None


def _readable_games(found: list[dict]) -> list[Game]:
    """The games of a list that can be read; each one that cannot is logged and left out."""
    games = []
    for row in found:
        try:
            games.append(_readable_game(row))
        except UnreadableGame as unreadable:
            _logger.warning("%s", unreadable)
    return games


def load_game(db, game_id: int) -> Game | None:
    """The game, None when there is none; raises UnreadableGame for one whose stored rules do not read."""
    if not 0 < game_id <= MAX_ID:
        return None
    found = rows(db, _GAME_SELECT + " WHERE g.id = ?", [game_id])
    return _readable_game(found[0]) if found else None


def game_version(db, game_id: int) -> int | None:
    stamp = game_stamp(db, game_id)
    return stamp[1] if stamp else None


def game_stamp(db, game_id: int) -> tuple[str, int] | None:
    """(identity, version): what a page of the game is kept under and its ETag made of. The version alone is not
    enough: a game made after a restore may be given the id of a game that is gone, at a version that game had."""
    if not 0 < game_id <= MAX_ID:
        return None
    row = db.execute("SELECT uid, version FROM games WHERE id = ?", [game_id]).fetchone()
    return (row[0] or "", row[1]) if row else None


def game_etag(game_id: int, uid: str, version: int) -> str:
    return f'"g{game_id}-v{version}-{uid}"'


def lists_version(db) -> int:
    """Where the lists stand (home, history, the players): moved by the database's triggers with every change to a
    game, a player, a club night or a table (m025)."""
    row = db.execute("SELECT value FROM counters WHERE name = 'lists'").fetchone()
    return row[0] if row else 0


def game_ids(db, among: Sequence[int] | None = None) -> list[int]:
    """The id of every game, or of those of `among` that exist, in order."""
    if among is None:
        return [r[0] for r in db.execute("SELECT id FROM games ORDER BY id").fetchall()]
    marks = ", ".join("?" * len(among))
    return [r[0] for r in db.execute(f"SELECT id FROM games WHERE id IN ({marks}) ORDER BY id", list(among))]


def list_games(db, finished: bool, limit: int = 20) -> list[Game]:
    where = "g.finished_at IS NOT NULL" if finished else "g.finished_at IS NULL AND g.abandoned_at IS NULL"
    order = "g.finished_at DESC" if finished else "g.created_at DESC"
    return _readable_games(rows(db, f"{_GAME_SELECT} WHERE {where} ORDER BY {order}, g.id DESC LIMIT ?", [limit]))


# A club table whose round ended before any hand was played there (and whose result the director never typed) is
# no game: no list of games shows it (see `clubs.settle_game`).
NOT_A_GAME = """NOT EXISTS (SELECT 1 FROM club_tables t WHERE t.game_id = g.id AND t.ended_at IS NOT NULL
                            AND t.score_0 IS NULL)"""


def history_games(db, player_id: int | None = None, start: str | None = None, end: str | None = None,
                  limit: int = 200, before: str | None = None) -> list[Game]:
    """Games newest first, optionally only those a player sat in, started within [start, end) (UTC ISO), and
    (for the next page) started before `before`."""
    where, params = [NOT_A_GAME], []
    if before:
        where.append("g.created_at < ?")
        params.append(before)
    if player_id is not None:
        # EXISTS lets SQLite walk games newest first and stop at the page's end, however long the history
        where.append("EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.player_id = ?)")
        params.append(player_id)
    within, dates = created_within("g.created_at", start, end)
    where, params = where + within, params + dates
    sql = _GAME_SELECT + (" WHERE " + " AND ".join(where) if where else "") + \
        " ORDER BY g.created_at DESC, g.id DESC LIMIT ?"
    return _readable_games(rows(db, sql, [*params, limit]))


def abandon_game(db, game_id: int) -> bool:
    """Inside the caller's write lock: the unfinished game is ended, kept in history as abandoned. False when it
    had already been ended, or has a winner."""
    done = db.execute("UPDATE games SET abandoned_at = ? WHERE id = ? AND abandoned_at IS NULL AND winner IS NULL",
                      [now(), game_id])
    return done.rowcount == 1


# --- what a fold of the hands says ------------------------------------------------------------------------------

_RESULTS_SQL = """
INSERT INTO team_results (game_id, team, hands, sum_meld, max_points, hands_bid, made, went_set, sum_bid)
SELECT g.id, t.team,
       count(h.id),
       coalesce(sum(CASE t.team WHEN 0 THEN h.meld_0 WHEN 1 THEN h.meld_1 WHEN 2 THEN h.meld_2 ELSE h.meld_3 END), 0),
       max(CASE t.team WHEN 0 THEN h.points_0 WHEN 1 THEN h.points_1 WHEN 2 THEN h.points_2 ELSE h.points_3 END),
       count(h.id) FILTER (WHERE h.bidder = t.team),
       count(h.id) FILTER (WHERE h.bidder = t.team AND h.outcome = 'made'),
       count(h.id) FILTER (WHERE h.bidder = t.team AND h.outcome = 'set'),
       coalesce(sum(h.bid) FILTER (WHERE h.bidder = t.team), 0)
FROM games g CROSS JOIN (SELECT 0 AS team UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) t
LEFT JOIN hands h ON h.game_id = g.id AND h.deleted_at IS NULL AND h.kind != 'redeal'
WHERE {where} AND t.team < coalesce(g.rules ->> '$.sides', 2) GROUP BY g.id, t.team;
INSERT INTO seat_results (game_id, seat, hands_bid, made, went_set, sum_bid)
SELECT h.game_id, h.bidder_seat, count(*), count(*) FILTER (WHERE h.outcome = 'made'),
       count(*) FILTER (WHERE h.outcome = 'set'), sum(h.bid)
FROM hands h JOIN games g ON g.id = h.game_id
WHERE h.deleted_at IS NULL AND h.kind != 'redeal' AND h.bidder_seat IS NOT NULL AND {where}
GROUP BY h.game_id, h.bidder_seat;
"""


def refresh_results(db, game_id: int) -> None:
    db.execute("DELETE FROM team_results WHERE game_id = ?", [game_id])
    db.execute("DELETE FROM seat_results WHERE game_id = ?", [game_id])
    for statement in _RESULTS_SQL.strip().split(";\n"):
        if statement.strip():
            db.execute(statement.format(where="g.id = ?").rstrip(";"), [game_id])


def rescore(db, game: Game, hands: list[StoredHand], finished_at: str | None = None):
    """Fold the live hands again and keep what the fold says beside them: each hand's points and outcome,
    the game's totals and winner (finished at `finished_at`, or now). Inside the caller's transaction; returns
    the GameState."""
    state = play_game(game.rules, [h.hand for h in hands], names=game.teams)
    keep_state(db, game.id, hands, state, finished_at)
    return state


def keep_state(db, game_id: int, hands: list[StoredHand], state, finished_at: str | None = None) -> None:
    """Inside the caller's write lock: keep what a fold of `hands` (the game's live hands, in order) says beside
    them: each hand's points and outcome, the game's totals, winner and figures. `rescore` with the fold done by
    the caller, so that a change folds its game once."""
    for stored, result in zip(hands, state.results, strict=True):
        kept = (*result.points, outcome(result))
        if stored.kept != kept:  # most hands score as before: only what changed is written
            points = ", ".join(f"points_{side} = ?" for side in range(len(result.points)))
            db.execute(f"UPDATE hands SET {points}, outcome = ? WHERE id = ?", [*kept, stored.id])
    save_results(db, game_id, state.totals, len(hands), state.winner, finished_at)


def save_results(db, game_id: int, totals: tuple[int, int], hands_count: int, winner: int | None,
                 finished_at: str | None = None) -> None:
    """What a fold of the game's live hands says, for hands whose points are already kept beside them (see
    `NewHand.kept`): the game's totals and winner, when it finished, and its per-team and per-seat figures.
    Inside the caller's transaction."""
    save_summary(db, game_id, totals, hands_count, winner, finished_at)
    refresh_results(db, game_id)


def outcome(result) -> str:
    if result.made is True:
        return "made"
    if result.made is False:
        return "set"
    return result.scored_as


def save_summary(db, game_id: int, totals, hands_count: int, winner: int | None,
                 finished_at: str | None = None) -> None:
    """Keep the game's summary in step with its sheet (inside the caller's transaction). A game that has a
    winner keeps the moment it first had one: `finished_at`, or now. A club table's game whose round is over is
    finished with its table's result (see `clubs.settle_game`), whatever a fold of its hands says; one that ended
    before its first hand is no game, and is not finished."""
    was_finished, ended_at, table_winner, unplayed = db.execute(
        """SELECT g.finished_at IS NOT NULL, t.ended_at, t.winner, t.ended_at IS NOT NULL AND t.score_0 IS NULL
           FROM games g LEFT JOIN club_tables t ON t.game_id = g.id WHERE g.id = ?""", [game_id]).fetchone()
    finished = winner is not None
    if unplayed:  # a table whose round ended before a hand was played: no game, see `clubs.end_table`
        winner, finished = None, False
    elif ended_at is not None:
        winner, finished, finished_at = table_winner, True, finished_at or ended_at
    if was_finished or finished:
        db.execute("UPDATE game_seats SET finished = ?, won = coalesce(team = ?, 0) WHERE game_id = ?",
                   [int(finished), winner, game_id])
    columns = "".join(f"total_{side} = ?, " for side in range(len(totals)))
    db.execute(
        f"""UPDATE games SET {columns}hands_count = ?, winner = ?,
           finished_at = CASE WHEN ? THEN COALESCE(finished_at, ?) ELSE NULL END WHERE id = ?""",
        [*totals, hands_count, winner, finished, finished_at or now(), game_id])


# --- hands ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StoredHand:
    """A live hand as the store keeps it: the hand itself (its trump and bidder's seat too) and what is kept
    beside it."""

    id: int
    seq: int
    hand: Hand
    created_at: str
    updated_at: str
    edits: int = 0  # changes after it was recorded
    kept: tuple | None = None  # (points_0, points_1, ..., outcome) as last stored beside the hand


@dataclass(frozen=True)
class NewHand:
    """A hand on its way into the store, with everything kept beside it. A hand a phone records leaves the
    defaults: it goes after every other hand, now, with one 'recorded' line of history. An import, or a
    generated history, says them all."""

    token: str  # the form's one-time token: unique across the database
    hand: Hand
    seq: int | None = None  # its place in the game; None: after every other
    created_at: str | None = None  # None: now
    updated_at: str | None = None  # None: when it was created
    deleted_at: str | None = None
    edits: Sequence[dict] | None = None  # its history, {at, action, before, after, summary}; None: 'recorded'
    kept: tuple | None = None  # (points_0, points_1, ..., outcome) when already scored; None: the next re-score's


_HAND_INSERT = """INSERT INTO hands (id, game_id, seq, token, kind, bidder, bidder_seat, bid, trump, meld_0,
    meld_1, counters_0, counters_1, renege_team, forced, created_at, updated_at, deleted_at, points_0, points_1,
    outcome, dix_only, meld_2, counters_2, meld_3, counters_3, points_2, points_3, meld_counted) VALUES (:id, :game_id,
    :seq,
    :token, :kind, :bidder, :bidder_seat, :bid, :trump, :meld_0, :meld_1, :counters_0, :counters_1, :renege_team,
    :forced, :created_at, :updated_at, :deleted_at, :points_0, :points_1, :outcome, :dix_only, :meld_2, :counters_2,
    :meld_3, :counters_3, :points_2, :points_3, :meld_counted)"""
# The columns of a third and fourth side: empty for a hand of two.
_FURTHER_SIDES = dict.fromkeys(("meld_2", "counters_2", "meld_3", "counters_3", "points_2", "points_3"))
_EDIT_INSERT = """INSERT INTO hand_edits (hand_id, at, action, before, after, summary)
    VALUES (:hand_id, :at, :action, :before, :after, :summary)"""


def insert_hands(db, game_id: int, hands: Sequence[NewHand]) -> list[int]:
    """Every hand of `hands` into the game, with its history, inside the caller's transaction (under the write
    lock, for a game others may write to): two statements however many hands there are. Returns their ids."""
    first_id = hand_ids.highest(db) + 1  # above every id a hand has had, a restore notwithstanding
    next_seq = None
    at = now()
    hand_rows, edit_rows = [], []
    for hand_id, new in enumerate(hands, start=first_id):
        seq = new.seq
        if seq is None:
            if next_seq is None:
                next_seq = db.execute("SELECT coalesce(max(seq), 0) + 1 FROM hands WHERE game_id = ?",
                                      [game_id]).fetchone()[0]
            seq, next_seq = next_seq, next_seq + 1
        created = new.created_at or at
        *points, kept_outcome = new.kept or (None,) * (len(new.hand.meld) + 1)
        hand_rows.append({"id": hand_id, "game_id": game_id, "seq": seq, "token": new.token, **_FURTHER_SIDES,
                          **hand_to_columns(new.hand), "created_at": created, "updated_at": new.updated_at or created,
                          "deleted_at": new.deleted_at, **{f"points_{side}": p for side, p in enumerate(points)},
                          "outcome": kept_outcome})
        edits = new.edits if new.edits is not None else [_edit("recorded", None, new.hand, "Recorded.", created)]
        edit_rows += [{"hand_id": hand_id, **edit} for edit in edits]
    db.conn.executemany(_HAND_INSERT, hand_rows)
    db.conn.executemany(_EDIT_INSERT, edit_rows)
    return list(range(first_id, first_id + len(hand_rows)))


def insert_hand(db, game_id: int, token: str, hand: Hand) -> int:
    """Inside the caller's write lock: the hand goes after every other, with its 'recorded' history line."""
    return insert_hands(db, game_id, [NewHand(token, hand)])[0]


def _stored(row: dict) -> StoredHand:
    hand = hand_from_columns(row)
    return StoredHand(row["id"], row["seq"], hand, row["created_at"], row["updated_at"], row.get("edits", 0),
                      (*(row.get(f"points_{side}") for side in range(len(hand.meld))), row.get("outcome")))


_LIVE_HANDS = """SELECT h.*,
    (SELECT count(*) FROM hand_edits e WHERE e.hand_id = h.id AND e.action = 'edited') AS edits
    FROM hands h WHERE h.deleted_at IS NULL AND """


def live_hands(db, game_id: int) -> list[StoredHand]:
    return [_stored(r) for r in rows(db, _LIVE_HANDS + "h.game_id = ? ORDER BY h.seq", [game_id])]


def in_finished_order(db, game_ids: Sequence[int]) -> list[int]:
    """`game_ids` in the order their games finished (then by id), as a player's records count them."""
    return [row[0] for row in db.execute("SELECT id FROM games WHERE id IN (SELECT value FROM json_each(?)) "
                                         "ORDER BY finished_at, id", [json.dumps(list(game_ids))])]


def versions_of(db, game_ids: Sequence[int]) -> dict[int, int]:
    """Each of `game_ids`' version (moved by the database's triggers at every change to the game)."""
    return dict(db.execute("SELECT id, version FROM games WHERE id IN (SELECT value FROM json_each(?))",
                           [json.dumps(list(game_ids))]).fetchall())


def games_with_hands(db, game_ids: Sequence[int]) -> dict[int, tuple[Game, list[StoredHand]]]:
    """The readable games of `game_ids`, by id, each with its live hands (their edits not counted): two queries
    however many games, for figures over a player's thousands of games (a query a game cost more than the
    figures themselves). The hands' rows are read one at a time, so only the hands stay in memory."""
    wanted = json.dumps(list(game_ids))
    found = {game.id: (game, []) for game in _readable_games(
        rows(db, _GAME_SELECT + " WHERE g.id IN (SELECT value FROM json_each(?))", [wanted]))}
    cursor = db.execute("""SELECT h.* FROM hands h WHERE h.deleted_at IS NULL
                           AND h.game_id IN (SELECT value FROM json_each(?)) ORDER BY h.game_id, h.seq""", [wanted])
    names = [d[0] for d in cursor.description]
    for values in cursor:
        row = dict(zip(names, values, strict=True))
        if row["game_id"] in found:
            found[row["game_id"]][1].append(_stored(row))
    return found


def live_hand(db, hand_id: int) -> StoredHand | None:
    """One live hand as `live_hands` has it (a change that wrote one hand reads back that one, not them all)."""
    found = rows(db, _LIVE_HANDS + "h.id = ?", [hand_id])
    return _stored(found[0]) if found else None


def hands_as_stored(db, game_id: int) -> list[dict]:
    """Every hand of a game, deleted ones too, in order of play, each as its row (column -> value)."""
    return rows(db, "SELECT * FROM hands WHERE game_id = ? ORDER BY seq", [game_id])


def hand_by_token(db, token: str) -> dict | None:
    found = rows(db, "SELECT id, game_id FROM hands WHERE token = ?", [token])
    return found[0] if found else None


def update_hand(db, hand_id: int, hand: Hand, summary: str, before: Hand) -> None:
    """Inside the caller's write lock: the hand's new values, with their 'edited' history line. The service has
    checked, under the same lock, that the hand is still on the sheet and unchanged since its form was opened."""
    at = now()
    db["hands"].update(hand_id, {**hand_to_columns(hand), "updated_at": at})
    _log(db, hand_id, _edit("edited", before, hand, summary, at))


def delete_hand(db, hand_id: int) -> None:
    """Inside the caller's write lock: the hand leaves the sheet, with one 'deleted' history line holding it
    as it was at that moment. The service has checked, under the same lock, that it is still on the sheet (a
    second phone's or a second tap's delete comes back `already` there)."""
    at = now()
    db.execute("UPDATE hands SET deleted_at = ?, updated_at = ? WHERE id = ?", [at, at, hand_id])
    before = _stored(rows(db, "SELECT * FROM hands WHERE id = ?", [hand_id])[0])
    _log(db, hand_id, _edit("deleted", before.hand, None, "Deleted.", at))


def restore_hand(db, hand_id: int) -> None:
    """Inside the caller's write lock: a deleted hand goes back on the sheet at its place (its `seq`), with one
    'restored' history line. The service has checked, under the same lock, that it is deleted and fits its
    place (one already back comes back `already` there)."""
    at = now()
    db.execute("UPDATE hands SET deleted_at = NULL, updated_at = ? WHERE id = ?", [at, hand_id])
    after = _stored(rows(db, "SELECT * FROM hands WHERE id = ?", [hand_id])[0])
    _log(db, hand_id, _edit("restored", None, after.hand, "Restored.", at))


def deleted_hand(db, game_id: int, hand_id: int) -> StoredHand | None:
    """A deleted hand of the game, as it was when it left the sheet; None for any other."""
    if not 0 < hand_id <= MAX_ID:
        return None
    found = rows(db, "SELECT * FROM hands WHERE id = ? AND game_id = ? AND deleted_at IS NOT NULL",
                 [hand_id, game_id])
    return _stored(found[0]) if found else None


# --- each hand's history ----------------------------------------------------------------------------------------

def _hand_json(hand: Hand | None) -> str | None:
    return None if hand is None else json.dumps(hand_to_history(hand))


def _edit(action: str, before: Hand | None, after: Hand | None, summary: str, at: str) -> dict:
    return {"at": at, "action": action, "before": _hand_json(before), "after": _hand_json(after),
            "summary": summary}


def _log(db, hand_id: int, edit: dict) -> None:
    db.execute(_EDIT_INSERT, {"hand_id": hand_id, **edit})


def hand_history(db, game_id: int) -> dict[int, list[dict]]:
    """Every change to every hand of a game, deleted hands included: hand id -> [{at, action, summary}]."""
    history: dict[int, list[dict]] = {}
    for row in rows(db, """SELECT e.hand_id, e.at, e.action, e.summary FROM hand_edits e
                           JOIN hands h ON h.id = e.hand_id WHERE h.game_id = ? ORDER BY e.id""", [game_id]):
        history.setdefault(row["hand_id"], []).append(row)
    return history


def last_edit(db, game_id: int) -> dict | None:
    """The game's latest change to a hand: {action, summary, at, hand_id, seq} (None before its first hand)."""
    found = rows(db, """SELECT e.action, e.summary, e.at, e.hand_id, h.seq FROM hand_edits e
                        JOIN hands h ON h.id = e.hand_id WHERE h.game_id = ? ORDER BY e.id DESC LIMIT 1""", [game_id])
    return found[0] if found else None


def deleted_hands(db, game_id: int) -> list[dict]:
    """A game's deleted hands, in their places, each with what tells it from another (its bid, meld, counters)."""
    return rows(db, """SELECT id, seq, bid, bidder, bidder_seat, kind, deleted_at, meld_0, meld_1, meld_2, meld_3,
                              counters_0, counters_1, counters_2, counters_3 FROM hands
                       WHERE game_id = ? AND deleted_at IS NOT NULL ORDER BY seq""", [game_id])


def hand_as_opened(db, hand_id: int, edits: int) -> Hand | None:
    """The hand as it stood after its first `edits` edits: what an edit form opened then showed. None where its
    history does not go that far (or holds no such line)."""
    found = db.execute("SELECT before FROM hand_edits WHERE hand_id = ? AND action = 'edited' ORDER BY id "
                       "LIMIT 1 OFFSET ?", [hand_id, max(edits, 0)]).fetchone()
    try:
        return hand_from_columns(json.loads(found[0])) if found and found[0] else None
    except (ValueError, KeyError, TypeError):  # a history line an import wrote wrong: not the form's to guess
        return None


def edits_of_hand(db, hand_id: int) -> list[dict]:
    return rows(db, "SELECT at, action, before, after, summary FROM hand_edits WHERE hand_id = ? ORDER BY id",
                [hand_id])
