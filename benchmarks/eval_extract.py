"""Score the offline extractor on the evaluation cases (shared/eval/README.md).

    python benchmarks/eval_extract.py                  # through the real CLI: savenow preview --json
    python benchmarks/eval_extract.py --in-process     # HeuristicExtractor + compare.plan, no subprocess
    python benchmarks/eval_extract.py --cases other.jsonl --quiet

Prints one line per case (with what was missed, extra or wrongly actioned),
then recall, precision, action accuracy and forbidden hits, then the
extractor's own time per case and for a 180-message transcript.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_common import (
    DEFAULT_CASES,
    case_messages,
    case_sections,
    format_case,
    format_summary,
    load_cases,
    run_cli,
    run_in_process,
    score_case,
    summarize,
)

from savenow.extract.heuristic import HeuristicExtractor
from savenow.models import ChatMessage


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", default=str(DEFAULT_CASES))
    parser.add_argument("--in-process", action="store_true", help="call the extractor and comparer directly")
    parser.add_argument("--quiet", action="store_true", help="per-case lines without details")
    args = parser.parse_args(argv)

    cases = load_cases(args.cases)
    extractor = HeuristicExtractor()
    scores = []
    for case in cases:
        if args.in_process:
            entries = run_in_process(case, extractor.extract)
        else:
            with tempfile.TemporaryDirectory(prefix="savenow-eval-") as tmp:
                entries = run_cli(case, Path(tmp))
        score = score_case(case, entries)
        scores.append(score)
        line = format_case(score)
        print(line.splitlines()[0] if args.quiet else line)
    mode = "in-process" if args.in_process else "cli"
    print(f"\nmode={mode}  " + format_summary(summarize(scores), len(cases)))
    print(timing(cases, extractor))
    return 0


def timing(cases: list[dict], extractor: HeuristicExtractor) -> str:
    """Extractor-only time: the mean per case, and the worst of 5 runs on 180 messages."""
    started = time.perf_counter()
    for case in cases:
        extractor.extract(case_messages(case), case_sections(case["memory_before"]))
    per_case_ms = (time.perf_counter() - started) * 1000 / max(len(cases), 1)
    pool = [m for case in cases for m in case_messages(case)]
    long_chat = [ChatMessage(m.role, m.text, m.timestamp) for m in (pool * 4)[:180]]
    sections = case_sections(cases[1]["memory_before"]) if len(cases) > 1 else []
    worst = worst_cpu = 0.0
    for _ in range(5):
        started, started_cpu = time.perf_counter(), time.process_time()
        extractor.extract(long_chat, sections)
        worst = max(worst, (time.perf_counter() - started) * 1000)
        worst_cpu = max(worst_cpu, (time.process_time() - started_cpu) * 1000)
    return (
        f"extractor time: {per_case_ms:.1f} ms per case (mean); 180 messages: {worst:.1f} ms wall,"
        f" {worst_cpu:.1f} ms CPU (worst of 5)"
    )


if __name__ == "__main__":
    raise SystemExit(main())
