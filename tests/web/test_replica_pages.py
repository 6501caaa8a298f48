"""The replica on the pages and in the restore command. About says when the copy was last proven restorable (put
back and checked) and what it held; every page warns, in a household's words, when it cannot be relied on; /healthz
reports the same as data; no password ever shows. `restore --from-replica` refuses what it cannot do, naming why,
and --at what the replica does not hold, saying what it does."""

import time
from datetime import UTC, datetime, timedelta

import pytest

from scorepad.core import replica_states as rs
from scorepad.core.replica_states import Event, Proof, State
from scorepad.services import replica
from tests.helpers import parse

PASSWORD = "S3cretPW"


class Started:
    """A replication the server started, as the pages see it (Litestream itself runs in tests/system)."""

    started = True

    def __init__(self, place: str, health: rs.Health, runs: bool = True):
        self.place = replica.Place(place)
        self._health, self.runs = health, runs

    def health(self) -> rs.Health:
        return self._health

    def look(self) -> None:  # the real one asks Litestream's socket
        pass


def _started(app, state=State.PROVEN, reached_ago=timedelta(seconds=2), why=None, proven_ago=timedelta(minutes=3),
             runs=True, place="/mnt/nas"):
    now = datetime.now(UTC)
    proof = Proof(now - proven_ago, now - proven_ago, 312, 6240, now - proven_ago, 2.25, 104_857_600) \
        if proven_ago is not None else None
    health = rs.Health(state, now - timedelta(minutes=1), why=why, proof=proof,
                       reached_at=now - reached_ago if reached_ago is not None else None)
    app.extensions["scorepad_replica"] = Started(place, health, runs)


def test_about_says_there_is_no_copy_off_the_machine_and_how_to_make_one(client):
    page = parse(client.get("/about"))
    assert "REPLICA_URL" in page.select_one("#replica-off").text
    assert client.get("/healthz").json["replica"] == "off"


