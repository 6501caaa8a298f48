"""The application factory (flaskr's shape): config from `instance/`, blueprints, headers, error pages."""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime
from pathlib import Path

from flask import Flask, current_app, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import NotFound

from ...core import house_time, words
from ...core.bids import bid_chips
from ...core.errors import ScorepadError
from ...core.evenings import played_words
from ...core.rules import can_be_stuck
from ...core.scoring import dix_value
from ...core.seats import seats_of
from ...services import courtesy
from ..cli.club import club_group
from ..cli.rules import rules_command
from ..club import corrections, entrants, results, season_pages
from ..club import views as club
from ..games import meld, rules, unchanged_polls
from ..games import views as games
from ..games.forms import kind_choices, things_to_fix, wrong_fields
from ..history import players, transfer
from ..history import views as history
from . import (
    about,
    compression,
    database,
    kept_pages,
    passcode,
    proxies,
    request_log,
    restore,
    security_headers,
    sessions,
    startup,
    urls,
)
from .assets import asset_url, scripts, scripts_url
from .faults import refused
from .guards import init_guards
from .lean_assets import serve_lean

csrf = CSRFProtect()

PACKAGE_DIR = Path(__file__).resolve().parents[2]  # scorepad/, above web/shell/


def resource_dir(name: str) -> str:
    """`templates/` or `static/`: inside the installed package, else at the top of the source tree."""
    installed = PACKAGE_DIR / name
    return str(installed if installed.is_dir() else PACKAGE_DIR.parent / name)


# The settings SCOREPAD_<name> in the environment gives (instance/config.py gives them by <name>)
ENVIRONMENT_SETTINGS = ("DATABASE", "PASSCODE", "BACKUP_DIR", "SECOND_BACKUP_DIR", "BACKUPS_KEPT", "REPLICA_URL",
                        "REPLICA_SSH_KEY", "REPLICA_SSH_HOST_KEY", "TIMEZONE", "CLUB_RESULTS_DIR",
                        "REPLICA_DRILL_MINUTES", "REPLICA_PACE")
# ... and every name Scorepad reads from its environment: those, the ones its modules read, and the machine's TZ
READ_FROM_ENVIRONMENT = frozenset({f"SCOREPAD_{name}" for name in ENVIRONMENT_SETTINGS} | {
    "SCOREPAD_TRUSTED_HOSTS", "SCOREPAD_TRUSTED_PROXIES", "SCOREPAD_INSTANCE", "SCOREPAD_PORT", "TZ"})


class Scorepad(Flask):
    """Flask, less a cost every request paid: whether each hook and view is a coroutine (none is) was asked of
    `inspect` afresh at every call, a tenth of an unchanged poll's time. The answer is kept per function."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._synced: dict = {}

    def ensure_sync(self, func):
        try:
            return self._synced[func]
        except KeyError:
            synced = self._synced[func] = super().ensure_sync(func)
            return synced
        except TypeError:  # a callable that cannot be a key
            return super().ensure_sync(func)


class _Answering:
    """WSGI middleware: each request is counted while it is answered, and warming steps aside meanwhile (see
    `services.courtesy`)."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        with courtesy.answering():
            return self.app(environ, start_response)


