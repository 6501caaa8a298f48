"""The score sheet as the templates show it: the core's game state plus who dealt, who bid, and each hand's story.

Built from the stored hands on every view; the fold is cheap and it means the sheet can never drift from the
rules it was played under.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import words
from ..cards import SUIT_SYMBOLS
from ..scoring import GameState, HandResult, play_game
from ..seats import SEAT_NAMES, dealer_for, first_bidder, seat_label, seats_of, team_of
from ..store import Game, StoredHand


@dataclass
class Row:
    number: int
    stored: StoredHand
    result: HandResult
    running: tuple[int, ...]
    dealer: str
    bidder: str
    trump: str
    history: list[dict] = field(default_factory=list)

    @property
    def hand(self):
        return self.stored.hand

    @property
    def outcome(self) -> str:
        """One word for the row: made, set, auto throw-in, throw-in, no marriage, renege or redeal."""
        return words.outcome(self.result.made, self.hand.kind, self.result.automatic_throw_in)


@dataclass
class Sheet:
    game: Game
    rows: list[Row]
    state: GameState
    deleted: list[dict] = field(default_factory=list)

    @property
    def next_number(self) -> int:
        return len(self.rows) + 1

    @property
    def seats(self) -> int:
        return self.game.rules.players

    @property
    def sides(self) -> range:
        return range(self.game.rules.sides)

    @property
    def dealer_seat(self) -> int:
        return dealer_for(self.game.first_dealer, len(self.rows), self.seats)

    @property
    def first_bidder_seat(self) -> int:
        return first_bidder(self.dealer_seat, self.seats)

    def seat(self, seat: int) -> str:
        return seat_label(seat, self.game.players)

    @property
    def finished(self) -> bool:
        return self.state.winner is not None

    def to_go(self, team: int) -> int | None:
        rules = self.game.rules
        if rules.hands_limit is not None:
            return None
        return max(0, rules.target - self.state.totals[team])

    def hands_left(self) -> int | None:
        limit = self.game.rules.hands_limit
        return None if limit is None else max(0, limit - self.state.hands_scored)

    def bidder_choices(self, hands_before: int | None = None) -> list[tuple[str, str, int]]:
        """(form value, label, team) for each tap target: the players in the bidding order of the hand after
        `hands_before` hands (the next one by default), or the teams (players alone are their sides)."""
        if self.game.has_players:
            seats, sides = self.seats, self.game.rules.sides
            dealer = self.dealer_seat if hands_before is None else dealer_for(self.game.first_dealer, hands_before,
                                                                              seats)
            order = [(first_bidder(dealer, seats) + i) % seats for i in range(seats)]
            return [(f"s{s}", self.seat(s), team_of(s, sides)) for s in order]
        return [(f"t{t}", self.game.teams[t], t) for t in self.sides]

    def team_players(self, team: int) -> str:
        seats = seats_of(team, self.game.rules.sides, self.seats)
        names = [self.game.players[s] for s in seats if self.game.players[s]]
        return " & ".join(names)


def build_sheet(game: Game, hands: list[StoredHand], history: dict | None = None,
                deleted: list[dict] | None = None) -> Sheet:
    state = play_game(game.rules, [h.hand for h in hands], names=game.teams)
    rows = []
    history = history or {}
    for i, (stored, result) in enumerate(zip(hands, state.results, strict=True)):
        dealer = dealer_for(game.first_dealer, i, game.rules.players)
        hand = stored.hand
        if hand.kind == "redeal" or hand.bidder is None:
            bidder = "—"
        elif hand.bidder_seat is not None:
            bidder = seat_label(hand.bidder_seat, game.players)
        else:
            bidder = game.teams[hand.bidder]
        rows.append(Row(i + 1, stored, result, state.running[i], seat_label(dealer, game.players), bidder,
                        SUIT_SYMBOLS.get(hand.trump or "", ""), history.get(stored.id, [])))
    return Sheet(game, rows, state, deleted or [])


__all__ = ["Row", "SEAT_NAMES", "Sheet", "build_sheet"]