@pytest.mark.parametrize("blank", [" ", "\t  \n"])
def test_a_blank_replica_url_means_no_copy_and_no_warning(make_app, blank, monkeypatch):
    monkeypatch.delenv("REPLICA_URL", raising=False)
    client = make_app(REPLICA_URL=blank).test_client()
    assert parse(client.get("/about")).select_one("#replica-off")
    assert client.get("/healthz").json["replica"] == "off"
    assert not parse(client.get("/")).select(".replica-warning")


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
def test_a_replica_set_up_but_not_started_says_only_the_server_runs_it(client):
    page = parse(client.get("/about"))
    assert "only the server" in page.select_one("#replica-proven").text
    assert "not running" in page.select_one("#replica-reached").text
    assert client.get("/healthz").json["replica"] == "not started"
    assert not page.select(".replica-warning")


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
def test_about_and_healthz_say_when_the_replica_was_proven_restorable_and_what_it_held(app, client):
    _started(app)
    page = parse(client.get("/about"))
    proven = page.select_one("#replica-proven").text
    assert proven.startswith("yes: last put back and checked at") and "312 games and 6,240 hands" in proven
    reached = page.select_one("#replica-reached").text
    assert "just now" in reached and "the last 2 s of changes" in reached
    body = client.get("/healthz").json
    assert body["replica"] == "running" and body["replica_state"] == "proven" and body["replica_ok"] is True
    assert body["replica_proof"]["games"] == 312 and body["replica_proof"]["hands"] == 6240
    assert body["replica_proof"]["drill_seconds"] == 2.25 and body["replica_proven_at"]
    assert 2 <= body["replica_behind_seconds"] < 4 and body["replica_warning"] is None
    assert not parse(client.get("/")).select(".replica-warning")


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
@pytest.mark.parametrize(("state", "why", "said"), [
    (State.DRILL_FAILED, "there is a gap in its files", "The copy on /mnt/nas cannot be put back: there is a gap"),
    (State.TROUBLE, "the disk it is on is full (no space left on device)",
     "The copy on /mnt/nas is not being written: the disk it is on is full"),
    (State.REFUSED, "it holds another Scorepad's database (12 games and 80 hands)",
     "The copy on /mnt/nas is not this Scorepad's: it holds another Scorepad's database"),
    (State.NOT_MOUNTED, "the share it is on (/mnt/nas) is not mounted", "Scorepad waits for the share"),
    (State.HEALING, "files are missing from it", "Scorepad is starting it over"),
    (State.CANNOT_START, "Litestream is not installed", "not running: Litestream is not installed."),
])
def test_a_replica_that_cannot_be_relied_on_is_a_warning_on_every_page(app, client, state, why, said):
    _started(app, state, why=why, runs=state is not State.CANNOT_START)
    for path in ("/", "/rules/", "/about"):
        warning = parse(client.get(path)).select_one(".backup-warning")
        assert said in warning.text
    response = client.get("/healthz")
    assert response.status_code == 200  # reported, not judged: a NAS asleep is no reason to restart
    assert response.json["replica_state"] == state.value and response.json["replica_ok"] is False
    assert said in response.json["replica_warning"]


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
def test_a_replica_not_reached_for_ten_minutes_is_a_warning_on_every_page(app, client):
    _started(app, reached_ago=timedelta(minutes=11))
    for path in ("/", "/rules/", "/about"):
        warning = parse(client.get(path)).select_one(".replica-warning")
        assert "has not been reached for 11 minutes" in warning.text
    assert client.get("/healthz").json["replica_ok"] is False


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
def test_about_lists_what_happened_to_the_replica_lately(app, client):
    now = datetime.now(UTC)
    health = rs.begin(now - timedelta(minutes=5), configured=True)
    for event, why in ((Event.DRILL_PASSED, None), (Event.HISTORY_LOST, "files are missing from it"),
                       (Event.HEALED, "files are missing from it"), (Event.DRILL_PASSED, None)):
        health = rs.step(health, event, now - timedelta(minutes=1), why=why,
                         proof=Proof(now, now, 1, 2, now, 0.5, 1) if event is Event.DRILL_PASSED else None)
    app.extensions["scorepad_replica"] = Started("/mnt/nas", health)
    lately = [li.text for li in parse(client.get("/about")).select("#replica-history li")]
    assert any("started over with a new snapshot: files are missing from it" in line for line in lately)
    assert "put back and checked again: restorable" in lately[0]


@pytest.mark.parametrize("url", [f"pi:{PASSWORD}@nas.local:22/srv/scorepad", f"sftp://pi:{PASSWORD}@nas.local/srv",
                                 f"ftp://pi:{PASSWORD}@nas.local/srv"])
def test_no_page_shows_the_password_written_in_replica_url(make_app, url, monkeypatch):
    """Shown whole before, with or without a scheme: on /healthz, About and every page's footer."""
    app = make_app(REPLICA_URL=url)
    client = app.test_client()
    replication = app.extensions["scorepad_replica"]
    replication.start()
    try:
        deadline = time.monotonic() + 20
        while replication.health().state is State.CHECKING and time.monotonic() < deadline:
            time.sleep(0.05)
        pages = [client.get(path).get_data(as_text=True) for path in ("/", "/about", "/healthz", "/rules/")]
    finally:
        replication.stop()
    assert all(PASSWORD not in page for page in pages)
    assert "pi:…@nas.local" in pages[1]


# --- restore --from-replica ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "said"), [
    (["restore", "--from-replica", "backup.db"], "not both"),
    (["restore"], "Name a backup file"),
    (["restore", "backup.db", "--at", "2026-11-25 18:00"], "--at goes with --from-replica"),
    (["restore", "backup.db", "--at", ""], "--at goes with --from-replica"),
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


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
@pytest.mark.parametrize("at", ["", "  "])
def test_restore_at_nothing_is_refused_not_taken_for_the_latest(app, at):
    result = app.test_cli_runner().invoke(args=["restore", "--from-replica", "--at", at, "--yes"])
    assert result.exit_code == 2 and "Invalid value for --at: is empty" in result.output


