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


def test_the_readmes_list_of_rule_sets_is_what_the_rules_command_writes_now():
    """Every preset, with its name and who plays it that way: the README's list is written from PRESETS (it said
    "eight rule sets" and left out the ninth)."""
    from scorepad.core.reference import README_BEGIN, with_readme_presets

    readme = (DOC.parent.parent / "README.md").read_text(encoding="utf-8")
    assert README_BEGIN in readme
    assert with_readme_presets(readme) == readme, (
        "README.md's list of the rule sets differs from the code: run `flask --app scorepad rules` at the top of "
        "the source tree and commit README.md.")


def test_the_list_names_every_preset_and_counts_them_in_words():
    from scorepad.core.reference import readme_presets
    from scorepad.core.rules import PRESETS

    text = readme_presets()
    said = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"][len(PRESETS)]
    assert f"knows {said} rule sets" in text
    assert all(f"| `{key}`" in text for key in PRESETS)
