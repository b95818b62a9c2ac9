"""The shared vocabulary of savenow: messages, entries, sections.

These are plain dataclasses, not pydantic models, on purpose: the script
drop-ins (``savenow preview-diff`` …) import this module and must start as
fast as the Node scripts they replace; importing pydantic alone costs ~50 ms.
Validation of the entries JSON (DESIGN §5.2) is done by :func:`parse_entries`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import BadInputError
from .messages import Localized, Text, text
from .text.safety import clean_surrogates, redact
from .vocabulary import Role

Action = Literal["add", "merge", "skip"]
ACTIONS: tuple[str, ...] = ("add", "merge", "skip")

MAX_ENTRIES = 5
MAX_TITLE_CHARS = 200
MAX_BULLET_CHARS = 1000
MAX_BULLETS = 10


@dataclass(frozen=True)
class ChatMessage:
    """One cleaned transcript message (DESIGN §4)."""

    role: Role
    text: str
    timestamp: str | None = None  # ISO-8601 when the store has one


@dataclass(frozen=True)
class MemorySection:
    """A ``## `` section of today's memory file as extractors see it."""

    title: str  # heading text without "## " and without the "HH:MM - " prefix
    bullets: tuple[str, ...] = ()
    time: str | None = None  # "HH:MM" when the heading has one


@dataclass
class Entry:
    """What an extractor proposes (DESIGN §5.2)."""

    title: str
    bullets: list[str]
    action: Action = "add"
    merge_target_title: str | None = None
    reason: str | None = None
    candidate_index: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "candidate_index": self.candidate_index,
            "title": self.title,
            "bullets": list(self.bullets),
            "action": self.action,
            "merge_target_title": self.merge_target_title,
            "reason": self.reason,
        }


@dataclass
class DroppedEntry:
    """An entry an extractor or the comparer refused, with the reason shown in the preview."""

    title: str
    reason: str | Localized  # a catalog Text (or an error), rendered in the reader's language


@dataclass
class ExtractionResult:
    entries: list[Entry]
    dropped: list[DroppedEntry] = field(default_factory=list)
    # e.g. "LLM failed; used the offline extractor": a catalog Text, rendered in the reader's language
    notices: list[str | Localized] = field(default_factory=list)
    usage: dict[str, int] | None = None  # token usage reported by an LLM server


def _clean_text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise BadInputError(Text("entries.not_string", what=what))
    value = clean_surrogates(value)  # half an emoji from a JS slice never reaches a file
    text = " ".join(value.split()) if "\n" in value else value.strip()
    if len(text) > limit:
        raise BadInputError(Text("entries.too_long", what=what, length=len(text), limit=limit))
    return text


def parse_entry(raw: Any, index: int) -> Entry | None:
    """One item of the entries JSON; None when it has no title or no bullets (dropped)."""
    where = f"entries[{index}]"
    if not isinstance(raw, dict):
        raise BadInputError(Text("entries.not_object", where=where))
    title = _clean_text(raw.get("title", ""), f"{where}.title", MAX_TITLE_CHARS)
    bullets_raw = raw.get("bullets", [])
    if isinstance(bullets_raw, str):
        bullets_raw = [bullets_raw]
    if not isinstance(bullets_raw, list):
        raise BadInputError(Text("entries.bullets_not_list", where=where))
    if len(bullets_raw) > MAX_BULLETS:
        raise BadInputError(
            Text("entries.too_many_bullets", where=where, count=len(bullets_raw), limit=MAX_BULLETS)
        )
    bullets = [
        b
        for i, item in enumerate(bullets_raw)
        if (b := _clean_text(item, f"{where}.bullets[{i}]", MAX_BULLET_CHARS).removeprefix("- ").strip())
    ]
    if not title or not bullets:
        return None
    action = raw.get("action") or "add"
    if action not in ACTIONS:
        raise BadInputError(Text("entries.bad_action", where=where, action=action))
    target = raw.get("merge_target_title")
    if target is not None:
        target = _clean_text(target, f"{where}.merge_target_title", MAX_TITLE_CHARS) or None
    reason = raw.get("reason")
    if reason is not None:
        reason = _clean_text(reason, f"{where}.reason", MAX_BULLET_CHARS) or None
    candidate_index = raw.get("candidate_index", index)
    if not isinstance(candidate_index, int) or isinstance(candidate_index, bool):
        candidate_index = index
    return Entry(
        title=title,
        bullets=bullets,
        action=action,  # type: ignore[arg-type]  # one of ACTIONS, checked above
        merge_target_title=target,
        reason=reason,
        candidate_index=candidate_index,
    )


def parse_entries(data: Any) -> list[Entry]:
    """Validate the entries JSON (a list, or ``{"entries": [...]}``, or one bare entry).

    Raises :class:`BadInputError` with a specific message on the wrong shape;
    silently drops entries without a title or bullets (DESIGN §5.2).
    """
    if isinstance(data, dict) and "entries" in data:
        data = data["entries"]
    elif isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise BadInputError(Text("entries.not_array"))
    entries = [e for i, raw in enumerate(data) if (e := parse_entry(raw, i)) is not None]
    return entries


def redact_entries(entries: list[Entry], known: Iterable[str] = ()) -> tuple[list[Entry], int]:
    """The entries with configured secrets and key-shaped strings replaced; and how many were."""
    secrets = [secret for secret in known if secret]
    total = 0

    def scrub(text: str) -> str:
        nonlocal total
        cleaned, count = redact(text, secrets)
        total += count
        return cleaned

    for entry in entries:
        entry.title = scrub(entry.title)
        entry.bullets = [scrub(bullet) for bullet in entry.bullets]
        if entry.reason:
            entry.reason = scrub(entry.reason)
        if entry.merge_target_title:
            entry.merge_target_title = scrub(entry.merge_target_title)
    return entries, total


def redaction_notice(count: int, lang: str = "en") -> str:
    """The preview line saying secrets were taken out, in the reader's language."""
    return text("preview.redacted", lang, count=count)
