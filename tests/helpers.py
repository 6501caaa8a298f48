"""What tests of every layer share: where things are, and how a page is read."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


def parse(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def safety_copies(live: Path) -> list[Path]:
    """The copies a restore keeps of the database it replaced, beside it, oldest first."""
    return sorted(live.parent.glob("before-restore-*.db"))
