"""What strangers type, read once: whole numbers, ids and names. Pure: no Flask, no database.

Every number that comes in (a form field, a query argument, a path the router did not type) goes through
`whole_number` or `record_id`, so "²", "٣", a 5,000-digit string and an id past SQLite's 64 bits are all
answered the same way everywhere: a message for the player, never an exception from `int()` or SQLite.
"""

from __future__ import annotations

import re
import unicodedata

MAX_DIGITS = 12  # no score, bid or count comes near a trillion; a longer string is refused before int() sees it
MAX_ID = 2**63 - 1  # SQLite's largest integer: an id beyond it cannot name a row
MAX_NAME = 40  # a team or player name: fits a phone's score header and a printed sheet

# Separators people type inside numbers ("1,500", "1 500", a thin space) and the signs they type before them.
_SEPARATORS = re.compile(r"[,\u00a0\u2009\u202f ]")
_MINUS = ("-", "\u2212")  # hyphen-minus, and the true minus sign the app itself prints


class NotANumber(ValueError):
    """What was typed is not a whole number in range; `str()` is a sentence for the player."""


class FarTooLarge(NotANumber):
    """Digits past `MAX_DIGITS`: a number, but none a score could be (the form says so, not "not a number")."""


def whole_number(text: object, *, low: int | None = None, high: int | None = None,
                 what: str = "This") -> int | None:
    """A whole number from what was typed, or None for a blank. Raises `NotANumber` with a player's sentence.

    Digits of any script that Unicode counts as decimal ("٣", "５") read as their value; "²", fractions and
    words are refused, as is anything past `MAX_DIGITS` digits or outside [low, high].
    """
    if text is None:
        return None
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise NotANumber(f"{what} must be a whole number.")
    if isinstance(text, int):
        value = text
    else:
        value = _read(text, what)
        if value is None:
            return None
    if low is not None and value < low:
        raise NotANumber(f"{what} must be at least {low}." if high is None
                         else f"{what} must be from {low} to {high}.")
    if high is not None and value > high:
        raise NotANumber(f"{what} must be at most {high}." if low is None
                         else f"{what} must be from {low} to {high}.")
    return value


def _read(text: str, what: str) -> int | None:
    stripped = text.strip()
    cleaned = _SEPARATORS.sub("", stripped)
    if not cleaned:
        return None
    if cleaned != stripped and not _grouped(stripped):
        # a separator that groups no thousands ("2 0", "1,5"): a slip of the thumb or a decimal comma, never read
        # as the digits run together (20, 15) without a word
        raise NotANumber(f"{what} must be one whole number: a space or comma inside it only groups thousands "
                         f"(like 1,500).")
    sign = 1
    if cleaned[0] in _MINUS:
        sign, cleaned = -1, cleaned[1:]
    elif cleaned[0] == "+":
        cleaned = cleaned[1:]
    if not cleaned:
        raise NotANumber(f"{what} must be a whole number.")
    digits = []
    for char in cleaned:  # every character first: "<script>x</script>" is not a number, however long
        digit = unicodedata.decimal(char, None)
        if digit is None:
            raise NotANumber(f"{what} must be a whole number, written with digits (like 25).")
        digits.append(str(digit))
    if len(digits) > MAX_DIGITS:
        raise FarTooLarge(f"{what} is far too large to be a score.")
    return sign * int("".join(digits))


def _grouped(text: str) -> bool:
    """Whether each separator in `text` groups thousands: one to three digits, then groups of three ("1,500",
    "12 345 678"), one sign before them allowed."""
    body = text[1:] if text[:1] in _MINUS or text[:1] == "+" else text
    groups = _SEPARATORS.split(body)
    return 1 <= len(groups[0]) <= 3 and all(len(group) == 3 for group in groups[1:])


def try_whole_number(text: object, **bounds) -> int | None:
    """`whole_number`, with every refusal read as "not given" (for optional query arguments and filters)."""
    try:
        return whole_number(text, **bounds)
    except NotANumber:
        return None


