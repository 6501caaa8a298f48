"""The rules reference (docs/rules.md) as Markdown, written from the code itself: the presets, their rules in
words, their meld tables and worked hands scored by `score_hand`. Pure: the command that writes the file lives in
the web shell.
"""

from __future__ import annotations

from dataclasses import fields

from .meld import AROUND_NAMES, DECK_COPIES, TABLES, WINS_GAME, MeldTable
from .rules import (
    ALL_PASS,
    DECKS,
    DEFAULT_PRESET,
    NO_MARRIAGE,
    PRESETS,
    SEATINGS,
    SET_PENALTY,
    THROW_IN_AWARD,
    THROW_IN_PENALTY,
    Rules,
)
from .rules_in_words import card_count_words, describe
from .scoring import Hand, score_hand
from .words import BIDDERS, KIND_WORDS, MELD_TABLE_NAMES, MELD_TABLE_TITLES, OPPONENTS, capitalized, number, signed

COMMAND = "flask --app scorepad rules"
_NOT_OPTIONS = ("preset", "title", "played_by")  # they name the preset; the section heading shows them
# What a choice means, for the options whose values are words in the code.
_CHOICE_WORDS = {
    "all_pass": ALL_PASS,
    "set_penalty": SET_PENALTY,
    "throw_in_penalty": THROW_IN_PENALTY,
    "throw_in_award": THROW_IN_AWARD,
    "no_marriage": NO_MARRIAGE,
    "meld_table": MELD_TABLE_NAMES,
}
# Worked hands under the default preset: one made, one set, one thrown in.
_EXAMPLES = (
    ("A played hand the bidders make", Hand(bidder=0, bid=55, meld=(30, 12), counters=(28, 22))),
    ("A played hand the bidders are set on", Hand(bidder=0, bid=65, meld=(40, 30), counters=(24, 26))),
    ("A throw-in", Hand(bidder=0, bid=50, meld=(25, 30), kind="throw_in")),
)


def rules_reference() -> str:
    """docs/rules.md as it should read now: the same text for the same code, with a newline at the end."""
    parts = [_introduction(), _how_a_hand_is_scored(), _tables_of_every_size()]
    parts += [_preset(rules) for rules in PRESETS.values()]
    parts.append(_other_tables())
    return "\n\n".join(part.strip("\n") for part in parts if part) + "\n"


# The README's list of rule sets lies between these lines; the rules command writes it from PRESETS too.
README_BEGIN = "<!-- the rule sets: written by `flask --app scorepad rules` from scorepad/core/rules.py -->"
README_END = "<!-- end of the rule sets -->"
_COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def readme_presets() -> str:
    """The README's list of the rule sets, between its two marker lines, as it should read now."""
    count = _COUNTS[len(PRESETS)] if len(PRESETS) < len(_COUNTS) else str(len(PRESETS))
    rows = "\n".join(f"| `{key}`{' (default)' if key == DEFAULT_PRESET else ''} | {rules.title} | {rules.played_by} |"
                     for key, rules in PRESETS.items())
    return f"""{README_BEGIN}
Scorepad knows {count} rule sets (see `/rules` in the app, or [docs/rules.md](docs/rules.md)):

| preset | name | who plays it this way |
|---|---|---|
{rows}
{README_END}"""


def with_readme_presets(readme: str) -> str:
    """`readme` with its list of the rule sets as `readme_presets` writes it (unchanged if it has no markers)."""
    begin, end = readme.find(README_BEGIN), readme.find(README_END)
    if begin < 0 or end < begin:
        return readme
    return readme[:begin] + readme_presets() + readme[end + len(README_END):]


def _introduction() -> str:
    presets = "\n".join(f"- {rules.title} (`{key}`)" for key, rules in PRESETS.items())
    return f"""# The rules Scorepad scores by

This file is written by `{COMMAND}` from the code (`scorepad/core/rules.py`, `scorepad/core/meld.py`,
`scorepad/core/scoring.py`). Change the code and run the command again; a test fails while the two differ.

Every game keeps the complete rule set it was started with. A game starts from one of these presets, and any
option can be changed as a house rule before the first hand:

{presets}"""


