"""The replica's states as data: every state and event in the table, the walks a household's replica takes (a
wiped folder, a share that drops, a full disk, another Scorepad at the same place), and the rule the pages rest
on: the copy is never called fine unless a drill proved it, and never after a drill failed."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.core import replica_states as rs
from scorepad.core.replica_states import Event, Proof, State

T0 = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)
PROOF = Proof(T0, T0, games=12, hands=240, last_hand_at=T0, seconds=1.5, bytes=2**20)


def walk(events, start=None):
    """The health after `events` (an event, or (event, why)), a second apart from T0."""
    health = start or rs.begin(T0, configured=True)
    for n, item in enumerate(events, start=1):
        event, why = item if isinstance(item, tuple) else (item, None)
        health = rs.step(health, event, T0 + timedelta(seconds=n), why=why,
                         proof=PROOF if event is Event.DRILL_PASSED else None)
    return health


def test_every_state_has_its_row_and_every_target_is_a_state():
    assert set(rs.TRANSITIONS) == set(State)
    for row in rs.TRANSITIONS.values():
        assert all(isinstance(e, Event) and isinstance(s, State) for e, s in row.items())


def test_every_state_says_what_it_is_doing_and_every_warning_state_has_its_sentence():
    for state in State:
        health = rs.Health(state, T0, why="a reason")
        assert rs.summary(health, T0).strip()
        if state in rs.WARNS:
            assert "a reason" in rs.warning(health, "/mnt/nas", T0)


def test_every_state_litestream_runs_in_hears_that_it_cannot_run():
    """Else a proven replica whose Litestream would not start again would stay "fine" while nothing is written."""
    for state in rs.RUNS_LITESTREAM:
        assert rs.TRANSITIONS[state][Event.CANNOT_RUN] is State.CANNOT_START
        assert rs.TRANSITIONS[state][Event.LITESTREAM_EXITED] is State.RESTARTING


def test_litestream_never_writes_where_the_replica_is_refused_or_unchecked():
    never = {State.OFF, State.CANNOT_START, State.CHECKING, State.HEALING, State.RESTARTING, State.NOT_MOUNTED,
             State.UNREACHABLE, State.REFUSED, State.STOPPED}
    assert never.isdisjoint(rs.RUNS_LITESTREAM)
    assert rs.RUNS_LITESTREAM | never == set(State)


def test_a_server_stopping_stops_every_state_that_is_not_already_at_rest():
    for state in set(State) - {State.OFF, State.STOPPED}:
        assert rs.TRANSITIONS[state][Event.STOPPING] is State.STOPPED


@pytest.mark.parametrize(("events", "state"), [
    ([Event.REPLICA_EMPTY], State.STREAMING),  # a new place: written to, then proven
    ([Event.REPLICA_EMPTY, Event.DRILL_PASSED], State.PROVEN),
    ([Event.DRILL_PASSED], State.PROVEN),  # this database's replica, put back and checked before writing
    # a folder wiped while Scorepad runs: started over by itself, then proven again
    ([Event.DRILL_PASSED, Event.HISTORY_LOST], State.HEALING),
    ([Event.DRILL_PASSED, Event.HISTORY_LOST, Event.HEALED], State.HEALED),
    ([Event.DRILL_PASSED, Event.HISTORY_LOST, Event.HEALED, Event.DRILL_PASSED], State.PROVEN),
    # starting over did not help: said, and looked at again later, not started over in a loop
    ([Event.DRILL_PASSED, Event.DRILL_FAILED, Event.HEALED, Event.DRILL_FAILED], State.DRILL_FAILED),
    ([Event.DRILL_PASSED, Event.DRILL_FAILED, Event.HEALED, Event.HISTORY_LOST], State.DRILL_FAILED),
    ([Event.DRILL_PASSED, Event.DRILL_FAILED, Event.HEAL_FAILED], State.DRILL_FAILED),
    ([Event.DRILL_PASSED, Event.DRILL_FAILED, Event.HEAL_FAILED, Event.RETRY], State.CHECKING),
    # a share that drops: not written into until it is back, then started over (what was written meanwhile is
    # not in it) and proven again; a drill of the old copy alone proves nothing of the gap
    ([Event.DRILL_PASSED, Event.SHARE_MISSING], State.NOT_MOUNTED),
    ([Event.DRILL_PASSED, Event.SHARE_MISSING, Event.DRILL_PASSED], State.NOT_MOUNTED),
    ([Event.DRILL_PASSED, Event.SHARE_MISSING, Event.SHARE_BACK], State.HEALING),
    ([Event.DRILL_PASSED, Event.SHARE_MISSING, Event.SHARE_BACK, Event.HEALED, Event.DRILL_PASSED], State.PROVEN),
    ([Event.SHARE_MISSING], State.NOT_MOUNTED),  # at start, before the share is mounted
    # another Scorepad's replica: never written into
    ([Event.ANOTHER_OWNER], State.REFUSED),
    ([Event.DRILL_PASSED, Event.ANOTHER_OWNER], State.REFUSED),
    ([Event.ANOTHER_OWNER, Event.DRILL_PASSED], State.REFUSED),
    ([Event.ANOTHER_OWNER, Event.RETRY], State.CHECKING),
    # a full disk, a refusal, no answer: said at once; a sync after it says it passed
    ([Event.DRILL_PASSED, Event.TROUBLE], State.TROUBLE),
    ([Event.DRILL_PASSED, Event.TROUBLE, Event.DRILL_PASSED], State.TROUBLE),
    ([Event.DRILL_PASSED, Event.TROUBLE, Event.SYNCED], State.STREAMING),
    ([Event.UNREACHABLE], State.UNREACHABLE),
    ([Event.UNREACHABLE, Event.RETRY], State.CHECKING),
    # Litestream stopping by itself: started again
    ([Event.DRILL_PASSED, Event.LITESTREAM_EXITED], State.RESTARTING),
    ([Event.DRILL_PASSED, Event.LITESTREAM_EXITED, Event.LITESTREAM_STARTED], State.STREAMING),
    ([Event.CANNOT_RUN], State.CANNOT_START),
    ([Event.DRILL_PASSED, Event.CANNOT_RUN], State.CANNOT_START),  # proven, but Litestream will not start
    ([Event.DRILL_PASSED, Event.HISTORY_LOST, Event.HEALED, Event.CANNOT_RUN], State.CANNOT_START),
    ([Event.CANNOT_RUN, Event.RETRY], State.CHECKING),
    # late news from a state that is over changes nothing
    ([Event.ANOTHER_OWNER, Event.TROUBLE, Event.HEALED, Event.SYNCED], State.REFUSED),
    ([Event.DRILL_PASSED, Event.STOPPING, Event.TROUBLE], State.STOPPED),
])
def test_the_walks_a_replica_takes(events, state):
    assert walk(events).state is state


def test_a_sync_from_before_the_trouble_does_not_clear_it():
    health = walk([Event.DRILL_PASSED, (Event.TROUBLE, "the disk it is on is full")])
    earlier = rs.step(health, Event.SYNCED, health.since - timedelta(seconds=1))
    assert earlier.state is State.TROUBLE
    later = rs.step(health, Event.SYNCED, health.since + timedelta(seconds=1))
    assert later.state is State.STREAMING and later.reached_at == health.since + timedelta(seconds=1)


def test_the_same_state_again_keeps_when_it_began():
    proven = walk([Event.DRILL_PASSED])
    again = rs.step(proven, Event.DRILL_PASSED, proven.since + timedelta(hours=1), proof=PROOF)
    assert again.state is State.PROVEN and again.since == proven.since


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list(Event)), max_size=30))
def test_health_is_never_fine_unless_the_last_drill_passed(events):
    """Whatever happens, in any order: fine means proven by a drill, and nothing since that drill failed, found
    the replica another's, lost its history or stopped it being written."""
    health = rs.begin(T0, configured=True)
    last_verdict = None
    for n, event in enumerate(events, start=1):
        before = health.state
        health = rs.step(health, event, T0 + timedelta(seconds=n), why="why",
                         proof=PROOF if event is Event.DRILL_PASSED else None)
        if health.state is not before or event is Event.DRILL_PASSED:
            last_verdict = event
        if rs.is_fine(health, T0 + timedelta(seconds=n)):
            assert health.state is State.PROVEN
            assert last_verdict is Event.DRILL_PASSED


