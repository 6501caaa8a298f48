"""Club nights: a night's settings, its entrants, each round's tables (each a game like any other) and the
result that counts for each, with every change the director made to one.

Until a table's round ends (its score confirmed, or the director's clock) the result that counts is its game's
own totals and winner, read live; from then on it is kept on the table row and the game takes no more hands.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..core.club import ByeRule
from ..core.rules import Rules
from .connection import MAX_ID, created_within, now, rows
from .games import refresh_results, stored_rules


@dataclass(frozen=True)
class Night:
    id: int
    name: str
    created_at: str
    kind: str  # "progressive" | "partners"
    rules: Rules
    round_end: str  # "hands" | "target" | "time"
    round_size: int
    rounds: int
    tie_breaks: tuple[str, ...]
    director_key: str
    round: int  # the round under way or last played; 0 before the first
    round_started_at: str | None
    closed_at: str | None
    version: int  # moves with the night, its entrants and its tables
    games_version: int  # moves with every change to one of its tables' games
    season_id: int | None = None  # the season it counts in
    movement: int = 1  # the version of the movement that seats it
    bye_rule: str = "winners"  # what a bye is worth (core.club.BYE_RULES)
    bye_points: int | None = None  # the fixed score of a "fixed" bye
    standings_hidden: bool = False  # hidden from the wall and the phones until the director reveals them

    @property
    def bye(self) -> ByeRule:
        return ByeRule(self.bye_rule, self.bye_points)

    @property
    def etag(self) -> str:
        """The whole night's: its standings, its tables' scores."""
        return night_etag(self.id, self.version, self.games_version)


@dataclass(frozen=True)
class Entrant:
    number: int
    name: str
    player_ids: tuple[int, ...]
    player_names: tuple[str, ...]
    first_round: int = 1  # the first round they play: a late arrival's is after 1
    last_round: int | None = None  # the last round they play (an early leaver's); None: to the end

    def present(self, number: int) -> bool:
        """Whether they are there for round `number` (at a table, or sitting it out)."""
        return self.first_round <= number and (self.last_round is None or number <= self.last_round)


@dataclass(frozen=True)
class ClubTable:
    """A table of a round, with its game's live figures and the result kept once its round ended."""

    id: int
    round: int
    table_no: int
    game_id: int
    entrants: tuple[int, int, int, int]  # by seat, North East South West
    players: tuple[str | None, ...]  # the game's seats
    totals: tuple[int, int]
    hands_count: int
    game_winner: int | None
    ended_at: str | None
    score: tuple[int, int] | None
    winner: int | None
    confirmed_at: str | None
    confirmed_by: str | None  # None with confirmed_at: the director confirmed it
    ended_how: str | None = None  # "game" (its own end), "clock", "stopped" (by the director); None: not kept
    end_note: str | None = None  # why the night went on without its confirmation, in the director's words

    @property
    def result(self) -> tuple[tuple[int, int], int | None]:
        """The points and winner that count now: kept once ended, else the game's as it stands. (A table that
        ended before any hand has none: see `unplayed`.)"""
        if self.ended_at is not None:
            return self.score or (0, 0), self.winner
        return self.totals, self.game_winner

    @property
    def unplayed(self) -> bool:
        """Its round ended before any hand was played here, and the director typed no result: no game."""
        return self.ended_at is not None and self.score is None

    @property
    def to_confirm(self) -> bool:
        """Over, with a result that nobody has confirmed yet."""
        return self.over and not self.unplayed and self.confirmed_at is None

    @property
    def over(self) -> bool:
        return self.ended_at is not None or self.game_winner is not None


