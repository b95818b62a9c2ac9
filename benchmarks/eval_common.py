"""Shared pieces of the extraction benchmarks: cases, temporary stores, scoring.

A case of ``shared/eval/cases.jsonl`` becomes a temporary OpenClaw session store
(one forum-topic session) plus a workspace whose ``memory/<date>.md`` holds the
case's ``memory_before``. The scoring follows ``shared/eval/README.md`` exactly:
a maximum one-to-one keyword matching (most action-correct pairs among the
maximum ones), per-case recall / precision / action accuracy averaged over
cases, forbidden hits summed.

Used by ``eval_extract.py`` (offline extractor); the LLM benchmark may reuse it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_CASES = Path(__file__).resolve().parents[2] / "shared" / "eval" / "cases.jsonl"
CHAT_ID = "-100123"
THREAD_ID = 7
SESSION_KEY = f"agent:main:telegram:group:{CHAT_ID}:topic:{THREAD_ID}"

EntryDict = dict[str, Any]


# --------------------------------------------------------------------------- cases


def load_cases(path: Path | str = DEFAULT_CASES) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _epoch_ms(iso: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(iso).timestamp() * 1000)


def write_store(case: dict[str, Any], root: Path) -> tuple[Path, Path]:
    """Write the case as an OpenClaw store + workspace under ``root``; return (workspace, sessions_dir)."""
    sessions_dir = root / "sessions"
    workspace = root / "ws"
    sessions_dir.mkdir(parents=True)
    (workspace / "memory").mkdir(parents=True)
    transcript = case["transcript"]
    session_id = f"eval-{case['id']}"
    first_ts = transcript[0]["ts"] if transcript else f"{case['date']}T00:00:00Z"
    last_ts = transcript[-1]["ts"] if transcript else first_ts
    index = {
        SESSION_KEY: {
            "sessionId": session_id,
            "updatedAt": _epoch_ms(last_ts),
            "chatType": "group",
            "deliveryContext": {"channel": "telegram", "to": CHAT_ID, "threadId": THREAD_ID},
        }
    }
    (sessions_dir / "sessions.json").write_text(json.dumps(index), encoding="utf-8")
    lines = [
        {"type": "session", "version": 3, "id": session_id, "timestamp": first_ts, "cwd": str(workspace)}
    ]
    parent = None
    for number, message in enumerate(transcript):
        line_id = f"m{number:04d}"
        lines.append(
            {
                "type": "message",
                "id": line_id,
                "parentId": parent,
                "timestamp": message["ts"],
                "message": {
                    "role": message["role"],
                    "content": [{"type": "text", "text": message["text"]}],
                    "timestamp": _epoch_ms(message["ts"]),
                },
            }
        )
        parent = line_id
    session_file = sessions_dir / f"{session_id}-topic-{THREAD_ID}.jsonl"
    session_file.write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )
    if case["memory_before"]:
        (workspace / "memory" / f"{case['date']}.md").write_text(case["memory_before"], encoding="utf-8")
    return workspace, sessions_dir


# --------------------------------------------------------------------------- runners


def run_cli(case: dict[str, Any], root: Path, extractor: str = "heuristic") -> list[EntryDict]:
    """``savenow preview --json`` on a temporary store; the entries after the comparer."""
    workspace, sessions_dir = write_store(case, root)
    config = root / "config.yaml"
    config.write_text("{}\n", encoding="utf-8")
    env = dict(os.environ)
    env.update(
        SAVENOW_NOW=f"{case['date']}T20:00:00+00:00",
        SAVENOW_TIMEZONE="UTC",
        SAVENOW_CONFIG=str(config),
    )
    command = [
        sys.executable, "-m", "savenow.cli", "preview", "--json",
        "--workspace", str(workspace), "--sessions-dir", str(sessions_dir),
        "--chat-id", CHAT_ID, "--thread-id", str(THREAD_ID), "--extractor", extractor,
    ]  # fmt: skip
    done = subprocess.run(
        command, check=False, capture_output=True, text=True, env=env, cwd=root, timeout=120
    )
    if done.returncode != 0:
        raise RuntimeError(f"savenow preview failed ({done.returncode}): {done.stderr.strip()[:500]}")
    return list(json.loads(done.stdout)["entries"])


def case_messages(case: dict[str, Any]) -> list[Any]:
    from savenow.models import ChatMessage

    return [ChatMessage(role=m["role"], text=m["text"], timestamp=m["ts"]) for m in case["transcript"]]


def case_sections(memory_text: str) -> list[Any]:
    if not memory_text:
        return []
    from savenow.memory.document import MemoryDocument

    return list(MemoryDocument.parse(memory_text).memory_sections())


def compare_entries(entries: Sequence[Any], memory_text: str) -> list[EntryDict]:
    """The comparer's final word, as JSON dicts; the raw entries when it is not available yet."""
    try:
        from savenow.memory.compare import plan
    except ImportError:
        return [e.to_json() for e in entries]
    decisions = plan(list(entries), memory_text)
    return [_decision_json(d) for d in decisions]


def _decision_json(decision: Any) -> EntryDict:
    entry = getattr(decision, "entry", decision)
    data = entry.to_json() if hasattr(entry, "to_json") else dict(entry)
    for name in ("action", "merge_target_title"):
        if hasattr(decision, name) and decision is not entry:
            data[name] = getattr(decision, name)
    return data


