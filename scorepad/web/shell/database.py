"""One database connection per request, on `g`, closed on teardown (flaskr's shape)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import click
from flask import current_app, g, render_template
from flask.cli import with_appcontext

from ... import services
from ...store import connection, schema
from ..cli.backups import backup_folders
from . import startup


def get_db():
    if "db" not in g:
        g.db = connection.pooled(current_app.config["DATABASE"])
    return g.db


@contextmanager
def borrowed(app):
    """This thread's connection outside a request's context (the quick answer to an unchanged poll), handed back
    as `close_db` hands it back."""
    db = connection.pooled(app.config["DATABASE"])
    try:
        yield db
    finally:
        connection.release(db)


def close_db(_error=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        connection.release(db)


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database, or bring its schema up to date."""
    schema.migrate(current_app.config["DATABASE"])
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app) -> None:
    live = Path(app.config["DATABASE"])
    startup.writable_folder(live.parent, "its database")  # its log, safety copies and a restore's work too
    startup.clear_leftovers(live.parent, backup_folders(app.config)[0])
    # An upgrade that changes the schema keeps a copy of the database first (no copy, no change)
    try:
        startup.upgrade_database(str(live), backup_folders(app.config)[0])
    except startup.CannotStart as refused:
        if click.get_current_context(silent=True) is None:
            raise  # the server: it does not start, and says why
        # A command (`backup`, `restore`) is the way out of a database that cannot be brought up to date or
        # opened: it must not die with it. Each page answers with the reason instead.
        click.echo(f"Warning: {refused.message}", err=True)
        why = refused.message  # `refused` is unbound once the except block ends; the page needs the words later
        app.extensions["scorepad_unusable"] = why
        app.before_request(lambda: _unusable(why))
    else:
        if not app.testing:
            # records, the ladder and the figures ready before the first phone asks
            services.warming.warm(app.config["DATABASE"])
            # and a change that ends (or reopens) a game warms its players' records again
            services.committed.warm_records_of(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)


def _unusable(why: str):
    return render_template("error.html", title="The database cannot be opened", message=why), 503
