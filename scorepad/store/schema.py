"""The schema: sqlite-utils migrations, frozen history applied in order, and the re-score that follows them.

A migration holds the SQL written for its moment and never calls today's code. What is derived from the hands
(points, totals, per-game figures) is rebuilt after migrating by today's scoring (`rescore_stale`). Since m007
the database keeps its own version counters with triggers: no Python writes one.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import sqlite_utils
from sqlite_utils import Migrations

from ..core.errors import ScorepadError
from .connection import connect, write_lock
from .games import live_hands, load_game, rescore
from .players import key_players

migrations = Migrations("scorepad")
_logger = logging.getLogger(__name__)


@migrations(transactional=False)
def m001_wal(db: sqlite_utils.Database) -> None:
    # WAL lets phones read the sheet while a hand is written; it cannot be switched inside a transaction.
    db.execute("PRAGMA journal_mode=WAL")


@migrations()
def m002_games_and_hands(db: sqlite_utils.Database) -> None:
    db.executescript("""
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        created_at TEXT NOT NULL
    ) STRICT;
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        created_at TEXT NOT NULL,
        rules TEXT NOT NULL,                    -- the complete Rules the game started with, as JSON
        team_0 TEXT NOT NULL,
        team_1 TEXT NOT NULL,
        seat_0 INTEGER REFERENCES players(id),  -- seats clockwise; 0 and 2 are team 0
        seat_1 INTEGER REFERENCES players(id),
        seat_2 INTEGER REFERENCES players(id),
        seat_3 INTEGER REFERENCES players(id),
        first_dealer INTEGER NOT NULL CHECK (first_dealer BETWEEN 0 AND 3),
        rematch_of INTEGER REFERENCES games(id),
        -- a summary of the sheet, kept with every change, so lists need not re-score every game
        total_0 INTEGER NOT NULL DEFAULT 0,
        total_1 INTEGER NOT NULL DEFAULT 0,
        hands_count INTEGER NOT NULL DEFAULT 0,
        winner INTEGER CHECK (winner IN (0, 1)),
        finished_at TEXT,
        version INTEGER NOT NULL DEFAULT 0      -- bumped on every change: the sheet's ETag
    ) STRICT;
    CREATE INDEX games_by_state ON games (finished_at, created_at);
    CREATE TABLE hands (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,                   -- order of play; a deleted hand keeps its place in history
        token TEXT NOT NULL UNIQUE,             -- the form's one-time token: a retried POST stores nothing new
        kind TEXT NOT NULL CHECK (kind IN ('played', 'throw_in', 'no_marriage', 'renege', 'redeal')),
        bidder INTEGER NOT NULL CHECK (bidder IN (0, 1)),
        bidder_seat INTEGER CHECK (bidder_seat BETWEEN 0 AND 3),
        bid INTEGER NOT NULL,
        trump TEXT CHECK (trump IN ('S', 'H', 'D', 'C')),
        meld_0 INTEGER NOT NULL,
        meld_1 INTEGER NOT NULL,
        counters_0 INTEGER,
        counters_1 INTEGER,
        renege_team INTEGER CHECK (renege_team IN (0, 1)),
        forced INTEGER NOT NULL DEFAULT 0 CHECK (forced IN (0, 1)),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT,
        UNIQUE (game_id, seq)
    ) STRICT;
    CREATE TABLE hand_edits (
        id INTEGER PRIMARY KEY,
        hand_id INTEGER NOT NULL REFERENCES hands(id),
        at TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('recorded', 'edited', 'deleted')),
        before TEXT,                            -- the hand as JSON, before and after the change
        after TEXT,
        summary TEXT NOT NULL                   -- what changed, in words
    ) STRICT;
    CREATE INDEX hand_edits_by_hand ON hand_edits (hand_id, id);
    """)


@migrations()
def m003_results_and_seats(db: sqlite_utils.Database) -> None:
    """Each hand's points and outcome kept beside it, and who sat where as rows: records are then plain SQL.
    The points are left empty: scoring is today's code, which fills them after migrating (`rescore_stale`)."""
    db.executescript("""
    ALTER TABLE hands ADD COLUMN points_0 INTEGER;
    ALTER TABLE hands ADD COLUMN points_1 INTEGER;
    ALTER TABLE hands ADD COLUMN outcome TEXT;
    CREATE TABLE game_seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        team INTEGER NOT NULL CHECK (team IN (0, 1)),
        player_id INTEGER NOT NULL REFERENCES players(id),
        PRIMARY KEY (game_id, seat)
    ) STRICT;
    CREATE INDEX game_seats_by_player ON game_seats (player_id, game_id);
    CREATE INDEX hands_live ON hands (game_id, deleted_at, seq);
    CREATE INDEX games_by_created ON games (created_at);
    """)
    for seat in range(4):
        db.execute(f"INSERT INTO game_seats SELECT id, {seat}, {seat % 2}, seat_{seat} FROM games "
                   f"WHERE seat_{seat} IS NOT NULL")



@migrations()
def m004_game_summaries(db: sqlite_utils.Database) -> None:
    """Each game's figures per team and per seat, kept with every re-score: records then read one row a game,
    not every hand, and stay fast after years of evenings. The tables start empty: a game without its rows is
    re-scored after migrating (`rescore_stale`), which writes them."""
    db.executescript("""
    CREATE TABLE team_results (
        game_id INTEGER NOT NULL REFERENCES games(id),
        team INTEGER NOT NULL CHECK (team IN (0, 1)),
        hands INTEGER NOT NULL, sum_meld INTEGER NOT NULL, max_points INTEGER,
        hands_bid INTEGER NOT NULL, made INTEGER NOT NULL, went_set INTEGER NOT NULL, sum_bid INTEGER NOT NULL,
        PRIMARY KEY (game_id, team)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE seat_results (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        hands_bid INTEGER NOT NULL, made INTEGER NOT NULL, went_set INTEGER NOT NULL, sum_bid INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX games_finished_order ON games (finished_at, id);
    """)


