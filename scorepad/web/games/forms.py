"""Forms: what was typed, kept as typed for re-rendering, turned into the core's values.

Only the shape of the input is judged here (a number, a team, a seat); every rule is the core's, so each
message a player sees about a hand comes from `validate_hand` (through `services`), bar the few about a field
the form could not read at all.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from ...core import counted
from ...core.errors import InvalidRules
from ...core.hands import HAND_COLUMNS, SIDE_COLUMNS
from ...core.inputs import FarTooLarge, NotANumber, clean_name, name_key, name_problem, try_whole_number, whole_number
from ...core.rules import DEFAULT_PRESET, PRESETS, Rules, allowed_kinds, fits_seating, limits, seated, with_house_rules
from ...core.scoring import Hand
from ...core.seats import seat_names, team_of
from ...core.words import KIND_WORDS, MELD_TABLE_TITLES, capitalized, said_of_boxes
from ..shell.forms import ECHO


def _typed(text: str | None, blank=None):
    """A hand's number field for the core: a whole number, `blank` for a blank, or the text itself when it is no
    number, so that the message beside the field is the core's own, which says what the field allows."""
    try:
        value = whole_number(text)
    except NotANumber:
        return text
    return blank if value is None else value


@dataclass
class HandForm:
    """A hand form read: what was typed (kept for re-rendering), the hand as the core's values (which may hold
    wrong ones, for the core to name; its trump and bidder's seat ride along for the record), and the fields the
    form could not read at all, with their messages."""

    values: dict[str, str]
    hand: Hand
    unreadable: dict[str, str] = field(default_factory=dict)
    typed_counters: tuple[int, ...] | None = None  # every side's counters, when all were typed as numbers


# The form's fields are the hand's columns, bar the bidder's seat: one tap on "bidder" names a seat or a team.
# A third and fourth side's meld and counters come next, and the one column of dix flags is a box beside each
# side's meld.
HAND_FIELDS = (*(name for name in HAND_COLUMNS + SIDE_COLUMNS if name not in ("bidder_seat", "dix_only",
                                                                               "meld_counted")),
               *(f"dix_only_{side}" for side in range(4)), *(f"meld_cards_{side}" for side in range(4)))
# What the meld calculator counted for a side rides along in the form, hidden, as long as a hand's cards are; every
# other field is a number or a choice.
COUNTED_FIELDS = tuple(f"meld_cards_{side}" for side in range(4))
_KEPT_CHARS = {**dict.fromkeys(COUNTED_FIELDS, 1200)}


def kept(name: str, value) -> str:
    """A hand form's field as it is carried (in an address, back from the meld calculator, into a preview): cut to
    what the field can hold."""
    return str(value)[:_KEPT_CHARS.get(name, 40)]
CHECKED = ("1", "on", "yes", "true")
SUITS = ("S", "H", "D", "C")


def parse_hand(form, rules: Rules, has_players: bool) -> HandForm:
    """The hand a form sends, judged only as typing: whether the hand is right is `services`' question."""
    values = {name: str(form.get(name, ""))[:max(200, _KEPT_CHARS.get(name, 0))] for name in HAND_FIELDS}
    sides = range(rules.sides)
    kind = values["kind"] or "played"
    if kind == "redeal" and rules.bidding:  # nothing else is entered for a redeal: the rest is ignored
        return HandForm(values, Hand(0, 0, (0,) * rules.sides, kind="redeal"))
    meld = tuple(_typed(values[f"meld_{t}"], blank=0) for t in sides)
    unreadable = _far_too_large(values, rules)
    if not rules.bidding:  # each side's meld and counters are the whole hand
        hand = Hand(None, None, meld, _counters(values, rules), dix_only=_dix_only(values, rules),
                    counted=_counted(values, rules))
        return HandForm(values, hand, unreadable, _typed_counters(values, rules))
    bidder, bidder_seat = bidder_of(values["bidder"], rules)
    if bidder is None:
        unreadable["bidder"] = "Tap the player who won the bid." if has_players or rules.players_per_side == 1 \
            else "Tap the team that won the bid."
    trump = values["trump"].upper() or None
    if trump not in (None, *SUITS):
        unreadable["trump"] = "Trump is one of the four suits, or left blank."
        trump = None
    counters = _counters(values, rules) if kind == "played" else None
    renege_team = {str(t): t for t in sides}.get(values["renege_team"]) if kind == "renege" else None
    forced = values["forced"] in CHECKED
    # a blank bid is the minimum the field shows as its placeholder: one bid is ready without a key pressed
    bid = _typed(values["bid"], blank=rules.min_bid)
    hand = Hand(bidder, bid, meld, counters, kind, renege_team, forced, trump, bidder_seat, _dix_only(values, rules),
                _counted(values, rules))
    return HandForm(values, hand, unreadable, _typed_counters(values, rules))


