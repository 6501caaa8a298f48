"""Files written whole, and what a killed writer leaves behind.

A file that takes a name someone relies on (a backup, a safety copy, the backups' status, the secret key) is
written under a hidden name first, put on disk, and only then given its name in one step. A kill or a pulled
plug at any moment leaves that name absent or complete, never half a file.

While a hidden file (or a private folder, such as a restore's checked copy) is in use, its process holds a lock
on it. The lock dies with the process, even one killed outright, so the next start or run can tell a dead
writer's leftover from work still under way, and clears it at once.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no flock; a leftover is then told by its age
    fcntl = None

PARTIAL = ".partial"  # a file being written: hidden, so a kill leaves nothing that looks like a backup
WORK = ".scorepad-work"  # a private folder of work in progress (a restore checks its backup there)
_SIDE_FILES = ("-journal", "-wal", "-shm")  # what SQLite keeps beside a database it writes
# Where a filesystem cannot lock (some network shares), a leftover is one nobody has written to for this long.
UNLOCKED_SECONDS = 600
# A reserved name left empty: on a filesystem without hard links a name is taken empty, then the complete file
# is renamed over it. An empty one this old is a writer killed in between.
EMPTY_SECONDS = 600

_NO_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK, errno.ENOSYS}


@contextlib.contextmanager
def being_written(folder: Path) -> Iterator[Path]:
    """A new empty hidden file in `folder`, locked by this process while the block runs. Give it its name
    inside the block (`name_new`, `name_as`); whatever is left under the hidden name is removed at the end."""
    path, fd = _create_hidden(folder)
    try:
        yield path
    finally:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)
            for side in _SIDE_FILES:
                path.with_name(path.name + side).unlink(missing_ok=True)
        os.close(fd)


@contextlib.contextmanager
def private_folder(parent: Path) -> Iterator[Path]:
    """A new hidden folder in `parent` for work in progress, locked while the block runs, gone after it."""
    parent.mkdir(parents=True, exist_ok=True)
    path, fd = _make_hidden_folder(parent)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        if fd is not None:
            os.close(fd)


def name_new(partial: Path, names: Callable[[int], Path]) -> Path:
    """Give the complete file `partial` the first of `names(1)`, `names(2)`, ... that no file has, never
    writing over one; returns that name, on disk."""
    for n in range(1, 1000):
        path = names(n)
        try:
            name_as(partial, path)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(errno.EEXIST, f"too many files named like {names(1).name}", str(names(1)))


def name_as(partial: Path, path: Path) -> None:
    """Give the complete file `partial` the name `path` in one step, or raise FileExistsError when a file has
    that name already (it is never written over). The name is on disk before this returns."""
    try:
        os.link(partial, path)
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
        # A filesystem without hard links (FAT on many USB sticks): take the name empty, then rename over it.
        # A kill in between leaves an empty file under the name (cleared later), never half a backup.
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        os.replace(partial, path)
    else:
        partial.unlink(missing_ok=True)
    sync_folder(path.parent)


def replace_whole(path: Path, data: bytes) -> None:
    """Write `data` as the file `path`, replacing any file of that name whole: aside, on disk, then renamed."""
    with being_written(path.parent) as partial:
        _fill(partial, data)
        os.replace(partial, path)
        sync_folder(path.parent)


def create_whole(path: Path, data: bytes, private: bool = False) -> bool:
    """Write `data` as the new file `path` (only its owner may read it when `private`), complete or not at
    all; False, and nothing written, when a file of that name is already there."""
    with being_written(path.parent) as partial:
        if private:
            partial.chmod(0o600)
        _fill(partial, data)
        try:
            name_as(partial, path)
        except FileExistsError:
            return False
    return True


def _fill(path: Path, data: bytes) -> None:
    with path.open("wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())


def sync_folder(folder: Path) -> None:
    """Put a folder's list of names on disk: a new file's name must survive a power cut too, not only its
    bytes. Some systems (Windows, some USB drives' filesystems) cannot sync a folder: nothing to do there."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def clear_leftovers(folder: Path, empty_names: Callable[[str], bool] = lambda name: False) -> list[str]:
    """Remove from `folder` what writers killed midway left: hidden files and private folders nobody holds
    (with what SQLite kept beside them), and files under a name `empty_names` accepts that are still empty
    long after they were taken. Returns the names removed. Never raises: a folder that cannot be listed or
    written keeps its files."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    gone = []
    for path in entries:
        name = path.name
        with contextlib.suppress(OSError):
            if name.startswith(PARTIAL + "-") and not name.endswith(_SIDE_FILES):
                gone += _if_abandoned(path, _remove_with_side_files)
            elif name.startswith(PARTIAL + "-"):  # a side file: goes with its database, or alone once orphaned
                if not path.with_name(_strip_side(name)).exists():
                    path.unlink()
                    gone.append(name)
            elif name.startswith(WORK + "-") and path.is_dir():
                gone += _if_abandoned(path, _remove_folder)
            elif empty_names(name) and path.is_file() and path.stat().st_size == 0 \
                    and time.time() - path.stat().st_mtime > EMPTY_SECONDS:
                path.unlink()
                gone.append(name)
    return sorted(gone)


def _if_abandoned(path: Path, remove: Callable[[Path], list[str]]) -> list[str]:
    """`remove(path)` when no process holds `path` (a hidden file or private folder), holding it meanwhile: a
    writer that locks it next finds its name gone, and takes another (see `_locked`). The names removed."""
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            if fcntl is None:
                raise OSError(errno.ENOLCK, "no locks on this system")
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return []  # its writer is alive
        except OSError:  # no locks here: judge by when it was last written
            if time.time() - path.stat().st_mtime <= UNLOCKED_SECONDS:
                return []
        return remove(path)
    finally:
        os.close(fd)


def _remove_folder(path: Path) -> list[str]:
    shutil.rmtree(path)
    return [path.name]


def _remove_with_side_files(path: Path) -> list[str]:
    gone = []
    for candidate in (path, *(path.with_name(path.name + side) for side in _SIDE_FILES)):
        if candidate.exists():
            candidate.unlink()
            gone.append(candidate.name)
    return gone


def _strip_side(name: str) -> str:
    for side in _SIDE_FILES:
        if name.endswith(side):
            return name[: -len(side)]
    return name


def _locked(path: Path, fd: int) -> bool:
    """Lock the file or folder `fd` just made at `path` for this process; False when a cleaner took it for a
    leftover in the moment between (its name is then gone: make another). Where locks are not supported, the
    file is judged by its age instead (see `_if_abandoned`)."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)  # waits out a cleaner that is looking at it
    except OSError:
        return True
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def _create_hidden(folder: Path) -> tuple[Path, int]:
    for _ in range(100):
        path = folder / f"{PARTIAL}-{secrets.token_hex(6)}.db"
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o666)
        except FileExistsError:
            continue
        if _locked(path, fd):
            return path, fd
        os.close(fd)
    raise FileExistsError(errno.EEXIST, "no free hidden name", str(folder))


def _make_hidden_folder(parent: Path) -> tuple[Path, int | None]:
    for _ in range(100):
        path = parent / f"{WORK}-{secrets.token_hex(6)}"
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            continue
        if fcntl is None:  # a folder cannot be opened to lock there, nor locked
            return path, None
        fd = os.open(path, os.O_RDONLY)
        if _locked(path, fd):
            return path, fd
        os.close(fd)
    raise FileExistsError(errno.EEXIST, "no free hidden name", str(parent))
