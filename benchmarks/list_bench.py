"""``savenow list`` on a busy topic: counting messages cold, from the cache file, from memory.

    python benchmarks/list_bench.py [--sessions 12] [--messages 600] [--runs 10]

One forum topic with ``--sessions`` candidate sessions (one current, the rest older, after /new),
each ``--messages`` user/assistant messages with tool calls and 4 KB tool results. Measures:

* in-process ``NotesService.list_sessions``: cold (no cache: every transcript's window read and
  cleaned, as before), warm from ``.savenow/cache/message-counts.json`` (the next process), warm
  from this process's memory (the bot);
* the whole ``savenow list`` process, p50 of ``--runs``: cache file removed before each run vs kept.

The output of every variant is checked to be the same listing. Shared machine: see the load line.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_big_store import BASE_MS, CHAT_ID, TARGET_THREAD, _assistant, _entry, _header, _tool_result, _user

from savenow.access import Scope
from savenow.config import load_settings
from savenow.service import NotesService
from savenow.sessions import counts as counts_module

TOPIC_KEY = f"agent:main:telegram:group:{CHAT_ID}:topic:{TARGET_THREAD}"


def build(folder: Path, sessions: int, messages: int) -> None:
    folder.mkdir(parents=True)
    store: dict[str, dict[str, object]] = {}
    for index in range(sessions):
        key = TOPIC_KEY if index == 0 else f"{TOPIC_KEY}:old{index}"
        session_id = f"list-bench-{index:03d}"
        ms = BASE_MS - index * 86_400_000
        lines = [_header(session_id, ms)]
        n = 1
        for turn in range(messages // 2):
            lines.append(_user(n, ms, f"turn {turn}: the gateway on port {8000 + turn} restarts nightly"))
            lines.append(_assistant(n + 1, ms, f"noted, turn {turn}", tool=turn % 3 == 0))
            n += 2
            if turn % 3 == 0:
                lines.append(_tool_result(n, ms, 4096))
                n += 1
        (folder / f"{session_id}-topic-{TARGET_THREAD}.jsonl").write_text("\n".join(lines) + "\n")
        store[key] = _entry(session_id, ms, CHAT_ID, TARGET_THREAD, "group")
    (folder / "sessions.json").write_text(json.dumps(store))


def timed(fn: object, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=12)
    parser.add_argument("--messages", type=int, default=600)
    parser.add_argument("--runs", type=int, default=10)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        build(root / "sessions", options.sessions, options.messages)
        workspace = root / "workspace"
        (workspace / "memory").mkdir(parents=True)
        config = root / "savenow.yaml"
        config.write_text(
            f"workspace: {workspace}\nsessions_dir: {root / 'sessions'}\nextractor: heuristic\n"
        )
        cache = workspace / ".savenow" / counts_module.CACHE_FILE
        settings = load_settings(config)
        scope = Scope(chat_id=CHAT_ID, thread_id=TARGET_THREAD)
        size = sum(p.stat().st_size for p in (root / "sessions").glob("*.jsonl")) / 1e6
        print(
            f"{options.sessions} candidate sessions x {options.messages} messages ({size:.0f} MB), "
            f"load {os.getloadavg()[0]:.1f} (shared machine)"
        )

        def cold() -> object:
            counts_module._MEMORY.clear()
            cache.unlink(missing_ok=True)
            return NotesService(settings).list_sessions(scope)

        def from_file() -> object:
            counts_module._MEMORY.clear()
            return NotesService(settings).list_sessions(scope)

        def from_memory() -> object:
            return NotesService(settings).list_sessions(scope)

        cold_ms, reference = timed(cold, options.runs)
        file_ms, via_file = timed(from_file, options.runs)
        memory_ms, via_memory = timed(from_memory, options.runs)
        assert via_file == reference and via_memory == reference, "the cache changed the listing"
        print(
            f"in-process list_sessions, median: cold {cold_ms:.1f} ms | cache file {file_ms:.1f} ms | "
            f"memory {memory_ms:.1f} ms"
        )
        argv = [
            sys.executable,
            "-m",
            "savenow.cli",
            "list",
            "--chat-id",
            CHAT_ID,
            "--thread-id",
            TARGET_THREAD,
            "--config",
            str(config),
        ]

        def process(keep: bool) -> tuple[float, str]:
            times, out = [], ""
            for _ in range(options.runs):
                if not keep:
                    shutil.rmtree(cache.parent, ignore_errors=True)
                start = time.perf_counter()
                out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
                times.append(time.perf_counter() - start)
            return statistics.median(times) * 1000, out

        no_cache_ms, out_cold = process(keep=False)
        cached_ms, out_cached = process(keep=True)
        assert out_cold == out_cached, "the cache changed what `savenow list` prints"
        print(
            f"`savenow list` process, p50: cache removed {no_cache_ms:.0f} ms | cache kept {cached_ms:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
