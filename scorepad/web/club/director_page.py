"""The director's page of a club night, as every form on it answers: the night's round, tables, entrants, claims
and standings, its season's card and the director's link. Below the night's views and the season's pages, whose
refused forms both come back on it."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import current_app, render_template, request, session, url_for

from ...core.club import DERIVED, SPECIALS, TALLIED, round_words, time_up
from ...services import club, seasons
from ..shell.addresses import lan_addresses
from ..shell.database import get_db
from . import forms

SPECIAL_HINTS = {"double_pinochle": "two Q♠ and two J♦ in one hand", "double_aces": "two aces of every suit",
                 "double_run": "two runs in trump", "high_game": "the most points in one game, counted for you",
                 "high_series": "the most points over a night, counted for you"}


def director_page(night, values=None, errors=None, message=None, status=200):
    """The director's page, with what a refused form typed (`values`), its fields' problems and a message."""
    registered = session.pop("club_registered", None)
    if registered and registered.get("night") != night.id:
        registered = None
    return render_template(
        "club/director.html", **director_context(night, values, errors), **season_context(night),
        known_players=club.player_names(get_db()),
        message=message, kinds=forms.KIND_WORDS, registered=registered, director_link=director_link(night)), status


def director_context(night, values=None, errors=None) -> dict:
    """Everything on the director's page that changes as the night goes on, on the page and in its poll's answer."""
    db = get_db()
    entrants = club.entrants(db, night.id)
    tables = club.tables(db, night.id)
    return {**tables_context(night, tables, values, errors), "entrants": entrants,
            "places": club.night_standings(db, night, entrants, tables), "byes": club.round_byes(db, night, entrants),
            "claims": club.claimed_names(db, night),
            "round_words": round_words(night.round_end, night.round_size), "time_up": time_up_of(night)}


def director_link(night) -> dict:
    """The address that makes any browser this night's director (the key in it), as text and as a QR code: only
    ever put on the director's own page."""
    import segno

    address = phones_base() + url_for("club.director", night_id=night.id, key=night.director_key)
    return {"address": address, "qr": segno.make(address, error="m").svg_data_uri(scale=4, border=2)}


def tables_context(night, tables, values=None, errors=None) -> dict:
    """What the tables of the round under way and the director's next step need, on the page and in its poll's
    answer."""
    now_playing = [t for t in tables if t.round == night.round]
    return {"night": night, "now": now_playing,
            "changes": club.result_changes(get_db(), night.id), "values": values or {}, "errors": errors or {},
            "poll": current_app.config["POLL_SECONDS"], "playing": [t.table_no for t in now_playing if not t.over],
            "clock_up": clock_up(night)}


def season_context(night) -> dict:
    """What the director's page shows of the night's season: the season, and its settings as the form holds them."""
    season = seasons.season_of(get_db(), night)
    current = seasons.current_season(get_db())
    return {"season": season, "current_season": current, "special_names": SPECIALS, "tallied_kinds": TALLIED,
            "derived_kinds": DERIVED, "special_hints": SPECIAL_HINTS}


def clock_up(night) -> bool:
    """Whether the round under way is on the clock and its time is up."""
    up = time_up_of(night)
    return up is not None and datetime.fromisoformat(up) <= now()


def now() -> datetime:
    """The director's clock: now, aware (one place, so a test can set the hour it runs at)."""
    return datetime.now(UTC)


def time_up_of(night) -> str | None:
    """When the round under way runs out of time, on the director's clock."""
    if night.closed_at:
        return None
    return time_up(night.round_started_at, night.round_end, night.round_size)


def phones_base() -> str:
    """The address phones reach this server at: the page's own, unless the director opened it on the server
    itself (localhost), which no phone can reach: then its address on the network, as the start-up banner says."""
    host, _, port = request.host.rpartition(":") if request.host.count(":") == 1 else (request.host, "", "")
    if host in ("localhost", "127.0.0.1") or host.startswith("127."):
        network = [a for a in lan_addresses() if not a.startswith("127.")]
        if network:
            return f"{request.scheme}://{network[0]}" + (f":{port}" if port else "")
    return request.host_url.rstrip("/")
