"""Deciding between a whole page and the fragment htmx swaps, and saying so to caches."""

from __future__ import annotations

from flask import make_response, request


def is_htmx() -> bool:
    # A history restore asks for the whole page even though htmx sends it.
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


def vary_on_htmx(body, status: int = 200):
    response = make_response(body, status)
    response.vary.add("HX-Request")
    return response
