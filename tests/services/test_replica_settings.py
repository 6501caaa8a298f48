"""The replica's settings, warning and timing, without Litestream running (tests/system/test_replica.py runs it):
what REPLICA_URL turns into, when a replica that was not reached becomes a warning, and when a big database is
copied after a finished game while a replica runs."""

import json
import os
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from scorepad.services import backups as backups_service
from scorepad.services import replica, replica_folder
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
                                           ("nas/scorepad", "not a whole path"),
                                           ("pi@nas.local:/srv/scorepad", "write it as sftp://pi@host:22/folder")])
def test_a_place_litestream_cannot_use_is_a_sentence(url, said, tmp_path):
    assert said in replica.Place(url).problem()
    assert replica.Place("/mnt/nas").problem() is None and replica.Place("s3://b/p").problem() is None


def test_litestream_runs_without_a_ca_bundle_only_for_an_s3_endpoint_over_plain_http(monkeypatch):
    monkeypatch.setenv("AWS_CA_BUNDLE", "/etc/proxy-ca.pem")  # Litestream's S3 client refuses to start with it
    assert "AWS_CA_BUNDLE" not in replica.Place("s3://b/p?endpoint=http://nas.local:9000").environment()
    assert replica.Place("s3://b/p?endpoint=https://s3.example").environment()["AWS_CA_BUNDLE"]
    assert replica.Place("/mnt/nas").environment()["AWS_CA_BUNDLE"]


@pytest.mark.parametrize(("url", "shown"), [
    ("sftp://pi:hunter2@nas/srv", "sftp://pi:…@nas/srv"),
    ("sftp://pi:hun%2Fter2@nas/srv", "sftp://pi:…@nas/srv"),
    ("pi:S3cretPW@nas.local:22/srv/scorepad", "pi:…@nas.local:22/srv/scorepad"),  # no scheme: shown whole before
    ("/mnt/nas", "/mnt/nas"),
])
def test_a_password_in_the_address_is_never_shown_with_or_without_a_scheme(url, shown):
    place = replica.Place(url)
    assert place.shown() == shown
    problem = place.problem() or ""
    for secret in ("hunter2", "hun/ter2", "hun%2Fter2", "S3cretPW"):
        assert secret not in problem and secret not in place.masked(f"dial {url}: refused")


def test_the_ssh_keys_path_is_a_secret_too(tmp_path):
    place = replica.Place("sftp://pi@nas/srv", ssh_key=str(tmp_path / "id_ed25519"))
    assert str(tmp_path / "id_ed25519") not in place.masked(f"open {tmp_path / 'id_ed25519'}: permission denied")


def test_replication_is_off_unless_a_place_is_named(monkeypatch):
    monkeypatch.delenv("REPLICA_URL", raising=False)
    assert replica.place_from({}) is None
    assert replica.place_from({"REPLICA_URL": "/mnt/nas"}) == replica.Place("/mnt/nas")
    monkeypatch.setenv("REPLICA_URL", "/mnt/usb")
    assert replica.place_from({}) == replica.Place("/mnt/usb")
    assert replica.place_from({"REPLICA_URL": "/mnt/nas"}).url == "/mnt/nas"  # the config file comes first


@pytest.mark.parametrize("blank", ["", "   ", "\t\n", " \u3000 "])
def test_a_blank_replica_url_means_off(blank, monkeypatch):
    monkeypatch.delenv("REPLICA_URL", raising=False)
    assert replica.place_from({"REPLICA_URL": blank}) is None
    monkeypatch.setenv("REPLICA_URL", blank)
    assert replica.place_from({}) is None


