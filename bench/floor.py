"""The floor the bench measures Scorepad against: a bare Flask page, served by the same waitress with the same
settings as `python -m scorepad`, on a loopback port. What this machine serves of it at the same moment says
what a request costs here before Scorepad does anything, so a kind's share of it reads the same on any machine.

    .venv/bin/python -m bench.floor --port 8001
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402

from scorepad.web.shell.serve import create_server, server_options  # noqa: E402

PAGE = "<!doctype html><title>Floor</title><p>A bare Flask page.</p>"


def bare_app() -> Flask:
    app = Flask("floor")
    app.add_url_rule("/", "page", lambda: PAGE)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    create_server(bare_app(), host="127.0.0.1", port=args.port, ident="floor", **server_options()).run()


if __name__ == "__main__":
    main()
