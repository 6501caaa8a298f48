"""A game's score chart as inline SVG: each side's running total hand by hand, the target, sets marked. Pure; no
chart library and no JavaScript, so it draws on any phone and prints."""

from __future__ import annotations

from html import escape

from .words import number

WIDTH, HEIGHT = 360, 200
# The drawing is scaled to the phone's width (about 330 px of 360 at 390 px wide): labels of 16 units show at
# about 15 px, readable at arm's length. The margins leave room for a label like "−1,000" at that size.
FONT = 16
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 56, 12, 18, 28
# Each side's line has its own stroke as well as its own colour, so a colour-blind player can follow it: solid,
# long dashes, dots (the target's line is short even dashes). The legend under the chart draws the same.
DASHES = ("none", "10 5", "2 5")


def score_chart(running: list[tuple[int, ...]], target: int | None, sets: list[tuple[int, int]],
                teams: tuple[str, ...]) -> str:
    """`running`: totals after each hand, one per side; `sets`: (hand index, team) where that team was set.
    One line a side."""
    points = [(0,) * len(teams), *running]
    values = [v for pair in points for v in pair] + ([target] if target else [])
    low, high = min(0, *values), max(1, *values)
    span = high - low or 1
    last = max(1, len(points) - 1)

    def x(i: int) -> float:
        return round(PAD_LEFT + (WIDTH - PAD_LEFT - PAD_RIGHT) * i / last, 1)

    def y(v: int) -> float:
        return round(PAD_TOP + (HEIGHT - PAD_TOP - PAD_BOTTOM) * (high - v) / span, 1)

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'font-size="{FONT}" aria-label="{escape(_summary(running, teams))}" xmlns="http://www.w3.org/2000/svg">']
    parts.append(f'<line class="axis" x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{y(0)}" y2="{y(0)}"/>')
    for v in _ticks(low, high, y, target):
        parts.append(f'<text class="tick" x="{PAD_LEFT - 4}" y="{y(v) + FONT // 3}" text-anchor="end">'
                     f'{number(v)}</text>')
    if target:
        parts.append(f'<line class="target" x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{y(target)}" '
                     f'y2="{y(target)}"/>')
        # written on the axis, beside the other totals, once: at the right it sat on the winner's line end
        parts.append(f'<text class="tick target-label" x="{PAD_LEFT - 4}" y="{y(target) + FONT // 3}" '
                     f'text-anchor="end">{number(target)}</text>')
    for team in range(len(teams)):
        path = " ".join(f"{x(i)},{y(p[team])}" for i, p in enumerate(points))
        parts.append(f'<polyline class="line team-{team}" stroke-dasharray="{DASHES[team % len(DASHES)]}" '
                     f'points="{path}"/>')
    for index, team in sets:
        px, py = x(index + 1), y(points[index + 1][team])
        parts.append(f'<circle class="set-mark" cx="{px}" cy="{py}" r="5"><title>{escape(teams[team])} set '
                     f'on hand {index + 1}</title></circle>')
    parts.append(f'<text class="tick" x="{PAD_LEFT}" y="{HEIGHT - 6}">hand 0</text>')
    parts.append(f'<text class="tick" x="{WIDTH - PAD_RIGHT}" y="{HEIGHT - 6}" text-anchor="end">'
                 f'hand {len(running)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _ticks(low: int, high: int, y, target: int | None = None) -> list[int]:
    """The totals written on the axis: 0, and the lowest and highest where each stands clear of the ones already
    written (a "−40" just under the "0" would print over it) and of the target's, which is written apart."""
    ticks = [0]
    for v in (high, low):
        if all(abs(y(v) - y(t)) >= FONT + 2 for t in [*ticks, *([target] if target else [])]):
            ticks.append(v)
    return sorted(ticks)


def _summary(running, teams) -> str:
    if not running:
        return "No hands yet."
    totals = ", ".join(f"{team} {number(total)}" for team, total in zip(teams, running[-1], strict=True))
    return f"Score chart: {totals} after {len(running)} hands."


# A rating chart draws at most this many points: a player of a thousand games gets a line the phone can draw, and
# the drawing is no wider than the phone's pixels anyway.
MOST_POINTS = 240


def rating_chart(steps: list[tuple[float, float]], start: tuple[float, float]) -> str:
    """A player's rating game by game: `steps` (mu, sigma) after each game, from `start` (before the first). The
    line is the rating; the shaded band around it, two sigmas either side, narrows as the rating grows surer."""
    points = _thinned([start, *steps])
    games = len(steps)
    low = min(mu - 2 * sigma for _, mu, sigma in points)
    high = max(mu + 2 * sigma for _, mu, sigma in points)
    span = high - low or 1

    def x(game: int) -> float:
        return round(PAD_LEFT + (WIDTH - PAD_LEFT - PAD_RIGHT) * game / max(1, games), 1)

    def y(v: float) -> float:
        return round(PAD_TOP + (HEIGHT - PAD_TOP - PAD_BOTTOM) * (high - v) / span, 1)

    upper = [f"{x(g)},{y(mu + 2 * sigma)}" for g, mu, sigma in points]
    lower = [f"{x(g)},{y(mu - 2 * sigma)}" for g, mu, sigma in reversed(points)]
    summary = (f"Rating chart: from {start[0]:.1f} to {points[-1][1]:.1f} over {games} game"
               f"{'s' if games != 1 else ''}, shaded two sigmas either side.")
    parts = [f'<svg class="chart rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" font-size="{FONT}" '
             f'aria-label="{escape(summary)}" xmlns="http://www.w3.org/2000/svg">',
             f'<polygon class="band" points="{" ".join(upper + lower)}"/>',
             f'<line class="axis" x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{y(start[0])}" y2="{y(start[0])}"/>',
             f'<polyline class="line team-0" points="{" ".join(f"{x(g)},{y(mu)}" for g, mu, _ in points)}"/>']
    ticks = [start[0]]
    for v in (high, low):
        if all(abs(y(v) - y(t)) >= FONT + 2 for t in ticks):
            ticks.append(v)
    for v in sorted(ticks):  # round(), not :.0f, which writes -0.3 as "-0"
        parts.append(f'<text class="tick" x="{PAD_LEFT - 4}" y="{y(v) + FONT // 3}" '
                     f'text-anchor="end">{round(v)}</text>')
    parts.append(f'<text class="tick" x="{PAD_LEFT}" y="{HEIGHT - 6}">game 0</text>')
    parts.append(f'<text class="tick" x="{WIDTH - PAD_RIGHT}" y="{HEIGHT - 6}" text-anchor="end">game {games}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _thinned(ratings: list[tuple[float, float]]) -> list[tuple[int, float, float]]:
    """(game number, mu, sigma), every one up to MOST_POINTS, else evenly chosen ones with the first and last."""
    numbered = [(g, mu, sigma) for g, (mu, sigma) in enumerate(ratings)]
    if len(numbered) <= MOST_POINTS:
        return numbered
    step = (len(numbered) - 1) / (MOST_POINTS - 1)
    return [numbered[round(i * step)] for i in range(MOST_POINTS)]
