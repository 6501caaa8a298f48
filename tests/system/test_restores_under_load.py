"""Ten restores from the command line while four phones keep recording on the real server: no hand a phone was
told is saved is lost."""

import os
import re
import sqlite3
import statistics
import subprocess
import sys
import threading
import time

import pytest

from scorepad.store import backups
from tests.helpers import ROOT, safety_copies
from tests.system.helpers import Phone, keep_recording, server

pytestmark = pytest.mark.slow


def test_ten_restores_while_four_phones_record_lose_no_acknowledged_hand(tmp_path):
    """The real server, four phones recording as fast as they can, and ten restores from the command line
    meanwhile: every hand a phone was told is saved is in the live database or in a safety copy."""
    live = tmp_path / "live" / "scorepad.db"
    live.parent.mkdir()
    saved = tmp_path / "saved.db"
    env = {**os.environ, "SCOREPAD_DATABASE": str(live)}
    env.pop("SCOREPAD_PASSCODE", None)
    answered: list[str] = []
    holds: list[float] = []
    with server(live) as (base, _):
        phones = [Phone(base) for _ in range(4)]
        games = [phone.new_game() for phone in phones]
        assert len(set(games)) == 4
        backups.backup(str(live), str(saved))
        stop = threading.Event()
        writers = [threading.Thread(target=keep_recording, args=(phone, game_id, stop, answered))
                   for phone, game_id in zip(phones, games, strict=True)]
        started = time.monotonic()
        for writer in writers:
            writer.start()
        try:
            for _ in range(10):
                time.sleep(0.3)  # let the phones record a few hands on the restored database
                done = subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", "restore", "--yes",
                                       str(saved)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
                assert done.returncode == 0, done.stderr
                holds.append(float(re.search(r"waited ([\d.]+) s", done.stdout)[1]))
            time.sleep(0.3)
        finally:
            stop.set()
            for writer in writers:
                writer.join(timeout=15)
        seconds = time.monotonic() - started
        copies = safety_copies(live)
        tokens = set()
        for path in [live, *copies]:
            with sqlite3.connect(path) as db:
                assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                tokens |= {row[0] for row in db.execute("SELECT token FROM hands")}
    print(f"\n{len(answered)} hands acknowledged in {seconds:.1f} s by 4 phones, {len(holds)} restores; "
          f"lock held median {statistics.median(holds) * 1000:.0f} ms, max {max(holds) * 1000:.0f} ms")
    assert len(copies) == 10
    assert set(answered) <= tokens, f"{len(set(answered) - tokens)} acknowledged hands are nowhere"
    assert len(answered) > 40  # the phones really did record while the restores ran
