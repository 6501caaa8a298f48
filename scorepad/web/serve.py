"""`python -m scorepad`: serve the app on the local network with a production WSGI server (waitress), and
print the address and a QR code a phone can scan to open it."""

from __future__ import annotations

import argparse
import socket
import struct
import sys


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


EVERY_INTERFACE = ("0.0.0.0", "")


def banner(host: str, port: int, qr: bool = True) -> str:
    addresses = lan_addresses() if host in EVERY_INTERFACE else [host]
    urls = [f"http://{_in_url(a)}:{port}/" for a in addresses] or [f"http://127.0.0.1:{port}/"]
    lines = ["Scorepad is running. Open it on a phone on the same network:"]
    lines += [f"  {u}" for u in urls]
    if qr and not urls[0].startswith("http://127."):
        try:
            import io

            import segno

            out = io.StringIO()
            segno.make(urls[0], error="l").terminal(out=out, compact=True)
            lines.append(out.getvalue())
        except Exception as exc:  # a QR code is a convenience; the address above is enough
            lines.append(f"(no QR code: {exc})")
    lines.append("Press Ctrl+C to stop.")
    return "\n".join(lines)


def _in_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host  # an IPv6 address is bracketed in a URL


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m scorepad", description="Serve Scorepad.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--threads", type=int, default=8, help="worker threads (default: 8)")
    parser.add_argument("--no-qr", action="store_true", help="do not print a QR code")
    args = parser.parse_args(argv)

    import waitress

    from .app import create_app

    app = create_app()
    if args.host not in EVERY_INTERFACE:
        app.extensions["scorepad_hosts"].trust(args.host)  # the address printed below is one the app answers to
    print(banner(args.host, args.port, qr=not args.no_qr), flush=True)
    try:
        waitress.serve(app, host=args.host, port=args.port, threads=args.threads, ident="scorepad")
    except OSError as exc:
        sys.exit(f"Could not listen on {args.host}:{args.port}: {exc}. Try another --port.")
