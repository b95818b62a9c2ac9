"""Speed of compaction on a 2,000-message session (goals: compact ≤ 200 ms in-process, status ≤ 100 ms whole-process).

    python benchmarks/compaction_speed.py [--messages 2000] [--repeat 5] [--from SET.jsonl]

The session mixes Chinese and English, tool calls with 30–80-line results, identifiers.
Its messages follow a template, so many texts recur (the summary reads each distinct text
once); ``--from`` adds the same figures for a session made of a compaction eval set's
messages, all cases one after another (real wording, few repeats).
The flush is left out of the in-process figure (it is the extractor's cost, measured by
benchmarks/eval_extract.py) and timed separately. The machine is shared: figures vary.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def session(count: int) -> list[dict]:
    out: list[dict] = []
    i = 0
    while len(out) < count:
        stamp = f"2026-11-{1 + (i // 1440) % 28:02d}T{(i // 60) % 24:02d}:{i % 60:02d}:00Z"
        if i % 10 == 0:
            out.append(
                {
                    "role": "user",
                    "content": f"帮我看看 host-{i}.lan 上 /srv/app-{i}/config.yaml 的端口 {8000 + i}",
                    "timestamp": stamp,
                }
            )
        elif i % 10 == 1:
            out.append(
                {
                    "role": "assistant",
                    "content": "",
                    "timestamp": stamp,
                    "toolUse": {"name": "bash", "input": f"ssh host-{i}.lan 'cat /srv/app-{i}/config.yaml'"},
                }
            )
        elif i % 10 == 2:
            lines = "\n".join(f"key_{j}: value-{i}-{j}  # comment line {j}" for j in range(30 + i % 50))
            out.append({"role": "tool", "content": lines, "timestamp": stamp})
        elif i % 10 in (3, 5, 7):
            out.append(
                {
                    "role": "assistant",
                    "content": f"The port is {8000 + i}; we switched to `release-{i}` and pinned v1.{i % 30}.2. "
                    "Next step: restart the service after the backup finishes.",
                    "timestamp": stamp,
                }
            )
        else:
            out.append(
                {
                    "role": "user",
                    "content": "好的，谢谢！那就这样，以后都用新的端口。" if i % 2 else "ok, do it",
                    "timestamp": stamp,
                }
            )
        i += 1
    return out


def set_session(path: Path, count: int) -> list[dict]:
    """The messages of every case of a compaction.jsonl set, one case after another (at most ``count``)."""
    out: list[dict] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out.extend(json.loads(line)["messages"])
    return out[:count]


def time_compaction(messages: list[dict], repeat: int, store: Path) -> tuple[list[float], list[float], Any]:
    from savenow.compaction import SessionCompactor

    payload = json.dumps({"version": 1, "messages": messages}, ensure_ascii=False)
    wall, cpu, result = [], [], None
    for _ in range(repeat):
        store.write_text(payload)
        compactor = SessionCompactor(store_path=store)
        start, started_cpu = time.perf_counter(), time.process_time()
        result = compactor.compact(force=True)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return wall, cpu, result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--from", dest="from_set", type=Path, help="also time a session of this set's messages"
    )
    args = parser.parse_args()
    from savenow.compaction import Flusher, SessionCompactor

    messages = session(args.messages)
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / ".clawsession.json"
        payload = json.dumps({"version": 1, "messages": messages}, ensure_ascii=False)
        compact_ms, compact_cpu, result = time_compaction(messages, args.repeat, store)
        print(
            f"compact {args.messages} messages in-process (no flush): wall median {statistics.median(compact_ms):.0f} ms "
            f"(min {min(compact_ms):.0f}), CPU median {statistics.median(compact_cpu):.0f} ms "
            f"(min {min(compact_cpu):.0f}); removed {result.removed_count}, "
            f"{result.tokens_before} → {result.tokens_after} tokens"
        )
        if args.from_set:
            real = set_session(args.from_set, args.messages)
            real_ms, real_cpu, real_result = time_compaction(real, args.repeat, store)
            print(
                f"compact {len(real)} messages of {args.from_set.name} in-process (no flush): wall median "
                f"{statistics.median(real_ms):.0f} ms (min {min(real_ms):.0f}), CPU median "
                f"{statistics.median(real_cpu):.0f} ms (min {min(real_cpu):.0f}); removed {real_result.removed_count}"
            )

        from savenow.extract.heuristic import HeuristicExtractor

        workspace = Path(tmp) / "ws"
        workspace.mkdir()
        store.write_text(payload)
        flusher = Flusher(
            workspace=workspace,
            memory_dir=workspace / "memory",
            extractor=HeuristicExtractor,
            now=lambda: __import__("datetime").datetime.now().astimezone(),
            today=lambda: __import__("datetime").date.today(),
        )
        start = time.perf_counter()
        SessionCompactor(store_path=store, flusher=flusher).compact(force=True)
        print(
            f"compact {args.messages} messages in-process with the offline flush: {(time.perf_counter() - start) * 1000:.0f} ms"
        )

        store.write_text(payload)
        in_process = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            SessionCompactor(store_path=store).status()
            in_process.append((time.perf_counter() - start) * 1000)
        print(
            f"status on {args.messages} messages in-process (what it computes after start-up): "
            f"median {statistics.median(in_process):.1f} ms (min {min(in_process):.1f})"
        )
        # As installed: bytecode cached (this machine sets PYTHONDONTWRITEBYTECODE, which would make every
        # run compile savenow from source); one warm-up run writes the cache.
        # No config file either (as `status --store` is usually run): SAVENOW_CONFIG unset.
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "SAVENOW_CONFIG")}
        status_ms, status_cpu = [], []
        command = [sys.executable, "-m", "savenow.cli", "compact", "status", "--store", str(store), "--json"]
        subprocess.run(command, check=True, capture_output=True, env=env, cwd=ROOT)  # warm-up
        for _ in range(args.repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, env=env, cwd=ROOT)
            status_ms.append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            status_cpu.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare = (time.perf_counter() - start) * 1000
        print(
            f"status on {args.messages} messages, whole process: wall median {statistics.median(status_ms):.0f} ms "
            f"(min {min(status_ms):.0f}), CPU median {statistics.median(status_cpu):.0f} ms "
            f"(min {min(status_cpu):.0f}); a bare `python -c pass` takes {bare:.0f} ms wall here"
        )
        print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
