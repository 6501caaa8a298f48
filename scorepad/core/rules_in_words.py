"""The rule sets in plain words: `describe(rules)` writes a rule set's options as the short sentences a player
reads on the rules page and beside a game, and says where a preset's book is silent and the app chose. The rule
sets themselves, as data with their checks, are in `core.rules`."""

from __future__ import annotations

from dataclasses import replace

from .meld import TABLES, WINS_GAME
from .rules import (
    ALL_PASS,
    CARD_COUNTS,
    NO_MARRIAGE,
    PRESETS,
    SEATINGS,
    SET_PENALTY,
    Rules,
    counter_worth,
    half_counter,
    run_wins_game,
)
from .words import MELD_TABLE_NAMES, capitalized, number, side_word

# Where each preset comes from, and what its book leaves unsaid: there the app chose a house default, and the
# rules in words say so. Each silence names the options that carry the app's choice; once a table changes one
# of them, the sentence is the table's own house rule and is not marked.
SOURCES = {
    "double-deck": "the family rule sheet",
    "double-deck-shg": "the Safe Harbor Games rules",
    "double-pack-bicycle": "the Bicycle rules",
    "double-deck-gamerules": "the GameRules.com rules",
    "single-deck": "the \u201cMy Family\u2019s Pinochle\u201d rules",
}
_TOPIC_OPTIONS = {
    "throw_in": ("throw_in_penalty", "throw_in_award", "set_penalty", "hand_points"),
    "no_marriage": ("no_marriage", "forced_no_marriage_meld_only", "throw_in_penalty", "throw_in_award",
                    "set_penalty", "hand_points"),
    "renege": ("set_penalty", "hand_points"),
    "target": ("target", "hands_limit"),
    "meld_values": ("meld_table",),
    "last_trick": ("hand_points", "card_count"),
    "save": ("save_counters", "unsaved_counters_score"),
}
SILENT = {
    "double-deck-shg": {"renege": "do not say what a renege costs",
                        "target": "name no number, only \u201cthe designated end score\u201d",
                        "meld_values": "lost the values of the run and the marriages; the app takes the other "
                                       "books\u2019 15, 4 and 2, the run growing like the arounds",
                        "last_trick": "do not say what the last trick is worth; the app takes the family rule "
                                      "sheet\u2019s 2"},
    "double-pack-bicycle": {"throw_in": "do not mention a throw-in",
                            "no_marriage": "do not say what happens without a marriage in trump",
                            "renege": "do not say what a renege costs"},
    "double-deck-gamerules": {"renege": "do not say what a renege costs; the full bid is the family rule sheet\u2019s",
                              "meld_values": "print a double run as 40 and triple queens as 30; the app reads these "
                                             "misprints as 150 and 90, as their own pattern and the other books "
                                             "give them",
                              "throw_in": "tell only what a forfeit costs the side that forfeits; that the other "
                                          "side gets nothing is the app\u2019s reading"},
    "single-deck": {"no_marriage": "do not say what happens without a marriage in trump",
                    "renege": "do not say what a renege costs",
                    "save": "say so only of the opponents; the app holds the bidders to it too"},
}
# The presets no book prints: every number is the app's own, and the rules in words say so first.
APP_OWN = {
    "six-handed-triple": "These numbers are Scorepad\u2019s own (no rule book prints a three-deck game): the family "
                         "double deck\u2019s, half again as large.",
}
# The presets whose book offers the other way of counting the cards ("agreed on before the game").
_OTHER_COUNT = {"double-pack-bicycle"}


def describe(rules: Rules) -> list[str]:
    """The rules as short plain sentences, in the order a player meets them during a hand. Each sentence follows
    the options as they are (house rules included); where the preset's book is silent and the app chose, the
    sentence says so."""
    return [
        *_describe_source(rules),
        *_describe_deal(rules),
        *_describe_meld(rules),
        *_describe_play(rules),
        *_describe_surrender(rules),
        *_describe_end(rules),
    ]


def _preset_of(r: Rules) -> Rules | None:
    return PRESETS.get(r.preset)


def _house_default(r: Rules, topic: str) -> str:
    """" House default: ..." when `r`'s book is silent on `topic` and the table kept the app's choice."""
    preset, silence = _preset_of(r), SILENT.get(r.preset, {}).get(topic)
    if preset is None or silence is None:
        return ""
    if any(getattr(r, option) != getattr(preset, option) for option in _TOPIC_OPTIONS[topic]):
        return ""
    return f" House default: {SOURCES[r.preset]} {silence}."


