"""m017: every club night made before it keeps the movement it was seated by (version 1), and names can be claimed
on a phone. Historic databases made by old commits' own code are upgraded (see tests/system/test_upgrade.py for
their making); the migration is atomic with its record (tests/store/test_upgrade_cut_short.py goes through each
migration)."""

import shutil
import sqlite3

import pytest

from scorepad import services
from scorepad.core.club import LATEST, movement
from scorepad.services import club, club_paper
from scorepad.store import clubs, connection, schema
from tests.helpers import FIXTURES


def _has(path, table: str) -> bool:
    return bool(sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True).execute(
        "SELECT 1 FROM sqlite_master WHERE name = ?", [table]).fetchone())


# the databases made with club nights before m017 (a later one's night is seated by the movement of its day)
CLUB_FIXTURES = [path for path in sorted((FIXTURES / "historic").glob("*.db"))
                 if _has(path, "club_nights") and not _has(path, "club_claims")]


@pytest.fixture(params=CLUB_FIXTURES, ids=[path.stem for path in CLUB_FIXTURES])
def upgraded(request, tmp_path):
    path = tmp_path / request.param.name
    shutil.copyfile(request.param, path)
    schema.migrate(str(path))
    db = connection.connect(str(path))
    yield db
    db.close()


def test_there_are_historic_club_nights_to_upgrade():
    assert len(CLUB_FIXTURES) >= 4


def test_a_night_made_before_m017_keeps_the_first_movement_and_its_chart_is_the_rounds_it_played(upgraded):
    (night,) = clubs.all_nights(upgraded)
    assert night.movement == 1
    numbers = tuple(e.number for e in clubs.entrants(upgraded, night.id))
    stored = [tuple(t.entrants for t in clubs.tables(upgraded, night.id, r)) for r in range(1, night.round + 1)]
    by_version = {v: [tuple(r.tables) for r in movement(night.kind, numbers, night.round, v)] for v in (1, LATEST)}
    assert stored == [tuple(table for table in r) for r in by_version[1]]
    assert by_version[1] != by_version[LATEST]  # so the night proves it is read by its own version
    chart = club_paper.rotation_chart(upgraded, night)
    assert [[t.players for t in r.tables] for r in chart[:night.round]] == [
        [t.players for t in clubs.tables(upgraded, night.id, r)] for r in range(1, night.round + 1)]


def test_an_upgraded_night_has_no_claims_and_its_names_can_be_claimed_once(upgraded):
    (night,) = clubs.all_nights(upgraded)
    assert club.claimed_names(upgraded, night) == []
    ann = clubs.entrants(upgraded, night.id)[0].player_ids[0]
    version = clubs.night_version(upgraded, night.id)
    assert club.claim_name(upgraded, night.id, ann, "phone one") == "Ann"
    assert clubs.night_version(upgraded, night.id) != version  # the director's page moves with a claim
    with pytest.raises(services.Conflict, match="Ann is already claimed on another phone; ask the director"):
        club.claim_name(upgraded, night.id, ann, "phone two")
    assert club.release_name(upgraded, night.id, ann)
    assert club.claim_name(upgraded, night.id, ann, "phone two") == "Ann"