@migrations()
def m005_records_counter(db: sqlite_utils.Database) -> None:
    """A number that changes whenever any record could: records are cached under it."""
    db.executescript("""
    CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
    INSERT INTO counters (name, value) VALUES ('records', 0);
    """)


@migrations()
def m006_per_player_records(db: sqlite_utils.Database) -> None:
    """Whether each seat's game is finished and won, kept on the seat, and a records version per player: the
    records list reads one index, and a finished game refreshes only its four players' records."""
    db.executescript("""
    ALTER TABLE game_seats ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game_seats ADD COLUMN won INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE players ADD COLUMN records_version INTEGER NOT NULL DEFAULT 0;
    UPDATE game_seats SET
        finished = (SELECT finished_at IS NOT NULL FROM games WHERE id = game_seats.game_id),
        won = coalesce((SELECT winner = game_seats.team FROM games WHERE id = game_seats.game_id), 0);
    CREATE INDEX game_seats_records ON game_seats (player_id, finished, won);
    """)



@migrations()
def m007_version_triggers(db: sqlite_utils.Database) -> None:
    """The database bumps its own version counters, so no way of writing can forget one. A game's version (its
    sheet's ETag) moves when the game's row, its hands or its players' names change. The records counter, and
    the records version of every player concerned, move when anything a record reads changes: a game finishing
    or its winner, the per-team and per-seat figures and the seats of a finished game, a player's name, a player
    added or gone (a merge moves seats and removes a player). A restore, which replaces everything at once, adds
    a 'lift' row to counters: every counter then goes past its value, and the row goes."""
    records = "UPDATE counters SET value = value + 1 WHERE name = 'records';"

    def players_of(games: str) -> str:
        return ("UPDATE players SET records_version = records_version + 1 "
                f"WHERE id IN (SELECT player_id FROM game_seats WHERE game_id IN ({games}));")

    def finished(game: str) -> str:
        return f"EXISTS (SELECT 1 FROM games WHERE id = {game} AND finished_at IS NOT NULL)"

    db.executescript(f"""
    CREATE TRIGGER game_changed AFTER UPDATE ON games WHEN NEW.version = OLD.version
    BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.id; END;
    CREATE TRIGGER hand_added AFTER INSERT ON hands
    BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.game_id; END;
    CREATE TRIGGER hand_changed AFTER UPDATE ON hands
    BEGIN UPDATE games SET version = version + 1 WHERE id IN (OLD.game_id, NEW.game_id); END;
    CREATE TRIGGER hand_removed AFTER DELETE ON hands
    BEGIN UPDATE games SET version = version + 1 WHERE id = OLD.game_id; END;

    CREATE TRIGGER player_renamed AFTER UPDATE OF name ON players
    BEGIN
        UPDATE games SET version = version + 1 WHERE id IN (SELECT game_id FROM game_seats WHERE player_id = NEW.id);
        {records}
        UPDATE players SET records_version = records_version + 1 WHERE id = NEW.id OR id IN (
            SELECT mate.player_id FROM game_seats me JOIN game_seats mate ON mate.game_id = me.game_id
            WHERE me.player_id = NEW.id);
    END;
    CREATE TRIGGER player_added AFTER INSERT ON players BEGIN {records} END;
    CREATE TRIGGER player_removed AFTER DELETE ON players BEGIN {records} END;

    CREATE TRIGGER game_result_changed AFTER UPDATE OF finished_at, winner ON games
    WHEN OLD.finished_at IS NOT NEW.finished_at OR OLD.winner IS NOT NEW.winner
    BEGIN {records} {players_of("NEW.id")} END;
    CREATE TRIGGER finished_game_added AFTER INSERT ON games WHEN NEW.finished_at IS NOT NULL
    BEGIN {records} {players_of("NEW.id")} END;
    CREATE TRIGGER finished_game_removed AFTER DELETE ON games WHEN OLD.finished_at IS NOT NULL
    BEGIN {records} {players_of("OLD.id")} END;

    CREATE TRIGGER seat_added AFTER INSERT ON game_seats WHEN NEW.finished OR {finished("NEW.game_id")}
    BEGIN {records} {players_of("NEW.game_id")} END;
    CREATE TRIGGER seat_changed AFTER UPDATE ON game_seats
    WHEN OLD.finished OR NEW.finished OR {finished("OLD.game_id")} OR {finished("NEW.game_id")}
    BEGIN
        {records} {players_of("OLD.game_id, NEW.game_id")}
        UPDATE players SET records_version = records_version + 1 WHERE id = OLD.player_id;
    END;
    CREATE TRIGGER seat_removed AFTER DELETE ON game_seats WHEN OLD.finished OR {finished("OLD.game_id")}
    BEGIN
        {records} {players_of("OLD.game_id")}
        UPDATE players SET records_version = records_version + 1 WHERE id = OLD.player_id;
    END;

    CREATE TRIGGER team_results_added AFTER INSERT ON team_results WHEN {finished("NEW.game_id")}
    BEGIN {records} {players_of("NEW.game_id")} END;
    CREATE TRIGGER team_results_changed AFTER UPDATE ON team_results
    WHEN {finished("OLD.game_id")} OR {finished("NEW.game_id")}
    BEGIN {records} {players_of("OLD.game_id, NEW.game_id")} END;
    CREATE TRIGGER team_results_removed AFTER DELETE ON team_results WHEN {finished("OLD.game_id")}
    BEGIN {records} {players_of("OLD.game_id")} END;
    CREATE TRIGGER seat_results_added AFTER INSERT ON seat_results WHEN {finished("NEW.game_id")}
    BEGIN {records} {players_of("NEW.game_id")} END;
    CREATE TRIGGER seat_results_changed AFTER UPDATE ON seat_results
    WHEN {finished("OLD.game_id")} OR {finished("NEW.game_id")}
    BEGIN {records} {players_of("OLD.game_id, NEW.game_id")} END;
    CREATE TRIGGER seat_results_removed AFTER DELETE ON seat_results WHEN {finished("OLD.game_id")}
    BEGIN {records} {players_of("OLD.game_id")} END;

    CREATE TRIGGER counters_lifted AFTER INSERT ON counters WHEN NEW.name = 'lift'
    BEGIN
        UPDATE games SET version = NEW.value + 1;
        UPDATE players SET records_version = NEW.value + 1;
        INSERT INTO counters (name, value) VALUES ('records', NEW.value + 1)
            ON CONFLICT (name) DO UPDATE SET value = excluded.value;
        DELETE FROM counters WHERE name = 'lift';
    END;
    """)