def _far_too_large(values: dict, rules: Rules) -> dict[str, str]:
    """The number fields holding more digits than any score has, each with its sentence; the core's own
    "must be a whole number" would be wrong there."""
    fields = {"bid": "Bid"} | {f"{kind}_{t}": kind.capitalize() for kind in ("meld", "counters")
                               for t in range(rules.sides)}
    found = {}
    for name, what in fields.items():
        try:
            whole_number(values[name], what=what)
        except FarTooLarge as error:
            found[name] = str(error)
        except NotANumber:
            pass
    return found


def _dix_only(values: dict, rules: Rules) -> tuple[bool, ...]:
    return tuple(values[f"dix_only_{t}"] in CHECKED for t in range(rules.sides))


def _counted(values: dict, rules: Rules) -> tuple | None:
    """What the meld calculator counted for each side, as its hidden fields carry it; a count that does not fit the
    game (never typed, so never a mistake to show) is dropped, and the meld typed stands alone."""
    counts = []
    for side in range(rules.sides):
        count = counted.read_field(values[f"meld_cards_{side}"])
        fits = count and not counted.problem(count, rules.meld_table, rules.players, rules.players_per_side)
        counts.append(count if fits else None)
    return tuple(counts) if any(counts) else None


def _typed_counters(values: dict, rules: Rules) -> tuple[int, ...] | None:
    every = tuple(try_whole_number(values[f"counters_{t}"], low=0) for t in range(rules.sides))
    return None if None in every else every


def edits_seen(form) -> tuple[int | None, bool]:
    """(How many edits the hand had when its edit form was opened, or None when the form does not say; whether
    what it says is garbled)."""
    text = form.get("edits_seen")
    seen = try_whole_number(text, low=0)
    return seen, text is not None and seen is None


# Where each of the core's fields is on the hand form, top to bottom, and the element that takes the cursor
# when it is wrong: the first one named is where a refused form puts it.
WRONG_FIELD_TARGETS = {
    "bidder": "field-bidder", "bid": "bid", "trump": "field-trump", "meld_0": "meld_0", "meld_1": "meld_1",
    "meld_2": "meld_2", "meld_3": "meld_3", "counters_0": "counters_0", "counters_1": "counters_1",
    "counters_2": "counters_2", "counters_3": "counters_3", "counters": "counters_0", "kind": "field-kind",
    "forced": "forced", "renege_team": "field-renege_team",
}


def wrong_fields(errors: dict[str, str], teams: Sequence[str] = ()) -> list[tuple[str, str, str]]:
    """(field, id of the element to go to, message) for each refused field, in the form's order: the list at
    the top of a refused form, each item a link to its field, its words saying whose box it is (`teams`: the
    sides' names; see `words.said_of_boxes`)."""
    order = list(WRONG_FIELD_TARGETS)
    named = sorted(errors, key=lambda name: order.index(name) if name in order else len(order))
    return [(name, WRONG_FIELD_TARGETS.get(name, "hand-form"), sentence)
            for name, sentence in said_of_boxes([(name, errors[name]) for name in named], teams)]


def things_to_fix(how_many: int) -> str:
    """The count in the title of the list of what to fix: "one thing to fix", "3 things to fix"."""
    return "one thing to fix" if how_many == 1 else f"{how_many} things to fix"


def following(refused: dict[str, str], values: dict[str, str], shown: Collection[str], teams: Sequence[str]) -> dict:
    """What a form refused once says now, as the player types on (the live preview's answer carries it, and
    form_answers.js puts it in place): each field's line ("lines": field -> the core's sentence) and the list at
    the top ("list": [id to go to, sentence] in the form's order; "count": its title's count). A field is said to
    be wrong while a save would refuse it and it was said to be wrong (`shown`) or something is typed in it; a
    field fixed loses its line at once, one typed wrong since gets one, a blank one not yet said stays quiet."""
    def typed(name: str) -> bool:
        if name == "counters":
            return any(str(value).strip() for key, value in values.items() if key.startswith("counters_"))
        return bool(str(values.get(name, "")).strip())

    lines = {name: sentence for name, sentence in refused.items() if name in shown or typed(name)}
    listed = wrong_fields(lines, teams)
    return {"lines": lines, "list": [[target, sentence] for _, target, sentence in listed],
            "count": things_to_fix(len(listed))}


