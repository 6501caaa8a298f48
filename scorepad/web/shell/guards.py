"""Checks that run before anything else on every request: who the request was addressed to, and where a change
was sent from.

DNS rebinding: a web page a guest opens on the same Wi-Fi can point a name of its own at this machine's address
and then talk to Scorepad as if it were that site. Its requests still carry its own name in `Host`, so only the
names and addresses this machine really has are answered. A change (any POST) that a browser says came from
another site's page is refused too: the passcode and the CSRF token are not the only things standing in its way.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
import threading
import time
from pathlib import Path

from flask import current_app, render_template, request

from .addresses import lan_addresses
from .proxies import INGRESS

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

READ_AGAIN_SECONDS = 5  # a Pi on DHCP may change address; reading the interfaces costs microseconds
_HOST = re.compile(r"(?P<name>[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?", re.ASCII | re.IGNORECASE)
SENT_FROM_HERE = ("same-origin", "none")  # Sec-Fetch-Site: a page of this site, or the user (a bookmark)


def host_name(host: str) -> str | None:
    """The name or address part of a Host header, lower-cased, without port, brackets or final dot; None when
    it is not a host name at all."""
    match = _HOST.fullmatch(host.strip())
    if match is None:
        return None
    return match["name"].lower().removeprefix("[").removesuffix("]").removesuffix(".")


def as_address(name: str) -> Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def machine_names() -> set[str]:
    """This machine's own names: localhost, its host name and that name on the local network (mDNS's .local)."""
    names = {"localhost"}
    full = socket.gethostname().lower().rstrip(".")
    for name in filter(None, {full, full.split(".")[0]}):
        names |= {name, f"{name}.local"}
    return names


def ipv6_addresses() -> list[str]:
    """IPv6 addresses of this machine's interfaces (Linux lists them in /proc; elsewhere, none)."""
    try:
        lines = Path("/proc/net/if_inet6").read_text().splitlines()
    except OSError:
        return []
    # Each line starts with the address as 32 hex digits, no colons.
    return [":".join(re.findall("....", line[:32])) for line in lines if re.match("[0-9a-f]{32}", line)]


def machine_addresses() -> frozenset[Address]:
    """Every address this machine has now: the ones `python -m scorepad` prints, and its IPv6 ones."""
    return frozenset(filter(None, map(as_address, lan_addresses() + ipv6_addresses())))


class OwnHosts:
    """The names and addresses this server answers to: this machine's, and the ones configured (TRUSTED_HOSTS,
    SCOREPAD_TRUSTED_HOSTS) for a reverse proxy or a DNS name. A name starting with "." takes its subdomains."""

    def __init__(self, configured: list[str], addresses=machine_addresses, clock=time.monotonic):
        self.names, self.fixed = machine_names(), set()
        self.suffixes: tuple[str, ...] = ()
        for entry in configured:
            self.trust(entry)
        self._read, self._clock = addresses, clock
        self._lock = threading.Lock()
        self._addresses: frozenset[Address] = frozenset()
        self._read_at = float("-inf")

    def trust(self, entry: str) -> None:
        """Answer to one more name or address too; ".example.org" takes every name under example.org."""
        name = host_name(entry.removeprefix("."))
        if name is None:
            return
        if entry.startswith("."):
            self.suffixes += (f".{name}",)
        elif (address := as_address(name)) is not None:
            self.fixed.add(address)
        else:
            self.names.add(name)

    def accepts(self, host: str) -> bool:
        """Whether a Host header names this server (any port)."""
        name = host_name(host)
        if name is None:
            return False
        if name in self.names or name.endswith(self.suffixes):
            return True
        address = as_address(name)
        return address is not None and (address.is_loopback or address in self.fixed or address in self._current())

    def _current(self) -> frozenset[Address]:
        with self._lock:
            if self._clock() - self._read_at >= READ_AGAIN_SECONDS:
                self._addresses, self._read_at = self._read(), self._clock()
            return self._addresses


