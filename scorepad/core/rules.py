"""Rule sets as data: one frozen `Rules` per preset (each a section of docs/rules.md), with the checks that keep
a house-rule variant playable. The same rules in plain words are in `core.rules_in_words`.

A game stores the complete `Rules` it was started with, so every option is a field here, and a house-rule
variant is `dataclasses.replace(preset, ...)`, which checks itself again on the way.
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, fields, replace
from typing import Any

from .errors import InvalidRules
from .meld import TABLES, WINS_GAME, hand_size, most_meld
from .words import number

# The values an option may take, and what each means in a sentence. Kept beside each other so that a new
# value cannot be added without its words.
ALL_PASS = {
    "dealer_stuck": "If everyone passes, the dealer is stuck with the minimum bid.",
    "redeal": "If everyone passes, the hands are thrown in and the next dealer deals; nobody scores.",
}
SET_PENALTY = {
    "bid": "the bid",
    "meld_and_counters": "their own meld and counters",
    "chips": "nothing; the opponents score the failed bid on top of their own points (chip scoring)",
}
THROW_IN_PENALTY = {
    "bid": "the bid",
    "meld": "their own meld (nothing if they have none)",
}
THROW_IN_AWARD = {
    "meld_plus_bonus": "their meld (if on the board) plus {bonus} for the cards",
    # Bicycle's 3-hand double pinochle: 100 of a 500-point hand, half what a renege gives
    "meld_plus_half_bonus": "their meld (if on the board) plus {bonus} for the cards",
    "meld": "their meld (if on the board)",
    "nothing": "nothing",
}
# How the cards taken in tricks count (000: "agreed on before the game"). Each is said with the value of one
# counter: "{each}" is an ace's worth at the deck's scale, "{half}" half of it, "{last}" the last trick's.
CARD_COUNTS = {
    "aces_tens_kings": "aces, tens and kings {each} each, the last trick {last}",
    "kings_queens_half": "aces and tens {each} each, kings and queens {half}, the last trick {last}",
}
NO_MARRIAGE = {
    "throw_in": "A bidder with no marriage in trump is scored as a throw-in.",
    "no_meld": "A bidder with no marriage in trump loses the bid, and neither side scores meld.",
}
MELD_TABLES = ("002", "tournament", "000", "004", "004-plain", "tournament-once", "triple")
SINGLE_DECK_TABLES = ("004", "004-plain")  # the tables with 9s: every other table is for the double deck
DECKS = {"double": 80, "single": 48, "triple": 120}
# What can happen in a hand, in the order a form offers it; `allowed_kinds` says which a rule set has.
KINDS = ("played", "throw_in", "no_marriage", "renege", "redeal", "quad_run")
# A hand's counter points when each counter scores one (last trick included): the deck at its own scale, ×1.
NATURAL_POINTS = {"double": 50, "single": 25, "triple": 75}
MOST_SCALE = 10  # the ×10 scorings (Bicycle, single deck) are the largest any rule book uses
MOST_TARGET = 100_000  # a game score at ×1: no evening at a kitchen table comes near it
MOST_HANDS = 1_000  # a game of a fixed number of hands
MOST_BID_STEPS = 10
# The seatings a game may use, (sides, players per side) -> who plays it (docs/rules.md, "Tables of every size").
# Seat `s` belongs to side `s % sides`, so partners alternate round the table.
SEATINGS = {
    (2, 1): "two-handed",
    (3, 1): "three-handed (cutthroat): every player for themselves",
    (2, 2): "partnership: two teams of two",
    (2, 3): "six-handed: two teams of three",
    (3, 2): "six-handed: three partnerships",
    (2, 4): "eight-handed: two teams of four",
}
# The presets written for players on their own; every other preset is for sides of two or more.
LONE_PRESETS = ("three-handed", "three-handed-double", "two-handed")
# The presets for six players only (two teams of three, or three partnerships): three decks deal 20 cards to six.
SIX_PLAYER_PRESETS = ("six-handed-triple",)


@dataclass(frozen=True)
class Rules:
    """Every scoring option of a game (each preset's "Options" in docs/rules.md). Build one from `PRESETS` and
    `dataclasses.replace`."""

    preset: str
    title: str
    played_by: str  # one line: who plays it this way
    deck: str  # "double" (80 cards, no 9s) | "single" (48, with 9s) | "triple" (120, three decks without 9s)
    hand_points: int  # counter points in one hand, last trick included
    counter_step: int
    meld_step: int
    min_bid: int
    # (from, step) pairs, ascending: a bid of at least `from` must be a multiple of `step`.
    bid_steps: tuple[tuple[int, int], ...]
    check_bid_steps: bool
    all_pass: str
    min_meld: int  # 0: every meld counts
    save_counters: int  # counters a team must take to save its meld; 0: nothing needed, 1: any counter
    unsaved_counters_score: bool
    opponents_score_when_made: bool
    set_penalty: str
    throw_in_penalty: str
    throw_in_award: str
    no_marriage: str
    forced_no_marriage_meld_only: bool  # 002: a dealer stuck without a marriage gives the opponents meld only
    auto_throw_in_margin: int | None  # a bid above the bidders' meld plus this cannot be made
    auto_throw_in_below_min_meld: bool
    target: int
    floor: int | None
    hands_limit: int | None
    meld_table: str
    # Options added after games were first stored: a snapshot or an export without them takes the default.
    max_bid: int | None = None  # 003: bids go "up to the maximum possible score in a round"; None: no cap
    card_count: str = "aces_tens_kings"  # a key of CARD_COUNTS
    sides: int = 2
    players_per_side: int = 2
    bidding: bool = True  # False: nobody bids, each side scores its meld and counters (two-handed)

    def __post_init__(self) -> None:
        problems = list(_problems(self))
        if problems:
            raise InvalidRules([message for _, message in problems],
                               {option: message for option, message in problems if option})

    @property
    def card_bonus(self) -> int:
        """What the cards are worth to the opponents on a throw-in or a bidders' renege: 2/5 of the hand's counter
        points, so 20 in a 50-point hand."""
        return self.hand_points * 2 // 5

    @property
    def throw_in_bonus(self) -> int:
        """What the cards are worth to each other side on a throw-in, where the award has a bonus."""
        return self.card_bonus // 2 if self.throw_in_award == "meld_plus_half_bonus" else self.card_bonus

    @property
    def players(self) -> int:
        """How many sit at the table."""
        return self.sides * self.players_per_side

    @property
    def max_value(self) -> int:
        """Larger than any bid or team meld a real hand reaches; anything above is a typing slip."""
        return self.hand_points * 20

    @property
    def scale(self) -> int:
        """1 where a counter scores one point, 10 where every score is ×10: how large this deck's numbers run."""
        return max(1, self.hand_points // NATURAL_POINTS[self.deck])

    def bid_step_at(self, bid: int) -> int:
        step = 1
        for start, each in self.bid_steps:
            if bid >= start:
                step = each
        return step

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, kept: bool = False) -> Rules:
        """Rebuild a stored snapshot. Unknown keys are refused rather than dropped: a snapshot is a record.

        `kept`: the snapshot of a game this app already keeps. A number out of today's range (a game started
        before the ranges were checked) is let stand, so that the game still opens; any other problem is refused.
        """
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise InvalidRules([f"Unknown rule option(s): {', '.join(sorted(unknown))}."])
        missing = names - set(data) - _DEFAULTED
        if missing:
            raise InvalidRules([f"Missing rule option(s): {', '.join(sorted(missing))}."])
        values = {f.name: f.default for f in fields(cls) if f.name in _DEFAULTED} | dict(data)
        values["bid_steps"] = tuple(tuple(pair) for pair in values["bid_steps"])
        if not kept:
            return cls(**values)
        rules = object.__new__(cls)  # built as the frozen __init__ builds it, then checked without the ranges
        for name, value in values.items():
            object.__setattr__(rules, name, value)
        problems = [message for _, message in _problems(rules, ranged=False)]
        if problems:
            raise InvalidRules(problems)
        return rules


# The options a stored snapshot may lack: they came later, and their defaults are what every game before played.
_DEFAULTED = frozenset(f.name for f in fields(Rules) if f.default is not MISSING)


def allowed_kinds(rules: Rules) -> tuple[str, ...]:
    """The kinds of hand `rules` can have, in `KINDS`' order: a redeal only where everyone passing redeals, a
    quadruple run that wins the game only where the meld table says so (002), and only a played hand where nobody
    bids."""
    if not rules.bidding:
        return ("played",)
    have = {"redeal": rules.all_pass == "redeal", "quad_run": run_wins_game(rules)}
    return tuple(kind for kind in KINDS if have.get(kind, True))


def run_wins_game(rules: Rules) -> bool:
    """Whether a quadruple run in trump wins the game outright under `rules`' meld table (002: "You Win!")."""
    return WINS_GAME in TABLES[rules.meld_table].run


# docs/rules.md, "Tables of every size": two players who turn bidding on play the two-handed auction game, scored
# as `three-handed` with two players: meld counts only for a player who takes a counter.
AUCTION_SAVE_RULE = ("save_counters", "unsaved_counters_score")


def with_house_rules(base: Rules, changes: dict[str, Any]) -> Rules:
    """`base` with a table's house rules, and what a change brings along: bidding turned on where `base` has none
    takes the three-handed save rule, and kings and queens counting half an ace takes half a counter's step
    (Bicycle's "kings and queens 5" makes counters like 245), unless the table set its own."""
    if changes.get("bidding") is True and not base.bidding:
        three = PRESETS["three-handed"]
        changes = {name: getattr(three, name) for name in AUCTION_SAVE_RULE} | changes
    if changes.get("card_count") == "kings_queens_half" and "counter_step" not in changes:
        changes = changes | {"counter_step": max(1, counter_worth(base)[0] // 2)}
    if "bidding" in changes and changes["bidding"] != base.bidding and "title" not in changes:
        changes = changes | _bidding_words(base, changes["bidding"])
    return replace(base, **changes)


def _bidding_words(base: Rules, bidding: bool) -> dict[str, str]:
    """The title and the line on who plays it of `base` with bidding turned on or off: a rule set is never named
    for the way it is not played ("Two-handed (no bidding)" at a table that bids)."""
    if bidding:
        return {"title": "Two-handed, with bidding" if base.sides == 2 and base.players_per_side == 1 else
                f"{base.title.removesuffix(' (no bidding)')}, with bidding",
                "played_by": "Two players bid; meld counts only for a player who takes a counter, and a bidder who "
                             f"takes less than the bid is set. Game to {number(base.target)}."}
    return {"title": f"{base.title}, no bidding",
            "played_by": f"Nobody bids: each side scores its meld and counters. Game to {number(base.target)}."}


def fits_seating(preset: str, sides: int, players_per_side: int) -> bool:
    """Whether a rule set is played at a table of `sides` sides of `players_per_side`: teams play every rule set
    of two teams; players on their own play the rule sets for them at their own number, and two players may also
    play a three-handed auction; the six-player rule set is for six, however they sit."""
    if (sides, players_per_side) not in SEATINGS or preset not in PRESETS:
        return False
    if preset in SIX_PLAYER_PRESETS:
        return sides * players_per_side == 6
    if players_per_side > 1:
        return preset not in LONE_PRESETS
    rules = PRESETS[preset]
    return preset in LONE_PRESETS and (rules.sides == sides or (rules.bidding and sides == 2))


def cards_left_over(rules: Rules) -> int:
    """The cards of `rules`' deck that are not dealt to its table's players: 0 where it deals evenly."""
    return DECKS[rules.deck] - rules.players * hand_size(rules.deck, rules.players)


def deals_evenly(rules: Rules) -> bool:
    """Whether `rules`' deck deals out at its table: nothing left over, or what is left is the kitty, widow or
    stock its rule set is written for (players on their own)."""
    return cards_left_over(rules) == 0 or rules.preset in LONE_PRESETS


def most_one_hand_melds(rules: Rules) -> int:
    """At least the most one player's cards can meld under `rules`' meld table at its table (see
    `meld.most_meld`): a side's meld above it is worth a question before it is recorded."""
    return most_meld(rules.meld_table, hand_size(rules.deck, rules.players))


def can_be_stuck(rules: Rules) -> bool:
    """Whether the dealer can be stuck with the minimum bid (when everyone passes and nobody redeals)."""
    return rules.all_pass == "dealer_stuck"


def limits(rules: Rules) -> dict[str, tuple[int, int]]:
    """(lowest, highest) for each whole-number option, under `rules`' deck and hand points. An option that may be
    None (no losing floor, no fixed number of hands, no automatic throw-in) is held to its range when it is set."""
    most_score = MOST_TARGET * rules.scale
    return {
        "counter_step": (1, rules.hand_points),
        "meld_step": (1, rules.hand_points),
        "min_bid": (1, rules.max_value),  # a bid above max_value is refused as a slip: some bid must be possible
        "min_meld": (0, rules.max_value),
        "save_counters": (0, rules.hand_points),
        "auto_throw_in_margin": (0, rules.max_value),
        "target": (1, most_score),
        "floor": (-most_score, -1),
        "hands_limit": (1, MOST_HANDS),
        "max_bid": (1, rules.max_value),
    }


# Each whole-number option as a message names it; the ones that may be None say so.
_OPTION_WORDS = {
    "hand_points": "The hand's counter points",
    "counter_step": "The counter step",
    "meld_step": "The meld step",
    "min_bid": "The minimum bid",
    "min_meld": "The meld needed to be on the board",
    "save_counters": "The counters needed to save meld",
    "auto_throw_in_margin": "The automatic throw-in margin",
    "target": "The game score",
    "floor": "The losing floor",
    "hands_limit": "A fixed number of hands",
    "max_bid": "The highest bid",
}
_MAY_BE_NONE = {"auto_throw_in_margin", "floor", "hands_limit", "max_bid"}
_CHOICES = {
    "all_pass": ALL_PASS,
    "set_penalty": SET_PENALTY,
    "throw_in_penalty": THROW_IN_PENALTY,
    "throw_in_award": THROW_IN_AWARD,
    "no_marriage": NO_MARRIAGE,
    "meld_table": MELD_TABLES,
    "deck": DECKS,
    "card_count": CARD_COUNTS,
}


def _problems(rules: Rules, ranged: bool = True):
    """(option, message) for everything wrong with `rules`. Not `ranged`: whole numbers of any size will do."""
    for name, allowed in _CHOICES.items():
        if getattr(rules, name) not in allowed:
            yield name, f"{name} must be one of {', '.join(allowed)}, not {getattr(rules, name)!r}."
    if rules.deck not in DECKS:
        return  # every range below is measured against the deck
    most_points = NATURAL_POINTS[rules.deck] * MOST_SCALE if ranged else float("inf")
    if not _within(rules.hand_points, 1, most_points):
        yield "hand_points", _out_of_range("hand_points", 1, NATURAL_POINTS[rules.deck] * MOST_SCALE)
        return  # and against the hand's points
    for name, (low, high) in limits(rules).items():
        value = getattr(rules, name)
        if value is None and name in _MAY_BE_NONE:
            continue
        if not _within(value, low, high) if ranged else not _is_int(value):
            yield name, _out_of_range(name, low, high)
    if _within(rules.counter_step, 1, rules.hand_points) and rules.hand_points % rules.counter_step:
        yield "counter_step", _counter_step_problem(rules.hand_points)
    yield from _bid_step_problems(rules)
    if _is_int(rules.max_bid) and _is_int(rules.min_bid) and rules.max_bid < rules.min_bid:
        # blamed on the minimum bid: the form offers that one, and the cap is the rule book's
        yield "min_bid", (f"The minimum bid must be at most the highest bid these rules allow, "
                          f"{number(rules.max_bid)}.")
    if rules.card_count == "kings_queens_half" and half_counter(rules) is None:
        yield "card_count", ("Kings and queens at half an ace's worth need counters worth ten or more each "
                             "(scores ×10).")
    elif rules.card_count == "kings_queens_half" and half_counter(rules) % rules.counter_step:
        yield "counter_step", (f"With kings and queens at {number(half_counter(rules))}, counters are counted "
                               f"in steps that divide {number(half_counter(rules))}.")
    yield from _seating_problems(rules)
    # A kept game is let be: the table only guides the meld calculator, and the game must still open.
    if ranged and rules.meld_table in MELD_TABLES and TABLES[rules.meld_table].deck != rules.deck:
        yield "meld_table", ("That meld table is for another deck: three decks go with the three-deck values "
                             "only." if "triple" in (rules.deck, TABLES[rules.meld_table].deck) else
                             "That meld table is for the other deck: single-deck tables go with single deck.")


def counter_worth(rules: Rules) -> tuple[int, int]:
    """(What one ace or ten taken in a trick is worth, what the last trick is worth) under `rules`' deck and
    scale: 1 and 2 in a 50-point double deck, 10 and 10 in a 250-point single deck."""
    counters = {"double": 48, "single": 24, "triple": 72}[rules.deck]
    return rules.scale, rules.hand_points - counters * rules.scale


def half_counter(rules: Rules) -> int | None:
    each = rules.scale
    return each // 2 if each % 2 == 0 else None


def _seating_problems(rules: Rules):
    seating = (rules.sides, rules.players_per_side)
    if not all(map(_is_int, seating)) or seating not in SEATINGS:
        yield "sides", ("A table is 2 sides of 1, 3 sides of 1, 2 sides of 2, 2 sides of 3, 3 sides of 2 or "
                        "2 sides of 4.")
        return
    if (rules.players_per_side == 1) != (rules.preset in LONE_PRESETS):
        yield "players_per_side", ("Players on their own play the two- or three-handed rules; "
                                   "every other rule set is for teams of two or more.")
    if rules.deck == "triple" and rules.players != 6:
        yield "players_per_side", "Three decks deal 20 cards to each of six players: the game is for six."
    if rules.floor is not None and rules.sides != 2:
        yield "floor", "A losing floor is only for a game of two sides."
    if not isinstance(rules.bidding, bool):
        yield "bidding", "Say whether the players bid (yes or no)."


def _counter_step_problem(points: int) -> str:
    said = f"The counter step must divide the hand's {points:,} counter points"
    if points > max(NATURAL_POINTS.values()) * MOST_SCALE:
        return said + "."  # a kept game from before the ranges: too many steps to list, or to look for
    steps = [n for n in range(1, points + 1) if points % n == 0]
    return f"{said}: {', '.join(map(str, steps[:-1]))} or {steps[-1]}."


def _bid_step_problems(rules: Rules):
    steps, most = rules.bid_steps, rules.max_value
    if not steps or len(steps) > MOST_BID_STEPS or any(len(pair) != 2 for pair in steps):
        yield "bid_steps", f"Bid steps must be 1 to {MOST_BID_STEPS} (from, step) pairs."
    elif any(not _within(a, 0, most) or not _within(b, 1, most) for a, b in steps):
        yield "bid_steps", f"Bid steps must be whole numbers up to {most:,}, with steps above 0."
    elif [a for a, _ in steps] != sorted(a for a, _ in steps):
        yield "bid_steps", "Bid steps must be in ascending order."


def _out_of_range(name: str, low: int, high: int) -> str:
    none = " (or none)" if name in _MAY_BE_NONE else ""
    return f"{_OPTION_WORDS[name]} must be a whole number from {number(low)} to {number(high)}{none}."


def _within(value: object, low: int, high: float) -> bool:
    return _is_int(value) and low <= value <= high


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_DOUBLE_DECK = Rules(
    preset="double-deck",
    title="Double deck (family rules)",
    played_by="The common kitchen-table game: 20 meld to get on the board, 20 counters to save it.",
    deck="double",
    hand_points=50,
    counter_step=1,
    meld_step=1,
    min_bid=50,
    bid_steps=((50, 1), (60, 5)),
    check_bid_steps=True,
    all_pass="dealer_stuck",
    min_meld=20,
    save_counters=20,
    unsaved_counters_score=False,
    opponents_score_when_made=True,
    set_penalty="bid",
    throw_in_penalty="bid",
    throw_in_award="meld_plus_bonus",
    no_marriage="throw_in",
    forced_no_marriage_meld_only=True,
    auto_throw_in_margin=None,
    auto_throw_in_below_min_meld=False,
    target=500,
    floor=None,
    hands_limit=None,
    meld_table="002",
)

PRESETS: dict[str, Rules] = {
    "double-deck": _DOUBLE_DECK,
    "double-deck-shg": replace(
        _DOUBLE_DECK,
        preset="double-deck-shg",
        title="Double deck (tournament, online)",
        played_by="Tournament rules as played online: automatic throw-ins, unsaved counters still score.",
        bid_steps=((50, 1), (60, 5), (100, 10)),
        unsaved_counters_score=True,
        throw_in_award="meld",
        no_marriage="no_meld",
        forced_no_marriage_meld_only=False,
        auto_throw_in_margin=50,
        auto_throw_in_below_min_meld=True,
        meld_table="tournament",
    ),
    "double-pack-bicycle": replace(
        _DOUBLE_DECK,
        preset="double-pack-bicycle",
        title="Double pack (Bicycle, ×10)",
        played_by="The rules in the Bicycle book: scores ×10, game to 3,550, any counter saves meld.",
        hand_points=500,
        counter_step=10,
        meld_step=10,
        min_bid=500,
        bid_steps=((500, 10),),
        all_pass="redeal",
        min_meld=0,
        save_counters=1,
        unsaved_counters_score=True,
        throw_in_award="meld",
        forced_no_marriage_meld_only=False,
        target=3550,
        meld_table="000",
    ),
    "double-deck-gamerules": replace(
        _DOUBLE_DECK,
        preset="double-deck-gamerules",
        title="Double deck (opponents score only on a set)",
        played_by="Only the side that wins the hand scores; a failed bid costs meld and counters; −500 loses.",
        bid_steps=((50, 1),),
        min_meld=0,
        save_counters=0,
        unsaved_counters_score=True,
        opponents_score_when_made=False,
        set_penalty="meld_and_counters",
        throw_in_penalty="meld",
        throw_in_award="nothing",
        forced_no_marriage_meld_only=False,
        floor=-500,
        meld_table="tournament-once",
        max_bid=500,
    ),
    "single-deck": replace(
        _DOUBLE_DECK,
        preset="single-deck",
        title="Single deck (48 cards, ×10)",
        played_by="Classic four-handed single deck with 9s, scores ×10, game to 1,500.",
        deck="single",
        hand_points=250,
        counter_step=10,
        meld_step=10,
        min_bid=250,
        bid_steps=((250, 10),),
        min_meld=0,
        save_counters=1,
        unsaved_counters_score=True,
        throw_in_award="meld",
        forced_no_marriage_meld_only=False,
        auto_throw_in_margin=250,
        target=1500,
        meld_table="004",
    ),
}
_THREE_HANDED = replace(
    PRESETS["single-deck"],
    preset="three-handed",
    title="Three-handed (cutthroat, single deck)",
    played_by="Three players, each for themselves: 15 cards each and 3 to the kitty, game to 1,500.",
    auto_throw_in_margin=None,
    sides=3,
    players_per_side=1,
)
PRESETS.update({
    "three-handed": _THREE_HANDED,
    "three-handed-double": replace(
        _THREE_HANDED,
        preset="three-handed-double",
        title="Three-handed double pinochle (Bicycle, ×10)",
        played_by="Bicycle's 3-hand double pinochle: 80 cards, 25 each and 5 to the widow, game to 4,550.",
        deck="double",
        hand_points=500,
        min_bid=500,
        bid_steps=((500, 10),),
        throw_in_award="meld_plus_half_bonus",
        target=4550,
        meld_table="000",
    ),
    "two-handed": replace(
        _THREE_HANDED,
        preset="two-handed",
        title="Two-handed (no bidding)",
        played_by="Two players as in Hoyle: nobody bids, each scores meld and counters, game to 1,000.",
        counter_step=1,
        save_counters=0,
        target=1000,
        sides=2,
        bidding=False,
    ),
})
# Six players with three decks: no rule book we follow prints numbers for it, so these are Scorepad's own, the
# family double deck's made half again as large (a 120-card deck holds 72 counters, and the last trick is 3):
# 75 counter points, bids from 75 (by 1, by 5 from 100), 30 meld to be on the board and 30 counters to save it,
# game to 750; meld by the family values, going on past four of a meld to six.
PRESETS["six-handed-triple"] = replace(
    _DOUBLE_DECK,
    preset="six-handed-triple",
    title="Six-handed, three decks (Scorepad's own numbers)",
    played_by="Six players with three decks (120 cards, 20 each): the family rules half again as large, game to "
              "750. Scorepad's own numbers, as no rule book prints them.",
    deck="triple",
    hand_points=75,
    min_bid=75,
    bid_steps=((75, 1), (100, 5)),
    min_meld=30,
    save_counters=30,
    target=750,
    meld_table="triple",
    players_per_side=3,
)
DEFAULT_PRESET = "double-deck"
# Two players may play a three-handed auction rule set: the two-handed auction game (docs/rules.md, "Tables of
# every size"). At that table the rule set goes by these words, so that nothing offered to two players speaks
# of three.
TWO_HANDED_AUCTION = {
    "three-handed": ("Two-handed auction (single deck, \u00d710)",
                     "Two players bid; meld counts only for a player who takes a counter, and a bidder who takes "
                     "less than the bid is set. 48 cards with 9s, game to 1,500."),
    "three-handed-double": ("Two-handed auction, double deck (Bicycle, \u00d710)",
                            "Two players bid with 80 cards; meld counts only for a player who takes a counter, and a "
                            "bidder who takes less than the bid is set. Game to 4,550."),
}


def seated(rules: Rules, sides: int, players_per_side: int) -> Rules:
    """`rules` at a table of `sides` sides of `players_per_side`, under the name it goes by there. A losing
    floor is for two sides only: a rule set that has one drops it at a table of more."""
    words = TWO_HANDED_AUCTION.get(rules.preset) if (sides, players_per_side) == (2, 1) and rules.bidding else None
    title, played_by = words or (rules.title, rules.played_by)
    return replace(rules, sides=sides, players_per_side=players_per_side, title=title, played_by=played_by,
                   floor=rules.floor if sides == 2 else None)
