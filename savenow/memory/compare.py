"""Compare proposed entries with today's memory and decide add / merge / skip (DESIGN §7).

Rules, applied to the entries in order (each decision updates the picture the
next entry is compared against, so a batch never repeats itself):

* ``skip`` stays skip (reason ``agent``).
* ``merge``: the target is the heading whose normalized title equals
  ``merge_target_title``; failing that, the closest heading with title
  similarity ≥ :data:`MERGE_TARGET_THRESHOLD`; failing that (or with merges
  disallowed, or no target named) the entry falls back to ``add``. Bullets
  already in the target (normalized) are dropped; when none is left the merge
  becomes ``skip`` (``all-bullets-duplicate``).
* ``add`` (and a merge fallen back to add) becomes ``skip`` when nothing is
  left of its title or bullets once normalized (``empty``), when all its
  bullets are already somewhere in the file, or when a section nearly
  duplicates it: title similarity ≥ :data:`DUPLICATE_TITLE_THRESHOLD` and
  content similarity ≥ :data:`DUPLICATE_CONTENT_THRESHOLD`, or content
  similarity ≥ :data:`STRONG_CONTENT_THRESHOLD` with title similarity ≥
  :data:`SHOW_MATCH_THRESHOLD`.
* Values decide before wording does (DESIGN §7): an add that holds a value the
  section it resembles lacks (an IP, port, path, version, id, amount, name —
  :func:`savenow.text.identifiers.values`), or that extends one of its bullets
  (a rule that gained a step), is never skipped. When its title names another
  subject than the section's ("Server 2 IP" beside "Server 1 IP") it is an add;
  otherwise it updates that section ("Redis now on 6380" under "Redis port"):
  a merge of its new bullets (reason ``updated``). Only a true restatement —
  the same values, reworded, in either language — is still skipped.

Similarity is :func:`savenow.text.normalize.similarity` (CJK-aware). Headings are
first screened with rapidfuzz over all sections (C speed), then the best
:data:`SCREEN_TOP_K` are rescored, so a 2,000-section file stays fast.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from rapidfuzz import fuzz, process

from ..models import Entry
from ..text.cjk import has_cjk
from ..text.identifiers import values
from ..text.normalize import bigrams, bullet_keys, compact_many, compact_similarity
from .document import MemoryDocument

SHOW_MATCH_THRESHOLD = 0.4  # "compared against" lists headings at least this close
SHOW_CLOSEST_SKIP_THRESHOLD = 0.2  # a skipped entry names its closest heading from here
MERGE_TARGET_THRESHOLD = 0.6  # an inexact merge target maps to a heading at least this close
DUPLICATE_TITLE_THRESHOLD = 0.75
DUPLICATE_CONTENT_THRESHOLD = 0.6
STRONG_CONTENT_THRESHOLD = 0.85
SCREEN_TOP_K = 8
EXTENDS_COVERAGE = 0.9  # a new bullet holding this much of a saved bullet's bigrams …
EXTENDS_GROWTH = 1.25  # … and this much longer extends it (a rule that gained a step)

Action = Literal["add", "merge", "skip"]
TargetMatch = Literal["exact", "closest"]

# Reason codes, as in the merge JSON's reasonByTitle (Node-compatible where the Node script has one).
REASON_ADDED = "added"
REASON_MERGED = "merged"
REASON_AGENT_SKIP = "agent"
REASON_TARGET_MISSING = "merge-target-missing"
REASON_MERGE_DISALLOWED = "merge-disallowed-or-empty-target"
REASON_ALL_BULLETS_DUPLICATE = "all-bullets-duplicate"
REASON_DUPLICATE_BULLETS = "duplicate:all-bullets-present"
REASON_DUPLICATE_SECTION = "duplicate:similar-section"
REASON_UPDATED = "updated"  # an add that updates a section it resembles: its new values merge there
REASON_EMPTY = "empty"  # nothing left of the title or bullets after normalization (e.g. only emoji)


@dataclass(frozen=True)
class Match:
    """A heading of today's file (or of an entry added earlier in the batch) and how close it is."""

    title: str
    time: str | None
    similarity: float
    section_index: int  # index into the comparison's sections (existing ones first)


