"""`flask --app scorepad club director [NIGHT]`: the way back for a director whose browser lost the night (a
cleared browser, a new phone, the link never kept). Only whoever runs commands on Scorepad's own machine can run
it, as for a backup: the link it prints makes any browser the night's director (and the season's, for the night
that directs one)."""

from __future__ import annotations

import os

import click
from flask import current_app
from flask.cli import with_appcontext

from ...services import club, seasons
from ...store import connection
from ..shell.addresses import lan_addresses


@click.group("club")
def club_group() -> None:
    """Club nights."""


@club_group.command("director")
@with_appcontext
@click.argument("night", required=False, type=int)
@click.option("--port", type=int, default=lambda: int(os.environ.get("SCOREPAD_PORT") or 8000), show_default="8000",
              help="The port Scorepad serves on (as given to make run).")
def director_command(night: int | None, port: int) -> None:
    """Print NIGHT's director's link (its number, from the list printed without one): opened in any browser, it
    makes that browser the night's director. Without NIGHT, list the nights."""
    db = connection.connect(current_app.config["DATABASE"])
    try:
        if night is None:
            _list_nights(db)
            return
        found = club.night(db, night)
        if found is None:
            raise click.ClickException(f"There is no club night {night}: run `flask --app scorepad club director` "
                                       "for the list.")
        directs = [s.name for s in seasons.all_seasons(db) if seasons.directing_night(db, s) == found.id]
    finally:
        db.close()
    path = f"/club/{found.id}/director?key={found.director_key}"
    network = [a for a in lan_addresses() if not a.startswith("127.")]
    click.echo(f"The director's link of {found.name} (night {found.id}):")
    click.echo(f"  http://{network[0] if network else 'localhost'}:{port}{path}")
    if network:
        click.echo(f"  http://localhost:{port}{path}   (on this machine)")
    if directs:
        click.echo(f"Its director also directs {' and '.join(directs)}: the season's settings and its next season.")
    click.echo("Whoever opens it directs the night: share it only with a co-director.")


def _list_nights(db) -> None:
    nights = club.nights(db)
    if not nights:
        click.echo("No club night yet.")
        return
    click.echo("Club nights, newest first (give the number to print its director's link):")
    for night in nights:
        state = "closed" if night.closed_at else f"round {night.round} of {night.rounds}" if night.round else \
            "not started"
        click.echo(f"  {night.id:>4}  {night.name}  ({night.created_at[:10]}, {state})")