def _describe_source(r: Rules) -> list[str]:
    preset = _preset_of(r)
    if preset is not None and r.preset in APP_OWN:
        return [APP_OWN[r.preset]]
    if preset is None or r.preset not in SOURCES:  # the table-size presets name their book in played_by
        return []
    lines = [f"These rules follow {SOURCES[r.preset]}; where the book is silent, the app\u2019s house default "
             "is marked."]
    if r != preset:
        lines.append("This game changed some options as house rules; every sentence here follows them.")
    return lines


def _describe_table(r: Rules) -> list[str]:
    """Who plays, where the table is not the partnership of four that every other sentence assumes."""
    if (r.sides, r.players_per_side) == (2, 2):
        return []
    return [f"The table: {SEATINGS[(r.sides, r.players_per_side)]} ({r.players} players)."]


def _describe_deal(r: Rules) -> list[str]:
    deck = {"double": "80 cards, no 9s", "single": "48 cards, with 9s",
            "triple": "120 cards (three pinochle decks without their 9s), 20 to each of six players"}[r.deck]
    lines = [
        *_describe_table(r),
        f"Deck: {deck}. Cards taken in tricks count: {card_count_words(r)}; {number(r.hand_points)} counter points "
        f"a hand, counted in steps of {number(r.counter_step)}." + _house_default(r, "last_trick"),
    ]
    if not r.bidding:
        lines.append("Nobody bids: every hand, each player scores their meld and counters.")
    else:
        lines += [f"The minimum bid is {number(r.min_bid)}; {_describe_bid_steps(r)}", ALL_PASS[r.all_pass]]
    if r.preset in _OTHER_COUNT and _preset_of(r).card_count == r.card_count:
        other = next(key for key in CARD_COUNTS if key != r.card_count)
        lines.append(f"{capitalized(SOURCES[r.preset])} let a table agree before the game to count "
                     f"{card_count_words(replace(r, card_count=other, counter_step=1))} instead: a house rule.")
    return lines


def card_count_words(r: Rules) -> str:
    """How the cards taken in tricks count under `r`, in words: "aces, tens and kings 1 each, the last trick 2"."""
    each, last = counter_worth(r)
    half = half_counter(r) or 0
    return CARD_COUNTS[r.card_count].format(each=number(each), half=number(half),
                                                                  last=number(last))


def _describe_bid_steps(r: Rules) -> str:
    cap = f", up to {number(r.max_bid)}" if r.max_bid is not None else ""
    if not r.check_bid_steps:
        return f"any whole number above it is a bid{cap} (steps are not checked)."

    def way(step: int) -> str:
        return "by any whole number" if step == 1 else f"in multiples of {number(step)}"

    if len(r.bid_steps) == 1:
        return f"bids go up {way(r.bid_steps[0][1])}{cap}."
    parts = []
    for i, (start, step) in enumerate(r.bid_steps):
        if i + 1 < len(r.bid_steps):
            parts.append(f"{way(step)} below {number(r.bid_steps[i + 1][0])}")
        else:
            parts.append(f"{way(step)} from {number(start)}")
    return "bids go up " + ", then ".join(parts) + f"{cap}."


# Who the sentences are about: a team of partners, or (three-handed, two-handed, any seating of one a side) a
# player on their own, who has no partner to add meld to and whom no sentence should call a team.
_TEAM_WORDS = {"whose": "partners added together", "a_side": "a team", "its": "its", "that": "that", "it": "it",
               "bidders": "the bidders", "bidders_are": "Bidders who take", "are": "are", "others": "the opponents",
               "s": "", "who_reneged": "the opponents", "several": "team"}
_LONE_WORDS = {"whose": "each player's own", "a_side": "a player", "its": "their", "that": "who", "it": "they",
               "bidders": "the bidder", "bidders_are": "A bidder who takes", "are": "is",
               "others": "each other player", "s": "s", "who_reneged": "the one who reneged", "several": "player"}


def _words(r: Rules) -> dict[str, str]:
    return _LONE_WORDS if r.players_per_side == 1 else _TEAM_WORDS


