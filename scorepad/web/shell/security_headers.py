"""The headers every answer of ours carries, whoever answers it (a view, or the quick answer to an unchanged
poll): what the page may load and who may frame it."""

from __future__ import annotations

from .proxies import INGRESS

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


# Home Assistant shows an add-on's pages in a frame of its own page, on its own origin: through its ingress (and only
# there) a page of ours may be framed by a page of the same origin.
FRAMED_BY_HOME_ASSISTANT = CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'")
SECURITY_HEADERS = (("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
                    ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"))
INGRESS_HEADERS = (("Content-Security-Policy", FRAMED_BY_HOME_ASSISTANT), ("X-Content-Type-Options", "nosniff"),
                   ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "SAMEORIGIN"))


def for_request(environ) -> tuple[tuple[str, str], ...]:
    """The headers for an answer to this request: framed by Home Assistant's page only through its ingress."""
    return INGRESS_HEADERS if environ.get(INGRESS, False) else SECURITY_HEADERS
