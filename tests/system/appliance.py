"""Scorepad as an appliance, for the system tests to share: its start command run until /healthz answers, and the
container image as its Dockerfile describes it (read without a container engine)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.helpers import ROOT


@contextlib.contextmanager
def running(command: list[str], env: dict[str, str], port: int, cwd: Path, until=lambda health: True):
    """`command` started with `env` on top of this one's, until /healthz answers to `until`'s liking; yields
    that answer."""
    log = cwd / "server.log"
    with log.open("w") as output:
        process = subprocess.Popen(command, cwd=cwd, env={**os.environ, **env}, stdout=output,
                                   stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    health = json.loads(response.read())
                if until(health):
                    break
                raise ConnectionError("not yet")
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    process.kill()
                    process.wait(timeout=10)
                    raise AssertionError(f"it did not start: {log.read_text()}") from None
                time.sleep(0.1)
        yield health
    finally:
        process.terminate()
        process.wait(timeout=10)


def without_scorepad_settings() -> dict[str, str]:
    return {name: "" for name in os.environ if name.startswith("SCOREPAD_")}


def dockerfile() -> dict[str, list[str]]:
    """Each instruction of the Dockerfile, continuation lines joined: instruction -> its arguments, in order."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            instruction, _, rest = line.strip().partition(" ")
            found.setdefault(instruction.upper(), []).append(rest.strip())
    return found


def image_env() -> dict[str, str]:
    return dict(pair.split("=", 1) for line in dockerfile()["ENV"] for pair in shlex.split(line))


def exec_form(text: str) -> list[str]:
    """An instruction's command in exec form (a JSON list): what runs, with no shell between."""
    return json.loads(text)


def as_here(command: list[str]) -> list[str]:
    """The image's command with this Python for the image's."""
    assert command[0] == "python"
    return [sys.executable, *command[1:]]
