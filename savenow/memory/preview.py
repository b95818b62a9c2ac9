"""The Markdown preview of DESIGN §6 (the OpenClaw skill's ``preview-diff`` output).

The header counts the FINAL actions (what apply will do), so an add the
comparer found already saved is listed and counted as a skip, and says why
("title sim 0.xx").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ..messages import text
from ..models import DroppedEntry
from .compare import (
    REASON_ALL_BULLETS_DUPLICATE,
    REASON_DUPLICATE_BULLETS,
    REASON_EMPTY,
    REASON_MERGE_DISALLOWED,
    SHOW_MATCH_THRESHOLD,
    Decision,
)

Surface = Literal["skill", "chat", "cli"]  # who reads the footer: the skill's scripts, a chat, a terminal


def _at(time: str | None) -> str:
    return f" ({time})" if time else ""


def render_preview(
    decisions: Sequence[Decision],
    *,
    memory_label: str,
    ttl_minutes: int = 30,
    dropped: Sequence[DroppedEntry] = (),
    notices: Sequence[str] = (),
    lang: str = "en",
    surface: Surface = "skill",
) -> str:
    """The preview Markdown, ending with a newline. Zero decisions → the zero-candidate text.

    ``lang`` picks the preview's own words (the notes stay as extracted); ``surface``
    picks the footer: the skill's buttons (DESIGN §6, the default), the chat's, or
    the command line's ``savenow apply``. When every candidate is a skip there is
    nothing to apply, and (in a chat or a terminal) the footer says so instead.
    """
    extras = _extra_lines(dropped, notices, lang)
    header = text("preview.header", lang, label=memory_label)
    if not decisions:
        lines = [header, "", text("preview.zero", lang), ""]
        if extras:
            lines += [*extras, ""]
        return "\n".join(lines)
    counts = {"add": 0, "merge": 0, "skip": 0}
    for decision in decisions:
        counts[decision.action] += 1
    total = len(decisions)
    summary = text(
        "preview.summary_one" if total == 1 else "preview.summary_many",
        lang,
        total=total,
        add=counts["add"],
        merge=counts["merge"],
        skip=counts["skip"],
    )
    blocks = [_render_decision(number, decision, lang) for number, decision in enumerate(decisions, start=1)]
    if extras:
        blocks.append("\n".join(extras))
    if counts["skip"] == total and surface != "skill":  # the skill's scripts keep DESIGN §6 as is
        footer = text("preview.footer.all_skip", lang)
    else:
        footer = text(f"preview.footer.{surface}", lang, ttl=ttl_minutes)
    parts = [header, "", summary, "", "---", "", "\n\n".join(blocks), "", "---", "", footer, ""]
    return "\n".join(parts)


def nothing_to_apply(decisions: Sequence[Decision]) -> bool:
    """True when apply would write nothing: no candidates, or every one a skip."""
    return all(decision.action == "skip" for decision in decisions)


def _extra_lines(dropped: Sequence[DroppedEntry], notices: Sequence[str], lang: str) -> list[str]:
    lines = [text("preview.dropped", lang, title=item.title, reason=item.reason) for item in dropped]
    lines += [f"_{notice}_" for notice in notices]
    return lines


def _render_decision(number: int, decision: Decision, lang: str) -> str:
    if decision.action == "add":
        return "\n".join(_render_add(number, decision, lang))
    if decision.action == "merge":
        return "\n".join(_render_merge(number, decision, lang))
    return "\n".join(_render_skip(number, decision, lang))


def _reason_line(decision: Decision, lang: str) -> list[str]:
    return [text("preview.reason", lang, reason=decision.entry.reason)] if decision.entry.reason else []


def _bullets(bullets: Sequence[str]) -> list[str]:
    return [f"- {bullet}" for bullet in bullets]


def _render_add(number: int, decision: Decision, lang: str) -> list[str]:
    entry = decision.entry
    if decision.fallback:
        target = decision.requested_target or text("preview.empty_target", lang)
        if decision.reason == REASON_MERGE_DISALLOWED and decision.requested_target:
            why = text("preview.fallback_disallowed", lang, target=target)
        else:
            why = text("preview.fallback_missing", lang, target=target)
        return [
            text("preview.fallback", lang, n=number, title=entry.title),
            why,
            *_reason_line(decision, lang),
            *_bullets(entry.bullets),
        ]
    lines = [text("preview.add", lang, n=number, title=entry.title), *_bullets(entry.bullets)]
    if decision.matches:
        parts = [
            text("preview.match", lang, title=m.title, at=_at(m.time), sim=f"{m.similarity:.2f}")
            for m in decision.matches
        ]
        lines.append(text("preview.compared", lang, matches="; ".join(parts)))
    else:
        lines.append(text("preview.compared_none", lang, threshold=SHOW_MATCH_THRESHOLD))
    return lines + _reason_line(decision, lang)


def _render_merge(number: int, decision: Decision, lang: str) -> list[str]:
    entry = decision.entry
    lines = [
        text(
            "preview.merge",
            lang,
            n=number,
            title=entry.title,
            target=entry.merge_target_title,
            at=_at(decision.closest_time),
        ),
        *_reason_line(decision, lang),
    ]
    if decision.target_match == "closest":
        lines.append(
            text(
                "preview.closest_target",
                lang,
                target=decision.requested_target,
                sim=f"{decision.similarity:.2f}",
            )
        )
    lines += [text("preview.new_bullets", lang), *_bullets(entry.bullets)]
    duplicates = decision.duplicate_bullets
    if duplicates:
        key = "preview.duplicates_one" if duplicates == 1 else "preview.duplicates_many"
        lines.append(text(key, lang, count=duplicates))
    return lines


def _render_skip(number: int, decision: Decision, lang: str) -> list[str]:
    entry = decision.entry
    lines = [text("preview.skip", lang, n=number, title=entry.title), *_reason_line(decision, lang)]
    if decision.reason == REASON_ALL_BULLETS_DUPLICATE:
        target = f'"{decision.closest_title}"{_at(decision.closest_time)}'
        lines.append(text("preview.all_present", lang, count=decision.duplicate_bullets, target=target))
    elif decision.reason == REASON_EMPTY:
        lines.append(text("preview.empty_entry", lang))
    elif decision.is_duplicate_skip:
        sims = text("preview.title_sim", lang, sim=f"{decision.similarity:.2f}")
        if decision.reason == REASON_DUPLICATE_BULLETS:
            verdict = text("preview.verdict_bullets", lang)
        else:
            sims += text("preview.content_sim", lang, sim=f"{decision.content_similarity or 0:.2f}")
            verdict = text("preview.verdict_saved", lang)
        lines.append(
            text("preview.duplicate_skip", lang, title=decision.closest_title, sims=sims, verdict=verdict)
        )
    elif decision.closest_title is None:
        lines.append(text("preview.judgement_skip", lang))
    else:
        lines.append(
            text("preview.closest", lang, title=decision.closest_title, sim=f"{decision.similarity:.2f}")
        )
    return lines
