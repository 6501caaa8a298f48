"""The one check for every address a stranger can hand back to us (`next`, `back`) before we send a browser there.

A browser reads a redirect more loosely than Python does: it drops tabs and line breaks anywhere, trims spaces
and control characters at both ends, and takes a backslash for a slash. So "/\\t/evil.example" is, to a phone,
"//evil.example": another site. Only what stays a path on this site once a browser has read it is followed.
"""

from __future__ import annotations

import re

from flask import request
from werkzeug.urls import iri_to_uri

MAX_PATH = 2048  # a page of this app is a few dozen characters; anything longer is not one of ours
_TRIMMED = "".join(map(chr, range(0x21)))  # C0 controls and space, trimmed from both ends as a browser does
_DROPPED = re.compile("[\t\n\r]")  # removed anywhere, as a browser does
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def here() -> str:
    """This page's path as the browser sees it: under the proxy's prefix when there is one (see `proxies`)."""
    return request.script_root + request.path


def safe_path(text: object, default: str = "/") -> str:
    """A path on this site to send a browser to: `text` as a browser would read it, or `default` when that
    could leave the site (a scheme, a "//" authority, a backslash), carries control characters or is too long.
    The answer is plain ASCII (non-ASCII is percent-encoded), so it fits a Location or HX-Redirect header."""
    if not isinstance(text, str):
        return default
    path = _DROPPED.sub("", text.strip(_TRIMMED))
    if not path.startswith("/") or path.startswith("//") or "\\" in path or _CONTROL.search(path):
        return default
    try:
        path = iri_to_uri(path)
    except ValueError:  # a lone surrogate cannot be encoded: not a path a page of ours has
        return default
    return path if len(path) <= MAX_PATH else default
