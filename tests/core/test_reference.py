"""The rules reference is written from the code: every preset's options, rules in words and meld table."""

from dataclasses import fields
from pathlib import Path

import pytest

import scorepad
from scorepad.core.meld import DECK_COPIES, TABLES
from scorepad.core.reference import rules_reference
from scorepad.core.rules import PRESETS
from scorepad.core.rules_in_words import describe
from scorepad.core.scoring import Hand, score_hand
from scorepad.core.words import MELD_TABLE_NAMES, number

REFERENCE = rules_reference()


def section(heading: str) -> str:
    """The text under a `## heading`, up to the next one."""
    return REFERENCE.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("key", PRESETS)
def test_each_preset_has_its_title_who_plays_it_and_every_option(key):
    rules = PRESETS[key]
    text = section(rules.title)
    assert f"Preset `{key}`. {rules.played_by}" in text
    for option in fields(rules):
        if option.name not in ("preset", "title", "played_by"):
            assert f"| `{option.name}` | " in text
    assert f"| `target` | {number(rules.target)} |" in text


@pytest.mark.parametrize("key", PRESETS)
def test_each_preset_has_its_rules_in_words_in_order(key):
    text = section(PRESETS[key].title)
    listed = [line[2:] for line in text.split("### The rules in words\n\n", 1)[1].splitlines()
              if line.startswith("- ")]
    assert listed == describe(PRESETS[key])


@pytest.mark.parametrize("key", PRESETS)
def test_each_preset_has_its_meld_table_with_a_column_per_copy_the_deck_holds(key):
    table = TABLES[PRESETS[key].meld_table]
    copies = DECK_COPIES[table.deck]
    text = section(PRESETS[key].title)
    assert f"### Meld table: {MELD_TABLE_NAMES[table.name]}\n" in text
    for rank, name in (("A", "Aces"), ("J", "Jacks")):
        values = " | ".join(number(v) for v in table.arounds[rank][:copies])
        assert f"| {name} around | {values} |" in text
    assert f"| Marriage (K and Q of another suit) | {number(table.marriage)} |" in text


def test_a_meld_table_no_preset_uses_is_listed_for_house_rules():
    assert f"### Meld table: {MELD_TABLE_NAMES['004-plain']}\n" in section("Meld tables for house rules")


def test_the_quadruple_run_that_wins_the_game_says_so():
    assert "| Run in trump (A, 10, K, Q, J) | 15 | 150 | 300 | wins the game |" in section(PRESETS["double-deck"].title)


@pytest.mark.parametrize(("hand", "bidders", "opponents"), [
    (Hand(bidder=0, bid=55, meld=(30, 12), counters=(28, 22)), "+58", "+22"),
    (Hand(bidder=0, bid=65, meld=(40, 30), counters=(24, 26)), "\u221265", "+56"),
])
def test_how_a_hand_is_scored_shows_the_code_s_own_explanations(hand, bidders, opponents):
    text = section("How a hand is scored")
    assert f"bidders {bidders}, opponents {opponents}." in text
    for line in score_hand(PRESETS["double-deck"], hand).explanation:
        assert f"> {line}\n" in text


def test_the_reference_is_the_same_text_every_time_and_ends_with_one_newline():
    assert rules_reference() == REFERENCE
    assert REFERENCE.endswith("|\n") and not REFERENCE.endswith("\n\n")


def test_the_code_cites_no_document_that_is_not_in_the_repository():
    package = Path(scorepad.__file__).parent
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for citation in ("RULES.md", "§", "seed 0"):
            assert citation not in text, f"{path.relative_to(package)} cites {citation!r}: cite docs/rules.md"


@pytest.mark.parametrize("heading", ["## How a hand is scored", "### Options", "### The rules in words",
                                     "### Meld table: "])
def test_the_headings_the_docstrings_cite_are_in_the_reference(heading):
    assert f"\n{heading}" in REFERENCE


@pytest.mark.parametrize("key", PRESETS)
def test_the_throw_in_award_option_says_what_a_throw_in_gives_for_the_cards(key):
    rules = PRESETS[key]
    row = next(line for line in section(rules.title).splitlines() if line.startswith("| `throw_in_award` |"))
    if rules.throw_in_award in ("meld_plus_bonus", "meld_plus_half_bonus"):
        assert f"plus {number(rules.throw_in_bonus)} for the cards" in row
    # three-handed double: 100 of a 500-point hand on a throw-in, where a renege gives 200
    assert PRESETS["three-handed-double"].throw_in_bonus == 100
