"""An edit's summary, stored as text when the edit was made, is shown with its amounts written the one way
(thousands separated), however old it is; names in it are left as typed."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.core.words import edit_summary, number


@pytest.mark.parametrize(("stored", "shown"), [
    ("Bid 1000 → 1050", "Bid 1,000 → 1,050"),
    ("Meld 1200 : 40 → 1300 : 40; Counters 250 : 250 → 260 : 240", "Meld 1,200 : 40 → 1,300 : 40; "
                                                                    "Counters 250 : 250 → 260 : 240"),
    ("Counters — : 12345 → 250 : 250", "Counters — : 12,345 → 250 : 250"),
    ("Bid 1,000 → 1,050", "Bid 1,000 → 1,050"),  # written since the change: as it is
    ("Bidder Table 1000 → Us; Bid 55 → 60", "Bidder Table 1000 → Us; Bid 55 → 60"),  # a name keeps its digits
    ("Reneged — → 2024 Club", "Reneged — → 2024 Club"),
    ("Meld only the dix no → Us", "Meld only the dix no → Us"),
    ("Kind played → renege", "Kind played → renege"),
    ("Trump none → H", "Trump none → ♥ hearts"),  # stored before trump was written in words
    ("Bid 50 → 55; Trump S → none", "Bid 50 → 55; Trump ♠ spades → none"),
    ("Trump ♦ diamonds → ♣ clubs", "Trump ♦ diamonds → ♣ clubs"),
    ("", ""),
])
def test_a_stored_summary_is_shown_with_its_amounts_written_the_one_way(stored, shown):
    assert edit_summary(stored) == shown


AMOUNTS = st.lists(st.integers(0, 10**9), min_size=4, max_size=4)


@given(amounts=AMOUNTS)
def test_a_summary_written_before_or_after_the_change_reads_the_same(amounts):
    a, b, c, d = amounts
    old = f"Bid {a} → {b}; Meld {c} : {d} → {d} : {c}"
    new = f"Bid {number(a)} → {number(b)}; Meld {number(c)} : {number(d)} → {number(d)} : {number(c)}"
    assert edit_summary(old) == edit_summary(new) == new
