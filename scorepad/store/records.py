"""Records: each player's and partnership's figures over every finished game, head to head, and who partnered
whom. Window functions over the per-game summaries; answers are cached under the database's own counters,
which its triggers move whenever a record could change, and warmed on a thread of their own.
"""

from __future__ import annotations

import copy
import sqlite3
import threading

from ..core.ratings import NO_ONE, RatedGame, places
from .connection import connect, database_path, rows
from .games import NOT_A_GAME
from .players import player_choices

# Records are read far more often than they change (only when a game finishes, or a finished one is edited,
# or a name changes): each answer is kept under the records counter it was computed at.
_CACHE: dict = {}
_CACHE_LOCK = threading.Lock()


def records_version(db) -> int:
    return db.execute("SELECT value FROM counters WHERE name = 'records'").fetchone()[0]


def _versions(db, player_ids) -> tuple:
    marks = ", ".join("?" * len(player_ids))
    return tuple(db.execute(f"SELECT id, records_version FROM players WHERE id IN ({marks}) ORDER BY id",
                            list(player_ids)).fetchall())


def _cached(db, kind: str, key, compute, players=None):
    """`compute(db, key)` kept until the records it depends on change: those of `players`, or any."""
    path = database_path(db)
    version = _versions(db, players) if players else records_version(db)
    slot = (path, kind, key)
    with _CACHE_LOCK:
        hit = _CACHE.get(slot)
    if hit is not None and hit[0] == version:
        return copy.deepcopy(hit[1])
    value = compute(db, key) if key is not None else compute(db)
    with _CACHE_LOCK:
        if len(_CACHE) > 2048:
            _CACHE.clear()
        _CACHE[slot] = (version, value)
    return copy.deepcopy(value)


def records_mark(db, players: tuple) -> tuple:
    """Where the records of `players` stand now: an answer computed from here on is kept under this mark."""
    return _versions(db, players)


def kept_answer(db, kind: str, key, mark: tuple):
    """What was kept for (`kind`, `key`) at `mark` (see `records_mark`); None when nothing is. Shared between
    requests, not copied (a player's page reads a dozen, and copying them cost a sixth of the page): read it,
    never change it."""
    with _CACHE_LOCK:
        hit = _CACHE.get((database_path(db), kind, key))
    return hit[1] if hit is not None and hit[0] == mark else None


def keep_answer(db, kind: str, key, mark: tuple, value) -> None:
    """Keep `value`, computed from the records at `mark`, for (`kind`, `key`): for what the services fold from
    the same finished games as the records (a player's figures). Shared from now on: see `kept_answer`."""
    with _CACHE_LOCK:
        if len(_CACHE) > 2048:
            _CACHE.clear()
        _CACHE[(database_path(db), kind, key)] = (mark, value)


def cached_records(path: str) -> set[tuple]:
    """What is cached for the database at `path`: (kind, key) pairs, such as ("partners", 3)."""
    with _CACHE_LOCK:
        return {(kind, key) for (where, kind, key) in _CACHE if where == path}


def census() -> dict:
    """What is kept: answers of each kind (records, partners, figures...)."""
    with _CACHE_LOCK:
        kinds: dict[str, int] = {}
        for (_, kind, _) in _CACHE:
            kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def forget_records() -> None:
    """Empty the cache of every database: the next look computes afresh."""
    with _CACHE_LOCK:
        _CACHE.clear()


def players(db) -> list[dict]:
    """Every player with finished games and wins, for the records page."""
    return _cached(db, "players", None, _players)


def _players(db, _=None) -> list[dict]:
    return rows(db, """
        SELECT p.id, p.name, coalesce(sum(s.finished), 0) AS games, coalesce(sum(s.won), 0) AS wins
        FROM players p LEFT JOIN game_seats s ON s.player_id = p.id
        GROUP BY p.id ORDER BY p.name COLLATE NOCASE""")


