"""Score session compaction on a compaction.jsonl set (format and scoring: eval/COMPACTION.md).

    python benchmarks/compaction_eval.py [SET.jsonl] [--in-process] [--cases] [--out FILE]

By default every case runs through the real CLI on the seed's file format, round
by round: the case's messages up to ``rounds[r]`` are in ``.clawsession.json``,
``savenow compact run --force --json`` compacts it, the next messages are appended.
``--in-process`` calls the compactor directly (the same code, faster to iterate).
Prints one line per case (with --cases), the per-kind line and the final figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SET = (
    Path(__file__).resolve().parents[2] / "shared" / "eval" / "compaction.jsonl"
)  # ../shared beside the repo


def norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return (
        0x3400 <= o <= 0x4DBF
        or 0x4E00 <= o <= 0x9FFF
        or 0xF900 <= o <= 0xFAFF
        or 0x3000 <= o <= 0x303F
        or 0xFF00 <= o <= 0xFFEF
    )


def est(text: str) -> int:
    cjk = sum(1 for ch in text if _is_cjk(ch))
    return cjk + math.ceil((len(text) - cjk) / 4)


def message_text(message: dict[str, Any]) -> str:
    text = message.get("content") or ""
    tool = message.get("toolUse")
    if tool:
        text += "\n" + tool["name"] + " " + tool["input"]
    return text


def run_case_cli(case: dict[str, Any], workdir: Path) -> dict[str, Any]:
    store = workdir / ".clawsession.json"
    workspace = workdir / "workspace"
    workspace.mkdir()
    env = {
        **os.environ,
        "SAVENOW_NOW": "2026-11-30T12:00:00+00:00",
        "SAVENOW_CONFIG": str(workdir / "none.yaml"),
    }
    (workdir / "none.yaml").write_text("{}\n")
    fed = 0
    removed_total = 0
    summaries, removed_counts = [], []
    for upto in case["rounds"]:
        data = (
            json.loads(store.read_text())
            if store.exists()
            else {
                "version": 1,
                "createdAt": case["messages"][0]["timestamp"],
                "updatedAt": case["messages"][0]["timestamp"],
                "messages": [],
                "compactionCount": 0,
                "totalTokens": 0,
            }
        )
        data["messages"].extend(case["messages"][fed:upto])
        fed = upto
        store.write_text(json.dumps(data, ensure_ascii=False))
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "savenow.cli",
                "compact",
                "run",
                "--store",
                str(store),
                "--force",
                "--preserve-recent",
                str(case["preserve_recent"]),
                "--workspace",
                str(workspace),
                "--json",
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            check=False,
        )
        if out.returncode != 0:
            raise SystemExit(f"{case['id']}: savenow compact run failed: {out.stderr.strip()}")
        result = json.loads(out.stdout)
        removed_total += result["removedCount"]
        summaries.append(result["summary"])
        removed_counts.append(removed_total)
    return {"id": case["id"], "summaries": summaries, "removed_counts": removed_counts}


def run_case_in_process(case: dict[str, Any], workdir: Path) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from savenow.compaction import SessionCompactor

    store = workdir / ".clawsession.json"
    fed = 0
    removed_total = 0
    summaries, removed_counts = [], []
    compactor = SessionCompactor(preserve_recent=case["preserve_recent"], store_path=store)
    for upto in case["rounds"]:
        data = json.loads(store.read_text()) if store.exists() else {"version": 1, "messages": []}
        data["messages"].extend(case["messages"][fed:upto])
        fed = upto
        store.write_text(json.dumps(data, ensure_ascii=False))
        result = compactor.compact(force=True)
        removed_total += result.removed_count
        summaries.append(result.summary)
        removed_counts.append(removed_total)
    return {"id": case["id"], "summaries": summaries, "removed_counts": removed_counts}


def score(
    cases: list[dict[str, Any]], outputs: dict[str, dict[str, Any]], show_cases: bool, name: str
) -> None:
    kinds: dict[str, list[int]] = {}
    kept_all = total_all = id_kept = id_total = st_kept = st_total = noise_hit = noise_total = 0
    compressions: list[float] = []
    for case in cases:
        out = outputs.get(case["id"], {"summaries": [], "removed_counts": []})
        rounds = case["rounds"]
        summaries = list(out.get("summaries", [])) + [""] * (len(rounds) - len(out.get("summaries", [])))
        counts = list(out.get("removed_counts") or [])
        final = norm(summaries[-1])
        c_kept = c_ids = c_idt = c_st = c_stt = 0
        for probe in case["probes"]:
            ok = all(norm(k) in final for k in probe["keywords"])
            kinds.setdefault(probe["kind"], [0, 0])
            kinds[probe["kind"]][0] += ok
            kinds[probe["kind"]][1] += 1
            c_kept += ok
            if probe["kind"] in ("identifier", "file"):
                c_idt += 1
                c_ids += ok
            if len(rounds) >= 2 and probe["round"] == 1:
                c_stt += 1
                c_st += ok
            if show_cases and not ok:
                print(f"   MISS {probe['kind']} r{probe['round']} {probe['keywords']}")
        comps = []
        prev = 0
        for r, upto in enumerate(rounds):
            nominal = upto - case["preserve_recent"]
            count = counts[r] if r < len(counts) else nominal
            if count > nominal or count < prev:
                count = nominal
            prev = count
            removed = "\n".join(message_text(m) for m in case["messages"][:count])
            comps.append(est(summaries[r]) / max(1, est(removed)) if summaries[r] else 1.0)
        compressions.extend(comps)
        hits = [f for f in case["forbidden"] if norm(f) in final]
        if show_cases:
            for f in hits:
                print(f"   NOISE {f!r}")
            print(
                f"{case['id']}: retention {c_kept}/{len(case['probes'])} identifiers {c_ids}/{c_idt} "
                f"stability {c_st}/{c_stt} compression {'/'.join(f'{c:.2f}' for c in comps)} "
                f"noise {len(hits)}/{len(case['forbidden'])}"
            )
        kept_all += c_kept
        total_all += len(case["probes"])
        id_kept += c_ids
        id_total += c_idt
        st_kept += c_st
        st_total += c_stt
        noise_hit += len(hits)
        noise_total += len(case["forbidden"])
    print("per kind: " + " ".join(f"{k} {v[0] / v[1]:.3f} ({v[1]})" for k, v in sorted(kinds.items())))
    print(
        f"{name}: retention {kept_all / max(1, total_all):.3f} identifiers {id_kept / max(1, id_total):.3f} "
        f"compression {sum(compressions) / max(1, len(compressions)):.3f} noise {noise_hit / max(1, noise_total):.3f} "
        f"stability {st_kept / max(1, st_total):.3f} ({len(cases)} cases)"
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("set", nargs="?", default=str(DEFAULT_SET))
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--cases", action="store_true", help="one line per case, with misses and noise")
    parser.add_argument("--out", help="write the compactor's output lines (COMPACTION.md format) here")
    args = parser.parse_args()
    cases = [
        json.loads(line) for line in Path(args.set).read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    outputs: dict[str, dict[str, Any]] = {}
    runner = run_case_in_process if args.in_process else run_case_cli
    for case in cases:
        with tempfile.TemporaryDirectory(prefix="savenow-compaction-eval-") as tmp:
            outputs[case["id"]] = runner(case, Path(tmp))
    if args.out:
        Path(args.out).write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in outputs.values()))
    score(cases, outputs, args.cases, Path(args.set).name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
