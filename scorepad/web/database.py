"""One database connection per request, on `g`, closed on teardown (flaskr's shape)."""

from __future__ import annotations

import click
from flask import current_app, g
from flask.cli import with_appcontext

from .. import store


def get_db():
    if "db" not in g:
        g.db = store.connect(current_app.config["DATABASE"])
    return g.db


def close_db(_error=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database, or bring its schema up to date."""
    store.migrate(current_app.config["DATABASE"])
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app) -> None:
    store.migrate(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
