"""`flask --app scorepad rules [PATH]`: write the rules reference (docs/rules.md) from the code."""

from __future__ import annotations

from pathlib import Path

import click

from ...core.reference import rules_reference

DEFAULT_PATH = "docs/rules.md"


@click.command("rules")
@click.argument("path", default=DEFAULT_PATH, type=click.Path(dir_okay=False, allow_dash=True))
def rules_command(path: str) -> None:
    """Write every preset's options, rules in words and meld table as Markdown to PATH (docs/rules.md when
    run from the top of the source tree; "-" prints it)."""
    text = rules_reference()
    if path == "-":
        click.echo(text, nl=False)
        return
    # Written byte for byte the same on every system, so the test that compares it never sees a line ending.
    Path(path).write_text(text, encoding="utf-8", newline="\n")
    click.echo(f"Wrote the rules reference to {path}")
