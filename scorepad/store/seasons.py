"""A club's seasons and the specials tallied at its tables: a season's settings and nights, each special with who
melded it, where and when."""

from __future__ import annotations

from dataclasses import dataclass

from .connection import MAX_ID, now, rows


@dataclass(frozen=True)
class Season:
    id: int
    name: str
    started_at: str
    best_of: int | None  # count each entrant's best N nights; None: every night
    min_nights: int  # nights played to be ranked
    specials: tuple[str, ...]  # the specials the club tallies this season
    version: int
    director_night: int | None = None  # the night whose director directs the season; None: its first night's
    bye_rule: str = "winners"  # what a bye is worth in the nights made in it, unless the night says otherwise
    bye_points: int | None = None
    improved_min_nights: int | None = None  # the most improved prize, after at least this many nights; None: none
    last_place: bool = False  # a prize for the last place
    ratings: str = "all"  # "club": its ratings (and most improved) from club games only; "all": every game


@dataclass(frozen=True)
class Special:
    """A special tallied at a club table: who, what, in which night, round, table and hand, and when."""

    id: int
    night_id: int
    table_id: int
    round: int
    table_no: int
    hand: int
    player_id: int
    player: str
    kind: str
    at: str


# The settings a director changes, as columns (specials are kept comma separated).
SETTINGS = ("name", "best_of", "min_nights", "specials", "bye_rule", "bye_points", "improved_min_nights",
            "last_place", "ratings")


def _season(row: dict) -> Season:
    return Season(row["id"], row["name"], row["started_at"], row["best_of"], row["min_nights"],
                  tuple(k for k in row["specials"].split(",") if k), row["version"], row["director_night"],
                  row["bye_rule"], row["bye_points"], row["improved_min_nights"], bool(row["last_place"]),
                  row["ratings"])


def _columns(settings: dict) -> list:
    return [",".join(value) if name == "specials" else int(value) if name == "last_place" else value
            for name, value in ((name, settings[name]) for name in SETTINGS)]


def create_season(db, name: str, best_of: int | None, min_nights: int, specials: tuple[str, ...],
                  director_night: int | None = None, **more) -> int:
    """A new season with `SETTINGS` (those not given as a new season's defaults)."""
    settings = {"bye_rule": "winners", "bye_points": None, "improved_min_nights": None, "last_place": False,
                "ratings": "all", **more, "name": name, "best_of": best_of, "min_nights": min_nights,
                "specials": specials}
    return db.execute(f"""INSERT INTO club_seasons (started_at, director_night, {', '.join(SETTINGS)})
                          VALUES (?, ?, {', '.join('?' * len(SETTINGS))})""",
                      [now(), director_night, *_columns(settings)]).lastrowid


def change_season(db, season_id: int, **settings) -> None:
    """The season's `SETTINGS`, every one of them given."""
    db.execute(f"UPDATE club_seasons SET {', '.join(f'{name} = ?' for name in SETTINGS)} WHERE id = ?",
               [*_columns(settings), season_id])


def first_night(db, season_id: int) -> int | None:
    """The id of the season's first night, or None."""
    row = db.execute("SELECT id FROM club_nights WHERE season_id = ? ORDER BY created_at, id LIMIT 1",
                     [season_id]).fetchone()
    return row[0] if row else None


def load_season(db, season_id: int) -> Season | None:
    if not 0 < season_id <= MAX_ID:
        return None
    found = rows(db, "SELECT * FROM club_seasons WHERE id = ?", [season_id])
    return _season(found[0]) if found else None


def current_season(db) -> Season | None:
    """The season new nights go into: the latest started (None only in a database no migration gave one)."""
    found = rows(db, "SELECT * FROM club_seasons ORDER BY started_at DESC, id DESC LIMIT 1")
    return _season(found[0]) if found else None


def all_seasons(db) -> list[Season]:
    """Every season, newest first."""
    return [_season(r) for r in rows(db, "SELECT * FROM club_seasons ORDER BY started_at DESC, id DESC")]


def season_nights(db, season_id: int) -> list[int]:
    """The ids of the season's nights, in the order they were held."""
    return [r[0] for r in db.execute("SELECT id FROM club_nights WHERE season_id = ? ORDER BY created_at, id",
                                     [season_id])]


def season_etag(db, season_id: int) -> str | None:
    """Moves with the season's settings and with every change to one of its nights or their games."""
    row = db.execute("""SELECT s.version, coalesce(sum(n.version), 0), coalesce(sum(n.games_version), 0), count(n.id)
                        FROM club_seasons s LEFT JOIN club_nights n ON n.season_id = s.id WHERE s.id = ?
                        GROUP BY s.id""", [season_id]).fetchone() if 0 < season_id <= MAX_ID else None
    return f'"season{season_id}-{row[0]}-{row[1]}-{row[2]}-{row[3]}"' if row else None


def season_of_night(db, night_id: int) -> int | None:
    row = db.execute("SELECT season_id FROM club_nights WHERE id = ?", [night_id]).fetchone()
    return row[0] if row else None


def table_players(db, game_id: int) -> tuple[tuple[int, int, str], ...]:
    """The players of a club table's game: (seat, player id, name), North first."""
    return tuple((r["seat"], r["id"], r["name"]) for r in rows(db, """
        SELECT s.seat, p.id, p.name FROM game_seats s JOIN players p ON p.id = s.player_id WHERE s.game_id = ?
        ORDER BY s.seat""", [game_id]))


# --- specials ---------------------------------------------------------------------------------------------

def add_special(db, night_id: int, table_id: int, hand: int, player_id: int, kind: str) -> bool:
    """Tally a special; False when that very one (table, hand, player, kind) was tallied already."""
    cursor = db.execute("""INSERT INTO club_specials (night_id, table_id, hand, player_id, kind, at)
                           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""",
                        [night_id, table_id, hand, player_id, kind, now()])
    return cursor.rowcount == 1


def remove_special(db, special_id: int, night_id: int) -> bool:
    return db.execute("DELETE FROM club_specials WHERE id = ? AND night_id = ?",
                      [special_id, night_id]).rowcount == 1


_SPECIAL_SELECT = """SELECT s.*, t.round, t.table_no, p.name AS player FROM club_specials s
                     JOIN club_tables t ON t.id = s.table_id JOIN players p ON p.id = s.player_id"""


def _special(r: dict) -> Special:
    return Special(r["id"], r["night_id"], r["table_id"], r["round"], r["table_no"], r["hand"], r["player_id"],
                   r["player"], r["kind"], r["at"])


def specials_of_nights(db, night_ids: list[int]) -> list[Special]:
    """The specials tallied in these nights, in the order they were tallied."""
    ids = [i for i in night_ids if 0 < i <= MAX_ID]
    if not ids:
        return []
    return [_special(r) for r in rows(db, f"{_SPECIAL_SELECT} WHERE s.night_id IN ({', '.join('?' * len(ids))}) "
                                          "ORDER BY s.at, s.id", ids)]


def specials_of_table(db, table_id: int) -> list[Special]:
    return [_special(r) for r in rows(db, f"{_SPECIAL_SELECT} WHERE s.table_id = ? ORDER BY s.hand, s.id",
                                      [table_id])]
