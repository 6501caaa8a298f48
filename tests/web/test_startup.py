"""What stops Scorepad from starting is said in one sentence, by the server and by every command: a data folder
that cannot be made or written, a secret key that cannot be kept. A key a killed first start left empty is
made anew."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from scorepad import create_app
from scorepad.web.shell.startup import CannotStart
from tests.helpers import ROOT


def test_a_data_folder_that_cannot_be_made_is_a_sentence(tmp_path, monkeypatch):
    (tmp_path / "a-file").write_text("where the folder should be")
    monkeypatch.setenv("SCOREPAD_INSTANCE", str(tmp_path / "a-file" / "data"))
    with pytest.raises(CannotStart, match=r"^Scorepad cannot make the folder .*a-file/data \(Not a directory\), "
                                          r"where it keeps its settings.* SCOREPAD_INSTANCE\.$"):
        create_app({"TESTING": True})


def test_a_database_folder_that_cannot_be_written_is_a_sentence(tmp_path):
    (tmp_path / "a-file").write_text("where the folder should be")
    with pytest.raises(CannotStart, match="Scorepad cannot .*a-file"):
        create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE": str(tmp_path / "a-file" / "scorepad.db")})


def test_a_secret_key_a_killed_first_start_left_empty_is_made_anew(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREPAD_INSTANCE", str(tmp_path))
    (tmp_path / "secret_key").write_text("")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "scorepad.db")})
    key = (tmp_path / "secret_key").read_text()
    assert len(key) == 64 and app.config["SECRET_KEY"] == key
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
    assert create_app({"TESTING": True, "DATABASE": str(tmp_path / "scorepad.db")}).config["SECRET_KEY"] == key
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("scorepad.db")) == ["secret_key"]


AS_NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"]


def _runs_scorepad(prefix: list[str], cwd: Path, env: dict) -> bool:
    # the package, and the folder it runs in (flask's commands look there for a .env)
    check = "import os, scorepad; assert os.path.exists(os.getcwd())"
    done = subprocess.run([*prefix, sys.executable, "-c", check], cwd=cwd, env=env, capture_output=True, timeout=60)
    return done.returncode == 0


@pytest.fixture(scope="module")
def as_another_user(tmp_path_factory):
    """(prefix, cwd, env) that run Scorepad as a user who is not root, for a test run as root (root writes
    anywhere). That user must reach Python and the checkout: where the checkout is in a folder only its owner may
    enter (a clone under /root, 0700), the user is lent the right to read and search (never to write), or failing
    that is given a copy of the source in a folder it can read; the test is skipped only where neither can be."""
    setpriv = shutil.which("setpriv")
    # util-linux's setpriv is on every Debian-like machine the README names: never skipped silently
    assert setpriv, "running as root: setpriv (util-linux) is needed to run the test as another user"
    env = dict(os.environ)
    plain = [setpriv, *AS_NOBODY]
    if _runs_scorepad(plain, ROOT, env):
        return plain, ROOT, env
    reading = [*plain, "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]
    if _runs_scorepad(reading, ROOT, env):
        return reading, ROOT, env
    copy = tmp_path_factory.mktemp("scorepad-for-nobody")
    for part in ("scorepad", "templates", "static"):
        shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    for folder in (copy, *copy.rglob("*")):
        folder.chmod(0o755 if folder.is_dir() else 0o644)
    for parent in copy.parents:  # pytest's own folders are its user's alone: let the other user pass through
        if parent == Path(tempfile.gettempdir()):
            break
        parent.chmod(parent.stat().st_mode | 0o711)
    env = {**env, "PYTHONPATH": str(copy)}
    if _runs_scorepad(plain, copy, env):
        return plain, copy, env
    pytest.skip(f"running as root, and no other user can run {sys.executable}: neither this machine's Python nor a "
                "copy of Scorepad is reachable by them, and root may not lend them the right to read (no "
                "CAP_DAC_READ_SEARCH in this container)")


@pytest.fixture
def unwritable_folder(request):
    """A data folder this test's processes cannot write in, and how to run them: as another user when the tests
    run as root (see `as_another_user`), else the folder is made read-only."""
    folder = Path(tempfile.mkdtemp(prefix="scorepad-unwritable-"))
    folder.chmod(0o755)
    if os.geteuid() == 0:
        prefix, cwd, env = request.getfixturevalue("as_another_user")
    else:
        folder.chmod(0o555)
        prefix, cwd, env = [], ROOT, dict(os.environ)
    yield folder, prefix, cwd, env
    folder.chmod(0o755)
    shutil.rmtree(folder)


@pytest.mark.parametrize("command", [["-m", "scorepad", "--host", "127.0.0.1", "--port", "8", "--no-qr"],
                                     ["-m", "flask", "--app", "scorepad", "backup"]], ids=["server", "backup"])
def test_a_data_folder_that_cannot_be_written_stops_start_up_with_a_sentence(unwritable_folder, command):
    folder, prefix, cwd, env = unwritable_folder
    env = {**env, "SCOREPAD_INSTANCE": str(folder), "HOME": str(folder)}
    env.pop("SCOREPAD_DATABASE", None)
    done = subprocess.run([*prefix, sys.executable, *command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60)
    said = done.stderr.strip()
    assert done.returncode == 1 and "Traceback" not in said, said
    assert len(said.splitlines()) == 1, said
    assert f"Scorepad cannot keep its secret key in {folder}/secret_key" in said
    assert "SCOREPAD_INSTANCE" in said and list(folder.iterdir()) == []
