"""The score sheet as the templates show it: the core's game state plus who dealt, who bid, and each hand's story.

Built from the stored hands and a fold of them (the fold of the change that wrote them, or a fresh one), so the
sheet can never drift from the rules it was played under; `pages` keeps one per game version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from ..core import house_time, words
from ..core.cards import SUIT_SYMBOLS
from ..core.evenings import evening_of
from ..core.scoring import GameState, HandResult, play_game
from ..core.seats import SEAT_NAMES, dealer_for, first_bidder, seat_label, seats_of, team_of
from ..core.sheet_picture import PictureRow, sheet_picture
from ..store.games import Game, StoredHand


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

    @property
    def abandoned(self) -> bool:
        """Ended unfinished ("End this game unfinished"): nobody won and no hand comes next."""
        return self.game.abandoned_at is not None and not self.finished

    @property
    def evening(self) -> date | None:
        """The evening the game was played on, on the house's clock; None for a time no clock of ours wrote."""
        try:
            return evening_of(house_time.local(datetime.fromisoformat(self.game.created_at)))
        except (TypeError, ValueError):
            return None

    @property
    def result_line(self) -> str:
        """The result in one line, to send to the family chat (see `words.result_line`)."""
        return words.result_line(self.game.teams, self.state.totals, self.state.winner, self.state.hands_scored,
                                 self.evening, self.abandoned)

    def picture(self) -> str:
        """The sheet as an SVG picture to download, print or share (see `core.sheet_picture`)."""
        state, teams = self.state, self.game.teams
        score = " : ".join(f"{team} {words.number(total)}" for team, total in zip(teams, state.totals, strict=True))
        played = f"{state.hands_scored} hand{'' if state.hands_scored == 1 else 's'}"
        how = (f"{teams[state.winner]} won · {played}" if self.finished else
               f"Ended unfinished · {played}" if self.abandoned else f"{played} so far")
        when = f"{self.evening:%a} {self.evening.day} {self.evening:%b %Y} · " if self.evening else ""
        rows = [PictureRow(row.number, self._picture_words(row), row.result.points, row.running)
                for row in self.rows]
        return sheet_picture(score, (how, when + self.game.rules.title), teams, rows, state.totals)

    @staticmethod
    def _picture_words(row: Row) -> str:
        hand = row.hand
        if hand.kind == "redeal":
            return "Redeal"
        if hand.bidder is None:
            return "Played"
        return f"{row.bidder} {words.number(hand.bid)} {row.outcome}"

    def to_go(self, team: int) -> int | None:
        """How far `team` is from the target; None where no target is counted down (a game of so many hands,
        or one ended unfinished)."""
        rules = self.game.rules
        if rules.hands_limit is not None or self.abandoned:
            return None
        return max(0, rules.target - self.state.totals[team])

    def hands_left(self) -> int | None:
        limit = self.game.rules.hands_limit
        if limit is None or self.abandoned:
            return None
        return max(0, limit - self.state.hands_scored)

    def bidder_choices(self, hands_before: int | None = None) -> list[tuple[str, str, int, bool]]:
        """(form value, label, side, bids first) for each tap target: the players in seat order (so each keeps one
        place all game: a side a column), or the sides (players alone are their sides). Who bids first in the hand
        after `hands_before` hands (the next one by default) is marked, not moved."""
        seats, sides = self.seats, self.game.rules.sides
        dealer = self.dealer_seat if hands_before is None else dealer_for(self.game.first_dealer, hands_before, seats)
        leads = first_bidder(dealer, seats)
        if self.game.has_players:
            return [(f"s{s}", self.seat(s), team_of(s, sides), s == leads) for s in range(seats)]
        return [(f"t{t}", self.game.teams[t], t, t == team_of(leads, sides)) for t in self.sides]

    def dealer_choice(self, hands_before: int | None = None) -> str:
        """The bidder button of who deals the hand after `hands_before` hands (the next one by default): the
        bidder when everyone passed and the dealer is stuck."""
        seats, sides = self.seats, self.game.rules.sides
        dealer = self.dealer_seat if hands_before is None else dealer_for(self.game.first_dealer, hands_before, seats)
        return f"s{dealer}" if self.game.has_players else f"t{team_of(dealer, sides)}"

    def ahead(self, count: int = 8) -> list[dict]:
        """The next `count` hands' heading facts (number, who deals, the bidder button that bids first), for a
        phone that keeps hands while Scorepad cannot be reached and must number the next form by itself."""
        upcoming = []
        for number in range(self.next_number, self.next_number + count):
            dealer = dealer_for(self.game.first_dealer, number - 1, self.seats)
            first = next(value for value, _, _, leads in self.bidder_choices(number - 1) if leads) \
                if self.game.rules.bidding else ""
            upcoming.append({"n": number, "dealer": self.seat(dealer), "first": first,
                             "deals": self.dealer_choice(number - 1) if self.game.rules.bidding else ""})
        return upcoming

    def deal_after_deleting(self, row: Row) -> list[tuple[int, str, str]]:
        """What deleting `row` does to the deal, which follows the hands on the sheet: for each later hand, (its
        number now, who dealt it, who will be shown dealing it one place up)."""
        first = self.game.first_dealer
        return [(later.number, later.dealer, self.seat(dealer_for(first, later.number - 2, self.seats)))
                for later in self.rows[row.number:]]

    def next_dealer_after_deleting(self) -> str:
        """Who deals the next hand once one hand is gone from the sheet."""
        return self.seat(dealer_for(self.game.first_dealer, len(self.rows) - 1, self.seats))

    @property
    def long_names(self) -> bool:
        """Whether a side's or a player's name needs more room than a column of its own on a 320 px phone: then
        the scoreboard, the bidder buttons, the meld and counter fields and the sheet's rows give each name a
        line of its own, so that a name wraps between its words and no word is cut."""
        sides = self.game.rules.sides
        players = [name for name in self.game.players if name]
        return (any(_too_long(team, sides) for team in self.game.teams)
                or any(_too_long(player, 3 if len(self.game.players) > 4 or sides > 2 else 2) for player in players))

    @property
    def long_heads(self) -> bool:
        """Whether a side's name is too long for its narrow column of points at the head of the sheet (a word
        wider than the column, or more than two lines): the head then numbers the columns and names them
        above."""
        return any(_too_long(team, self.game.rules.sides, _HEAD_LETTERS) for team in self.game.teams)

    def team_players(self, team: int) -> str:
        seats = seats_of(team, self.game.rules.sides, self.seats)
        names = [self.game.players[s] for s in seats if self.game.players[s]]
        return " & ".join(names)


