"""A picture of a game's score sheet, as SVG: the result at the top, then every hand with each side's points and
running totals, as a family keeps it on paper. Pure, and drawn with attributes only (no style sheet, no script),
so it opens on its own as an image, prints, and draws onto a canvas for a phone to share as a PNG.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from .words import number, signed

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif"
PAPER, INK, MUTED, RULE = "#fbf8f1", "#1d2a24", "#5f6b64", "#d9d2c3"
TABLE, ON_TABLE, STRIPE = "#0f3d2e", "#ffffff", "#f3eee2"
GAINED, LOST = "#1b6b3a", "#b3261e"
NUMBER_WIDTH, WHAT_WIDTH, SIDE_WIDTH = 44, 210, 118
ROW, HEAD = 34, 118
MIN_WIDTH = 480
NAME_LETTERS = 13  # a side's name in its column: longer ones end in "…" (the title above names them whole)


@dataclass(frozen=True)
class PictureRow:
    """One hand on the picture: its number, what it was ("Ann 55 made", "Redeal"), each side's points and each
    side's total after it."""

    number: int
    what: str
    points: tuple[int, ...]
    running: tuple[int, ...]


def _cut(name: str, letters: int = NAME_LETTERS) -> str:
    return name if len(name) <= letters else name[:letters - 1].rstrip() + "…"


def _text(x: float, y: float, words: str, *, size: int = 15, weight: str = "normal", fill: str = INK,
          anchor: str = "start") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
            f'text-anchor="{anchor}">{escape(words)}</text>')


def sheet_picture(title: str, lines: tuple[str, ...], teams: tuple[str, ...], rows: list[PictureRow],
                  totals: tuple[int, ...]) -> str:
    """The SVG of a sheet: `title` ("Grands 537 : Kids 383") and up to two `lines` under it on the table's green,
    the sides' names over their columns, a row a hand, and the totals at the foot."""
    sides = len(teams)
    width = max(MIN_WIDTH, NUMBER_WIDTH + WHAT_WIDTH + SIDE_WIDTH * sides + 16)
    height = HEAD + ROW * (len(rows) + 2) + 24
    side_x = [NUMBER_WIDTH + WHAT_WIDTH + SIDE_WIDTH * (side + 1) for side in range(sides)]  # right edges
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="{escape(FONT)}" role="img" '
             f'aria-label="{escape(title)}">',
             f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
             f'<rect width="{width}" height="{HEAD - 28}" fill="{TABLE}"/>',
             _text(16, 40, title, size=26, weight="bold", fill=ON_TABLE)]
    for n, line in enumerate(lines[:2]):
        parts.append(_text(16, 66 + 20 * n, line, size=15, fill=ON_TABLE))
    y = HEAD + 2
    parts.append(_text(8, y, "#", size=13, weight="bold", fill=MUTED))
    parts.append(_text(NUMBER_WIDTH, y, "Hand", size=13, weight="bold", fill=MUTED))
    for side, team in enumerate(teams):
        parts.append(_text(side_x[side] - 8, y, _cut(team), size=13, weight="bold", fill=MUTED, anchor="end"))
    parts.append(f'<line x1="8" x2="{width - 8}" y1="{y + 10}" y2="{y + 10}" stroke="{RULE}" stroke-width="1.5"/>')
    for index, row in enumerate(rows):
        top = HEAD + 12 + ROW * index
        if index % 2:
            parts.append(f'<rect x="8" y="{top}" width="{width - 16}" height="{ROW}" fill="{STRIPE}"/>')
        base = top + ROW - 11
        parts.append(_text(8, base, str(row.number), size=14, fill=MUTED))
        parts.append(_text(NUMBER_WIDTH, base, _cut(row.what, 26), size=15))
        for side in range(sides):
            gained = row.points[side]
            colour = LOST if gained < 0 else GAINED if gained > 0 else MUTED
            parts.append(_text(side_x[side] - 62, base, signed(gained), size=13, fill=colour, anchor="end"))
            parts.append(_text(side_x[side] - 8, base, number(row.running[side]), size=15, weight="bold",
                               anchor="end"))
    foot = HEAD + 12 + ROW * len(rows)
    parts.append(f'<line x1="8" x2="{width - 8}" y1="{foot + 4}" y2="{foot + 4}" stroke="{INK}" stroke-width="2"/>')
    parts.append(_text(NUMBER_WIDTH, foot + 30, "Total", size=16, weight="bold"))
    for side in range(sides):
        parts.append(_text(side_x[side] - 8, foot + 30, number(totals[side]), size=18, weight="bold",
                           anchor="end"))
    parts.append(_text(width - 8, height - 10, "Scorepad", size=11, fill=MUTED, anchor="end"))
    parts.append("</svg>")
    return "".join(parts)