def _describe_meld(r: Rules) -> list[str]:
    w = _words(r)
    lines = [f"Meld is counted with the {MELD_TABLE_NAMES[r.meld_table]}, {w['whose']}.",
             _meld_values(r) + _house_default(r, "meld_values")]
    if r.min_meld:
        lines.append(f"{capitalized(w['a_side'])} needs {number(r.min_meld)} meld to be on the board; less counts "
                     "nothing.")
    else:
        lines.append("Any meld counts, however small.")
    if r.save_counters == 0:
        lines.append("Meld counts without taking any counters.")
        return lines
    if r.save_counters == 1:
        lines.append(f"To save {w['its']} meld, {w['a_side']} must win a trick with a counter in it, or the last "
                     "trick." + _house_default(r, "save"))
    else:
        lines.append(f"To save {w['its']} meld, {w['a_side']} must take {number(r.save_counters)} counters.")
    if TABLES[r.meld_table].dix:
        lines.append("A meld of only the dix (one or both 9s of trump) is kept without a counter: "
                     "\u201cnines of trump save themselves\u201d.")
    if not r.unsaved_counters_score:
        lines.append(f"{capitalized(w['a_side'])} {w['that']} takes fewer than {number(r.save_counters)} counters "
                     "scores nothing at all.")
    elif r.save_counters > 1:
        lines.append(f"{capitalized(w['a_side'])} {w['that']} does not save {w['its']} meld still scores the "
                     f"counters {w['it']} took.")
    return lines


def _meld_values(r: Rules) -> str:
    """The meld table's values in one sentence: a player asking "is a double run 150?" finds it here."""
    table = TABLES[r.meld_table]

    def series(values) -> str:
        words = ["wins the game" if v is WINS_GAME else number(v) for v in values]
        return ", ".join(f"{MULTIPLE_WORDS[i]}{word}" for i, word in enumerate(words))

    parts = [f"run in trump {series(table.run)}"]
    if table.extra_beside_run:
        parts.append(f"each extra K or Q of trump beside a run {number(table.extra_beside_run)}")
    parts += [f"royal marriage {number(table.royal_marriage)}", f"marriage {number(table.marriage)}",
              f"pinochle {series(table.pinochle)}"]
    parts += [f"{name} around {series(table.arounds[rank])}" for rank, name in
              (("A", "aces"), ("K", "kings"), ("Q", "queens"), ("J", "jacks"))]
    parts.append("tens around nothing")
    if table.dix:
        parts.append(f"dix (9 of trump) {number(table.dix)} each")
    once = " Each card counts in one meld only." if table.once_only else \
        " A card may serve in melds of different kinds, not twice in one kind."
    return f"Meld values: {'; '.join(parts)}.{once}"


MULTIPLE_WORDS = ("", "double ", "triple ", "quadruple ", "quintuple ", "sextuple ")


def _describe_play(r: Rules) -> list[str]:
    if not r.bidding:
        return []
    w = _words(r)
    lines = [f"{capitalized(w['bidders'])} make{w['s']} their bid when their saved meld plus counters reaches it, "
             f"and score{w['s']} all of it."]
    if r.save_counters > 1 and not r.unsaved_counters_score:
        lines.append(f"{w['bidders_are']} fewer than {number(r.save_counters)} counters {w['are']} set whatever "
                     f"their meld: they need {number(r.save_counters)} counters to make any bid.")
    if r.opponents_score_when_made:
        lines.append(f"{capitalized(w['others'])} always score{w['s']} their own points.")
    else:
        lines.append(f"When {w['bidders']} make{w['s']} their bid, {w['others']} score{w['s']} nothing.")
    penalty = SET_PENALTY[r.set_penalty]
    if r.players_per_side == 1:
        penalty = penalty.replace("the opponents score", "each other player scores")
    lines.append(f"A set bidder loses {penalty}.")
    return lines


def _opponents_meld(r: Rules) -> str:
    return "their meld (if on the board)" if r.min_meld else "their meld"


def _bid_loss(r: Rules) -> tuple[str, list[str]]:
    """What losing the bid costs the bidders, in words, and what it adds to the opponents' parts."""
    if r.set_penalty == "chips":
        return "they lose nothing (chip scoring)", ["the bid"]
    return "they lose the bid", []


def _gains(parts: list[str]) -> str:
    return " plus ".join(parts) if parts else "nothing"