def test_the_config_is_readable_by_this_user_only_and_holds_any_path_as_written(tmp_path):
    folder = tmp_path / "NAS ♠️ 🃏 Küche"
    path = replica.write_config(replica.Place(str(folder)), str(tmp_path / "live 🂡.db"), tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text(encoding="utf-8")
    assert "\\u" not in text and "🃏" in text  # Litestream's YAML reader refuses JSON's \ud83c escapes
    assert json.loads(text)["dbs"][0]["replica"]["path"] == str(folder)
    path.chmod(0o644)  # an older, wider one is narrowed when written again
    replica.write_config(replica.Place(str(folder)), str(tmp_path / "live.db"), tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_path_that_is_not_text_is_refused_in_words(tmp_path):
    odd = tmp_path / os.fsdecode(b"caf\xe9")  # a Latin-1 name on a UTF-8 system
    with pytest.raises(replica.ReplicaRefused, match="not text"):
        replica.write_config(replica.Place(str(odd)), str(tmp_path / "live.db"), tmp_path)


@pytest.mark.parametrize("text", ["2026-11-25 18:03", "2026-11-25 18:03:20", "2026-11-25T18:03:20"])
def test_at_takes_this_machines_local_time(text):
    moment = replica.parse_moment(text)
    assert moment.tzinfo == UTC
    assert moment.astimezone().replace(tzinfo=None) == datetime.fromisoformat(text.replace("T", " "))


def test_at_takes_a_moment_with_its_zone_and_refuses_what_is_not_a_moment():
    assert replica.parse_moment("2026-11-25T17:03:20Z") == datetime(2026, 11, 25, 17, 3, 20, tzinfo=UTC)
    with pytest.raises(ValueError, match="2026-11-25 18:03"):
        replica.parse_moment("yesterday")


@pytest.mark.parametrize("text", ["", "   "])
def test_at_refuses_an_empty_moment(text):
    with pytest.raises(ValueError, match="--at is empty"):
        replica.parse_moment(text)


@pytest.mark.parametrize("text", ["9999-12-31 23:59", "9999-12-31T23:59:59-12:00", "0001-01-01 00:00+14:00"])
def test_at_the_edges_of_the_calendar_is_a_sentence_not_a_traceback(text):
    try:
        moment = replica.parse_moment(text)
    except ValueError as refused:
        assert "out of range" in str(refused)
    else:
        with pytest.raises(ValueError, match="in the future"):
            replica.check_moment(moment, NOW, (NOW - timedelta(days=1), NOW), "/mnt/nas")


def test_a_moment_the_replica_does_not_hold_is_refused_saying_what_it_holds():
    held = (NOW - timedelta(days=2), NOW - timedelta(hours=1))
    with pytest.raises(ValueError, match="is in the future: /mnt/nas holds moments from"):
        replica.check_moment(NOW + timedelta(minutes=1), NOW, held, "/mnt/nas")
    with pytest.raises(ValueError, match="before the replica's first moment"):
        replica.check_moment(datetime(999, 1, 1, tzinfo=UTC), NOW, held, "/mnt/nas")
    with pytest.raises(ValueError, match="holds nothing yet"):
        replica.check_moment(NOW - timedelta(hours=1), NOW, None, "/mnt/nas")
    replica.check_moment(NOW - timedelta(minutes=30), NOW, held, "/mnt/nas")  # after its last change: its latest


def test_a_moment_is_given_to_litestream_with_four_digits_of_year():
    assert replica._stamp(datetime(999, 3, 4, 5, 6, 7, tzinfo=UTC)) == "0999-03-04T05:06:07Z"


def test_a_missing_litestream_is_a_sentence_not_a_crash(monkeypatch, tmp_path):
    monkeypatch.setattr(replica, "binary", lambda: None)
    with pytest.raises(replica.ReplicaRefused, match="not installed"), \
            replica.restored(replica.Place(str(tmp_path / "nas")), str(tmp_path / "live.db")):
        pass


# --- a folder replica: its share and its marker ------------------------------------------------------------------

MOUNTINFO = (b"22 1 254:0 / / rw - ext4 /dev/vda rw\n"
             b"42 22 0:50 / /mnt/nas rw - nfs4 nas:/srv rw\n"
             b"43 22 0:51 / /mnt/my\\040disk rw - ext4 /dev/sdb1 rw\n")


def test_mount_points_are_read_from_mountinfo_with_its_escapes():
    assert replica_folder.mount_points(MOUNTINFO) == ["/", "/mnt/nas", "/mnt/my disk"]


def test_a_folder_on_a_share_is_told_from_one_on_the_databases_disk(tmp_path):
    points = ["/", "/mnt/nas", "/mnt/my disk"]
    database = Path("/var/lib/scorepad/scorepad.db")
    assert replica_folder.share_of(Path("/mnt/nas/scorepad"), database, points) == "/mnt/nas"
    assert replica_folder.share_of(Path("/mnt/my disk/x"), database, points) == "/mnt/my disk"
    assert replica_folder.share_of(Path("/srv/backup"), database, points) is None
    assert replica_folder.still_on(Path("/mnt/nas/scorepad"), "/mnt/nas", points)
    assert not replica_folder.still_on(Path("/mnt/nas/scorepad"), "/mnt/nas", ["/"])  # unmounted: the mount point


def test_a_folder_replica_carries_a_marker_of_its_generation(tmp_path):
    first = replica_folder.write_marker(tmp_path / "nas", "db1", "w1")
    assert replica_folder.read_marker(tmp_path / "nas") == {"database": "db1", "writer": "w1", "generation": first}
    second = replica_folder.write_marker(tmp_path / "nas", "db1", "w1")
    assert second != first and replica_folder.read_marker(tmp_path / "nas")["generation"] == second
    assert replica_folder.read_marker(tmp_path / "elsewhere") is None
    assert sorted(p.name for p in (tmp_path / "nas").iterdir()) == [replica_folder.MARKER]


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
