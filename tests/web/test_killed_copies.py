"""A copy of the database killed midway, in a real process killed with SIGKILL: the copy an upgrade keeps first,
the private copy a restore checks, the safety copy a restore keeps. None leaves a half file under a name a
family would restore, and the next start or run clears what it left. (Small databases, a copy paused halfway:
tests/system/test_killed_copies_full_size.py has the full-size ones.)"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scorepad import create_app
from scorepad.core.rules import PRESETS
from scorepad.store import autobackup, connection, files, schema
from scorepad.store import backups as store_backups
from tests.helpers import ROOT

# A process that copies a database a few pages at a time, says so when half of a copy is done (a copy into the
# folder PAUSE_IN, or one whose file name has PAUSE_IN in it), and waits there to be killed; then runs the code
# it is given.
PAUSED_COPY = """
import os, sys, time
from pathlib import Path
from scorepad.store import backups

def paused_copy(source, path):
    import contextlib, sqlite3
    pause_in = os.environ["PAUSE_IN"]
    here = str(Path(path).parent) == pause_in if pause_in.startswith("/") else pause_in in Path(path).name
    with contextlib.closing(sqlite3.connect(path)) as copy:
        def progress(status, remaining, total):
            if here and remaining <= total // 2:
                os.write(1, f"copying {path}\\n".encode())  # the real stdout, even under click's runner
                time.sleep(60)
        source.backup(copy, pages=4, progress=progress)

backups.copy_database = paused_copy
"""


def killed_halfway(code: str, pause_in: str, *, env: dict | None = None) -> str:
    """Run PAUSED_COPY then `code` in a new Python; SIGKILL it once the copy into a path holding `pause_in` is
    half done. Returns the path it was copying to."""
    process = subprocess.Popen([sys.executable, "-c", PAUSED_COPY + code], cwd=ROOT, stdout=subprocess.PIPE,
                               text=True, env={**os.environ, "PAUSE_IN": pause_in, **(env or {})})
    with process.stdout:
        line = process.stdout.readline()
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    # (once, under a full run's load, the line came as "xcopying …": a byte of unknown origin before it; what the
    # line says is what counts)
    assert "copying " in line, f"the process ended before its copy was half done: {line!r}"
    return line.split("copying ", 1)[1].strip()


RULES = json.dumps(PRESETS["double-deck"].to_dict())  # rows a restore can read (it reads every one)


def some_games(path: Path, count: int = 300) -> None:
    """Enough pages that a copy four pages at a time has a middle."""
    with contextlib.closing(connection.connect(str(path))) as db, db.conn:
        for n in range(count):
            db.execute("INSERT INTO games (created_at, rules, team_0, team_1, first_dealer) VALUES (?, ?, ?, ?, 0)",
                       ["2025-01-01T20:00:00+00:00", RULES, f"Us {n} " + "x" * 200, "Them"])


def games_in(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return db.execute("SELECT count(*) FROM games").fetchone()[0]


def older_database(path: Path) -> Path:
    with contextlib.closing(connection.connect(str(path))) as db:
        schema.migrations.apply(db, stop_before=schema.migrations.pending(db)[-1].name)
    some_games(path)
    return path


def everything_in(folder: Path) -> list[str]:
    """The files in `folder`, but the log SQLite keeps beside an open database."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(("-wal", "-shm")))


def test_a_hidden_file_whose_writer_was_killed_is_cleared_at_once_and_one_being_written_is_not(tmp_path):
    code = (f"from pathlib import Path\nfrom scorepad.store import files\n"
            f"with files.being_written(Path({str(tmp_path)!r})) as path:\n"
            f"    path.write_bytes(b'half')\n    print('copying', path, flush=True)\n    import time; time.sleep(60)\n")
    left = Path(killed_halfway(code, ""))
    assert left.exists()
    with files.being_written(tmp_path) as alive:
        assert autobackup.clear_leftovers(tmp_path) == [left.name]
        assert everything_in(tmp_path) == [alive.name]
    assert everything_in(tmp_path) == []


def test_a_server_killed_while_keeping_its_copy_before_an_upgrade_leaves_no_half_copy(tmp_path):
    live = older_database(tmp_path / "scorepad.db")
    code = ("from scorepad import create_app\n"
            f"create_app({{'TESTING': True, 'SECRET_KEY': 'x', 'DATABASE': {str(live)!r}}})\n")
    killed_halfway(code, str(tmp_path / "backups"))
    backups = tmp_path / "backups"
    assert not list(backups.glob("before-upgrade-*")), "a half copy under a backup's name"
    assert len(schema.pending_migrations(connection.connect(str(live)))) == 1  # nothing was upgraded
    create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE": str(live)})  # the next start
    [copy] = backups.glob("before-upgrade-*.db")
    assert games_in(copy) == 300 and everything_in(backups) == [copy.name]


@pytest.fixture
def restoring(make_app, tmp_path):
    """An app over a database with a game, a backup of it with 300, and the code that restores it (`flask
    restore --yes`) in another process."""
    app = make_app()
    live = Path(app.config["DATABASE"])
    saved = tmp_path / "saved.db"
    some_games(live)
    store_backups.backup(str(live), str(saved))
    with contextlib.closing(connection.connect(str(live))) as db, db.conn:
        db.execute("DELETE FROM games WHERE id > 1")
    code = ("from scorepad import create_app\n"
            f"app = create_app({{'TESTING': True, 'SECRET_KEY': 'x', 'DATABASE': {str(live)!r}, "
            f"'BACKUP_DIR': {str(tmp_path / 'backups')!r}}})\n"
            f"result = app.test_cli_runner().invoke(args=['restore', '--yes', {str(saved)!r}])\n"
            "print(result.output, flush=True)\n")
    return app, live, code


def test_a_restore_killed_while_checking_its_backup_leaves_its_copy_for_the_next_run_to_clear(restoring,
                                                                                              tmp_path):
    app, live, code = restoring
    temp = tmp_path / "temp"
    temp.mkdir()
    before = everything_in(live.parent)
    copying = killed_halfway(code, "backup.db", env={"TMPDIR": str(temp)})
    assert everything_in(temp) == [], "the restore's private copy is in the temporary folder"
    assert Path(copying).parent.parent == live.parent  # beside the database, hidden
    assert games_in(live) == 1
    create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE": str(live)})  # the next start or command
    assert everything_in(live.parent) == before


def test_a_restore_killed_while_keeping_its_safety_copy_leaves_no_half_copy(restoring):
    app, live, code = restoring
    before = everything_in(live.parent)
    killed_halfway(code, str(live.parent))
    assert not list(live.parent.glob("before-restore-*")), "a half copy under a safety copy's name"
    assert games_in(live) == 1
    create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE": str(live)})
    assert everything_in(live.parent) == before
