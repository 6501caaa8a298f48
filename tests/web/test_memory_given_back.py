"""The server gives back what its allocator freed (`serve.memory_given_back`): a Pi Zero 2 has 512 MB.

A large block freed makes glibc carve every later one of that size from its heap, where small blocks left between
them keep the heap from ever shrinking: a player's records, eight at a time, held some 20 MiB that way."""

import subprocess
import sys

import pytest

from tests.helpers import ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator only")

FRAGMENTS = """
import sys
if sys.argv[1] == "given back":
    from scorepad.web.shell.serve import memory_given_back
    memory_given_back()

def resident():
    return int(next(line for line in open("/proc/self/status") if line.startswith("VmRSS")).split()[1]) // 1024

first = bytearray(b"x") * (4 << 20)  # one large block freed: glibc's threshold for mapping one on its own rises
del first
before, blocks, kept = resident(), [], []
for _ in range(200):
    blocks.append(bytearray(b"x") * (512 * 1024))  # a page being rendered
    kept.append(bytearray(b"x") * 1000)  # something small that stays, between them on the heap
del blocks
print(resident() - before)
"""


def held_after_freeing(how: str) -> int:
    done = subprocess.run([sys.executable, "-c", FRAGMENTS, how], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=True)
    return int(done.stdout)


def test_memory_freed_between_small_blocks_that_stay_is_given_back():
    assert held_after_freeing("given back") < 5  # MiB, of the 100 freed


def test_without_it_glibc_would_have_kept_it():
    """The case above is the one it is for: without the setting, the same work keeps most of the 100 MiB."""
    assert held_after_freeing("as glibc does") > 50
