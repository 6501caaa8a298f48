"""The benchmark still runs (tiny, no browser). It asserts no timing: figures are the benchmark's to print."""

import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT

pytestmark = pytest.mark.slow


def test_the_benchmark_runs_end_to_end_and_prints_its_table():
    done = subprocess.run([sys.executable, "bench/run.py", "--games", "60", "--seconds", "0.5", "--rate", "20",
                           "--clients", "2", "--club-tables", "3", "--club-seconds", "2", "--scale-tables", "2",
                           "--scale-seconds", "2", "--floor-seconds", "0.2",
                           "--no-browser"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    for kind in ("poll", "game page", "fragment", "record hand", "history", "records"):
        assert f"  {kind} " in out
    assert "server peak memory" in out and "first load of a game page" in out and "one recorded hand" in out
    assert "a club night of 3 tables" in out
    assert "against the floor: a bare Flask view rendering a compiled template" in out
    for kind in ("an empty page of ours (/about)", "the poll (304)", "game page", "history", "a player's records",
                 "record a hand (page + POST)"):  # each beside the floor, a ratio against its goal
        assert re.search(rf"  {re.escape(kind)} +\d+ +\d+ +\d+\.\d\d×  ≥ \d\.\d\d× (ok|MISSED)", out), kind
    # a hand recorded as the form sends it with JavaScript (one boosted POST, answered with the page) and without
    # (a 303 and a GET): each saved some, or its rate would be 0
    for kind in ("record a hand (page + POST)", "the same without JavaScript"):
        assert int(re.search(rf"  {re.escape(kind)} +(\d+) ", out)[1]) > 0, kind
    assert "one recorded hand: " in out and "answer 200 saved" in out
    assert re.search(r"the game page's \d+ games looked at once before its turns, one after the other: \d+ "
                     r"rendered afresh, \d+\.\d s in all", out)
    assert re.search(r"a save under overload \(closed loop, 2 clients\): median \d+ ms, a game page's", out)
    assert re.search(r"server peak memory \(VmHWM\), 100 MiB goal: \d+ MiB", out) and "kept: rendered pages:" in out
    for kind in ("sheet poll", "seat poll", "wall poll"):
        assert f"  {kind} " in out
    assert "a club night of 2 tables as browsers make it" in out and "floor median" in out
    assert "opened for" in out and "0 opened again" in out
    assert "restore drill on the benchmark database" in out and "scratch file" in out and "% of one core" in out
