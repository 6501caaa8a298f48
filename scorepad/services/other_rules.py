"""Under whose rules? A game's hands scored again under another rule set that fits its table, beside the scores
it was played under, each difference said in the rules' own words. A view: nothing is stored.

Every score here comes from the one scoring engine (`core.scoring.play_game` and `score_hand`); this module only
chooses which rule sets fit, writes the hands at the other rule set's scale (Bicycle's ×10), and sets the two
sheets side by side. A hand's meld is the number the table recorded, unless the meld calculator's cards were kept
with it (`core.counted`): then they are counted again under the other rule set's meld table.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..core import counted
from ..core.errors import GameOver, InvalidHand
from ..core.rules import PRESETS, Rules, fits_seating, seated
from ..core.rules_in_words import describe
from ..core.scoring import GameState, Hand, HandResult, play_game, validate_hand
from ..core.words import outcome
from ..store.games import Game


@dataclass(frozen=True)
class HandUnder:
    """One hand under the other rules: its result there (None where those rules cannot score it, `why` says
    why), beside its result as played."""

    number: int
    played: HandResult
    result: HandResult | None = None
    why: str | None = None  # the core's words for a hand these rules cannot score
    after_the_end: bool = False  # the game was already won under these rules
    scale: int = 1  # as `UnderOtherRules.scale`: the same score ×10 is no difference

    @property
    def differs(self) -> bool:
        if self.result is None:
            return True
        played = [p * self.scale if self.scale > 0 else p / -self.scale for p in self.played.points]
        return list(self.result.points) != played

    @property
    def phrase(self) -> str:
        """What the hand is under these rules, said after "hand 4 is": "a set", "made", "an automatic throw-in"."""
        return _PHRASES.get(self.words, self.words)

    @property
    def words(self) -> str:
        """What the hand is under these rules, in the sheet's one word ("set", "made", "throw-in")."""
        if self.result is None:
            return "not scored"
        return outcome(self.result.made, self.result.scored_as, self.result.automatic_throw_in)


_PHRASES = {"set": "a set", "throw-in": "a throw-in", "auto throw-in": "an automatic throw-in",
            "no marriage": "a hand without a marriage in trump", "renege": "a renege", "redeal": "a redeal",
            "quadruple run": "a quadruple run", "not scored": "not scored"}


@dataclass(frozen=True)
class UnderOtherRules:
    """The game under `rules` beside the game as played."""

    key: str  # the rule set's key: a preset's, or "book" for the game's own preset as printed
    rules: Rules
    scale: int  # the other scores are this many times the game's (10 for Bicycle's beside the family's)
    hands: list[HandUnder]
    state: GameState | None  # the fold of the hands these rules could score, up to the win
    rules_differ: list[str] = field(default_factory=list)  # the other rule set's sentences the game's lacks

    @property
    def differing(self) -> list[HandUnder]:
        return [h for h in self.hands if h.differs]


def fitting(game: Game) -> dict[str, Rules]:
    """The rule sets the game's hands can be scored under, by key: every other preset played at its table with a
    deck of the same cards and counter points the game's can be written in (×10 or ÷10), and, for a game played
    with house rules, its own rule set as the book prints it ("book")."""
    rules = game.rules
    found = {}
    for key, preset in PRESETS.items():
        if key == rules.preset or not fits_seating(key, rules.sides, rules.players_per_side):
            continue
        other = seated(preset, rules.sides, rules.players_per_side)
        if other.deck == rules.deck and other.bidding == rules.bidding and _scale(rules, other):
            found[key] = other
    if rules.preset in PRESETS:
        book = seated(PRESETS[rules.preset], rules.sides, rules.players_per_side)
        if book != rules:
            found["book"] = book
    return found