def configured_hosts(setting, environment: str | None) -> list[str]:
    """TRUSTED_HOSTS (a list, or names separated by commas) and SCOREPAD_TRUSTED_HOSTS, as one list of names."""
    names = setting.split(",") if isinstance(setting, str) else list(setting or [])
    names += (environment or "").split(",")
    return [n.strip() for n in names if isinstance(n, str) and n.strip()]


def own_origin() -> str:
    return f"{request.scheme}://{request.host}".lower()


def cross_site() -> bool:
    """Whether the browser says this request was sent by a page of another site (or of no site: `null`)."""
    fetched_from = request.headers.get("Sec-Fetch-Site")
    if fetched_from is not None and fetched_from not in SENT_FROM_HERE:
        return True
    origin = request.headers.get("Origin")
    return origin is not None and origin.lower() != own_origin()


def addressed_here(environ, hosts: OwnHosts) -> bool:
    """Whether a request (its WSGI environ) was addressed to this server. A request naming no Host at all
    (HTTP/1.0, never a browser) was."""
    host = environ.get("HTTP_HOST")
    if host is None or hosts.accepts(host):
        return True
    # Home Assistant's ingress, from a proxy the owner named: it lets through only people signed in to Home
    # Assistant, under whatever name they open it by (homeassistant.local, an address, its remote name), so a
    # page of a stranger's name cannot reach Scorepad through it
    return bool(environ.get(INGRESS))


def refuse_other_hosts():
    """Before every request: one addressed to a name or address this server is not gets a page in words (400)
    and nothing else runs."""
    if addressed_here(request.environ, current_app.extensions["scorepad_hosts"]):
        return None
    host = request.headers.get("Host", "")
    current_app.logger.warning("Refused a request addressed to %r", host)
    return render_template("error.html", title="Not this address", message=(
        f"Scorepad does not answer to the address “{host[:100]}”. If it should (a name you gave this machine, "
        "or a proxy in front of it), add that name to TRUSTED_HOSTS in instance/config.py or to the "
        "SCOREPAD_TRUSTED_HOSTS environment variable (names separated by commas), then restart Scorepad.")), 400


def refuse_cross_site_changes():
    """Before every change: one a browser says another site's page sent gets a page in words (403) and nothing
    else runs. Without Sec-Fetch-Site or Origin (curl, old browsers) the CSRF token decides, as before."""
    if request.method in ("GET", "HEAD", "OPTIONS") or not cross_site():
        return None
    current_app.logger.warning("Refused a %s to %s sent from another site", request.method, request.path)
    return render_template("error.html", title="Sent from another site", message=(
        "This change was sent by a page of another website, so Scorepad refused it and nothing was changed. "
        "To make changes, open Scorepad itself on this network and try again.")), 403


# A form is a few hundred bytes. The bound sits above 10 MB so that a pasted wall of text in a name field is still
# answered beside its field (422) with what was typed; only bodies past any paste are refused unread.
FORM_BYTES = 12 * 1024 * 1024
UPLOAD_ENDPOINTS = {"transfer.import_file"}  # the only form that carries a file (its own limit is larger)


def bound_form_size():
    """Before the body is read: a form that is not an upload is refused past FORM_BYTES (413) instead of the
    import's 50 MB: tens of megabytes of percent-encoded text would cost minutes of decoding."""
    if request.endpoint not in UPLOAD_ENDPOINTS:
        request.max_content_length = FORM_BYTES


def too_large(_error):
    return render_template("error.html", title="Too much was sent", message=(
        "That form carried far more than any Scorepad form holds, so nothing was read and nothing was changed. "
        "Go back, check what was typed, and send it again.")), 413


def init_guards(app) -> None:
    """Call before anything else registers a before_request hook: these checks must run first."""
    names = configured_hosts(app.config.get("TRUSTED_HOSTS"), os.environ.get("SCOREPAD_TRUSTED_HOSTS"))
    app.extensions["scorepad_hosts"] = OwnHosts(names)
    # Werkzeug's own check knows no address that changes and cannot match an IPv6 one: ours replaces it.
    app.config["TRUSTED_HOSTS"] = None
    app.before_request(refuse_other_hosts)
    app.before_request(refuse_cross_site_changes)
    app.before_request(bound_form_size)
    app.register_error_handler(413, too_large)
