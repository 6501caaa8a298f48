"""The replica's supervisor holds the database's log (`connection.hold_log`) while Litestream runs (it folds the
log alone) and while it is stopped and is to carry on; stopped longer than HOLD_SECONDS, it lets the log go and
the next start writes a new snapshot instead of carrying on (the log folded meanwhile could not be carried on
from)."""

from datetime import UTC, datetime, timedelta

import pytest

from scorepad.core.replica_states import Event
from scorepad.services import replica, replication
from scorepad.store import connection


class _Process:
    def __init__(self, code=None):
        self.code, self.pid = code, 4242

    def poll(self):
        return self.code


@pytest.fixture
def supervisor(tmp_path, monkeypatch):
    now = {"mono": 1000.0, "wall": datetime(2026, 11, 27, 15, 0, tzinfo=UTC)}
    monkeypatch.setattr(replication.time, "monotonic", lambda: now["mono"])
    live = str(tmp_path / "scorepad.db")
    made = replication.Replication(replica.Place(str(tmp_path / "nas")), live, clock=lambda: now["wall"])
    made.now = now
    yield made
    connection.let_log_go(live)


def _synced(supervisor, seconds_after_launch: float) -> None:
    supervisor._apply(Event.SYNCED, at=supervisor._launched_at + timedelta(seconds=seconds_after_launch))


def test_the_log_is_held_while_litestream_runs_and_while_it_is_stopped(supervisor):
    """Litestream folds the log alone while it runs (a writer's fold racing its own damaged the replica now and
    then), and nothing leaves the log while it is stopped and is to carry on."""
    path = supervisor.live_path
    supervisor._mind_the_log()
    assert connection.log_held(path), "held before Litestream first runs"
    supervisor._process, supervisor._launched_at = _Process(), supervisor.now["wall"]
    supervisor._mind_the_log()
    assert connection.log_held(path), "let go before the new Litestream read the log"
    _synced(supervisor, 1)
    supervisor.now["mono"] += replication.HOLD_SECONDS * 10  # however long it runs
    supervisor._mind_the_log()
    assert connection.log_held(path), "folded by this server's writers while Litestream runs"
    supervisor._process = _Process(code=1)  # it exited: still held, and the hold's clock starts now
    supervisor.now["mono"] += replication.HOLD_SECONDS - 1
    supervisor._mind_the_log()
    assert connection.log_held(path) and not supervisor._start_over


def test_a_litestream_stopped_longer_than_the_hold_lets_the_log_go_and_starts_the_replica_over(supervisor):
    path = supervisor.live_path
    supervisor._mind_the_log()
    supervisor.now["mono"] += replication.HOLD_SECONDS - 1
    supervisor._mind_the_log()
    assert connection.log_held(path) and not supervisor._start_over
    supervisor.now["mono"] += 2
    supervisor._mind_the_log()
    assert not connection.log_held(path) and supervisor._start_over
    supervisor.now["mono"] += replication.HOLD_SECONDS * 10
    supervisor._mind_the_log()
    assert not connection.log_held(path), "held again though the next start writes a new snapshot"


def test_a_litestream_running_but_not_yet_synced_keeps_the_hold_however_long(supervisor):
    supervisor._process, supervisor._launched_at = _Process(), supervisor.now["wall"]
    supervisor._mind_the_log()
    supervisor.now["mono"] += replication.HOLD_SECONDS * 3  # a quiet table: nothing written, nothing to sync
    supervisor._mind_the_log()
    assert connection.log_held(supervisor.live_path) and not supervisor._start_over


