"""QR codes of the club's addresses, as SVG data URIs for a page.

A code is the same for the same address every time, and drawing one costs about 30 ms (more than the rest of the
director's page): each is drawn once per process. The addresses are a night's few (its director's link, a card a
table), so the cache stays small.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=256)
def qr_data_uri(address: str, scale: int) -> str:
    import segno  # only the club's printed pages draw codes

    return segno.make(address, error="m").svg_data_uri(scale=scale, border=2)
