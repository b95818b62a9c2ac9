"""Benchmark: preview + merge of 5 entries against a 2,000-section memory file (half Chinese).

Prints, in-process (median and p95 over --runs):
  * preview: read + parse + compare + render the §6 Markdown,
  * merge:   write_entries (lock, re-read, re-plan, apply, atomic write + fsync, journal),
  * both together,
and the wall time of ``savenow preview-diff`` as a whole process on the same input
(targets: ≤ 20 ms p50 in-process; the process no slower than the Node script, ~0.11 s).

    python benchmarks/merge_bench.py [--sections 2000] [--runs 50] [--process-runs 15]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime
from pathlib import Path

from savenow.memory.compare import plan
from savenow.memory.document import MemoryDocument
from savenow.memory.preview import render_preview
from savenow.memory.writer import write_entries
from savenow.models import Entry, parse_entries
from savenow.storage.files import read_exact

ZH_TOPICS = [
    "网关令牌",
    "数据库备份",
    "上传限制",
    "部署流程",
    "缓存配置",
    "日志轮转",
    "证书续期",
    "监控告警",
    "权限模型",
    "队列重试",
]
ZH_VERBS = ["修复", "调整", "说明", "约定", "排查", "迁移", "优化", "记录"]
EN_TOPICS = ["gateway token", "postgres backup", "upload limit", "deploy flow", "redis cache", "log rotation",
             "tls renewal", "alert routing", "role model", "queue retry"]  # fmt: skip
EN_VERBS = ["fix", "rules", "notes", "checklist", "migration", "tuning", "runbook", "decision"]


def make_memory(sections: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    lines = ["# 2026-05-15", ""]
    for number in range(sections):
        hour, minute = divmod(number % 1440, 60)
        if number % 2:
            title = f"{rng.choice(ZH_TOPICS)}{rng.choice(ZH_VERBS)} {number}"
            bullets = [
                f"通过更新 {rng.choice(ZH_TOPICS)} 的配置解决了问题 {number}-{k}"
                for k in range(rng.randint(2, 4))
            ]
        else:
            title = f"{rng.choice(EN_TOPICS).title()} {rng.choice(EN_VERBS)} {number}"
            bullets = [
                f"Resolved {rng.choice(EN_TOPICS)} issue by updating config {number}-{k}."
                for k in range(rng.randint(2, 4))
            ]
        lines.append(f"## {hour:02d}:{minute:02d} - {title}")
        lines.extend(f"- {bullet}" for bullet in bullets)
        lines.append("")
    return "\n".join(lines)


def make_entries(memory_text: str) -> list[Entry]:
    # a near-duplicate (→ skip), two new notes (→ add), a fuzzy merge target (→ merge), an agent skip
    target = next(
        line[11:] for line in memory_text.splitlines() if line.startswith("## ") and "Gateway" in line
    )
    raw = [
        {"title": "网关令牌修复 1", "bullets": ["通过更新 网关令牌 的配置解决了问题 1-0"], "action": "add"},
        {"title": "Nginx 上传大小限制", "bullets": ["client_max_body_size 设为 50m", "改完要 reload"], "action": "add"},
        {"title": "Kafka consumer lag alert", "bullets": ["Alert when lag > 10k for 5 min."], "action": "add"},
        {"title": "More gateway notes", "bullets": ["Rotate the token monthly."], "action": "merge",
         "merge_target_title": target.lower()},
        {"title": "Sprint planning", "bullets": ["Plan for next week."], "action": "skip", "reason": "temporary"},
    ]  # fmt: skip
    return parse_entries(raw)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(name: str, values_ms: list[float]) -> None:
    print(
        f"  {name:<22} p50 {statistics.median(values_ms):7.2f} ms   p95 {percentile(values_ms, 0.95):7.2f} ms"
    )


def in_process(memory_text: str, entries: list[Entry], runs: int, folder: Path) -> None:
    """Each run rewrites the file with a unique last line, so the preview parses it cold; the write that
    follows re-reads the same bytes under the lock and, as the service's ``auto`` does, reuses the
    document the preview parsed (one parse per command; a changed file would be parsed again)."""
    now, day = datetime(2026, 5, 15, 16, 48), date(2026, 5, 15)
    previews, merges, totals = [], [], []
    for run in range(runs + 3):
        target = folder / "ws" / "memory" / "2026-05-15.md"  # one workspace, as in real use
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"{memory_text}\n<!-- run {run} -->\n", encoding="utf-8")
        started = time.perf_counter()
        document = MemoryDocument.parse(read_exact(target))
        decisions = plan(entries, document)
        render_preview(decisions, memory_label="memory/2026-05-15.md")
        middle = time.perf_counter()
        outcome = write_entries(
            target, entries, workspace=target.parent.parent, now=now, day=day, document=document
        )
        finished = time.perf_counter()
        assert outcome.written and outcome.added == 2 and outcome.merged == 1, outcome.to_json()
        if run >= 3:  # warm-up: imports, first-call caches
            previews.append((middle - started) * 1000)
            merges.append((finished - middle) * 1000)
            totals.append((finished - started) * 1000)
    print(f"in-process, {runs} runs (cold parse of a fresh file each run):")
    report("preview", previews)
    report("merge (write_entries)", merges)
    report("preview + merge", totals)


def whole_process(folder: Path, runs: int) -> None:
    savenow = Path(sys.executable).with_name("savenow")
    command = [
        str(savenow),
        "preview-diff",
        "--entries-file",
        "entries.json",
        "--memory-path",
        "memory/2026-05-15.md",
    ]
    env = {**os.environ, "SAVENOW_NOW": "2026-05-15T16:48:00"}
    times = []
    for run in range(runs + 2):
        started = time.perf_counter()
        subprocess.run(command, cwd=folder, env=env, check=True, stdout=subprocess.DEVNULL)
        if run >= 2:
            times.append(time.perf_counter() - started)
    print(f"whole process `savenow preview-diff`, {runs} runs:")
    print(f"  wall                   p50 {statistics.median(times):7.3f} s    p95 {percentile(times, 0.95):7.3f} s"
          "   (Node original: ~0.11 s)")  # fmt: skip
    baseline = [sys.executable, "-c", "pass"]
    python_times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(baseline, check=True)
        python_times.append(time.perf_counter() - started)
    print(f"  bare `python -c pass`  p50 {statistics.median(python_times):7.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--process-runs", type=int, default=15)
    args = parser.parse_args()
    memory_text = make_memory(args.sections)
    entries = make_entries(memory_text)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "memory").mkdir()
        (folder / "memory" / "2026-05-15.md").write_text(memory_text, encoding="utf-8")
        (folder / "entries.json").write_text(
            json.dumps([entry.to_json() for entry in entries], ensure_ascii=False), encoding="utf-8"
        )
        size_kb = len(memory_text.encode()) / 1024
        print(f"memory file: {args.sections} sections (half Chinese), {size_kb:.0f} KiB; 5 entries")
        decisions = plan(entries, memory_text)
        print("decisions: " + ", ".join(f"{d.action}({d.reason})" for d in decisions))
        in_process(memory_text, entries, args.runs, folder)
        whole_process(folder, args.process_runs)


if __name__ == "__main__":
    main()
