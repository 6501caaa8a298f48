"""The one number parser and the one name check: every number and name that comes in goes through these."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.core.inputs import (
    MAX_ID,
    MAX_NAME,
    NotANumber,
    _seen,
    clean_name,
    name_key,
    name_problem,
    record_id,
    try_whole_number,
    whole_number,
)


@pytest.mark.parametrize("text, value", [
    ("25", 25), (" 25 ", 25), ("+25", 25), ("-40", -40), ("\u221280", -80), ("1,500", 1500), ("1 500", 1500),
    ("12,345,678", 12345678), ("-1,500", -1500), ("+1 500", 1500),
    ("1\u202f500", 1500), ("٣", 3), ("５０", 50), ("007", 7), ("", None), ("   ", None), (None, None), (12, 12),
])
def test_whole_numbers_are_read_as_people_type_them(text, value):
    assert whole_number(text) == value


@pytest.mark.parametrize("text", [
    "²", "2²", "½", "1.5", "1e3", "twenty", "0x10", "--5", "+", "-", "5-", "1_000", "9" * 13, "9" * 5000,
    # a separator that groups no thousands: a slip ("2 0") or a decimal comma ("1,5"), not 20 or 15
    "2 0", "1,5", "1,50", "1 5000", "1500,", ",500", "1,,500", "1234,567", "- 5",
    "\u0661\u00b2", True, 1.5, [], {},
])
def test_anything_else_is_refused_with_a_sentence(text):
    with pytest.raises(NotANumber) as refused:
        whole_number(text, what="The bid")
    assert str(refused.value).startswith("The bid ")


@pytest.mark.parametrize("text, said", [
    ("<script>x</script>", "must be a whole number"),  # longer than a score's digits, but not digits at all
    ("1234567890123x", "must be a whole number"),
    ("x" * 5000, "must be a whole number"),
    ("9" * 13, "far too large to be a score"),
    ("1 000 000 000 000 000", "far too large to be a score"),  # digits, with the spaces people type between them
])
def test_text_is_called_not_a_number_and_only_digits_too_large(text, said):
    with pytest.raises(NotANumber, match=said):
        whole_number(text, what="Us meld")


def test_bounds_are_said_in_words():
    with pytest.raises(NotANumber, match="from 0 to 50"):
        whole_number("51", low=0, high=50, what="Counters")
    with pytest.raises(NotANumber, match="at least 1"):
        whole_number("0", low=1)
    with pytest.raises(NotANumber, match="at most 9"):
        whole_number("10", high=9)
    assert whole_number("50", low=0, high=50) == 50


@pytest.mark.parametrize("text, value", [
    ("1", 1), (str(MAX_ID), None), ("0", None), ("-3", None), ("²", None), ("x", None), ("", None),
    (str(MAX_ID + 1), None), ("9" * 40, None),
])
def test_record_ids_are_positive_and_fit_sqlite(text, value):
    # MAX_ID itself has 19 digits: longer than any real id, so it is refused like every other huge string
    assert record_id(text) == value


def test_record_ids_of_sensible_size_pass():
    assert record_id("123456789012") == 123456789012
    assert try_whole_number("nope") is None


@given(st.text(max_size=60))
def test_the_parser_never_raises_anything_but_its_own_refusal(text):
    try:
        value = whole_number(text)
    except NotANumber:
        return
    assert value is None or abs(value) < 10**12


@given(st.integers(min_value=-(10**11), max_value=10**11))
def test_every_printed_number_reads_back(n):
    assert whole_number(str(n)) == n
    assert whole_number(f"{n:,}") == n
    assert whole_number(f"−{-n}" if n < 0 else str(n)) == n


@pytest.mark.parametrize("raw, kept", [
    ("  Ann  ", "Ann"), ("Ann   Marie", "Ann Marie"), ("Cafe\u0301", "Café"), (None, ""),
    ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),
])
def test_names_are_cleaned(raw, kept):
    assert clean_name(raw) == kept


@pytest.mark.parametrize("name", [
    "a" * (MAX_NAME + 1), "Ann\u202eevil", "Bo\u2066x\u2069", "Cy\x00", "Di\x1b[31m", "E\u200bd", "F\ufeff",
    "G\x7f", "H\x85",
])
def test_names_with_hidden_characters_or_too_long_are_refused(name):
    assert name_problem(name)


@pytest.mark.parametrize("name", ["Ann", "Großmutter", "José-María", "李雷", "O'Brien & Co.", "a" * MAX_NAME,
                                  "👨\u200d👩\u200d👧", "=1+1"])
def test_ordinary_names_pass(name):
    assert name_problem(name) is None


# --- one key for a name ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("one, other", [
    ("Ann", "ANN"), ("Émile", "émile"), ("E\u0301mile", "émile"), ("Ａｎｎ", "Ann"), ("Straße", "STRASSE"),
    ("Ann", "Ann\u200d"), ("Ann", "\u200dAnn"), ("Ann", "An\u200dn"), ("Ann Lee", "Ann \u200b Lee"),
    ("Ann", "Ann\u00ad"), ("Ann", "Ann\ufe0f"), ("❤️\u200d🔥", "❤\u200d🔥"), ("Ann Lee", "Ann\u3000Lee"),
    ("ශ්\u200dරී", "ශ්රී"), ("Ann", "Ann\u2060"),
])
def test_names_that_look_alike_have_one_key(one, other):
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize("one, other", [
    ("Ann", "Anne"), ("Emile", "Émile"), ("👨\u200d👩\u200d👧", "👨👩👧"), ("Ann Lee", "AnnLee"), ("Bo", "B o"),
])
def test_names_that_differ_to_the_eye_have_different_keys(one, other):
    assert name_key(one) != name_key(other)


@given(st.text(max_size=60))
def test_a_key_is_its_own_key(text):
    assert name_key(name_key(text)) == name_key(text)


@pytest.mark.parametrize("name", ["Ann\u200d", "\u200dAnn", "A\u200dnn", "👨\u200d", "\u200d👩", "Ann\u200d👩"])
def test_a_joiner_outside_an_emoji_is_refused(name):
    assert name_problem(name)


@pytest.mark.parametrize("name", ["👩🏽\u200d💻", "❤️\u200d🔥", "🏳️\u200d🌈", "ශ්\u200dරී"])
def test_a_joiner_inside_an_emoji_or_after_a_virama_passes(name):
    assert name_problem(name) is None


def test_the_key_of_a_long_run_of_joiners_takes_no_time():
    assert name_key("a" + "\ufe0f\u200d" * 100_000) == "a"


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60))
def test_a_printable_ascii_name_has_nothing_unseen_to_drop(text):
    """name_key takes such a name as it is (the ten-megabyte name of a hostile form took 17 s letter by letter)."""
    assert _seen(text) == text


def test_the_key_of_ten_megabytes_of_letters_takes_no_time():
    assert name_key("Ann " * 2_500_000) == " ".join(["ann"] * 2_500_000)
