"""The house's time zone is decided in one place: the owner's setting, else TZ, else the machine's; a game is filed
under the evening and shown at the time of the house's clock, whatever zone the machine (a container) runs in."""

from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from scorepad.core import house_time
from scorepad.core.evenings import evening_of
from scorepad.core.house_time import UnknownZone, choose

PACIFIC = ZoneInfo("America/Los_Angeles")


@pytest.fixture
def machine_in(tmp_path):
    """A machine whose /etc/localtime links to the zone file of `name` (None: a machine with no such file)."""
    def make(name: str | None):
        link = tmp_path / "localtime"
        if name is not None:
            link.symlink_to(f"/usr/share/zoneinfo/{name}")
        return link
    return make


@pytest.mark.parametrize(("setting", "tz", "machine", "name", "chosen_by"), [
    ("America/Los_Angeles", "Europe/Berlin", "Etc/UTC", "America/Los_Angeles", "the TIMEZONE setting"),
    (" Europe/Berlin ", None, "Etc/UTC", "Europe/Berlin", "the TIMEZONE setting"),
    (None, "America/Los_Angeles", "Etc/UTC", "America/Los_Angeles", "TZ"),
    ("", ":Europe/Berlin", "Etc/UTC", "Europe/Berlin", "TZ"),  # TZ's own way of naming a zone file
    (None, None, "Europe/Paris", "Europe/Paris", "this machine's clock"),
    (None, "  ", "Australia/Sydney", "Australia/Sydney", "this machine's clock"),
    (None, None, None, "UTC", "this machine's clock"),  # a container with no /etc/localtime
])
def test_the_setting_comes_first_then_tz_then_the_machines_own_zone(machine_in, setting, tz, machine, name,
                                                                    chosen_by):
    house = choose(setting, tz, machine_in(machine))
    assert (house.name, house.chosen_by, house.problem) == (name, chosen_by, None)


@pytest.mark.parametrize("setting", ["Europe/Berln", "Pacific Time", "../../etc/passwd", "America", "x\x00y"])
def test_a_setting_that_names_no_zone_stops_the_start_with_a_sentence(machine_in, setting):
    with pytest.raises(UnknownZone, match="names no time zone"):
        choose(setting, "Europe/Berlin", machine_in("Etc/UTC"))


def test_a_tz_that_names_no_zone_falls_back_to_the_machines_and_says_so(machine_in):
    house = choose(None, "Mars/Olympus", machine_in("Europe/Paris"))
    assert (house.name, house.chosen_by) == ("Europe/Paris", "this machine's clock")
    assert "Mars/Olympus" in house.problem


def test_a_machine_zone_file_that_is_no_link_is_read_with_its_summer_time(tmp_path):
    copied = tmp_path / "localtime"
    copied.write_bytes(Path("/usr/share/zoneinfo/Europe/Berlin").read_bytes())
    house = choose(None, None, copied)
    summer, winter = datetime(2026, 7, 1, 12, tzinfo=UTC), datetime(2026, 1, 1, 12, tzinfo=UTC)
    assert (house.local(summer).hour, house.local(winter).hour) == (14, 13)  # not today's offset for every day


def test_a_pacific_game_at_half_past_ten_is_filed_under_that_evening_and_reads_22_30():
    house = choose("America/Los_Angeles", None)
    started = datetime(2026, 11, 28, 6, 30, tzinfo=UTC)  # what a container's UTC clock stores
    assert house.local(started).strftime("%H:%M") == "22:30"
    assert evening_of(house.local(started)) == date(2026, 11, 27)


def test_the_house_zone_is_what_every_caller_asks(monkeypatch):
    house_time.set_house(choose("Asia/Tokyo", None))
    try:
        started = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
        assert house_time.local(started).hour == 21
        assert house_time.wall_clock(started) == datetime(2026, 11, 27, 21, 0)
        assert house_time.wall_clock(datetime(2026, 1, 2, 3, 4)) == datetime(2026, 1, 2, 3, 4)  # already a wall clock
        assert abs(house_time.now() - datetime.now(UTC)) < timedelta(seconds=5)
        assert house_time.now().utcoffset() == timedelta(hours=9)
    finally:
        house_time.set_house(None)
    monkeypatch.setenv("TZ", "America/Los_Angeles")
    assert house_time.house().name == "America/Los_Angeles"  # before any app sets it: TZ's
    house_time.set_house(None)
