"""The comparer (DESIGN §7): add → skip on near duplicates, merge target mapping, fallbacks."""

from __future__ import annotations

from savenow.memory.compare import (
    MERGE_TARGET_THRESHOLD,
    REASON_AGENT_SKIP,
    REASON_ALL_BULLETS_DUPLICATE,
    REASON_DUPLICATE_BULLETS,
    REASON_DUPLICATE_SECTION,
    REASON_MERGE_DISALLOWED,
    REASON_TARGET_MISSING,
    plan,
)
from savenow.models import Entry

MEMORY = """# 2026-05-15

## 10:00 - 网关令牌不匹配修复
- 通过更新 gateway.cmd 中的令牌解决了 unauthorized 错误

## 14:02 - Telegram UI conventions
- Single-row 3-button layout.

## 09:00 - Sprint cadence rules
- Two-week sprints.
"""


def test_cjk_near_duplicate_add_becomes_skip_with_title_sim() -> None:
    entry = Entry(
        "网关令牌不匹配的修复方法", ["通过更新 gateway.cmd 里的令牌解决 unauthorized 错误"], candidate_index=3
    )
    (decision,) = plan([entry], MEMORY)
    assert decision.action == "skip" and decision.proposed_action == "add"
    assert decision.reason == REASON_DUPLICATE_SECTION and decision.is_duplicate_skip
    assert decision.closest_title == "网关令牌不匹配修复" and decision.closest_time == "10:00"
    assert 0.75 <= decision.similarity < 1.0
    assert decision.content_similarity is not None and decision.content_similarity > 0.85
    assert decision.candidate_index == 3


def test_genuinely_new_note_stays_add() -> None:
    (decision,) = plan([Entry("Nginx 上传大小限制", ["client_max_body_size 设为 50m"])], MEMORY)
    assert decision.action == "add" and decision.reason == "added"
    assert decision.matches == []


def test_same_title_but_new_content_stays_add() -> None:
    (decision,) = plan([Entry("Sprint cadence rules", ["Retro every second Friday."])], MEMORY)
    assert decision.action == "add"
    assert decision.matches[0].title == "Sprint cadence rules" and decision.matches[0].similarity == 1.0


def test_add_whose_bullets_all_exist_elsewhere_is_skipped() -> None:
    (decision,) = plan([Entry("Layout", ["single-row 3-button layout"])], MEMORY)
    assert decision.action == "skip" and decision.reason == REASON_DUPLICATE_BULLETS
    assert decision.closest_title == "Telegram UI conventions"


def test_exact_merge_target_keeps_only_new_bullets() -> None:
    entry = Entry(
        "Button rules",
        ["Cancel on the right.", "Single-row 3-button layout."],
        "merge",
        "Telegram UI conventions",
    )
    (decision,) = plan([entry], MEMORY)
    assert decision.action == "merge" and decision.target_match == "exact"
    assert decision.entry.merge_target_title == "Telegram UI conventions"
    assert decision.entry.bullets == ["Cancel on the right."] and decision.duplicate_bullets == 1
    assert decision.target_section == 1 and decision.similarity == 1.0


def test_inexact_merge_target_maps_to_closest_heading() -> None:
    entry = Entry("Button rules", ["Cancel on the right."], "merge", "telegram ui convention")
    (decision,) = plan([entry], MEMORY)
    assert decision.action == "merge" and decision.target_match == "closest"
    assert decision.entry.merge_target_title == "Telegram UI conventions"
    assert decision.requested_target == "telegram ui convention"
    assert decision.similarity >= MERGE_TARGET_THRESHOLD


def test_cjk_merge_target_paraphrase_maps() -> None:
    entry = Entry("补充", ["重启网关后生效"], "merge", "网关令牌不匹配的修复")
    (decision,) = plan([entry], MEMORY)
    assert decision.action == "merge" and decision.entry.merge_target_title == "网关令牌不匹配修复"


def test_missing_merge_target_falls_back_to_add() -> None:
    (decision,) = plan([Entry("Orphan", ["lonely"], "merge", "Does not exist")], MEMORY)
    assert decision.action == "add" and decision.fallback and decision.proposed_action == "merge"
    assert decision.reason == REASON_TARGET_MISSING and decision.requested_target == "Does not exist"


def test_merge_disallowed_or_without_target_falls_back() -> None:
    entry = Entry("Button rules", ["Cancel on the right."], "merge", "Telegram UI conventions")
    (decision,) = plan([entry], MEMORY, allow_merge=False)
    assert decision.action == "add" and decision.fallback and decision.reason == REASON_MERGE_DISALLOWED
    (decision,) = plan([Entry("T", ["b"], "merge", None)], MEMORY)
    assert decision.action == "add" and decision.reason == REASON_MERGE_DISALLOWED


def test_merge_with_all_bullets_present_becomes_skip() -> None:
    entry = Entry("Again", ["single-row 3-button layout"], "merge", "Telegram UI conventions")
    (decision,) = plan([entry], MEMORY)
    assert decision.action == "skip" and decision.reason == REASON_ALL_BULLETS_DUPLICATE
    assert decision.duplicate_bullets == 1 and decision.closest_title == "Telegram UI conventions"


def test_agent_skip_reports_closest_heading() -> None:
    (decision,) = plan([Entry("Sprint planning notes", ["temp"], "skip", reason="temporary")], MEMORY)
    assert decision.action == "skip" and decision.reason == REASON_AGENT_SKIP
    assert decision.closest_title == "Sprint cadence rules" and decision.similarity >= 0.2
    (far,) = plan([Entry("完全无关", ["x"], "skip")], MEMORY)
    assert far.closest_title is None


def test_batch_does_not_repeat_itself() -> None:
    first = Entry("Nginx 上传大小限制", ["client_max_body_size 设为 50m"], candidate_index=0)
    second = Entry("Nginx 上传大小的限制", ["client_max_body_size 设为 50m"], candidate_index=1)
    third = Entry("More UI", ["Cancel on the right."], "merge", "Telegram UI conventions", candidate_index=2)
    fourth = Entry(
        "Even more UI", ["cancel on the right"], "merge", "Telegram UI conventions", candidate_index=3
    )
    decisions = plan([first, second, third, fourth], MEMORY)
    assert [d.action for d in decisions] == ["add", "skip", "merge", "skip"]
    assert [d.candidate_index for d in decisions] == [0, 1, 2, 3]


def test_plan_on_missing_file() -> None:
    decisions = plan([Entry("A", ["b"]), Entry("C", ["d"], "merge", "X")], None)
    assert [d.action for d in decisions] == ["add", "add"]
    assert decisions[1].fallback