@migrations()
def m008_restored_hands_and_abandoned_games(db: sqlite_utils.Database) -> None:
    """A deleted hand can be put back, which its history says ('restored'): SQLite cannot widen a CHECK, so the
    history table is built again with the same rows. And a game nobody will finish can be ended: it leaves the
    games in progress as abandoned, and nobody won it."""
    db.executescript("""
    CREATE TABLE hand_edits_m008 (
        id INTEGER PRIMARY KEY,
        hand_id INTEGER NOT NULL REFERENCES hands(id),
        at TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('recorded', 'edited', 'deleted', 'restored')),
        before TEXT,
        after TEXT,
        summary TEXT NOT NULL
    ) STRICT;
    INSERT INTO hand_edits_m008 (id, hand_id, at, action, before, after, summary)
        SELECT id, hand_id, at, action, before, after, summary FROM hand_edits;
    DROP TABLE hand_edits;
    ALTER TABLE hand_edits_m008 RENAME TO hand_edits;
    CREATE INDEX hand_edits_by_hand ON hand_edits (hand_id, id);
    ALTER TABLE games ADD COLUMN abandoned_at TEXT;
    """)


@migrations()
def m009_dix_only_and_quad_run(db: sqlite_utils.Database) -> None:
    """Which sides' meld was only the dix (the 9 of trump, which saves itself in the single deck): one integer,
    bit i for side i, so that it holds any number of sides. Every hand before it had none. And a new kind of
    hand, the quadruple run."""
    db.execute("ALTER TABLE hands ADD COLUMN dix_only INTEGER NOT NULL DEFAULT 0 CHECK (dix_only >= 0)")
    # A hand may end in a quadruple run in trump, which wins the game (002). Widening a CHECK is the one change
    # SQLite lets a schema's text take in place (its "ALTER TABLE" page): every row already kept satisfies it.
    old = "CHECK (kind IN ('played', 'throw_in', 'no_marriage', 'renege', 'redeal'))"
    new = "CHECK (kind IN ('played', 'throw_in', 'no_marriage', 'renege', 'redeal', 'quad_run'))"
    (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'hands'").fetchone()
    if old not in sql:
        raise ScorepadError("m009: the hands table's kinds are not as m002 made them; widen them by hand.")
    (version,) = db.execute("PRAGMA schema_version").fetchone()
    db.execute("PRAGMA writable_schema = ON")
    db.execute("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'hands'", [sql.replace(old, new)])
    db.execute(f"PRAGMA schema_version = {version + 1}")
    db.execute("PRAGMA writable_schema = OFF")


# m010: what m002-m004 wrote for two teams at four seats, and what it becomes for tables of every size (up to four
# sides, up to eight seats; a hand without bidding has no bidder and no bid).
_M010_CHECKS = {
    "games": [("CHECK (first_dealer BETWEEN 0 AND 3)", "CHECK (first_dealer BETWEEN 0 AND 7)"),
              ("CHECK (winner IN (0, 1))", "CHECK (winner BETWEEN 0 AND 3)")],
    "hands": [("bidder INTEGER NOT NULL CHECK (bidder IN (0, 1))", "bidder INTEGER CHECK (bidder BETWEEN 0 AND 3)"),
              ("CHECK (bidder_seat BETWEEN 0 AND 3)", "CHECK (bidder_seat BETWEEN 0 AND 7)"),
              ("bid INTEGER NOT NULL,", "bid INTEGER,"),
              ("CHECK (renege_team IN (0, 1))", "CHECK (renege_team BETWEEN 0 AND 3)")],
    "game_seats": [("CHECK (seat BETWEEN 0 AND 3)", "CHECK (seat BETWEEN 0 AND 7)"),
                   ("CHECK (team IN (0, 1))", "CHECK (team BETWEEN 0 AND 3)")],
    "team_results": [("CHECK (team IN (0, 1))", "CHECK (team BETWEEN 0 AND 3)")],
    "seat_results": [("CHECK (seat BETWEEN 0 AND 3)", "CHECK (seat BETWEEN 0 AND 7)")],
}
_M010_COLUMNS = {
    "games": ["team_2 TEXT", "team_3 TEXT", *(f"seat_{seat} INTEGER REFERENCES players(id)" for seat in range(4, 8)),
              "total_2 INTEGER", "total_3 INTEGER"],
    "hands": ["meld_2 INTEGER", "counters_2 INTEGER", "meld_3 INTEGER", "counters_3 INTEGER", "points_2 INTEGER",
              "points_3 INTEGER"],
}


@migrations(transactional=False)
def m010_tables_of_every_size(db: sqlite_utils.Database) -> None:
    """Games of two to four sides and up to eight seats. SQLite cannot loosen a CHECK in place, so each table whose
    checks knew only two teams is rebuilt from its own definition (whatever columns it has gained since) with the
    checks widened, its rows copied as they are; indexes and triggers are put back as they were. Every game kept
    so far is two teams of two who bid: its rule set says so, and not a total changes."""
    db.execute("PRAGMA foreign_keys = OFF")  # a table is dropped and built again under its name
    try:
        with db.atomic():
            triggers = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").fetchall()
            for name, _ in triggers:
                db.execute(f"DROP TRIGGER {name}")
            for table, checks in _M010_CHECKS.items():
                _m010_rebuild(db, table, checks)
            for table, columns in _M010_COLUMNS.items():
                for column in columns:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
            db.execute("""UPDATE games SET rules = json_set(rules, '$.sides', 2, '$.players_per_side', 2,
                                                            '$.bidding', json('true'))""")
            for _, sql in triggers:
                db.execute(sql)
            broken = db.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise ScorepadError(f"Moving the games to tables of every size broke {len(broken)} references.")
    finally:
        db.execute("PRAGMA foreign_keys = ON")


def _m010_rebuild(db, table: str, checks: list[tuple[str, str]]) -> None:
    sql = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table]).fetchone()[0]
    for old, new in checks:
        if old not in sql:
            raise ScorepadError(f"The {table} table is not as m002-m004 made it: {old!r} is missing.")
        sql = sql.replace(old, new)
    indexes = [row[0] for row in db.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name",
        [table]).fetchall()]
    db.execute(sql.replace(f"CREATE TABLE {table} (", f"CREATE TABLE {table}_m010 (", 1))
    db.execute(f"INSERT INTO {table}_m010 SELECT * FROM {table}")
    db.execute(f"DROP TABLE {table}")
    db.execute(f"ALTER TABLE {table}_m010 RENAME TO {table}")
    for index in indexes:
        db.execute(index)