@dataclass
class Decision:
    """What happens to one entry. ``entry`` is the FINAL entry: its action after comparison,
    ``merge_target_title`` = the exact existing heading title for merges, and the bullets to write."""

    entry: Entry
    proposed_action: Action
    reason: str
    fallback: bool = False  # a merge that became an add
    closest_title: str | None = None
    closest_time: str | None = None
    similarity: float = 0.0  # title similarity to closest_title ("title sim 0.xx")
    content_similarity: float | None = None
    duplicate_bullets: int = 0  # bullets dropped because the target already has them
    requested_target: str | None = None  # merge_target_title as proposed
    target_match: TargetMatch | None = None
    target_section: int | None = None  # index into MemoryDocument.sections, for merges
    matches: list[Match] = field(default_factory=list)  # up to 2 headings ≥ SHOW_MATCH_THRESHOLD

    @property
    def action(self) -> Action:
        return self.entry.action

    @property
    def candidate_index(self) -> int:
        return self.entry.candidate_index

    @property
    def is_duplicate_skip(self) -> bool:
        """An add the comparer found already saved."""
        return self.reason.startswith("duplicate:")

    @property
    def is_comparer_skip(self) -> bool:
        """An add the comparer turned into skip (the merge JSON's ``fallbackSkipped``)."""
        return self.is_duplicate_skip or self.reason == REASON_EMPTY


class _IndexBase:
    """Normalized views of a document's sections; computed once per :func:`plan`, never mutated."""

    def __init__(self, document: MemoryDocument) -> None:
        sections = document.sections
        self.titles = [section.title for section in sections]
        self.times: list[str | None] = [section.time for section in sections]
        self.compact_titles = compact_many(self.titles)
        self.bullets: list[list[str]] = [section.bullets for section in sections]
        keys = bullet_keys([bullet for section in sections for bullet in section.bullets])
        owners = [number for number, section in enumerate(sections) for _ in section.bullets]
        # reversed, so the first section holding a bullet wins; "" (nothing left) is no bullet
        self.section_of_bullet: dict[str, int] = dict(zip(reversed(keys), reversed(owners), strict=True))
        self.section_of_bullet.pop("", None)
        self.title_lookup: dict[str, int] = {}
        for number, title in enumerate(self.compact_titles):
            self.title_lookup.setdefault(title, number)


class _Index:
    """One plan's view: the document's index plus what earlier entries of the batch add.

    Shallow copies; a section's bullet list or key set is replaced, never changed in place,
    so the base stays as built.
    """

    def __init__(self, document: MemoryDocument) -> None:
        base = _IndexBase(document)
        self.titles = list(base.titles)
        self.times = list(base.times)
        self.compact_titles = list(base.compact_titles)
        self.bullets = list(base.bullets)
        self.section_of_bullet = dict(base.section_of_bullet)
        self.title_lookup = base.title_lookup  # existing headings only; read-only
        self.existing_count = len(base.titles)
        self._compact_bullets: dict[int, list[str]] = {}

    def compact_bullets(self, number: int) -> list[str]:
        if number not in self._compact_bullets:
            self._compact_bullets[number] = compact_many(self.bullets[number])
        return self._compact_bullets[number]

    def closest(
        self, compact_title: str, limit: int = SCREEN_TOP_K, existing_only: bool = False
    ) -> list[Match]:
        """Headings most like ``compact_title``, best first (ties: earlier section first)."""
        choices = self.compact_titles[: self.existing_count] if existing_only else self.compact_titles
        if not compact_title or not choices:
            return []
        screened = process.extract(
            compact_title, choices, scorer=fuzz.token_sort_ratio, processor=None, limit=limit
        )
        scored = [
            Match(self.titles[number], self.times[number], compact_similarity(compact_title, choice), number)
            for choice, _, number in screened
        ]
        scored.sort(key=lambda match: (-match.similarity, match.section_index))
        return scored

    def add_section(self, entry: Entry, compact_title: str, keys: list[str]) -> None:
        number = len(self.titles)
        self.titles.append(entry.title)
        self.times.append(None)
        self.compact_titles.append(compact_title)
        self.bullets.append(list(entry.bullets))
        for key in keys:
            if key:
                self.section_of_bullet.setdefault(key, number)

    def add_bullets(self, number: int, bullets: list[str], keys: list[str]) -> None:
        self.bullets[number] = [*self.bullets[number], *bullets]
        self._compact_bullets.pop(number, None)
        for key in keys:
            if key:
                self.section_of_bullet.setdefault(key, number)


