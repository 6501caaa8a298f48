"""The appliance's face: /healthz for a service manager, the about page and the footer for the family, request
logs a person reads, the settings a service file or a container gives, and a copy kept before an upgrade."""

import contextlib
import logging
import sqlite3
from pathlib import Path

import pytest

from scorepad import create_app
from scorepad.services.backups import DAILY
from scorepad.store import connection, schema
from scorepad.store.backups import BackupRefused
from scorepad.web.shell import serve
from scorepad.web.shell.request_log import worth_a_line
from scorepad.web.shell.serve import QuietQueue
from tests.helpers import parse
from tests.web.helpers import csrf


def backups_of(app):
    return app.extensions["scorepad_backups"]


def test_healthz_says_the_database_answers_its_schema_is_current_and_how_old_the_last_backup_is(app, client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    said = dict(response.json)
    memory = said.pop("memory")
    assert set(said.pop("warming")) == {"warming now", "passes", "last"}  # (tests/services/test_warming.py)
    assert said == {"ok": True, "database": "ok", "migrations": "current",
                    "last_backup_age_seconds": None, "last_backup_failed": False, "replica": "off"}
    assert memory["peak_mib"] >= memory["now_mib"] > 0
    assert {"rendered pages", "game pages", "ratings", "records", "sessions"} <= set(memory["kept"])
    backups_of(app).take(DAILY)
    assert client.get("/healthz").json["last_backup_age_seconds"] in (0, 1)


def test_healthz_is_unhealthy_while_a_migration_is_missing(app, client):
    with contextlib.closing(sqlite3.connect(app.config["DATABASE"])) as db, db:
        last = db.execute("SELECT name FROM _sqlite_migrations ORDER BY id DESC LIMIT 1").fetchone()[0]
        db.execute("DELETE FROM _sqlite_migrations WHERE name = ?", [last])
    response = client.get("/healthz")
    assert response.status_code == 503
    assert (response.json["ok"], response.json["migrations"]) == (False, f"pending: {last}")


def test_healthz_reports_a_failed_backup_but_stays_healthy(app, client, tmp_path):
    backups_of(app).folders = (tmp_path / "not-a-folder",)
    (tmp_path / "not-a-folder").write_text("a file")
    backups_of(app).take(DAILY)
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json["last_backup_failed"] is True


def test_the_about_page_tells_the_last_backups_age_and_where_backups_go(app, client, tmp_path):
    page = parse(client.get("/about"))
    assert "none yet" in page.select_one("#last-backup").text
    backups_of(app).take(DAILY)
    page = parse(client.get("/about"))
    assert page.select_one("#last-backup").text == "just now (daily)"
    assert str(tmp_path / "backups") in page.text
    assert page.select_one(".footer a[href='/about']")


def test_a_failed_backup_is_said_on_the_about_page_and_in_every_pages_footer(app, client, tmp_path):
    assert parse(client.get("/")).select(".footer .backup-warning") == []
    backups_of(app).folders = (tmp_path / "not-a-folder",)
    (tmp_path / "not-a-folder").write_text("a file")
    backups_of(app).take(DAILY)
    [warning] = parse(client.get("/")).select(".footer .backup-warning a")
    assert (warning.text.strip(), warning["href"]) == ("⚠ The last backup failed. See About.", "/about")
    about = parse(client.get("/about"))
    assert "Nothing was written" in about.select_one("#backup-problem").text


LINES = [  # (what, method, status, seconds, a line?)
    ("a poll that went well", "GET", 200, 0.004, False),
    ("a poll with nothing new", "GET", 304, 0.002, False),
    ("a stranger's wrong address", "GET", 404, 0.002, False),
    ("a recorded hand", "POST", 303, 0.012, True),
    ("a refused form", "POST", 422, 0.010, True),
    ("a page that failed on our side", "GET", 500, 0.010, True),
    ("a slow page", "GET", 200, 1.5, True),
]


@pytest.mark.parametrize(("method", "status", "seconds", "logged"), [r[1:] for r in LINES], ids=[r[0] for r in LINES])
def test_the_request_log_has_a_line_for_changes_failures_and_slow_answers_only(method, status, seconds, logged):
    assert worth_a_line(method, status, seconds) is logged


def test_a_change_is_logged_in_one_readable_line_and_a_page_load_is_not(client, caplog):
    with caplog.at_level(logging.INFO, logger="scorepad.requests"):
        client.get("/")
        client.post("/games/new", data={"csrf_token": csrf(client), "preset": "double-deck"})
    [line] = [r.getMessage() for r in caplog.records if r.name == "scorepad.requests"]
    assert line.startswith("127.0.0.1 POST /games/new -> 303 in ") and line.endswith(" ms")


QUEUE = [  # (what, the depths waitress warns of, in order, one second apart: the ones said)
    ("a burst shallower than the threads", [1, 4, 16], []),
    ("deeper than the threads", [17], [17]),
    ("once a minute at most", [20, 30, 40], [20]),
]


@pytest.mark.parametrize(("depths", "said"), [r[1:] for r in QUEUE], ids=[r[0] for r in QUEUE])
def test_waitress_queue_warnings_are_kept_for_a_queue_deeper_than_the_threads(depths, said):
    seconds = iter(range(100))
    quiet = QuietQueue(threads=16, clock=lambda: next(seconds))
    records = [logging.LogRecord("waitress.queue", logging.WARNING, "", 0, "Task queue depth is %d", (d,), None)
               for d in depths]
    assert [r.args[0] for r in records if quiet.filter(r)] == said


def test_a_service_file_or_a_container_sets_the_data_folder_and_the_backups_by_environment(make_app, tmp_path,
                                                                                           monkeypatch):
    monkeypatch.setenv("SCOREPAD_INSTANCE", str(tmp_path / "data"))
    monkeypatch.setenv("SCOREPAD_SECOND_BACKUP_DIR", str(tmp_path / "usb"))
    monkeypatch.setenv("SCOREPAD_BACKUPS_KEPT", "30")
    app = make_app()
    assert app.instance_path == str(tmp_path / "data") and (tmp_path / "data").is_dir()
    assert backups_of(app).folders == (tmp_path / "backups", tmp_path / "usb")
    assert backups_of(app).keep_last == 30


@pytest.mark.parametrize("kept", ["many", "0", "-3", "²", "9" * 5000])
def test_a_number_of_backups_kept_that_is_no_whole_number_keeps_fourteen(make_app, monkeypatch, kept):
    monkeypatch.setenv("SCOREPAD_BACKUPS_KEPT", kept)
    assert backups_of(make_app()).keep_last == 14


def older_database(path: Path) -> Path:
    db = connection.connect(str(path))
    try:
        schema.migrations.apply(db, stop_before=schema.migrations.pending(db)[-1].name)
    finally:
        db.close()
    return path


def test_starting_on_an_older_database_keeps_a_copy_in_the_backups_before_upgrading_it(tmp_path):
    live = older_database(tmp_path / "scorepad.db")
    create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(live)})
    [copy] = (tmp_path / "backups").glob("before-upgrade-*.db")
    with contextlib.closing(connection.connect(str(copy))) as db:
        assert len(schema.pending_migrations(db)) == 1
    with contextlib.closing(connection.connect(str(live))) as db:
        assert schema.pending_migrations(db) == []


