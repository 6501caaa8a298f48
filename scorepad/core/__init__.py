"""The pure core: the rules, the scoring, meld, the words a family reads, the checks of an export file and the
club movements. It imports nothing of Flask, werkzeug, sqlite or the store (tests/core/test_layers.py); the
store, the services and the web shell build on it.

What most callers need stands here; a module's other names are imported from the module by name
(`from ..core.rules import seated`).
"""

from .errors import GameOver, ImportRefused, InvalidHand, InvalidRules, ScorepadError
from .rules import PRESETS, Rules
from .rules_in_words import describe
from .scoring import GameState, Hand, HandResult, play_game, score_hand, validate_hand

__all__ = [
    "PRESETS", "GameOver", "GameState", "Hand", "HandResult", "ImportRefused", "InvalidHand", "InvalidRules",
    "Rules", "ScorepadError", "describe", "play_game", "score_hand", "validate_hand",
]
