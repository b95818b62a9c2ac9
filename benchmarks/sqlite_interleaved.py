"""Both eras in one process, calls alternating, for figures that a busy shared machine skews less.

Run benchmarks/sqlite_preview_bench.py first (it builds both stores). Prints the median of
--samples alternating calls for the session path (resolve + read 150) and the full preview.

    .venv/bin/python benchmarks/sqlite_interleaved.py [--samples 60]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_big_store import CHAT_ID, TARGET_THREAD, default_dir
from sqlite_preview_bench import sqlite_state_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60)
    args = parser.parse_args()
    os.environ["OPENCLAW_STATE_DIR"] = str(sqlite_state_dir())
    from savenow.clock import Clock
    from savenow.config import Settings
    from savenow.service import SaveNowService, Scope
    from savenow.sessions.resolve import SessionCatalog

    workspace = Path(tempfile.mkdtemp(prefix="savenow-bench-ws-"))
    (workspace / "memory").mkdir()
    eras = {
        "files": Settings(
            workspace=workspace, sessions_dir=default_dir(), extractor="heuristic", timezone="UTC"
        ),
        "sqlite": Settings(workspace=workspace, extractor="heuristic", timezone="UTC"),
    }
    clock = Clock(tz=ZoneInfo("UTC"), fixed=datetime(2026, 11, 26, 10, 0, tzinfo=ZoneInfo("UTC")))
    scope = Scope(chat_id=CHAT_ID, thread_id=TARGET_THREAD, chat_type="group", user_id="4242")

    def session_path(settings: Settings) -> None:
        catalog = SessionCatalog.from_settings(settings)
        info = catalog.resolve(chat_id=CHAT_ID, thread_id=TARGET_THREAD, chat_type="group")
        catalog.read_messages(info, 150)

    def preview(settings: Settings) -> None:
        SaveNowService(settings, clock=clock).preview(scope)

    for name, fn in (("session path", session_path), ("full preview", preview)):
        samples: dict[str, list[float]] = {era: [] for era in eras}
        for settings in eras.values():
            fn(settings)  # warm: parsed store, imports
        for _ in range(args.samples):
            for era, settings in eras.items():
                start = time.perf_counter()
                fn(settings)
                samples[era].append((time.perf_counter() - start) * 1000)
        files, sqlite = (statistics.median(samples[era]) for era in ("files", "sqlite"))
        print(f"{name}: files {files:.2f} ms, sqlite {sqlite:.2f} ms, ratio {sqlite / files:.2f}x")


if __name__ == "__main__":
    main()
