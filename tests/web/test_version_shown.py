"""About and /healthz say which Scorepad this is: the version in pyproject.toml, its one source."""

import json
import tomllib

from tests.helpers import ROOT, parse

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_about_and_health_say_the_version_pyproject_names(client):
    assert parse(client.get("/about")).select_one("#version strong").get_text() == VERSION
    assert json.loads(client.get("/healthz").data)["version"] == VERSION
