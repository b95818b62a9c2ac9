"""The Markdown preview of DESIGN §6 (the OpenClaw skill's ``preview-diff`` output).

The header counts the FINAL actions (what apply will do), so an add the
comparer found already saved is listed and counted as a skip, and says why
("title sim 0.xx").
"""

from __future__ import annotations

from collections.abc import Sequence

from ..models import DroppedEntry
from .compare import (
    REASON_ALL_BULLETS_DUPLICATE,
    REASON_DUPLICATE_BULLETS,
    REASON_EMPTY,
    REASON_MERGE_DISALLOWED,
    SHOW_MATCH_THRESHOLD,
    Decision,
)

FOOTER = "Buttons expire in {ttl} min. Or `/savenow auto` next time to skip preview."


def _at(time: str | None) -> str:
    return f" ({time})" if time else ""


def render_preview(
    decisions: Sequence[Decision],
    *,
    memory_label: str,
    ttl_minutes: int = 30,
    dropped: Sequence[DroppedEntry] = (),
    notices: Sequence[str] = (),
) -> str:
    """The preview Markdown, ending with a newline. Zero decisions → the zero-candidate text."""
    extras = _extra_lines(dropped, notices)
    header = f"### /savenow preview — {memory_label}"
    if not decisions:
        lines = [header, "", "**0 candidates** — nothing durable in this session. No write performed.", ""]
        if extras:
            lines += [*extras, ""]
        return "\n".join(lines)
    counts = {"add": 0, "merge": 0, "skip": 0}
    for decision in decisions:
        counts[decision.action] += 1
    total = len(decisions)
    noun = "candidate" if total == 1 else "candidates"
    summary = (
        f"**{total} {noun}** → {counts['add']} add, {counts['merge']} merge, {counts['skip']} skip. "
        "No write performed."
    )
    blocks = [_render_decision(number, decision) for number, decision in enumerate(decisions, start=1)]
    if extras:
        blocks.append("\n".join(extras))
    parts = [
        header,
        "",
        summary,
        "",
        "---",
        "",
        "\n\n".join(blocks),
        "",
        "---",
        "",
        FOOTER.format(ttl=ttl_minutes),
        "",
    ]
    return "\n".join(parts)


def _extra_lines(dropped: Sequence[DroppedEntry], notices: Sequence[str]) -> list[str]:
    lines = [f'_dropped: "{item.title}" — {item.reason}_' for item in dropped]
    lines += [f"_{notice}_" for notice in notices]
    return lines


def _render_decision(number: int, decision: Decision) -> str:
    if decision.action == "add":
        return "\n".join(_render_add(number, decision))
    if decision.action == "merge":
        return "\n".join(_render_merge(number, decision))
    return "\n".join(_render_skip(number, decision))


def _reason_line(decision: Decision) -> list[str]:
    return [f"_reason: {decision.entry.reason}_"] if decision.entry.reason else []


def _bullets(bullets: Sequence[str]) -> list[str]:
    return [f"- {bullet}" for bullet in bullets]


def _render_add(number: int, decision: Decision) -> list[str]:
    entry = decision.entry
    if decision.fallback:
        target = decision.requested_target or "(empty)"
        if decision.reason == REASON_MERGE_DISALLOWED and decision.requested_target:
            why = f'_target_: "{target}" — merging is turned off — will add as new section._'
        else:
            why = f'_target_: "{target}" not found in today\'s memory — will add as new section._'
        return [
            f"**{number}. MERGE → ADD (fallback) — {entry.title}**",
            why,
            *_reason_line(decision),
            *_bullets(entry.bullets),
        ]
    lines = [f"**{number}. ADD — {entry.title}**", *_bullets(entry.bullets)]
    if decision.matches:
        parts = [f'"{m.title}"{_at(m.time)} — sim {m.similarity:.2f}' for m in decision.matches]
        lines.append(f"_compared against:_ {'; '.join(parts)}")
    else:
        lines.append(f"_compared against:_ (no close match above {SHOW_MATCH_THRESHOLD})")
    return lines + _reason_line(decision)


def _render_merge(number: int, decision: Decision) -> list[str]:
    entry = decision.entry
    lines = [
        f'**{number}. MERGE — {entry.title} → existing "{entry.merge_target_title}"{_at(decision.closest_time)}**',
        *_reason_line(decision),
    ]
    if decision.target_match == "closest":
        lines.append(
            f'_target "{decision.requested_target}" matched to the closest heading — title sim {decision.similarity:.2f}_'
        )
    lines += ["new bullets:", *_bullets(entry.bullets)]
    duplicates = decision.duplicate_bullets
    if duplicates:
        lines.append(
            f"_({duplicates} duplicate bullet{'' if duplicates == 1 else 's'} will be skipped by script)_"
        )
    return lines


def _render_skip(number: int, decision: Decision) -> list[str]:
    entry = decision.entry
    lines = [f"**{number}. SKIP — {entry.title}**", *_reason_line(decision)]
    if decision.reason == REASON_ALL_BULLETS_DUPLICATE:
        target = f'"{decision.closest_title}"{_at(decision.closest_time)}'
        lines.append(
            f"_all {decision.duplicate_bullets} bullet(s) already present in existing {target} — nothing to merge._"
        )
    elif decision.reason == REASON_EMPTY:
        lines.append("_(nothing left once punctuation and symbols are removed — will not be added)_")
    elif decision.is_duplicate_skip:
        sims = f"title sim {decision.similarity:.2f}"
        if decision.reason == REASON_DUPLICATE_BULLETS:
            verdict = "all bullets already saved"
        else:
            sims += f", content sim {decision.content_similarity or 0:.2f}"
            verdict = "already saved"
        lines.append(
            f'_(closest existing: "{decision.closest_title}" — {sims} — {verdict}, will not be added)_'
        )
    elif decision.closest_title is None:
        lines.append("_(closest existing: none — agent skipped on judgement)_")
    else:
        lines.append(
            f'_(closest existing: "{decision.closest_title}" — title sim {decision.similarity:.2f})_'
        )
    return lines
