"""Score every evaluation set of one kind: one line per set, then the mean.

    python benchmarks/score_all.py notes|search|compaction|objects [--sets dev|held|all|a,b,c]

The sets live beside the checkout, as ``../shared/eval`` does: ``../fresh``, ``../fresh2`` … (written
blind for the project's development, see docs/development.md); a set that is not there is skipped.
Each is scored in-process by this checkout's own benchmark (eval_extract.py, search_eval.py,
compaction_eval.py, objects_eval.py). ``held`` names the sets the lead keeps held out.
"""

import json
import re
import statistics
import subprocess
import sys
from pathlib import Path

W = Path(__file__).resolve().parents[2]  # the folder holding this checkout and shared/
DEV = [
    "shared/eval",
    "fresh",
    "fresh2",
    "fresh3",
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
    "fresh15",
    "fresh16",
]
HELD = ["fresh17", "fresh18"]
FILES = {
    "notes": ["cases.jsonl", "cases-a.jsonl", "cases-b.jsonl"],
    "search": ["search.json", "search-a.json", "search-b.json"],
    "compaction": ["compaction.jsonl"],
    "objects": ["objects.jsonl"],
}


def files(kind, sets):
    out = []
    for s in sets:
        for name in FILES[kind]:
            p = W / s / name
            if p.exists():
                out.append(p)
    if kind == "notes" and sets is DEV:
        out += sorted((Path(__file__).parent).glob("*_cases.jsonl"))
    return out


def run(cmd):
    bench = Path(__file__).parent
    return subprocess.run(
        [cmd[0], str(bench / Path(cmd[1]).name), *cmd[2:]], capture_output=True, text=True, check=False
    ).stdout


def figures(kind, path):
    py = sys.executable
    if kind == "notes":
        out = run([py, "benchmarks/eval_extract.py", "--cases", str(path), "--in-process", "--quiet"])
        m = re.search(
            r"recall=([\d.]+)\s+precision=([\d.]+)\s+action_accuracy=([\d.]+)\s+forbidden_hits=(\d+)", out
        )
        return (
            dict(zip(["recall", "precision", "action", "forbidden"], map(float, m.groups()))) if m else None
        )
    if kind == "search":
        out = run([py, "benchmarks/search_eval.py", "--set", str(path), "--in-process", "--json"])
        try:
            d = json.loads(out[out.index("{") :])
        except ValueError:
            return None
        neg = d["negatives_empty"].split("/")
        para = d["per_kind"].get("paraphrase", "0/0").split("/")
        return {
            "recall@6": d["recall@6"],
            "mrr": d["mrr"],
            "recency": float(d["recency_order"]),
            "neg_empty": int(neg[0]) / max(1, int(neg[1])),
            "para": int(para[0]) / max(1, int(para[1])),
        }
    if kind == "compaction":
        out = run([py, "benchmarks/compaction_eval.py", "--in-process", str(path)])
        m = re.search(
            r"retention ([\d.]+) identifiers ([\d.]+) compression ([\d.]+) noise ([\d.]+) stability ([\d.]+)",
            out,
        )
        return (
            dict(
                zip(["retention", "identifiers", "compression", "noise", "stability"], map(float, m.groups()))
            )
            if m
            else None
        )
    if kind == "objects":
        out = run([py, "benchmarks/objects_eval.py", "--in-process", str(path)])
        d = json.loads(out[out.rindex("{") :])
        return {k: d[k] for k in ("recall", "precision", "identity", "forbidden")}


def main():
    kind = sys.argv[1]
    which = sys.argv[sys.argv.index("--sets") + 1] if "--sets" in sys.argv else "dev"
    sets = {"dev": DEV, "held": HELD, "all": DEV + HELD}.get(which) or which.split(",")
    rows = []
    for p in files(kind, sets):
        f = figures(kind, p)
        rows.append(f)
        print(
            f"{str(p).replace('/work/', ''):40s} "
            + (
                "FAILED"
                if f is None
                else "  ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in f.items())
            ),
            flush=True,
        )
    good = [r for r in rows if r]
    if good:
        keys = [k for k in good[0] if all(isinstance(r.get(k), (int, float)) for r in good)]
        print(
            f"{'MEAN of ' + str(len(good)):40s} "
            + "  ".join(f"{k} {statistics.mean(r[k] for r in good):.3f}" for k in keys)
        )


main()
