"""A Traditional Chinese chat is read by the same rules, and its notes keep the user's characters."""

from __future__ import annotations

import pytest

from savenow.extract.heuristic import HeuristicExtractor
from savenow.models import ChatMessage, MemorySection


def _chat(*turns: tuple[str, str]) -> list[ChatMessage]:
    return [ChatMessage(role, text, f"2026-11-01T10:0{i}:00+08:00") for i, (role, text) in enumerate(turns)]  # type: ignore[arg-type]


def test_a_traditional_rule_is_kept_in_traditional() -> None:
    chat = _chat(("user", "還有，以後回覆我先給結論，再給命令"), ("assistant", "明白。"))
    [entry] = HeuristicExtractor().extract(chat, []).entries
    assert entry.bullets == ["回覆先給結論，再給命令。"]  # the lead-in 以後 is stripped as in Simplified


@pytest.mark.parametrize("heading", ["Nginx 配置說明", "Nginx 配置说明"])
def test_a_merge_target_is_the_files_own_heading_in_either_script(heading: str) -> None:
    chat = _chat(("user", "以後 nginx 改完配置都要先 nginx -t 再 reload"), ("assistant", "明白。"))
    sections = [
        MemorySection(heading, ("站點配置在 /etc/nginx/conf.d/app.conf",)),
        MemorySection("家庭", ("週末爬山",)),
    ]
    [entry] = HeuristicExtractor().extract(chat, sections).entries
    assert entry.action == "merge" and entry.merge_target_title == heading
    assert entry.reason is not None and f'"{heading}"' in entry.reason
