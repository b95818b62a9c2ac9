"""atomic_write in a folder of many files: the per-write leftover scan, before and after.

    python benchmarks/atomic_write_bench.py [--files 5000] [--writes 300]

The recorder writes one session file per message into a folder holding every session. Before,
each write listed that folder (and ``.savenow/tmp``) for leftover temp files; now each folder is
listed once per process. "listing every write" replays the old cost by clearing the per-process
index before each write. Each write still fsyncs (file and folder), which dominates on a slow disk.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from savenow.storage import files
from savenow.storage.files import atomic_write


def run(folder: Path, workspace: Path, writes: int, *, list_every_write: bool) -> list[float]:
    times = []
    for n in range(writes):
        if list_every_write:
            files._leftovers.forget()
        start = time.perf_counter()
        atomic_write(folder / f"session-{n % 20}.jsonl", f"message {n}\n" * 40, workspace=workspace)
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--writes", type=int, default=300)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp)
        folder = workspace / "sessions"
        folder.mkdir()
        for n in range(options.files):
            (folder / f"other-{n}.jsonl").write_text("x\n")
        print(f"{options.files} files in the folder, {options.writes} writes each (shared machine)")
        for label, every in (("listing every write", True), ("listed once per process", False)):
            files._leftovers.forget()
            times = run(folder, workspace, options.writes, list_every_write=every)
            print(
                f"{label:<26} median {statistics.median(times) * 1000:6.2f} ms/write  "
                f"total {sum(times):6.2f} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
