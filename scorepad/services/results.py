"""A club night's results as they leave the room: everything a results page shows (the standings, every table's
game, the specials, the prize list, and the season's standings after it), a plain-text summary to paste into a
mail or the club's chat, and both written to a folder the owner names (a NAS share a website serves), whole or
not at all. The page itself is drawn by the web layer; what it holds is read here, once."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..core.club import SPECIALS, TIE_BREAKS, Prize, round_words
from ..core.words import number
from ..store import clubs, files
from ..store.clubs import ClubTable, Night
from ..store.seasons import Special
from .club import Place, ending_words, night_standings, result_changes
from .errors import Refused
from .seasons import SeasonPage, night_prizes, night_specials, read_night, season_of, season_page


@dataclass(frozen=True)
class NightResults:
    night: Night
    places: list[Place]
    rounds: dict[int, list[ClubTable]]
    endings: dict[int, str]  # table id -> how its round ended, in words
    changes: dict[int, list[dict]]
    specials: list[Special]
    prizes: list[Prize]
    season: SeasonPage | None
    bye_worth: str
    round_words: str
    ranked_by: str

    @property
    def final(self) -> bool:
        return self.night.closed_at is not None


def night_results(db, night: Night) -> NightResults:
    """Everything a night's results page holds. Raises Refused for a night whose standings are hidden."""
    if night.standings_hidden:
        raise Refused(f"The standings of {night.name} are hidden: reveal them first.")
    entrants = clubs.entrants(db, night.id)
    tables = clubs.tables(db, night.id)
    rounds: dict[int, list[ClubTable]] = {}
    for table in tables:
        rounds.setdefault(table.round, []).append(table)
    read = read_night(db, night)
    season = season_of(db, night)
    bye_worth = night.bye.words("team" if night.kind == "partners" else "player")
    return NightResults(night, night_standings(db, night, entrants, tables), rounds,
                        {t.id: ending_words(t, night) for t in tables}, result_changes(db, night.id),
                        night_specials(db, night), night_prizes(db, night, read),
                        season_page(db, season.id) if season else None, bye_worth,
                        round_words(night.round_end, night.round_size),
                        ", then ".join(TIE_BREAKS[k] for k in night.tie_breaks).lower())


def summary(results: NightResults) -> str:
    """The results in plain text, to paste into a mail or a chat: the standings, the prizes, the specials, and the
    season's standings after the night."""
    night = results.night
    kind = "Partners" if night.kind == "partners" else "Progressive"
    state = "final standings" if results.final else f"after round {night.round} of {night.rounds}"
    lines = [f"{night.name} · {night.created_at[:10]} · {kind} · {results.round_words} · {state}", ""]
    lines.append(f"Standings (ranked by {results.ranked_by}):")
    width = max((len(p.name) for p in results.places), default=0)
    for place in results.places:
        rounds = f"{place.rounds} round{'s' if place.rounds != 1 else ''}" + (
            f", {place.byes} bye{'s' if place.byes != 1 else ''}" if place.byes else "")
        lines.append(f"{place.rank:>3}. {place.name:<{width}}  {place.wins} win{'s' if place.wins != 1 else ''}, "
                     f"{number(place.points)} points ({rounds})")
    lines.append(f"A bye is worth {results.bye_worth}.")
    if results.prizes:
        lines += ["", "Prizes:"]
        for prize in results.prizes:
            who = ", ".join(map(str, prize.holders)) or "nobody"
            lines.append(f"  {prize.what}: {who}{_figure(prize)}")
    if results.specials:
        lines += ["", "Specials:"]
        lines += [f"  {s.player}: {SPECIALS[s.kind].lower()} (round {s.round}, table {s.table_no}, hand {s.hand})"
                  for s in results.specials]
    corrected = [(t, c) for tables in results.rounds.values() for t in tables for c in results.changes.get(t.id, ())
                 if (c["before_0"], c["before_1"]) != (c["after_0"], c["after_1"])]
    if corrected:
        lines += ["", "Results the director corrected:"]
        lines += [f"  Round {t.round}, table {t.table_no}: now {number(c['after_0'])} to {number(c['after_1'])} "
                  f"({c['note']})" for t, c in corrected]
    season = results.season
    if season is not None and (season.teams or season.players):
        ranked = season.teams if season.teams and all(n.kind == "partners" for n in season.nights) else \
            season.players
        nights = len(season.nights)
        lines += ["", f"{season.season.name} after {nights} night{'s' if nights != 1 else ''}:"]
        for line in ranked[:10]:
            place = f"{line.rank:>3}." if line.rank is not None else "   –"
            lines.append(f"{place} {line.name}  {line.wins} wins, {number(line.points)} points")
        if len(ranked) > 10:
            lines.append(f"     … and {len(ranked) - 10} more on the season's page")
    return "\n".join(lines) + "\n"


def _figure(prize: Prize) -> str:
    if prize.figure is None:
        return ""
    if prize.key == "most_improved":
        return f" (+{prize.figure:.1f})"
    if prize.key in ("high_game", "high_series"):
        return f" ({number(prize.figure)})"
    return f" (×{prize.figure})"


def file_name(night: Night) -> str:
    """The name a night's results are written under, without its extension: its date, its name as plain letters,
    and its number (two nights of one name and date are two files): "2026-11-27-tuesday-club-12"."""
    plain = unicodedata.normalize("NFKD", night.name).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:40] or "club-night"
    return f"{night.created_at[:10]}-{slug}-{night.id}"


def write_results(folder: str, night: Night, page: str, text: str,
                  index: Callable[[list[tuple[str, str]]], str]) -> list[Path]:
    """The night's results page and summary written into `folder` (which must be there already: an unplugged share
    is noticed, not made on the SD card), each whole or not at all, then the folder's `index.html`, drawn by
    `index` from every results page there (`published`). Returns the files written. Raises OSError with the
    reason when the folder cannot be written."""
    where = Path(folder)
    if not where.is_dir():
        raise FileNotFoundError(f"{folder} is not a folder here (an unplugged drive, a share not mounted?)")
    name = file_name(night)
    written = []
    for path, data in ((where / f"{name}.html", page), (where / f"{name}.txt", text)):
        files.replace_whole(path, data.encode("utf-8"))
        written.append(path)
    files.replace_whole(where / "index.html", index(published(folder)).encode("utf-8"))
    return [*written, where / "index.html"]


def published(folder: str) -> list[tuple[str, str]]:
    """The results pages in `folder`, newest first: (file name, words for its link: "2026-11-27 tuesday club")."""
    where = Path(folder)
    found = sorted((p.name for p in where.glob("*.html") if p.name != "index.html"), reverse=True)
    return [(name, f"{name[:10]} {name[11:].rsplit('-', 1)[0].replace('-', ' ')}") for name in found]
