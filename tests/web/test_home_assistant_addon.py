"""The Home Assistant add-on and the Unraid template say what Scorepad reads: every add-on option is a setting
(and does what the setting does), the add-on opens through ingress on the image's port and its data is in /data,
in Home Assistant's backups; every variable, port and folder of the Unraid template is one the image has."""

import json
import xml.etree.ElementTree as ET

import pytest
import yaml

from scorepad.core import house_time
from scorepad.web.shell import home_assistant
from scorepad.web.shell.app import READ_FROM_ENVIRONMENT
from tests.helpers import ROOT, parse
from tests.system.appliance import dockerfile, image_env

ADDON = ROOT / "home-assistant" / "scorepad"
PLATFORMS = {"amd64": "linux/amd64", "aarch64": "linux/arm64"}  # Home Assistant's names, and the image's


def addon() -> dict:
    return yaml.safe_load((ADDON / "config.yaml").read_text())


def test_every_option_of_the_addon_is_a_setting_scorepad_reads_and_is_described():
    config = addon()
    assert set(config["options"]) == set(config["schema"]) == set(home_assistant.OPTIONS)
    translated = yaml.safe_load((ADDON / "translations" / "en.yaml").read_text())["configuration"]
    assert set(translated) == set(home_assistant.OPTIONS)
    settings = home_assistant.settings_from({option: "x" for option in home_assistant.OPTIONS})
    assert set(settings) <= READ_FROM_ENVIRONMENT


def test_the_addon_opens_through_ingress_on_the_images_port_and_is_backed_up_whole():
    config = addon()
    assert (config["ingress"], config["ingress_port"]) == (True, int(image_env()["SCOREPAD_PORT"]))
    assert config["backup"] == "cold"  # stopped while Home Assistant copies /data: a database copied whole
    assert image_env()["SCOREPAD_INSTANCE"] == "/data"  # where Home Assistant keeps an add-on's data
    assert config["watchdog"].endswith(f":[PORT:{config['ingress_port']}]/healthz")
    workflow = (ROOT / ".github" / "workflows" / "image.yml").read_text()
    assert all(PLATFORMS[arch] in workflow for arch in config["arch"])  # each machine has its image
    built = yaml.safe_load((ADDON / "build.yaml").read_text())["build_from"]
    assert set(built) == set(config["arch"])
    assert all(image.endswith(f":{config['version']}") for image in built.values())


def test_the_addons_start_command_is_the_images_with_its_options():
    lines = [line for line in (ADDON / "Dockerfile").read_text().splitlines() if line and not line.startswith("#")]
    assert "FROM ${BUILD_FROM}" in lines  # the published image, for each machine (build.yaml)
    [command] = [json.loads(line.removeprefix("CMD ")) for line in lines if line.startswith("CMD ")]
    assert command == [*json.loads(dockerfile()["CMD"][0]), "--home-assistant"]


def test_the_addons_options_become_scorepads_settings(make_app, monkeypatch, tmp_path):
    options = {"passcode": "clubs", "timezone": "Asia/Tokyo", "trusted_hosts": "homeassistant.local",
               "second_backup_dir": str(tmp_path), "backups_kept": 30, "replica_url": ""}
    path = tmp_path / "options.json"
    path.write_text(json.dumps(options))
    for name in READ_FROM_ENVIRONMENT - {"TZ"}:
        monkeypatch.delenv(name, raising=False)
    with monkeypatch.context() as environment:
        for name, value in home_assistant.settings_from(home_assistant.read_options(path)).items():
            environment.setenv(name, value)
        app = make_app()
    assert (app.config["PASSCODE"], app.config["TIMEZONE"], app.config["SECOND_BACKUP_DIR"]) == \
        ("clubs", "Asia/Tokyo", str(tmp_path))
    assert "REPLICA_URL" not in app.config or not app.config["REPLICA_URL"]  # an empty option sets nothing
    assert app.extensions["scorepad_backups"].keep_last == 30
    assert app.extensions["scorepad_house"].name == "Asia/Tokyo"
    assert app.extensions["scorepad_hosts"].accepts("homeassistant.local:8000")
    assert [str(n) for n in app.extensions["scorepad_proxies"]] == ["172.30.32.1/32", "172.30.32.2/32"]
    client = app.test_client()
    client.environ_base.update({"REMOTE_ADDR": "172.30.32.2", "HTTP_HOST": "homeassistant.local:8123",
                                "HTTP_X_INGRESS_PATH": "/api/hassio_ingress/abc"})
    page = parse(client.get("/"))
    assert page.html["data-root"] == "/api/hassio_ingress/abc" and page.select_one(".locked") is not None
    house_time.set_house(None)


@pytest.mark.parametrize("content", ["", "{", "[1, 2]", "null"])
def test_options_that_cannot_be_read_stop_the_addon_with_a_sentence(tmp_path, content):
    path = tmp_path / "options.json"
    path.write_text(content)
    with pytest.raises(home_assistant.OptionsRefused, match="options for Scorepad"):
        home_assistant.apply(path)


def test_the_unraid_template_gives_only_what_the_image_reads():
    template = ET.parse(ROOT / "deploy" / "unraid" / "scorepad.xml").getroot()
    configs = {c.get("Type"): [] for c in template.iter("Config")}
    for config in template.iter("Config"):
        configs[config.get("Type")].append(config)
    assert {c.get("Target") for c in configs["Variable"]} <= READ_FROM_ENVIRONMENT
    assert [c.get("Target") for c in configs["Port"]] == dockerfile()["EXPOSE"]
    assert [c.get("Target") for c in configs["Path"]] == [image_env()["SCOREPAD_INSTANCE"]]
    required = {c.get("Target") for c in configs["Variable"] if c.get("Required") == "true"}
    assert required == {"SCOREPAD_TRUSTED_HOSTS", "TZ"}  # the address phones open, and the house's zone
    assert template.findtext("ExtraParams") == "--user 99:100"  # Unraid's nobody:users, who owns appdata
    assert template.findtext("Repository").startswith("ghcr.io/") and template.findtext("Network") == "bridge"
