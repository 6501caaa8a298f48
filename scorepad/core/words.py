"""How Scorepad writes numbers and names things, kept in one place so that the explanations, the rules in words,
the pages and docs/rules.md all read the same. Pure: no Flask, no database.

Numbers have their thousands separated by a comma and negatives a true minus sign (U+2212), so "−80" is not
read as a dash and "Game to 1,500" sits above "1,500 to go". `inputs.whole_number` reads every one of them back.
"""

from __future__ import annotations

import re
from datetime import date

from .cards import SUIT_NAMES, SUIT_SYMBOLS
from .inputs import try_whole_number

MINUS = "\u2212"


def number(n: int) -> str:
    """A whole number as Scorepad prints it: "1,500", "0", "−80"."""
    return f"{MINUS}{-n:,}" if n < 0 else f"{n:,}"


# A part of an edit's summary that holds only amounts ("Bid 55 → 60", "Meld 30 : 12 → 30 : 20"), and a number in
# it written before numbers had their thousands separated: only such parts are rewritten, never a name.
_AMOUNTS_PART = re.compile(r"(?:Bid|Meld|Counters) [0-9—:→ ,]+")
_BARE_THOUSANDS = re.compile(r"(?<![0-9,])[0-9]{4,}(?![0-9,])")


# A change of trump as summaries stored it before trump was written in words: "Trump none → H".
_TRUMP_LETTERS = re.compile(r"Trump (none|[SHDC]) → (none|[SHDC])")


def edit_summary(summary: str) -> str:
    """An edit's summary as stored ("Bid 55 → 60; Counters 25 : 25 → 28 : 22") with its amounts written as
    `number` writes them, so that one stored before the thousands were separated reads "Bid 1,000 → 1,050"
    like every other number, and a trump stored as its letter reads as the form shows it ("♥ hearts"). The
    stored text is never changed; a name in it is left as typed."""
    return "; ".join(_shown_part(part) for part in summary.split("; "))


def _shown_part(part: str) -> str:
    if _AMOUNTS_PART.fullmatch(part):
        return _BARE_THOUSANDS.sub(lambda found: number(int(found[0])), part)
    letters = _TRUMP_LETTERS.fullmatch(part)
    if letters:
        old, new = (None if suit == "none" else suit for suit in letters.groups())
        return f"Trump {trump(old)} → {trump(new)}"
    return part


def trump(suit: str | None) -> str:
    """A hand's trump as the form offers it, "♥ hearts", or "none" where none was named."""
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}" if suit else "none"


def signed(n: int) -> str:
    """A change of score, always with its sign: "+1,500", "+0", "−80"."""
    return f"+{n:,}" if n >= 0 else number(n)


def possessive(name: str) -> str:
    """"Bidders" -> "Bidders'", "Ann" -> "Ann's": a name that ends in s takes the apostrophe alone."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


# The names a game gives its teams when nobody names them, and how each starts a sentence: "We won the game",
# not "Us won the game".
AS_SUBJECT = {"Us": "We", "Them": "They"}


def subject(name: str, starts: bool = True) -> str:
    """A side's name as the subject of a sentence: "We" for the default "Us", "They" for "Them" ("we", "they"
    inside a sentence, not `starts` it); any name a family chose, as typed."""
    said = AS_SUBJECT.get(name)
    if said is None:
        return name
    return said if starts else said.lower()


def won(team: str) -> str:
    """"We won the game", "Ann & Cat won the game": a sentence any team's name reads right in (not "Us wins")."""
    return f"{subject(team)} won the game"


def result_line(teams: tuple[str, ...], totals: tuple[int, ...], winner: int | None, hands: int,
                evening: date | None, abandoned: bool = False) -> str:
    """A game's result in one line, as it goes to the family chat: "Grands 537 : Kids 383 — Grands won, 13 hands,
    Fri 27 Nov". A game under way says its hands "so far"; one ended unfinished says so."""
    score = " : ".join(f"{team} {number(total)}" for team, total in zip(teams, totals, strict=True))
    played = f"{hands} hand{'' if hands == 1 else 's'}"
    if winner is not None:
        how = f"{subject(teams[winner])} won, {played}"  # "We won" for the default "Us"
    elif abandoned:
        how = f"ended unfinished, {played}"
    else:
        how = f"{played} so far"
    when = f", {evening:%a} {evening.day} {evening:%b}" if evening else ""
    return f"{score} — {how}{when}"


