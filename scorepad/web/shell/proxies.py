"""Behind a reverse proxy at a sub-path: a NAS's web station at /scorepad/, Home Assistant's ingress.

A proxy says where the browser really is: X-Forwarded-Prefix (the sub-path it strips before passing a request on;
Home Assistant names it X-Ingress-Path), X-Forwarded-Host, X-Forwarded-Proto, X-Forwarded-Port and X-Forwarded-For.
Those headers are believed only from the proxies the owner names (TRUSTED_PROXIES, or SCOREPAD_TRUSTED_PROXIES:
addresses or networks separated by commas), never by default: any phone on the Wi-Fi could send them, to be
someone else (the passcode's guess counter goes by address) or to send the page's links elsewhere. From anyone
else they are removed before anything reads them.

From a named proxy, Werkzeug's ProxyFix puts them where Flask looks (SCRIPT_NAME, the host, the scheme), so every
address `url_for` builds, every redirect and every `data-root` a script builds on carries the prefix. The client's
address is the last one in X-Forwarded-For that is not itself a named proxy (two hops in Home Assistant: its core,
then its supervisor).
"""

from __future__ import annotations

import ipaddress
import logging
import re

from werkzeug.middleware.proxy_fix import ProxyFix

_logger = logging.getLogger(__name__)

FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT",
             "HTTP_X_FORWARDED_PREFIX", "HTTP_X_INGRESS_PATH", "HTTP_FORWARDED")
INGRESS = "scorepad.ingress"  # set in the environ of a request that came through Home Assistant's ingress
# A prefix is a path of plain segments ("/scorepad", "/api/hassio_ingress/Q3x-_9"): anything else is not used.
_PREFIX = re.compile(r"(?:/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*/?")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ProxySettingRefused(ValueError):
    """TRUSTED_PROXIES holds something that is not an address or a network."""


def trusted_networks(setting, environment: str | None) -> tuple[Network, ...]:
    """TRUSTED_PROXIES (a list, or entries separated by commas) and SCOREPAD_TRUSTED_PROXIES, as networks: an
    address is a network of one. Raises ProxySettingRefused naming an entry that is neither."""
    entries = setting.split(",") if isinstance(setting, str) else list(setting or [])
    entries += (environment or "").split(",")
    networks = []
    for entry in (str(e).strip() for e in entries):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ProxySettingRefused(
                f"TRUSTED_PROXIES (SCOREPAD_TRUSTED_PROXIES) holds “{entry}”, which is not an address or a network "
                "(such as 127.0.0.1, 172.30.32.2 or 10.0.0.0/8). Correct it and start Scorepad again.") from None
    return tuple(networks)


def _address(text: str | None):
    try:
        address = ipaddress.ip_address((text or "").strip().strip("[]"))
    except ValueError:
        return None
    return address.ipv4_mapped or address if address.version == 6 else address


class TrustedProxies:
    """WSGI middleware: the proxy headers of a request from a named proxy are applied; anyone else's removed."""

    def __init__(self, app, networks: tuple[Network, ...]):
        self.app, self.networks = app, networks
        self.fixed = ProxyFix(app, x_for=0, x_proto=1, x_host=1, x_port=1, x_prefix=1)

    def trusts(self, text: str | None) -> bool:
        address = _address(text)
        return address is not None and any(address in network for network in self.networks)

    def __call__(self, environ, start_response):
        if not self.networks or not self.trusts(environ.get("REMOTE_ADDR")):
            for name in FORWARDED:
                environ.pop(name, None)
            return self.app(environ, start_response)
        ingress = environ.pop("HTTP_X_INGRESS_PATH", None)
        if ingress:
            environ[INGRESS] = True
            environ.setdefault("HTTP_X_FORWARDED_PREFIX", ingress)
        prefix = environ.get("HTTP_X_FORWARDED_PREFIX")
        if prefix is not None and not _PREFIX.fullmatch(prefix.strip()):
            _logger.warning("A proxy sent the prefix %r, which is not a path: it is not used", prefix[:200])
            del environ["HTTP_X_FORWARDED_PREFIX"]
        environ["REMOTE_ADDR"] = self.client(environ)
        return self.fixed(environ, start_response)

    def client(self, environ) -> str:
        """The address the request came from: the proxy's own, or the last one before it in X-Forwarded-For
        that is not a named proxy."""
        hops = [hop.strip() for hop in environ.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
        remote = environ.get("REMOTE_ADDR", "")
        for hop in reversed(hops):
            if _address(hop) is None:
                return remote  # a list that is not addresses: the proxy's own is the one we know
            if not self.trusts(hop):
                return hop
            remote = hop
        return remote


def init_app(app, environment: str | None) -> None:
    """Wrap `app`'s WSGI app when proxies are named (the setting is checked even when none are)."""
    networks = trusted_networks(app.config.get("TRUSTED_PROXIES"), environment)
    app.extensions["scorepad_proxies"] = networks
    app.wsgi_app = TrustedProxies(app.wsgi_app, networks)
