"""A non-editable install must carry the top-level templates/ and static/ inside the package."""

import subprocess
import sys
import zipfile

import pytest

from tests.helpers import ROOT

pytestmark = pytest.mark.slow


def test_the_wheel_carries_templates_and_static_and_serves_a_page(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                    "--quiet", "-w", str(tmp_path)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("scorepad-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for template in (ROOT / "templates").rglob("*.html"):
        assert f"scorepad/templates/{template.relative_to(ROOT / 'templates').as_posix()}" in names
    assert "scorepad/static/app.css" in names

    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    code = ("import scorepad, sys; assert scorepad.__file__.startswith(sys.argv[1]), scorepad.__file__; "
            "app = scorepad.create_app({'SECRET_KEY': 'x'}); "
            "assert app.template_folder.startswith(sys.argv[1]); "
            "r = app.test_client().get('/rules/'); assert r.status_code == 200, r.status_code; "
            "assert app.test_client().get('/static/app.css').status_code == 200")
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", code, str(target)], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
