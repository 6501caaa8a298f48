"""The replica off the machine (see `services.replication`), for the web: the server starts it; every page warns,
in the household's words, when it needs a look; About says when it was last proven restorable and what it held,
and what happened to it lately; /healthz reports the same as data. Nothing here shows a password or a key."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from flask import current_app

from ...core import house_time, replica_states
from ...core.inputs import try_whole_number
from ...core.replica_states import State
from ...core.retention import age_in_words
from ...services import replica
from ...services.replication import DRILL_EVERY, HOUSEHOLD, Pace, Replication

_logger = logging.getLogger(__name__)


def init_app(app, backups) -> None:
    """Set up (not start: only the server does, see `serve.main`) the replication REPLICA_URL names."""
    place = replica.place_from(app.config)
    replication = Replication(place, app.config["DATABASE"], drill_every=drill_every(app.config),
                              pace=pace(app.config)) if place else None
    app.extensions["scorepad_replica"] = replication
    if replication is not None:
        backups.replicated = lambda: replication.runs
    app.context_processor(lambda: {"replica_warning": page_warning(app)})


def drill_every(config) -> timedelta:
    """REPLICA_DRILL_MINUTES: how often the replica is put back and checked besides at start, after a restore or
    an import, and after starting over; an hour unless set to a whole number of minutes from 5 to 10,080 (a
    week)."""
    setting = config.get("REPLICA_DRILL_MINUTES")
    if setting is None or str(setting).strip() == "":
        return DRILL_EVERY
    minutes = try_whole_number(setting, low=5, high=7 * 24 * 60)
    if minutes is None:
        _logger.warning("REPLICA_DRILL_MINUTES is %r, not a whole number from 5 to 10080: drilling every %d "
                        "minutes", setting, DRILL_EVERY.total_seconds() // 60)
        return DRILL_EVERY
    return timedelta(minutes=minutes)


def pace(config) -> Pace:
    """REPLICA_PACE: how many times faster than a household's the supervisor's timers run (its looks, plan checks,
    the waits before a drill and after a restart). For the tests, which wait on a real Litestream: 1 (a
    household's pace) unless set to a number from 1 to 20."""
    setting = config.get("REPLICA_PACE")
    if setting is None or str(setting).strip() == "":
        return HOUSEHOLD
    times = try_whole_number(setting, low=1, high=20)
    if times is None:
        _logger.warning("REPLICA_PACE is %r, not a whole number from 1 to 20: the household's pace", setting)
        return HOUSEHOLD
    return HOUSEHOLD.faster(times)


def _replication(app=None) -> Replication | None:
    return (app or current_app).extensions.get("scorepad_replica")


def page_warning(app=None, now: datetime | None = None) -> str | None:
    """The sentence every page shows about the replica, or None. A replica set up but not started (a `flask`
    command, a test's app) warns about nothing: only the server runs it."""
    replication = _replication(app)
    if replication is None or not replication.started:
        return None
    return replica_states.warning(replication.health(), replication.place.shown(), now or datetime.now(UTC))


def _clock(moment: datetime | None) -> str | None:
    return f"{house_time.local(moment):%Y-%m-%d %H:%M:%S}" if moment else None


def facts(now: datetime) -> dict | None:
    """What About shows: where, what it is doing, when it was last proven restorable and what it held, how far
    behind it may be, and what happened lately."""
    replication = _replication()
    if replication is None:
        return None
    started = replication.started
    if started:
        replication.look()  # fresh, not as of the supervisor's last look
    health = replication.health()
    proof = health.proof
    reached = health.reached_at
    return {"place": replication.place.shown(), "kind": replication.place.kind, "started": started,
            "problem": replication.place.problem(),
            "state": health.state.value, "proven": health.state is State.PROVEN,
            "in_trouble": health.state in replica_states.WARNS, "fine": replica_states.is_fine(health, now),
            "summary": replica_states.summary(health, now),
            "proof": proof, "held": replica_states.held(proof) if proof else None,
            "next_clock": _clock(getattr(replication, "next_drill", None)) if health.state is State.PROVEN else None,
            "proven_clock": _clock(proof.at) if proof else None,
            "moment_clock": _clock(proof.moment) if proof else None,
            "reached": age_in_words(reached, now) if reached else None, "reached_clock": _clock(reached),
            "behind": max((now - reached).total_seconds(), 0) if reached else None,
            "history": [(_clock(h.at), h.what) for h in health.history],
            "warning": page_warning(now=now) if started else None}


def health(now: datetime) -> dict:
    """/healthz's lines for the replica: reported, not judged (an unplugged NAS is no reason to restart)."""
    replication = _replication()
    if replication is None:
        return {"replica": "off"}
    if not replication.started:
        return {"replica": "not started"}
    replication.look()
    state = replication.health()
    proof, reached = state.proof, state.reached_at
    return {"replica": "running" if replication.runs else "stopped",
            "replica_state": state.state.value,
            "replica_ok": replica_states.is_fine(state, now),
            "replica_proven_at": proof.at.isoformat(timespec="seconds") if proof else None,
            "replica_proof": None if proof is None else {
                "moment": proof.moment.isoformat(timespec="seconds") if proof.moment else None,
                "games": proof.games, "hands": proof.hands,
                "last_hand_at": proof.last_hand_at.isoformat(timespec="seconds") if proof.last_hand_at else None,
                "drill_seconds": proof.seconds, "scratch_bytes": proof.bytes},
            "replica_behind_seconds": None if reached is None else round(max((now - reached).total_seconds(), 0), 1),
            "replica_reached_at": reached.isoformat(timespec="seconds") if reached else None,
            "replica_warning": replica_states.warning(state, replication.place.shown(), now)}