def test_the_warning_says_what_went_wrong_in_a_households_words():
    full = walk([Event.DRILL_PASSED, (Event.TROUBLE, "the disk it is on is full (no space left on device)")])
    said = rs.warning(full, "/mnt/nas", full.since)
    assert said.startswith("The copy on /mnt/nas is not being written: the disk it is on is full")
    failed = walk([Event.DRILL_PASSED, (Event.DRILL_FAILED, "there is a gap in its files"), Event.HEAL_FAILED])
    assert "cannot be put back" in rs.warning(failed, "/mnt/nas", failed.since)
    assert not rs.is_fine(failed, failed.since)
    refused = walk([(Event.ANOTHER_OWNER, "it holds another Scorepad's database")])
    assert "give each Scorepad its own REPLICA_URL" in rs.warning(refused, "/mnt/nas", refused.since)


def test_a_proven_replica_is_fine_and_says_what_it_held():
    proven = walk([Event.DRILL_PASSED])
    assert rs.is_fine(proven, proven.since) and rs.warning(proven, "/mnt/nas", proven.since) is None
    assert rs.held(PROOF).startswith("12 games and 240 hands, the last hand recorded")


def test_a_replica_written_to_but_not_reached_for_ten_minutes_is_a_warning():
    proven = rs.step(walk([Event.DRILL_PASSED]), Event.SYNCED, T0 + timedelta(seconds=5))
    assert rs.warning(proven, "/mnt/nas", T0 + timedelta(minutes=9)) is None
    assert "not been reached for 10 minutes" in rs.warning(proven, "/mnt/nas", T0 + timedelta(minutes=10, seconds=6))
    started = walk([Event.REPLICA_EMPTY])
    later = T0 + timedelta(minutes=12, seconds=1)
    assert "since the server started, 12 minutes ago" in rs.warning(started, "/mnt/nas", later)


