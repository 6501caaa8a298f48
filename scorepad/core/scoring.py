"""Scoring one hand and a whole game, as docs/rules.md tells it ("How a hand is scored", then each preset's
"The rules in words").

Pure functions of (rules, hand): no I/O, no clock. Every result carries its explanation, one plain sentence per
rule applied, in the order applied, with the numbers a player needs to check the arithmetic by hand.

One engine scores every table, over any number of sides: each rule is one function, and only the words that
name the sides differ (`_Words`: two teams are "Bidders" and "Opponents", any other table names each side).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import GameOver, InvalidHand
from .meld import TABLES
from .rules import KINDS, Rules, allowed_kinds, can_be_stuck, most_one_hand_melds
from .seats import team_of
from .words import (
    BIDDERS,
    KIND_WORDS,
    MELD_TABLE_NAMES,
    OPPONENTS,
    TEAM_NAMES,
    number,
    possessive,
    side_names,
    side_word,
    signed,
    subject,
)


@dataclass(frozen=True)
class Hand:
    """One hand as entered. `meld` and `counters` hold one entry per side, (team 0, team 1) at a table of two
    teams; `bidder` and `renege_team` are side indices. Without bidding, `bidder` and `bid` are None.

    Built as typed, checked by `validate_hand`: a Hand may hold wrong values so that every mistake can be
    reported at once, next to its field.
    """

    bidder: int | None
    bid: int | None
    meld: tuple[int, ...]
    counters: tuple[int, ...] | None = None
    kind: str = "played"
    renege_team: int | None = None
    forced: bool = False
    # Kept for the record (the sheet, the history, a player's figures); scoring never reads them.
    trump: str | None = None
    bidder_seat: int | None = None
    # One flag a side: its whole meld is one or both 9s of trump (the dix), which saves itself (004). Left out,
    # no side's is.
    dix_only: tuple[bool, ...] | None = None
    # What the meld calculator counted, one entry a side (see `core.counted`), kept for the record; None: nothing
    # counted. Scoring never reads it.
    counted: tuple | None = None

    def __post_init__(self) -> None:
        # Lists are welcome on the way in; tuples keep the hand hashable and frozen all the way down.
        for name in ("meld", "counters", "dix_only"):
            if isinstance(getattr(self, name), list):
                object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.dix_only is None:
            sides = len(self.meld) if isinstance(self.meld, tuple) else 2
            object.__setattr__(self, "dix_only", (False,) * sides)


@dataclass(frozen=True)
class HandResult:
    points: tuple[int, ...]  # one per side
    made: bool | None  # None when the hand was not played out
    explanation: list[str] = field(default_factory=list)
    scored_as: str = "played"  # the kind it was scored as: an automatic throw-in says "throw_in"
    automatic_throw_in: bool = False
    wins_game: bool = False  # the bidders won the game with this hand, whatever the totals (a quadruple run)

    @property
    def was_set(self) -> bool:
        return self.made is False


@dataclass(frozen=True)
class GameState:
    totals: tuple[int, ...]  # one per side
    winner: int | None
    results: list[HandResult]
    running: list[tuple[int, ...]] = field(default_factory=list)  # totals after each hand
    decided_on: int | None = None  # the 1-based hand that decided the game
    reason: str | None = None  # why the winner won, in words
    hands_scored: int = 0  # redeals not counted


# --- validation -------------------------------------------------------------------------------------------

def validate_hand(rules: Rules, hand: Hand, *, dealer: int | None = None,
                  bidder_seat: int | None = None) -> dict[str, str]:
    """Every mistake in `hand` under `rules`, as field -> message; {} when the hand can be scored.

    Fields: kind, bidder, bid, forced, meld_0, meld_1, dix_only_0, dix_only_1 (dix_only when the flags are
    garbled), counters_0, counters_1, counters (their sum), renege_team, with meld_2, dix_only_2, counters_2 ...
    for each further side. Each message says what is wrong and what is allowed. Without bidding
    (`rules.bidding` off) a hand is only each side's meld and counters.

    `dealer` is the seat that dealt the hand and `bidder_seat` the seat that won the bid, where they are known:
    a bid forced on anyone but the dealer (on the dealer's team, when only teams are kept) is refused.
    """
    errors: dict[str, str] = {}
    if hand.kind not in KINDS:
        errors["kind"] = _kind_unknown(rules)
        return errors
    if hand.kind not in allowed_kinds(rules):
        errors["kind"] = _kind_not_allowed(rules, hand.kind)
        return errors
    if hand.kind == "redeal":
        return errors  # nothing else is entered for a redeal
    if not rules.bidding:
        return _unbid_errors(rules, hand)
    if not _is_team(hand.bidder, rules.sides):
        errors["bidder"] = f"Choose the {side_word(rules)} who won the bid." if _lone(rules) else \
            "Choose the team that won the bid."
    wrong_bid = bid_error(rules, hand.bid)
    if wrong_bid:
        errors["bid"] = wrong_bid
    forced_error = _forced_error(rules, hand) or _stuck_error(hand, dealer, bidder_seat, rules.sides)
    if forced_error:
        errors["forced"] = forced_error
    errors.update(_meld_errors(rules, hand.meld))
    errors.update(_dix_errors(rules, hand, errors))
    errors.update(_counter_errors(rules, hand))
    if hand.kind == "renege" and not _is_team(hand.renege_team, rules.sides):
        errors["renege_team"] = f"Choose the {side_word(rules)} who reneged." if _lone(rules) else \
            "Choose the team that reneged."
    if hand.kind != "renege" and hand.renege_team is not None:
        errors["renege_team"] = "Only a renege names the team that reneged."
    return errors


def _kind_unknown(rules: Rules) -> str:
    """The ways a hand can end under `rules`, as the form offers them."""
    *most, last = [KIND_WORDS[kind] for kind in allowed_kinds(rules)]
    return f"Choose what happened: {', '.join(most)} or {last}."


def _kind_not_allowed(rules: Rules, kind: str) -> str:
    if kind == "quad_run":
        return ("Under these rules a quadruple run in trump is meld like any other: enter it in the bidders' meld "
                "and play the hand.")
    return ("These rules have no redeal: when everyone passes, the dealer is stuck with "
            f"the minimum bid of {number(rules.min_bid)}.")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_team(value: object, sides: int = 2) -> bool:
    return _is_int(value) and 0 <= value < sides


def bid_error(rules: Rules, bid: object) -> str | None:
    """Why `bid` is not a bid these rules take; None when it is (the one check of a bid, the chips' too)."""
    if not _is_int(bid):
        return f"Bid must be a whole number, {number(rules.min_bid)} or more."
    if bid < rules.min_bid:
        return f"Bid must be at least {number(rules.min_bid)}."
    if bid > rules.max_value:
        return f"A bid of {number(bid)} is more than any hand can make; the most is {number(rules.max_value)}."
    if rules.max_bid is not None and bid > rules.max_bid:
        return f"Bids go up to {number(rules.max_bid)} under these rules, not {number(bid)}."
    if rules.check_bid_steps:
        step = rules.bid_step_at(bid)
        if bid % step:
            start = max(s for s, _ in rules.bid_steps if s <= bid)
            below, above = bid - bid % step, bid - bid % step + step
            return (f"Bids from {number(start)} go up in steps of {number(step)}: {number(below)} or {number(above)}, "
                    f"not {number(bid)}.")
    return None


def _forced_error(rules: Rules, hand: Hand) -> str | None:
    if not isinstance(hand.forced, bool):
        return "Say whether the bid was forced on the dealer (yes or no)."
    if not hand.forced:
        return None
    if not can_be_stuck(rules):
        return "Under these rules nobody is stuck: when everyone passes, the hand is redealt."
    if _is_int(hand.bid) and hand.bid != rules.min_bid:
        return f"A bid forced on the dealer is the minimum, {number(rules.min_bid)}."
    return None


def wrong_for_its_deal(rules: Rules, hand: Hand, dealer: int) -> str | None:
    """What is wrong with `hand` dealt by `dealer` that would not be under another dealer (a bid forced on someone
    who did not deal), or None: what a hand moved to another place on the sheet, another deal, is checked for."""
    return _stuck_error(hand, dealer, hand.bidder_seat, rules.sides)


def _stuck_error(hand: Hand, dealer: int | None, bidder_seat: int | None, sides: int = 2) -> str | None:
    """A bid forced on someone who did not deal. Judged by seat when the bidder's seat is known, else by team."""
    if hand.forced is not True or dealer is None or not _is_team(hand.bidder, sides):
        return None
    stuck = bidder_seat == dealer if bidder_seat is not None else hand.bidder == team_of(dealer, sides)
    return None if stuck else "Only the dealer can be stuck with the bid when everyone passes."


def _pair(value: object, sides: int = 2) -> tuple | None:
    """One entry per side, as a tuple, or None when `value` is not that."""
    return tuple(value) if isinstance(value, (tuple, list)) and len(value) == sides else None


def _meld_errors(rules: Rules, meld: object) -> dict[str, str]:
    pair = _pair(meld, rules.sides)
    if pair is None:
        return {f"meld_{side}": f"Enter each {side_word(rules)}'s meld." for side in range(rules.sides)}
    # the refusal says the most a hand melds (what the question above it asks of), not the field's own limit: a
    # form that said "the most is 1,000" and then asked whether 1,000 was right, at most 914, would contradict itself.
    # (Rules whose field takes less than a hand can meld, an import's own hand points, say the field's limit.)
    most = most_one_hand_melds(rules)
    said = (f"one hand melds at most {number(most)} under the {MELD_TABLE_NAMES[rules.meld_table]}"
            if most < rules.max_value else f"the most is {number(rules.max_value)}")
    return _team_amount_errors(pair, "Meld", rules.meld_step, rules.max_value, f"more than any hand can hold; {said}")


def dix_value(rules: Rules) -> int:
    """What one dix (9 of trump) is worth under `rules`' meld table; 0 where the deck has no 9s."""
    return TABLES[rules.meld_table].dix


def _dix_errors(rules: Rules, hand: Hand, errors: dict[str, str]) -> dict[str, str]:
    """A side marked "only the dix" must have a meld of one or both dix, under a table that has a dix."""
    if _pair(hand.meld, rules.sides) is None:
        return {}  # the meld is wrong already; the flags beside it cannot be judged
    flags = _pair(hand.dix_only, rules.sides)
    if flags is None or not all(isinstance(flag, bool) for flag in flags):
        return {"dix_only": f"Say for each {side_word(rules)} whether its meld is only the dix (yes or no)."}
    dix = dix_value(rules)
    found = {}
    for team, flag in enumerate(flags):
        if not flag or f"meld_{team}" in errors:
            continue
        if not dix:
            found[f"dix_only_{team}"] = "These rules have no dix: a double deck has no 9s."
        elif hand.meld[team] not in (dix, 2 * dix):
            found[f"dix_only_{team}"] = (f"A meld of only the dix is {number(dix)} or {number(2 * dix)} "
                                         f"(one or both 9s of trump), not {number(hand.meld[team])}.")
    return found


def _counter_errors(rules: Rules, hand: Hand) -> dict[str, str]:
    if hand.kind != "played":
        if hand.counters is not None:
            return {"counters": f"Counters are entered only for a played hand, not for a "
                                f"{KIND_WORDS[hand.kind]}."}
        return {}
    if hand.counters is None:
        if _auto_throw_in_can_be_judged(hand, rules.sides) and auto_throw_in_reason(rules, hand) is not None:
            return {}  # an automatic throw-in is not played out: no counters are asked for
        return {"counters": f"Enter the counters each {side_word(rules)} took (together {number(rules.hand_points)})."}
    pair = _pair(hand.counters, rules.sides)
    if pair is None:
        return {"counters": f"Enter the counters each {side_word(rules)} took (together {number(rules.hand_points)})."}
    if rules.sides > 2 and None in pair:
        return _blank_counters_errors(rules, pair)
    errors = _team_amount_errors(pair, "Counters", rules.counter_step, rules.hand_points, _more_counters(rules))
    if not errors and sum(pair) != rules.hand_points:
        errors["counters"] = (f"Counters must add up to {number(rules.hand_points)}; "
                              f"these add up to {number(sum(pair))}.")
    return errors


def _blank_counters_errors(rules: Rules, counters: tuple) -> dict[str, str]:
    """Counters of three or more sides with some left blank (None). The form works out one blank side from the
    others, so a blank field is not wrong in itself: more than one blank is said once, beside the counters, with
    what to do; a field holding something else still says what it must hold."""
    errors = {name: message for name, message in _team_amount_errors(
        counters, "Counters", rules.counter_step, rules.hand_points, _more_counters(rules)).items()
        if counters[int(name.rsplit("_", 1)[1])] is not None}
    if counters.count(None) > 1 or not errors:
        errors["counters"] = f"Type the counters of all {side_word(rules)}s but one (the last is worked out)."
    return errors


def _more_counters(rules: Rules) -> str:
    """What is said of a side's counters past the hand's points (after "60 counters is")."""
    return f"more than the whole hand holds; the most is {number(rules.hand_points)}"


# How each amount is named in a message: (subject, verb, a value of it).
_AMOUNT_WORDS = {
    "Meld": ("Meld", "is", "A meld of {value}"),
    "Counters": ("Counters", "are", "{value} counters"),
}


def _team_amount_errors(pair: tuple, what: str, step: int, most: int, too_big: str) -> dict[str, str]:
    """Each team's value checked alone: {"meld_0": message, ...} for the ones that are wrong. `too_big`: what is
    said of a value above `most`, after "A meld of 5,000 is"."""
    errors = {}
    for team, value in enumerate(pair):
        message = _amount_error(value, what, step, most, too_big)
        if message:
            errors[f"{what.lower()}_{team}"] = message
    return errors


def _auto_throw_in_can_be_judged(hand: Hand, sides: int = 2) -> bool:
    pair = _pair(hand.meld, sides)
    return _is_int(hand.bid) and _is_team(hand.bidder, sides) and pair is not None and all(map(_is_int, pair))


def _amount_error(value: object, what: str, step: int, most: int, too_big: str) -> str | None:
    subject, verb, a_value = _AMOUNT_WORDS[what]
    if not _is_int(value):
        return f"{subject} must be a whole number (0 or more)."
    if value < 0:
        return f"{subject} can't be negative."
    if value > most:
        return f"{a_value.format(value=number(value))} is {too_big}."
    if value % step:
        below = value - value % step
        return (f"{subject} {verb} counted in steps of {number(step)}: {number(below)} or {number(below + step)}, "
                f"not {number(value)}.")
    return None


# --- who is named how --------------------------------------------------------------------------------------
# One engine scores every table. Two teams are two sides named, hand by hand, "Bidders" and "Opponents"; every
# other table (three sides, players on their own, no bidding) names each side as the game does. Where the two
# ways of naming need different words for the same rule, `_Words` holds both, side by side.

class _One(str):
    """The name of one player: the sentences about them take a singular verb ("Ann scores")."""


def _verb(who: str, plural: str, singular: str) -> str:
    return singular if isinstance(who, _One) else plural


def _lone(rules: Rules) -> bool:
    return rules.players_per_side == 1


def _two_teams(rules: Rules) -> bool:
    """Whether a hand under `rules` is told as bidders and opponents, rather than each side by name."""
    return rules.sides == 2 and not _lone(rules) and rules.bidding


def _side_names(rules: Rules, names: tuple[str, ...] | None) -> tuple[str, ...]:
    if names is None or len(names) != rules.sides:
        names = TEAM_NAMES if _two_teams(rules) else side_names(rules.sides, _lone(rules))
    return tuple(_One(name) for name in names) if _lone(rules) else tuple(names)


def _several(items: list[str]) -> str:
    """"a and b", "a, b and c"."""
    return ", ".join(items[:-1]) + f" and {items[-1]}"


@dataclass(frozen=True)
class _Words:
    """How one hand's sentences name its sides: `names[side]`, and for two teams ("Bidders", "Opponents") the
    sentences the books word for a partnership against a partnership."""

    names: tuple[str, ...]
    teams: bool

    @classmethod
    def of(cls, rules: Rules, hand: Hand, names: tuple[str, ...] | None) -> _Words:
        if _two_teams(rules):
            return cls(tuple(BIDDERS if side == hand.bidder else OPPONENTS for side in range(2)), True)
        return cls(_side_names(rules, names), False)

    def nobody_else_when_made(self) -> str:
        return ("Opponents score nothing when the bidders make their bid." if self.teams else
                "Nobody else scores when the bid is made.")

    def short(self, who: str, what: str, bid: int) -> str:
        if self.teams:
            return f"{who} are set: they have {what}, short of the bid of {number(bid)}"
        return f"{who} {_verb(who, 'are', 'is')} set: {what}, short of the bid of {number(bid)}"

    def chip_loss(self, because: str) -> str:
        return (f"{because}. Under chip scoring they lose nothing; the opponents score the bid." if self.teams else
                f"{because}. Under chip scoring that costs nothing; every other side scores the bid.")

    def with_no_meld(self, because: str) -> str:
        return f"{because} with no meld: they lose nothing." if self.teams else f"{because} with no meld: nothing lost."

    def no_marriage_thrown_in(self, who: str) -> tuple[list[str], str]:
        """The lines that say a bidder without a marriage is scored as a throw-in, and how the throw-in begins."""
        if self.teams:
            return [], f"{who} have no marriage in trump (scored as a throw-in)"
        return [f"{who} {_verb(who, 'have', 'has')} no marriage in trump: scored as a throw-in."], \
            f"{who} threw in the hand"

    def forced_meld_only(self, award_has_bonus: bool) -> tuple[str | None, str | None]:
        """A bid forced on a dealer without a marriage: (the line before the others' awards, the line beside the
        first award, after its meld)."""
        if self.teams:
            return None, ("The bid was forced on the dealer, who has no marriage, so the opponents get their meld "
                          "only." if award_has_bonus else None)
        return "The bid was forced on the dealer, so every other side gets its meld only.", None

    def nothing_on_throw_in(self, side: int, extra: int) -> str:
        if not self.teams:
            return _scores(self.names[side], extra, [f"the failed bid {number(extra)}"] if extra else [])
        if extra:
            return f"Opponents score nothing else on a throw-in: {signed(extra)} (the failed bid {number(extra)})."
        return "Opponents score nothing on a throw-in."

    def nobody_scores_meld(self, others: list[int], extra: int) -> list[str]:
        if self.teams:
            return [f"Neither side scores meld. Opponents score {signed(extra)} (the failed bid {number(extra)})."
                    if extra else "Neither side scores meld: opponents score nothing."]
        return ["Nobody scores meld.", *(_scores(self.names[side], extra, [f"the failed bid {number(extra)}"]
                                                 if extra else []) for side in others)]

    def reneged(self, renege: int, bidder: int, bid: int) -> str:
        if self.teams:
            return f"Opponents reneged: the bidders score their bid, {signed(bid)}."
        who = self.names[bidder]
        return f"{self.names[renege]} reneged: {who} {_verb(who, 'score', 'scores')} the bid, {signed(bid)}."

    def renege_loss(self, renege: int, loss: int | None) -> str:
        """What the side that reneged loses: `loss` points, or None under chip scoring."""
        who = self.names[renege]
        if loss is None:
            return ("Under chip scoring the opponents lose nothing." if self.teams else
                    f"Under chip scoring {who} {_verb(who, 'lose', 'loses')} nothing.")
        if self.teams:
            return (f"Opponents lose the bid: {signed(loss)}. This table scores an opponents' renege as −bid; some "
                    "tables play 0.")
        return f"{who} {_verb(who, 'lose', 'loses')} the bid: {signed(loss)}."

    def quad_run(self, bidder: int) -> str:
        every = "either total" if self.teams else "any total"
        return (f"{self.names[bidder]} melded a quadruple run in trump: under these rules it wins the game outright "
                f"(\u201cYou Win!\u201d). The hand is not played and nothing is added to {every}.")


# --- scoring one hand ---------------------------------------------------------------------------------------

def auto_throw_in_reason(rules: Rules, hand: Hand) -> str | None:
    """Why a hand entered as played cannot be made and is scored as a throw-in, or None.

    Needs only the bid and the bidders' meld, so a form can announce it before counters are asked for.
    """
    if hand.kind != "played" or not rules.bidding:
        return None
    meld = hand.meld[hand.bidder]
    if rules.auto_throw_in_below_min_meld and rules.min_meld and meld < rules.min_meld:
        return (f"Automatic throw-in: the bidders' meld {number(meld)} is below the {number(rules.min_meld)} needed "
                "to be on the board.")
    margin = rules.auto_throw_in_margin
    if margin is not None and hand.bid > meld + margin:
        cannot = (f"a bid of {number(hand.bid)} is more than the bidders' meld {number(meld)} + {number(margin)}, so "
                  "it cannot be made")
        if not rules.min_meld:  # the single deck's own words for it (004)
            return f"Automatic throw-in: the bidders are not \u201con the board\u201d: {cannot}."
        return f"Automatic throw-in: {cannot}."
    return None


def score_hand(rules: Rules, hand: Hand, *, dealer: int | None = None,
               bidder_seat: int | None = None, names: tuple[str, ...] | None = None) -> HandResult:
    """Score one hand. Raises InvalidHand (with the field messages) when `validate_hand` refuses it (given the
    dealer's and the bidder's seats, where known). `names`: each side's name, for the explanation of a hand at
    a table other than two teams (which names each side); two teams are "Bidders" and "Opponents"."""
    errors = validate_hand(rules, hand, dealer=dealer, bidder_seat=bidder_seat)
    if errors:
        raise InvalidHand(errors)
    return _score(rules, hand, names)


def _score(rules: Rules, hand: Hand, names: tuple[str, ...] | None = None) -> HandResult:
    """Score a hand already known to be valid, at a table of any size."""
    if hand.kind == "redeal":
        return HandResult((0,) * rules.sides, None, ["Everyone passed: the hands are thrown in and the next dealer "
                                                     "deals. Nobody scores."], scored_as="redeal")
    if not rules.bidding:
        return _unbid(rules, hand, _side_names(rules, names))
    words = _Words.of(rules, hand, names)
    if hand.kind == "played":
        reason = auto_throw_in_reason(rules, hand)
        if reason:
            dropped = [] if hand.counters is None else [
                f"The counters typed ({_several([number(c) for c in hand.counters])}) do not count: "
                "the hand is not played out."]
            result = _throw_in(rules, hand, words, [reason, *dropped])
            return HandResult(result.points, None, result.explanation, "throw_in", automatic_throw_in=True)
        return _played(rules, hand, words)
    if hand.kind == "throw_in":
        return _throw_in(rules, hand, words, [])
    if hand.kind == "no_marriage":
        return _no_marriage(rules, hand, words)
    if hand.kind == "quad_run":
        return HandResult((0,) * rules.sides, None, [words.quad_run(hand.bidder)], scored_as="quad_run",
                          wins_game=True)
    return _renege(rules, hand, words)


def _others(rules: Rules, hand: Hand) -> list[int]:
    return [side for side in range(rules.sides) if side != hand.bidder]


def _points(rules: Rules, by_side: dict[int, int]) -> tuple[int, ...]:
    return tuple(by_side.get(side, 0) for side in range(rules.sides))


def _need(rules: Rules) -> str:
    return "any counter" if rules.save_counters == 1 else number(rules.save_counters)


def _meld_line(rules: Rules, who: str, meld: int) -> tuple[int, str]:
    """The meld that counts, and the sentence saying why."""
    if meld == 0:
        return 0, f"{who} {_verb(who, 'have', 'has')} no meld."
    # "Bidders' meld", "Ann's meld"; but a partnership's chosen name ("Us", "Them") takes no possessive: it is
    # written as the form's label writes it, "Us meld"
    partners = rules.players_per_side > 1 and who not in (BIDDERS, OPPONENTS)
    whose = f"{who} meld" if partners else f"{possessive(who)} meld"
    if not rules.min_meld:
        return meld, f"{whose} {number(meld)} counts."
    if meld >= rules.min_meld:
        return meld, f"{whose} {number(meld)} is on the board ({number(rules.min_meld)} needed)."
    return 0, f"{whose} {number(meld)} is not on the board ({number(rules.min_meld)} needed)."


@dataclass
class _Tally:
    points: int
    parts: list[str]  # "meld 30", "counters 28": what the points are made of


def _tally(rules: Rules, who: str, meld: int, counters: int, lines: list[str], dix_only: bool = False) -> _Tally:
    """A played hand's points for one side: its meld if on the board and saved, plus its counters if it saved its
    meld or unsaved counters score; with a line for each rule applied. A meld of only the dix saves itself."""
    counted, line = _meld_line(rules, who, meld)
    lines.append(line)
    took_enough = counters >= rules.save_counters
    saved = took_enough or (dix_only and counted > 0)
    counters_score = saved or rules.unsaved_counters_score
    lines.append(_took_line(rules, who, counters, counted, saved, took_enough, counters_score))
    parts = []
    if counted and saved:
        parts.append(f"meld {number(counted)}")
    if counters_score and counters:
        parts.append(f"counters {number(counters)}")
    points = (counted if saved else 0) + (counters if counters_score else 0)
    return _Tally(points, parts)


def _took_line(rules: Rules, who: str, counters: int, counted: int, saved: bool, took_enough: bool,
               counters_score: bool) -> str:
    """What a side took in tricks and what it did for its meld, in the books' words."""
    if rules.save_counters == 1:
        # "any counter" is the books' "a scoring trick": a counter or the last trick, whatever it holds
        if not counters:
            took = f"{who} took no counter and not the last trick"
        else:
            took = f"{who} took {number(counters)} counter points"
        need = "a counter or the last trick saves it"
    else:
        took, need = f"{who} took {number(counters)} counters", f"{_need(rules)} needed"
    if rules.save_counters == 0:
        return f"{took}."
    if counted and saved and not took_enough:
        return f"{took}, but their only meld is the dix: nines of trump save themselves."
    if counted and saved:
        return f"{took}: meld saved ({need})."
    if counted:
        tail = "the counters still score" if counters_score and counters else "nothing scores"
        return f"{took}: meld not saved ({need}); {tail}." if counters else f"{took}: meld not saved."
    if counters_score and not rules.unsaved_counters_score:
        return f"{took} ({_need(rules)} needed to score)."
    if counters_score:
        return f"{took}."
    return f"{took}: not enough to score ({_need(rules)} needed)."


def _parts(tally_parts: list[str]) -> str:
    return " + ".join(tally_parts) if tally_parts else "nothing"


def _amount(tally: _Tally) -> str:
    return f"{number(tally.points)} ({_parts(tally.parts)})" if tally.parts else "nothing"


def _scores(who: str, points: int, parts: list[str]) -> str:
    score = _verb(who, "score", "scores")
    if not points and not parts:
        return f"{who} {score} nothing."
    return f"{who} {score} {signed(points)} ({_parts(parts)})."


def _unbid(rules: Rules, hand: Hand, names: tuple[str, ...]) -> HandResult:
    """Without bidding each side scores its own meld and counters."""
    lines: list[str] = []
    points = {}
    for side in range(rules.sides):
        tally = _tally(rules, names[side], hand.meld[side], hand.counters[side], lines, hand.dix_only[side])
        lines.append(_scores(names[side], tally.points, tally.parts))
        points[side] = tally.points
    return HandResult(_points(rules, points), None, lines)


def _lose_bid(rules: Rules, hand: Hand, words: _Words, because: str, lines: list[str],
              joined: str = ": ") -> tuple[int, int]:
    """The bidders' loss of their bid, or under chip scoring each other side's gain: (bidders, each other side)."""
    if rules.set_penalty == "chips":
        lines.append(words.chip_loss(because))
        return 0, hand.bid
    lines.append(f"{because}{joined}{signed(-hand.bid)}.")
    return -hand.bid, 0


def _too_few_to_make(rules: Rules, counters: int) -> bool:
    """Whether bidders who took `counters` are set whatever their meld: their meld is lost and their counters
    do not score."""
    return rules.save_counters > 1 and not rules.unsaved_counters_score and counters < rules.save_counters


def _played(rules: Rules, hand: Hand, words: _Words) -> HandResult:
    b = hand.bidder
    who = words.names[b]
    lines: list[str] = []
    bidders = _tally(rules, who, hand.meld[b], hand.counters[b], lines, hand.dix_only[b])
    made = bidders.points >= hand.bid
    extra = 0
    if made:
        points = {b: bidders.points}
        lines.append(f"{who} made {_amount(bidders)} against a bid of {number(hand.bid)}: {signed(bidders.points)}.")
        if not rules.opponents_score_when_made:
            lines.append(words.nobody_else_when_made())
            return HandResult(_points(rules, points), True, lines)
    elif _too_few_to_make(rules, hand.counters[b]) and rules.set_penalty != "meld_and_counters":
        # 002: "the declaring team must take a minimum of 20 points during the play": the rule, not the sum
        lines.pop()  # what they took is said with the rule
        took = (f"{who} took {number(hand.counters[b])} counters: fewer than the {number(rules.save_counters)} "
                "needed to make any bid; set")
        lost, extra = _lose_bid(rules, hand, words, took, lines, joined=", ")
        points = {b: lost}
    else:
        short = words.short(who, _amount(bidders), hand.bid)
        if rules.set_penalty == "meld_and_counters":
            meld, counters = hand.meld[b], hand.counters[b]
            points = {b: -(meld + counters)}
            lines.append(f"{short}: {_verb(who, 'they lose their', 'loses their')} meld and counters, "
                         f"−({number(meld)} + {number(counters)}) = {signed(points[b])}.")
        else:
            lost, extra = _lose_bid(rules, hand, words, short, lines)
            points = {b: lost}
    for side in _others(rules, hand):
        name = words.names[side]
        tally = _tally(rules, name, hand.meld[side], hand.counters[side], lines, hand.dix_only[side])
        parts = tally.parts + ([f"the failed bid {number(extra)}"] if extra else [])
        points[side] = tally.points + extra
        lines.append(_scores(name, points[side], parts))
    return HandResult(_points(rules, points), made, lines)


def _award(rules: Rules, hand: Hand, who: str, side: int, bonus: int, extra: int, lines: list[str],
           note: str | None = None) -> int:
    """A side's meld (if on the board) plus `bonus` for the cards plus the failed bid `extra`, with its lines;
    `note`, where given, is said after the meld."""
    counted, line = _meld_line(rules, who, hand.meld[side])
    lines.append(line)
    if note:
        lines.append(note)
    parts = [f"meld {number(counted)}"] if counted else []
    if bonus:
        parts.append(f"{number(bonus)} for the cards")
    if extra:
        parts.append(f"the failed bid {number(extra)}")
    lines.append(_scores(who, counted + bonus + extra, parts))
    return counted + bonus + extra


def _throw_in(rules: Rules, hand: Hand, words: _Words, lines: list[str], *, meld_only: bool = False,
              because: str | None = None, reading: str | None = None) -> HandResult:
    """The bidders give up the hand: they lose the bid (or their meld); every other side scores the throw-in
    award. `meld_only`: a bid forced on a dealer without a marriage gives the others their meld only; `reading`,
    a line said beside the first award."""
    b = hand.bidder
    who = words.names[b]
    lines = list(lines)
    because = because or f"{who} threw in the hand"
    if rules.throw_in_penalty == "meld":
        points, extra = {b: -hand.meld[b]}, 0
        lines.append(f"{because} and {_verb(who, 'lose', 'loses')} their meld: {signed(points[b])}."
                     if hand.meld[b] else words.with_no_meld(because))
    else:
        lost, extra = _lose_bid(rules, hand, words, because, lines)
        points = {b: lost}
    has_bonus = rules.throw_in_award in ("meld_plus_bonus", "meld_plus_half_bonus")
    bonus = rules.throw_in_bonus if has_bonus and not meld_only else 0
    before, note = words.forced_meld_only(has_bonus) if meld_only else (None, reading)
    if before:
        lines.append(before)
    for side in _others(rules, hand):
        if rules.throw_in_award == "nothing":
            points[side] = extra
            lines.append(words.nothing_on_throw_in(side, extra))
        else:
            points[side] = _award(rules, hand, words.names[side], side, bonus, extra, lines, note)
            note = None
    return HandResult(_points(rules, points), None, lines, "throw_in")


def _no_marriage(rules: Rules, hand: Hand, words: _Words) -> HandResult:
    who = words.names[hand.bidder]
    if rules.no_marriage == "throw_in":
        meld_only = hand.forced and rules.forced_no_marriage_meld_only
        # 002 gives meld only in one place and meld plus the cards in another: the reading is said
        reading = (f"Some tables read this rule as meld only; this table adds {number(rules.card_bonus)} for the "
                   "cards." if rules.throw_in_award == "meld_plus_bonus" and not meld_only else None)
        first, because = words.no_marriage_thrown_in(who)
        result = _throw_in(rules, hand, words, first, meld_only=meld_only, because=because, reading=reading)
        return HandResult(result.points, None, result.explanation, "no_marriage")
    lines: list[str] = []
    lost, extra = _lose_bid(rules, hand, words, f"{who} {_verb(who, 'have', 'has')} no marriage in trump", lines)
    points = {hand.bidder: lost} | {side: extra for side in _others(rules, hand)}
    lines += words.nobody_scores_meld(_others(rules, hand), extra)
    return HandResult(_points(rules, points), None, lines, "no_marriage")


def _renege(rules: Rules, hand: Hand, words: _Words) -> HandResult:
    b, r = hand.bidder, hand.renege_team
    lines: list[str] = []
    if r == b:
        lost, extra = _lose_bid(rules, hand, words, f"{words.names[b]} reneged", lines)
        points = {b: lost}
        for side in _others(rules, hand):
            points[side] = _award(rules, hand, words.names[side], side, rules.card_bonus, extra, lines)
        return HandResult(_points(rules, points), None, lines, "renege")
    lines.append(words.reneged(r, b, hand.bid))
    points = {b: hand.bid, r: 0 if rules.set_penalty == "chips" else -hand.bid}
    lines.append(words.renege_loss(r, None if rules.set_penalty == "chips" else points[r]))
    for side in _others(rules, hand):
        if side != r:
            points[side] = _award(rules, hand, words.names[side], side, 0, 0, lines)
    return HandResult(_points(rules, points), None, lines, "renege")


# --- the game -----------------------------------------------------------------------------------------------

def play_game(rules: Rules, hands, names: tuple[str, ...] | None = None, *, checked: bool = False) -> GameState:
    """Fold the hands in order into totals and a winner: the first side to the target (when several reach it on
    one hand, the bidders if they are among them, else the highest total; an exact tie plays on), the other side
    when one of two falls to the losing floor, or the leader after a fixed number of hands (redeals not counted).
    `names`: each side's name (by default "Team 1", ... or "Player 1", ...).

    Raises InvalidHand (with the hand's number) for a hand that does not validate, and GameOver for a hand
    that comes after the game was won. `checked`: every hand has passed `validate_hand` under these rules
    already (each on its way in), so the fold only scores them.
    """
    names = _side_names(rules, names)
    totals = (0,) * rules.sides
    results: list[HandResult] = []
    running: list[tuple[int, ...]] = []
    winner = decided_on = reason = None
    scored = 0
    for hand_number, hand in enumerate(hands, start=1):
        if winner is not None:
            raise GameOver(f"The game was won by {names[winner]} on hand {decided_on}; "
                           f"hand {hand_number} cannot be added. Edit or delete an earlier hand to reopen it.")
        errors = {} if checked else validate_hand(rules, hand)
        if errors:
            raise InvalidHand(errors, hand_number=hand_number)
        result = _score(rules, hand, names)
        totals = tuple(total + points for total, points in zip(totals, result.points, strict=True))
        results.append(result)
        running.append(totals)
        if hand.kind == "redeal":
            continue
        scored += 1
        decision = decide_winner(rules, totals, hand.bidder, scored, names)
        if result.wins_game:
            decision = hand.bidder, (f"{subject(names[hand.bidder])} melded a quadruple run in trump, which wins "
                                     f"the game outright ({' to '.join(number(total) for total in totals)}).")
        if decision:
            winner, reason = decision
            decided_on = hand_number
    return GameState(totals, winner, results, running, decided_on, reason, scored)


def decide_winner(rules: Rules, totals: tuple[int, ...], bidder: int | None, hands_scored: int,
                  names: tuple[str, ...] | None = None) -> tuple[int, str] | None:
    """The winner after a hand and why, or None while the game goes on. `names`: as `play_game` takes them."""
    names = _side_names(rules, names)
    score = " to ".join(number(total) for total in totals)
    if rules.hands_limit is None:
        decision = _first_to_target(rules, totals, bidder, names, score)
        if decision:
            return decision
    if rules.floor is not None and rules.sides == 2:
        decision = _at_the_floor(rules, totals, bidder, names, score)
        if decision:
            return decision
    if rules.hands_limit is not None:
        return _leader_after_last_hand(rules, totals, hands_scored, names, score)
    return None


def _first_to_target(rules: Rules, totals: tuple[int, ...], bidder: int | None, names: tuple[str, ...],
                     score: str) -> tuple[int, str] | None:
    reached = [side for side, total in enumerate(totals) if total >= rules.target]
    if not reached:
        return None
    target = number(rules.target)
    if len(reached) == 1:
        side = reached[0]
        return side, f"{subject(names[side])} reached {target} first ({score})."
    if bidder in reached:
        if _two_teams(rules):
            return bidder, (f"Both teams reached {target} on the same hand; the bidders, {names[bidder]}, win "
                            f"({score}).")
        who = "the bidder" if _lone(rules) else "the bidder's side"  # a player alone is nobody's side
        return bidder, (f"{_several([names[side] for side in reached])} reached {target} on the same hand; {who}, "
                        f"{names[bidder]}, wins ({score}).")
    best = max(totals[side] for side in reached)
    leaders = [side for side in reached if totals[side] == best]
    if len(leaders) > 1:
        return None  # an exact tie at the top plays another hand
    side = leaders[0]
    return side, (f"{_several([names[side] for side in reached])} reached {target} on the same hand; the highest "
                  f"total, {names[side]}, wins ({score}).")


def _at_the_floor(rules: Rules, totals: tuple[int, ...], bidder: int | None, names: tuple[str, ...],
                  score: str) -> tuple[int, str] | None:
    """Two sides: one at or below the losing floor loses. Both at once: the higher total survives; a dead heat
    goes against the bidders."""
    down = [total <= rules.floor for total in totals]
    if not any(down):
        return None
    loser = down.index(True) if not all(down) else (bidder if totals[0] == totals[1] else totals.index(min(totals)))
    side = 1 - loser
    winner = f"{subject(names[side], False)} {_verb(names[side], 'win', 'wins')}"
    return side, (f"{subject(names[loser])} fell to {signed(totals[loser])}, at or below the losing floor of "
                  f"{signed(rules.floor)}; {winner} ({score}).")


def _leader_after_last_hand(rules: Rules, totals: tuple[int, ...], hands_scored: int, names: tuple[str, ...],
                            score: str) -> tuple[int, str] | None:
    best = max(totals)
    if hands_scored < rules.hands_limit or totals.count(best) > 1:
        return None
    side = totals.index(best)
    if hands_scored == rules.hands_limit:
        return side, f"{subject(names[side])} {_verb(names[side], 'lead', 'leads')} after the last of " \
                     f"{number(rules.hands_limit)} hands ({score})."
    return side, f"{subject(names[side])} broke the tie on hand {hands_scored} ({score})."


# --- without bidding ----------------------------------------------------------------------------------------

def _unbid_errors(rules: Rules, hand: Hand) -> dict[str, str]:
    """Without bidding a hand is each side's meld and counters, nothing else."""
    errors: dict[str, str] = {}
    if hand.kind != "played":
        errors["kind"] = "Nobody bids under these rules: every hand is played out."
        return errors
    if hand.bidder is not None:
        errors["bidder"] = "Nobody bids under these rules: there is no bidder."
    if hand.bid is not None:
        errors["bid"] = "Nobody bids under these rules: leave the bid empty."
    if hand.forced is not False:
        errors["forced"] = "Nobody bids under these rules, so nobody is stuck with a bid."
    if hand.renege_team is not None:
        errors["renege_team"] = "Only a renege names the side that reneged."
    errors.update(_meld_errors(rules, hand.meld))
    errors.update(_dix_errors(rules, hand, errors))
    errors.update(_counter_errors(rules, hand))
    return errors

