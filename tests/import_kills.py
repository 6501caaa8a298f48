"""Imports killed at random moments and restores landing during imports, for real: each import is a process of
its own (SIGKILLed, or left to finish), each restore runs here while it writes. After every round the database's
links are whole, a backup of it is taken, every restored hand is there, and each import is all there or not at
all (all there when it said it was done and no restore replaced the database since). At the end every backup
taken restores, with the hands it held. The store tests run a small example, the system tests the full size."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from scorepad.services import transfer
from scorepad.store import backups, connection, schema
from tests.helpers import ROOT
from tests.store.helpers import export_of

IMPORT = """
import json, sys
from scorepad.services import transfer
from scorepad.store import connection
db = connection.connect(sys.argv[1])
print("imported", len(transfer.import_document(db, json.load(open(sys.argv[2])))), flush=True)
"""


@dataclass
class Figures:
    imports: int = 0
    kills: int = 0
    acknowledged: int = 0
    restores: int = 0
    backups: int = 0
    hands_checked: int = 0
    lost: list = field(default_factory=list)  # (round, what, token)
    half_imports: list = field(default_factory=list)  # (round, present, of)
    broken: list = field(default_factory=list)  # (round, broken links)


def tokens_of(path) -> set[str]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return {token for (token,) in conn.execute("SELECT h.token FROM hands h JOIN games g ON g.id = h.game_id")}


def broken_links(path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return len(conn.execute("PRAGMA foreign_key_check").fetchall())


def a_backup(folder: Path, games: int, seed: int) -> Path:
    """A backup of a database holding `games` imported games, to restore during the imports."""
    path = folder / "restored-from.db"
    schema.migrate(str(path))
    db = connection.connect(str(path))
    try:
        transfer.import_document(db, export_of(random.Random(seed), games))
    finally:
        db.close()
    return backups.backup(str(path), str(folder / "to-restore.db"))


def kill_imports(live: Path, folder: Path, rounds: int, games: int, seed: int) -> Figures:
    """`rounds` imports of `games` games each into `live`: about half killed at a random moment of their run, and
    about a third with a restore landing while they write."""
    rng = random.Random(seed)
    figures = Figures()
    backup = a_backup(folder, max(games // 2, 3), seed)
    restored = tokens_of(backup)
    taken: list[tuple[Path, set[str]]] = []
    # how long an import takes, start to end: the first round's, then a running mean of the rounds left alone (a
    # restore makes its import wait on the lock, and a guess held over from before the first round kept the kills
    # of the early rounds landing after their imports had ended: 7 kills of 20 once, where the test wants 8)
    duration = 1.0
    # A kill that lands after its import has ended is no kill: on a loaded machine an import can run quicker than
    # the mean so far (7 of 40 once, where the test wants 8), so rounds go on, each one killed, until a fifth of
    # `rounds` have been killed mid-import (at most twice as many rounds in all).
    number = -1
    while (number := number + 1) < rounds or (figures.kills < rounds // 5 and number < 2 * rounds):
        document = folder / f"import-{number}.json"
        data = export_of(random.Random(seed * 1000 + number), games)
        document.write_text(json.dumps(data))
        imported = {h["token"] for g in data["games"] for h in g["hands"]}
        # the first round is left alone, to time an import; then the moments fall where an import writes (its
        # process starting and reading the file take the first part of its run)
        kill = number > 0 and (number >= rounds or rng.random() < 0.5)
        restore = number > 0 and rng.random() < 0.35
        started = time.monotonic()
        process = subprocess.Popen([sys.executable, "-c", IMPORT, str(live), str(document)], cwd=ROOT,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        figures.imports += 1
        restorer = None
        if restore:
            restorer = threading.Timer(rng.uniform(0.3, 1.0) * duration, backups.restore, [str(backup), str(live)])
            restorer.start()
        if kill:
            time.sleep(rng.uniform(0.3, 1.0) * duration)
            process.send_signal(signal.SIGKILL)
        out, _ = process.communicate(timeout=300)
        if restorer is not None:
            restorer.join()
            figures.restores += 1
        done = process.returncode == 0 and out.startswith("imported")
        figures.kills += kill and not done
        figures.acknowledged += done
        if done and not kill and not restore:
            took = time.monotonic() - started
            duration = took if number == 0 else 0.8 * duration + 0.2 * took
        now = tokens_of(live)
        present = len(imported & now)
        figures.hands_checked += len(imported)
        if present not in (0, len(imported)):
            figures.half_imports.append((number, present, len(imported)))
        if done and not restore and present != len(imported):
            figures.lost += [(number, "imported", token) for token in imported - now]
        if figures.restores:
            figures.hands_checked += len(restored)
            figures.lost += [(number, "restored", token) for token in restored - now]
        broken = broken_links(live)
        if broken:
            figures.broken.append((number, broken))
        taken.append((backups.backup_into(str(live), folder / "backups"), now))
        figures.backups += 1
    for number, (path, held) in enumerate(taken):
        scratch = folder / "scratch" / f"{number}.db"
        scratch.parent.mkdir(exist_ok=True)
        schema.migrate(str(scratch))
        backups.restore(str(path), str(scratch))
        back = tokens_of(scratch)
        figures.hands_checked += len(held)
        figures.lost += [(number, "backed up", token) for token in held - back]
    return figures


def report(figures: Figures) -> str:
    return (f"{figures.imports} imports, {figures.kills} killed, {figures.acknowledged} done, {figures.restores} "
            f"restores, {figures.backups} backups restored, {figures.hands_checked} hands checked, "
            f"{len(figures.lost)} lost, {len(figures.half_imports)} half imports, {len(figures.broken)} broken")