def create_app(test_config: dict | None = None) -> Flask:
    app = Scorepad(
        "scorepad",
        instance_relative_config=True,
        instance_path=_instance_path(),
        template_folder=resource_dir("templates"),
        static_folder=resource_dir("static"),
    )
    startup.folder_made(Path(app.instance_path), "its settings, and by default its database and secret key")
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path) / "secret_key")
    app.config.setdefault("DATABASE", str(Path(app.instance_path) / "scorepad.db"))
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a game evening is long; the token lives with the session
    app.config.setdefault("POLL_SECONDS", 3)
    if app.config.get("SESSION_COOKIE_SAMESITE") is None:  # another site's page cannot send our session along
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config.setdefault("MAX_CONTENT_LENGTH", transfer.MAX_REQUEST_BYTES)  # an import is the largest
    # Settings a Pi's service file or a container can give without an instance/config.py.
    for name in ENVIRONMENT_SETTINGS:
        if os.environ.get(f"SCOREPAD_{name}") and name not in (test_config or {}):
            app.config[name] = os.environ[f"SCOREPAD_{name}"]
    _house_zone(app)
    unchanged_polls.init_app(app)  # a poll of a game that has not changed: 304 before Flask (inside the proxy fix)
    try:  # a request from a proxy the owner named says where the browser is; from anyone else, nothing
        proxies.init_app(app, os.environ.get("SCOREPAD_TRUSTED_PROXIES"))
    except proxies.ProxySettingRefused as refused:
        raise startup.CannotStart(str(refused)) from None

    app.wsgi_app = _Answering(app.wsgi_app)

    app.session_interface = sessions.KeptSessions()  # a phone's cookie checked once, not at every poll
    init_guards(app)  # first: a stranger's Host or another site's POST reaches no other check
    app.before_request(_house_zone_again)
    database.init_app(app)
    csrf.init_app(app)
    _check_csrf_by_method(app)
    kept_pages.init_app(app)  # every template's csrf_token() goes through it, so a kept page gets this request's
    passcode.init_app(app)
    request_log.init_app(app)

    # each a blueprint of pages
    for feature in (rules, meld, games, history, players, transfer, about, restore, club, season_pages, corrections,
                    entrants, results):
        app.register_blueprint(feature.bp)
    transfer.init_app(app)
    app.cli.add_command(rules_command)
    app.cli.add_command(club_group)
    app.add_url_rule("/", endpoint="home", view_func=games.home)
    app.add_url_rule("/manifest.webmanifest", endpoint="manifest", view_func=games.manifest)
    app.add_url_rule("/scripts/<names>", endpoint="scripts", view_func=scripts)  # a page's scripts as one answer
    app.after_request(_security_headers)
    app.after_request(compression.compress)
    app.after_request(serve_lean)  # (after_request runs last first: our scripts are made lean, then compressed)
    if app.config.get("SEND_FILE_MAX_AGE_DEFAULT") is None:  # asset URLs carry their content hash
        app.config["SEND_FILE_MAX_AGE_DEFAULT"] = 365 * 24 * 3600
    app.jinja_env.globals["asset"] = asset_url
    app.jinja_env.globals["scripts"] = scripts_url
    app.jinja_env.globals["url_for"] = urls.url_for  # each address built once (see `urls`)
    app.jinja_env.globals.update(kind_choices=kind_choices, can_be_stuck=can_be_stuck,  # the hand form asks the core
                                 dix_value=dix_value, bid_chips=bid_chips, wrong_fields=wrong_fields,
                                 things_to_fix=things_to_fix)
    app.jinja_env.filters["num"] = _number
    # "20 : 30" side by side on a narrow phone: broken at its spaces it read as two lines of numbers
    app.jinja_env.filters["keep_together"] = lambda text: str(text).replace(" : ", "\u00a0:\u00a0")
    app.jinja_env.filters["signed"] = _signed
    app.jinja_env.filters["possessive"] = words.possessive
    app.jinja_env.filters["won"] = words.won
    app.jinja_env.filters["edit_summary"] = words.edit_summary
    app.jinja_env.filters["played_on"] = _played_on
    app.jinja_env.globals["team_players"] = _team_players
    app.jinja_env.globals["outcome"] = words.outcome
    app.jinja_env.filters["local_time"] = _local_time
    app.jinja_env.filters["clock"] = _clock
    app.jinja_env.filters["trump_sign"] = words.trump
    app.register_error_handler(404, _not_found)
    app.register_error_handler(405, _not_allowed)
    app.register_error_handler(CSRFError, _csrf_failed)
    app.register_error_handler(500, _server_error)
    app.register_error_handler(sqlite3.OperationalError, _database_fault)
    app.register_error_handler(ScorepadError, _refused)
    return app


def _house_zone(app: Flask) -> None:
    """The zone evenings are filed in, chosen once (see `core.house_time`); a TIMEZONE that names no zone stops
    the start with a sentence. Each request puts its app's zone back, for a process that holds two apps (tests)."""
    try:
        house = house_time.choose(app.config.get("TIMEZONE"), os.environ.get("TZ"))
    except house_time.UnknownZone as unknown:
        raise startup.CannotStart(str(unknown)) from None
    house_time.set_house(house)
    app.extensions["scorepad_house"] = house


def _house_zone_again() -> None:
    house_time.set_house(current_app.extensions["scorepad_house"])


def _instance_path() -> str | None:
    """SCOREPAD_INSTANCE: the data folder (database, secret key, config.py, backups) when it is not the source
    tree's instance/, as for a service or a container. None: Flask's own choice."""
    folder = os.environ.get("SCOREPAD_INSTANCE")
    return str(Path(folder).resolve()) if folder else None


def _number(n: int) -> str:
    """A score as printed everywhere: "1,500", "−80" (see `words.number`)."""
    return words.number(n)