def test_a_proof_hours_old_is_a_warning():
    proven = rs.step(walk([Event.DRILL_PASSED]), Event.SYNCED, T0 + timedelta(hours=4))
    assert "has not been put back to check it since" in rs.warning(proven, "/mnt/nas", T0 + timedelta(hours=4))


def test_starting_over_is_listed_with_when_and_why():
    healed = walk([Event.DRILL_PASSED, (Event.HISTORY_LOST, "files are missing from it"), (Event.HEALED, "files are "
                                                                                            "missing from it"),
                   Event.DRILL_PASSED])
    said = [h.what for h in healed.history]
    assert said[0] == "put back and checked again: restorable"
    assert any(what.startswith("started over with a new snapshot: files are missing") for what in said)


def test_a_scorepad_refused_this_place_is_said_for_a_day():
    proven = walk([Event.DRILL_PASSED])
    visited = rs.visited(proven, T0 + timedelta(minutes=1), "pi-new", "it holds another Scorepad's database")
    assert "Another Scorepad (on pi-new) was given this copy's place too" in rs.warning(
        visited, "/mnt/nas", T0 + timedelta(minutes=2))
    a_day_on = T0 + timedelta(days=1, minutes=2)
    fresh = rs.step(rs.step(visited, Event.DRILL_PASSED, a_day_on, proof=replace(PROOF, at=a_day_on)), Event.SYNCED,
                    a_day_on)
    assert rs.warning(fresh, "/mnt/nas", a_day_on) is None
    assert rs.visited(visited, T0 + timedelta(minutes=1), "pi-new", "again") is visited  # the same note once


def test_a_retry_comes_when_its_wait_is_over():
    refused = walk([Event.ANOTHER_OWNER])
    assert not refused.retry_due(refused.since + timedelta(minutes=4))
    assert refused.retry_due(refused.since + rs.RETRY_AFTER[State.REFUSED])
    assert not walk([Event.DRILL_PASSED]).retry_due(T0 + timedelta(days=1))
