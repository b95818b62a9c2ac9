"""Score the memory-object extractor on ``shared/eval/objects.jsonl`` (scoring: OBJECTS.md).

Per case, through the real CLI: write the conversation to a temporary OpenClaw store,
``savenow objects upsert`` every ``objects_before`` entry, ``savenow objects extract --json``,
score. ``--in-process`` runs the same steps without subprocesses (fast iteration).
Also times the offline extraction of a 70-message chat (the goal is ≤ 50 ms).

    python benchmarks/objects_eval.py [CASES.jsonl] [--in-process] [--show]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_common import CHAT_ID, THREAD_ID, write_store

_ROOT = Path(__file__).resolve().parents[1]
DEFAULT = next(
    (p for p in (_ROOT.parent / "shared" / "eval" / "objects.jsonl", _ROOT.parents[1] / "shared" / "eval" / "objects.jsonl")
     if p.is_file()),
    _ROOT.parent / "shared" / "eval" / "objects.jsonl",
)  # fmt: skip
TEXT_FIELDS = ("summary", "detail", "facts", "recent_conclusions", "open_questions", "name", "title")


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def fold_id(text: Any) -> str:
    return " ".join(fold(str(text or "")).split())


def object_text(obj: dict[str, Any]) -> str:
    parts: list[str] = []
    for name in TEXT_FIELDS:
        value = obj.get(name)
        if isinstance(value, list):
            parts.extend(str(v) for v in value)
        elif value:
            parts.append(str(value))
    return fold("\n".join(parts))


def matches(obj: dict[str, Any], exp: dict[str, Any]) -> bool:
    if obj.get("type") != exp["type"]:
        return False
    text = object_text(obj)
    return all(fold(k) in text for k in exp["keywords"])


def identity_ok(obj: dict[str, Any], exp: dict[str, Any]) -> bool:
    if fold_id(obj.get("op")) != fold_id(exp["op"]):
        return False
    ident = exp["identity"]
    if exp["type"] == "self":
        if fold_id(obj.get("category")) != fold_id(ident["category"]) or fold_id(obj.get("key")) != fold_id(
            ident["key"]
        ):
            return False
    elif exp["type"] == "saved":
        title = fold(str(obj.get("title") or ""))
        if not all(fold(k) in title for k in ident["title_keywords"]):
            return False
    elif fold_id(obj.get("name")) != fold_id(ident["name"]):
        return False
    return not (exp.get("status") and fold_id(obj.get("status")) != fold_id(exp["status"]))


def best_pairing(objs: list[dict[str, Any]], expected: list[dict[str, Any]]) -> list[tuple[int, int]]:
    options = [[j for j, o in enumerate(objs) if matches(o, e)] for e in expected]
    best: tuple[tuple[int, int], list[tuple[int, int]]] = ((0, 0), [])

    def search(i: int, used: frozenset[int], pairs: list[tuple[int, int]], good: int) -> None:
        nonlocal best
        if i == len(expected):
            if (len(pairs), good) > best[0]:
                best = ((len(pairs), good), list(pairs))
            return
        for j in options[i]:
            if j not in used:
                pairs.append((i, j))
                search(i + 1, used | {j}, pairs, good + identity_ok(objs[j], expected[i]))
                pairs.pop()
        search(i + 1, used, pairs, good)

    search(0, frozenset(), [], 0)
    return best[1]


def score(
    cases: list[dict[str, Any]], outputs: dict[str, list[dict[str, Any]]], show: bool
) -> dict[str, Any]:
    recalls, precisions = [], []
    id_good = id_pairs = forbidden = confusion = 0
    for case in cases:
        objs = outputs[case["id"]]
        expected = case["expected"]
        writes = [j for j, o in enumerate(objs) if o.get("op") != "skip"]
        pairs = best_pairing(objs, expected)
        if not expected:
            recalls.append(1.0 if not writes else 0.0)
        else:
            recalls.append(len(pairs) / len(expected))
        if writes:
            good = sum(1 for i, j in pairs if j in writes and expected[i]["op"] in ("create", "update"))
            precisions.append(good / len(writes))
        id_pairs += len(pairs)
        id_good += sum(identity_ok(objs[j], expected[i]) for i, j in pairs)
        paired = {j for _, j in pairs}
        hits = [j for j in writes if any(fold(f) in object_text(objs[j]) for f in case["forbidden"])]
        forbidden += len(hits)
        for j in writes:
            if j not in paired and any(
                e["type"] != objs[j]["type"] and all(fold(k) in object_text(objs[j]) for k in e["keywords"])
                for e in expected
            ):
                confusion += 1
        if show:
            print(
                f"--- {case['id']}: recall {recalls[-1]:.2f}"
                + (f" precision {precisions[-1]:.2f}" if writes else "")
            )
            for i, e in enumerate(expected):
                j = next((j for a, j in pairs if a == i), None)
                mark = "MISS" if j is None else ("ok  " if identity_ok(objs[j], e) else "IDWR")
                print(
                    f"  {mark} expected {e['type']} {e['op']} {e['identity']} {e['keywords']} {e.get('status') or ''}"
                )
            for j, o in enumerate(objs):
                flag = " FORBIDDEN" if j in hits else ""
                used = "" if j in paired else " (unmatched)"
                print(f"    got {json.dumps(o, ensure_ascii=False)[:300]}{used}{flag}")
    return {
        "cases": len(cases),
        "recall": round(sum(recalls) / len(recalls), 3),
        "precision": round(sum(precisions) / len(precisions), 3) if precisions else 1.0,
        "identity": round(id_good / id_pairs, 3) if id_pairs else 0.0,
        "forbidden": forbidden,
        "type_confusion": confusion,
    }


def _env(case: dict[str, Any], root: Path) -> dict[str, str]:
    config = root / "config.yaml"
    config.write_text("{}\n", encoding="utf-8")
    env = dict(os.environ)
    env.update(
        SAVENOW_NOW=f"{case['date']}T20:00:00+00:00", SAVENOW_TIMEZONE="UTC", SAVENOW_CONFIG=str(config)
    )
    return env


def run_cli(case: dict[str, Any], root: Path) -> list[dict[str, Any]]:
    workspace, sessions = write_store({**case, "memory_before": ""}, root)
    env = _env(case, root)
    base = [sys.executable, "-m", "savenow.cli", "objects"]
    flags = ["--workspace", str(workspace), "--sessions-dir", str(sessions)]
    if case["objects_before"]:
        seed = root / "before.json"
        seed.write_text(json.dumps(case["objects_before"], ensure_ascii=False), encoding="utf-8")
        # --new: objects_before is the truth, so two stored names that look alike (Ken / Kenji) both exist.
        done = subprocess.run([*base, "upsert", "--json-file", str(seed), "--new", "--json", *flags],
                              capture_output=True, text=True, env=env, check=False)  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"upsert failed: {done.stderr.strip()}")
    done = subprocess.run([*base, "extract", "--json", "--chat-id", CHAT_ID, "--thread-id", str(THREAD_ID), *flags],
                          capture_output=True, text=True, env=env, check=False)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"extract failed: {done.stderr.strip()}")
    return list(json.loads(done.stdout)["objects"])


def run_in_process(case: dict[str, Any], root: Path) -> list[dict[str, Any]]:
    from savenow.clock import Clock, parse_now
    from savenow.models import ChatMessage
    from savenow.objects.extract import plan
    from savenow.objects.heuristic import OfflineObjectExtractor
    from savenow.objects.model import parse_upsert
    from savenow.objects.store import ObjectStore

    store = ObjectStore(root / "ws", Clock(fixed=parse_now(f"{case['date']}T20:00:00+00:00")))
    if case["objects_before"]:
        store.upsert(parse_upsert(case["objects_before"]), allow_near=True)
    messages = [ChatMessage(role=m["role"], text=m["text"], timestamp=m["ts"]) for m in case["transcript"]]
    stored = store.load()
    candidates = OfflineObjectExtractor().propose(messages, stored).candidates
    return [p.to_json() for p in plan(candidates, store, stored).proposals]


def time_extraction(cases: list[dict[str, Any]]) -> float:
    """Milliseconds for the offline extractor on a 70-message chat (best of 20)."""
    from savenow.models import ChatMessage
    from savenow.objects.heuristic import OfflineObjectExtractor

    pool = [m for case in cases for m in case["transcript"]]
    messages = [ChatMessage(role=m["role"], text=m["text"], timestamp=m["ts"]) for m in pool[:70]]
    extractor = OfflineObjectExtractor()
    best = float("inf")
    for _ in range(20):
        start = time.perf_counter()
        extractor.propose(messages, [])
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="?", default=str(DEFAULT))
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument(
        "--show", action="store_true", help="print every case's expected and produced objects"
    )
    args = parser.parse_args()
    with open(args.cases, encoding="utf-8") as handle:
        cases = [json.loads(line) for line in handle if line.strip()]
    outputs = {}
    runner = run_in_process if args.in_process else run_cli
    for case in cases:
        with tempfile.TemporaryDirectory() as tmp:
            outputs[case["id"]] = runner(case, Path(tmp))
    figures = score(cases, outputs, args.show)
    figures["extract_ms_70_messages"] = round(time_extraction(cases), 2)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
