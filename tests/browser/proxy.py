"""A small reverse proxy on loopback for the browser tests: what a NAS's web station or Home Assistant's ingress does
in front of Scorepad. It passes on what the browser asks under its prefix, without the prefix, to the server
behind it, with the headers such a proxy adds; anything outside the prefix it does not have (404), and it notes
it, so a test sees every address a page or a script built from "/" by itself."""

from __future__ import annotations

import http.client
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Hop-by-hop headers: about one connection, never passed on (RFC 9110, 7.6.1)
HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
              "transfer-encoding", "upgrade"}


class ReverseProxy:
    """`prefix` on 127.0.0.1:<port> to the server at `backend` ("127.0.0.1:8000"). `headers(handler)` gives the
    headers the proxy adds to a request it passes on; `pages` are served by the proxy itself (path -> HTML)."""

    def __init__(self, backend: str, prefix: str, headers, pages: dict[str, str] | None = None):
        self.backend, self.prefix, self.headers, self.pages = backend, prefix.rstrip("/"), headers, pages or {}
        self.outside: list[str] = []  # what was asked outside the prefix
        self.passed = 0
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keeps the browser's connections, as a real proxy does

            def do_GET(self):
                proxy.handle(self)

            do_POST = do_HEAD = do_PUT = do_DELETE = do_GET

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def url(self) -> str:
        """Scorepad's address through the proxy (no final slash: a test adds its paths)."""
        return self.origin + self.prefix

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def handle(self, request: BaseHTTPRequestHandler) -> None:
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length) if length else b""
        path = request.path
        if path in self.pages:
            return self._answer(request, 200, [("Content-Type", "text/html; charset=utf-8")],
                                self.pages[path].encode())
        if path.split("?")[0] != self.prefix and not path.startswith(self.prefix + "/"):
            self.outside.append(f"{request.command} {path}")
            return self._answer(request, 404, [("Content-Type", "text/plain")], b"Not under the prefix")
        headers = {name: value for name, value in request.headers.items() if name.lower() not in HOP_BY_HOP}
        headers.update(self.headers(request))
        backend = http.client.HTTPConnection(self.backend, timeout=30)
        try:
            backend.request(request.command, path[len(self.prefix):] or "/", body=body or None, headers=headers)
            answer = backend.getresponse()
            data = answer.read()
            kept = [(name, value) for name, value in answer.getheaders() if name.lower() not in HOP_BY_HOP
                    and name.lower() != "content-length"]
            self.passed += 1
            self._answer(request, answer.status, kept, data, bodiless=answer.status in (204, 304))
        finally:
            backend.close()

    @staticmethod
    def _answer(request, status: int, headers, data: bytes, bodiless: bool = False) -> None:
        request.send_response(status)
        for name, value in headers:
            request.send_header(name, value)
        if not bodiless:
            request.send_header("Content-Length", str(len(data)))
        request.end_headers()
        if request.command != "HEAD" and not bodiless:
            request.wfile.write(data)


def web_station(request) -> dict[str, str]:
    """What a NAS's web station (nginx) adds: where the browser is, and the prefix it strips."""
    return {"X-Forwarded-For": request.client_address[0], "X-Forwarded-Host": request.headers.get("Host", ""),
            "X-Forwarded-Proto": "http", "X-Forwarded-Prefix": "/scorepad/"}


def home_assistant(token: str):
    """What Home Assistant's ingress adds (its core, then its supervisor): the ingress path, where the browser is,
    and the addresses of its two hops. The browser's Host goes through as it was."""
    def headers(request) -> dict[str, str]:
        return {"X-Ingress-Path": f"/api/hassio_ingress/{token}", "X-Hass-Source": "core.ingress",
                "X-Forwarded-Host": request.headers.get("Host", ""), "X-Forwarded-Proto": "http",
                "X-Forwarded-For": f"{request.client_address[0]}, 127.0.0.1"}
    return headers
