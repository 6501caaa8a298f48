"""What the service tests share: starting a game and recording its hands as the web shell does, a club night,
every row of a database, and counting what a request costs the core."""

from __future__ import annotations

import secrets
import sys
import threading

from scorepad import services
from scorepad.core import scoring
from scorepad.core.rules import PRESETS, Rules
from scorepad.core.scoring import Hand
from scorepad.store import games

DD = PRESETS["double-deck"]
MADE = Hand(0, 50, (0, 0), (50, 0))  # Us +50


def start(db, rules: Rules = DD, players=None, first_dealer: int = 0, teams=("Us", "Them")) -> int:
    """A new game under `rules`, nobody seated unless `players` says so."""
    return services.start_game(db, rules, teams, players or (None,) * rules.players, first_dealer)


def record(db, game_id: int, entry: Hand = MADE, **given) -> services.Change:
    """The hand recorded as the next one, as a phone records it. Hands alike one after another are what the
    tests mean: the repeat question has tests of its own (pass repeat_ok=False to be asked)."""
    count = games.load_game(db, game_id).hands_count
    return services.record_hand(db, game_id, entry, **{"token": secrets.token_hex(8), "expected": count + 1,
                                                      "repeat_ok": True, **given})


def hand_ids(db, game_id: int) -> list[int]:
    """The game's live hands' ids, in order."""
    return [h.id for h in games.live_hands(db, game_id)]


def new_night(db, entrants, *, kind: str = "progressive", name: str = "Club", rules: Rules = DD,
              end: str = "hands", size: int = 1, rounds: int = 2, tie_breaks=("wins", "points"), **more) -> int:
    """A club night with `entrants` registered (a name, or a tuple of a team's names); returns its id. `more`:
    the night's other settings (bye_rule, bye_points, standings_hidden)."""
    made = services.club.create_night(db, name=name, kind=kind, rules=rules, round_end=end, round_size=size,
                                      rounds=rounds, tie_breaks=tie_breaks, **more)
    for entrant in entrants:
        services.club.register(db, made.id, entrant if isinstance(entrant, tuple) else (entrant,))
    return made.id


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


def first_thread_cannot_start(monkeypatch, name: str) -> None:
    """The first thread called `name` to be started fails as Python does when no thread is to be had."""
    real_start, failing = threading.Thread.start, [True]

    def start(thread):
        if thread.name == name and failing:
            failing.clear()
            raise RuntimeError("can't start new thread")
        return real_start(thread)
    monkeypatch.setattr(threading.Thread, "start", start)
