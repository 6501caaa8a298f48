"""A live server on a free loopback port and Debian's Chromium driven by Playwright, at a phone's size.

These tests are never skipped: a machine without Chromium fails them, so CI proves it installs it. They take
Debian's headless shell of Chromium where it is installed (`make chromium` installs it beside the browser): the same
Blink as the browser, without its windowing and compositing, for less than half the processor time (two of the
longest files: 153 s and 75 s of CPU with /usr/bin/chromium, 93 s and 34 s with the shell). SCOREPAD_CHROMIUM
names another.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

import pytest

from tests.browser.helpers import ARTIFACTS, PHONE, WAIT_MS
from tests.helpers import serving

SHELL, BROWSER = "/usr/bin/chromium-headless-shell", "/usr/bin/chromium"
CHROMIUM = os.environ.get("SCOREPAD_CHROMIUM") or (SHELL if Path(SHELL).exists() else BROWSER)

# Without these flags Chromium tries the network at start, which this machine (and CI) refuses.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


# Browser files at once, across the run's workers. Chromium takes more processor time for the same work when more of
# it runs at once on two cores (six browser files, six workers: 222 CPU-s; two workers: 192): past a few, another
# one adds waiting, not work. A worker waiting its turn leaves the cores to the others' tests.
BROWSER_FILES_AT_ONCE = int(os.environ.get("SCOREPAD_BROWSER_FILES_AT_ONCE", "3"))


@pytest.fixture(scope="module", autouse=True)
def _browser_turn(tmp_path_factory, worker_id):
    """One of BROWSER_FILES_AT_ONCE turns for this file, held while its tests run (a lock on a file every worker of
    the run sees; the system lets it go if the worker dies)."""
    if worker_id == "master":
        yield
        return
    folder = tmp_path_factory.getbasetemp().parent
    while True:
        for n in range(BROWSER_FILES_AT_ONCE):
            turn = open(folder / f"browser-turn-{n}", "a")  # held open for the module's tests
            try:
                fcntl.flock(turn, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                turn.close()
                continue
            try:
                yield
            finally:
                turn.close()
            return
        time.sleep(0.05)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    from waitress.server import create_server

    from scorepad import create_app

    folder = tmp_path_factory.mktemp("live")
    # the phones' clocks run faster than a family's (a poll every second, not three; kept hands tried again within
    # a second or two, not 3 to 30 s): the tests wait on what the phones do, not on their timers
    app = create_app({"SECRET_KEY": "browser-tests", "DATABASE": str(folder / "scorepad.db"), "POLL_SECONDS": 1,
                      "PHONE_RETRY_MS": "400,600,800,1000,1500", "PHONE_HOLD_MS": "1500"})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    with serving(server):
        yield f"http://127.0.0.1:{server.effective_port}"


@pytest.fixture(scope="module")
def club_server(tmp_path_factory):
    """A server over a database of this test module's own, and its app and results folder (CLUB_RESULTS_DIR): a
    club's season is directed by the director of its first night, which on the shared server is another test's;
    and the command line runs on this database."""
    from waitress.server import create_server

    from scorepad import create_app

    folder = tmp_path_factory.mktemp("club")
    results = folder / "share"
    results.mkdir()
    app = create_app({"SECRET_KEY": "club", "DATABASE": str(folder / "scorepad.db"),
                      "BACKUP_DIR": str(folder / "backups"), "CLUB_RESULTS_DIR": str(results)})
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    with serving(server):
        yield f"http://127.0.0.1:{server.effective_port}", app, results


# What a phone on https (or on the machine's own address) has and Chromium's headless shell refuses: a screen wake
# lock. Refused, a game page keeps its screen on the plain-http way, a looping video, decoded by every test for as
# long as a game is open (an eighth of the renderer's time). Each request and release is counted in
# `window.__locks`, which test_awake_and_share_browser.py reads; it tests the video too, with a script of its own
# added after this one that takes the lock away.
WAKE_LOCK = """
window.__locks = {requested: 0, released: 0, held: 0};
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get() { return {
  request(type) {
    __locks.requested++; __locks.held++;
    const lock = new EventTarget();
    lock.type = type; lock.released = false;
    lock.release = () => {
      if (!lock.released) { lock.released = true; __locks.released++; __locks.held--;
                            lock.dispatchEvent(new Event("release")); }
      return Promise.resolve();
    };
    return Promise.resolve(lock);
  }}; }});
"""


class _Phones:
    """The session's Chromium, every page of which (a phone, a wall) holds a wake lock as a phone's would."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.add_init_script(WAKE_LOCK)
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: install Debian's chromium package (.ci/run does)"
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield _Phones(browser)
        browser.close()


def close(context) -> None:
    """Close a phone's browser. A route a test set may still be answering a request the page sent (a save sent
    again after its answer was lost): its handler is told to let the closing go by, or its error would surface in
    whatever test this worker runs next."""
    for page in context.pages:
        page.unroute_all(behavior="ignoreErrors")
    context.unroute_all(behavior="ignoreErrors")
    context.close()


@pytest.fixture
def phone(browser, request):
    """A fresh page at 390×844; on failure its screenshot is kept in test-artifacts/. Drawn at one device pixel a
    CSS pixel: what the tests measure is in CSS pixels, and twice the pixels cost Chromium 7% more of its time."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []

    def console(msg):
        if msg.type != "error":
            return
        # htmx notes every request given up, an abort the page chose too: the save whose hand a poll sent meanwhile
        # has found on the sheet (live.js) logs "htmx:afterRequest, X" then "htmx:sendAbort, X". Not an error; a
        # request that failed (sendError, timeout) still is.
        if msg.text.startswith("htmx:sendAbort, "):
            twin = msg.text.replace("htmx:sendAbort", "htmx:afterRequest", 1)
            if twin in errors:
                del errors[len(errors) - 1 - errors[::-1].index(twin)]
            return
        errors.append(msg.text)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", console)
    page.js_errors = errors
    yield page
    if getattr(request.node, "failed", False):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    close(context)


@pytest.fixture
def other_phone(browser):
    """A second phone at 390×844 on the same game: a browser context of its own (its own cookies and storage)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    yield page
    close(context)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        item.failed = True


@pytest.fixture
def context_for(browser):
    """Pages in browsers of their own (a phone by default, or any viewport: a wall), each with its JS errors kept;
    the club's nights open a director, phones and a wall at once."""
    made = []

    def make(viewport=PHONE):
        context = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=viewport == PHONE,
                                      has_touch=viewport == PHONE)
        made.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.js_errors = []
        page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
        return page
    yield make
    for context in made:
        close(context)
