"""The club's forms, read: a new night, an entrant registered, a table's result changed by the director, a season's
settings. Each answers (what was typed, to show back; what the service takes; each field's problem). Only the shape
of the input is judged here; whether the night can hold it is the service's question."""

from __future__ import annotations

from ...core.club import (
    BYE_RULES,
    DEFAULT_TIE_BREAKS,
    MOST_BYE_POINTS,
    MOST_NIGHTS,
    MOST_ROUNDS,
    ROUND_ENDS,
    SPECIALS,
    fits_a_club_table,
)
from ...core.inputs import NotANumber, clean_name, name_problem, whole_number
from ...core.rules import DEFAULT_PRESET, PRESETS
from ...services.club import MOST_NOTE
from ..shell.forms import ECHO

KIND_WORDS = {"progressive": "Progressive: players move, partners change every round",
              "partners": "Partners: each team keeps its partner"}
# The rule sets a club table (two teams of two) can play: the others are not offered
CLUB_PRESETS = {key: rules for key, rules in PRESETS.items() if fits_a_club_table(rules)}
NIGHT_FIELDS = ("name", "kind", "preset", "round_end", "round_size", "rounds", "tie_1", "tie_2", "tie_3", "bye_rule",
                "bye_points", "hidden")
BYE_WORDS = {"winners": "A win and the average of that round's winners", "own": "A win and their own average",
             "fixed": "A win and a fixed score", "none": "Nothing: rank by the average of the rounds played"}
assert BYE_WORDS.keys() == BYE_RULES.keys()
ENTRANT_FIELDS = ("player_0", "player_1", "team")
RESULT_FIELDS = ("score_0", "score_1", "note")
MOST_SCORE = 100_000  # a table's score the director types: far past any game's


def night_values(form=None) -> dict[str, str]:
    """The new-night form's fields as typed; a blank form has the usual night's settings."""
    form = form or {}
    values = {name: str(form.get(name, ""))[:ECHO].strip() for name in NIGHT_FIELDS}
    defaults = {"kind": "progressive", "preset": DEFAULT_PRESET, "round_end": "hands", "round_size": "4",
                "rounds": "4"} if not form else {}
    return {**values, **{k: v for k, v in defaults.items() if not values[k]}}


def read_night(form) -> tuple[dict, dict, dict]:
    """(what was typed, the night's settings for `club.create_night`, each field's problem)."""
    values = night_values(form)
    errors = {}
    bye_rule = values["bye_rule"] or None
    if bye_rule is not None and bye_rule not in BYE_RULES:
        errors["bye_rule"] = "Choose what a bye is worth."
    bye_points = None
    if bye_rule == "fixed":
        try:
            bye_points = whole_number(values["bye_points"], low=0, high=MOST_BYE_POINTS, what="A bye's score")
        except NotANumber as refused:
            errors["bye_points"] = str(refused)
        if bye_points is None and "bye_points" not in errors:
            errors["bye_points"] = "Say how many points a bye is worth."
    name = clean_name(form.get("name", "")) or "Club night"
    problem = name_problem(name, "A night's name")
    if problem:
        errors["name"] = problem
    if values["preset"] not in CLUB_PRESETS:
        errors["preset"] = "Choose one of the rule sets for four players: a club table seats two teams of two."
    if values["round_end"] not in ROUND_ENDS:
        errors["round_end"] = "Choose how a round ends."
    numbers = {}
    for field, what, high in (("round_size", "The length of a round", 100_000), ("rounds", "Rounds", MOST_ROUNDS)):
        try:
            numbers[field] = whole_number(values[field], low=1, high=high, what=what)
        except NotANumber as refused:
            errors[field] = str(refused)
    ties = [values[f"tie_{i}"] for i in (1, 2, 3) if values[f"tie_{i}"]]
    ties = tuple(ties) or DEFAULT_TIE_BREAKS.get(values["kind"], ("wins", "points"))
    if errors:
        return values, {}, errors
    return values, {"name": name, "kind": values["kind"], "rules": PRESETS[values["preset"]],
                    "round_end": values["round_end"], "tie_breaks": ties, "bye_rule": bye_rule,
                    "bye_points": bye_points, "standings_hidden": bool(values["hidden"]), **numbers}, {}


