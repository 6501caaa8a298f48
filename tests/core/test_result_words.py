"""A result in one line for the family chat, and a picture of the sheet: pure, from the numbers."""

import xml.etree.ElementTree as ET
from datetime import date

import pytest

from scorepad.core.sheet_picture import PictureRow, sheet_picture
from scorepad.core.words import result_line

FRIDAY = date(2026, 11, 27)


@pytest.mark.parametrize(("teams", "totals", "winner", "hands", "abandoned", "line"), [
    (("Grands", "Kids"), (537, 383), 0, 13, False, "Grands 537 : Kids 383 — Grands won, 13 hands, Fri 27 Nov"),
    (("Us", "Them"), (1520, -80), 0, 1, False, "Us 1,520 : Them −80 — We won, 1 hand, Fri 27 Nov"),
    (("Ann", "Bob", "Cy"), (410, 1510, 990), 1, 20, False,
     "Ann 410 : Bob 1,510 : Cy 990 — Bob won, 20 hands, Fri 27 Nov"),
    (("Us", "Them"), (320, 280), None, 8, True, "Us 320 : Them 280 — ended unfinished, 8 hands, Fri 27 Nov"),
    (("Us", "Them"), (0, 0), None, 0, False, "Us 0 : Them 0 — 0 hands so far, Fri 27 Nov"),
])
def test_a_result_reads_as_one_line_for_the_family_chat(teams, totals, winner, hands, abandoned, line):
    assert result_line(teams, totals, winner, hands, FRIDAY, abandoned) == line


def test_a_game_of_no_known_date_says_none():
    assert result_line(("Us", "Them"), (510, 0), 0, 1, None) == "Us 510 : Them 0 — We won, 1 hand"


def picture(teams=("Grands", "Kids"), rows=3):
    hands = [PictureRow(n, f"Ann {50 + n} made", (60, -20), (60 * n, -20 * n)) for n in range(1, rows + 1)]
    return sheet_picture("Grands 180 : Kids −60", ("Grands won · 3 hands", "Fri 27 Nov 2026 · Double deck"), teams,
                         hands, (180, -60))


def test_the_picture_is_an_svg_with_a_row_a_hand_and_the_totals_at_its_foot():
    svg = ET.fromstring(picture())
    words = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert words[:3] == ["Grands 180 : Kids −60", "Grands won · 3 hands", "Fri 27 Nov 2026 · Double deck"]
    assert [w for w in words if w.startswith("Ann")] == ["Ann 51 made", "Ann 52 made", "Ann 53 made"]
    assert words[-4:] == ["Total", "180", "−60", "Scorepad"]
    assert int(svg.get("height")) > 3 * 30


def test_the_pictures_size_follows_the_hands_and_the_sides():
    small, long = ET.fromstring(picture(rows=1)), ET.fromstring(picture(rows=40))
    assert int(long.get("height")) - int(small.get("height")) == 39 * 34
    three = ET.fromstring(sheet_picture("x", (), ("A", "B", "C"), [PictureRow(1, "A 50 made", (1, 2, 3), (1, 2, 3))],
                                        (1, 2, 3)))
    assert int(three.get("width")) > int(small.get("width"))


def test_names_are_written_as_text_never_as_markup_and_long_ones_are_cut_in_their_column():
    svg = picture(teams=('<script>alert("x")</script>', "Kids & Co, the youngest of the family"))
    assert "<script>" not in svg
    words = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert "<script>aler…" in words and "Kids & Co, t…" in words