@migrations()
def m012_club_nights(db: sqlite_utils.Database) -> None:
    """Club nights: a night's settings, who registered (a player, or a team of two), and each round's tables,
    each one a game like any other with the result that counts beside it, and every change the director made
    to one. A night's two versions are its pages' ETags: `version` moves with the night, its entrants and its
    tables (who sits where, a round's end, a confirmation), `games_version` with every change to one of its
    tables' games, so a phone's seat card need not be sent again for a hand at another table."""
    bump = "UPDATE club_nights SET version = version + 1 WHERE id = {night};"
    db.executescript(f"""
    CREATE TABLE club_nights (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('progressive', 'partners')),
        rules TEXT NOT NULL,                    -- the Rules every table's game starts with, as JSON
        round_end TEXT NOT NULL CHECK (round_end IN ('hands', 'target', 'time')),
        round_size INTEGER NOT NULL,            -- hands a round, the target, or minutes on the clock
        rounds INTEGER NOT NULL CHECK (rounds >= 1),
        tie_breaks TEXT NOT NULL,               -- what the standings rank by, in order, comma separated
        director_key TEXT NOT NULL,
        round INTEGER NOT NULL DEFAULT 0,       -- the round under way, or the last one played; 0 before the first
        round_started_at TEXT,
        closed_at TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        games_version INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE TABLE club_entrants (
        night_id INTEGER NOT NULL REFERENCES club_nights(id),
        number INTEGER NOT NULL,                -- the number given at registration, from 1
        name TEXT NOT NULL,                     -- the player's name, or the team's
        player_0 INTEGER NOT NULL REFERENCES players(id),
        player_1 INTEGER REFERENCES players(id),  -- a team's second player
        PRIMARY KEY (night_id, number)
    ) STRICT;
    CREATE INDEX club_entrants_by_player ON club_entrants (player_0);
    CREATE INDEX club_entrants_by_partner ON club_entrants (player_1);
    CREATE TABLE club_tables (
        id INTEGER PRIMARY KEY,
        night_id INTEGER NOT NULL REFERENCES club_nights(id),
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        game_id INTEGER NOT NULL UNIQUE REFERENCES games(id),
        entrant_0 INTEGER NOT NULL,             -- entrants by seat, North East South West (a team holds two)
        entrant_1 INTEGER NOT NULL,
        entrant_2 INTEGER NOT NULL,
        entrant_3 INTEGER NOT NULL,
        ended_at TEXT,                          -- confirmed, or stopped by the director's clock: no more hands
        score_0 INTEGER,                        -- the result that counts, from then on
        score_1 INTEGER,
        winner INTEGER CHECK (winner IN (0, 1)),
        confirmed_at TEXT,
        confirmed_by INTEGER REFERENCES players(id),
        UNIQUE (night_id, round, table_no)
    ) STRICT;
    CREATE TABLE club_result_changes (
        id INTEGER PRIMARY KEY,
        table_id INTEGER NOT NULL REFERENCES club_tables(id),
        at TEXT NOT NULL,
        before_0 INTEGER, before_1 INTEGER,
        after_0 INTEGER NOT NULL, after_1 INTEGER NOT NULL,
        note TEXT NOT NULL
    ) STRICT;
    CREATE INDEX club_result_changes_by_table ON club_result_changes (table_id, id);

    CREATE TRIGGER club_night_changed AFTER UPDATE ON club_nights
    WHEN NEW.version = OLD.version AND NEW.games_version = OLD.games_version
    BEGIN {bump.format(night="NEW.id")} END;
    CREATE TRIGGER club_entrant_added AFTER INSERT ON club_entrants BEGIN {bump.format(night="NEW.night_id")} END;
    CREATE TRIGGER club_entrant_changed AFTER UPDATE ON club_entrants BEGIN {bump.format(night="NEW.night_id")} END;
    CREATE TRIGGER club_table_added AFTER INSERT ON club_tables BEGIN {bump.format(night="NEW.night_id")} END;
    CREATE TRIGGER club_table_changed AFTER UPDATE ON club_tables BEGIN {bump.format(night="NEW.night_id")} END;
    CREATE TRIGGER club_game_changed AFTER UPDATE OF version ON games WHEN NEW.version != OLD.version
    BEGIN
        UPDATE club_nights SET games_version = games_version + 1
        WHERE id = (SELECT night_id FROM club_tables WHERE game_id = NEW.id);
    END;
    """)


