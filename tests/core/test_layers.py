"""The package's four layers are its folders, and no import runs back up: the core knows nothing of Flask, the
database or the layers above it; the store nothing of the services or the web; the services nothing of the web.

Every file of a layer's folder is read (with `ast`, imports inside functions too), so a new module is held to
its layer's rule the day it is written."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import imported

PACKAGE = Path(__file__).resolve().parents[2] / "scorepad"
WEB = {"flask", "werkzeug", "jinja2", "wtforms", "flask_wtf", "waitress"}
DATABASE = {"sqlite3", "sqlite_utils"}

# layer: (the layers of scorepad it may import, the outside packages it must not)
LAYERS = {
    "core": ({"core"}, WEB | DATABASE),
    "store": ({"core", "store"}, WEB),
    "services": ({"core", "store", "services"}, WEB),
}


def modules(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


def breaches(layer: str) -> dict[str, list[str]]:
    allowed, forbidden = LAYERS[layer]
    found = {}
    for path in modules(layer):
        bad = sorted(name for name in imported(path)
                     if name.split(".")[0] in forbidden
                     or name.startswith("scorepad.") and _layer_of(name) not in allowed)
        if bad:
            found[str(path.relative_to(PACKAGE.parent))] = bad
    return found


def _layer_of(name: str) -> str:
    """The layer a `scorepad.…` name lies in (`from scorepad import x` is judged by `scorepad.x`): its folder, or
    "face" for a name of the package's face."""
    top = name.split(".")[1]
    return top if (PACKAGE / top).is_dir() else "face"


@pytest.mark.parametrize("layer", list(LAYERS))
def test_a_layer_imports_only_the_layers_below_it_and_nothing_it_must_not_know(layer):
    assert modules(layer), f"scorepad/{layer} holds no module"
    assert breaches(layer) == {}


def test_the_package_and_its_core_import_nothing_of_flask_or_the_database_when_run():
    """The same, as Python runs it: importing the package's face and every module of the core loads no web or
    database package (an import hidden from `ast` behind a name would show here)."""
    names = sorted(".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
                   for p in modules("core"))
    code = (f"import sys, scorepad, {', '.join(names)}; "
            f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(WEB | DATABASE)!r}); "
            "print(','.join(bad)); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, f"the core imported: {done.stdout.strip()} {done.stderr.strip()}"


def test_no_module_is_left_loose_beside_the_layers():
    """Only the package's face and its `python -m scorepad` entry stand outside the four folders."""
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"]
    assert sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__") == \
        ["core", "services", "store", "web"]


# The web's features read and change everything through the services; the shell (opening the database, the
# start-up checks) and the command line (backup and restore of the whole file) work on the store itself.
THROUGH_THE_SERVICES = ["games", "club", "history"]


@pytest.mark.parametrize("feature", THROUGH_THE_SERVICES)
def test_a_feature_of_the_web_reaches_the_store_only_through_the_services(feature):
    found = {str(path.relative_to(PACKAGE.parent)): sorted(n for n in imported(path) if n.startswith("scorepad.store"))
             for path in sorted((PACKAGE / "web" / feature).rglob("*.py"))}
    assert {path: names for path, names in found.items() if names} == {}
