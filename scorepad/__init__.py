"""Scorepad: a Pinochle score keeper.

The core (`rules`, `scoring`, `meld`) is pure Python and imports nothing of Flask or the database;
`create_app` builds the web shell around it, importing Flask only when called.
"""

from .core.errors import GameOver, InvalidHand, InvalidRules, ScorepadError
from .core.rules import PRESETS, Rules, describe
from .core.scoring import GameState, Hand, HandResult, play_game, score_hand, validate_hand

__all__ = [
    "PRESETS", "GameOver", "GameState", "Hand", "HandResult", "InvalidHand", "InvalidRules", "Rules",
    "ScorepadError", "create_app", "describe", "play_game", "score_hand", "validate_hand",
]


def create_app(test_config=None):
    """The Flask app (`flask --app scorepad ...` finds this)."""
    from .web.shell.app import create_app as _create_app

    return _create_app(test_config)