def test_an_upgrade_that_cannot_keep_its_copy_does_not_start_and_changes_nothing(tmp_path):
    live = older_database(tmp_path / "scorepad.db")
    (tmp_path / "blocked").write_text("a file where the folder should be")
    with pytest.raises(BackupRefused):
        create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(live),
                    "BACKUP_DIR": str(tmp_path / "blocked")})
    with contextlib.closing(connection.connect(str(live))) as db:
        assert len(schema.pending_migrations(db)) == 1


def test_the_address_and_qr_code_can_be_shown_again_while_the_service_runs(capsys):
    serve.main(["--show-address", "--no-qr", "--host", "127.0.0.1", "--port", "8123"])
    shown = capsys.readouterr().out
    assert "http://127.0.0.1:8123/" in shown and "Ctrl+C" not in shown


@pytest.mark.parametrize("port", ["²", " ", "0", "65536", "8000.5", "eighty", "9" * 5000])
def test_a_port_that_is_no_port_is_refused_before_anything_starts(capsys, monkeypatch, port):
    monkeypatch.setenv("SCOREPAD_PORT", port)
    with pytest.raises(SystemExit) as refused:
        serve.main(["--show-address", "--no-qr"])
    assert refused.value.code == 2 and "--port" in capsys.readouterr().err


def test_backups_named_in_the_future_are_said_on_the_about_page_and_in_every_pages_footer(make_app, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir(exist_ok=True)
    for name in ("scorepad-20991231-200000.db", "scorepad-20991231-210000.db"):
        (folder / name).write_bytes(b"SQLite format 3\x00 a backup")
    app = make_app()
    client = app.test_client()
    [warning] = parse(client.get("/")).select(".footer .backup-warning a")
    assert warning.text.strip() == ("⚠ 2 backups are named with a time in the future: is this machine's clock "
                                    "right? See About.")
    said = parse(client.get("/about")).select_one("#backups-in-future").text
    assert "2 backups (the latest scorepad-20991231-210000.db)" in said and "kept" in said