def plan(
    entries: list[Entry],
    memory: str | MemoryDocument | None,
    *,
    allow_merge: bool = True,
) -> list[Decision]:
    """Decide add / merge / skip for each entry against today's memory (see the module doc)."""
    document = memory if isinstance(memory, MemoryDocument) else MemoryDocument.parse(memory)
    index = _Index(document)
    titles = compact_many([entry.title for entry in entries])
    return [_decide(entry, title, index, allow_merge) for entry, title in zip(entries, titles, strict=True)]


def _decide(entry: Entry, compact_title: str, index: _Index, allow_merge: bool) -> Decision:
    if entry.action == "skip":
        return _agent_skip(entry, compact_title, index)
    if entry.action == "merge":
        if not allow_merge or not entry.merge_target_title:
            return _add(entry, compact_title, index, fallback_reason=REASON_MERGE_DISALLOWED)
        return _merge(entry, compact_title, index)
    return _add(entry, compact_title, index)


def _agent_skip(entry: Entry, compact_title: str, index: _Index) -> Decision:
    best = next(iter(index.closest(compact_title, limit=SCREEN_TOP_K)), None)
    decision = Decision(entry=replace(entry, action="skip"), proposed_action="skip", reason=REASON_AGENT_SKIP)
    if best is not None and best.similarity >= SHOW_CLOSEST_SKIP_THRESHOLD:
        decision.closest_title, decision.closest_time, decision.similarity = (
            best.title,
            best.time,
            best.similarity,
        )
    return decision


def _merge(entry: Entry, compact_title: str, index: _Index) -> Decision:
    requested = entry.merge_target_title or ""
    (target_compact,) = compact_many([requested])
    number = index.title_lookup.get(target_compact)
    match_kind: TargetMatch = "exact"
    similarity = 1.0
    if number is None or number >= index.existing_count:
        number = None
        best = next(iter(index.closest(target_compact, existing_only=True)), None)
        if best is not None and best.similarity >= MERGE_TARGET_THRESHOLD:
            number, match_kind, similarity = best.section_index, "closest", best.similarity
    if number is None:
        return _add(entry, compact_title, index, fallback_reason=REASON_TARGET_MISSING)

    keys = bullet_keys(entry.bullets)
    new_bullets: list[str] = []
    new_keys: list[str] = []
    seen: set[str] = set()
    for bullet, key in zip(entry.bullets, keys, strict=True):
        if key and key not in seen and key not in index.section_of_bullet:
            seen.add(key)
            new_bullets.append(bullet)
            new_keys.append(key)
    target_title = index.titles[number]
    decision = Decision(
        entry=replace(entry, action="merge", bullets=new_bullets, merge_target_title=target_title),
        proposed_action="merge",
        reason=REASON_MERGED,
        closest_title=target_title,
        closest_time=index.times[number],
        similarity=similarity,
        duplicate_bullets=len(entry.bullets) - len(new_bullets),
        requested_target=requested,
        target_match=match_kind,
        target_section=number,
    )
    if not new_bullets:
        decision.entry = replace(entry, action="skip", merge_target_title=target_title)
        decision.reason = REASON_ALL_BULLETS_DUPLICATE
        return decision
    index.add_bullets(number, new_bullets, new_keys)
    return decision


