"""A club night on paper: the rotation chart (every round, table by table, and who sits out) and a card for each
player (their table, seat, partner and opponents every round), as the movement seats those registered now: the
rounds played as they were played, the rest as planned (again, after an arrival or a departure)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.club import SEATS, ClubError
from ..store import clubs
from ..store.clubs import Night
from .club import round_plan, seatable, seating


@dataclass(frozen=True)
class ChartTable:
    table_no: int
    players: tuple[str, str, str, str]  # by seat, North East South West
    sides: tuple[str, str]  # North and South's name (a team, or the two players), East and West's


@dataclass(frozen=True)
class ChartRound:
    number: int
    tables: tuple[ChartTable, ...]
    byes: tuple[str, ...]  # who sits it out: players, or teams


@dataclass(frozen=True)
class CardLine:
    """A round on a player's card: where they sit, or a bye (table None), or not there (away)."""

    round: int
    table_no: int | None
    seat: str = ""
    partner: str = ""
    against: str = ""  # the other side: a team's name, or the two players
    away: bool = False  # not arrived yet, or left


@dataclass(frozen=True)
class GameCard:
    number: int  # the entrant's number
    name: str  # the player's
    team: str  # a partners night's team; "" on a progressive night
    lines: tuple[CardLine, ...]


def rotation_chart(db, night: Night) -> list[ChartRound]:
    """Every round of the night, table by table, as the movement seats the players registered now (the rounds
    played were seated so); [] while too few are registered to fill a table."""
    entrants = clubs.entrants(db, night.id)
    if not seatable(night, entrants):
        return []
    by_number = {e.number: e for e in entrants}
    chart = []
    try:
        planned_rounds = round_plan(night, entrants, clubs.tables(db, night.id))
    except ClubError:
        return []  # too few registered to fill a table in round 1 (an arrival's refusal keeps the rest seatable)
    for round_no, planned in enumerate(planned_rounds, start=1):
        tables = []
        for table_no, seated in enumerate(planned.tables, start=1):
            _, players, sides = seating(night.kind, seated, by_number)
            tables.append(ChartTable(table_no, players, sides))
        chart.append(ChartRound(round_no, tuple(tables), tuple(by_number[n].name for n in planned.byes)))
    return chart


def game_cards(db, night: Night) -> list[GameCard]:
    """A card for each registered player, in the order they registered: their table, seat, partner and
    opponents every round, or their bye."""
    entrants = clubs.entrants(db, night.id)
    chart = rotation_chart(db, night)
    cards = []
    for entrant in entrants:
        for name in entrant.player_names:
            lines = []
            for round_ in chart:
                table = next((t for t in round_.tables if name in t.players), None)
                if table is None:
                    lines.append(CardLine(round_.number, None, away=not entrant.present(round_.number)))
                    continue
                seat = table.players.index(name)
                lines.append(CardLine(round_.number, table.table_no, SEATS[seat], table.players[(seat + 2) % 4],
                                      table.sides[1 - seat % 2]))
            team = entrant.name if night.kind == "partners" else ""
            cards.append(GameCard(entrant.number, name, team, tuple(lines)))
    return cards