def build_sheet(game: Game, hands: list[StoredHand], history: dict | None = None,
                deleted: list[dict] | None = None, state: GameState | None = None) -> Sheet:
    """The sheet of `hands` (the game's live hands, in order); `state` is their fold when the caller has just
    made it (a change folds its game once), else they are folded here."""
    if state is None:
        state = play_game(game.rules, [h.hand for h in hands], names=game.teams)
    rows = []
    history = history or {}
    for i, (stored, result) in enumerate(zip(hands, state.results, strict=True)):
        dealer = dealer_for(game.first_dealer, i, game.rules.players)
        hand = stored.hand
        bidder = "—" if hand.kind == "redeal" else _bidder_name(game, hand.bidder, hand.bidder_seat)
        rows.append(Row(i + 1, stored, result, state.running[i], seat_label(dealer, game.players), bidder,
                        SUIT_SYMBOLS.get(hand.trump or "", ""), history.get(stored.id, [])))
    # a deleted hand goes back, if restored, after the live hands played before it
    sides = range(game.rules.sides)
    placed = [{**d, "number": 1 + sum(1 for row in rows if row.stored.seq < d["seq"]), "bidder_name": _bidder_name(
        game, d.get("bidder"), d.get("bidder_seat")), "meld": tuple(d.get(f"meld_{t}") for t in sides),
        "counters": tuple(d.get(f"counters_{t}") for t in sides)} for d in deleted or []]
    return Sheet(game, rows, state, placed)


# The letters of a word that fit, on a 320 px phone, a column that is one of 1, 2 or 3 across the screen (bold
# 16 px type, counting on wide letters: a bold "Bartholomew" is cut in half a bidder row, "Grandma" in a third
# of one); and the head of the sheet, whose columns of points are narrower still.
_COLUMN_LETTERS = {1: 24, 2: 10, 3: 5}
_HEAD_LETTERS = {1: 16, 2: 8, 3: 6}


def _too_long(name: str, columns: int, letters: dict[int, int] = _COLUMN_LETTERS) -> bool:
    """Whether `name` cannot stand in one of `columns` columns: a word (a hyphen may break a line) longer than
    the column holds, or the whole name longer than two lines of it."""
    most = letters[min(columns, 3)]
    words = name.replace("-", " ").split()
    return any(len(word) > most for word in words) or len(name) > 2 * most


def _bidder_name(game: Game, bidder: int | None, bidder_seat: int | None) -> str:
    """Who bid, as everything else names them: the player where the seat is known, else the side."""
    if bidder is None:
        return "—"
    if bidder_seat is not None:
        return seat_label(bidder_seat, game.players)
    return game.teams[bidder]


__all__ = ["Row", "SEAT_NAMES", "Sheet", "build_sheet"]
