"""Benchmark: what an objects change costs now that it is one journaled group (DESIGN §8, §14).

Prints, in-process (median and p95 over --runs), for a store of --objects objects and a shared
change log that already holds --memory-writes memory writes:
  * create:  upsert of a new object (intents, atomic write, commits),
  * update:  upsert adding a fact to it (a copy of the bytes before, then the same),
  * forget:  trash copy + delete + tombstones (three files, one group),
  * undo:    objects undo of that forget,
and the durability points (fsyncs, renames, unlinks) of each, counted with the fault hook's trace.

    python benchmarks/objects_write_bench.py [--objects 200] [--memory-writes 500] [--runs 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from savenow.clock import Clock
from savenow.objects.model import parse_object
from savenow.objects.store import ObjectStore
from savenow.storage.faults import TRACE_ENV
from savenow.storage.journal import write_logged


def person(number: int, fact: str = "likes tea") -> object:
    data = {"type": "relationship", "name": f"Person {number}", "summary": "a friend", "facts": [fact]}
    return parse_object(data, "bench")


def timed(runs: int, step: Callable[[int], None]) -> tuple[float, float]:
    times = []
    for run in range(runs):
        start = time.perf_counter()
        step(run)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)]


def points(trace: Path, step: Callable[[], None]) -> int:
    os.environ[TRACE_ENV] = str(trace)
    try:
        step()
    finally:
        del os.environ[TRACE_ENV]
    count = len(trace.read_text().split()) if trace.exists() else 0
    trace.unlink(missing_ok=True)
    return count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--objects", type=int, default=200)
    parser.add_argument("--memory-writes", type=int, default=500)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        (workspace / "memory").mkdir()
        note = workspace / "memory" / "2026-11-29.md"
        for number in range(args.memory_writes):
            write_logged(
                workspace,
                note,
                lambda text, n=number: (text or "") + f"- note {n}\n",
                kind="memory",
                time="t",
            )
        store = ObjectStore(workspace, Clock.from_env())
        for number in range(args.objects):
            store.upsert([person(number)], allow_near=True)
        base = 10_000
        rows = {
            "create": timed(args.runs, lambda run: store.upsert([person(base + run)], allow_near=True)),
            "update": timed(
                args.runs, lambda run: store.upsert([person(base + run, "plays chess")], allow_near=True)
            ),
            "forget": timed(args.runs, lambda run: store.forget(f"Person {base + run}")),
        }
        store.upsert([person(20_000)], allow_near=True)
        store.forget("Person 20000")
        rows["undo"] = timed(1, lambda run: store.undo())
        trace = workspace.parent / f"{workspace.name}.points"
        counts = {
            "create": points(trace, lambda: store.upsert([person(30_000)], allow_near=True)),
            "update": points(trace, lambda: store.upsert([person(30_000, "plays chess")], allow_near=True)),
            "forget": points(trace, lambda: store.forget("Person 30000")),
            "undo": points(trace, lambda: store.undo()),
        }
        print(
            f"{args.objects} objects, {args.memory_writes} memory writes in the shared log, {args.runs} runs"
        )
        for name, (median, p95) in rows.items():
            print(f"{name:7} median {median:7.2f} ms   p95 {p95:7.2f} ms   durability points {counts[name]}")


if __name__ == "__main__":
    main()
