"""How long the offline extractor takes on 180 messages: cold, first call, warm, and on unseen text.

    python benchmarks/extract_speed.py [--cases a.jsonl --cases b.jsonl] [--runs 5]

``eval_extract.py`` prints one figure, the worst of 5 runs on one 180-message chat, taken after
every case of the file was extracted in the same process: a warm figure (the thesaurus, the
compiled patterns and every per-process cache are already there, and the chat's sentences were
seen before). A ``savenow preview`` from the CLI pays more: the import and the first call. So
each run here is a fresh interpreter that prints

* ``import``: importing ``savenow.extract.heuristic`` (CPU ms; the patterns it compiles at import),
* ``first``: the first ``extract()`` on 180 messages (wall and CPU ms; patterns compiled on first
  use, the thesaurus read, rapidfuzz imported),
* ``warm``: the worst of ``--runs`` more calls on the same chat (CPU ms; what eval_extract reports),
* ``unseen``: the worst call on the 180-message chats of the other case files, none of whose
  sentences the process has seen (CPU ms; what a bot answering a new topic pays),

and a reference figure (a fixed 8,000-entry dict loop, ~1 ms on an idle laptop), because the
machine may be shared: divide by it to compare runs taken under different load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "eval" / "cases.jsonl"
OWN = sorted((ROOT / "benchmarks").glob("*_cases.jsonl"))

CHILD = r"""
import json, sys, time
sys.path.insert(0, "benchmarks")
from eval_common import case_messages, case_sections, load_cases
from savenow.models import ChatMessage
imported = time.process_time()
from savenow.extract.heuristic import HeuristicExtractor
imported = time.process_time() - imported
files, runs = json.loads(sys.argv[1]), int(sys.argv[2])

def chat_of(path):
    cases = load_cases(path)
    pool = [m for case in cases for m in case_messages(case)]
    chat = [ChatMessage(m.role, m.text, m.timestamp) for m in (pool * 4)[:180]]
    return chat, case_sections(cases[1]["memory_before"]) if len(cases) > 1 else []

def cpu_ms(extractor, chat, sections):
    started = time.process_time()
    extractor.extract(chat, sections)
    return (time.process_time() - started) * 1e3

chats = [chat_of(path) for path in files]
extractor = HeuristicExtractor()
wall, cpu = time.perf_counter(), time.process_time()
extractor.extract(*chats[0])
first_wall, first_cpu = (time.perf_counter() - wall) * 1e3, (time.process_time() - cpu) * 1e3
warm = max(cpu_ms(extractor, *chats[0]) for _ in range(runs))
unseen = max((cpu_ms(extractor, *chat) for chat in chats[1:]), default=0.0)
ref = time.process_time()
table = {}
for i in range(8000):
    table.setdefault(str(i), []).append(i)
ref = (time.process_time() - ref) * 1e3
print(json.dumps({"import": imported * 1e3, "first_wall": first_wall, "first": first_cpu, "warm": warm,
                  "unseen": unseen, "ref": ref}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cases", action="append", help="a cases.jsonl file (repeatable; the first is timed warm)"
    )
    parser.add_argument("--runs", type=int, default=5, help="fresh interpreters, and warm calls in each")
    args = parser.parse_args()
    files = [str(path) for path in (args.cases or [p for p in [SHARED, *OWN] if p.exists()])]
    results = []
    for _ in range(args.runs):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, json.dumps(files), str(args.runs)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        results.append(json.loads(out))
    print(f"180 messages, {len(files)} case file(s), {args.runs} fresh interpreters (median / min):")
    for key, label in (
        ("import", "import CPU"),
        ("first_wall", "first call wall"),
        ("first", "first call CPU"),
        ("warm", f"warm CPU (worst of {args.runs})"),
        ("unseen", "unseen chats CPU (worst)"),
        ("ref", "reference loop CPU"),
    ):
        if key == "unseen" and len(files) < 2:
            continue
        values = sorted(run[key] for run in results)
        print(f"{label:>26}: {statistics.median(values):7.1f} ms  {values[0]:7.1f} ms")
    cold = statistics.median(run["import"] + run["first"] for run in results)
    print(f"{'cold preview (import+first)':>26}: {cold:7.1f} ms CPU")
    ratio = statistics.median(run["warm"] / run["ref"] for run in results)
    print(f"{'warm / reference':>26}: {ratio:.1f}x")


if __name__ == "__main__":
    main()