def record_id(text: object) -> int | None:
    """A row id from a form or query argument (1 to 2^63 − 1), or None for anything else."""
    return try_whole_number(text, low=1, high=MAX_ID)


# Characters that have no place in a name: controls (C0, C1, DEL), and the bidi overrides and isolates that
# can make a name display as something else (the "Trojan Source" family), plus zero-width spaces that make
# two names look the same. The zero-width joiner stays: emoji such as a family of three are built with it.
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_INVISIBLE = set("\u200b\u200c\u2060\ufeff")
_JOINER = "\u200d"


def clean_name(text: object) -> str:
    """A name as it will be kept: NFC-normalised, spaces collapsed and trimmed. Check it with `name_problem`."""
    if not isinstance(text, str):
        return ""
    return " ".join(unicodedata.normalize("NFC", text).split())


def name_problem(name: str, what: str = "A name", most: int = MAX_NAME) -> str | None:
    """None when `name` (already cleaned) may be kept, else what is wrong with it, for the player. `most`: its
    length at most (a name's; a note beside a result may be longer)."""
    if len(name) > most:
        return f"{what} can be at most {most} characters."
    for at, char in enumerate(name):
        if char == _JOINER and (_joins_emoji(name, at) or _after_virama(name, at)):
            continue
        if char in _BIDI or char in _INVISIBLE or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            return f"{what} can hold letters, digits, spaces and punctuation, but not invisible or control " \
                   f"characters."
    return None


# Invisible characters that only change how the one before them is drawn: variation selectors (text or emoji
# style), the combining grapheme joiner, Mongolian variation selectors. Two names that differ by one of these
# look alike, so the key leaves them out; an emoji's skin tone is a character of its own and is kept.
_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef\u034f\u180b-\u180f\u17b4\u17b5"
                        "\u115f\u1160\u3164\uffa0]")
_SKIN_TONES = range(0x1F3FB, 0x1F400)


def _pictograph(char: str) -> bool:
    return unicodedata.category(char) == "So" or ord(char) in _SKIN_TONES


def _joins_emoji(text: str, at: int) -> bool:
    """Whether the joiner at `at` stands between two emoji (a family, a profession, a flag): looking past any
    variation selector, as in "❤️‍🔥"."""
    before, after = at - 1, at + 1
    while before >= 0 and _SELECTORS.match(text[before]):
        before -= 1
    while after < len(text) and _SELECTORS.match(text[after]):
        after += 1
    return before >= 0 and after < len(text) and _pictograph(text[before]) and _pictograph(text[after])


def _after_virama(text: str, at: int) -> bool:
    """Whether the joiner at `at` follows a virama (Sinhala, Malayalam, Devanagari write some letters so)."""
    return at > 0 and unicodedata.combining(text[at - 1]) == 9


def name_key(name: str) -> str:
    """The one key two names are the same name by, everywhere (the store's players, a table's seats, a night's
    registrations, an imported file): compatibility-normalised (NFKC: "Ａｎｎ" is "Ann"), case-folded ("Émile"
    is "émile", "STRASSE" is "straße"), without what cannot be seen (format characters such as a stray
    zero-width joiner, variation selectors), spaces collapsed. A zero-width joiner between two emoji stays: it
    makes them one picture, and a different one from the two side by side."""
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    text = _SELECTORS.sub("", text)
    if not (text.isascii() and text.isprintable()):  # else nothing unseen to drop: ten megabytes in a moment
        text = _seen(text)
    return " ".join(text.split())


def _seen(text: str) -> str:
    """`text` without its control and format characters, but a joiner that makes two emoji one picture."""
    return "".join(char for at, char in enumerate(text)
                   if (char == _JOINER and _joins_emoji(text, at))
                   or (char != _JOINER and unicodedata.category(char) not in ("Cc", "Cf")))