def kind_choices(rules: Rules) -> list[tuple[str, str]]:
    """(value, label) for each kind of hand the rules allow, in the order the form offers them."""
    return [(kind, capitalized(KIND_WORDS[kind])) for kind in allowed_kinds(rules)]


def bidder_of(text: str, rules: Rules | None = None) -> tuple[int | None, int | None]:
    """'s0', 's1' ... is a seat (its side bids); 't0', 't1' ... a side. Without `rules`, a table of four."""
    sides, seats = (rules.sides, rules.players) if rules else (2, 4)
    if re.fullmatch(r"s[0-7]", text) and int(text[1]) < seats:
        seat = int(text[1])
        return team_of(seat, sides), seat
    if re.fullmatch(r"t[0-3]", text) and int(text[1]) < sides:
        return int(text[1]), None
    return None, None


def _counters(values: dict, rules: Rules):
    """Every side's counters; one left blank, when all the others are numbers, is the rest of the hand's points
    (typing all but one fills the last), and nothing when they are already more: then only what was typed is
    wrong, not the field left blank."""
    typed = [_typed(values[f"counters_{t}"]) for t in range(rules.sides)]
    blank = [t for t, value in enumerate(typed) if value is None]
    if len(blank) == len(typed):
        return None
    whole = [value for value in typed if isinstance(value, int)]
    if len(blank) == 1 and len(whole) == len(typed) - 1:
        typed[blank[0]] = max(0, rules.hand_points - sum(whole))
    return tuple(typed)


def hand_values(h: Hand) -> dict[str, str]:
    """A stored hand as the form's text, for the edit form."""
    if h.bidder is None:
        bidder = ""
    else:
        bidder = f"s{h.bidder_seat}" if h.bidder_seat is not None else f"t{h.bidder}"
    counters = h.counters or ("",) * len(h.meld)
    return {"kind": h.kind, "bidder": bidder, "bid": "" if h.bid is None else str(h.bid), "trump": h.trump or "",
            **{f"meld_{t}": str(meld) for t, meld in enumerate(h.meld)},
            **{f"counters_{t}": str(value) for t, value in enumerate(counters)},
            "renege_team": "" if h.renege_team is None else str(h.renege_team),
            "forced": "1" if h.forced else "", **{f"dix_only_{t}": "1" if flag else "" for t, flag in
                                                  enumerate(h.dix_only)},
            **{f"meld_cards_{t}": counted.field_text(count) for t, count in enumerate(h.counted or ())}}


def filled_from(typed: dict[str, str], theirs: dict[str, str], *, whole: bool = False) -> dict[str, str]:
    """The hand typed here, with what it leaves blank taken from `theirs` (the hand another phone recorded in its
    place), so that "mine is right" changes only what was typed here. Counters typed on any side are this phone's
    (the form fills in the last box as a save does). A hand still being typed takes every blank field; the kind
    counts as not typed while it is still the form's own "played". A `whole` hand (one that scores as typed, where
    an unticked box, a blank trump or bid says something) takes only a meld box left blank: read as 0, it wrote 0
    over the meld the other phone had typed (a made hand became a set)."""
    counters_typed = any(str(value).strip() for name, value in typed.items() if name.startswith("counters_"))

    def blank(name: str) -> bool:
        value = str(typed.get(name, "")).strip()
        if counters_typed and name.startswith("counters_"):
            return False
        if whole:
            side = name.rpartition("_")[2]
            return name.startswith("meld_") and not str(typed.get(f"meld_{side}", "")).strip()
        return not value or (name == "kind" and value == "played")
    return {**typed, **{name: value for name, value in theirs.items() if blank(name)}}


def changed_over(mine: dict[str, str], opened: dict[str, str] | None, now: dict[str, str]) -> dict[str, str]:
    """An edit refused because another phone changed the hand meanwhile, made again over the hand as it is `now`:
    each field this phone changed (from `opened`, the hand its form was opened on) as typed here, every other field
    as it is now, so "mine is right" changes only what was changed here, not the other phone's change back. Without
    `opened` (a history that does not say), the whole hand as typed here."""
    if opened is None:
        return dict(mine)
    return {**now, **{name: value for name, value in mine.items() if value != opened.get(name, "")}}


# --- a new game ----------------------------------------------------------------------------------------------

