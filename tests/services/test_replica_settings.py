"""The replica's settings, warning and timing, without Litestream running (tests/system/test_replica.py runs it):
what REPLICA_URL turns into, when a replica that was not reached becomes a warning, and when a big database is
copied after a finished game while a replica runs."""

import json
import os
from datetime import UTC, datetime, timedelta

import pytest

from scorepad.services import backups as backups_service
from scorepad.services import replica
from scorepad.services.backups import Backups

NOW = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize(("url", "kind"), [
    ("/mnt/nas/scorepad", "folder"), ("file:///mnt/nas/scorepad", "folder"),
    ("sftp://pi@nas.local:22/backups/scorepad", "sftp"),
    ("s3://bucket/scorepad?endpoint=http://nas.local:9000&forcePathStyle=true", "s3")])
def test_a_place_is_a_folder_an_sftp_server_or_a_bucket(url, kind):
    assert replica.Place(url).kind == kind


def test_a_folder_is_given_to_litestream_as_a_whole_path_and_an_address_as_it_is(tmp_path):
    assert replica.Place(str(tmp_path / "nas")).replica_config() == {
        "type": "file", "path": str(tmp_path / "nas"), "sync-interval": "1s"}
    sftp = replica.Place("sftp://pi@nas:2222/srv/scorepad", ssh_key=str(tmp_path / "id"), host_key="ssh-ed25519 AA")
    assert sftp.replica_config() == {"url": "sftp://pi@nas:2222/srv/scorepad", "sync-interval": "1s",
                                     "key-path": str(tmp_path / "id"), "host-key": "ssh-ed25519 AA"}
    assert "key-path" not in replica.Place("s3://b/p", ssh_key="x").replica_config()


def test_the_config_is_json_litestream_reads_as_yaml_with_the_socket_beside_the_database(tmp_path):
    path = replica.write_config(replica.Place(str(tmp_path / "nas")), str(tmp_path / "live.db"), tmp_path,
                                str(tmp_path / "s.sock"))
    config = json.loads(path.read_text())
    assert config["dbs"] == [{"path": str(tmp_path / "live.db"),
                              "replica": {"type": "file", "path": str(tmp_path / "nas"), "sync-interval": "1s"}}]
    assert config["socket"] == {"enabled": True, "path": str(tmp_path / "s.sock"), "permissions": 0o600}


@pytest.mark.parametrize(("url", "said"), [("http://nas.local/scorepad", "is not a folder, an sftp:// address"),
                                           ("nas/scorepad", "not a whole path")])
def test_a_place_litestream_cannot_use_is_a_sentence(url, said, tmp_path):
    assert said in replica.Place(url).problem()
    replication = replica.Replication(replica.Place(url), str(tmp_path / "live.db"))
    assert replication._run_once() is None and said in replication._problem
    assert replica.Place("/mnt/nas").problem() is None and replica.Place("s3://b/p").problem() is None


def test_litestream_runs_without_a_ca_bundle_only_for_an_s3_endpoint_over_plain_http(monkeypatch):
    monkeypatch.setenv("AWS_CA_BUNDLE", "/etc/proxy-ca.pem")  # Litestream's S3 client refuses to start with it
    assert "AWS_CA_BUNDLE" not in replica.Place("s3://b/p?endpoint=http://nas.local:9000").environment()
    assert replica.Place("s3://b/p?endpoint=https://s3.example").environment()["AWS_CA_BUNDLE"]
    assert replica.Place("/mnt/nas").environment()["AWS_CA_BUNDLE"]


def test_a_password_in_the_address_is_not_shown():
    assert replica.Place("sftp://pi:hunter2@nas/srv").shown() == "sftp://pi:…@nas/srv"


def test_replication_is_off_unless_a_place_is_named(monkeypatch):
    monkeypatch.delenv("REPLICA_URL", raising=False)
    assert replica.place_from({}) is None
    assert replica.place_from({"REPLICA_URL": "/mnt/nas"}) == replica.Place("/mnt/nas")
    monkeypatch.setenv("REPLICA_URL", "/mnt/usb")
    assert replica.place_from({}) == replica.Place("/mnt/usb")
    assert replica.place_from({"REPLICA_URL": "/mnt/nas"}).url == "/mnt/nas"  # the config file comes first