def run_in_process(case: dict[str, Any], extract: Callable[[list[Any], list[Any]], Any]) -> list[EntryDict]:
    result = extract(case_messages(case), case_sections(case["memory_before"]))
    return compare_entries(result.entries, case["memory_before"])


# --------------------------------------------------------------------------- scoring


def entry_text(entry: EntryDict) -> str:
    return "\n".join([entry.get("title") or "", *(entry.get("bullets") or [])]).casefold()


def _matches(entry: EntryDict, note: dict[str, Any]) -> bool:
    text = entry_text(entry)
    return all(keyword.casefold() in text for keyword in note["keywords"])


def _action_correct(entry: EntryDict, note: dict[str, Any]) -> bool:
    if entry.get("action", "add") != note["action"]:
        return False
    return note["action"] != "merge" or entry.get("merge_target_title") == note.get("merge_target_title")


def best_pairing(entries: Sequence[EntryDict], notes: Sequence[dict[str, Any]]) -> list[tuple[int, int]]:
    """Maximum one-to-one (note, entry) matching; among maximum ones, the most action-correct pairs."""
    options = [[j for j, e in enumerate(entries) if _matches(e, note)] for note in notes]
    best: tuple[tuple[int, int], list[tuple[int, int]]] = ((0, 0), [])

    def search(i: int, used: frozenset[int], pairs: list[tuple[int, int]], correct: int) -> None:
        nonlocal best
        if i == len(notes):
            if (len(pairs), correct) > best[0]:
                best = ((len(pairs), correct), list(pairs))
            return
        for j in options[i]:
            if j not in used:
                pairs.append((i, j))
                search(i + 1, used | {j}, pairs, correct + _action_correct(entries[j], notes[i]))
                pairs.pop()
        search(i + 1, used, pairs, correct)

    search(0, frozenset(), [], 0)
    return best[1]


@dataclass
class CaseScore:
    case_id: str
    recall: float
    precision: float | None
    action_accuracy: float | None
    forbidden_hits: int
    produced: int
    non_skip: int
    details: list[str] = field(default_factory=list)


def score_case(case: dict[str, Any], entries: Sequence[EntryDict]) -> CaseScore:
    notes = case["expected"]
    non_skip = [j for j, e in enumerate(entries) if e.get("action", "add") != "skip"]
    pairs = best_pairing(entries, notes)
    if notes:
        recall = len(pairs) / len(notes)
    else:
        recall = 0.0 if non_skip else 1.0
    precise = sum(
        1 for i, j in pairs if notes[i]["action"] != "skip" and entries[j].get("action", "add") != "skip"
    )
    precision = precise / len(non_skip) if non_skip else None
    action_accuracy = (
        sum(_action_correct(entries[j], notes[i]) for i, j in pairs) / len(pairs) if pairs else None
    )
    forbidden = [f.casefold() for f in case["forbidden"]]
    hits = 0
    details = []
    for j in non_skip:
        found = [f for f in forbidden if f in entry_text(entries[j])]
        if found:
            hits += 1
            details.append(f"forbidden {found} in entry {j}")
    for i, note in enumerate(notes):
        paired = [j for ni, j in pairs if ni == i]
        if not paired:
            details.append(f"missed {note['keywords']} ({note['action']})")
        elif not _action_correct(entries[paired[0]], note):
            got = entries[paired[0]]
            details.append(
                f"wrong action {note['keywords']}: want {note['action']} {note.get('merge_target_title') or ''}"
                f" got {got.get('action')} {got.get('merge_target_title') or ''}".rstrip()
            )
    matched_entries = {j for _, j in pairs}
    for j in non_skip:
        if j not in matched_entries:
            details.append(f"extra {entries[j].get('action')} {entries[j].get('title')!r}")
    return CaseScore(
        case_id=case["id"],
        recall=recall,
        precision=precision,
        action_accuracy=action_accuracy,
        forbidden_hits=hits,
        produced=len(entries),
        non_skip=len(non_skip),
        details=details,
    )


@dataclass
class Summary:
    recall: float
    precision: float
    action_accuracy: float
    forbidden_hits: int


def summarize(scores: Sequence[CaseScore]) -> Summary:
    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else float("nan")

    return Summary(
        recall=mean([s.recall for s in scores]),
        precision=mean([s.precision for s in scores if s.precision is not None]),
        action_accuracy=mean([s.action_accuracy for s in scores if s.action_accuracy is not None]),
        forbidden_hits=sum(s.forbidden_hits for s in scores),
    )


def format_case(score: CaseScore) -> str:
    def fmt(value: float | None) -> str:
        return " n/a" if value is None else f"{value:4.2f}"

    line = (
        f"{score.case_id:<40} R={fmt(score.recall)} P={fmt(score.precision)} "
        f"A={fmt(score.action_accuracy)} F={score.forbidden_hits} entries={score.produced}"
        f" (non-skip {score.non_skip})"
    )
    return "\n".join([line, *(f"    - {d}" for d in score.details)])


def format_summary(summary: Summary, cases: int) -> str:
    return (
        f"cases={cases}  recall={summary.recall:.3f}  precision={summary.precision:.3f}  "
        f"action_accuracy={summary.action_accuracy:.3f}  forbidden_hits={summary.forbidden_hits}"
    )
