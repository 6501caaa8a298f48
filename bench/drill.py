"""What proving the replica costs (`services.replica_drill`), on the benchmarks' 10,000-game database: `make bench`
prints it after the server's figures (bench/run.py runs `python -m bench.drill --database` on its database, in a
process of its own so that Litestream's memory is told apart); `python -m bench.drill` alone makes its own.

A folder replica is written once (Litestream's first snapshot, as when a replica is first set up or started over),
then the drill runs as the server runs it (Litestream restores the replica's latest state into a scratch file
beside the database, Scorepad checks it and deletes it), a few times: its wall time, the CPU it takes (Litestream's
and Scorepad's checks'), the disk it needs for that while, and Litestream's memory. The plan asked every 20 s
between drills is timed too.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorepad.services import replica, replica_drill, replication  # noqa: E402
from scorepad.store import backups  # noqa: E402

RUNS = 3


def _cpu() -> tuple[float, float]:
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def _timed(work) -> tuple[object, float, float, float]:
    """(what `work()` returned, wall seconds, this process's CPU seconds, its children's CPU seconds)."""
    (mine, theirs), began = _cpu(), time.perf_counter()
    result = work()
    wall = time.perf_counter() - began
    after_mine, after_theirs = _cpu()
    return result, wall, after_mine - mine, after_theirs - theirs


def _now() -> datetime:
    return datetime.now(UTC)


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def measure(database: str, runs: int = RUNS) -> list[str]:
    """Lines for the report: the drill's cost on the database at `database` (which is only read)."""
    work = Path(tempfile.mkdtemp(prefix="scorepad-drill-"))
    try:
        live = work / "scorepad.db"
        with contextlib.closing(sqlite3.connect(database)) as source:  # with what its log holds, if a killed
            backups.copy_database(source, live)  # server left one; the drill's scratch file goes beside this copy
        place = replica.Place(str(work / "nas"))
        with replica.private_folder(str(live)) as private:
            config = replica.write_config(place, str(live), private)
            done, snapshot_wall, _, snapshot_cpu = _timed(lambda: replica.run(
                place, ["replicate", "-config", str(config), "-no-expand-env", "-once", "-force-snapshot"]))
            if done.returncode != 0:
                return [f"restore drill: not measured (Litestream could not write the replica: {done.stderr[-200:]})"]
            plans = [_timed(lambda: replica.plan(place, config, str(live))) for _ in range(runs)]
        drills = []
        for _ in range(runs):
            outcome, wall, mine, theirs = _timed(lambda: replica_drill.drill(place, str(live), _now))
            if outcome.proof is None:
                return [f"restore drill: not measured ({outcome.event.value}: {outcome.why})"]
            drills.append((outcome.proof, wall, mine, theirs))
        peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        return _report(Path(database), _size(work / "nas"), snapshot_wall, snapshot_cpu, plans, drills, peak_mib)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _report(database: Path, replica_bytes: int, snapshot_wall: float, snapshot_cpu: float, plans, drills,
            peak_mib: float) -> list[str]:
    def spread(values) -> str:
        return f"median {statistics.median(values):.2f} s (min {min(values):.2f}, max {max(values):.2f})"

    proof = drills[-1][0]
    walls = [wall for _, wall, _, _ in drills]
    cpu = [mine + theirs for _, _, mine, theirs in drills]
    checks = statistics.median(mine for _, _, mine, _ in drills)
    litestream = statistics.median(theirs for _, _, _, theirs in drills)
    plan_cpu = statistics.median(mine + theirs for _, _, mine, theirs in plans)
    hourly = statistics.median(cpu) / 3600 * 100
    between = plan_cpu / replication.PLAN_SECONDS * 100
    return [
        f"restore drill on the benchmark database ({database.stat().st_size / 2**20:.0f} MiB, {proof.games:,} "
        f"games, {proof.hands:,} hands; the replica a folder of {replica_bytes / 2**20:.0f} MiB):",
        f"  first snapshot (a new replica, or one started over): {snapshot_wall:.2f} s, {snapshot_cpu:.2f} s CPU",
        f"  drill, {len(drills)} runs: {spread(walls)} wall; CPU {spread(cpu)} (Litestream's restore "
        f"{litestream:.2f} s, Scorepad's checks {checks:.2f} s); scratch file {proof.bytes / 2**20:.0f} MiB beside "
        f"the database while it runs; Litestream's peak memory {peak_mib:.0f} MiB",
        f"  once an hour (the default): {hourly:.2f}% of one core on average; the replica's plan, "
        f"asked every {replication.PLAN_SECONDS} s between drills: "
        f"{spread([wall for _, wall, _, _ in plans])} wall, {plan_cpu:.3f} s CPU ({between:.2f}% of one core)",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--database", help="an existing Scorepad database to measure on (only read)")
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        database = args.database
        if database is None:
            from bench.history import generate

            folder = Path(tempfile.mkdtemp(prefix="scorepad-bench-"))
            stack.callback(shutil.rmtree, folder, True)
            database = str(folder / "bench.db")
            generate(database, games=args.games)
        print("\n".join(measure(database, args.runs)))


if __name__ == "__main__":
    os.environ.pop("REPLICA_URL", None)
    main()
