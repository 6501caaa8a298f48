"""Partials that state their inputs are macros (`{% from "games/_game_item.html" import game_item %}`): such a file
renders nothing when included, so an include of it would leave a hole in the page without an error."""

import re

from tests.helpers import ROOT

TEMPLATES = ROOT / "templates"
OUTSIDE_MACROS = re.compile(r"\{#.*?#\}|\{%-?\s*(?:from|import)\b.*?%\}|\{%-?\s*macro\b.*?\{%-?\s*endmacro\s*-?%\}",
                            re.S)


def _name(path) -> str:
    """A template's name as `render_template` and `include` give it: its path under templates/."""
    return path.relative_to(TEMPLATES).as_posix()


def macros_only() -> set[str]:
    """The templates that hold nothing but macros (and comments and imports)."""
    return {_name(path) for path in TEMPLATES.rglob("*.html")
            if "{% macro" in path.read_text() and not OUTSIDE_MACROS.sub("", path.read_text()).strip()}


def test_the_partials_that_are_macros_are_imported_never_included():
    only = macros_only()
    assert {"_macros.html", "games/_game_item.html", "games/_rules_list.html", "games/_hand_fields.html",
            "games/_preview.html", "history/_record_table.html", "history/_figures.html", "club/_standings.html",
            "club/_round_actions.html", "club/_season_standings.html", "club/_prizes.html",
            "club/_specials_list.html", "club/_special_choices.html"} <= only
    included = {(_name(path), name) for path in TEMPLATES.rglob("*.html")
                for name in re.findall(r"\{%-?\s*include\s+[\"']([^\"']+)[\"']", path.read_text()) if name in only}
    assert included == set()


def test_no_include_is_handed_its_inputs_by_a_with_or_a_set_just_before_it():
    # what a partial needs is a macro's parameters, not names bound around its include
    bound = re.compile(r"\{%-?\s*(?:with|set)\b[^%]*%\}\s*\{%-?\s*include\b")
    assert [_name(path) for path in TEMPLATES.rglob("*.html") if bound.search(path.read_text())] == []
