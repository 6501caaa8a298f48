"""What tests of every layer share: where things are, and how a page is read."""

from __future__ import annotations

import ast
import contextlib
import threading
from pathlib import Path

from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parent.parent


def imported(path: Path) -> set[str]:
    """Every dotted name the Python file at `path` (in this repository) imports, imports inside functions too,
    relative imports resolved; `from a import b` counts as `a` and `a.b` (b may be a module)."""
    package = path.parent.relative_to(ROOT).parts
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names |= {module} | {f"{module}.{alias.name}" for alias in node.names}
    return names
FIXTURES = ROOT / "tests" / "fixtures"


def parse(response) -> BeautifulSoup:
    return parse_text(response.get_data(as_text=True))


def parse_text(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


def safety_copies(live: Path) -> list[Path]:
    """The copies a restore keeps of the database it replaced, beside it, oldest first."""
    return sorted(live.parent.glob("before-restore-*.db"))



def quick_and_in_full(*, quick: int, full: int, options: dict | None = None, **strategies):
    """`@given(**strategies)` twice over one test body: at full size (`full` examples, marked slow) under the
    test's own name, and as `<name>_in_a_few_examples` (`quick` examples) in the quick loop. `options` are the
    rest of its hypothesis settings; an `@example` below this decorator is tried by both. A run that takes the full
    size leaves the few examples out (tests/conftest.py): they are a sample of the same test."""
    import sys

    import pytest
    from hypothesis import given, settings

    def decorate(body):
        def sized(examples: int):
            return settings(max_examples=examples, **(options or {}))(given(**strategies)(body))
        quick_test = pytest.mark.quick_twin(body.__name__)(sized(quick))
        quick_test.__name__ = quick_test.__qualname__ = f"{body.__name__}_in_a_few_examples"
        setattr(sys.modules[body.__module__], quick_test.__name__, quick_test)  # collected beside the full one
        return pytest.mark.slow(sized(full))
    return decorate


def quick_twins_of_full_runs(items: list) -> list:
    """The tests marked quick_twin whose full-size test is chosen too: the full one tries the same test on many more
    examples (its @example ones as well), so the few would only repeat a sample of it."""
    chosen = {(item.module.__name__, item.originalname) for item in items if item.get_closest_marker("slow")}
    return [item for item in items if (twin := item.get_closest_marker("quick_twin"))
            and (item.module.__name__, twin.args[0]) in chosen]


def csv_sheets(text: str) -> list[tuple[list[str], list[dict]]]:
    """The score sheets of a CSV export, as a person reads them: for each game, its title line (game, teams, when,
    rules, how it stands) and its hands, each a row by the header's names ("Us meld", "Them total")."""
    import csv
    import io

    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))
    blocks, block = [], []
    for row in [*rows, []]:
        if row:
            block.append(row)
        elif block:
            title, head, *hands = block
            blocks.append((title, [dict(zip(head, hand, strict=True)) for hand in hands]))
            block = []
    return blocks


def csv_head(text: str) -> list[str]:
    """The header of the first game's score sheet in a CSV export."""
    import csv
    import io

    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))[1]


@contextlib.contextmanager
def serving(server):
    """A waitress `server` answering on a thread of its own while the block runs, then stopped whole. Closed from
    this thread while its own sat in `select`, a server's loop met its closed socket (EBADF) and its thread died
    with an exception that pytest pinned on whatever test the worker ran next (seen in a full run)."""
    stopping = threading.Event()

    def run():
        try:
            server.run()
        except OSError:  # a socket closed under the loop's select: the stop below, not a fault
            if not stopping.is_set():
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stopping.set()
        server.close()
        for channel in list(server._map.values()):  # the kept-alive connections too: the loop ends with them
            channel.close()
        server.task_dispatcher.shutdown()
        thread.join(timeout=5)
