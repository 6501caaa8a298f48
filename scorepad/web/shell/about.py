"""How this Scorepad is doing: the about page (its backups, where its data lives, the addresses a phone opens)
and /healthz, which a service manager or a container's HEALTHCHECK asks."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from flask import Blueprint, current_app, jsonify, render_template

from ...core import house_time, retention
from ...core.evenings import EVENING_STARTS
from ...services import warming
from ...store import schema
from . import kept_pages, memory
from . import replica as replica_setup
from .database import get_db
from .version import version

bp = Blueprint("about", __name__)


def _backups():
    return current_app.extensions["scorepad_backups"]


@bp.get("/about")
def about():
    backups = _backups()
    status, now = backups.status(), datetime.now(UTC)
    age = retention.age_in_words(status.succeeded_at, now) if status.succeeded_at else None
    context = dict(title="About", status=status, age=age, warning=backups.warning(), folders=backups.folders,
                   kept=backups.keep_last, future=backups.in_future(), database=current_app.config["DATABASE"],
                   instance=current_app.instance_path, replica=replica_setup.facts(now), house=house_time.house(),
                   house_clock=house_time.local(now).strftime("%H:%M on %a %-d %b"), evening_starts=EVENING_STARTS,
                   version=version())
    if context["replica"] is not None and context["replica"]["started"]:
        # "it may lack the last 3 s of changes": a page of its own every second, not one to keep (it would only
        # push the kept game pages out)
        return render_template("shell/about.html", **context)
    # everything it shows is in its context (nothing read from the database): kept under all of it, the house's
    # clock to the minute it shows
    return kept_pages.render("shell/about.html", versions=(), **context)


@bp.get("/healthz")
def healthz():
    """200 when the database answers and its schema is today's; 503 otherwise. The last backup and the
    replica are reported, not judged: a USB stick pulled out or a NAS asleep is no reason to restart the server."""
    try:
        pending = schema.pending_migrations(get_db())  # a read: the database answers
    except sqlite3.Error as exc:
        return _health({"ok": False, "database": f"unreachable: {exc}"}, 503)
    status = _backups().status()
    age = None
    if status.succeeded_at:
        age = max(int((datetime.now(UTC) - status.succeeded_at).total_seconds()), 0)
    body = {"ok": not pending, "database": "ok",
            "migrations": f"pending: {', '.join(pending)}" if pending else "current",
            "last_backup_age_seconds": age, "last_backup_failed": bool(status.problem),
            **replica_setup.health(datetime.now(UTC)), "memory": memory.report(), "warming": warming.census()}
    return _health(body, 503 if pending else 200)


def _health(body: dict, status: int):
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response
