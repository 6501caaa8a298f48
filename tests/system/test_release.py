"""The image people pull, checked as far as this machine allows (no container engine, no GitHub): the release
workflow against GitHub's published schema and its own checks run here, the changelog and the add-on at the
version pyproject.toml names, both Dockerfiles linted, compose.yaml without the host's network answering at the
address phones use, and the Home Assistant add-on's start command serving with its options."""

import contextlib
import http.client
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.helpers import ROOT
from tests.system.appliance import as_here, dockerfile, exec_form, image_env, running, without_scorepad_settings
from tests.system.helpers import free_port

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent
WORKFLOW = ROOT / ".github" / "workflows" / "image.yml"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def steps() -> list[dict]:
    return workflow()["jobs"]["image"]["steps"]


@pytest.mark.parametrize(("schema", "path"), [("vendor.github-workflows", WORKFLOW),
                                              ("vendor.compose-spec", ROOT / "compose.yaml")])
def test_the_release_workflow_and_the_compose_file_follow_their_published_schemas(schema, path):
    checked = subprocess.run([str(BIN / "check-jsonschema"), "--builtin-schema", schema, str(path)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_tag_builds_the_image_for_amd64_and_arm64_and_publishes_it_with_its_version():
    flow = workflow()
    assert flow[True]["push"]["tags"] == ["v*.*.*"]  # YAML reads the key `on` as true
    [build] = [s for s in steps() if s.get("uses", "").startswith("docker/build-push-action@")]
    assert build["with"]["platforms"] == "linux/amd64,linux/arm64"
    assert build["with"]["push"] == "${{ github.ref_type == 'tag' }}"  # run by hand, it publishes nothing
    [meta] = [s for s in steps() if s.get("uses", "").startswith("docker/metadata-action@")]
    assert "type=semver,pattern={{version}}" in meta["with"]["tags"]
    assert [s for s in steps() if "gh release create" in s.get("run", "")]  # the release, with its notes


def version_check(tmp_path: Path, tag: str, repository: str = "owner/scorepad") -> subprocess.CompletedProcess:
    """The workflow's first step, run here as GitHub would run it on `tag`, in a copy of the files it reads."""
    [step] = [s for s in steps() if s.get("id") == "version"]
    for name in ("pyproject.toml", "CHANGELOG.md", "home-assistant/scorepad/config.yaml",
                 "home-assistant/scorepad/build.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, tmp_path / name)
    output = tmp_path / "output"
    env = {"PATH": f"{BIN}:/usr/bin:/bin", "GITHUB_REF_TYPE": "tag", "GITHUB_REF_NAME": tag,
           "GITHUB_OUTPUT": str(output), "REPOSITORY": repository}
    return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env, capture_output=True, text=True)


def test_the_release_is_refused_unless_the_tag_the_changelog_and_the_addon_all_name_the_version(tmp_path):
    done = version_check(tmp_path, f"v{VERSION}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"version={VERSION}" in (tmp_path / "output").read_text()
    notes = (tmp_path / "release-notes.md").read_text()
    assert notes.strip() and not notes.startswith("##")  # the entry's own words, as the release's notes
    refused = version_check(tmp_path, "v99.0.0")
    assert refused.returncode != 0 and "is not v" in refused.stdout
    elsewhere = version_check(tmp_path, f"v{VERSION}", repository="Someone/Scorepad")
    assert elsewhere.returncode != 0 and "ghcr.io/someone/scorepad" in elsewhere.stdout


def test_the_changelog_has_an_entry_for_this_version_and_one_for_what_is_coming():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## \[{re.escape(VERSION)}\]", changelog, re.M)
    assert re.search(r"^## \[Unreleased\]", changelog, re.M)
    assert yaml.safe_load((ROOT / "home-assistant" / "scorepad" / "config.yaml").read_text())["version"] == VERSION


def test_the_addons_dockerfile_passes_hadolint():
    linted = subprocess.run([str(BIN / "hadolint"), "home-assistant/scorepad/Dockerfile"], cwd=ROOT,
                            capture_output=True, text=True)
    assert linted.returncode == 0, linted.stdout + linted.stderr


def compose_environment() -> dict[str, str]:
    """compose.yaml's environment for the service, with `${NAME:-default}` filled as compose fills it from a
    .env file that names the NAS's address and the house's zone."""
    given = {"SCOREPAD_TRUSTED_HOSTS": "192.168.1.20,nas.local", "TZ": "America/Los_Angeles"}
    service = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["scorepad"]
    assert "network_mode" not in service and service["ports"] == [f"{image_env()['SCOREPAD_PORT']}:8000"]
    fill = re.compile(r"\$\{(\w+):-([^}]*)\}")
    return {name: fill.sub(lambda m: given.get(m[1], m[2]), str(value))
            for name, value in service["environment"].items()}


def ask(port: int, path: str, host: str) -> tuple[int, str]:
    """A phone's request as the port mapping hands it on: to the container's port, naming the NAS's address."""
    with contextlib.closing(http.client.HTTPConnection("127.0.0.1", port, timeout=10)) as connection:
        connection.request("GET", path, headers={"Host": host})
        answer = connection.getresponse()
        return answer.status, answer.read().decode()


def test_compose_without_the_hosts_network_answers_at_the_address_phones_use(tmp_path):
    data, port = tmp_path / "data", free_port()
    data.mkdir()
    env = {**without_scorepad_settings(), **image_env(), **compose_environment(), "SCOREPAD_INSTANCE": str(data),
           "SCOREPAD_PORT": str(port)}
    with running(as_here(exec_form(dockerfile()["CMD"][0])), env, port, cwd=tmp_path):
        status, page = ask(port, "/about", f"192.168.1.20:{port}")
        assert status == 200 and "America/Los_Angeles" in page and f"Scorepad <strong>{VERSION}</strong>" in page
        assert ask(port, "/", f"nas.local:{port}")[0] == 200
        assert ask(port, "/", f"192.168.1.77:{port}")[0] == 400  # an address nobody gave it


def test_the_home_assistant_addons_start_command_serves_with_its_options(tmp_path):
    data, port = tmp_path / "data", free_port()
    data.mkdir()
    options = tmp_path / "options.json"
    options.write_text(json.dumps({"passcode": "clubs", "timezone": "Asia/Tokyo", "trusted_hosts": "",
                                   "second_backup_dir": "", "backups_kept": 20, "replica_url": ""}))
    addon = (ROOT / "home-assistant" / "scorepad" / "Dockerfile").read_text()
    [command] = [json.loads(line.removeprefix("CMD ")) for line in addon.splitlines() if line.startswith("CMD ")]
    env = {**without_scorepad_settings(), **image_env(), "SCOREPAD_INSTANCE": str(data),
           "SCOREPAD_PORT": str(port), "SCOREPAD_HOME_ASSISTANT_OPTIONS": str(options)}
    with running(as_here(command), env, port, cwd=tmp_path) as health:
        assert health["ok"] is True
        status, page = ask(port, "/about", f"127.0.0.1:{port}")
        assert status == 200 and "Asia/Tokyo" in page and "the last 20" in page
        assert f"Scorepad <strong>{VERSION}</strong>" in page
        assert "type the table's passcode" in ask(port, "/", f"127.0.0.1:{port}")[1]
    options.write_text("{")
    broken = subprocess.run(as_here(command), env={**env}, capture_output=True, text=True, timeout=60)
    assert broken.returncode != 0 and "cannot be read" in broken.stderr
