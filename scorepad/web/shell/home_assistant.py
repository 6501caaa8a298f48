"""Scorepad as a Home Assistant add-on (home-assistant/scorepad/): the add-on's options, which Home Assistant writes
to /data/options.json, become the settings Scorepad reads from its environment, before the app is built.

Home Assistant shows the add-on through its ingress: its supervisor (172.30.32.2) passes each request on for its
core (172.30.32.1), so those two are the proxies whose headers are believed, and the data lives in /data, which is
in Home Assistant's own backups (config.yaml takes them with the add-on stopped: a database copied whole).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

OPTIONS_FILE = Path(os.environ.get("SCOREPAD_HOME_ASSISTANT_OPTIONS") or "/data/options.json")  # elsewhere: a test
# The add-on's options (config.yaml: options and schema) and the setting each one is
OPTIONS = {"passcode": "PASSCODE", "timezone": "TIMEZONE", "trusted_hosts": "TRUSTED_HOSTS",
           "second_backup_dir": "SECOND_BACKUP_DIR", "backups_kept": "BACKUPS_KEPT", "replica_url": "REPLICA_URL"}
SUPERVISOR = "172.30.32.1,172.30.32.2"  # Home Assistant's core and its supervisor, on its own network
FIXED = {"SCOREPAD_TRUSTED_PROXIES": SUPERVISOR}  # the data folder, /data, is the image's own (its Dockerfile)


class OptionsRefused(ValueError):
    """The options file cannot be read: the add-on does not start on a guess."""


def settings_from(options: dict) -> dict[str, str]:
    """The environment for Scorepad from the add-on's options: an option left empty sets nothing (Scorepad's own
    default, or Home Assistant's TZ for the time zone)."""
    settings = dict(FIXED)
    for option, setting in OPTIONS.items():
        value = options.get(option)
        if value is not None and str(value).strip():
            settings[f"SCOREPAD_{setting}"] = str(value).strip()
    return settings


def read_options(path: Path = OPTIONS_FILE) -> dict:
    try:
        options = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise OptionsRefused(f"Home Assistant's options for Scorepad ({path}) cannot be read ({exc}). Save the "
                             "add-on's configuration again and restart it.") from None
    if not isinstance(options, dict):
        raise OptionsRefused(f"Home Assistant's options for Scorepad ({path}) are not a set of options.")
    return options


def apply(path: Path | None = None) -> dict[str, str]:
    """Put the add-on's options into this process's environment; returns what was set."""
    settings = settings_from(read_options(path or OPTIONS_FILE))
    os.environ.update(settings)
    return settings