def _how_a_hand_is_scored() -> str:
    kinds = ", ".join(KIND_WORDS.values())
    default = next(iter(PRESETS.values()))
    examples = "\n\n".join(_example(default, title, hand) for title, hand in _EXAMPLES)
    return f"""## How a hand is scored

The **bidders** are the partnership that won the auction, the **opponents** the other. Teams are numbered
from 0 in the data (an export's `bidder`, `renege_team` and `winner`) and from 1 on the pages: team 0 is
"Team 1". **Meld** is the points
shown before play, partners added together; **counters** are the points taken in tricks, the last trick
included. A team's meld is **on the board** when there is enough of it to count at all, and the team **saves**
it by taking enough counters; each preset says how much is enough.

A hand is entered as one of: {kinds}.
For a played hand each team's points are its meld, if on the board and saved, plus its counters, if it saved
its meld or unsaved counters score. The bidders make their bid when their points reach it; otherwise they are
set, and lose what the preset says. A throw-in, a bidder with no marriage in trump and a renege are scored as
each preset's rules in words say; a redeal scores nothing.

After every hand the totals are added up again from all the hands in order, so editing or deleting a hand
re-scores every hand after it. The deal passes to the left after every hand, redeals included, and the
dealer's left bids first.

Every hand comes with its explanation: one sentence per rule applied, in the order applied. Under
{default.title}:

{examples}"""


# A cutthroat hand as the section on tables of every size tells it: each player by name.
_CUTTHROAT = ("Ann", "Bob", "Cat"), Hand(bidder=0, bid=300, meld=(150, 40, 60), counters=(160, 50, 40))


def _tables_of_every_size() -> str:
    seatings = "\n".join(f"| {sides} | {per_side} | {sides * per_side} | {who} |"
                         for (sides, per_side), who in SEATINGS.items())
    names, hand = _CUTTHROAT
    rules = PRESETS["three-handed"]
    result = score_hand(rules, hand, names=names)
    scored = ", ".join(f"{name} {signed(points)}" for name, points in zip(names, result.points, strict=True))
    lines = "\n".join(f"> {line}" for line in result.explanation)
    return f"""## Tables of every size

A game has 2 to 4 **sides**, each of 1 to 4 players (`sides`, `players_per_side`). Seats are numbered
clockwise from 0 and seat `s` belongs to side `s mod sides`, so partners alternate round the table. The
presets for players on their own bring their seating; every other preset is for sides of two or more.

| sides | players per side | players | who plays it |
|---|---|---|---|
{seatings}

Every table is scored by the same rules, one engine over any number of sides: two teams are told as the
bidders and the opponents; with more than two sides, or players on their own, or no bidding, a hand is told
side by side, each side by name. The bidding side is scored as the bidders above; every other side on its own
as the opponents are, with the same options. The counters of all sides add up to the hand's counter points. On
a throw-in or a bidders' renege every other side gets the award; on another side's renege the bidders score
their bid, the reneging side loses it and any other side scores its meld if on the board. Under chip scoring
every other side scores the failed bid. The first side to the target wins; when several reach it on one hand
the bidders win if they are among them, else the highest total, and an exact tie plays another hand. A losing
floor is for two sides only. Without bidding a hand is each side's meld and counters. Two players who turn
bidding on play the two-handed auction game, scored as three-handed with two players: meld counts only for a
player who takes a counter (the three-handed save rule comes with the bidding, unless the table sets its own).

**A cutthroat hand** under {rules.title} ({names[0]} bids {number(hand.bid)}; meld
{", ".join(number(m) for m in hand.meld)}; counters {", ".join(number(c) for c in hand.counters)}): {scored}.

{lines}"""