def read_entrant(form) -> tuple[dict, list[str], dict]:
    """(what was typed, the names [player 0, player 1, team], each field's problem)."""
    typed = {f: str(form.get(f, ""))[:ECHO] for f in ENTRANT_FIELDS}
    names, errors = [], {}
    for field in ENTRANT_FIELDS:
        name = clean_name(form.get(field, ""))
        problem = name_problem(name, "A team's name" if field == "team" else "A player's name")
        if problem:
            errors[field] = problem
        names.append(name)
    return typed, names, errors


def read_result(form, table_id: int) -> tuple[dict, tuple[int, ...], str, dict]:
    """(what was typed, the two sides' scores, the director's note, each field's problem), the typed values and
    problems named after the table's own fields (`score_0_<table id>`): the page has a form for every table."""
    errors, score = {}, []
    for side in (0, 1):
        try:
            value = whole_number(form.get(f"score_{side}"), low=-MOST_SCORE, high=MOST_SCORE, what="A score")
        except NotANumber as refused:
            errors[f"score_{side}"] = str(refused)
            continue
        if value is None:
            errors[f"score_{side}"] = "Type both sides' scores."
        score.append(value)
    note = clean_name(str(form.get("note", ""))[:MOST_NOTE * 4])
    problem = name_problem(note, "A note", most=MOST_NOTE)
    if problem:
        errors["note"] = problem
    typed = {f"{k}_{table_id}": str(form.get(k, ""))[:MOST_NOTE if k == "note" else ECHO] for k in RESULT_FIELDS}
    return typed, tuple(score), note, {f"{k}_{table_id}": v for k, v in errors.items()}


def read_season(form, name_field: str) -> tuple[dict, dict, dict]:
    """A season's settings, new or changed (the name is `name_field`: the two forms sit on one page): what was
    typed, the settings for the service, each field's problem."""
    fields = ("best_of", "min_nights", "bye_rule", "bye_points", "improved_min_nights", "ratings")
    typed = {name_field: str(form.get(name_field, ""))[:ECHO], **{f: str(form.get(f, ""))[:ECHO] for f in fields},
             "last_place": bool(form.get("last_place"))}
    chosen = tuple(k for k in form.getlist("specials") if k in SPECIALS)
    errors = {}
    name = clean_name(form.get(name_field, ""))
    problem = name_problem(name, "A season's name") if name else "A season has a name."
    if problem:
        errors[name_field] = problem
    numbers = {}
    for field, what, low, high in (("best_of", "Best nights", 1, MOST_NIGHTS),
                                   ("min_nights", "Nights to be ranked", 1, MOST_NIGHTS),
                                   ("improved_min_nights", "Nights for the most improved", 1, MOST_NIGHTS),
                                   ("bye_points", "A bye's score", 0, MOST_BYE_POINTS)):
        try:
            numbers[field] = whole_number(typed[field], low=low, high=high, what=what)
        except NotANumber as refused:
            errors[field] = str(refused)
    bye_rule = typed["bye_rule"] or "winners"
    if bye_rule == "fixed" and numbers.get("bye_points") is None and "bye_points" not in errors:
        errors["bye_points"] = "Say how many points a bye is worth."
    settings = {"name": name, "best_of": numbers.get("best_of"), "min_nights": numbers.get("min_nights") or 1,
                "specials": chosen, "bye_rule": bye_rule, "bye_points": numbers.get("bye_points"),
                "improved_min_nights": numbers.get("improved_min_nights"), "last_place": typed["last_place"],
                "ratings": typed["ratings"] or "all"}
    return {**typed, "specials": chosen}, settings, errors


def read_unconfirmed(form) -> str | None:
    """The director's reason to go on past tables still to confirm: None when the form had no such field (the
    page showed none to confirm), else what was typed."""
    if "unconfirmed" not in form:
        return None
    return clean_name(str(form.get("unconfirmed", ""))[:MOST_NOTE * 4])


def read_leave(form, most_round: int) -> tuple[int | None, str | None]:
    """(the round after which an entrant leaves, or None: they stay to the end; the field's problem)."""
    typed = form.get("after", "")
    if typed in ("", "end"):
        return None, None
    try:
        return whole_number(typed, low=0, high=most_round, what="The round"), None
    except NotANumber as refused:
        return None, str(refused)
