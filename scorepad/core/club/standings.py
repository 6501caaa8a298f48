"""The standings of a club night, a pure function of its rounds' results.

A table's result gives each entrant on a side (a player in a progressive night, a team in a partners night)
that side's points, and a win to the side that won. What a bye is worth is the club's choice (`BYE_RULES`): a win
and the average of that round's winners' points (rounded to the nearest point, halves up), a win and the
entrant's own average of the rounds they played, a win and a fixed score, or nothing, and then everyone is
ranked by their average over the rounds they played. A bye counts once every table of its round is over.
Entrants are ranked by the configured tie breaks in order; those still level share a rank. The best round is
counted from rounds that are over only, so before any result everyone shares the first place.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from .movement import ClubError

# What the standings can be ranked by, each with its words for the director.
TIE_BREAKS = {
    "wins": "Wins",
    "points": "Total points",
    "high_round": "Highest round",
}
DEFAULT_TIE_BREAKS = {"partners": ("wins", "points", "high_round"), "progressive": ("points", "wins", "high_round")}

# What a bye is worth, as the director chooses it.
BYE_RULES = {
    "winners": "A win and the average of that round's winners",
    "own": "A win and the entrant's own average of the night",
    "fixed": "A win and a fixed score",
    "none": "Nothing: ranked by the average of the rounds played",
}
MOST_BYE_POINTS = 10_000


@dataclass(frozen=True)
class ByeRule:
    """What a bye is worth: one of BYE_RULES, and the score of a "fixed" one."""

    kind: str = "winners"
    points: int | None = None

    def __post_init__(self):
        if self.kind not in BYE_RULES:
            raise ClubError(f"A bye is worth one of: {', '.join(BYE_RULES)}.")
        if (self.kind == "fixed") != (self.points is not None):
            raise ClubError("A fixed score for a bye is given with the fixed rule, and only then.")
        if self.points is not None and not 0 <= self.points <= MOST_BYE_POINTS:
            raise ClubError(f"A bye's fixed score is from 0 to {MOST_BYE_POINTS:,}.")

    @property
    def averaged(self) -> bool:
        """Whether the standings rank by the average of the rounds played (a bye is worth nothing)."""
        return self.kind == "none"

    def words(self, entrant: str = "entrant") -> str:
        """'a win and 250 points', in the words of the standings."""
        if self.kind == "fixed":
            return f"a win and {self.points:,} point{'s' if self.points != 1 else ''}"
        if self.kind == "own":
            return f"a win and the {entrant}'s own average of the night"
        return BYE_RULES[self.kind][0].lower() + BYE_RULES[self.kind][1:]


@dataclass(frozen=True)
class TableResult:
    """A table's score in a round: each side's entrants, each side's points, the side that won (None while it
    plays on, or for a tie), and whether its round is over for it."""

    round: int
    sides: tuple[tuple[Hashable, ...], tuple[Hashable, ...]]
    points: tuple[int, int]
    winner: int | None = None
    over: bool = True


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant: Hashable
    wins: int
    points: int
    high_round: int | None  # the most points in one round that is over; None before any
    played: int  # rounds at a table
    byes: int
    average: float | None = None  # points a round played (None before any): what a night with no bye score ranks

    @property
    def rounds(self) -> int:
        """Rounds played or sat out: the rounds the entrant was there for."""
        return self.played + self.byes


def bye_score(results: Sequence[TableResult]) -> int | None:
    """What a bye in the round of `results` is worth by the winners' average: their points' average, halves up;
    None while a table of it plays on, or when none has a winner."""
    won = [r.points[r.winner] for r in results if r.winner is not None]
    if not won or not all(r.over for r in results):
        return None
    return _halves_up(sum(won), len(won))


def _halves_up(total: int, count: int) -> int:
    return (2 * total + count) // (2 * count)


def standings(entrants: Sequence[Hashable], results: Sequence[TableResult],
              byes: Mapping[int, Sequence[Hashable]] | None = None,
              tie_breaks: Sequence[str] = ("wins", "points"), bye_rule: ByeRule = ByeRule()) -> list[Standing]:
    """Every entrant ranked, best first; `byes` maps a round to who sat it out. Raises ClubError for a tie break
    it does not know."""
    unknown = [key for key in tie_breaks if key not in TIE_BREAKS]
    if unknown:
        raise ClubError(f"Standings cannot be ranked by {', '.join(unknown)}.")
    tally = {entrant: {"wins": 0, "points": 0, "high_round": None, "played": 0, "byes": 0, "own": [0, 0]}
             for entrant in entrants}
    for result in results:
        for side, members in enumerate(result.sides):
            for entrant in members:
                row = tally[entrant]
                row["played"] += 1
                row["points"] += result.points[side]
                row["wins"] += result.winner == side
                if result.over:
                    row["high_round"] = max(row["high_round"] if row["high_round"] is not None
                                            else result.points[side], result.points[side])
                    row["own"][0] += result.points[side]
                    row["own"][1] += 1
    for number, sitting_out in (byes or {}).items():
        this_round = [r for r in results if r.round == number]
        over = all(r.over for r in this_round)
        for entrant in sitting_out:
            row = tally[entrant]
            row["byes"] += 1
            worth = _bye_worth(bye_rule, this_round, row["own"]) if over else None
            if worth is not None:
                row["points"] += worth
                row["wins"] += 1
    for row in tally.values():
        row["average"] = row["points"] / row["played"] if row["played"] else None
        del row["own"]

    def figure(row: dict, name: str) -> float:
        if bye_rule.averaged and name in ("wins", "points"):
            value = row[name] / row["played"] if row["played"] else 0
        else:
            value = row[name]
        return -(value if value is not None else -10**12)  # best first; a best round not yet over below any

    key = {entrant: tuple(figure(row, name) for name in tie_breaks) for entrant, row in tally.items()}
    ranked = sorted(entrants, key=key.__getitem__)  # stable: level entrants stay in the order they registered
    table, rank = [], 0
    for place, entrant in enumerate(ranked, start=1):
        if place == 1 or key[entrant] != key[ranked[place - 2]]:
            rank = place
        table.append(Standing(rank, entrant, **tally[entrant]))
    return table


def _bye_worth(rule: ByeRule, this_round: Sequence[TableResult], own: list[int]) -> int | None:
    """The points a bye is worth by `rule` (None: none, or not yet known); it is a win whenever it is worth any."""
    if rule.kind == "winners":
        return bye_score(this_round)
    if rule.kind == "fixed":
        return rule.points
    if rule.kind == "own":
        total, count = own
        return _halves_up(total, count) if count else None
    return None
