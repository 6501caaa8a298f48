"""`flask --app scorepad rules [PATH]`: write the rules reference (docs/rules.md) from the code, and the README's
list of the rule sets beside it."""

from __future__ import annotations

from pathlib import Path

import click

from ...core.reference import rules_reference, with_readme_presets

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
    readme = Path(path).resolve().parent.parent / "README.md"  # docs/rules.md's README, at the top of the tree
    if path == DEFAULT_PATH and readme.is_file():
        before = readme.read_text(encoding="utf-8")
        after = with_readme_presets(before)
        if after != before:
            readme.write_text(after, encoding="utf-8", newline="\n")
            click.echo(f"Wrote the list of rule sets in {readme.name}")
