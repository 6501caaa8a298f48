"""Finding the club night a page is about, and who may change it: the night's director (the browser that made it,
or one that opened its director's link) and what a browser's session remembers of a night. Below both the night's
views and the season's pages, which both need them."""

from __future__ import annotations

import hashlib
import secrets

from flask import abort, current_app, render_template, request, session

from ...services import club, seasons
from ..shell.database import get_db


def night_mark(night) -> str:
    """What a browser's session remembers a night by. Not its id: a restore can give a new night an id an old
    night had, and a browser that directed (or chose a player on) the old one must not carry that over to the
    new one. The mark is drawn from the night's random director's key, so no other night has it; it is a hash,
    so a phone's session never carries the key itself."""
    return hashlib.sha256(f"scorepad night {night.director_key}".encode()).hexdigest()[:32]


def remembered(name: str) -> dict:
    """A night-keyed dict of the session: {str(night id): [mark, ...]}. Sessions from before marks kept bare
    ids (a list, or a player id per night): those are forgotten, and the director opens the link again."""
    kept = session.get(name)
    return kept if isinstance(kept, dict) else {}


def remember(name: str, night, value, most: int) -> None:
    """Remember `value` for this night under its mark, keeping the `most` latest nights."""
    kept = [(k, v) for k, v in remembered(name).items() if k != str(night.id)][-(most - 1):]
    session[name] = {**dict(kept), str(night.id): [night_mark(night), value]}


def recalled(name: str, night):
    """What was remembered for this very night (not merely one with its id), or None."""
    kept = remembered(name).get(str(night.id))
    if isinstance(kept, list) and len(kept) == 2 and same_text(str(kept[0]), night_mark(night)):
        return kept[1]
    return None


def same_text(given: str, kept: str) -> bool:
    """Whether `given` (typed or sent by a stranger: any characters) is `kept`, in constant time. As bytes: the
    standard library's comparison refuses a str with a character beyond ASCII (a TypeError, so a 500)."""
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), kept.encode("utf-8", "surrogatepass"))


def direct(night) -> None:
    """This device directs the night from now on."""
    remember("club_director", night, True, 20)


def directing(night) -> bool:
    return recalled("club_director", night) is True


def night_or_404(night_id: int):
    night = club.night(get_db(), night_id)
    if night is None:
        abort(404)
    return night


def shown_night(night_id: int):
    """The night, for a page that shows its standings: one whose director hid them is a page in words (403) to
    everyone but its director, until they are revealed."""
    night = night_or_404(night_id)
    if night.standings_hidden and not directing(night):
        abort(current_app.response_class(render_template(
            "error.html", title="The standings are hidden",
            message=f"The director of {night.name} hides its standings until they are revealed (at the "
                    "prize-giving): look again then."), status=403))
    return night


def directed(night_id: int):
    """The night, for a device that directs it (the one that made it, or one that opened its director's key)."""
    night = night_or_404(night_id)
    key = request.args.get("key", "")
    if key and same_text(key, night.director_key):
        direct(night)
    elif not directing(night):
        # in words, not a bare "Forbidden": a director whose browser forgot the night must learn the way back
        abort(current_app.response_class(render_template("club/not_director.html", night=night), status=403))
    return night


def season_director(season):
    """The night whose director directs the season (the night it was started from, or its first), or None."""
    night_id = seasons.directing_night(get_db(), season)
    return club.night(get_db(), night_id) if night_id is not None else None


def directs_season(season) -> bool:
    """Whether this browser directs the season: it directs the night that directs the season. A throwaway night's
    director directs that night only."""
    night = season_director(season)
    return night is not None and directing(night)


def not_season_director_words(season) -> str:
    night = season_director(season)
    by = f"the director of {night.name}" if night else "its director"
    return (f"Only the director of {season.name} changes its settings or starts a new season: {by}, the night it "
            "was started from (or its first). Their browser, or that night's director's link, does it.")
