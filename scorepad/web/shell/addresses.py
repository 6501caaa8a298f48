"""This machine's addresses on the local network: what the server prints, the Host check trusts and a club
night's table cards point at. Its own module so that the app's modules need not import the server that imports
the app."""

from __future__ import annotations

import socket
import struct


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine's network interfaces, loopback last. Reads the interfaces; sends nothing."""
    found: list[str] = []
    try:
        import fcntl

        for _, name in socket.if_nameindex():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                try:
                    packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))
                except OSError:
                    continue  # an interface with no IPv4 address
                found.append(socket.inet_ntoa(packed[20:24]))
    except (ImportError, OSError):
        try:
            found.append(socket.gethostbyname(socket.gethostname()))
        except OSError:
            pass
    return sorted(set(found), key=lambda a: (a.startswith("127."), a))