@pytest.mark.parametrize(("at", "said"), [
    ("2999-01-01 00:00", "2999-01-01 00:00:00 is in the future: "),
    ("9999-12-31 23:59", "9999-12-31 23:59"),  # out of range in some zones, in the future in the others
    ("9999-12-31T23:59:00-10:00", "is out of range"),
    ("0001-01-01T00:00:00+14:00", "is out of range"),
    ("0999-01-01 00:00", "0999-01-01 00:00:00 is before the replica's first moment"),
    ("2020-01-01 00:00", "holds nothing yet"),
])
def test_restore_at_a_moment_the_replica_does_not_hold_says_what_it_holds(make_app, tmp_path, at, said):
    app = make_app(REPLICA_URL=str(tmp_path / "empty-nas"))
    result = app.test_cli_runner().invoke(args=["restore", "--from-replica", "--at", at, "--yes"])
    assert result.exit_code == 2 and said in result.output, result.output
    assert isinstance(result.exception, SystemExit)  # a sentence, never a traceback


def test_restore_from_an_empty_replica_changes_nothing_and_says_so(make_app, tmp_path):
    app = make_app(REPLICA_URL=str(tmp_path / "empty-nas"))
    result = app.test_cli_runner().invoke(args=["restore", "--from-replica", "--yes"])
    assert result.exit_code == 1
    assert f"There is nothing to restore from {tmp_path / 'empty-nas'}" in result.output
    assert "Nothing was changed." in result.output


def test_an_unreachable_replica_is_said_to_be_unreachable_not_empty(make_app, tmp_path):
    from tests.system.helpers import free_port

    app = make_app(REPLICA_URL=f"sftp://pi:{PASSWORD}@127.0.0.1:{free_port()}/srv/scorepad")
    result = app.test_cli_runner().invoke(args=["restore", "--from-replica", "--yes"])
    assert result.exit_code == 1
    assert "cannot be reached" in result.output and "nothing to restore" not in result.output
    assert PASSWORD not in result.output


@pytest.mark.parametrize(("setting", "minutes"), [(None, 60), ("", 60), ("15", 15), ("10080", 10080),
                                                  ("4", 60), ("a week", 60), ("²", 60)])
def test_how_often_the_replica_is_drilled_is_a_setting_with_an_hour_by_default(setting, minutes):
    from scorepad.web.shell.replica import drill_every

    assert drill_every({"REPLICA_DRILL_MINUTES": setting}) == timedelta(minutes=minutes)


@pytest.mark.parametrize(("setting", "times"), [(None, 1), ("", 1), ("1", 1), ("4", 4), ("20", 20), ("0", 1),
                                                ("21", 1), ("fast", 1), ("-4", 1)])
def test_the_supervisors_pace_is_a_household_s_unless_a_test_sets_it_faster(setting, times):
    from scorepad.services.replication import PLAN_SECONDS, Pace
    from scorepad.web.shell.replica import pace

    chosen = pace({"REPLICA_PACE": setting})
    assert chosen == Pace().faster(times) and chosen.plan == PLAN_SECONDS / times
    assert Pace().faster(4).hold == Pace().hold / 4  # every timer, not some


@pytest.mark.app_config(REPLICA_URL="/mnt/nas", REPLICA_PACE="5")
def test_a_server_given_a_pace_runs_its_supervisor_at_it(app):
    from scorepad.services.replication import Pace

    assert app.extensions["scorepad_replica"].pace == Pace().faster(5)


@pytest.mark.app_config(REPLICA_URL="/mnt/nas")
def test_about_with_a_running_replica_is_not_kept_its_seconds_behind_move_every_second(app, client):
    from scorepad.web.shell import kept_pages

    _started(app)
    kept_pages.forget()
    for _ in range(3):
        assert "of changes" in parse(client.get("/about")).select_one("#replica-reached").text
    assert kept_pages.census()["pages"] == 0  # none kept, to push the game pages out
