"""The test suite's own shape: every test module in a layer, helpers shared through helpers modules (a test module
importing another runs that module's fixtures and breaks when it moves), and the layers the quick loop leaves
out (`make test-fast`) marked so that `-m` can leave them out."""

import ast
from pathlib import Path
from types import SimpleNamespace

from tests.helpers import imported

TESTS = Path(__file__).resolve().parent.parent
LAYERS = {"core", "store", "services", "web", "phone", "browser", "system"}
MARKER_OF = {"browser": "browser", "system": "slow"}  # the layers `make test-fast` leaves out, by marker


def suite_modules() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def python_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "fixtures" not in p.relative_to(TESTS).parts)


def is_test_module(name: str) -> bool:
    parts = name.split(".")
    return parts[0] == "tests" and any(p.startswith("test_") or p == "conftest" for p in parts[1:])


def marks(path: Path) -> set[str]:
    """The markers a module puts on all its tests (`pytestmark = pytest.mark.x`, or a list of them)."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets):
            return {n.attr for n in ast.walk(node.value)
                    if isinstance(n, ast.Attribute) and getattr(n.value, "attr", None) == "mark"}
    return set()


def test_no_module_of_the_suite_imports_a_test_module_or_a_conftest():
    found = {str(path.relative_to(TESTS.parent)): sorted(filter(is_test_module, imported(path)))
             for path in python_files()}
    assert {path: names for path, names in found.items() if names} == {}


def test_every_test_module_lives_in_a_layer():
    outside = [str(p.relative_to(TESTS)) for p in suite_modules() if p.relative_to(TESTS).parts[0] not in LAYERS]
    assert outside == []


def test_every_module_of_the_browser_and_system_layers_carries_the_marker_the_quick_loop_leaves_out():
    for layer, marker in MARKER_OF.items():
        modules = [p for p in suite_modules() if p.relative_to(TESTS).parts[0] == layer]
        assert modules, f"tests/{layer} holds no test module"
        assert [p.name for p in modules if marker not in marks(p)] == [], f"in tests/{layer}, not marked {marker}"


class _Item:
    """What quick_twins_of_full_runs reads of a collected test: its module, its name and its markers."""

    def __init__(self, module: str, name: str, *markers):
        self.module, self.originalname = SimpleNamespace(__name__=module), name
        self._markers = {marker.name: marker for marker in markers}

    def get_closest_marker(self, name):
        return self._markers.get(name)


def test_a_quick_twin_is_left_out_only_where_its_own_full_test_is_chosen():
    import pytest

    from tests.helpers import quick_twins_of_full_runs

    full = _Item("tests.web.test_a", "test_x", pytest.mark.slow.mark)
    twin = _Item("tests.web.test_a", "test_x_in_a_few_examples", pytest.mark.quick_twin("test_x").mark)
    other_module = _Item("tests.web.test_b", "test_x_in_a_few_examples", pytest.mark.quick_twin("test_x").mark)
    plain = _Item("tests.web.test_a", "test_y")
    assert quick_twins_of_full_runs([full, twin, other_module, plain]) == [twin]
    assert quick_twins_of_full_runs([twin, other_module, plain]) == []  # `-m "not slow"`: the twins run


def test_every_quick_twin_names_a_slow_test_of_its_own_module():
    """A twin whose full test was renamed would otherwise run beside nothing, or be left out beside another."""
    import re

    named = 0
    for path in suite_modules():
        text = path.read_text()
        for name in re.findall(r"mark\.quick_twin\(\s*\"(\w+)\"", text) if path.name != Path(__file__).name else []:
            named += 1
            assert re.search(rf"def {name}\(", text), f"{path.name}: quick_twin names {name}, which it lacks"
    assert named >= 2
