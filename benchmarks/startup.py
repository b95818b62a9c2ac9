"""Start-up time of light ``savenow`` subcommands: N fresh processes each, p50 / p90 wall time.

    python benchmarks/startup.py [--runs 20] [--only preview-diff,get]

Each run is a new ``python -m savenow.cli …`` process (what the console script does), measured from
spawn to exit, next to a bare ``python -c pass`` for scale. The workspace is the bundled demo,
copied once into a temp folder (``savenow demo --keep``), so ``list`` and ``preview`` have sessions;
``compact-status`` reads a 2,000-message seed file (benchmarks/compaction_speed.py's session).
HOME and XDG_CACHE_HOME point into the temp folder, so the settings cache (savenow/settings_cache.py)
starts empty: the warm-up run fills it, as a user's first call does.
"cpu p50" is the process's user + system CPU time, which a busy machine inflates less than wall
time; the modules column is how many modules it imported (``-X importtime``, one extra run), which
does not depend on the load at all. Set PYTHONPATH to an export of another commit to compare.
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

ENTRIES = [{"title": "Deploy window", "bullets": ["We deploy on Fridays at 10:00 UTC, staging-1 first."]}]
SCOPE = ["--chat-id=-1009876543210", "--thread-id", "101"]


def commands(root: Path) -> dict[str, list[str]]:
    config = ["--config", str(root / "savenow.yaml")]
    entries = root / "entries.json"
    memory = root / "workspace" / "memory" / "2026-11-26.md"
    return {
        "python -c pass": [],
        "--version": ["--version"],
        "help": ["--help"],
        "get": ["get", "memory/2026-11-26.md", *config],
        "preview-diff": ["preview-diff", "--entries-file", str(entries), "--memory-path", str(memory)],
        "merge-daily-memory": [
            "merge-daily-memory",
            "--entries-file",
            str(entries),
            "--memory-path",
            str(root / "workspace" / "memory" / "scratch.md"),
        ],
        "search": ["search", "billing", *config],
        "search-json": ["search", "--json", "billing", *config],
        "compact-status-noconfig": [
            "compact",
            "status",
            "--store",
            str(root / "big.clawsession.json"),
            "--json",
        ],
        "compact-status": [
            "compact",
            "status",
            "--store",
            str(root / "big.clawsession.json"),
            "--json",
            *config,
        ],
        "list": ["list", *SCOPE, *config],
        "preview": ["preview", *SCOPE, *config],
    }


def argv_for(name: str, args: list[str]) -> list[str]:
    if name == "python -c pass":
        return [sys.executable, "-c", "pass"]
    return [sys.executable, "-m", "savenow.cli", *args]


ENV: dict[str, str] = {}


def run_once(argv: list[str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=ENV or None
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def module_count(argv: list[str], cwd: Path) -> int:
    done = subprocess.run(
        [argv[0], "-X", "importtime", *argv[1:]], cwd=cwd, capture_output=True, check=False, env=ENV or None
    )
    return sum(1 for line in done.stderr.decode().splitlines() if line.startswith("import time:")) - 1


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def prepare(root: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "savenow.cli", "demo", "--keep", str(root)],
        stdout=subprocess.DEVNULL,
        check=True,
        env=ENV,
    )
    (root / "entries.json").write_text(json.dumps(ENTRIES), encoding="utf-8")
    from compaction_speed import session  # this folder is on sys.path when run as a script

    store = root / "big.clawsession.json"
    store.write_text(
        json.dumps({"version": 1, "messages": session(2000)}, ensure_ascii=False), encoding="utf-8"
    )
    # A config file written this moment is not trusted to have its final mtime (settings_cache): a
    # user's config is older than that.
    time.sleep(2.1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--only", help="comma-separated subcommand names")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "demo"
        # As installed: bytecode cached (this machine sets PYTHONDONTWRITEBYTECODE); a HOME of its own.
        ENV.update(
            {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "XDG_CACHE_HOME")}
        )
        ENV["HOME"] = tmp
        prepare(root)
        cwd = root / "workspace"
        table = commands(root)
        wanted = options.only.split(",") if options.only else list(table)
        print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print(f"{'subcommand':<20} {'p50 ms':>8} {'p90 ms':>8} {'cpu p50':>8} {'modules':>8}")
        for name in ["python -c pass", *[n for n in wanted if n != "python -c pass"]]:
            argv = argv_for(name, table[name])
            run_once(argv, cwd)  # warm the OS file cache and __pycache__
            runs = [run_once(argv, cwd) for _ in range(options.runs)]
            times = [wall for wall, _ in runs]
            p50 = statistics.median(times) * 1000
            p90 = quantile(times, 0.9) * 1000
            cpu = statistics.median(cpu for _, cpu in runs) * 1000
            print(f"{name:<20} {p50:8.0f} {p90:8.0f} {cpu:8.0f} {module_count(argv, cwd):8d}")
        print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
