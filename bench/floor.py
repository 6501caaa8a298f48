"""The floor the bench measures Scorepad against: a bare Flask view rendering a compiled Jinja template of a page
the size of a game page, served by the same waitress with the same settings (and threads) as `python -m scorepad`,
on a loopback port. What this machine serves of it at the same moment says what a page costs here before Scorepad
does anything of its own, so a kind's share of it reads the same on any machine.

The template is compiled once, when the floor starts (Flask keeps it, as it keeps Scorepad's): a floor that
compiled it on every request would be a third as fast, and every share of it three times too flattering.

    .venv/bin/python -m bench.floor --port 8001 --bytes 29000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask, render_template  # noqa: E402
from jinja2 import DictLoader  # noqa: E402

from scorepad.web.shell.serve import create_server, server_options  # noqa: E402

# A page of our markup's kind: a head, a scoreboard and a form with a few values put in (escaped, a filter), and
# the rest the template's own text, as most of a page is. Rows are repeated into the template's text before it is
# compiled, so rendering it costs what a compiled template of that size costs, not a loop over data.
HEAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }} · Floor</title><meta name="csrf-token" content="{{ token }}">
<link rel="stylesheet" href="/static/app.css"></head>
<body hx-headers='{"X-CSRFToken": "{{ token }}"}'><main class="page"><h1>{{ title }}</h1>
<section id="scoreboard">{% for team in teams %}<div class="team team-{{ loop.index0 }}">
<span class="team-name">{{ team }}</span><span class="total">{{ totals[loop.index0] | string }}</span></div>
{% endfor %}</section><form method="post" action="/games/1/hands"><input type="hidden" name="token" value="{{ token }}">
"""
ROW = """<li><details class="hand" id="hand-{n}"><summary class="hand-row"><span class="num">{n}</span>
<span class="what"><strong>Grandma &amp; Cat</strong> 65 <span class="trump">♥</span>
<span class="badge badge-made">made</span><span class="small muted line2">meld 24·16 · counters 30·20 · Bob dealt
</span></span><span class="pts team-0"><span class="visually-hidden">Us:</span><span class="delta">+54</span>
<span class="visually-hidden">, total</span> <span class="run">1,040</span></span><span class="pts team-1">
<span class="visually-hidden">Them:</span><span class="delta">+36</span> <span class="run">720</span></span></summary>
<div class="hand-detail"><p><a href="/history/games/1/hands/{n}">Why hand {n} scored this, and its history</a></p>
</div></details></li>
"""
TAIL = """</form></main></body></html>
"""


def page_source(size: int) -> str:
    """The template's text: as many rows as make the page about `size` bytes."""
    rows = max(1, round((size - len(HEAD) - len(TAIL)) / len(ROW.format(n=10))))
    return HEAD + '<ol class="hands">' + "".join(ROW.format(n=n) for n in range(rows, 0, -1)) + "</ol>" + TAIL


def bare_app(size: int) -> Flask:
    """A view rendering a compiled template of about `size` bytes."""
    app = Flask("floor")
    app.jinja_loader = DictLoader({"floor.html": page_source(size)})
    context = {"title": "Us – Them", "teams": ("Us", "Them"), "totals": (1040, 720), "token": "a" * 86}
    app.add_url_rule("/", "page", lambda: render_template("floor.html", **context))
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--bytes", type=int, default=29_000, help="the size of the page it renders")
    args = parser.parse_args()
    create_server(bare_app(args.bytes), host="127.0.0.1", port=args.port, ident="floor", **server_options()).run()


if __name__ == "__main__":
    main()