# House rules a game can change, each with its kind of input: "number", "bool", or its choices. Blank, the
# first choice of every list on the page, means "as the rule set says".
HOUSE_RULES = [
    ("target", "Game to", "number"),
    ("hands_limit", "Or a fixed number of hands", "number"),
    ("floor", "A team far behind loses", {"none": "No losing floor",
                                           "minus_target": "At minus the game score"}),
    ("min_bid", "Minimum bid", "number"),
    ("check_bid_steps", "Check bid steps", "bool"),
    ("all_pass", "When everyone passes", {"dealer_stuck": "The dealer is stuck",
                                          "redeal": "Throw in and redeal"}),
    ("min_meld", "Meld needed to be on the board", "number"),
    ("save_counters", "Counters needed to save meld (1 = any counter)", "number"),
    ("unsaved_counters_score", "Counters score even when meld is not saved", "bool"),
    ("opponents_score_when_made", "Opponents score when the bidders make it", "bool"),
    ("set_penalty", "A set costs the bidders", {"bid": "The bid",
                                                 "meld_and_counters": "Their meld and counters",
                                                 "chips": "Nothing: opponents score the bid (chips)"}),
    ("throw_in_penalty", "A throw-in costs the bidders", {"bid": "The bid",
                                                          "meld": "Their meld"}),
    ("throw_in_award", "On a throw-in the opponents get", {"meld_plus_bonus": "Their meld + the card bonus",
                                                            "meld": "Their meld only", "nothing": "Nothing"}),
    ("no_marriage", "Bidder with no marriage in trump", {"throw_in": "Scored as a throw-in",
                                                         "no_meld": "Loses the bid, nobody scores meld"}),
    ("forced_no_marriage_meld_only", "A stuck dealer without a marriage gives the opponents meld only", "bool"),
    ("auto_throw_in_margin", "Automatic throw-in when the bid is above meld plus", "number"),
    ("auto_throw_in_below_min_meld", "Automatic throw-in when the bidders are not on the board", "bool"),
    ("counter_step", "Counters are counted in steps of", "number"),
    ("card_count", "Cards taken in tricks count", {"aces_tens_kings": "Aces, tens and kings alike",
                                                   "kings_queens_half": "Kings and queens half an ace"}),
    ("meld_table", "Meld table", MELD_TABLE_TITLES),
    ("bidding", "Players bid (two players without bidding: meld and counters only)", "bool"),
]
MOST_SIDES, MOST_SEATS = 4, 8
NAME_FIELDS = (*(f"team_{t}" for t in range(MOST_SIDES)), *(f"player_{s}" for s in range(MOST_SEATS)))
TEAM_PLACEHOLDERS = ("Us", "Them", "Others", "Rest")
# The number of players comes first: each seating as the form offers it, "sides x players per side".
SEATING_CHOICES = {
    "2x1": "2 players",
    "3x1": "3 players, each for themselves",
    "2x2": "4 players, two teams of two",
    "2x3": "6 players, two teams of three",
    "3x2": "6 players, three partnerships",
    "2x4": "8 players, two teams of four",
}
DEFAULT_SEATING = "2x2"


def seating_of(text: str) -> tuple[int, int] | None:
    """(sides, players per side) for one of `SEATING_CHOICES`, else None."""
    if text not in SEATING_CHOICES:
        return None
    sides, per_side = text.split("x")
    return int(sides), int(per_side)


def preset_fits(preset: str, seating: str) -> bool:
    """Whether a rule set is played at one of `SEATING_CHOICES` (the rule is the core's `fits_seating`)."""
    fits = seating_of(seating)
    return fits is not None and fits_seating(preset, *fits)


@dataclass
class NewGame:
    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    rules: Rules | None = None
    teams: tuple[str, ...] = ("Us", "Them")
    players: tuple = (None, None, None, None)
    first_dealer: int = 0


def new_game_values(form=None) -> dict[str, str]:
    form = form or {}
    names = ["seating", "preset", *NAME_FIELDS, "first_dealer", *[name for name, _, _ in HOUSE_RULES]]
    values = {name: str(form.get(name, ""))[:ECHO].strip() for name in names}
    values["seating"] = values["seating"] or DEFAULT_SEATING
    values["preset"] = values["preset"] or DEFAULT_PRESET
    return values


