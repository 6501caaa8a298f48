"""The session cookie is read from the Cookie header without parsing every cookie (`sessions.cookie`): whatever
the header, it finds what werkzeug's own reading finds."""

from hypothesis import given
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request

from scorepad.web.shell.sessions import cookie

PIECES = st.sampled_from(["session", "other", "=", ";", " ", "\t", '"', "\\", "a", ".", "eyJ4IjoxfQ.Z-1_x", "é",
                          "session=", "; ", "=="])


def _request(header: str | None) -> Request:
    environ = EnvironBuilder().get_environ()
    if header is not None:
        environ["HTTP_COOKIE"] = header
    return Request(environ)


@given(st.lists(PIECES, max_size=12).map("".join))
def test_the_session_cookie_is_what_werkzeug_reads_whatever_the_header(header):
    request = _request(header)
    assert cookie(request, "session") == request.cookies.get("session")


def test_plain_headers_are_read_without_werkzeug():
    for header, found in (("session=abc.def", "abc.def"), ("a=1; session=x.y; session=z", "x.y"),
                          ("theme=dark", None), ("", None), ("  session = v  ; b=2", "v")):
        request = _request(header)
        assert cookie(request, "session") == found == request.cookies.get("session"), header
    assert cookie(_request(None), "session") is None
