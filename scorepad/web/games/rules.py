"""The rules page: every preset's rules in words."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from ...core.rules import PRESETS
from ...core.rules_in_words import describe

bp = Blueprint("rules", __name__, url_prefix="/rules")


@bp.get("/")
def all_presets():
    presets = [(key, rules, describe(rules)) for key, rules in PRESETS.items()]
    return render_template("games/rules.html", presets=presets)


@bp.get("/<preset>")
def one_preset(preset: str):
    rules = PRESETS.get(preset)
    if rules is None:
        abort(404)
    return render_template("games/rules.html", presets=[(preset, rules, describe(rules))])
