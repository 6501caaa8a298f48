"""A hand's id is given once, ever, a restore notwithstanding.

Edit, Undo, Delete and Put back name a hand by its id. Given as the highest id + 1, an id came round again after a
restore had taken away the hands recorded since its backup: the next hand recorded took one of theirs, and a form
opened before the restore (an Undo still on a phone's screen, an edit) then changed or deleted that new hand. The
highest id any hand has had is kept in `counters` under COUNTER: a restore sets it from both databases (see
`backups`), and new hands, recorded or imported, are numbered above it. A database without the row (every one
before it, and one no restore ever touched) is numbered by its hands alone, as before.
"""

from __future__ import annotations

COUNTER = "hand_ids"
_HIGHEST = ("SELECT max(coalesce((SELECT max(id) FROM {schema}.hands), 0), "
            "coalesce((SELECT value FROM {schema}.counters WHERE name = '" + COUNTER + "'), 0))")


def highest(db, schema: str = "main") -> int:
    """The highest id a hand of the database `schema` has had (0: none yet)."""
    return db.execute(_HIGHEST.format(schema=schema)).fetchone()[0]


def keep_highest(db, value: int) -> None:
    """Inside the caller's transaction: no hand is numbered `value` or below from now on."""
    db.execute(f"INSERT INTO counters (name, value) VALUES ('{COUNTER}', ?) "
               "ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)", [value])
