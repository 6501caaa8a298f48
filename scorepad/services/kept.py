"""What the services keep in memory, each part bounded: for /healthz and the bench, which say what each holds."""

from __future__ import annotations

from ..store import records
from . import marked, pages, ratings


def census() -> dict:
    return {"game pages": pages.census(), "ratings": ratings.census(), "records": records.census(),
            "answers kept while nothing is written": marked.census()}