@migrations()
def m013_club_games_count_in_records(db: sqlite_utils.Database) -> None:
    """A club table's game counts in its players' records with its table's result once its round is over: it is
    finished when the round ended and won by the table's winner (nobody, on a tie), even when the director's
    clock stopped it before its own end. Tables that ended before this was kept on their games are settled so."""
    db.executescript("""
    UPDATE games SET finished_at = coalesce(games.finished_at, t.ended_at), winner = t.winner
    FROM club_tables t WHERE t.game_id = games.id AND t.ended_at IS NOT NULL;
    UPDATE game_seats SET finished = 1, won = coalesce(game_seats.team = t.winner, 0)
    FROM club_tables t WHERE t.game_id = game_seats.game_id AND t.ended_at IS NOT NULL;
    -- a table stopped before its first hand: records read a game's per-team figures, none yet
    INSERT INTO team_results (game_id, team, hands, sum_meld, max_points, hands_bid, made, went_set, sum_bid)
    SELECT t.game_id, side.team, 0, 0, NULL, 0, 0, 0, 0
    FROM club_tables t CROSS JOIN (SELECT 0 AS team UNION ALL SELECT 1) side
    WHERE t.ended_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM team_results r WHERE r.game_id = t.game_id)
      AND NOT EXISTS (SELECT 1 FROM hands h WHERE h.game_id = t.game_id AND h.deleted_at IS NULL);
    """)


@migrations()
def m014_club_table_end_moves_its_game(db: sqlite_utils.Database) -> None:
    """A club table whose round ends (time called, a confirmation, the next round) takes no more hands: its
    game's page must change, so the game's version (its ETag) moves and the phones' polls fetch it afresh."""
    db.executescript("""
    CREATE TRIGGER club_table_ended AFTER UPDATE OF ended_at ON club_tables
    WHEN OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL
    BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.game_id; END;
    """)


@migrations()
def m015_drop_what_cut_off_imports_left(db: sqlite_utils.Database) -> None:
    """An import used to write its hands (with their history and figures) before its games, in many transactions,
    under game ids it kept in a counters row: one cut off by a kill or a power cut left them under ids no game has.
    Nobody could see them, but every backup since failed restore's check of the links between rows. They go, with
    the kept ids. (Imports now move everything in with one transaction, and never leave such rows.)"""
    orphans = "SELECT id FROM hands WHERE game_id NOT IN (SELECT id FROM games)"
    db.execute(f"DELETE FROM hand_edits WHERE hand_id IN ({orphans})")
    db.execute(f"DELETE FROM hands WHERE id IN ({orphans})")
    for table in ("team_results", "seat_results"):
        db.execute(f"DELETE FROM {table} WHERE game_id NOT IN (SELECT id FROM games)")
    db.execute("DELETE FROM counters WHERE name = 'import_reserved_game_id'")


@migrations()
def m016_player_name_keys(db: sqlite_utils.Database) -> None:
    """Players are one player by one key of their name (NFKC, case-folded, without invisible characters), not
    by SQLite's NOCASE, which folds ASCII only ("Émile" and "émile" were two players). The key is derived from
    the name by today's code, after migrating (`key_players`), like a score from its hands; a name an older
    player has the key of already keeps a key of its own until it is merged or renamed."""
    db.executescript("""
    ALTER TABLE players ADD COLUMN name_key TEXT;
    CREATE UNIQUE INDEX players_by_name_key ON players (name_key);
    """)


@migrations()
def m017_club_movement_and_claims(db: sqlite_utils.Database) -> None:
    """Two things a club night keeps from now on. `movement`: the version of the movement that seats it (1 for
    the nights made before version 2, which are seated by it to their end, so the rounds to come fit the rounds
    played). `club_claims`: which phone has claimed which registered name, by a hash of a random mark that phone
    keeps, so a name claimed on one phone cannot be claimed on another until the director releases it. A claim
    made or released moves the night's version (the director's page shows the claims)."""
    bump = "UPDATE club_nights SET version = version + 1 WHERE id = {night};"
    db.executescript(f"""
    ALTER TABLE club_nights ADD COLUMN movement INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE club_claims (
        night_id INTEGER NOT NULL REFERENCES club_nights(id),
        player_id INTEGER NOT NULL REFERENCES players(id),
        phone TEXT NOT NULL,                    -- a hash of the mark the phone that claimed the name keeps
        claimed_at TEXT NOT NULL,
        PRIMARY KEY (night_id, player_id)
    ) STRICT;
    CREATE TRIGGER club_claim_made AFTER INSERT ON club_claims BEGIN {bump.format(night="NEW.night_id")} END;
    CREATE TRIGGER club_claim_released AFTER DELETE ON club_claims BEGIN {bump.format(night="OLD.night_id")} END;
    """)