def capitalized(text: str) -> str:
    """The first letter made a capital and the rest left alone ("single-deck values (×10)" as a title)."""
    return text[:1].upper() + text[1:]


# The two sides of a hand, as the explanations name them.
BIDDERS, OPPONENTS = "Bidders", "Opponents"

def team_name(index: int) -> str:
    """The one numbering of teams, said once: the data (a Hand, an export's bidder, renege_team and winner)
    counts teams from 0, a person from 1, so team 0 is "Team 1". Every message about a team's number says it
    this way: "team 0 (Team 1)"."""
    return f"Team {index + 1}"


def team_in_data(index: int) -> str:
    """A team as a message about stored or exported data names it: its index, then the name a person sees."""
    return f"team {index} ({team_name(index)})"


# A game's teams when nobody gave them names.
TEAM_NAMES = (team_name(0), team_name(1))


def side_word(rules) -> str:
    """What one side of `rules`' table is called: "player" where each plays alone, else "team"."""
    return "player" if rules.players_per_side == 1 else "team"


def side_names(sides: int, lone: bool) -> tuple[str, ...]:
    """A game's sides when nobody gave them names: "Team 1", "Team 2", ... or "Player 1", ... for players alone."""
    word = "Player" if lone else "Team"
    return tuple(f"{word} {side + 1}" for side in range(sides))

# What happened in a hand, as entered.
KIND_WORDS = {
    "played": "played",
    "throw_in": "throw-in",
    "no_marriage": "no marriage",
    "renege": "renege",
    "redeal": "redeal",
    "quad_run": "quadruple run",
}
MADE, SET, AUTO_THROW_IN = "made", "set", "auto throw-in"


def outcome(made: bool | None, kind: str, automatic_throw_in: bool = False) -> str:
    """One word for a scored hand: made, set, auto throw-in, or what was entered (throw-in, renege, ...).

    `made` is True or False for a hand played out and None otherwise; `kind` is a key of `KIND_WORDS`.
    """
    if made is True:
        return MADE
    if made is False:
        return SET
    if automatic_throw_in:
        return AUTO_THROW_IN
    return KIND_WORDS[kind]


# The meld tables, named by the values they hold (the keys are `meld.TABLES`' and a stored game's).
MELD_TABLE_NAMES = {
    "002": "family double-deck values",
    "tournament": "tournament values",
    "000": "Bicycle values (×10)",
    "004": "single-deck values (×10)",
    "004-plain": "single-deck values (×10), no bonus for an extra K or Q beside a run",
    "tournament-once": "tournament values, each card in one meld only",
    "triple": "three-deck values (family double-deck values, up to six of a meld)",
}
# The same names standing alone, as a heading or a choice in a list.
MELD_TABLE_TITLES = {key: capitalized(name) for key, name in MELD_TABLE_NAMES.items()}


def ordinal(n: int) -> str:
    """A place as said aloud: "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def whose(field_name: str, message: str, teams) -> str:
    """The core's sentence about form field `field_name`, saying whose box it is when it is a side's own meld or
    counters (`teams`: the sides' names, as the boxes are labelled): "Meld can't be negative." of `meld_1` is
    "Them meld can't be negative.", and a sentence that does not begin with the field's word is led by the label
    ("Us counters: 60 counters is more than …", "Us meld: 5,000 is more than …"). Any other field's sentence is as
    it is. The core says only "Meld": with two boxes side by side, the list of what to fix and the preview must
    say which."""
    field, _, side = field_name.rpartition("_")
    team = try_whole_number(side, low=0, high=len(teams) - 1) if field in ("meld", "counters") else None
    if team is None:
        return message
    label, word, a_value = f"{teams[team]} {field}", field.capitalize() + " ", f"A {field} of "
    if message.startswith(word):
        return label + message[len(word) - 1:]
    return f"{label}: {message.removeprefix(a_value)}"


def said_of_boxes(refused, teams) -> list[tuple[str, str]]:
    """(field, sentence) for each (field, core's sentence) of `refused`, in its order, each sentence saying whose box
    it is (`whose`). One sentence said of every side's counters (125 each in steps of 10: the last side's is filled
    in from the others') is one thing to fix, said once, at the first of them; meld is typed side by side, so each
    side's wrong meld is its own."""
    said, found = set(), []
    for name, message in refused:
        if name.startswith("counters_") and message in said:
            continue
        said.add(message)
        found.append((name, whose(name, message, teams)))
    return found