def _add(entry: Entry, compact_title: str, index: _Index, fallback_reason: str | None = None) -> Decision:
    fallback = fallback_reason is not None
    proposed: Action = "merge" if fallback else "add"
    requested = entry.merge_target_title if fallback else None
    matches = index.closest(compact_title)
    shown = [match for match in matches[:2] if match.similarity >= SHOW_MATCH_THRESHOLD]
    bullets, keys = _distinct_bullets(entry.bullets)
    if not compact_title or not bullets:
        return Decision(
            entry=replace(entry, action="skip", merge_target_title=None),
            proposed_action=proposed,
            reason=REASON_EMPTY,
            fallback=fallback,
            requested_target=requested,
        )
    entry = replace(entry, bullets=bullets)
    present = keys

    duplicate = _duplicate_of(entry, matches, index) or _restated_in_other_language(entry, matches, index)
    if (
        duplicate is None
        and present
        and all(key in index.section_of_bullet for key in present)
        and not _says_more(entry, index.section_of_bullet[present[0]], index)
    ):
        holder = index.section_of_bullet[present[0]]
        title_sim = compact_similarity(compact_title, index.compact_titles[holder])
        duplicate = (
            Match(index.titles[holder], index.times[holder], title_sim, holder),
            1.0,
            REASON_DUPLICATE_BULLETS,
        )
    if duplicate is not None and _says_more(entry, duplicate[0].section_index, index):
        # A fact is never dropped for looking like another fact: new values are new information.
        match = duplicate[0]
        if match.section_index < index.existing_count and not _other_subject(
            entry.title, index.titles[match.section_index]
        ):
            updated = _update(entry, proposed, match, index, requested)
            if updated is not None:
                return updated
        else:
            duplicate = None
    if duplicate is not None:
        match, content, reason = duplicate
        return Decision(
            entry=replace(entry, action="skip", merge_target_title=None),
            proposed_action=proposed,
            reason=reason,
            fallback=fallback,
            closest_title=match.title,
            closest_time=match.time,
            similarity=match.similarity,
            content_similarity=content,
            requested_target=requested,
            matches=shown,
        )

    best = matches[0] if matches else None
    decision = Decision(
        entry=replace(entry, action="add", merge_target_title=None),
        proposed_action=proposed,
        reason=fallback_reason or REASON_ADDED,
        fallback=fallback,
        requested_target=requested,
        matches=shown,
    )
    if best is not None:
        decision.closest_title, decision.closest_time, decision.similarity = (
            best.title,
            best.time,
            best.similarity,
        )
    index.add_section(entry, compact_title, keys)
    return decision


_LATIN_WORD = re.compile(r"[a-z][a-z0-9]{2,}")


def _restated_in_other_language(
    entry: Entry, matches: list[Match], index: _Index
) -> tuple[Match, float, str] | None:
    """ "Redis 端口是 6379" under "Redis port / - Redis listens on 6379": the same values, and no
    word of its own in the section's language — a restatement the wording scores cannot see."""
    text = " ".join([entry.title, *entry.bullets])
    mine = values(text)
    if not any(any(c.isdigit() for c in value) or len(value) > 4 for value in mine):
        return None
    words = set(_LATIN_WORD.findall(text.casefold())) - mine
    for match in matches:
        if match.similarity < SHOW_MATCH_THRESHOLD and len(mine) < 2:
            continue
        section_text = " ".join([index.titles[match.section_index], *index.bullets[match.section_index]])
        if has_cjk(section_text) == has_cjk(text):
            continue  # the same language: the wording scores decide
        folded = section_text.casefold()
        if all(value in folded for value in mine) and all(word in folded for word in words):
            return match, 1.0, REASON_DUPLICATE_SECTION
    return None


def _says_more(entry: Entry, number: int, index: _Index) -> bool:
    """The entry holds a value section ``number`` lacks, or one of its bullets extends a saved one."""
    section_text = " ".join([index.titles[number], *index.bullets[number]])
    have = values(section_text)
    folded = section_text.casefold()
    for value in values(" ".join([entry.title, *entry.bullets])):
        if value in have or (not value.replace(":", "").replace(".", "").isdigit() and value in folded):
            continue
        return True
    saved = [bullet for bullet in index.compact_bullets(number) if bullet]
    return any(_extends(bullet, saved) for bullet in compact_many(entry.bullets) if bullet)