def finished_seats(db, player_ids: list[int]) -> list[dict]:
    """The finished games where all of `player_ids` sat on one team, oldest first: {game_id, team, seat (the
    player's own, None for a partnership), won}."""
    ids = list(dict.fromkeys(player_ids))
    return rows(db, f"""SELECT s.game_id, s.team, CASE WHEN count(*) = 1 THEN min(s.seat) END AS seat,
               g.winner = s.team AS won
        FROM game_seats s JOIN games g ON g.id = s.game_id
        WHERE s.player_id IN ({', '.join('?' * len(ids))}) AND g.finished_at IS NOT NULL
        GROUP BY s.game_id, s.team HAVING count(*) = {len(ids)}
        ORDER BY g.finished_at, g.id""", ids)


def unfinished_games(db, player_id: int | None = None) -> dict[int, dict]:
    """{player id: {"in_progress": n, "abandoned": n}} for the players with games the records leave out (they
    count finished games only): games still under way, and games ended unfinished. Not cached: a game
    started or ended unfinished moves no records counter."""
    where, args = ("AND s.player_id = ?", [player_id]) if player_id is not None else ("", [])
    found = rows(db, f"""SELECT s.player_id,
               count(DISTINCT g.id) FILTER (WHERE g.abandoned_at IS NULL) AS in_progress,
               count(DISTINCT g.id) FILTER (WHERE g.abandoned_at IS NOT NULL) AS abandoned
        FROM game_seats s JOIN games g ON g.id = s.game_id
        WHERE g.finished_at IS NULL AND {NOT_A_GAME} {where} GROUP BY s.player_id""", args)
    return {row.pop("player_id"): row for row in found}


# A "side" is one player, or two partners, sitting on one team of a game. Its figures come from the per-game
# summaries (team_results, seat_results): one row a game, however many hands. A player's own bids are its
# seat's; a partnership's are its team's.
_STREAK = """(SELECT coalesce(max(c), 0) FROM (SELECT count(*) AS c FROM (
    SELECT (winner = team) AS won,
           row_number() OVER (ORDER BY finished_at, game_id)
           - row_number() OVER (PARTITION BY winner = team ORDER BY finished_at, game_id) AS run
    FROM side WHERE finished_at IS NOT NULL) WHERE won GROUP BY run))"""


def side_record(db, player_ids: list[int]) -> dict:
    """Games, wins, win rate, hands bid, made, set, average bid, average meld, biggest hand, longest
    winning streak, for one player or a partnership, over every finished game."""
    return _cached(db, "side", tuple(player_ids), _side_record, players=tuple(player_ids))


def _side_record(db, player_ids) -> dict:
    ids = list(dict.fromkeys(player_ids))
    if len(ids) == 1:
        side = """SELECT s.game_id, s.team, s.seat, g.finished_at, g.winner FROM game_seats s
                  JOIN games g ON g.id = s.game_id WHERE s.player_id = ? AND g.finished_at IS NOT NULL"""
        bids, join_bids = "r", "LEFT JOIN seat_results r ON r.game_id = side.game_id AND r.seat = side.seat"
    else:
        side = f"""SELECT s.game_id, s.team, NULL AS seat, g.finished_at, g.winner FROM game_seats s
                   JOIN games g ON g.id = s.game_id
                   WHERE s.player_id IN ({', '.join('?' * len(ids))}) AND g.finished_at IS NOT NULL
                   GROUP BY s.game_id, s.team HAVING count(*) = {len(ids)}"""
        bids, join_bids = "t", ""
    row = rows(db, f"""WITH side AS MATERIALIZED ({side})
        SELECT count(side.finished_at) AS games,
               count(*) FILTER (WHERE side.winner = side.team) AS wins,
               coalesce(sum({bids}.hands_bid), 0) AS hands_bid,
               coalesce(sum({bids}.made), 0) AS made,
               coalesce(sum({bids}.went_set), 0) AS went_set,
               sum({bids}.sum_bid) * 1.0 / nullif(sum({bids}.hands_bid), 0) AS average_bid,
               sum(t.sum_meld) * 1.0 / nullif(sum(t.hands), 0) AS average_meld,
               max(t.max_points) AS biggest_hand,
               {_STREAK} AS longest_streak
        FROM side JOIN team_results t ON t.game_id = side.game_id AND t.team = side.team {join_bids}""", ids)[0]
    row["win_rate"] = row["wins"] / row["games"] if row["games"] else None
    return row


