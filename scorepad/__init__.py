"""Scorepad: a Pinochle score keeper.

Four layers, each a folder that imports only the ones below it: `core` (the rules, the scoring, meld: pure
Python, nothing of Flask or the database), `store` (all SQL), `services` (one function a change) and `web`
(the Flask shell). `create_app` builds the web shell, importing Flask only when called.
"""

from .core import (
    PRESETS,
    GameOver,
    GameState,
    Hand,
    HandResult,
    InvalidHand,
    InvalidRules,
    Rules,
    ScorepadError,
    describe,
    play_game,
    score_hand,
    validate_hand,
)

__all__ = [
    "PRESETS", "GameOver", "GameState", "Hand", "HandResult", "InvalidHand", "InvalidRules", "Rules",
    "ScorepadError", "create_app", "describe", "play_game", "score_hand", "validate_hand",
]


def create_app(test_config=None):
    """The Flask app (`flask --app scorepad ...` finds this)."""
    from .web.shell.app import create_app as _create_app

    return _create_app(test_config)
