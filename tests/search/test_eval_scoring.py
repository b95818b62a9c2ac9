"""benchmarks/search_eval.py scores exactly as shared/eval/SEARCH.md says (on a tiny made-up set)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "search_eval.py"
_spec = importlib.util.spec_from_file_location("search_eval", _PATH)
assert _spec and _spec.loader
search_eval: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(search_eval)

FILES = {"memory/2026-01-02.md": "# d\n\n## a\n- port 8080\n\n## b\n- port 9090 now\n", "MEMORY.md": "x\n"}
DATA = {
    "files": FILES,
    "queries": [
        {
            "id": "q1",
            "kind": "identifier",
            "query": "8080",
            "expected": [{"path": "memory/2026-01-02.md", "contains": "port 8080"}],
        },
        {
            "id": "q2",
            "kind": "recency",
            "query": "port",
            "expected": [
                {"path": "memory/2026-01-02.md", "contains": "9090"},
                {"path": "memory/2026-01-02.md", "contains": "8080"},
            ],
        },
        {"id": "q3", "kind": "negative", "query": "nothing", "expected": []},
    ],
}


def _hit(start: int, end: int, snippet: str = "", score: float = 0.9) -> dict[str, Any]:
    return {
        "path": "memory/2026-01-02.md",
        "startLine": start,
        "endLine": end,
        "score": score,
        "snippet": snippet,
    }


def test_hits_by_snippet_or_line_range_ranks_and_negatives() -> None:
    answers = {
        "q1": {"results": [_hit(6, 7), _hit(3, 4)]},  # rank 2, by line range (empty snippet)
        "q2": {"results": [_hit(3, 4, "- port 8080"), _hit(6, 7, "- port 9090 now")]},  # older first
        "q3": {"results": [_hit(3, 4, score=0.1)]},  # below min_score counts as empty
    }
    figures = search_eval.score(DATA, answers, 0.3)
    assert figures["recall@6"] == 1.0
    assert figures["mrr"] == (1 / 2 + 1 / 2) / 2
    assert figures["recency_order"] == 0.0 and figures["negatives_empty"] == "1/1"


def test_a_missing_newest_item_makes_a_recency_query_wrong() -> None:
    answers = {"q1": {"results": []}, "q2": {"results": [_hit(3, 4)]}, "q3": {"results": [_hit(3, 4)]}}
    figures = search_eval.score(DATA, answers, 0.3)
    assert figures["recall@6"] == 0.0 and figures["recency_order"] == 0.0


def test_the_clock_is_nine_on_the_day_after_the_newest_file() -> None:
    assert search_eval.clock_for(FILES) == "2026-01-03T09:00:00"
