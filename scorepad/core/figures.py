"""The figures a player (or a partnership) looks for after an evening: bids made by bid level and by trump,
where the side's points came from (meld, tricks, lost on sets), the set rate, the best hands and the longest
runs. Pure: finished games in (each with its rules, hands and results, and which side and seat was ours), figures
out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .rules import Rules
from .scoring import Hand, HandResult

TRUMPS = (("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣"))
BEST = 3  # the best hands shown


@dataclass(frozen=True)
class SideGame:
    """One finished game from one side's chair: `team` is ours, `seat` the player's own (None for a
    partnership: any bid of the team is ours)."""

    game_id: int
    rules: Rules
    hands: list[Hand]
    results: list[HandResult]
    team: int
    seat: int | None
    won: bool
    started: str = ""


@dataclass
class Bids:
    bid: int = 0
    made: int = 0
    went_set: int = 0

    @property
    def played_out(self) -> int:
        return self.made + self.went_set

    @property
    def made_share(self) -> float | None:
        return self.made / self.played_out if self.played_out else None


@dataclass
class Figures:
    games: int = 0
    by_level: dict[str, Bids] = field(default_factory=dict)  # "60–69" -> bids at that level, lowest first
    by_trump: dict[str, Bids] = field(default_factory=dict)  # "♠" -> bids in that trump
    all_bids: Bids = field(default_factory=Bids)
    from_meld: int = 0  # points our side scored from meld
    from_tricks: int = 0  # ... from tricks: counters, and the card bonus of a throw-in or a renege
    lost_on_sets: int = 0  # points lost when set (or throwing in, or reneging): a positive number
    best: list[tuple[int, int, int, str]] = field(default_factory=list)  # (points, game id, hand number, started)
    longest_winning_run: int = 0  # games won in a row
    longest_made_run: int = 0  # bids made in a row, across games

    @property
    def set_rate(self) -> float | None:
        played = self.all_bids.played_out
        return self.all_bids.went_set / played if played else None

    @property
    def scored(self) -> int:
        return self.from_meld + self.from_tricks


def side_figures(games: Iterable[SideGame]) -> Figures:
    """`games` oldest first (the runs are counted in that order)."""
    fold = FiguresFold()
    for game in games:
        fold.add(game)
    return fold.figures()


class FiguresFold:
    """Figures built a game at a time, oldest first: a player of years of evenings has some 3,500 games and 77,000
    hands, and none of them needs to be in memory once it is counted."""

    def __init__(self) -> None:
        self._figures = Figures()
        self._levels: dict[tuple[int, int], Bids] = {}
        self._trumps = {symbol: Bids() for _, symbol in TRUMPS}
        self._best: list[tuple[int, int, int, str]] = []
        self._wins = self._made_run = 0

    def add(self, game: SideGame) -> None:
        figures = self._figures
        figures.games += 1
        self._wins = self._wins + 1 if game.won else 0
        figures.longest_winning_run = max(figures.longest_winning_run, self._wins)
        for number, (hand, result) in enumerate(zip(game.hands, game.results, strict=True), 1):
            if hand.kind == "redeal" or game.team >= len(result.points):
                continue
            points = result.points[game.team]
            _split(figures, points, hand, game)
            if points > 0:
                self._keep_best((points, game.game_id, number, game.started))
            if not _ours(hand, game):
                continue
            step = 10 * game.rules.scale  # "60–69", "600–690": the levels a table bids in
            low = hand.bid // step * step
            buckets = [figures.all_bids, self._levels.setdefault((low, low + step - game.rules.scale), Bids())]
            symbol = dict(TRUMPS).get(hand.trump or "")
            if symbol:
                buckets.append(self._trumps[symbol])
            for bucket in buckets:
                bucket.bid += 1
                bucket.made += result.made is True
                bucket.went_set += result.made is False
            if result.made is not None:
                self._made_run = self._made_run + 1 if result.made else 0
                figures.longest_made_run = max(figures.longest_made_run, self._made_run)

    def _keep_best(self, hand: tuple[int, int, int, str]) -> None:
        # the best few so far, not every hand that scored: the order is the page's (most points, then earliest)
        self._best.append(hand)
        if len(self._best) > 4 * BEST:
            self._best = sorted(self._best, key=_best_first)[:BEST]

    def figures(self) -> Figures:
        figures = self._figures
        figures.by_level = {f"{low:,}–{high:,}": bids for (low, high), bids in sorted(self._levels.items())}
        figures.by_trump = {symbol: bids for symbol, bids in self._trumps.items() if bids.bid}
        figures.best = sorted(self._best, key=_best_first)[:BEST]
        return figures


def _best_first(hand: tuple[int, int, int, str]):
    points, _, number, started = hand
    return (-points, started, number)


def _ours(hand: Hand, game: SideGame) -> bool:
    """Whether this side (the player in their seat, where the seat of the bid was kept) won the bid."""
    if hand.bidder != game.team or hand.bid is None:
        return False
    return game.seat is None or hand.bidder_seat is None or hand.bidder_seat == game.seat


def _split(figures: Figures, points: int, hand: Hand, game: SideGame) -> None:
    """A hand's points for our side, told apart: a loss is lost on a set (or a throw-in, or a renege); a gain
    is meld as far as the side's meld counted (on the board, and not just the counters scoring alone), the rest
    came from tricks (counters, or the card bonus of a throw-in or a renege)."""
    if points < 0:
        figures.lost_on_sets -= points
        return
    meld = hand.meld[game.team] if game.team < len(hand.meld) else 0
    counters = hand.counters[game.team] if hand.counters and game.team < len(hand.counters) else None
    counted = meld if meld >= game.rules.min_meld else 0
    from_meld = 0 if counters is not None and points == counters else min(max(counted, 0), points)
    figures.from_meld += from_meld
    figures.from_tricks += points - from_meld
