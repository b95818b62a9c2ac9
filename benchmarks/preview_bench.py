"""Preview latency and memory on a big OpenClaw store (issue 3, item 9).

A 180-message forum topic, resolved among 5,000 sessions, one of which has a
200 MB transcript. Targets: median ≤ 50 ms, peak RSS ≤ 100 MB.

    python benchmarks/preview_bench.py [--runs 20] [--store DIR]

Measures, each in the same process:
  * full preview: ``SaveNowService(settings).preview(scope)`` with the offline
    (heuristic) extractor — a new service per run, as the bot builds per command;
    falls back to the session path when the service is not implemented yet;
  * session path: ``catalog.resolve`` + ``read_messages(limit=150)``;
  * tail of the 200 MB transcript itself (limit=150).
The first (cold) run parses sessions.json; later runs reuse the parsed store
while its files are unchanged. Peak RSS comes from ``resource.getrusage``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_big_store import BIG_KEY, CHAT_ID, TARGET_THREAD, ensure_store

from savenow.clock import Clock
from savenow.config import Settings
from savenow.sessions.resolve import SessionCatalog


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float, object]:
    """(cold ms, warm median ms, last result)."""
    samples: list[float] = []
    result: object = None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        samples.append((time.perf_counter() - start) * 1000)
    warm = samples[1:] or samples
    return samples[0], statistics.median(warm), result


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def main() -> None:
    parser = argparse.ArgumentParser(description="savenow preview benchmark")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--store", type=Path, default=None)
    parser.add_argument("--child-cold", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    store = ensure_store(args.store)
    if args.child_cold:
        _cold_child(store)
        return
    workspace = Path(tempfile.mkdtemp(prefix="savenow-bench-ws-"))
    (workspace / "memory").mkdir()
    settings = Settings(
        workspace=workspace, sessions_dir=store, extractor="heuristic", timezone="Asia/Shanghai"
    )
    clock = Clock(
        tz=ZoneInfo("Asia/Shanghai"), fixed=datetime(2026, 11, 26, 18, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    )
    print(f"store: {store} (5,000 sessions, 200 MB transcript); runs: {args.runs}")
    print(f"peak RSS after imports: {peak_rss_mb():.1f} MB")

    def session_path() -> object:
        catalog = SessionCatalog.from_settings(settings)
        info = catalog.resolve(chat_id=CHAT_ID, thread_id=TARGET_THREAD, chat_type="group")
        return catalog.read_messages(info, 150)

    service_measured = _bench_service(settings, clock, args.runs)
    _bench_cold_processes(store)

    cold, warm, transcript = timed(session_path, args.runs)
    print(
        f"session path (resolve + read_messages 150): cold {cold:.1f} ms, median {warm:.2f} ms, "
        f"{len(transcript.messages)} messages"
    )  # type: ignore[attr-defined]

    catalog = SessionCatalog.from_settings(settings)
    big = catalog.get(BIG_KEY)
    assert big is not None
    cold, warm, tail = timed(lambda: catalog.read_messages(big, 150), args.runs)
    print(
        f"tail of the 200 MB transcript (150 messages): cold {cold:.1f} ms, median {warm:.2f} ms, "
        f"{len(tail.messages)} messages"
    )  # type: ignore[attr-defined]
    print(f"peak RSS: {peak_rss_mb():.1f} MB")
    if not service_measured:
        print(
            "NOTE: the full preview was not measured (service not implemented); figures above are the session path."
        )


def _cold_child(store: Path) -> None:
    """In a fresh process: the first resolve + read, i.e. what one CLI invocation pays after imports."""
    settings = Settings(workspace=Path(tempfile.mkdtemp(prefix="savenow-bench-ws-")), sessions_dir=store)
    start = time.perf_counter()
    catalog = SessionCatalog.from_settings(settings)
    info = catalog.resolve(chat_id=CHAT_ID, thread_id=TARGET_THREAD, chat_type="group")
    catalog.read_messages(info, 150)
    print(f"{(time.perf_counter() - start) * 1000:.2f} {peak_rss_mb():.1f}")


def _bench_cold_processes(store: Path, processes: int = 5) -> None:
    import subprocess

    samples, rss = [], []
    for _ in range(processes):
        out = subprocess.run(
            [sys.executable, __file__, "--child-cold", "--store", str(store)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        samples.append(float(out[0]))
        rss.append(float(out[1]))
    print(
        f"session path, cold process (parses the 6.7 MB sessions.json; after imports): median "
        f"{statistics.median(samples):.1f} ms over {processes} processes, peak RSS {max(rss):.1f} MB"
    )


def _bench_service(settings: Settings, clock: Clock, runs: int) -> bool:
    try:
        from savenow.service import SaveNowService, Scope

        scope = Scope(chat_id=CHAT_ID, thread_id=TARGET_THREAD, chat_type="group", user_id="4242")
        SaveNowService(settings, clock=clock)  # raises NotImplementedError while the service is a stub
    except NotImplementedError:
        print("full preview: SaveNowService not implemented yet — skipped")
        return False

    def preview() -> object:
        return SaveNowService(settings, clock=clock).preview(scope)

    try:
        cold, warm, result = timed(preview, runs)
    except NotImplementedError:
        print("full preview: SaveNowService.preview not implemented yet — skipped")
        return False
    print(
        f"full preview (SaveNowService.preview, heuristic extractor): cold {cold:.1f} ms, "
        f"median {warm:.2f} ms, {len(result.entries)} candidates, session {result.session_key}"
    )  # type: ignore[attr-defined]
    return True


if __name__ == "__main__":
    main()
