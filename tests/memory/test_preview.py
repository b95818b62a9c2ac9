"""The §6 preview Markdown, character for character."""

from __future__ import annotations

from savenow.memory.compare import Decision, plan
from savenow.memory.preview import render_preview
from savenow.models import DroppedEntry, Entry

DESIGN_EXAMPLE = """### /savenow preview — memory/2026-05-15.md

**3 candidates** → 1 add, 1 merge, 1 skip. No write performed.

---

**1. ADD — Gateway token mismatch fix**
- Resolved `unauthorized: gateway token mismatch` by updating `gateway.cmd` and the related env variables.
_compared against:_ (no close match above 0.4)

**2. MERGE — Telegram inline button rules → existing "Telegram UI conventions" (14:02)**
_reason: Two new rules belong to the same existing topic._
new bullets:
- Cancel button always sits on the rightmost slot.
_(1 duplicate bullet will be skipped by script)_

**3. SKIP — Sprint planning notes**
_reason: Temporary plan, no lasting value._
_(closest existing: "Sprint cadence rules" — title sim 0.20)_

---

Buttons expire in 30 min. Or `/savenow auto` next time to skip preview.
"""


def design_decisions() -> list[Decision]:
    add = Entry(
        "Gateway token mismatch fix",
        [
            (
                "Resolved `unauthorized: gateway token mismatch` by updating `gateway.cmd` and the related env "
                "variables."
            )
        ],
    )
    merge = Entry(
        "Telegram inline button rules",
        ["Cancel button always sits on the rightmost slot."],
        "merge",
        "Telegram UI conventions",
        "Two new rules belong to the same existing topic.",
    )
    skip = Entry("Sprint planning notes", ["x"], "skip", reason="Temporary plan, no lasting value.")
    return [
        Decision(entry=add, proposed_action="add", reason="added"),
        Decision(
            entry=merge,
            proposed_action="merge",
            reason="merged",
            closest_title="Telegram UI conventions",
            closest_time="14:02",
            similarity=1.0,
            duplicate_bullets=1,
            target_match="exact",
            target_section=0,
        ),
        Decision(
            entry=skip,
            proposed_action="skip",
            reason="agent",
            closest_title="Sprint cadence rules",
            similarity=0.2,
        ),
    ]


def test_design_example_exactly() -> None:
    assert render_preview(design_decisions(), memory_label="memory/2026-05-15.md") == DESIGN_EXAMPLE


def test_zero_candidates() -> None:
    assert render_preview([], memory_label="memory/2026-05-15.md") == (
        "### /savenow preview — memory/2026-05-15.md\n\n"
        "**0 candidates** — nothing durable in this session. No write performed.\n"
    )


def test_one_candidate_singular_and_ttl() -> None:
    out = render_preview(design_decisions()[:1], memory_label="m.md", ttl_minutes=5)
    assert "**1 candidate** → 1 add, 0 merge, 0 skip. No write performed." in out
    assert out.endswith("Buttons expire in 5 min. Or `/savenow auto` next time to skip preview.\n")


def test_fallback_and_closest_and_duplicate_renderings() -> None:
    memory = (
        "## 10:00 - 网关令牌不匹配修复\n- 通过更新 gateway.cmd 中的令牌解决了 unauthorized 错误\n"
        "## 14:02 - Telegram UI conventions\n- Single-row.\n"
    )
    entries = [
        Entry("网关令牌不匹配的修复方法", ["通过更新 gateway.cmd 里的令牌解决 unauthorized 错误"]),
        Entry("Orphan merge", ["lonely bullet"], "merge", "Does not exist"),
        Entry("Buttons", ["Cancel right."], "merge", "telegram ui convention"),
        Entry("Again", ["single-row"], "merge", "Telegram UI conventions"),
        Entry("Telegram UI notes", ["Something else entirely"]),
    ]
    out = render_preview(plan(entries, memory), memory_label="memory/2026-05-15.md")
    assert "**5 candidates** → 2 add, 1 merge, 2 skip. No write performed." in out
    assert (
        '**1. SKIP — 网关令牌不匹配的修复方法**\n_(closest existing: "网关令牌不匹配修复" — title sim 0.80, '
        in out
    )
    assert "already saved, will not be added)_" in out
    assert (
        "**2. MERGE → ADD (fallback) — Orphan merge**\n"
        '_target_: "Does not exist" not found in today\'s memory — will add as new section._\n- lonely bullet'
    ) in out
    assert '**3. MERGE — Buttons → existing "Telegram UI conventions" (14:02)**' in out
    assert '_target "telegram ui convention" matched to the closest heading — title sim 0.96_' in out
    assert (
        '_all 1 bullet(s) already present in existing "Telegram UI conventions" (14:02) — nothing to merge._'
        in out
    )
    assert '_compared against:_ "Telegram UI conventions" (14:02) — sim ' in out


def test_dropped_and_notices_come_before_the_closing_rule() -> None:
    out = render_preview(
        design_decisions()[:1],
        memory_label="m.md",
        dropped=[DroppedEntry("Secret token", "looks like a credential")],
        notices=["LLM failed; used the offline extractor"],
    )
    tail = (
        '_compared against:_ (no close match above 0.4)\n\n_dropped: "Secret token" — looks like a credential_\n'
        "_LLM failed; used the offline extractor_\n\n---\n\nButtons expire"
    )
    assert tail in out
    zero = render_preview([], memory_label="m.md", dropped=[DroppedEntry("T", "why")])
    assert zero.endswith('No write performed.\n\n_dropped: "T" — why_\n')
