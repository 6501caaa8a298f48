"""Club nights: who sits where each round, what a bye is worth, and the standings. Pure: no Flask, no database.

`movement(kind, players, rounds)` seats a night; `standings(...)` ranks it from the rounds' results.
"""

from .movement import KINDS, SEATS, ClubError, Round, movement, partners_of
from .standings import DEFAULT_TIE_BREAKS, TIE_BREAKS, Standing, TableResult, bye_score, standings

__all__ = ["DEFAULT_TIE_BREAKS", "KINDS", "SEATS", "TIE_BREAKS", "ClubError", "Round", "Standing", "TableResult", "bye_score", "movement",
           "partners_of", "standings"]
