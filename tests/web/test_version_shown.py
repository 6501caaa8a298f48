"""About says which Scorepad this is: the version in pyproject.toml, its one source."""

import tomllib

from tests.helpers import ROOT, parse

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_about_says_the_version_pyproject_names(client):
    assert parse(client.get("/about")).select_one("#version strong").get_text() == VERSION
