"""The replica off the machine (see `services.replica`), for the web: the server starts it, every page's footer
warns when it has not been reached for ten minutes, About and /healthz say how far behind it is."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import current_app

from ...core import house_time, retention
from ...services import replica


def init_app(app, backups) -> None:
    """Set up (not start: only the server does, see `serve.main`) the replication REPLICA_URL names."""
    place = replica.place_from(app.config)
    replication = replica.Replication(place, app.config["DATABASE"]) if place else None
    app.extensions["scorepad_replica"] = replication
    if replication is not None:
        backups.replicated = lambda: replication.status().running
    app.context_processor(lambda: {"replica_warning": replica.warning(current_status(app), datetime.now(UTC))})


def current_status(app=None) -> replica.Status | None:
    """How the replica is doing; None when none is set up. A replica set up but not started (a `flask`
    command, a test's app) says so."""
    replication = (app or current_app).extensions.get("scorepad_replica")
    if replication is None:
        return None
    return replication.status() if replication.started else None


def facts(now: datetime) -> dict | None:
    """What About shows: where, whether it runs, when it was last reached and how far behind it may be."""
    replication = current_app.extensions.get("scorepad_replica")
    if replication is None:
        return None
    started = replication.started
    if started:
        replication.look()  # fresh, not as of the watcher's last look (up to LOOK_SECONDS ago)
    status = replication.status()
    reached = retention.age_in_words(status.reached_at, now) if status.reached_at else None
    return {"place": status.place, "kind": replication.place.kind, "started": started, "status": status,
            "reached": reached, "behind": status.behind_seconds(now),
            "reached_clock": f"{house_time.local(status.reached_at):%Y-%m-%d %H:%M:%S}" if status.reached_at else None,
            "warning": replica.warning(status, now) if started else None}


def health(now: datetime) -> dict:
    """/healthz's lines for the replica: reported, not judged (an unplugged NAS is no reason to restart)."""
    replication = current_app.extensions.get("scorepad_replica")
    if replication is not None and replication.started:
        replication.look()  # fresh, as on About
    status = current_status()
    if status is None:
        configured = current_app.extensions.get("scorepad_replica") is not None
        return {"replica": "not started" if configured else "off"}
    behind = status.behind_seconds(now)
    return {"replica": "running" if status.running else "stopped",
            "replica_behind_seconds": None if behind is None else round(behind, 1),
            "replica_reached_at": status.reached_at.isoformat(timespec="seconds") if status.reached_at else None,
            "replica_warning": replica.warning(status, now)}