def _signed(n: int) -> str:
    """A change of score: "+1,500", "+0", "−80" (see `words.signed`)."""
    return words.signed(n)


def _local_time(stamp: str | None) -> str:
    """Stored in UTC; shown on the house's clock (see `core.house_time`)."""
    return _shown(stamp, "%Y-%m-%d %H:%M")


def _clock(stamp: str | None) -> str:
    """The time of day on the house's clock ("21:04"): when a hand of tonight's game was recorded."""
    return _shown(stamp, "%H:%M")


def _played_on(stamp: str | None) -> str:
    """When a game started, as a list says it: "Sun 22 Nov 2026, 19:05" on the house's clock, a game past midnight
    with the evening it belongs to (`evenings.played_words`)."""
    return _shown(stamp, played_words)


def _shown(stamp: str | None, form) -> str:
    # A time no clock of ours wrote (missing from an imported night, 'yesterday' typed into a database by hand)
    # is shown as it is, never a page that fails
    try:
        moment = house_time.local(datetime.fromisoformat(stamp))
    except (TypeError, ValueError):
        return "" if stamp is None else str(stamp)
    return form(moment) if callable(form) else moment.strftime(form)


def _team_players(game) -> tuple[str, ...] | None:
    """Each side's players ("Ann & Cat"), for a list that names the sides; None when nobody's name was given."""
    if not game.has_players:
        return None
    sides, seats = game.rules.sides, game.rules.players
    return tuple(" & ".join(game.players[seat] for seat in seats_of(side, sides, seats) if game.players[seat])
                 for side in range(sides))


def _secret_key(path: Path) -> str:
    """Made once on first run and kept in instance/, so sessions survive restarts and nothing is in git (written
    whole; see `startup.secret_key`)."""
    return startup.secret_key(path)


def _check_csrf_by_method(app) -> None:
    """flask-wtf's own check looks up whether a view is exempt before it looks at the method: 50 µs of every GET
    (a phone's poll, every 3 s) to find nothing to check. The same check, asked only of the methods it checks."""
    if not app.config.get("WTF_CSRF_CHECK_DEFAULT", True):
        return
    app.config["WTF_CSRF_CHECK_DEFAULT"] = False  # flask-wtf's hook: no more than a look at this setting

    def csrf_where_it_applies():
        if request.method in app.config["WTF_CSRF_METHODS"] and app.config["WTF_CSRF_ENABLED"]:
            csrf.protect(apply_exemptions=True)

    app.before_request(csrf_where_it_applies)


def _security_headers(response):
    # each header a view did not set itself (one look at the headers: werkzeug's own lookup of a missing name
    # raises and catches an exception, four times an answer)
    present = {name.lower() for name, _ in response.headers}
    response.headers.extend([(name, value) for name, value in security_headers.for_request(request.environ)
                             if name.lower() not in present])
    return response


def _not_found(error):
    # a view's or a service's own words when it gave some (a game that is gone, "This game has no such hand"), else
    # the general ones
    said = str(error) if isinstance(error, ScorepadError) else getattr(error, "description", None)
    if not said or (not isinstance(error, (NotFound, ScorepadError)) or said == NotFound.description):
        said = "There is no page at this address."
    return render_template("error.html", title="Not found", message=said), 404


def _not_allowed(error):
    return render_template("error.html", title="Not allowed",
                           message="This page cannot be used that way."), 405


def _csrf_failed(error):
    return render_template("error.html", title="Please try again",
                           message="This form was opened in another session or has expired. Go back, reload "
                                   "the page and send it again; nothing was saved."), 400


def _server_error(error):
    return render_template("error.html", title="Something went wrong",
                           message="Scorepad could not finish that. Nothing was half-saved: "
                                   "every change is all or nothing."), 500


def _refused(error: ScorepadError):
    """A refusal no view answers itself (a game, hand or player that is not there): its words, and the status
    it hints."""
    if error.status_hint == 404:
        return _not_found(error)
    title = getattr(error, "title", "Not saved")  # a refusal that is not about a change names itself
    return render_template("error.html", title=title, message=str(error)), error.status_hint


def _database_fault(error):
    """The database refused (disk full, read-only, locked, gone): words for the family and a 503 (507 for a
    full disk), not a generic 500. Any other database error is a bug and stays a 500."""
    fault = refused(error)
    reading = request.method in ("GET", "HEAD")
    message = fault.reading() if reading else fault.sentence()
    return render_template("error.html", title=fault.title if reading else "Not saved",
                           message=message), fault.status