def create_night(db, *, name: str, kind: str, rules: Rules, round_end: str, round_size: int, rounds: int,
                 tie_breaks: tuple[str, ...], director_key: str, movement: int, season_id: int | None = None,
                 bye: ByeRule | None = None, standings_hidden: bool = False) -> int:
    bye = bye or ByeRule()
    return db.execute(
        """INSERT INTO club_nights (name, created_at, kind, rules, round_end, round_size, rounds, tie_breaks,
           director_key, movement, season_id, bye_rule, bye_points, standings_hidden)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [name, now(), kind, json.dumps(rules.to_dict()), round_end, round_size, rounds, ",".join(tie_breaks),
         director_key, movement, season_id, bye.kind, bye.points, int(standings_hidden)]).lastrowid


def remove_night(db, night_id: int) -> None:
    """A night before its first round goes, with its entrants and its claimed names (a night under way has tables
    and games: it is never removed)."""
    for table in ("club_claims", "club_unrated", "club_specials", "club_entrants"):
        db.execute(f"DELETE FROM {table} WHERE night_id = ?", [night_id])
    db.execute("DELETE FROM club_nights WHERE id = ? AND round = 0", [night_id])


def hide_standings(db, night_id: int, hidden: bool) -> None:
    db.execute("UPDATE club_nights SET standings_hidden = ? WHERE id = ?", [int(hidden), night_id])


def _night(row: dict) -> Night:
    return Night(id=row["id"], name=row["name"], created_at=row["created_at"], kind=row["kind"],
                 rules=stored_rules(row["rules"]), round_end=row["round_end"],
                 round_size=row["round_size"], rounds=row["rounds"], tie_breaks=tuple(row["tie_breaks"].split(",")),
                 director_key=row["director_key"], round=row["round"], round_started_at=row["round_started_at"],
                 closed_at=row["closed_at"], version=row["version"], games_version=row["games_version"],
                 season_id=row.get("season_id"), movement=row["movement"], bye_rule=row["bye_rule"],
                 bye_points=row["bye_points"], standings_hidden=bool(row["standings_hidden"]))


def load_night(db, night_id: int) -> Night | None:
    if not 0 < night_id <= MAX_ID:
        return None
    found = rows(db, "SELECT * FROM club_nights WHERE id = ?", [night_id])
    return _night(found[0]) if found else None


def night_etag(night_id: int, version: int, games_version: int) -> str:
    return f'"c{night_id}-v{version}-g{games_version}"'


def night_version(db, night_id: int) -> tuple[int, int] | None:
    """(version, games_version) of the night, or None."""
    if not 0 < night_id <= MAX_ID:
        return None
    row = db.execute("SELECT version, games_version FROM club_nights WHERE id = ?", [night_id]).fetchone()
    return tuple(row) if row else None


def seat_etag(db, night_id: int, player_id: int | None) -> str | None:
    """The ETag of a player's seat card: the night's version and the version of the game at the player's table
    in the round under way (a hand at another table changes neither). None for a night that is not there."""
    if not 0 < night_id <= MAX_ID:
        return None
    row = db.execute("""
        SELECT n.version, (SELECT g.version FROM club_tables t JOIN games g ON g.id = t.game_id
                           JOIN club_entrants e ON e.night_id = t.night_id
                            AND e.number IN (t.entrant_0, t.entrant_1, t.entrant_2, t.entrant_3)
                           WHERE t.night_id = n.id AND t.round = n.round AND ?2 IN (e.player_0, e.player_1))
        FROM club_nights n WHERE n.id = ?1""", [night_id, player_id]).fetchone()
    return f'"s{night_id}-v{row[0]}-p{player_id}-g{row[1]}"' if row else None


def list_nights(db, limit: int = 50, start: str | None = None, end: str | None = None) -> list[Night]:
    """Nights newest first, optionally only those created within [start, end) (UTC ISO)."""
    where, params = created_within("created_at", start, end)
    sql = "SELECT * FROM club_nights" + (" WHERE " + " AND ".join(where) if where else "")
    return [_night(r) for r in rows(db, sql + " ORDER BY created_at DESC, id DESC LIMIT ?", [*params, limit])]


def all_nights(db) -> list[Night]:
    """Every night, in the order they were made."""
    return [_night(r) for r in rows(db, "SELECT * FROM club_nights ORDER BY id")]


def nights_of_player(db, player_id: int) -> list[Night]:
    return [_night(r) for r in rows(db, """SELECT * FROM club_nights WHERE id IN (
        SELECT night_id FROM club_entrants WHERE player_0 = ?1 UNION SELECT night_id FROM club_entrants
        WHERE player_1 = ?1) ORDER BY created_at DESC, id DESC""", [player_id])]


def start_round(db, night_id: int, number: int) -> None:
    db.execute("UPDATE club_nights SET round = ?, round_started_at = ? WHERE id = ?", [number, now(), night_id])


def close_night(db, night_id: int) -> None:
    db.execute("UPDATE club_nights SET closed_at = ? WHERE id = ? AND closed_at IS NULL", [now(), night_id])


# --- entrants ---------------------------------------------------------------------------------------------

def add_entrant(db, night_id: int, name: str, player_ids: tuple[int, ...], first_round: int = 1) -> int:
    """The entrant's number: the next one of the night."""
    number = db.execute("SELECT coalesce(max(number), 0) + 1 FROM club_entrants WHERE night_id = ?",
                        [night_id]).fetchone()[0]
    db.execute("""INSERT INTO club_entrants (night_id, number, name, player_0, player_1, first_round)
                  VALUES (?, ?, ?, ?, ?, ?)""",
               [night_id, number, name, player_ids[0], player_ids[1] if len(player_ids) > 1 else None, first_round])
    return number


def change_entrant(db, night_id: int, number: int, name: str, player_ids: tuple[int, ...]) -> None:
    db.execute("UPDATE club_entrants SET name = ?, player_0 = ?, player_1 = ? WHERE night_id = ? AND number = ?",
               [name, player_ids[0], player_ids[1] if len(player_ids) > 1 else None, night_id, number])


def withdraw_entrant(db, night_id: int, number: int) -> None:
    """An entrant who never sat at a table goes; those registered after them move up a number (only before the
    first round, while no table names a number)."""
    db.execute("DELETE FROM club_entrants WHERE night_id = ? AND number = ?", [night_id, number])
    later = [r[0] for r in db.execute("SELECT number FROM club_entrants WHERE night_id = ? AND number > ? "
                                      "ORDER BY number", [night_id, number])]
    for moving in later:  # one at a time, upwards: each number is free when it is taken
        db.execute("UPDATE club_entrants SET number = ? WHERE night_id = ? AND number = ?",
                   [moving - 1, night_id, moving])


def leave_after(db, night_id: int, number: int, last_round: int | None) -> None:
    db.execute("UPDATE club_entrants SET last_round = ? WHERE night_id = ? AND number = ?",
               [last_round, night_id, number])


def entrants(db, night_id: int) -> list[Entrant]:
    return [Entrant(r["number"], r["name"], tuple(i for i in (r["player_0"], r["player_1"]) if i is not None),
                    tuple(n for n in (r["name_0"], r["name_1"]) if n is not None), r["first_round"],
                    r["last_round"])
            for r in rows(db, """SELECT e.*, p0.name AS name_0, p1.name AS name_1 FROM club_entrants e
                                 JOIN players p0 ON p0.id = e.player_0 LEFT JOIN players p1 ON p1.id = e.player_1
                                 WHERE e.night_id = ? ORDER BY e.number""", [night_id])]


# --- tables -----------------------------------------------------------------------------------------------

def add_table(db, night_id: int, number: int, table_no: int, game_id: int, seats: tuple[int, ...]) -> int:
    return db.execute("""INSERT INTO club_tables (night_id, round, table_no, game_id, entrant_0, entrant_1,
                         entrant_2, entrant_3) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                      [night_id, number, table_no, game_id, *seats]).lastrowid


_TABLE_SELECT = """
SELECT t.*, g.total_0, g.total_1, g.hands_count, g.winner AS game_winner, c.name AS confirmer,
       p0.name AS name_0, p1.name AS name_1, p2.name AS name_2, p3.name AS name_3
FROM club_tables t JOIN games g ON g.id = t.game_id
LEFT JOIN players c ON c.id = t.confirmed_by
LEFT JOIN players p0 ON p0.id = g.seat_0 LEFT JOIN players p1 ON p1.id = g.seat_1
LEFT JOIN players p2 ON p2.id = g.seat_2 LEFT JOIN players p3 ON p3.id = g.seat_3
"""


def _table(r: dict) -> ClubTable:
    score = None if r["score_0"] is None else (r["score_0"], r["score_1"])
    return ClubTable(r["id"], r["round"], r["table_no"], r["game_id"], tuple(r[f"entrant_{i}"] for i in range(4)),
                     tuple(r[f"name_{i}"] for i in range(4)), (r["total_0"], r["total_1"]), r["hands_count"],
                     r["game_winner"], r["ended_at"], score, r["winner"], r["confirmed_at"], r["confirmer"],
                     r["ended_how"], r["end_note"])


def tables(db, night_id: int, number: int | None = None) -> list[ClubTable]:
    """The night's tables, round by round, or those of round `number`."""
    where, params = "t.night_id = ?", [night_id]
    if number is not None:
        where += " AND t.round = ?"
        params.append(number)
    return [_table(r) for r in rows(db, f"{_TABLE_SELECT} WHERE {where} ORDER BY t.round, t.table_no", params)]


def table(db, table_id: int) -> tuple[int, ClubTable] | None:
    """(the night's id, the table), or None."""
    if not 0 < table_id <= MAX_ID:
        return None
    found = rows(db, f"{_TABLE_SELECT} WHERE t.id = ?", [table_id])
    return (found[0]["night_id"], _table(found[0])) if found else None


def table_of_game(db, game_id: int) -> dict | None:
    """The club table a game is played at: {night_id, id, round, table_no, ended_at}, or None."""
    found = rows(db, "SELECT night_id, id, round, table_no, ended_at FROM club_tables WHERE game_id = ?", [game_id])
    return found[0] if found else None


def tables_of_games(db, game_ids) -> dict[int, dict]:
    """The club tables among these games are played at: game id -> {round, table_no}."""
    ids = [i for i in game_ids if 0 < i <= MAX_ID]
    if not ids:
        return {}
    found = rows(db, f"SELECT game_id, round, table_no FROM club_tables WHERE game_id IN ({', '.join('?' * len(ids))})",
                 ids)
    return {r["game_id"]: r for r in found}


def table_sides(db, game_id: int) -> dict[int, int]:
    """Which side (0: North and South, 1: East and West) each player of a table's game sits on: player id -> side."""
    return {r[0]: r[1] for r in db.execute("SELECT player_id, team FROM game_seats WHERE game_id = ?", [game_id])}


def clock_of_game(db, game_id: int) -> dict | None:
    """How the round of the club table a game is played at ends: {round, night_round, round_end, round_size,
    round_started_at, closed_at}, or None for a game at no club table."""
    found = rows(db, """SELECT t.round, n.round AS night_round, n.round_end, n.round_size, n.round_started_at,
                               n.closed_at FROM club_tables t JOIN club_nights n ON n.id = t.night_id
                        WHERE t.game_id = ?""", [game_id])
    return found[0] if found else None


def end_table(db, table_id: int, score: tuple[int, int] | None, winner: int | None, how: str) -> None:
    """The table's round is over: this result counts from now on, in the night and in its players' records. No
    score: no hand was played there, and it is no game (see `settle_game`). `how`: "game", "clock" or "stopped"."""
    db.execute("""UPDATE club_tables SET ended_at = coalesce(ended_at, ?), score_0 = ?, score_1 = ?, winner = ?,
                  ended_how = coalesce(ended_how, ?) WHERE id = ?""",
               [now(), *(score or (None, None)), winner, how, table_id])
    settle_game(db, table_id)


# Records read games (finished ones, and who won them), not club tables: once a table's round is over its game
# is finished, when the round ended, and won by the table's winner (a tie by nobody), even when the director's
# clock stopped it before its own end. A fold of the game's hands keeps that (`games.save_summary` reads the
# table), and the database's triggers move the records' counters with the game's winner. A table that ended
# with no score (no hand was played there, and the director typed none) is no game: its game is not finished and
# nobody won it; it is kept as ended unfinished, which no list of games in progress shows.
def settle_game(db, table_id: int) -> None:
    """Inside the caller's transaction: the game of an ended table is finished with the table's result, with its
    per-team figures (a table stopped before its first hand has none yet, and records read them); the game of a
    table ended with no score is ended unfinished."""
    game_id, unplayed = db.execute("SELECT game_id, ended_at IS NOT NULL AND score_0 IS NULL FROM club_tables "
                                   "WHERE id = ?", [table_id]).fetchone()
    if unplayed:
        db.execute("""UPDATE games SET finished_at = NULL, winner = NULL, abandoned_at = t.ended_at
                      FROM club_tables t WHERE t.id = ? AND games.id = t.game_id""", [table_id])
        db.execute("UPDATE game_seats SET finished = 0, won = 0 WHERE game_id = ?", [game_id])
        return
    refresh_results(db, game_id)
    db.execute("""UPDATE games SET finished_at = coalesce(games.finished_at, t.ended_at), winner = t.winner,
                  abandoned_at = NULL
                  FROM club_tables t WHERE t.id = ? AND t.ended_at IS NOT NULL AND games.id = t.game_id""",
               [table_id])
    db.execute("""UPDATE game_seats SET finished = 1, won = coalesce(game_seats.team = t.winner, 0)
                  FROM club_tables t WHERE t.id = ? AND t.ended_at IS NOT NULL AND game_seats.game_id = t.game_id""",
               [table_id])


def confirm_table(db, table_id: int, player_id: int | None) -> None:
    """Confirmed by a player of the table, or (None) by the director for them."""
    db.execute("UPDATE club_tables SET confirmed_at = ?, confirmed_by = ? WHERE id = ?", [now(), player_id, table_id])


def keep_end_note(db, table_id: int, note: str) -> None:
    db.execute("UPDATE club_tables SET end_note = ? WHERE id = ?", [note, table_id])


def change_result(db, table_id: int, before: tuple[int, int] | None, after: tuple[int, int], winner: int | None,
                  note: str) -> None:
    """The director's result (or, with `after` the same as `before`, a remark kept beside it)."""
    db.execute("UPDATE club_tables SET score_0 = ?, score_1 = ?, winner = ? WHERE id = ?", [*after, winner, table_id])
    settle_game(db, table_id)
    db.execute("""INSERT INTO club_result_changes (table_id, at, before_0, before_1, after_0, after_1, note)
                  VALUES (?, ?, ?, ?, ?, ?, ?)""", [table_id, now(), *(before or (None, None)), *after, note])


def result_changes(db, night_id: int) -> dict[int, list[dict]]:
    """Every change the director made to a table's result: table id -> [{at, before_0, ..., note}], in order."""
    changes: dict[int, list[dict]] = {}
    for row in rows(db, """SELECT c.* FROM club_result_changes c JOIN club_tables t ON t.id = c.table_id
                           WHERE t.night_id = ? ORDER BY c.id""", [night_id]):
        changes.setdefault(row["table_id"], []).append(row)
    return changes


# --- who claimed which name, on which phone ---------------------------------------------------------------

@dataclass(frozen=True)
class Claim:
    player_id: int
    name: str
    phone: str  # the hash of the claiming phone's mark
    claimed_at: str


def claims(db, night_id: int) -> list[Claim]:
    """The night's claimed names, in the order they were claimed."""
    return [Claim(r["player_id"], r["name"], r["phone"], r["claimed_at"])
            for r in rows(db, """SELECT c.*, p.name FROM club_claims c JOIN players p ON p.id = c.player_id
                                 WHERE c.night_id = ? ORDER BY c.claimed_at, c.rowid""", [night_id])]


def claim_of(db, night_id: int, player_id: int) -> str | None:
    """The phone (its mark's hash) that claimed the player's name on this night, or None."""
    row = db.execute("SELECT phone FROM club_claims WHERE night_id = ? AND player_id = ?",
                     [night_id, player_id]).fetchone()
    return row[0] if row else None


def claim(db, night_id: int, player_id: int, phone: str) -> None:
    db.execute("INSERT INTO club_claims (night_id, player_id, phone, claimed_at) VALUES (?, ?, ?, ?)",
               [night_id, player_id, phone, now()])


def release(db, night_id: int, player_id: int) -> bool:
    """The name is free to be claimed again; False when it was not claimed."""
    return db.execute("DELETE FROM club_claims WHERE night_id = ? AND player_id = ?",
                      [night_id, player_id]).rowcount > 0


def release_phone(db, night_id: int, phone: str) -> None:
    """Every name this phone claimed on the night: a phone follows one player at a time."""
    db.execute("DELETE FROM club_claims WHERE night_id = ? AND phone = ?", [night_id, phone])


# --- players left out of the ratings for a night (a director filling a seat) -------------------------------------

def unrated(db, night_id: int) -> set[int]:
    return {r[0] for r in db.execute("SELECT player_id FROM club_unrated WHERE night_id = ?", [night_id])}


def rate(db, night_id: int, player_id: int, rated: bool) -> bool:
    """The player is rated for the night's games (or left out); False when that is how it was."""
    if rated:
        return db.execute("DELETE FROM club_unrated WHERE night_id = ? AND player_id = ?",
                          [night_id, player_id]).rowcount == 1
    return db.execute("INSERT INTO club_unrated (night_id, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                      [night_id, player_id]).rowcount == 1
