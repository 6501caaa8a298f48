"""What a restore drill's findings mean: a table of copies (whole, damaged, another database's, another Scorepad's
writing, lacking hands) against the live database, each to the event the replica's state takes. And the drill's
room: it never fills the disk the live database needs."""

import os
from collections import namedtuple
from datetime import UTC, datetime

import pytest

from scorepad.core.replica_states import Event
from scorepad.services import replica_drill
from scorepad.store.replica_marks import CopyCheck, Summary, Writer

NOW = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)
OURS, THEIRS = "a" * 32, "b" * 32
ME, OLD_PI = Writer("me", "pi-new", "2026-11-25T17:00:00+00:00"), Writer("old", "pi-old", "2026-11-20T19:00:00+00:00")


def copy(identity=OURS, writer=ME, damage=(), missing=0, behind=False, games=3, hands=60):
    return CopyCheck(damage, Summary(games, hands, NOW, identity, writer), missing, behind, 1 << 20)


Case = namedtuple("Case", "checked live event said")
CASES = [
    Case(copy(), (OURS, ME), Event.DRILL_PASSED, None),
    Case(copy(writer=None), (OURS, ME), Event.DRILL_PASSED, None),  # written before writers were marked
    Case(copy(identity=None, writer=None), (OURS, None), Event.DRILL_PASSED, None),  # an older Scorepad's replica
    Case(copy(behind=True), (OURS, ME), Event.DRILL_PASSED, None),  # an upgrade not yet shipped: still restorable
    Case(copy(damage=("*** in database main ***",)), (OURS, ME), Event.DRILL_FAILED, "what came back is damaged"),
    Case(copy(missing=4), (OURS, ME), Event.DRILL_FAILED, "it lacks 4 of the hands and games"),
    Case(copy(identity=THEIRS, writer=OLD_PI), (OURS, ME), Event.ANOTHER_OWNER,
         "it holds another Scorepad's database (3 games and 60 hands"),
    Case(copy(writer=OLD_PI), (OURS, ME), Event.ANOTHER_OWNER, "the Scorepad on pi-old writes to it"),
    Case(copy(writer=ME), (OURS, None), Event.ANOTHER_OWNER, "the Scorepad on pi-new writes to it"),
]


@pytest.mark.parametrize("case", CASES)
def test_what_a_checked_copy_means(case):
    outcome = replica_drill.judge(case.checked, case.live, NOW, NOW, 1.25, NOW)
    assert outcome.event is case.event
    if case.said:
        assert case.said in outcome.why
    if case.event is Event.DRILL_PASSED:
        assert (outcome.proof.games, outcome.proof.hands, outcome.proof.seconds) == (3, 60, 1.25)
        assert outcome.proof.bytes == 1 << 20


def test_a_drill_needs_room_for_its_scratch_file_beside_the_database(tmp_path, monkeypatch):
    live = tmp_path / "scorepad.db"
    live.write_bytes(b"x" * 4096)
    assert replica_drill.room_for_scratch(str(live)) is None
    stats = os.statvfs(tmp_path)
    small = os.statvfs_result((stats.f_bsize, stats.f_frsize, stats.f_blocks, 10, 10, *tuple(stats)[5:]))
    monkeypatch.setattr(os, "statvfs", lambda path: small)
    said = replica_drill.room_for_scratch(str(live))
    assert said.startswith("there is no room to put it back for a check: that needs 64 MB")
