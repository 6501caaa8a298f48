"""Club nights: who sits where each round, how a round ends, what a bye is worth, and the standings. Pure: no
Flask, no database.

`movement(kind, players, rounds)` seats a night; `standings(...)` ranks it from the rounds' results;
`season_standings(...)` ranks a season from its nights'; `prize_list(...)` names who holds each place and special.
"""

from .movement import KINDS, LATEST, SEATS, VERSIONS, ClubError, Round, movement, partners_of
from .replan import Stay, plan
from .rounds import MOST_MINUTES, MOST_ROUNDS, ROUND_ENDS, fits_a_club_table, round_rules, round_words, time_up
from .season import MOST_NIGHTS, NightScore, SeasonStanding, counted_nights, season_standings
from .specials import DERIVED, SPECIALS, TALLIED, Prize, prize_list, shown_by
from .standings import (
    BYE_RULES,
    DEFAULT_TIE_BREAKS,
    MOST_BYE_POINTS,
    TIE_BREAKS,
    ByeRule,
    Standing,
    TableResult,
    bye_score,
    standings,
)

__all__ = [
    "DEFAULT_TIE_BREAKS", "KINDS", "LATEST", "MOST_MINUTES", "MOST_ROUNDS", "ROUND_ENDS", "SEATS", "TIE_BREAKS",
    "ClubError", "Round", "Standing", "TableResult", "bye_score", "fits_a_club_table", "movement", "partners_of",
    "round_rules", "round_words", "time_up",
    "standings", "MOST_NIGHTS", "NightScore", "SeasonStanding", "counted_nights", "season_standings", "DERIVED",
    "SPECIALS", "TALLIED", "Prize", "prize_list", "shown_by", "VERSIONS", "BYE_RULES", "MOST_BYE_POINTS", "ByeRule",
    "Stay", "plan",
]
