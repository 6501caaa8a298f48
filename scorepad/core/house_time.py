"""The house's time zone, decided in this one place: every evening is filed in it and every time is shown in it.

Times are stored in UTC. A container runs in UTC whatever clock hangs in the kitchen, so a family's 22:30 game,
read in the machine's zone, was filed under the next evening and read "06:30". The zone is chosen once, at start:
the TIMEZONE setting (SCOREPAD_TIMEZONE), else TZ (which compose.yaml passes into the container), else the
machine's own zone (/etc/localtime), else UTC. Zone data comes from the system, or from the `tzdata` package where
the system has none (a slim image).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

MACHINE_ZONE_FILE = Path("/etc/localtime")
SETTING = "SCOREPAD_TIMEZONE"


class UnknownZone(ValueError):
    """The owner's setting names no time zone: Scorepad does not start on a guess (see `choose`)."""


@dataclass(frozen=True)
class HouseZone:
    """The zone evenings are filed in: the zone itself, its name ("America/Los_Angeles") and what chose it."""

    tz: tzinfo
    name: str
    chosen_by: str  # "the TIMEZONE setting", "TZ", "this machine's clock"
    problem: str | None = None  # a TZ that named no zone: About says so

    def local(self, moment: datetime) -> datetime:
        """`moment` on the house's clock. A moment without a zone is taken as already on it."""
        return moment.replace(tzinfo=self.tz) if moment.tzinfo is None else moment.astimezone(self.tz)


def named(name: str | None) -> tzinfo | None:
    """The zone of the tz database called `name` ("Europe/Berlin"; TZ's ":Europe/Berlin" too); None for a name
    it does not have."""
    key = (name or "").strip().removeprefix(":")
    if not key:
        return None
    try:
        return ZoneInfo(key)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # unknown; a path, not a name; a folder of zones
        return None


def machine_zone(path: Path = MACHINE_ZONE_FILE) -> tuple[tzinfo, str]:
    """This machine's own zone and its name: the zone /etc/localtime is a link to, else the zone file itself
    (with every change of summer time in it, unlike the offset the clock has today), else UTC."""
    try:
        target = os.path.realpath(path)
        if "/zoneinfo/" in target:
            key = target.split("/zoneinfo/", 1)[1]
            zone = named(key)
            if zone is not None:
                return zone, key
        with open(path, "rb") as file:
            return ZoneInfo.from_file(file, key="localtime"), "this machine's zone"
    except (OSError, ValueError):
        return UTC, "UTC"


def choose(setting: str | None, tz: str | None, machine: Path = MACHINE_ZONE_FILE) -> HouseZone:
    """The house's zone from the owner's setting, else TZ, else the machine's. A setting that names no zone
    raises UnknownZone: the owner asked for one in words, and filing evenings elsewhere would be a silent
    surprise. A TZ that names none (it is read by everything on the machine, and often set by others) falls
    back to the machine's zone, and the problem is kept for About to say."""
    if setting is not None and str(setting).strip():
        zone = named(str(setting))
        if zone is None:
            raise UnknownZone(f"{SETTING} (TIMEZONE) is “{setting}”, which names no time zone. Give a name of the "
                              "tz database, such as Europe/Berlin or America/Los_Angeles, and start Scorepad again.")
        return HouseZone(zone, str(setting).strip().removeprefix(":"), "the TIMEZONE setting")
    problem = None
    if tz is not None and tz.strip():
        zone = named(tz)
        if zone is not None:
            return HouseZone(zone, tz.strip().removeprefix(":"), "TZ")
        problem = f"TZ is “{tz}”, which names no time zone Scorepad knows: it uses this machine's zone instead."
    zone, name = machine_zone(machine)
    return HouseZone(zone, name, "this machine's clock", problem)


_house: HouseZone | None = None


def house() -> HouseZone:
    """The house's zone as set at start (`set_house`); before that, TZ's or the machine's."""
    global _house
    if _house is None:
        _house = choose(None, os.environ.get("TZ"))
    return _house


def set_house(zone: HouseZone | None) -> None:
    """From now on, file and show times in `zone` (None: TZ's or the machine's again)."""
    global _house
    _house = zone


def zone() -> tzinfo:
    return house().tz


def local(moment: datetime) -> datetime:
    """`moment` on the house's clock (see `HouseZone.local`)."""
    return house().local(moment)


def now() -> datetime:
    """The time now on the house's clock, with its zone."""
    return datetime.now(UTC).astimezone(zone())


def wall_clock(moment: datetime | None = None) -> datetime:
    """`moment` (by default now) as a clock on the house's wall reads it, without a zone: how backups are named."""
    return (local(moment) if moment is not None else now()).replace(tzinfo=None)
