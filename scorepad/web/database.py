"""One database connection per request, on `g`, closed on teardown (flaskr's shape)."""

from __future__ import annotations

import click
from flask import current_app, g, render_template
from flask.cli import with_appcontext

from .. import store
from .backup_commands import backup_folders


def get_db():
    if "db" not in g:
        g.db = store.pooled(current_app.config["DATABASE"])
    return g.db


def close_db(_error=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        store.release(db)


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database, or bring its schema up to date."""
    store.migrate(current_app.config["DATABASE"])
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app) -> None:
    # An upgrade that changes the schema keeps a copy of the database first (BackupRefused: no copy, no change)
    try:
        store.backups.migrate_after_backup(app.config["DATABASE"], backup_folders(app.config)[0])
    except store.backups.BackupRefused as refused:
        if click.get_current_context(silent=True) is None:
            raise  # the server: it does not start, and says why
        # A command (`backup`, `restore`) is the way out of a database that cannot be brought up to date or
        # opened: it must not die with it. Each page answers with the reason instead.
        click.echo(f"Warning: {refused}", err=True)
        app.extensions["scorepad_unusable"] = str(refused)
        app.before_request(lambda: _unusable(str(refused)))
    else:
        if not app.testing:
            store.warm_in_background(app.config["DATABASE"])  # records ready before the first phone asks
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)


def _unusable(why: str):
    return render_template("error.html", title="The database cannot be opened", message=why), 503
