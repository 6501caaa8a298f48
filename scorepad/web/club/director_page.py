"""The director's page of a club night, as every form on it answers: the night's round, tables, entrants, claims
and standings, its season's card and the director's link. Below the night's views and the season's pages, whose
refused forms both come back on it."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import current_app, render_template, request, session, url_for

from ...core.club import DERIVED, SPECIALS, TALLIED, round_words, time_up
from ...core.ratings import POOLS
from ...services import club, results, seasons
from ..shell.addresses import lan_addresses
from ..shell.database import get_db
from . import forms
from .qr_codes import qr_data_uri
from .rights import directs_season, season_director

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
        known_players=club.player_names(get_db()), **results_context(night),
        message=message, kinds=forms.KIND_WORDS, registered=registered, director_link=director_link(night)), status


def results_context(night) -> dict:
    """The results card: the summary to paste once the night is closed, and the results folder if one is named."""
    shown = night.closed_at and not night.standings_hidden
    return {"summary": results.summary(results.night_results(get_db(), night)) if shown else "",
            "results_folder": current_app.config.get("CLUB_RESULTS_DIR") or None}


def director_context(night, values=None, errors=None) -> dict:
    """Everything on the director's page that changes as the night goes on, on the page and in its poll's answer."""
    db = get_db()
    entrants = club.entrants(db, night.id)
    tables = club.tables(db, night.id)
    return {**tables_context(night, tables, values, errors), "entrants": entrants,
            "places": club.night_standings(db, night, entrants, tables), "byes": club.round_byes(db, night, entrants),
            "here_words": club.here_words, "unrated": club.unrated(db, night.id),
            "claims": club.claimed_names(db, night),
            "round_words": round_words(night.round_end, night.round_size), "time_up": time_up_of(night)}


def director_link(night) -> dict:
    """The address that makes any browser this night's director (the key in it), as text and as a QR code: only
    ever put on the director's own page."""
    address = phones_base() + url_for("club.director", night_id=night.id, key=night.director_key)
    return {"address": address, "qr": qr_data_uri(address, scale=4)}


def tables_context(night, tables, values=None, errors=None) -> dict:
    """What the tables of the round under way and the director's next step need, on the page and in its poll's
    answer."""
    now_playing = [t for t in tables if t.round == night.round]
    return {"night": night, "now": now_playing,
            "changes": club.result_changes(get_db(), night.id), "values": values or {}, "errors": errors or {},
            "poll": current_app.config["POLL_SECONDS"], "playing": [t.table_no for t in now_playing if not t.over],
            "to_confirm": club.to_confirm(get_db(), night, now_playing) if not night.closed_at else [],
            "clock_up": clock_up(night), "most_note": club.MOST_NOTE, "ending_words": club.ending_words,
            "bye_worth": bye_worth(night)}


def bye_worth(night) -> str:
    """What a bye is worth tonight, in the standings' words: 'a win and the average of that round's winners'."""
    return night.bye.words("team" if night.kind == "partners" else "player")


def season_context(night) -> dict:
    """What the director's page shows of the night's season: the season, and its settings as the form holds them
    (to its director; the others learn who that is)."""
    season = seasons.season_of(get_db(), night)
    current = seasons.current_season(get_db())
    return {"season": season, "current_season": current, "special_names": SPECIALS, "tallied_kinds": TALLIED,
            "derived_kinds": DERIVED, "special_hints": SPECIAL_HINTS,
            "directs_season": season is not None and directs_season(season),
            "directs_current": directs_season(current), "season_director": season and season_director(season),
            "bye_choices": forms.BYE_WORDS, "pools": {k: v for k, v in POOLS.items() if k != "home"},
            "season_settings": _settings(season)}


def _settings(season) -> dict:
    """A season's settings as its form holds them (a new season's start from the night's season's)."""
    if season is None:
        return {"min_nights": 1, "specials": tuple(SPECIALS)}
    return {"best_of": season.best_of or "", "min_nights": season.min_nights, "specials": season.specials,
            "bye_rule": season.bye_rule, "bye_points": "" if season.bye_points is None else season.bye_points,
            "improved_min_nights": season.improved_min_nights or "", "last_place": season.last_place,
            "ratings": season.ratings}


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
    itself (localhost), which no phone can reach: then its address on the network, as the start-up banner says. A
    server that listens on this machine only (LISTENING_HOST, as `make run HOST=127.0.0.1` gives it) is reached
    by no phone at any address: the page's own is kept, and the cards say so (`phones_reach`)."""
    host, _, port = request.host.rpartition(":") if request.host.count(":") == 1 else (request.host, "", "")
    if _loopback(host) and not _loopback(current_app.config.get("LISTENING_HOST") or ""):
        network = [a for a in lan_addresses() if not a.startswith("127.")]
        if network:
            return f"{request.scheme}://{network[0]}" + (f":{port}" if port else "")
    return request.host_url.rstrip("/")


def phones_reach() -> bool:
    """Whether a phone on the network can open the addresses `phones_base` gives."""
    host = request.host.rpartition(":")[0] if request.host.count(":") == 1 else request.host
    return not (_loopback(host) and _loopback(current_app.config.get("LISTENING_HOST") or ""))


def _loopback(host: str) -> bool:
    return host in ("localhost", "::1", "[::1]") or host.startswith("127.")


def corrected_words(done) -> str:
    """What the director is told after a correction: what it did, in true words."""
    where = f"Round {done.round}, table {done.table_no}"
    return {"changed": f"{where}: the result is changed; the change is kept beside it.",
            "remark": f"{where}: the score stands as it was; your note is kept beside it as a remark.",
            "unchanged": f"{where}: nothing changed (the same score, and no note)."}[done.how]
