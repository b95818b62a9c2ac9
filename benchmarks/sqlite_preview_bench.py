"""Preview on OpenClaw's SQLite-era store against the file era, same sessions (issue 13, "Measure").

The file-era store of ``make_big_store.py`` (5,000 sessions, a 200 MB transcript
in the same group, a 180-message target topic) is converted once into an agent
database laid out like schema 24 (``STRICT`` tables; events of 1 KiB and more
stored as one zstd frame in ``event_zstd``, as OpenClaw does), under
``<state>/agents/main/agent/openclaw-agent.sqlite``. Then, for each era, in a
fresh process per era (so peak RSS is that era's alone):

  * full preview: ``SaveNowService(settings).preview(scope)`` with the offline
    extractor, a new service per run (cold = first run in the process);
  * session path: ``catalog.resolve`` + ``read_messages(limit=150)``;
  * tail of the 200 MB transcript (150 messages).

The SQLite run finds its store with no sessions_dir (era detection from
OPENCLAW_STATE_DIR); the file run names its folder. Goal: SQLite ≤ 1.2× file.

    .venv/bin/python benchmarks/sqlite_preview_bench.py [--runs 20] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from make_big_store import BIG_KEY, CHAT_ID, TARGET_THREAD, ensure_store

DONE = ".complete"


def sqlite_state_dir() -> Path:
    return Path(tempfile.gettempdir()) / "savenow-bench-sqlite-state"


def build_sqlite(files: Path, state: Path) -> Path:
    """The file store's sessions and transcripts as one schema-24 agent database (cached)."""
    import zstandard

    from tests.sessions.sqlitegen import SCHEMA_24

    db = state / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    if (state / DONE).exists():
        return db
    db.parent.mkdir(parents=True, exist_ok=True)
    if db.exists():
        db.unlink()
    entries = json.loads((files / "sessions.json").read_text(encoding="utf-8"))
    names = {name for name in os.listdir(files) if name.endswith(".jsonl")}
    compressor = zstandard.ZstdCompressor(level=1)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(SCHEMA_24)
    conn.execute("INSERT INTO schema_meta VALUES ('primary', 'agent', 24, 'main', '2026.9.7', 0, 0)")
    conn.execute("PRAGMA user_version = 24")
    for key, entry in entries.items():
        session_id = entry["sessionId"]
        updated = int(entry["updatedAt"])
        conn.execute(
            "INSERT INTO session_nodes (session_key, current_session_id, entry_json, updated_at) VALUES (?, ?, ?, ?)",
            (key, session_id, json.dumps(entry), updated),
        )
        conn.execute(
            "INSERT INTO session_windows (session_id, session_key, reason, created_at, updated_at) "
            "VALUES (?, ?, 'initial', ?, ?)",
            (session_id, key, updated, updated),
        )
        thread = entry.get("lastThreadId")
        name = next(
            (n for n in (f"{session_id}-topic-{thread}.jsonl", f"{session_id}.jsonl") if n in names), None
        )
        if name is None:
            continue
        with open(files / name, encoding="utf-8") as handle:
            for seq, line in enumerate(handle):
                text = line.rstrip("\n")
                raw = text.encode("utf-8")
                if 1024 <= len(raw) <= 4 * 1024 * 1024:
                    conn.execute(
                        "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, "
                        "event_utf8_bytes) VALUES (?, ?, NULL, 0, ?, ?)",
                        (session_id, seq, compressor.compress(raw), len(raw)),
                    )
                else:
                    conn.execute(
                        "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) "
                        "VALUES (?, ?, ?, 0, ?)",
                        (session_id, seq, text, len(raw)),
                    )
    conn.commit()
    conn.close()
    (state / DONE).write_text("ok\n")
    return db


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float, object]:
    samples: list[float] = []
    result: object = None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples[0], statistics.median(samples[1:] or samples), result


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(era: str, store: Path, runs: int) -> None:
    """One era, measured in this process; prints one JSON line."""
    from savenow.clock import Clock
    from savenow.config import Settings
    from savenow.service import SaveNowService, Scope
    from savenow.sessions.resolve import SessionCatalog

    workspace = Path(tempfile.mkdtemp(prefix="savenow-bench-ws-"))
    (workspace / "memory").mkdir()
    if era == "sqlite":
        os.environ["OPENCLAW_STATE_DIR"] = str(store)
        settings = Settings(workspace=workspace, extractor="heuristic", timezone="Asia/Shanghai")
    else:
        settings = Settings(
            workspace=workspace, sessions_dir=store, extractor="heuristic", timezone="Asia/Shanghai"
        )
    clock = Clock(
        tz=ZoneInfo("Asia/Shanghai"), fixed=datetime(2026, 11, 26, 18, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    )
    scope = Scope(chat_id=CHAT_ID, thread_id=TARGET_THREAD, chat_type="group", user_id="4242")
    rss_imports = peak_rss_mb()
    p_cold, p_warm, result = timed(lambda: SaveNowService(settings, clock=clock).preview(scope), runs)

    def session_path() -> object:
        catalog = SessionCatalog.from_settings(settings)
        info = catalog.resolve(chat_id=CHAT_ID, thread_id=TARGET_THREAD, chat_type="group")
        return catalog.read_messages(info, 150)

    s_cold, s_warm, transcript = timed(session_path, runs)
    catalog = SessionCatalog.from_settings(settings)
    big = catalog.get(BIG_KEY)
    assert big is not None
    t_cold, t_warm, tail = timed(lambda: catalog.read_messages(big, 150), runs)
    print(
        json.dumps(
            {
                "era": era,
                "source": big.source,
                "preview_cold_ms": p_cold,
                "preview_median_ms": p_warm,
                "candidates": len(result.entries),  # type: ignore[attr-defined]
                "session_cold_ms": s_cold,
                "session_median_ms": s_warm,
                "messages": len(transcript.messages),  # type: ignore[attr-defined]
                "tail_cold_ms": t_cold,
                "tail_median_ms": t_warm,
                "tail_messages": len(tail.messages),  # type: ignore[attr-defined]
                "rss_after_imports_mb": rss_imports,
                "peak_rss_mb": peak_rss_mb(),
            }
        )
    )


def _medians(results: list[dict[str, object]]) -> dict[str, object]:
    merged: dict[str, object] = {}
    for name, first in results[0].items():
        values = [r[name] for r in results]
        merged[name] = statistics.median(values) if isinstance(first, float) else first  # type: ignore[type-var]
    return merged


def main() -> None:
    parser = argparse.ArgumentParser(description="savenow preview: SQLite era vs file era")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="alternating fresh processes per era")
    parser.add_argument("--child", choices=["files", "sqlite"], help=argparse.SUPPRESS)
    parser.add_argument("--store", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.store, args.runs)
        return
    files = ensure_store()
    state = sqlite_state_dir()
    start = time.perf_counter()
    db = build_sqlite(files, state)
    built = time.perf_counter() - start
    print(f"file store: {files}; database: {db} ({db.stat().st_size / 2**20:.0f} MB; ready in {built:.1f} s)")
    # The eras alternate, one fresh process each, --rounds times; each figure is the median over rounds
    # (the machine is shared: alternating keeps a busy spell from landing on one era only).
    rounds: dict[str, list[dict[str, object]]] = {"files": [], "sqlite": []}
    for _ in range(args.rounds):
        for era, store in (("files", files), ("sqlite", state)):
            command = [
                sys.executable,
                __file__,
                "--child",
                era,
                "--store",
                str(store),
                "--runs",
                str(args.runs),
            ]
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            rounds[era].append(json.loads(out.strip().splitlines()[-1]))
    figures = {era: _medians(results) for era, results in rounds.items()}
    print(f"{args.rounds} rounds x {args.runs} runs per era, alternating processes; medians over rounds:")
    for era, f in figures.items():
        print(
            f"{era:>6} ({f['source']}): preview cold {f['preview_cold_ms']:.1f} ms, median {f['preview_median_ms']:.2f} ms "
            f"({f['candidates']} candidates); session path cold {f['session_cold_ms']:.1f} ms, median "
            f"{f['session_median_ms']:.2f} ms ({f['messages']} messages); 200 MB tail median "
            f"{f['tail_median_ms']:.2f} ms; peak RSS {f['peak_rss_mb']:.1f} MB (after imports {f['rss_after_imports_mb']:.1f})"
        )
    a, b = figures["sqlite"], figures["files"]
    print(
        f"SQLite / file: preview median {a['preview_median_ms'] / b['preview_median_ms']:.2f}×, "
        f"preview cold {a['preview_cold_ms'] / b['preview_cold_ms']:.2f}×, "
        f"session path median {a['session_median_ms'] / b['session_median_ms']:.2f}×, "
        f"peak RSS {a['peak_rss_mb'] / b['peak_rss_mb']:.2f}× (goal ≤ 1.2×)"
    )


if __name__ == "__main__":
    main()
