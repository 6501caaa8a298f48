"""The replica on the pages and in the restore command: About says where it is and when it was last reached,
every page warns when it has not been reached for ten minutes, /healthz reports it; `restore --from-replica`
refuses what it cannot do, naming why."""

from datetime import UTC, datetime, timedelta

import pytest

from scorepad.services import replica
from tests.helpers import parse


class Started:
    """A replication the server started, as the pages see it (Litestream itself runs in tests/system)."""

    started = True

    def __init__(self, place: str, status: replica.Status):
        self.place = replica.Place(place)
        self._status = status

    def status(self) -> replica.Status:
        return self._status

    def look(self) -> None:  # the real one asks Litestream's socket
        pass


def _started(app, reached_ago: timedelta | None, running=True, problem=None):
    now = datetime.now(UTC)
    status = replica.Status("/mnt/nas", running, now - timedelta(hours=1),
                            now - reached_ago if reached_ago is not None else None, problem)
    app.extensions["scorepad_replica"] = Started("/mnt/nas", status)


def test_about_says_there_is_no_copy_off_the_machine_and_how_to_make_one(client):
    page = parse(client.get("/about"))
    assert "REPLICA_URL" in page.select_one("#replica-off").text
    assert client.get("/healthz").json["replica"] == "off"


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
def test_a_replica_set_up_but_not_started_says_only_the_server_runs_it(client):
    page = parse(client.get("/about"))
    assert "not running" in page.select_one("#replica-reached").text
    assert client.get("/healthz").json["replica"] == "not started"
    assert not page.select(".replica-warning")


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
def test_about_and_healthz_say_when_the_replica_was_last_reached_and_how_far_behind_it_is(app, client):
    _started(app, timedelta(seconds=2))
    page = parse(client.get("/about"))
    assert "/mnt/nas" in page.text
    reached = page.select_one("#replica-reached").text
    assert "just now" in reached and "the last 2 s of changes" in reached
    body = client.get("/healthz").json
    assert body["replica"] == "running" and 2 <= body["replica_behind_seconds"] < 4
    assert body["replica_reached_at"] and body["replica_warning"] is None
    assert not parse(client.get("/")).select(".replica-warning")


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
def test_a_replica_not_reached_for_ten_minutes_is_a_warning_on_every_page(app, client):
    _started(app, timedelta(minutes=11))
    for path in ("/", "/rules/", "/about"):
        warning = parse(client.get(path)).select_one(".replica-warning")
        assert "has not been reached for 11 minutes" in warning.text
    response = client.get("/healthz")
    assert response.status_code == 200  # reported, not judged: a NAS asleep is no reason to restart
    assert "11 minutes" in response.json["replica_warning"]


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
def test_a_replica_that_is_not_running_is_a_warning_naming_why(app, client):
    _started(app, None, running=False, problem="Litestream is not installed.")
    warning = parse(client.get("/")).select_one(".replica-warning")
    assert "not running: Litestream is not installed." in warning.text


@pytest.mark.parametrize(("args", "said"), [
    (["restore", "--from-replica", "backup.db"], "not both"),
    (["restore"], "Name a backup file"),
    (["restore", "backup.db", "--at", "2026-11-25 18:00"], "--at goes with --from-replica"),
])
def test_restore_says_what_it_needs(app, args, said):
    result = app.test_cli_runner().invoke(args=args)
    assert result.exit_code != 0 and said in result.output


def test_restore_from_a_replica_when_none_is_set_up_says_so(app, monkeypatch):
    monkeypatch.delenv("REPLICA_URL", raising=False)
    result = app.test_cli_runner().invoke(args=["restore", "--from-replica", "--yes"])
    assert result.exit_code == 1 and "No replica is set up: set REPLICA_URL" in result.output


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
def test_restore_at_a_time_that_is_not_a_moment_names_the_forms_it_takes(app):
    result = app.test_cli_runner().invoke(args=["restore", "--from-replica", "--at", "teatime", "--yes"])
    assert result.exit_code == 2 and "2026-11-25 18:03" in result.output


@pytest.mark.app_config()
def test_restore_from_an_empty_replica_changes_nothing_and_says_so(app, tmp_path):
    app.config["REPLICA_URL"] = str(tmp_path / "empty-nas")
    result = app.test_cli_runner().invoke(args=["restore", "--from-replica", "--yes"])
    assert result.exit_code == 1
    assert f"There is nothing to restore from {tmp_path / 'empty-nas'}" in result.output
    assert "Nothing was changed." in result.output
