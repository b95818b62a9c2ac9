"""Where a proposed note goes in today's memory: skip, merge under a section, or add.

* **skip** — the chat restates something today's file already says: the note
  refers to earlier notes ("as we saved", 按之前的约定) and matches a bullet, or
  its wording nearly duplicates one.
* **merge** — the note extends a section's topic: it shares identifiers with
  the section, names the section's subject, or is the same kind of fact
  (an owner under a team/owners section, a preference under a preferences one).
* **add** — everything else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from ..models import MemorySection
from ..textnorm import compact, has_cjk, similarity
from . import signals
from .signals import LEX

MERGE_MIN = 2.0
SKIP_SIMILARITY = 0.6  # wording this close to an existing bullet is a duplicate on its own
PRIOR_SIMILARITY = 0.25  # … or this close when the chat says it was saved before

_OWNER_SECTION = re.compile(r"team|owner|people|contact|who|分工|负责|团队|人员|联系人", re.IGNORECASE)
_PREFERENCE_SECTION = re.compile(r"prefer|style|habit|偏好|习惯|风格|约定", re.IGNORECASE)
_STOP = frozenset(
    {"the", "and", "for", "with", "setup", "notes", "misc", "open", "questions", "todo", "on", "of"}
)


class _Bullet(Protocol):
    bullet: str
    ids: frozenset[str]


@dataclass(frozen=True)
class Placement:
    action: Literal["add", "merge", "skip"]
    section_title: str | None
    matched_bullet: str | None
    reason: str


def place(
    bullets: Sequence[_Bullet],
    ids: frozenset[str],
    kinds: set[str],
    prior: bool,
    sections: Sequence[MemorySection],
) -> Placement | None:
    """The placement of a note; None for a "we already saved this" note today's file lacks."""
    # A prior-reference note is a duplicate when any sentence matches; a new note only by its lead sentence.
    duplicate = _duplicate(bullets if prior else bullets[:1], prior, sections)
    if duplicate is not None:
        section, bullet = duplicate
        return Placement(
            "skip", section.title, bullet, f'Already in today\'s memory under "{section.title}".'
        )
    if prior:
        return None
    text = " ".join(b.bullet for b in bullets)
    note_ids = frozenset().union(*(b.ids for b in bullets)) if bullets else ids
    best: tuple[float, MemorySection] | None = None
    for section in sections:
        affinity = _affinity(text, note_ids, kinds, section)
        if affinity >= MERGE_MIN and (best is None or affinity > best[0]):
            best = (affinity, section)
    if best is not None:
        return Placement("merge", best[1].title, None, f'Extends the existing section "{best[1].title}".')
    return Placement("add", None, None, "New durable fact.")


def _duplicate(
    bullets: Sequence[_Bullet], prior: bool, sections: Sequence[MemorySection]
) -> tuple[MemorySection, str] | None:
    best: tuple[float, MemorySection, str] | None = None
    for section in sections:
        for existing in section.bullets:
            existing_ids = signals.identifiers(existing)
            for bullet in bullets:
                score = similarity(bullet.bullet, existing)
                shared = len(bullet.ids & existing_ids)
                covered = bool(bullet.ids) and bullet.ids <= existing_ids
                if prior and (score >= PRIOR_SIMILARITY or shared):
                    score += 1.0
                elif covered and score >= PRIOR_SIMILARITY:
                    score += 0.5
                elif score < SKIP_SIMILARITY or (bullet.ids - existing_ids and not prior):
                    continue  # new identifiers mean new information, however alike the wording
                if best is None or score > best[0]:
                    best = (score, section, existing)
    return None if best is None else (best[1], best[2])


def _affinity(text: str, note_ids: frozenset[str], kinds: set[str], section: MemorySection) -> float:
    section_text = " ".join([section.title, *section.bullets])
    section_ids = signals.identifiers(section_text)
    score = min(2.0, 1.0 * len(note_ids & section_ids))
    terms = [term for term in _title_terms(section.title) if term in compact(text)]
    if terms:
        # A long word of the heading ("digest", "ollama") names the subject; a short one only hints.
        score += 2.0 if any(len(term) >= 5 or has_cjk(term) and len(term) >= 3 for term in terms) else 1.5
    if "owner" in kinds and (_OWNER_SECTION.search(section.title) or _owner_bullets(section.bullets)):
        score += 2.0
    if "preference" in kinds and _PREFERENCE_SECTION.search(section.title):
        score += 2.0
    if similarity(text, section_text) >= 0.3:
        score += 1.0
    return score


def _owner_bullets(bullets: Iterable[str]) -> bool:
    return sum(1 for b in bullets if LEX.OWNER.search(b)) >= 1


def _title_terms(title: str) -> list[str]:
    """The words of a heading that name its subject (compact form), e.g. "nginx", "edge-1", "备份"."""
    terms = []
    for word in compact(title).split(" "):
        if has_cjk(word):
            terms.extend(word[i : i + 2] for i in range(0, max(len(word) - 1, 1), 2))
        elif len(word) >= 3 and word not in _STOP:
            terms.append(word)
    return terms
