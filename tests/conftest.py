"""Fixtures every layer may use: a database at today's schema and the app over it.

The schema is migrated once per session into a template, and each test gets a copy of that file: copying takes
under a millisecond where migrating a new file takes about 30 ms (and create_app finds nothing left to do).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scorepad.core import house_time
from scorepad.store import connection, schema
from tests.helpers import quick_twins_of_full_runs


@pytest.fixture(autouse=True)
def _house_zone_put_back():
    """An app built with a TIMEZONE sets the house's zone for the process: the next test starts from TZ's or the
    machine's again (an app's own requests set its zone back)."""
    yield
    house_time.set_house(None)


@pytest.fixture(scope="session")
def template_database(tmp_path_factory) -> Path:
    """A database migrated to today's schema, once for the session. Tests never open it: they copy it."""
    path = tmp_path_factory.mktemp("template") / "scorepad.db"
    schema.migrate(str(path))
    # The schema is in WAL mode: a copy of the main file alone is whole only once the log is folded back in,
    # which closing the last connection does. A log left beside it means a connection is still open.
    leftovers = sorted(p.name for p in path.parent.iterdir() if p != path)
    assert not leftovers, f"migrating left {leftovers} beside the template: a connection was not closed"
    return path


@pytest.fixture
def new_database(template_database, tmp_path):
    """`new_database(path=None)`: a fresh database at today's schema at `path` (by default `live/scorepad.db`
    in the test's own folder, so that what the app writes beside its database never mixes with the test's
    files); returns its path. Refuses a path that already holds something, which would be another database."""
    def make(path: str | Path | None = None) -> Path:
        path = Path(path) if path is not None else tmp_path / "live" / "scorepad.db"
        assert not path.exists(), f"{path} is taken: give this database a DATABASE of its own"
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(template_database, path)
        return path
    return make


@pytest.fixture
def live(new_database) -> Path:
    """A fresh database at today's schema, `live/scorepad.db` in the test's folder: its path."""
    return new_database()


@pytest.fixture
def db(live):
    """The `live` database, opened as the app opens one."""
    db = connection.connect(str(live))
    yield db
    db.close()


@pytest.fixture
def make_app(new_database, tmp_path):
    """`make_app(**config)`: the app in testing mode over a fresh database, its backups in the test's folder;
    `config` adds to or replaces those settings (a PASSCODE, TESTING=False, a second app's DATABASE path)."""
    from scorepad import create_app

    def make(**config):
        config = {"TESTING": True, "SECRET_KEY": "test", "BACKUP_DIR": str(tmp_path / "backups"), **config}
        config["DATABASE"] = str(new_database(config.get("DATABASE")))
        return create_app(config)
    return make


@pytest.fixture(scope="session")
def shared_apps():
    """The apps of this run, one for each set of settings (see tests/apps.py)."""
    from tests.apps import SharedApps

    return SharedApps()


@pytest.fixture
def app(shared_apps, new_database, tmp_path, request):
    """The app in testing mode over a fresh database, its backups in the test's folder. A test or module marked
    `app_config(PASSCODE="clubs")` gets those settings as well. Shared with the other tests of the same settings
    (see tests/apps.py); a test that needs an app of its own, or a second one, calls `make_app`."""
    marker = request.node.get_closest_marker("app_config")
    settings = marker.kwargs if marker else {}
    app = shared_apps.serve(settings, new_database(settings.get("DATABASE")),
                            settings.get("BACKUP_DIR", tmp_path / "backups"))
    yield app
    shared_apps.done_with(app)


@pytest.fixture
def client(app):
    return app.test_client()


# The files that take longest, in the order the workers start them: each worker takes the next file when it is
# free, so a long file started last runs alone at the end while the others idle. The ones that mostly wait (on
# Litestream, a real server's clock, a benchmark's rounds) alternate with ones that compute (Chromium, fuzzing),
# so that the first workers do not all wait at once; then the layers from the slowest, the quick core last. The
# Makefile runs xdist with --no-loadscope-reorder, which keeps this order (by default it puts the files with most
# tests first, and so a file of one 40-second test last). Seconds: a quiet 2-core machine, six workers, --durations.
LONGEST_FIRST = (
    "tests/system/test_replica_heals.py",  # 167 s, waiting on Litestream most of it
    "tests/browser/test_two_phones_browser.py",  # 67 s
    "tests/system/test_replica.py",  # 144 s, waiting
    "tests/browser/test_third_evening_browser.py",  # 63 s
    "tests/system/test_replica_proof.py",  # 102 s, waiting
    "tests/web/test_fuzz.py",  # 81 s
    "tests/system/test_import_resilience.py",  # 89 s
    "tests/system/test_upgrade.py",  # 73 s
    "tests/browser/test_hand_form_at_the_table.py",  # 55 s
    "tests/system/test_bench_smoke.py",  # 49 s, one test, waiting on the benchmark's rounds
    "tests/web/test_import_club_nights.py",  # 59 s
    "tests/web/test_hand_races.py",  # 59 s
    "tests/system/test_held_connections.py",  # 32 s, one test, waiting on held connections
    "tests/web/test_import_hostile.py",  # 52 s
    "tests/system/test_killed_copies_full_size.py",  # 45 s
    "tests/core/test_club_replan.py",  # 44 s
    "tests/browser/test_club_night_browser.py",  # 41 s, one test
    "tests/browser/test_at_the_table_layout.py",
    "tests/browser/test_kept_hands_settled_browser.py",
    "tests/browser/test_family_trips_browser.py",
    "tests/phone/test_save_model.py",
    "tests/browser/test_at_the_table_live.py",
    "tests/browser/test_accessibility_browser.py",
    "tests/system/test_restores_under_load.py",
    "tests/browser/test_club_screens_browser.py",
    "tests/browser/test_looking_back_browser.py",
    "tests/browser/test_club_year_browser.py",
)
_LAYER_ORDER = ("tests/system/", "tests/browser/", "tests/web/", "tests/services/", "tests/store/", "tests/core/")


@pytest.hookimpl(trylast=True)  # after -m has chosen
def pytest_collection_modifyitems(config, items):
    twins = quick_twins_of_full_runs(items)
    if twins:
        config.hook.pytest_deselected(items=twins)
        items[:] = [item for item in items if item not in twins]
    root = Path(str(config.rootpath))

    def rank(item) -> tuple[int, int]:
        path = Path(str(item.path)).relative_to(root).as_posix()
        if path in LONGEST_FIRST:
            return (0, LONGEST_FIRST.index(path))
        layer = next((n for n, prefix in enumerate(_LAYER_ORDER) if path.startswith(prefix)), len(_LAYER_ORDER))
        return (1 + layer, 0)
    items.sort(key=rank)  # a stable sort: a file's own tests keep their order