def _extends(bullet: str, saved: list[str]) -> bool:
    """ "test, tag, push, then notify #ops" extends "test, tag, push": it holds the saved bullet and more."""
    grams = bigrams(bullet)
    for old in saved:
        old_grams = bigrams(old)
        total = old_grams.total()
        if not total or len(bullet) < EXTENDS_GROWTH * len(old):
            continue
        held = sum(min(count, grams[gram]) for gram, count in old_grams.items())
        if held >= EXTENDS_COVERAGE * total:
            return True
    return False


def _other_subject(title: str, section_title: str) -> bool:
    """The two titles differ by a value each has ("Server 2 IP" / "Server 1 IP"): two subjects."""
    mine, theirs = values(title), values(section_title)
    return bool(mine - theirs) and bool(theirs - mine)


def _update(
    entry: Entry, proposed: Action, match: Match, index: _Index, requested: str | None
) -> Decision | None:
    """Merge the bullets the section lacks: the changed value goes under the section it updates.
    None when every bullet is already saved (only the title differed)."""
    number = match.section_index
    keys = bullet_keys(entry.bullets)
    fresh = [(b, k) for b, k in zip(entry.bullets, keys, strict=True) if k not in index.section_of_bullet]
    if not fresh:
        return None
    title = index.titles[number]
    decision = Decision(
        entry=replace(
            entry,
            action="merge",
            bullets=[b for b, _ in fresh],
            merge_target_title=title,
            reason=f'Updates "{title}": it holds a value that section does not have yet.',
        ),
        proposed_action=proposed,
        reason=REASON_UPDATED,
        closest_title=title,
        closest_time=index.times[number],
        similarity=match.similarity,
        duplicate_bullets=len(entry.bullets) - len(fresh),
        requested_target=requested,
        target_section=number,
    )
    index.add_bullets(number, [b for b, _ in fresh], [k for _, k in fresh])
    return decision


def _distinct_bullets(bullets: list[str]) -> tuple[list[str], list[str]]:
    """The bullets worth writing (non-empty once normalized, first of each key) and their keys."""
    kept: list[str] = []
    keys: list[str] = []
    for bullet, key in zip(bullets, bullet_keys(bullets), strict=True):
        if key and key not in keys:
            kept.append(bullet)
            keys.append(key)
    return kept, keys


def _duplicate_of(entry: Entry, matches: list[Match], index: _Index) -> tuple[Match, float, str] | None:
    """The first close heading whose section nearly duplicates the entry, with its content similarity."""
    entry_bullets: list[str] | None = None
    for match in matches:
        if match.similarity < SHOW_MATCH_THRESHOLD:
            break
        if entry_bullets is None:
            entry_bullets = [bullet for bullet in compact_many(entry.bullets) if bullet]
        content = content_similarity(entry_bullets, index.compact_bullets(match.section_index))
        if (match.similarity >= DUPLICATE_TITLE_THRESHOLD and content >= DUPLICATE_CONTENT_THRESHOLD) or (
            content >= STRONG_CONTENT_THRESHOLD
        ):
            return match, content, REASON_DUPLICATE_SECTION
    return None


def content_similarity(new_bullets: list[str], existing_bullets: list[str]) -> float:
    """Mean, over the new bullets, of the similarity to their closest existing bullet (compact texts)."""
    existing = [bullet for bullet in existing_bullets if bullet]
    if not new_bullets or not existing:
        return 0.0
    total = 0.0
    for bullet in new_bullets:
        screened = process.extract(bullet, existing, scorer=fuzz.token_sort_ratio, processor=None, limit=3)
        total += max(compact_similarity(bullet, choice) for choice, _, _ in screened)
    return round(total / len(new_bullets), 4)