def parse_new_game(form) -> NewGame:
    values = new_game_values(form)
    game = NewGame(values)
    errors = game.errors
    seating = seating_of(values["seating"])
    if seating is None:
        errors["seating"] = "Choose how many play."
        return game
    if values["preset"] not in PRESETS:
        errors["preset"] = "Choose one of the rule sets."
        return game
    if not preset_fits(values["preset"], values["seating"]):
        errors["preset"] = (f"With {SEATING_CHOICES[values['seating']]}, choose "
                            + ("a two- or three-handed rule set." if seating[1] == 1 else "a rule set for teams."))
        return game
    sides, per_side = seating
    names = _names(form, errors)
    players = tuple(names[f"player_{i}"] or None for i in range(sides * per_side))
    if per_side == 1:  # each plays alone: a side is the player, named as they are
        teams = tuple(players[t] or f"Player {t + 1}" for t in range(sides))
    else:
        teams = tuple(names[f"team_{t}"] or TEAM_PLACEHOLDERS[t] for t in range(sides))
    _different_names(teams, per_side, errors)
    named = [name_key(p) for seat, p in enumerate(players) if p and f"player_{seat}" not in errors]
    if len(named) != len(set(named)):
        errors["players"] = "Each player sits in one seat only: two seats have the same name."
    _empty_seats_names_free(players, errors)
    if values["first_dealer"] in ("", *map(str, range(len(players)))):
        game.first_dealer = int(values["first_dealer"] or 0)
    else:
        errors["first_dealer"] = "Choose who deals first."
    game.teams, game.players = teams, players
    base = seated(PRESETS[values["preset"]], sides, per_side)
    rules, rule_errors = house_rules(base, values)
    errors.update(rule_errors)
    game.rules = rules
    return game


def _different_names(teams: tuple[str, ...], per_side: int, errors: dict[str, str]) -> None:
    """Two teams of one name are refused; a name already refused beside its field is not looked at again (it may
    be megabytes long)."""
    if per_side == 1:  # each plays alone: the teams are the players, whose names are checked as players'
        return
    seen = set()
    for t, team in enumerate(teams):
        if f"team_{t}" in errors:
            continue
        if name_key(team) in seen:
            errors.setdefault(f"team_{t}", "The two teams need different names." if len(teams) == 2 else
                              "Each team needs a name of its own.")
        seen.add(name_key(team))


def _empty_seats_names_free(players: tuple[str | None, ...], errors: dict[str, str]) -> None:
    """A seat left empty goes by its seat's name ("Player 2", "North"): a player typed in under that name at
    another seat would put two of one name on the scoreboard and the bidder buttons."""
    defaults = seat_names(len(players))
    empty = {name_key(defaults[seat]): seat for seat, name in enumerate(players) if not name}
    for seat, name in enumerate(players):
        if name and f"player_{seat}" not in errors and name_key(name) in empty:
            errors.setdefault(f"player_{seat}", f"An empty seat is called {defaults[empty[name_key(name)]]}: "
                                                "name that seat's player too, or choose another name.")


def _names(form, errors: dict[str, str]) -> dict[str, str]:
    """Every team and player name as it will be kept; one that may not be kept is refused beside its field.
    The whole of what was sent is judged (a name cut short to fit would be a name nobody typed)."""
    names = {}
    for name in NAME_FIELDS:
        names[name] = clean_name(str(form.get(name, "")))
        problem = name_problem(names[name], "A team's name" if name.startswith("team") else "A player's name")
        if problem:
            errors[name] = problem
    return names


def house_rules(base: Rules, values: dict[str, str]) -> tuple[Rules | None, dict[str, str]]:
    changes, errors = {}, {}
    ranges = limits(base)  # the form changes no option that a range is measured by (the deck, its points)
    for name, label, kind in HOUSE_RULES:
        text = values.get(name, "")
        if not text:
            continue
        if kind == "number":
            low, high = ranges[name]
            value = try_whole_number(text, low=low, high=high)
            if value is None:
                errors[name] = f"{label}: a whole number from {low:,} to {high:,}, or blank for the rule set's own."
                continue
            changes[name] = value
        elif kind == "bool":
            if text not in ("yes", "no"):
                errors[name] = f"{label}: yes or no."
                continue
            changes[name] = text == "yes"
        elif name == "floor":
            if text not in kind:
                errors[name] = "Choose a losing floor."
                continue
            changes["floor"] = None if text == "none" else "minus_target"
        elif text in kind:
            changes[name] = text
        else:
            errors[name] = f"{label}: choose one of the options."
    if changes.get("floor") == "minus_target":
        changes["floor"] = -changes.get("target", base.target)
    if errors:
        return None, errors
    try:
        return with_house_rules(base, changes), {}
    except InvalidRules as exc:
        return None, _beside_fields(exc)


def _beside_fields(refused: InvalidRules) -> dict[str, str]:
    """Each of the core's problems beside the house rule it is about; any other above them all."""
    fields = {name for name, _, _ in HOUSE_RULES}
    errors = {option: message for option, message in refused.options.items() if option in fields}
    rest = [message for message in refused.problems if message not in errors.values()]
    if rest:
        errors["house_rules"] = " ".join(rest)
    return errors