def _example(rules: Rules, title: str, hand: Hand) -> str:
    result = score_hand(rules, hand)
    bidders, opponents = result.points[hand.bidder], result.points[1 - hand.bidder]
    entered = f"bid {number(hand.bid)}, meld {number(hand.meld[0])} and {number(hand.meld[1])}"
    if hand.counters is not None:
        entered += f", counters {number(hand.counters[0])} and {number(hand.counters[1])}"
    lines = "\n".join(f"> {line}" for line in result.explanation)
    return (f"**{title}** ({entered}): {BIDDERS.lower()} {signed(bidders)}, {OPPONENTS.lower()} "
            f"{signed(opponents)}.\n\n{lines}")


def _preset(rules: Rules) -> str:
    words = "\n".join(f"- {line}" for line in describe(rules))
    return f"""## {rules.title}

Preset `{rules.preset}`. {rules.played_by}

### Options

| Option | Value |
|---|---|
{_options(rules)}

### The rules in words

{words}

{_meld_table(rules.meld_table)}"""


def _options(rules: Rules) -> str:
    rows = [(f.name, _value(rules, f.name)) for f in fields(rules) if f.name not in _NOT_OPTIONS]
    rows.append(("card_bonus", f"{number(rules.card_bonus)} (2/5 of the hand's counter points: the cards' worth "
                               "on a throw-in or a renege)"))
    return "\n".join(f"| `{name}` | {value} |" for name, value in rows)


def _value(rules: Rules, name: str) -> str:
    value = getattr(rules, name)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return number(value)
    if name == "bid_steps":
        return ", ".join(f"from {number(start)} by {number(step)}" for start, step in value)
    if name == "deck":
        return f"`{value}` ({DECKS[value]} cards)"
    if name in _CHOICE_WORDS:
        # only the throw-in award names a bonus: what the cards give on a throw-in, not on a renege
        meaning = _CHOICE_WORDS[name][value].format(bonus=number(rules.throw_in_bonus))
        return f"`{value}`: {meaning}"
    if name == "card_count":
        return f"`{value}`: {card_count_words(rules)}"
    return f"`{value}`"


def _meld_table(key: str) -> str:
    table = TABLES[key]
    copies = DECK_COPIES[table.deck]
    head = " | ".join(f"×{n}" for n in range(1, copies + 1))
    rows = "\n".join(f"| {name} | {' | '.join(values)} |" for name, values in _meld_rows(table, copies))
    return f"""### Meld table: {MELD_TABLE_NAMES[key]}

| Meld | {head} |
|---|{'---:|' * copies}
{rows}"""


def _meld_rows(table: MeldTable, copies: int) -> list[tuple[str, list[str]]]:
    def each(value: int) -> list[str]:
        return [number(value * n) for n in range(1, copies + 1)]

    def points(values: tuple) -> list[str]:
        return ["wins the game" if v is WINS_GAME else number(v) for v in values[:copies]]

    rows = [("Run in trump (A, 10, K, Q, J)", points(table.run))]
    if table.extra_beside_run:
        rows.append(("Extra K or Q of trump beside a run", each(table.extra_beside_run)))
    rows += [
        ("Royal marriage (K and Q of trump)", each(table.royal_marriage)),
        ("Marriage (K and Q of another suit)", each(table.marriage)),
        ("Pinochle (Q♠ and J♦)", points(table.pinochle)),
    ]
    rows += [(capitalized(f"{AROUND_NAMES[rank]} around"), points(values)) for rank, values in table.arounds.items()]
    if table.dix:
        rows.append(("Dix (9 of trump)", each(table.dix)))
    return rows


def _other_tables() -> str:
    used = {rules.meld_table for rules in PRESETS.values()}
    unused = [key for key in TABLES if key not in used]
    if not unused:
        return ""
    others = "\n\n".join(_meld_table(key) for key in unused)
    names = ", ".join(MELD_TABLE_TITLES[key] for key in unused)
    return f"""## Meld tables for house rules

A game can count meld with another table of the same deck. No preset uses these: {names}.

{others}"""
