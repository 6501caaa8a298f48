"""docs/rules.md in the repository is what `flask --app scorepad rules` writes from the code now."""

from pathlib import Path

from scorepad.core.reference import rules_reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_docs_rules_md_is_what_the_rules_command_writes_now(app, tmp_path):
    target = tmp_path / "rules.md"
    done = app.test_cli_runner().invoke(args=["rules", str(target)])
    assert done.exit_code == 0, done.output
    assert f"Wrote the rules reference to {target}" in done.output
    written = target.read_bytes()
    assert DOC.read_bytes() == written, (
        "docs/rules.md differs from what the code says now: run `flask --app scorepad rules` at the top of the "
        "source tree and commit docs/rules.md.")


def test_a_dash_prints_the_reference_instead_of_writing_a_file(app):
    done = app.test_cli_runner().invoke(args=["rules", "-"])
    assert done.exit_code == 0
    assert done.output == rules_reference()