@migrations()
def m018_club_seasons_and_specials(db: sqlite_utils.Database) -> None:
    """Seasons and specials. A club's nights belong to seasons: a season keeps its settings (rank by each entrant's
    best nights only, a least number of nights to be ranked, which specials the club tallies), and the nights made
    before seasons go into a first season. A special (double pinochle, double aces, a double run) is tallied at a
    club table for a player in a hand; the night's version moves with it, so its pages' ETags do."""
    bump = "UPDATE club_nights SET version = version + 1 WHERE id = {night};"
    db.executescript(f"""
    CREATE TABLE club_seasons (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        started_at TEXT NOT NULL,
        best_of INTEGER CHECK (best_of IS NULL OR best_of >= 1),  -- count each entrant's best N nights; NULL: all
        min_nights INTEGER NOT NULL DEFAULT 1 CHECK (min_nights >= 1),  -- nights played to be ranked
        specials TEXT NOT NULL DEFAULT 'double_pinochle,double_aces,double_run,high_game,high_series',
        version INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    INSERT INTO club_seasons (id, name, started_at)
    SELECT 1, 'First season', coalesce(min(created_at), strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')) FROM club_nights;
    ALTER TABLE club_nights ADD COLUMN season_id INTEGER REFERENCES club_seasons(id);
    UPDATE club_nights SET season_id = 1;
    CREATE INDEX club_nights_by_season ON club_nights (season_id, id);
    CREATE TRIGGER club_season_changed AFTER UPDATE ON club_seasons WHEN NEW.version = OLD.version
    BEGIN UPDATE club_seasons SET version = version + 1 WHERE id = NEW.id; END;
    CREATE TABLE club_specials (
        id INTEGER PRIMARY KEY,
        night_id INTEGER NOT NULL REFERENCES club_nights(id),
        table_id INTEGER NOT NULL REFERENCES club_tables(id),
        hand INTEGER NOT NULL CHECK (hand >= 1),   -- the number of the hand it was melded in
        player_id INTEGER NOT NULL REFERENCES players(id),
        kind TEXT NOT NULL CHECK (kind IN ('double_pinochle', 'double_aces', 'double_run')),
        at TEXT NOT NULL,
        UNIQUE (table_id, hand, player_id, kind)
    ) STRICT;
    CREATE INDEX club_specials_by_night ON club_specials (night_id, id);
    CREATE INDEX club_specials_by_player ON club_specials (player_id);
    CREATE TRIGGER club_special_added AFTER INSERT ON club_specials BEGIN {bump.format(night="NEW.night_id")} END;
    CREATE TRIGGER club_special_removed AFTER DELETE ON club_specials BEGIN {bump.format(night="OLD.night_id")} END;
    """)


@migrations()
def m019_rematch_moves_its_game(db: sqlite_utils.Database) -> None:
    """A rematch started on one phone is news on the others still showing the game it follows: the old game's
    version (its ETag) moves when its rematch is made, so their polls bring the winner card with the way to the
    new game. The index finds a game's rematch for each page of it."""
    db.executescript("""
    CREATE INDEX games_by_rematch_of ON games (rematch_of) WHERE rematch_of IS NOT NULL;
    CREATE TRIGGER rematch_started AFTER INSERT ON games WHEN NEW.rematch_of IS NOT NULL
    BEGIN UPDATE games SET version = version + 1 WHERE id = NEW.rematch_of; END;
    """)

@migrations()
def m020_game_identity(db: sqlite_utils.Database) -> None:
    """Every game has an identity no other game will ever have: ids are reused (a restored older backup hands the
    id of a game it lacks to the next new game), so a phone that kept a hand, or a half-typed one, for game 2
    would otherwise put it into another family's game 2. The phone carries the identity with every hand it
    keeps; Scorepad refuses a hand whose game is not that game. A game from before gets one made of its id and
    the moment it started, so the same game has the same identity in a backup made before this upgrade and put
    back after it; a new game gets a random one."""
    db.executescript("""
    ALTER TABLE games ADD COLUMN uid TEXT;
    UPDATE games SET uid = printf('%d-%s', id, created_at);
    CREATE UNIQUE INDEX games_by_uid ON games (uid);
    """)


@migrations()
def m021_replica_marks(db: sqlite_utils.Database) -> None:
    """What marks this database and the copy Litestream streams of it (see `store.replica_marks`): who the
    database is (a random identity, made once here), which Scorepad writes its replica, on which share the
    replica's folder lies, when it last changed wholesale. The replica carries these rows too, so a Scorepad can
    tell its own replica from another database's."""
    db.executescript("""
    CREATE TABLE replica_marks (
        name TEXT PRIMARY KEY,  -- 'database', 'writer', 'share', 'changed'
        value TEXT NOT NULL,
        at TEXT NOT NULL
    ) STRICT;
    INSERT INTO replica_marks (name, value, at)
    VALUES ('database', lower(hex(randomblob(16))), strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now'));
    """)


