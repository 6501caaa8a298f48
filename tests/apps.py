"""One Flask app for the whole test run (one per set of settings), each test over a database of its own.

Building the app costs about 45 ms on an idle machine (Flask compiles every URL rule) and its first page another
25 ms (Jinja compiles the templates it shows); over a thousand tests that is minutes. So the `app` fixture builds
an app once for each set of settings (a module's `app_config`, and the SCOREPAD_* variables the app reads) and
hands it to each test pointed at a fresh database and a backup folder of the test's own.

What an app keeps that belongs to one database is made anew for each test (its backups, registered for its
database, and the passcode's guess counter); its settings and extensions are put back as they were built.
Everything else a test could change on it (a hook, a view, an attribute, a Jinja global or filter, a name the
app answers to) is compared after the test with what it was, and an app that changed is thrown away rather than
shared again.
Caches the app keeps by database path (game pages, records, backups, the connection pool) cannot mix tests up:
every test's database has a path of its own. This thread's pooled connections are closed after each test.
"""

from __future__ import annotations

import os
from pathlib import Path

from flask import Config, Flask

from scorepad import create_app
from scorepad.services.backups import Backups, register
from scorepad.store import connection
from scorepad.web.cli.backups import backup_folders, backups_kept
from scorepad.web.shell import passcode

# What Flask builds by itself on first use (not a change a test made), and what is compared on its own
_NOT_COMPARED = {"_got_first_request", "jinja_env", "jinja_loader", "logger", "config", "extensions"}
# What the fixture sets for each test
_PER_DATABASE = {"scorepad_backups", "scorepad_guesses"}


class SharedApps:
    """The apps of this run, by their settings."""

    def __init__(self):
        self._apps: dict[tuple, _Shared] = {}

    def serve(self, settings: dict, database: Path, backup_dir: Path) -> Flask:
        """An app with `settings` (besides TESTING and the rest every test app has) over `database`."""
        key = _key(settings)
        config = {"TESTING": True, "SECRET_KEY": "test", **settings,
                  "DATABASE": str(database), "BACKUP_DIR": str(backup_dir)}
        shared = self._apps.get(key)
        if shared is None:
            shared = self._apps[key] = _Shared(create_app(config))  # built over this test's database
        else:
            shared.point_at(config)
        return shared.app

    def done_with(self, app: Flask) -> None:
        """After a test: forget an app the test changed, and close this thread's connections to its database."""
        connection.forget_pool()
        for key, shared in list(self._apps.items()):
            if shared.app is app and not shared.unchanged():
                del self._apps[key]


class _Shared:
    def __init__(self, app: Flask):
        self.app = app
        self.config = dict(app.config)
        self.extensions = {k: v for k, v in app.extensions.items() if k not in _PER_DATABASE}
        self.hosts = app.extensions["scorepad_hosts"]  # the names it answers to: a test may add one
        self.shape = _shape(app, self.hosts)

    def point_at(self, config: dict) -> None:
        app = self.app
        app.config.clear()
        app.config.update(self.config)
        app.config.update(DATABASE=config["DATABASE"], BACKUP_DIR=config["BACKUP_DIR"])
        app.extensions.clear()
        app.extensions.update(self.extensions)
        # as create_app makes them for its database (backup_commands.init_app, passcode.init_app)
        taken = Backups(app.config["DATABASE"], backup_folders(app.config), keep_last=backups_kept(app.config))
        register(taken)
        app.extensions["scorepad_backups"] = taken
        app.extensions["scorepad_guesses"] = passcode.Guesses()

    def unchanged(self) -> bool:
        return _shape(self.app, self.hosts) == self.shape


def _key(settings: dict) -> tuple:
    environment = sorted((k, v) for k, v in os.environ.items() if k.startswith("SCOREPAD_"))
    return repr(sorted(settings.items())), tuple(environment)


def _shape(app: Flask, hosts) -> tuple:
    """Who everything the app holds is, besides its settings and extensions (which are put back)."""
    return (
        tuple(sorted((k, id(v)) for k, v in vars(app).items() if k not in _NOT_COMPARED)),
        _ids(app.before_request_funcs), _ids(app.after_request_funcs), _ids(app.teardown_request_funcs),
        _ids(app.teardown_appcontext_funcs), _ids(app.template_context_processors), _ids(app.error_handler_spec),
        _ids(app.url_value_preprocessors), _ids(app.url_default_functions), _ids(app.view_functions),
        _ids(app.blueprints), tuple(map(str, app.url_map.iter_rules())),
        _ids(app.jinja_env.globals), _ids(app.jinja_env.filters), _ids(app.jinja_env.tests),
        (frozenset(hosts.names), frozenset(hosts.fixed), hosts.suffixes),
    )


def _ids(value):
    """The identity of every object in nested dicts and lists (dicts by key; the empty entries Flask's
    defaultdicts make when they are only looked up count as missing)."""
    if isinstance(value, dict) and not isinstance(value, Config):  # settings are put back, not compared
        return tuple(sorted((repr(k), ids) for k, ids in ((k, _ids(v)) for k, v in value.items()) if ids != ()))
    if type(value) in (list, tuple):
        return tuple(map(_ids, value))
    return id(value)