def partners(db, player_id: int) -> list[dict]:
    """Everyone a player has partnered in a finished game, each with the partnership's record: one query."""
    return _cached(db, "partners", player_id, _partners, players=(player_id,))


def _partners(db, player_id: int) -> list[dict]:
    found = rows(db, """
        WITH pairs AS MATERIALIZED (
            SELECT mate.player_id AS partner, me.game_id, me.team, g.finished_at, g.winner
            FROM game_seats me
            JOIN game_seats mate ON mate.game_id = me.game_id AND mate.team = me.team
                                AND mate.player_id != me.player_id
            JOIN games g ON g.id = me.game_id WHERE me.player_id = ? AND g.finished_at IS NOT NULL
        ),
        runs AS (
            SELECT partner, (winner = team) AS won,
                   row_number() OVER (PARTITION BY partner ORDER BY finished_at, game_id)
                   - row_number() OVER (PARTITION BY partner, winner = team ORDER BY finished_at, game_id) AS run
            FROM pairs WHERE finished_at IS NOT NULL
        ),
        streaks AS (
            SELECT partner, max(c) AS longest FROM (SELECT partner, count(*) AS c FROM runs WHERE won
                                                    GROUP BY partner, run) GROUP BY partner
        )
        SELECT p.id, p.name, count(*) AS together, count(pairs.finished_at) AS games,
               count(*) FILTER (WHERE pairs.winner = pairs.team) AS wins,
               sum(t.hands_bid) AS hands_bid, sum(t.made) AS made, sum(t.went_set) AS went_set,
               sum(t.sum_bid) * 1.0 / nullif(sum(t.hands_bid), 0) AS average_bid,
               sum(t.sum_meld) * 1.0 / nullif(sum(t.hands), 0) AS average_meld,
               max(t.max_points) AS biggest_hand, coalesce(streaks.longest, 0) AS longest_streak
        FROM pairs
        JOIN team_results t ON t.game_id = pairs.game_id AND t.team = pairs.team
        JOIN players p ON p.id = pairs.partner
        LEFT JOIN streaks ON streaks.partner = pairs.partner
        GROUP BY pairs.partner ORDER BY together DESC, p.name""", [player_id])
    for row in found:
        row["win_rate"] = row["wins"] / row["games"] if row["games"] else None
    return found


def team_records(db, player_id: int) -> list[dict]:
    """The sides of three or four a player has sat on in a finished game, each with the whole side's record
    (a partnership of two is `partners`' row): [{"ids", "names", "record"}], most games first."""
    return _cached(db, "teams", player_id, _team_records, players=(player_id,))


def _team_records(db, player_id: int) -> list[dict]:
    found = db.execute("""
        SELECT group_concat(mate.player_id) FROM (
            SELECT me.game_id, mate.player_id FROM game_seats me
            JOIN game_seats mate ON mate.game_id = me.game_id AND mate.team = me.team AND mate.player_id != me.player_id
            WHERE me.player_id = ? AND me.finished ORDER BY me.game_id, mate.player_id) mate
        GROUP BY mate.game_id HAVING count(*) > 1""", [player_id]).fetchall()
    names = {p["id"]: p["name"] for p in player_choices(db)}
    sides = {tuple(sorted(int(i) for i in mates.split(","))) for (mates,) in found}
    rows = [{"ids": [player_id, *mates], "names": " & ".join(names[i] for i in mates),
             "record": _side_record(db, [player_id, *mates])} for mates in sides]
    return sorted(rows, key=lambda row: (-row["record"]["games"], row["names"]))