def _scale(rules: Rules, other: Rules) -> int | None:
    """How many times the other rule set's numbers are the game's (a fraction where they are smaller), or None
    where they are not a whole multiple either way."""
    if other.hand_points % rules.hand_points == 0:
        return other.hand_points // rules.hand_points
    if rules.hand_points % other.hand_points == 0:
        return -(rules.hand_points // other.hand_points)  # negative: divided by
    return None


def under(game: Game, hands: list[Hand], played: GameState, key: str) -> UnderOtherRules | None:
    """The game's `hands` (its live hands, in order, as `played`) under the rule set `key` of `fitting`; None for a
    key that does not fit the game."""
    other = fitting(game).get(key)
    if other is None:
        return None
    scale = _scale(game.rules, other)
    # the bid steps are how a table bids, not how a hand scores: a bid of 105 made at the family table is
    # scored as 105 under rules that bid by tens from 100
    scoring = replace(other, check_bid_steps=False, max_bid=None)
    rows, valid = [], []
    for number, (hand, result) in enumerate(zip(hands, played.results, strict=True), start=1):
        written = _written(hand, scale, scoring)
        if written is None:
            rows.append(HandUnder(number, result, why="Its numbers cannot be written at these rules' scale.",
                                  scale=scale))
            continue
        problems = validate_hand(scoring, written)
        if problems:
            rows.append(HandUnder(number, result, why=next(iter(problems.values())), scale=scale))
            continue
        rows.append(HandUnder(number, result, scale=scale))
        valid.append((len(rows) - 1, written))
    state = _fold(scoring, [hand for _, hand in valid], game.teams)
    for (row, _), scored in zip(valid, state.results if state else [], strict=False):
        rows[row] = replace(rows[row], result=scored)
    for row, _ in valid[len(state.results) if state else 0:]:
        rows[row] = replace(rows[row], after_the_end=True, why="The game was already won under these rules.")
    own = set(describe(game.rules))
    return UnderOtherRules(key, other, scale, rows, state, [line for line in describe(other) if line not in own])


def hand_under(game: Game, hand: Hand, played: HandResult, number: int, key: str) -> HandUnder | None:
    """One hand under the rule set `key`, alone (as if it were the game's only hand): for the hand's page."""
    from ..core.scoring import score_hand

    other = fitting(game).get(key)
    if other is None:
        return None
    scoring = replace(other, check_bid_steps=False, max_bid=None)
    scale = _scale(game.rules, other)
    written = _written(hand, scale, scoring)
    if written is None:
        return HandUnder(number, played, why="Its numbers cannot be written at these rules' scale.", scale=scale)
    try:
        return HandUnder(number, played, score_hand(scoring, written, names=game.teams), scale=scale)
    except InvalidHand as refused:
        return HandUnder(number, played, why=next(iter(refused.errors.values())), scale=scale)


def _fold(rules: Rules, hands: list[Hand], teams) -> GameState | None:
    """The hands folded under `rules`, up to the hand that wins the game there (a game won earlier under other
    rules takes no more hands)."""
    if not hands:
        return None
    try:
        return play_game(rules, hands, names=teams, checked=True)
    except GameOver:
        for end in range(1, len(hands) + 1):
            state = play_game(rules, hands[:end], names=teams, checked=True)
            if state.winner is not None:
                return state
    return None


def _written(hand: Hand, scale: int, rules: Rules) -> Hand | None:
    """`hand` with its numbers at the other rule set's scale, its meld counted again from the cards where the
    calculator's were kept; None where a number does not divide."""
    def at_scale(value):
        if value is None:
            return None
        if scale > 0:
            return value * scale
        return value // -scale if value % -scale == 0 else _NOT_WHOLE

    recounted = [_meld_under(hand, side, rules) for side in range(len(hand.meld))]
    meld = tuple(at_scale(m) if again is None else again for again, m in zip(recounted, hand.meld, strict=True))
    bid = at_scale(hand.bid) if hand.kind != "redeal" else hand.bid
    counters = None if hand.counters is None else tuple(at_scale(c) for c in hand.counters)
    values = [*meld, bid, *(counters or ())]
    if any(value is _NOT_WHOLE for value in values):
        return None
    return replace(hand, meld=meld, bid=bid, counters=counters,
                   dix_only=hand.dix_only if rules.deck == "single" else (False,) * len(hand.meld))


_NOT_WHOLE = object()


def _meld_under(hand: Hand, side: int, rules: Rules) -> int | None:
    """A side's meld counted from the cards the calculator kept, under `rules`' meld table; None without cards."""
    count = (hand.counted or (None,) * len(hand.meld))[side]
    if count is None:
        return None
    kept = counted.counted(count, rules.meld_table, rules.players)
    return None if kept is None else kept.total