@migrations()
def m022_club_year(db: sqlite_utils.Database) -> None:
    """What a club's whole year needs of its nights. A night: what a bye is worth (`bye_rule`, with `bye_points` for
    a fixed score), and whether its standings are hidden from the wall and the phones until the director reveals
    them. An entrant: the first round they play and the last (a late arrival, an early leaver; NULL: to the end).
    A table: how its round ended for it (`ended_how`: its own game's end, the director's clock, or stopped by the
    director; NULL for tables that ended before this was kept) and the director's reason for going on without its
    confirmation (`end_note`); a table the director confirmed has `confirmed_at` without `confirmed_by`. A season:
    the night whose director directs it (NULL: its first night's), the bye rule its new nights start with, the
    most improved prize (after at least N nights; NULL: none), a last-place prize, and whether its ratings are of
    club games only. `club_unrated`: a player (a director filling a seat) left out of the ratings for a night; it
    moves the records counter, under which ratings are kept. And a table whose round ended before any hand was
    played, and whose result the director never typed, is no game: it keeps no score, its game is not finished,
    nobody won it, and it is kept as ended unfinished (before, it was a finished 0-0 tie in the records and the
    ratings)."""
    bump = "UPDATE club_nights SET version = version + 1 WHERE id = {night};"
    records = "UPDATE counters SET value = value + 1 WHERE name = 'records';"
    unplayed = """SELECT t.game_id FROM club_tables t WHERE t.ended_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM hands h WHERE h.game_id = t.game_id AND h.deleted_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM club_result_changes c WHERE c.table_id = t.id)"""
    db.executescript(f"""
    ALTER TABLE club_nights ADD COLUMN bye_rule TEXT NOT NULL DEFAULT 'winners'
        CHECK (bye_rule IN ('winners', 'own', 'fixed', 'none'));
    ALTER TABLE club_nights ADD COLUMN bye_points INTEGER CHECK (bye_points IS NULL OR bye_points >= 0);
    ALTER TABLE club_nights ADD COLUMN standings_hidden INTEGER NOT NULL DEFAULT 0
        CHECK (standings_hidden IN (0, 1));
    ALTER TABLE club_entrants ADD COLUMN first_round INTEGER NOT NULL DEFAULT 1 CHECK (first_round >= 1);
    ALTER TABLE club_entrants ADD COLUMN last_round INTEGER
        CHECK (last_round IS NULL OR last_round >= first_round - 1);
    ALTER TABLE club_tables ADD COLUMN ended_how TEXT CHECK (ended_how IN ('game', 'clock', 'stopped'));
    ALTER TABLE club_tables ADD COLUMN end_note TEXT;
    ALTER TABLE club_seasons ADD COLUMN director_night INTEGER REFERENCES club_nights(id) ON DELETE SET NULL;
    ALTER TABLE club_seasons ADD COLUMN bye_rule TEXT NOT NULL DEFAULT 'winners'
        CHECK (bye_rule IN ('winners', 'own', 'fixed', 'none'));
    ALTER TABLE club_seasons ADD COLUMN bye_points INTEGER CHECK (bye_points IS NULL OR bye_points >= 0);
    ALTER TABLE club_seasons ADD COLUMN improved_min_nights INTEGER
        CHECK (improved_min_nights IS NULL OR improved_min_nights >= 1);
    ALTER TABLE club_seasons ADD COLUMN last_place INTEGER NOT NULL DEFAULT 0 CHECK (last_place IN (0, 1));
    ALTER TABLE club_seasons ADD COLUMN ratings TEXT NOT NULL DEFAULT 'all' CHECK (ratings IN ('all', 'club'));
    CREATE TABLE club_unrated (
        night_id INTEGER NOT NULL REFERENCES club_nights(id),
        player_id INTEGER NOT NULL REFERENCES players(id),
        PRIMARY KEY (night_id, player_id)
    ) STRICT;
    CREATE INDEX club_unrated_by_player ON club_unrated (player_id);
    CREATE TRIGGER club_unrated_added AFTER INSERT ON club_unrated
    BEGIN {bump.format(night="NEW.night_id")} {records} END;
    CREATE TRIGGER club_unrated_removed AFTER DELETE ON club_unrated
    BEGIN {bump.format(night="OLD.night_id")} {records} END;
    UPDATE game_seats SET finished = 0, won = 0 WHERE game_id IN ({unplayed});
    UPDATE games SET abandoned_at = coalesce(abandoned_at, finished_at), finished_at = NULL, winner = NULL
    WHERE id IN ({unplayed});
    UPDATE club_tables SET score_0 = NULL, score_1 = NULL, winner = NULL WHERE game_id IN ({unplayed});
    """)


@migrations()
def m023_meld_counted_with_the_hand(db: sqlite_utils.Database) -> None:
    """What the meld calculator counted for each side (the trump and each hand's cards), kept with the hand as the
    export writes it (JSON), so that a dispute about the meld is settled by the sheet. Every hand before it has
    none."""
    db.execute("ALTER TABLE hands ADD COLUMN meld_counted TEXT "
               "CHECK (meld_counted IS NULL OR json_valid(meld_counted))")


@migrations()
def m025_lists_counter(db: sqlite_utils.Database) -> None:
    """A counter for the lists (home, history, the players): it moves with every change to a game, a player, a
    club night or a club table, so a rendered list kept under it is right by construction. A restore lifts it
    past every value it had, as it lifts every other counter."""
    bump = "UPDATE counters SET value = value + 1 WHERE name = 'lists';"
    triggers = "\n".join(
        f"CREATE TRIGGER lists_{table}_{what} AFTER {event} ON {table} BEGIN {bump} END;"
        for table in ("games", "players", "club_nights", "club_tables")
        for what, event in (("added", "INSERT"), ("changed", "UPDATE"), ("removed", "DELETE")))
    db.executescript(f"""
    INSERT INTO counters (name, value) VALUES ('lists', 0) ON CONFLICT (name) DO NOTHING;
    {triggers}
    CREATE TRIGGER lists_lifted AFTER INSERT ON counters WHEN NEW.name = 'lift'
    BEGIN UPDATE counters SET value = NEW.value + 1 WHERE name = 'lists'; END;
    """)


def migrate(path: str) -> None:
    """Bring any Scorepad database, of any schema ever shipped, up to date: apply the migrations it lacks, then
    re-score with today's code the games whose derived figures are missing, and key the players whose name has
    no key yet. A database that needs nothing is only read."""
    db = connect(path)
    try:
        apply_migrations(db)
        _wal_again(db)
        rescore_stale(db)
        key_players(db)
    finally:
        db.close()


def _wal_again(db) -> None:
    """WAL on, whatever the file says: a backup is one file in rollback-journal mode, and one put back as the
    database file (a database that could not be opened, restored from the command line) carries that mode with
    it, while m001 is already recorded in it. Without WAL, a hand being written stops every phone reading."""
    if db.execute("PRAGMA journal_mode").fetchone()[0] not in ("wal", "memory"):  # (a database in memory: a test)
        db.execute("PRAGMA journal_mode=WAL")


# The one migration that cannot run inside a transaction: SQLite will not change the journal mode in one. It only
# switches WAL on, which a second run does again harmlessly, so a kill before its record is made good next time.
_OUTSIDE_A_TRANSACTION = {"m001_wal"}


def _m010_done(db) -> bool:
    # Until m010 ran in one transaction with its record, a kill between its commit and its record left its work
    # done but unrecorded; its work was one transaction of its own, so a sixth side's column means all of it.
    return any(column[1] == "team_2" for column in db.execute("PRAGMA table_info(games)"))


