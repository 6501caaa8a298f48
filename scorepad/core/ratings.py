"""A skill rating for every player: openskill's Plackett-Luce model folded over the finished games in the order
they finished. Pure: games in, ratings out; the same games always give the same ratings, so a rating is never
kept, only recomputed (an edited or deleted hand that changes a result moves every rating after it).

Which games: every finished game, or (a club that keeps its ladder to itself) only the club's, or only the
kitchen table's (`POOLS`); a director who fills a seat at a club table can be left out of the ratings for that
night's games.

The scale. A player starts at openskill's prior, mu 25 with sigma 25/3 (a spread that covers everyone from the
weakest beginner to the strongest player). The number shown is mu, the rating's best guess: it goes up with a
win and down with a loss, which is what a family expects of it. (openskill's "ordinal", mu - 3 sigma, also
rises as sigma shrinks, so a player losing steadily could see it climb: honest for a leaderboard of strangers,
puzzling at a kitchen table.) The uncertainty is shown as "± 2 sigma" and in words from sigma, which falls
with every game: in games of two partnerships, about 7 after ten games, 5 after thirty, 3.5 after sixty.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

# openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): the model its authors tuned and document.
_MODEL = PlackettLuce()
START_MU, START_SIGMA = _MODEL.mu, _MODEL.sigma

# Words for how sure a rating is, by its sigma (highest first): (sigma below which, words). Until sigma falls
# below the first, about ten games, the rating is "not sure yet" and the ladder lists it apart, unranked.
SURE = ((3.5, "sure"), (5.0, "fairly sure"), (7.0, "a first guess"))
NOT_SURE = "not sure yet"


# The games a ladder is folded from, with their words.
POOLS = {"all": "Every game", "club": "Club nights", "home": "Kitchen-table games"}


def of_pool(games: Iterable[RatedGame], pool: str) -> list[RatedGame]:
    """The games of `pool` (see POOLS), in their order."""
    if pool == "all":
        return list(games)
    return [game for game in games if game.club == (pool == "club")]


NO_ONE: frozenset[int] = frozenset()  # a game that leaves nobody unrated (most): one empty set for them all


@dataclass(frozen=True, slots=True)  # ten thousand of them are read at each fold: no dict each
class RatedGame:
    """A finished game as the ratings read it: the players of each side (every seat named) and each side's
    place, 0 the best (equal places for a tie)."""

    game_id: int
    finished_at: str
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    club: bool = False  # played at a club night's table (else at a kitchen table)
    unrated: frozenset[int] = NO_ONE  # players whose rating the game leaves as it was (a director in a seat)


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int

    @property
    def sure(self) -> bool:
        """Sure enough to be ranked on a ladder."""
        return self.sigma < SURE[-1][0]

    @property
    def words(self) -> str:
        return confidence(self.sigma)

    @property
    def shown(self) -> str:
        """"27.3, fairly sure after 48 games"."""
        return f"{self.mu:.1f}, {self.words} after {self.games} game{'s' if self.games != 1 else ''}"

    @property
    def spread(self) -> float:
        """Two sigmas: the rating is within mu ± this about 95 times in 100."""
        return 2 * self.sigma


@dataclass(frozen=True)
class Step:
    """Where one player's rating stood after one game."""

    game_id: int
    finished_at: str
    mu: float
    sigma: float


@dataclass(frozen=True)
class Ratings:
    """Every rated player's rating now, and the games folded (in order) with each player's rating after each."""

    now: dict[int, Rating]
    steps: tuple[RatedGame, ...] = ()  # the games folded, in order
    # Each player's games among the steps and their rating after each, as two flat arrays (the steps' places; mu
    # and sigma after each, in turn): a player's history is read without going through everyone's, and ten
    # thousand games' worth is kept in a few hundred KiB, not in a dict of tuples of floats a game (6 MiB).
    played: dict[int, tuple[array, array]] = field(default_factory=dict, compare=False, repr=False)

    def history(self, player_id: int) -> list[Step]:
        at, after = self.played.get(player_id, ((), ()))
        return [Step(self.steps[index].game_id, self.steps[index].finished_at, after[2 * n], after[2 * n + 1])
                for n, index in enumerate(at)]


def confidence(sigma: float) -> str:
    for below, words in SURE:
        if sigma < below:
            return words
    return NOT_SURE


def places(totals: Sequence[int], winner: int | None) -> tuple[int, ...]:
    """Each side's place from a game's final totals: the winner first (a side can win on a bid out below another's
    total), then the others by total, equal totals sharing a place. No winner (a club table tied): by total."""
    def place(side: int) -> int:
        if side == winner:
            return 0
        ahead = sum(1 for other, total in enumerate(totals)
                    if other != winner and other != side and total > totals[side])
        return ahead + (winner is not None)
    return tuple(place(side) for side in range(len(totals)))


def fold(games: Iterable[RatedGame], start: Ratings | None = None) -> Ratings:
    """The ratings after `games` (in the order they finished), from `start` (the ratings after the games before
    them) or from nothing. A player a game leaves unrated plays in it at their rating, which it does not move."""
    now = dict(start.now) if start else {}
    steps = list(start.steps) if start else []
    # copied, never added to in place: `start` may be read by another thread meanwhile
    played = {player: (array("l", at), array("d", after)) for player, (at, after) in start.played.items()} \
        if start else {}
    for game in games:
        if len(game.sides) < 2 or not all(game.sides):
            continue
        teams = [[_MODEL.rating(*_mu_sigma(now.get(p))) for p in side] for side in game.sides]
        rated = _MODEL.rate(teams, ranks=[float(p) for p in game.places])
        for side, team in zip(game.sides, rated, strict=True):
            for player, new in zip(side, team, strict=True):
                if player in game.unrated:  # played at their rating as it is, which the game does not move
                    continue
                before = now.get(player)
                now[player] = Rating(new.mu, new.sigma, (before.games if before else 0) + 1)
                at, after = played.setdefault(player, (array("l"), array("d")))
                at.append(len(steps))
                after.extend((new.mu, new.sigma))
        steps.append(game)
    return Ratings(now, tuple(steps), played)


def _mu_sigma(rating: Rating | None) -> tuple[float, float]:
    return (rating.mu, rating.sigma) if rating else (START_MU, START_SIGMA)


def ladder(ratings: Ratings, player_ids: Iterable[int] | None = None) -> list[tuple[int, Rating]]:
    """The rated players (of `player_ids`, or all), the sure ones first by rating, then those not sure yet; ties
    by more games, then by id so the order never wobbles."""
    wanted = ratings.now if player_ids is None else {p: ratings.now[p] for p in player_ids if p in ratings.now}
    return sorted(wanted.items(), key=lambda item: (not item[1].sure, -item[1].mu, -item[1].games, item[0]))
