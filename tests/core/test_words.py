"""One way to write numbers and names: the words module, and the places that must all use it."""

import re
from dataclasses import replace
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.core import meld, rules, scoring, words
from scorepad.core.chart import score_chart
from scorepad.core.inputs import MAX_DIGITS, whole_number
from scorepad.core.rules import PRESETS
from scorepad.core.rules_in_words import describe
from scorepad.core.scoring import Hand, validate_hand

# Every number `whole_number` accepts: it refuses more than MAX_DIGITS digits as "far too large to be a score".
TYPABLE = st.integers(-(10**MAX_DIGITS - 1), 10**MAX_DIGITS - 1)


@pytest.mark.parametrize(("n", "written"), [
    (0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (1500, "1,500"), (3550, "3,550"), (1234567, "1,234,567"),
    (-1, "\u22121"), (-80, "\u221280"), (-1500, "\u22121,500"),
])
def test_numbers_have_thousands_separated_and_a_true_minus_sign(n, written):
    assert words.number(n) == written


@pytest.mark.parametrize(("n", "written"), [
    (0, "+0"), (65, "+65"), (1500, "+1,500"), (-65, "\u221265"), (-1500, "\u22121,500"),
])
def test_a_change_of_score_always_carries_its_sign(n, written):
    assert words.signed(n) == written


@given(TYPABLE)
def test_every_number_written_reads_back_as_itself(n):
    assert whole_number(words.number(n)) == n
    assert whole_number(words.signed(n)) == n


@given(st.integers())
def test_no_number_is_written_with_a_hyphen_or_a_stray_separator(n):
    written = words.number(n)
    assert "-" not in written
    groups = written.lstrip(words.MINUS).split(",")
    assert 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])


@pytest.mark.parametrize(("name", "owned"), [
    ("Bidders", "Bidders'"), ("Opponents", "Opponents'"), ("Ann", "Ann's"), ("the team", "the team's"),
    ("The Joneses", "The Joneses'"),
])
def test_a_name_that_ends_in_s_takes_the_apostrophe_alone(name, owned):
    assert words.possessive(name) == owned


@pytest.mark.parametrize(("made", "kind", "automatic", "word"), [
    (True, "played", False, "made"),
    (False, "played", False, "set"),
    (None, "played", True, "auto throw-in"),
    (None, "throw_in", False, "throw-in"),
    (None, "no_marriage", False, "no marriage"),
    (None, "renege", False, "renege"),
    (None, "redeal", False, "redeal"),
])
def test_each_scored_hand_has_one_word_for_its_outcome(made, kind, automatic, word):
    assert words.outcome(made, kind, automatic) == word


def test_every_kind_of_hand_and_every_meld_table_has_its_words():
    assert tuple(words.KIND_WORDS) == scoring.KINDS
    assert tuple(words.MELD_TABLE_NAMES) == rules.MELD_TABLES == tuple(meld.TABLES)
    assert tuple(words.MELD_TABLE_TITLES) == rules.MELD_TABLES


@pytest.mark.parametrize("key", rules.MELD_TABLES)
def test_meld_tables_are_named_by_their_values_not_by_a_source_document(key):
    name = words.MELD_TABLE_NAMES[key]
    assert "values" in name and "seed" not in name and not re.search(r"\b00\d\b", name)
    assert words.MELD_TABLE_TITLES[key] == name[0].upper() + name[1:]


@pytest.mark.parametrize("key", rules.MELD_TABLES)
def test_the_rules_in_words_name_the_meld_table_as_the_pages_do(key):
    preset = next(p for p in PRESETS.values() if p.deck == meld.TABLES[key].deck)
    lines = describe(replace(preset, meld_table=key))
    assert f"Meld is counted with the {words.MELD_TABLE_NAMES[key]}, partners added together." in lines


def test_steps_and_counts_are_written_like_every_other_number():
    huge = replace(PRESETS["double-pack-bicycle"], min_bid=1500, bid_steps=((1500, 1000),), hands_limit=1000)
    lines = describe(huge)
    assert "The minimum bid is 1,500; bids go up in multiples of 1,000." in lines
    assert lines[-1].startswith("The game is 1,000 hands")
    errors = validate_hand(huge, Hand(bidder=0, bid=2500, meld=(1005, 0), counters=(250, 250)))
    assert errors["meld_0"] == "Meld is counted in steps of 10: 1,000 or 1,010, not 1,005."


def test_the_chart_writes_its_numbers_as_the_pages_do():
    svg = score_chart([(-1500, 250), (-900, 3550)], 3550, [], ("Us", "Them"))
    root = ElementTree.fromstring(svg)
    ticks = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "\u22121,500" in ticks and "3,550" in ticks
    assert root.get("aria-label") == "Score chart: Us \u2212900, Them 3,550 after 2 hands."


def test_teams_are_numbered_once_from_0_in_data_and_from_1_for_people():
    assert words.TEAM_NAMES == (words.team_name(0), words.team_name(1)) == ("Team 1", "Team 2")
    assert words.team_in_data(1) == "team 1 (Team 2)"


@pytest.mark.parametrize(("place", "said"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"),
                                             (12, "12th"), (13, "13th"), (21, "21st"), (22, "22nd"), (101, "101st"),
                                             (111, "111th")])
def test_a_place_reads_as_it_is_said(place, said):
    assert words.ordinal(place) == said


@pytest.mark.parametrize(("field", "message", "said"), [
    ("meld_1", "Meld can't be negative.", "Them meld can't be negative."),
    ("meld_0", "Meld must be a whole number (0 or more).", "Us meld must be a whole number (0 or more)."),
    ("counters_0", "Counters are counted in steps of 10: 120 or 130, not 125.",
     "Us counters are counted in steps of 10: 120 or 130, not 125."),
    ("counters_1", "60 counters is more than the whole hand holds; the most is 50.",
     "Them counters: 60 counters is more than the whole hand holds; the most is 50."),
    ("meld_0", "A meld of 5,000 is more than any hand can hold; one hand melds at most 914.",
     "Us meld: 5,000 is more than any hand can hold; one hand melds at most 914."),
    # not a side's own box, or a side the table does not have: as it is
    ("bid", "Bid must be at least 50.", "Bid must be at least 50."),
    ("counters", "Counters must add up to 50; these add up to 55.", "Counters must add up to 50; these add up to 55."),
    ("meld_2", "Meld can't be negative.", "Meld can't be negative."),
    ("meld_\u00b2", "Meld can't be negative.", "Meld can't be negative."),  # "²" is a digit to isdigit, not to int
    ("meld_-1", "Meld can't be negative.", "Meld can't be negative."),
    ("dix_only_0", "Tick it only with a meld of 10 or 20.", "Tick it only with a meld of 10 or 20."),
])
def test_a_sentence_about_a_sides_box_says_whose_box_it_is(field, message, said):
    assert words.whose(field, message, ("Us", "Them")) == said