def test_a_start_over_due_writes_a_new_snapshot_before_litestream_carries_on(supervisor, monkeypatch):
    supervisor._start_over = True
    written, launched = [], []
    monkeypatch.setattr(supervisor, "_new_snapshot", lambda: written.append(True))
    monkeypatch.setattr(replication.replica, "binary", lambda: "/bin/true")
    monkeypatch.setattr(replication.replica, "write_config", lambda *a, **k: launched.append(a) or "cfg")
    monkeypatch.setattr(replication.subprocess, "Popen", lambda *a, **k: _Process(code=0))
    monkeypatch.setattr(replication.threading, "Thread", lambda **k: type("T", (), {"start": lambda self: None})())
    supervisor._socket = str(supervisor.live_path) + ".sock"
    assert supervisor._launch()
    assert written == [True] and len(launched) == 1
    assert not supervisor._start_over and supervisor._drill_pending


def test_a_start_over_that_fails_says_why_and_leaves_litestream_stopped(supervisor, monkeypatch):
    supervisor._start_over = True
    monkeypatch.setattr(supervisor, "_new_snapshot", lambda: "the share is full")
    monkeypatch.setattr(replication.replica, "binary", lambda: "/bin/true")
    assert not supervisor._launch()
    assert supervisor._process is None and supervisor._start_over
    assert "the share is full" in supervisor.health().why


class _Running(_Process):
    def terminate(self):
        self.code = -15

    def wait(self, timeout=None):
        return self.code


def _failing_litestream(monkeypatch, supervisor, tmp_path):
    import subprocess
    supervisor._work = tmp_path
    monkeypatch.setattr(replication.replica, "binary", lambda: "/bin/true")
    monkeypatch.setattr(replication.replica, "run", lambda place, args, **k: subprocess.CompletedProcess(
        args, 1, "", "cannot reach the replica\n"))


def test_a_start_over_whose_snapshot_fails_lets_the_log_go_while_it_waits_to_try_again(supervisor, monkeypatch,
                                                                                       tmp_path):
    _failing_litestream(monkeypatch, supervisor, tmp_path)
    supervisor._start_over = True
    assert not supervisor._launch()
    supervisor._mind_the_log()
    assert not connection.log_held(supervisor.live_path) and supervisor._start_over
    supervisor.now["mono"] += replication.HOLD_SECONDS * 50  # however long the place stays out of reach
    supervisor._mind_the_log()
    assert not connection.log_held(supervisor.live_path)


def test_a_heal_that_fails_lets_the_log_go_and_leaves_a_start_over_for_the_next_start(supervisor, monkeypatch,
                                                                                     tmp_path):
    _failing_litestream(monkeypatch, supervisor, tmp_path)
    monkeypatch.setattr(supervisor, "_claim", lambda: None)
    supervisor._apply(Event.DRILL_FAILED, "what came back is damaged")  # checking -> healing
    supervisor._heal()
    assert not connection.log_held(supervisor.live_path) and supervisor._start_over
    assert "cannot reach the replica" in supervisor.health().why


def test_the_log_is_held_before_litestream_is_stopped_and_from_the_servers_start(supervisor, monkeypatch):
    supervisor._process, supervisor._launched_at = _Running(), supervisor.now["wall"]
    _synced(supervisor, 1)
    connection.let_log_go(supervisor.live_path)  # as by a start-over that failed, before this run
    supervisor._held_at = None
    supervisor._halt()
    assert connection.log_held(supervisor.live_path), "Litestream stopped before the log was held"
    connection.let_log_go(supervisor.live_path)
    supervisor._held_at = None
    monkeypatch.setattr(supervisor, "_supervise", lambda: None)
    supervisor.start()
    assert connection.log_held(supervisor.live_path), "the server's first writes could fold the log"


def _drill_passes(monkeypatch, supervisor):
    from scorepad.core.replica_states import Proof
    from scorepad.services import replica_drill

    now = supervisor.now["wall"]
    proof = Proof(at=now, moment=now, games=3, hands=40, last_hand_at=now, seconds=1.5, bytes=4096)
    monkeypatch.setattr(replica_drill, "room_for_scratch", lambda live: None)
    monkeypatch.setattr(replica_drill, "drill", lambda place, live, clock: replica_drill.Outcome(
        Event.DRILL_PASSED, proof=proof))