def _status(reached_minutes_ago=None, running=True, problem=None, started_minutes_ago=30):
    reached = NOW - timedelta(minutes=reached_minutes_ago) if reached_minutes_ago is not None else None
    return replica.Status("/mnt/nas", running, NOW - timedelta(minutes=started_minutes_ago), reached, problem)


def test_a_replica_reached_within_ten_minutes_is_no_warning_and_one_not_reached_for_ten_is():
    assert replica.warning(None, NOW) is None
    assert replica.warning(_status(reached_minutes_ago=9.9), NOW) is None
    assert replica.warning(_status(reached_minutes_ago=10), NOW) == (
        "The copy off this machine (/mnt/nas) has not been reached for 10 minutes.")
    assert replica.warning(_status(None, started_minutes_ago=5), NOW) is None  # still starting
    assert "since the server started, 12 minutes ago" in replica.warning(_status(None, started_minutes_ago=12), NOW)
    assert replica.warning(_status(1, running=False, problem="Litestream is not installed."), NOW) == (
        "The copy off this machine is not running: Litestream is not installed.")


def test_how_far_behind_is_the_time_since_it_was_last_reached():
    assert _status(reached_minutes_ago=0.5).behind_seconds(NOW) == 30
    assert _status(None).behind_seconds(NOW) is None


@pytest.mark.parametrize("text", ["2026-11-25 18:03", "2026-11-25 18:03:20", "2026-11-25T18:03:20"])
def test_at_takes_this_machines_local_time(text):
    moment = replica.parse_moment(text)
    assert moment.tzinfo == UTC
    assert moment.astimezone().replace(tzinfo=None) == datetime.fromisoformat(text.replace("T", " "))


def test_at_takes_a_moment_with_its_zone_and_refuses_what_is_not_a_moment():
    assert replica.parse_moment("2026-11-25T17:03:20Z") == datetime(2026, 11, 25, 17, 3, 20, tzinfo=UTC)
    with pytest.raises(ValueError, match="2026-11-25 18:03"):
        replica.parse_moment("yesterday")


def test_a_missing_litestream_is_a_sentence_not_a_crash(monkeypatch, tmp_path):
    monkeypatch.setattr(replica, "binary", lambda: None)
    replication = replica.Replication(replica.Place(str(tmp_path / "nas")), str(tmp_path / "live.db"))
    assert replication._run_once() is None
    assert "Litestream is not installed" in replication._problem
    with pytest.raises(replica.ReplicaRefused, match="not installed"), \
            replica.restored(replica.Place(str(tmp_path / "nas")), str(tmp_path / "live.db")):
        pass


# --- the after-game copy of a big database, with a replica running ----------------------------------------------

@pytest.fixture
def big(new_database, monkeypatch):
    live = new_database()
    monkeypatch.setattr(os.path, "getsize", lambda path: backups_service.BIG_DATABASE_BYTES + 1)
    return live


def test_without_a_replica_every_finished_game_is_copied(big, tmp_path):
    copies = Backups(str(big), [tmp_path / "b"], clock=lambda: NOW)
    copies._status = copies._status.__class__(succeeded_at=NOW - timedelta(minutes=1))
    assert copies.after_game_due()


def test_with_a_replica_a_big_database_is_copied_after_a_game_at_most_once_an_hour(big, tmp_path):
    clock = [NOW]
    copies = Backups(str(big), [tmp_path / "b"], clock=lambda: clock[0])
    copies.replicated = lambda: True
    assert copies.after_game_due()  # never copied yet
    copies._status = copies._status.__class__(succeeded_at=NOW)
    clock[0] = NOW + timedelta(minutes=59)
    assert not copies.after_game_due()
    clock[0] = NOW + backups_service.REPLICATED_AFTER_GAME_SPACING
    assert copies.after_game_due()


def test_with_a_replica_a_small_database_is_still_copied_after_every_game(new_database, tmp_path):
    copies = Backups(str(new_database()), [tmp_path / "b"], clock=lambda: NOW)
    copies.replicated = lambda: True
    copies._status = copies._status.__class__(succeeded_at=NOW)
    assert copies.after_game_due()


def test_at_is_read_on_the_house_clock_not_the_machines():
    from scorepad.core import house_time

    house_time.set_house(house_time.choose("America/Los_Angeles", None))  # the machine's own clock says UTC
    assert replica.parse_moment("2026-11-27 22:30") == datetime(2026, 11, 28, 6, 30, tzinfo=UTC)
