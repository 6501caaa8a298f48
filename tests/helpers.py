"""What tests of every layer share: how a page is read."""

from __future__ import annotations

from bs4 import BeautifulSoup


def parse(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")
