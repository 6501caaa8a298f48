"""What the service tests share: every row of a database, and counting what a request costs the core."""

from __future__ import annotations

import sys

from scorepad import scoring


def everything(db) -> dict:
    """Every row of every table: a refused change must leave all of it as it was."""
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                      "AND name NOT LIKE 'sqlite_%'")]
    return {name: sorted(map(repr, db.execute(f"SELECT * FROM [{name}]").fetchall())) for name in names}


def counting_core_calls(monkeypatch) -> dict[str, int]:
    """Count every fold (`play_game`) and every validation (`validate_hand`, the fold's own included), wherever
    a module of the app has imported them from the core. Returns the live counts."""
    counted = {"play_game": 0, "validate_hand": 0}
    for name in counted:
        real = getattr(scoring, name)

        def counting(*args, _real=real, _name=name, **kwargs):
            counted[_name] += 1
            return _real(*args, **kwargs)
        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").startswith("scorepad") and getattr(module, name, None) is real:
                monkeypatch.setattr(module, name, counting)
    return counted