def test_a_replica_started_over_is_proven_again_within_minutes_then_hourly(supervisor, monkeypatch):
    """The first proof after a start-over saw the new snapshot; what the Litestream carrying on from it writes on
    top is put back again two minutes later, not an hour."""
    _drill_passes(monkeypatch, supervisor)
    supervisor._apply(Event.DRILL_FAILED, "what came back is damaged")  # checking -> healing
    supervisor._apply(Event.HEALED, "what came back is damaged")
    supervisor._drill()
    assert supervisor.health().state.value == "proven"
    assert supervisor.next_drill == supervisor.now["wall"] + replication.AGAIN_AFTER_START_OVER
    supervisor.now["wall"] += replication.AGAIN_AFTER_START_OVER
    supervisor._drill()
    assert supervisor.next_drill == supervisor.now["wall"] + replication.DRILL_EVERY


class _Signalled(_Process):
    """A Litestream that notes each signal it gets, and what the pages said at that moment."""

    def __init__(self, supervisor):
        super().__init__()
        self.supervisor, self.signals = supervisor, []

    def terminate(self):
        self.signals.append(("TERM", self.supervisor.health().state))
        self.code = -15

    def kill(self):
        self.signals.append(("KILL", self.supervisor.health().state))
        self.code = -9

    def wait(self, timeout=None):
        return self.code


def test_litestream_on_a_share_that_dropped_is_killed_before_the_pages_say_so(supervisor, monkeypatch):
    """Stopped gently, Litestream sends what it has left: into the share's empty mount point, on this machine's own
    disk (a CI run saw its last file finished there after the pages said "not mounted")."""
    from scorepad.core.replica_states import State

    supervisor._apply(Event.REPLICA_EMPTY)
    assert supervisor.health().state in replication.replica_states.RUNS_LITESTREAM
    litestream = supervisor._process = _Signalled(supervisor)
    supervisor._launched_at = supervisor.now["wall"]
    supervisor._share = {"folder": str(supervisor.place.folder), "mount": "/mnt/nas"}
    monkeypatch.setattr(replication.replica_folder, "still_on", lambda folder, mount: False)
    supervisor._tick()
    assert litestream.signals == [("KILL", litestream.signals[0][1])]
    assert litestream.signals[0][1] is not State.NOT_MOUNTED, "the pages said it before Litestream had stopped"
    assert supervisor.health().state is State.NOT_MOUNTED and supervisor._process is None
    assert connection.log_held(supervisor.live_path), "what Litestream had not sent could be folded away"


def test_litestream_is_neither_started_nor_stopped_gently_while_the_share_is_away(supervisor, monkeypatch):
    """A Litestream that exited as the share dropped is not started again into the mount point, and one stopped
    for any other reason then is killed, not asked to send what it has left."""
    from scorepad.core.replica_states import State

    supervisor._share = {"folder": str(supervisor.place.folder), "mount": "/mnt/nas"}
    monkeypatch.setattr(replication.replica_folder, "still_on", lambda folder, mount: False)
    monkeypatch.setattr(replication.replica, "binary", lambda: "/bin/true")
    monkeypatch.setattr(replication.subprocess, "Popen", lambda *a, **k: pytest.fail("Litestream was started"))
    supervisor._apply(Event.REPLICA_EMPTY)
    supervisor._apply(Event.LITESTREAM_EXITED, "exit status 1")
    assert supervisor.health().state is State.RESTARTING
    supervisor.now["wall"] += timedelta(minutes=5)
    supervisor._restart()
    assert supervisor.health().state is State.NOT_MOUNTED and supervisor._process is None
    litestream = supervisor._process = _Signalled(supervisor)
    supervisor._halt()
    assert [signal for signal, _ in litestream.signals] == ["KILL"]
