"""Deciding between a whole page and the fragment htmx swaps, and saying so to caches."""

from __future__ import annotations

from flask import make_response, request


def is_htmx() -> bool:
    # A boosted form or link, and a history restore, want the whole page even though htmx sends them.
    headers = request.headers
    return (headers.get("HX-Request") == "true" and headers.get("HX-Boosted") != "true"
            and headers.get("HX-History-Restore-Request") != "true")


def is_htmx_form() -> bool:
    """A form htmx sends (boosted or not): its answer is swapped into the page, so a stored change can be
    answered with the page itself rather than a redirect the browser would follow blindly."""
    return request.headers.get("HX-Request") == "true"


def from_the_outbox() -> bool:
    """A hand kept on the phone, sent again by its outbox (outbox.js): a plain POST whose answer no page shows, so
    what the answer would say on the page after it (the saved note, a flash) must not wait in the session for a
    page it was never about."""
    return request.headers.get("Scorepad-Sent-By") == "outbox"


def vary_on_htmx(body, status: int = 200):
    response = make_response(body, status)
    response.vary.add("HX-Request")
    return response
