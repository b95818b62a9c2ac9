"""Score memory search on an evaluation set, exactly as shared/eval/SEARCH.md says.

    python benchmarks/search_eval.py                       # the public set, through the real CLI
    python benchmarks/search_eval.py --set other.json -v   # another set; -v lists every miss
    python benchmarks/search_eval.py --in-process          # same scoring via the Python API (faster)

Each query runs ``savenow search --json --max-results 6 -- QUERY`` in a fresh process against a
workspace holding the set's files, with ``SAVENOW_NOW`` at 09:00 on the day after the newest daily
file and HOME pointed at an empty folder (so no personal config leaks in; ``--config`` passes one).
Offline by default: with no config, search is lexical.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def default_set() -> Path:
    for parent in [ROOT, *ROOT.parents]:
        candidate = parent / "shared" / "eval" / "search.json"
        if candidate.is_file():
            return candidate
    return Path("../shared/eval/search.json")


def write_workspace(files: dict[str, str], root: Path) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def clock_for(files: dict[str, str]) -> str:
    days = [date.fromisoformat(m.group(0)) for rel in files if (m := re.search(r"\d{4}-\d{2}-\d{2}", rel))]
    return f"{(max(days) + timedelta(days=1)).isoformat()}T09:00:00"


def savenow_command() -> list[str]:
    script = Path(sys.executable).with_name("savenow")
    return [str(script)] if script.exists() else [sys.executable, "-m", "savenow.cli"]


class CliRunner:
    def __init__(self, workspace: Path, now: str, config: str | None, home: Path) -> None:
        self.workspace, self.config = workspace, config
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("SAVENOW_")}
        self.env.update({"SAVENOW_NOW": now, "HOME": str(home)})
        self.command = savenow_command()

    def search(self, query: str) -> dict[str, Any]:
        args = [*self.command, "search", "--json", "--max-results", "6", "--workspace", str(self.workspace)]
        if self.config:
            args += ["--config", self.config]
        done = subprocess.run([*args, "--", query], capture_output=True, text=True, env=self.env, check=False)
        if done.returncode != 0:
            raise SystemExit(f"savenow search failed ({done.returncode}): {done.stderr.strip()}")
        return json.loads(done.stdout)


class InProcessRunner:
    def __init__(self, workspace: Path, now: str, overrides: list[str]) -> None:
        sys.path.insert(0, str(ROOT))
        from savenow.search import MemorySearch, SearchOptions

        defaults = SearchOptions()
        values: dict[str, Any] = {}
        for item in overrides:  # --option segmenter=jieba: experiments with the engine's options
            key, _, raw = item.partition("=")
            values[key] = type(getattr(defaults, key))(raw)
        self.engine = MemorySearch(workspace, SearchOptions(**values), today=date.fromisoformat(now[:10]))

    def search(self, query: str) -> dict[str, Any]:
        return self.engine.search(query, max_results=6).to_json()


def is_hit(result: dict[str, Any], item: dict[str, str], files: dict[str, str]) -> bool:
    if result.get("path") != item["path"]:
        return False
    if item["contains"] in (result.get("snippet") or ""):
        return True
    lines = files.get(item["path"], "").split("\n")
    start, end = int(result.get("startLine", 0)), int(result.get("endLine", 0))
    return any(item["contains"] in line for line in lines[max(0, start - 1) : end])


def first_rank(results: list[dict[str, Any]], item: dict[str, str], files: dict[str, str]) -> int | None:
    for rank, result in enumerate(results, 1):
        if is_hit(result, item, files):
            return rank
    return None


def score(
    data: dict[str, Any], answers: dict[str, dict[str, Any]], min_score: float | None
) -> dict[str, Any]:
    files = data["files"]
    correct: dict[str, list[bool]] = defaultdict(list)
    reciprocal: list[float] = []
    recency: list[bool] = []
    misses: list[str] = []
    for query in data["queries"]:
        results = answers[query["id"]]["results"][:6]
        kind, expected = query["kind"], query["expected"]
        if not expected:
            ok = not results or (min_score is not None and all(r["score"] < min_score for r in results))
        else:
            rank = first_rank(results, expected[0], files)
            ok = rank is not None
            reciprocal.append(1 / rank if rank else 0.0)
            if kind == "recency":
                older = first_rank(results, expected[1], files) if len(expected) > 1 else None
                recency.append(rank is not None and (older is None or rank < older))
        correct[kind].append(ok)
        if not ok:
            top = results[0] if results else None
            shown = f"{top['path']}:{top['startLine']} ({top['score']})" if top else "no results"
            misses.append(f"  {query['id']} [{kind}] {query['query']!r} → {shown}")
    everything = [ok for oks in correct.values() for ok in oks]
    return {
        "queries": len(everything),
        "recall@6": sum(everything) / len(everything),
        "mrr": sum(reciprocal) / len(reciprocal) if reciprocal else 0.0,
        "per_kind": {kind: f"{sum(oks)}/{len(oks)}" for kind, oks in sorted(correct.items())},
        "recency_order": sum(recency) / len(recency) if recency else None,
        "negatives_empty": f"{sum(correct.get('negative', []))}/{len(correct.get('negative', []))}",
        "misses": misses,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--set", type=Path, default=None, help="evaluation set (default shared/eval/search.json)"
    )
    parser.add_argument("--config", help="a savenow config file (e.g. one naming an embeddings provider)")
    parser.add_argument("--in-process", action="store_true", help="call the Python API instead of the CLI")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="with --in-process: override a SearchOptions field (e.g. segmenter=jieba)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="list the queries answered wrongly")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    set_path = args.set or default_set()
    data = json.loads(set_path.read_text(encoding="utf-8"))
    tmp = Path(tempfile.mkdtemp(prefix="savenow-search-eval-"))
    try:
        workspace, home = tmp / "workspace", tmp / "home"
        home.mkdir()
        write_workspace(data["files"], workspace)
        now = clock_for(data["files"])
        runner: Any = (
            InProcessRunner(workspace, now, args.option)
            if args.in_process
            else CliRunner(workspace, now, args.config, home)
        )
        started = time.perf_counter()
        answers = {q["id"]: runner.search(q["query"]) for q in data["queries"]}
        elapsed = time.perf_counter() - started
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.path.insert(0, str(ROOT))
    from savenow.search.options import DEFAULT_MIN_SCORE

    figures = score(data, answers, DEFAULT_MIN_SCORE)
    first = next(iter(answers.values()))
    figures.update(
        set=str(set_path),
        mode="in-process" if args.in_process else "cli",
        provider=first.get("provider"),
        fallback=(first.get("fallback") or {}).get("reason"),
        seconds=round(elapsed, 2),
    )
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
        return 0
    print(
        f"set {figures['set']} ({figures['queries']} queries, {figures['mode']}, provider "
        f"{figures['provider']}, {figures['seconds']} s)"
    )
    print(
        f"recall@6 {figures['recall@6']:.3f}   MRR {figures['mrr']:.3f}   recency order "
        f"{figures['recency_order']}   negatives empty {figures['negatives_empty']}"
    )
    print("per kind: " + ", ".join(f"{k} {v}" for k, v in figures["per_kind"].items()))
    if args.verbose and figures["misses"]:
        print("misses:")
        print("\n".join(figures["misses"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