def _describe_surrender(r: Rules) -> list[str]:
    if not r.bidding:
        return []
    if r.throw_in_penalty == "meld":
        loss, extra = "they lose their own meld (nothing if they have none)", []
    else:
        loss, extra = _bid_loss(r)
    bonus = [_opponents_meld(r), f"{number(r.throw_in_bonus)} for the cards"]
    award = {"meld_plus_bonus": bonus, "meld_plus_half_bonus": bonus,
             "meld": [_opponents_meld(r)], "nothing": []}[r.throw_in_award]
    w, lone = _words(r), r.players_per_side == 1
    lines = [f"{'The bidder' if lone else 'Bidders'} may throw in their hand: {loss}, and {w['others']} "
             f"score{w['s']} {_gains(award + extra)}." + _house_default(r, "throw_in")]
    if r.auto_throw_in_margin is not None:
        if r.min_meld:
            whose = "the bidder's" if lone else "the bidders'"
            lines.append(f"A bid more than {number(r.auto_throw_in_margin)} above {whose} meld cannot be made: the "
                         "hand is an automatic throw-in.")
        else:
            lines.append(f"{'A bidder' if lone else 'Bidders'} whose meld is more than "
                         f"{number(r.auto_throw_in_margin)} short of the bid {w['are']} not \u201con the board\u201d: "
                         "they cannot make it, and the hand is scored as a throw-in.")
    if r.auto_throw_in_below_min_meld and r.min_meld:
        lines.append(f"{'A bidder' if lone else 'Bidders'} with less than {number(r.min_meld)} meld "
                     f"throw{w['s']} in automatically.")
    lines.append(_describe_no_marriage(r) + _house_default(r, "no_marriage"))
    if r.no_marriage == "throw_in" and r.throw_in_award == "meld_plus_bonus" and r.preset == "double-deck" \
            and _house_default_kept(r, "no_marriage"):
        lines.append(f"{capitalized(SOURCES[r.preset])} contradicts itself here: the bidding section gives the "
                     f"opponents only their meld, the scoring section their meld plus {number(r.card_bonus)} "
                     "for the cards; this app follows the scoring section.")
    if r.forced_no_marriage_meld_only and r.no_marriage == "throw_in" and r.throw_in_award == "meld_plus_bonus":
        lines.append(f"If the bid was forced on the dealer and {'the dealer has' if lone else 'the bidders have'} "
                     f"no marriage in trump, {w['others']} get{w['s']} only their meld, without the "
                     f"{number(r.card_bonus)} for the cards; a forced bid thrown in for any other reason scores as "
                     "any throw-in.")
    lines += _describe_renege(r)
    return lines


def _house_default_kept(r: Rules, topic: str) -> bool:
    preset = _preset_of(r)
    return preset is not None and all(getattr(r, option) == getattr(preset, option)
                                      for option in _TOPIC_OPTIONS[topic])


def _describe_no_marriage(r: Rules) -> str:
    if r.no_marriage == "throw_in":
        return NO_MARRIAGE["throw_in"]
    loss, extra = _bid_loss(r)
    w = _words(r)
    gets = f"{w['others']} score{w['s']} {'the bid' if extra else 'nothing'}"
    nobody = "nobody scores meld" if r.players_per_side == 1 else "neither side scores meld"
    return f"A bidder with no marriage in trump is set before play: {loss}, {nobody}, and {gets}."


def _describe_renege(r: Rules) -> list[str]:
    loss, extra = _bid_loss(r)
    gains = _gains([_opponents_meld(r), f"{number(r.card_bonus)} for the cards", *extra])
    w = _words(r)
    if r.set_penalty == "chips":
        theirs = f"{w['who_reneged']} lose{w['s']} nothing (chip scoring)"
    else:
        theirs = f"costs {w['who_reneged']} as much"
    by_others = "another player" if r.players_per_side == 1 else "the opponents"
    return [f"A renege by {w['bidders']}: {loss}, and {w['others']} score{w['s']} {gains}. A renege by {by_others} "
            f"gives {w['bidders']} their bid and {theirs}." + _house_default(r, "renege")]


def _describe_end(r: Rules) -> list[str]:
    if r.hands_limit is not None:
        lines = [f"The game is {number(r.hands_limit)} hands (redeals not counted); the higher total wins, "
                 "and a tie plays one more hand until it breaks."]
    elif not r.bidding:
        lines = [f"Game is {number(r.target)}; if both players reach it on the same hand, the higher total wins."]
    elif r.players_per_side == 1:
        lines = [f"Game is {number(r.target)}; if several players reach it on the same hand, the bidder wins if "
                 "they are among them, else the highest total (an exact tie plays on)."]
    elif r.sides > 2:
        lines = [f"Game is {number(r.target)}; if several {side_word(r)}s reach it on the same hand, the bidder's "
                 "side wins if it is among them, else the highest total (an exact tie plays on)."]
    else:
        lines = [f"Game is {number(r.target)}; if both teams reach it on the same hand, the bidders win."
                 + _house_default(r, "target")]
    if run_wins_game(r):
        lines.append("A quadruple run in trump wins the game outright: record it as the way the hand ended.")
    if r.floor is not None:
        lines.append(f"{capitalized(_words(r)['a_side'])} at {number(r.floor)} or below loses.")
    return lines
