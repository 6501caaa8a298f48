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


def test_installed_as_the_image_installs_it_it_says_its_version_and_knows_every_zone_without_zone_files(tmp_path):
    """The image's pip install, outside the source tree: the version is pyproject's (from the package's metadata),
    and zone names work on a slim image with no /usr/share/zoneinfo (the tzdata package carries them)."""
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                    "--quiet", "-w", str(tmp_path)], check=True, capture_output=True)
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target),
                    str(next(tmp_path.glob("scorepad-*.whl")))], check=True, capture_output=True)
    code = ("from scorepad.web.shell.version import version; from scorepad.core.house_time import choose; "
            "print(version()); print(choose('America/Los_Angeles', None).name)")
    no_zone_files = tmp_path / "no-zoneinfo"
    no_zone_files.mkdir()
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin", "PYTHONTZPATH": str(no_zone_files)}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [version, "America/Los_Angeles"]
