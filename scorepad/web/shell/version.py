"""Which Scorepad this is: the version in pyproject.toml, its one source. In a source tree that file is read (so a
changed version shows without reinstalling); an installed package (the image) says the version it was built as."""

from __future__ import annotations

import functools
import tomllib
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[3] / "pyproject.toml"


@functools.cache
def version() -> str:
    try:
        with PYPROJECT.open("rb") as file:
            return tomllib.load(file)["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        pass
    try:
        return metadata.version("scorepad")
    except metadata.PackageNotFoundError:
        return "unknown"
