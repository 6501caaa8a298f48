"""The players' page's form: a name put right."""

from __future__ import annotations

from ...core.inputs import clean_name, name_problem


def parse_player_name(text: str) -> tuple[str, str | None]:
    """(A player's name as it will be kept, what is wrong with it or None)."""
    name = clean_name(text)
    if not name:
        return name, "A player needs a name."
    return name, name_problem(name, "A player's name")
