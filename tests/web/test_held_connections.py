"""The server Scorepad runs (waitress, as `python -m scorepad` sets it up) keeps answering while connections are
held open: more than waitress's default hundred of them, idle or dripping a request a byte at a time. The full
size (150 phones, 120 held connections) is measured by bench/held.py and checked loosely in tests/system."""

import http.client
import socket
import time
from types import SimpleNamespace

import pytest

from scorepad.web.shell import serve
from tests.helpers import serving


@pytest.fixture
def served(app, monkeypatch):
    """The app behind the server `python -m scorepad` runs, on a loopback port, with a request's deadline of
    half a second so a test need not wait ten."""
    monkeypatch.setattr(serve, "REQUEST_SECONDS", 0.5)
    server = serve.create_server(app, host="127.0.0.1", port=0, **serve.server_options(threads=4))
    with serving(server):
        yield server.effective_port


def answers(port: int, timeout: float = 5) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status
    finally:
        conn.close()


def test_a_request_still_answers_while_a_hundred_and_fifty_connections_are_held(served):
    held = [socket.create_connection(("127.0.0.1", served)) for _ in range(150)]
    try:
        for n, sock in enumerate(held):  # a third idle after a request, the others part way into one
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" if n % 3 == 0 else
                         b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Waiting: ")
        time.sleep(0.3)
        assert answers(served) == 200
    finally:
        for sock in held:
            sock.close()


@pytest.mark.parametrize("start", [b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Waiting: ",
                                   b"POST /games/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n"])
def test_a_request_dripped_a_byte_at_a_time_is_closed_once_it_is_late(served, start):
    sock = socket.create_connection(("127.0.0.1", served))
    sock.settimeout(0.2)
    try:
        sock.sendall(start)
        deadline = time.monotonic() + 5
        closed = False
        while time.monotonic() < deadline and not closed:
            try:
                sock.sendall(b"a")
                closed = sock.recv(1024) == b""
            except TimeoutError:
                pass
            except OSError:
                closed = True
        assert closed, "the server still held a request dripped for 5 s"
    finally:
        sock.close()


def channel(started, received, headers_finished=True):
    return SimpleNamespace(request_started=started, request_bytes=received,
                           request=SimpleNamespace(headers_finished=headers_finished))


@pytest.mark.parametrize("seconds, received, headers_finished, is_late", [
    (serve.REQUEST_SECONDS - 1, 10, False, False),  # headers still coming, in time
    (serve.REQUEST_SECONDS + 1, 10, False, True),  # headers not there when time is up
    (serve.REQUEST_SECONDS + 60, 61 * serve.BODY_BYTES_PER_SECOND, True, False),  # a large upload keeping pace
    (serve.REQUEST_SECONDS + 60, 30 * serve.BODY_BYTES_PER_SECOND, True, True),  # a body falling behind
    (serve.REQUEST_SECONDS + 2, 500, True, True),  # a body dripped
])
def test_a_request_is_late_when_its_headers_or_its_body_come_slower_than_a_phone_sends(seconds, received,
                                                                                       headers_finished, is_late):
    assert serve.late(channel(1000.0, received, headers_finished), 1000.0 + seconds) is is_late


def test_between_requests_a_connection_is_never_late():
    assert not serve.late(SimpleNamespace(request_started=None, request_bytes=0, request=None), 10**9)


def test_the_server_is_sized_for_a_club_night():
    """30 tables: 120 phones and a wall, each browser keeping up to six connections, and room to spare."""
    options = serve.server_options()
    assert options["connection_limit"] >= 6 * 121 * 2
    assert options["channel_timeout"] <= 120 and options["asyncore_use_poll"]


@pytest.fixture
def polled(app, served):
    """A game's live sheet on the served app, and its ETag: (port, path, etag)."""
    from scorepad import services
    from scorepad.core.rules import PRESETS
    from scorepad.store import connection

    db = connection.connect(app.config["DATABASE"])
    game_id = services.start_game(db, PRESETS["double-deck"], ("Us", "Them"), (None,) * 4, 0)
    db.close()
    conn = http.client.HTTPConnection("127.0.0.1", served, timeout=5)
    conn.request("GET", f"/games/{game_id}/live", headers={"HX-Request": "true"})
    response = conn.getresponse()
    response.read()
    conn.close()
    return served, f"/games/{game_id}/live", response.getheader("ETag")


def test_a_not_modified_poll_keeps_its_connection_for_the_next_poll(polled):
    port, path, etag = polled
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        statuses, sockets = [], set()
        for _ in range(3):
            conn.request("GET", path, headers={"HX-Request": "true", "If-None-Match": etag})
            response = conn.getresponse()
            response.read()
            statuses.append(response.status)
            sockets.add(id(conn.sock))
            assert not response.will_close and response.getheader("Connection") is None
        assert statuses == [304, 304, 304] and len(sockets) == 1
    finally:
        conn.close()


@pytest.mark.parametrize(("version", "ask"), [(b"HTTP/1.1", b"Connection: close\r\n"), (b"HTTP/1.0", b"")])
def test_a_not_modified_answer_still_closes_when_the_client_asks_or_speaks_http_1_0(polled, version, ask):
    port, path, etag = polled
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET " + path.encode() + b" " + version + b"\r\nHost: 127.0.0.1\r\nHX-Request: true\r\n"
                     b"If-None-Match: " + etag.encode() + b"\r\n" + ask + b"\r\n")
        answer = b""
        while chunk := sock.recv(4096):  # the server closing is what ends this loop
            answer += chunk
    assert answer.startswith(version[:5] + b"1.") and b" 304 " in answer.split(b"\r\n")[0]