def head_to_head(db, side_a: list[int], side_b: list[int]) -> dict:
    """Finished games between two sides (each a player or a partnership) and who won them."""
    return _cached(db, "h2h", (tuple(side_a), tuple(side_b)), lambda db, key: _head_to_head(db, *key),
                   players=tuple(side_a) + tuple(side_b))


def _head_to_head(db, side_a, side_b) -> dict:
    def side_cte(name, ids):
        marks = ", ".join("?" * len(ids))
        return f"""{name} AS (SELECT game_id, team FROM game_seats WHERE player_id IN ({marks})
                   GROUP BY game_id, team HAVING count(*) = {len(ids)})"""
    row = rows(db, f"""WITH {side_cte('a', side_a)}, {side_cte('b', side_b)}
        SELECT count(*) AS games, coalesce(sum(g.winner = a.team), 0) AS wins_a,
               coalesce(sum(g.winner = b.team), 0) AS wins_b
        FROM a JOIN b ON b.game_id = a.game_id AND b.team != a.team
        JOIN games g ON g.id = a.game_id WHERE g.finished_at IS NOT NULL""", [*side_a, *side_b])[0]
    return row


def warm_records(path: str, player_ids: list[int] | None = None, pause=lambda: None) -> None:
    """Compute and cache records ahead of the first look: everyone's at start-up, a game's four players' when it
    finishes. Run on a thread of its own, with a connection of its own; `pause` between players."""
    db = connect(path)
    try:
        players(db)
        ids = player_ids if player_ids is not None else [p["id"] for p in player_choices(db)]
        for player_id in ids:
            pause()
            side_record(db, [player_id])
            partners(db, player_id)
    except sqlite3.Error:
        pass  # warming is a courtesy: the page computes what it needs itself
    finally:
        db.close()


def rated_games(db) -> list[RatedGame]:
    """Every finished game whose every seat has a name, as the ratings read it, in the order the games finished
    (a game with an empty seat would rate a side of one against a side of two as equals: it is left out, as is one
    whose rules do not read), each with whether it was played at a club table and who it leaves unrated there (a
    director in a seat). Read from the games' own seat columns (seat s sits on side s % sides), one row a game: a
    tenth of the time of joining the seats, which matters as every finished game has this read again."""
    seats = ", ".join(f"seat_{seat}" for seat in range(8))
    unrated: dict[int, set[int]] = {}
    for game_id, player_id in db.execute("""SELECT t.game_id, u.player_id FROM club_unrated u
                                            JOIN club_tables t ON t.night_id = u.night_id"""):
        unrated.setdefault(game_id, set()).add(player_id)
    found = db.execute(f"""
        SELECT id, finished_at, winner, total_0, total_1, total_2, total_3,
               coalesce(rules ->> '$.sides', 2), coalesce(rules ->> '$.players_per_side', 2),
               EXISTS (SELECT 1 FROM club_tables t WHERE t.game_id = games.id), {seats}
        FROM games WHERE finished_at IS NOT NULL AND json_valid(rules) AND json_type(rules) = 'object'
        ORDER BY finished_at, id""")
    games, same = [], {}  # the same sides and places recur game after game: one tuple each is kept, not one a game
    for game_id, finished_at, winner, t0, t1, t2, t3, sides, per_side, club, *seated in found:
        if sides not in (2, 3, 4) or per_side not in (1, 2, 3, 4):
            continue  # rules that do not read: the game is left out, as everywhere
        seated = seated[:sides * per_side]
        if None in seated:
            continue
        players = tuple(tuple(sorted(seated[side::sides])) for side in range(sides))
        placed = places((t0, t1, t2, t3)[:sides], winner)
        left_out = frozenset(unrated[game_id]) & set(seated) if game_id in unrated else NO_ONE
        games.append(RatedGame(game_id, finished_at, same.setdefault(players, players),
                               same.setdefault(placed, placed), bool(club), left_out or NO_ONE))
    return games