# A migration whose work may have been committed without its record by an earlier Scorepad: how to tell.
_DONE_WITHOUT_RECORD = {"m010_tables_of_every_size": _m010_done}


def apply_migrations(db) -> list[str]:
    """Apply the migrations the database lacks, each in one transaction with its record: a kill at any moment
    leaves each one either done and recorded or not begun. (sqlite-utils commits a `transactional=False`
    migration's work before writing its record.) A migration that must loosen foreign keys (m010 rebuilds
    tables under their names) has them switched off around its transaction, where SQLite allows it, and checks
    them itself. Returns the names applied."""
    migrations.ensure_migrations_table(db)
    done = []
    for migration in migrations.pending(db):
        if migration.name in _OUTSIDE_A_TRANSACTION:
            migration.fn(db)
            _record(db, migration.name)
        else:
            finished_before = _DONE_WITHOUT_RECORD.get(migration.name, lambda _: False)(db)
            if not migration.transactional:
                db.execute("PRAGMA foreign_keys = OFF")  # ignored inside a transaction: set before it begins
            try:
                with db.atomic():
                    if finished_before:
                        _logger.warning("%s was done but not recorded (an upgrade cut short): recorded now",
                                        migration.name)
                    else:
                        migration.fn(db)
                    _record(db, migration.name)
            finally:
                db.execute("PRAGMA foreign_keys = ON")
        done.append(migration.name)
    return done


def _record(db, name: str) -> None:
    """The row sqlite-utils' own `Migrations.apply` writes for an applied migration."""
    db.execute(f"INSERT INTO {migrations.migrations_table} (migration_set, name, applied_at) VALUES (?, ?, ?)",
               [migrations.name, name, str(datetime.now(UTC))])


# Migrations are frozen history and never score: each hand's points and outcome, a game's totals and winner, and
# its per-team and per-seat summaries are derived by today's code. Every write re-scores its game and writes the
# summaries, so a game with live hands but no summary row is one no code of today has scored (m003 leaves the
# points empty, m004 the summaries). The check walks the games' ids once against team_results' primary key; with
# no ORDER BY it reads the ids from an index, not the wide rows (4 ms, not 12, for 10,000 games).
_STALE_GAMES = """
SELECT g.id FROM games g
WHERE NOT EXISTS (SELECT 1 FROM team_results t WHERE t.game_id = g.id)
  AND EXISTS (SELECT 1 FROM hands h WHERE h.game_id = g.id AND h.deleted_at IS NULL)"""


def rescore_stale(db) -> list[int]:
    """Re-score every game no code of today has scored, in one transaction; returns the ids re-scored. A game
    today's code cannot read or fold (rules that are not a rule set, a hand no rule allows) is left as it was
    stored, and logged, so one odd game cannot stop Scorepad starting and lock a family out of all the others."""
    if db.execute(_STALE_GAMES + " LIMIT 1").fetchone() is None:
        return []  # the usual start-up: no write, no lock
    done = []
    with write_lock(db):
        for (game_id,) in db.execute(_STALE_GAMES).fetchall():  # again, under the lock: another may have been first
            try:
                with db.atomic():
                    rescore(db, load_game(db, game_id), live_hands(db, game_id))
                done.append(game_id)
            except Exception as exc:  # noqa: BLE001 - whatever one stored game holds, the others still open
                _logger.warning("Game %s kept as stored: today's code cannot re-score it (%s: %s)", game_id,
                                exc.__class__.__name__, exc)
    return done


# A game whose kept summary (what the home page, History and the records read) is not what its live hands' kept
# points add up to: a database written by something other than Scorepad (a backup edited by hand, a damaged
# file). The game's own page folds its hands, so it and the lists would disagree.
_DISAGREEING_GAMES = """
SELECT g.id FROM games g LEFT JOIN (
    SELECT game_id, count(*) AS n, sum(points_0) AS p0, sum(points_1) AS p1, sum(points_2) AS p2,
           sum(points_3) AS p3, count(*) FILTER (WHERE points_0 IS NULL OR points_1 IS NULL) AS unscored
    FROM hands WHERE deleted_at IS NULL GROUP BY game_id) h ON h.game_id = g.id
WHERE g.hands_count IS NOT coalesce(h.n, 0) OR g.total_0 IS NOT coalesce(h.p0, 0)
   OR g.total_1 IS NOT coalesce(h.p1, 0)
   OR (coalesce(g.rules ->> '$.sides', 2) > 2 AND g.total_2 IS NOT coalesce(h.p2, 0))
   OR (coalesce(g.rules ->> '$.sides', 2) > 3 AND g.total_3 IS NOT coalesce(h.p3, 0))
   OR coalesce(h.unscored, 0) > 0
ORDER BY g.id"""


def rescore_disagreeing(db) -> list[int]:
    """Score again, from their hands, the games whose kept totals or count of hands disagree with their hands
    (one query over every game; a database Scorepad wrote has none). In one transaction; returns their ids. A
    game today's code cannot fold is left as it was stored, as `rescore_stale` leaves it."""
    found = [row[0] for row in db.execute(_DISAGREEING_GAMES).fetchall()]
    done = []
    if not found:
        return done
    with write_lock(db):
        for game_id in found:
            try:
                with db.atomic():
                    rescore(db, load_game(db, game_id), live_hands(db, game_id))
                done.append(game_id)
            except Exception as exc:  # noqa: BLE001 - whatever one stored game holds, the others are put right
                _logger.warning("Game %s kept as stored: today's code cannot re-score it (%s: %s)", game_id,
                                exc.__class__.__name__, exc)
    return done


def pending_migrations(db) -> list[str]:
    """The names of the migrations this database still lacks ([] when it is up to date). Only reads."""
    return [migration.name for migration in migrations.pending(db)]
