"""Partials that state their inputs are macros (`{% from "_game_item.html" import game_item %}`): such a file
renders nothing when included, so an include of it would leave a hole in the page without an error."""

import re

from tests.helpers import ROOT

TEMPLATES = ROOT / "templates"
OUTSIDE_MACROS = re.compile(r"\{#.*?#\}|\{%-?\s*(?:from|import)\b.*?%\}|\{%-?\s*macro\b.*?\{%-?\s*endmacro\s*-?%\}",
                            re.S)


def macros_only() -> set[str]:
    """The templates that hold nothing but macros (and comments and imports)."""
    return {path.name for path in TEMPLATES.glob("*.html")
            if "{% macro" in path.read_text() and not OUTSIDE_MACROS.sub("", path.read_text()).strip()}


def test_the_partials_that_are_macros_are_imported_never_included():
    only = macros_only()
    assert {"_macros.html", "_game_item.html", "_record_table.html", "_rules_list.html", "_figures.html",
            "_club_standings.html", "_hand_fields.html", "_preview.html", "_club_round_actions.html",
            "_club_season_standings.html", "_club_prizes.html", "_club_specials_list.html",
            "_club_special_choices.html"} <= only
    included = {(path.name, name) for path in TEMPLATES.glob("*.html")
                for name in re.findall(r"\{%-?\s*include\s+[\"']([^\"']+)[\"']", path.read_text()) if name in only}
    assert included == set()


def test_no_include_is_handed_its_inputs_by_a_with_or_a_set_just_before_it():
    # what a partial needs is a macro's parameters, not names bound around its include
    bound = re.compile(r"\{%-?\s*(?:with|set)\b[^%]*%\}\s*\{%-?\s*include\b")
    assert [path.name for path in TEMPLATES.glob("*.html") if bound.search(path.read_text())] == []
