"""Speed of compaction on a 2,000-message session (goals: compact ≤ 200 ms in-process, status ≤ 100 ms whole-process).

    python benchmarks/compaction_speed.py [--messages 2000] [--repeat 5]

The session mixes Chinese and English, tool calls with 30–80-line results, identifiers.
The flush is left out of the in-process figure (it is the extractor's cost, measured by
benchmarks/eval_extract.py) and timed separately. The machine is shared: figures vary.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from savenow.compaction import Flusher, SessionCompactor

    messages = session(args.messages)
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / ".clawsession.json"
        payload = json.dumps({"version": 1, "messages": messages}, ensure_ascii=False)
        compact_ms = []
        for _ in range(args.repeat):
            store.write_text(payload)
            compactor = SessionCompactor(store_path=store)
            start = time.perf_counter()
            result = compactor.compact(force=True)
            compact_ms.append((time.perf_counter() - start) * 1000)
        print(
            f"compact {args.messages} messages in-process (no flush): median {statistics.median(compact_ms):.0f} ms, "
            f"min {min(compact_ms):.0f} ms; removed {result.removed_count}, "
            f"{result.tokens_before} → {result.tokens_after} tokens"
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
        env = {**os.environ, "SAVENOW_CONFIG": str(Path(tmp) / "none.yaml")}
        (Path(tmp) / "none.yaml").write_text("{}\n")
        status_ms = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "savenow.cli",
                    "compact",
                    "status",
                    "--store",
                    str(store),
                    "--workspace",
                    str(workspace),
                    "--json",
                ],
                check=True,
                capture_output=True,
                env=env,
                cwd=ROOT,
            )
            status_ms.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare = (time.perf_counter() - start) * 1000
        print(
            f"status on {args.messages} messages, whole process: median {statistics.median(status_ms):.0f} ms, "
            f"min {min(status_ms):.0f} ms (a bare `python -c pass` takes {bare:.0f} ms here)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
