"""How much memory the server takes, and what each of its caches holds: /healthz says it, `make bench` prints it."""

from __future__ import annotations

from pathlib import Path

from flask import current_app

from ... import services
from . import compression, csrf_tokens, kept_pages


def _status_mib(field: str) -> float | None:
    """A field of /proc/self/status in MiB (Linux); None elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def report() -> dict:
    return {"now_mib": _status_mib("VmRSS"), "peak_mib": _status_mib("VmHWM"),
            "kept": {"rendered pages": kept_pages.census(), **services.kept.census(),
                     "sessions": current_app.session_interface.census(),
                     "addresses": len(current_app.extensions.get("scorepad_urls", {})),
                     "gzipped files": compression.census(), "signed forms' tokens": csrf_tokens.census()}}
