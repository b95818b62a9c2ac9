"""Write entries into a memory file: lock, re-read, re-plan, apply, atomic write, journal (DESIGN §8).

Re-planning under the lock against the CURRENT content is what makes a write
safe after the file changed (a preview before an edit, two writers at once)
and idempotent (a second write of the same entries finds everything present
and writes nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from ..models import Entry
from ..storage.files import read_exact, refuse_memory_md, sha256_text
from ..storage.journal import SETTLE_TAIL_BYTES, WriteRecord, journaled_write, settle
from ..storage.locks import file_lock
from ..storage.targets import check_regular_or_missing
from .compare import Decision, plan
from .document import MemoryDocument
from .merge import apply_decisions

_UNSET: Any = object()


@dataclass
class WriteOutcome:
    """The result of one write, with the merge JSON of DESIGN §6 (:meth:`to_json`)."""

    memory_path: Path
    decisions: list[Decision] = field(default_factory=list)
    written: bool = False
    created_file: bool = False
    already_applied: bool = False  # a pending preview applied before; nothing was written now
    rebased: bool = False  # the file changed since the preview; entries were re-applied to it
    inserted_lines: int = 0
    journal_id: str | None = None
    applied_at: str | None = None  # already applied: when
    undone_since: bool = False  # already applied, and `savenow undo` has taken that write out since
    added_titles: list[str] = field(default_factory=list)
    skipped_titles: list[str] = field(default_factory=list)
    merged_titles: list[str] = field(default_factory=list)
    merged_bullets: int = 0
    fallback_added: list[str] = field(default_factory=list)
    fallback_skipped: list[str] = field(default_factory=list)
    reason_by_title: dict[str, str] = field(default_factory=dict)

    @property
    def added(self) -> int:
        return len(self.added_titles)

    @property
    def skipped(self) -> int:
        return len(self.skipped_titles)

    @property
    def merged(self) -> int:
        return len(self.merged_titles)

    @classmethod
    def from_decisions(cls, memory_path: Path, decisions: list[Decision], **flags: Any) -> WriteOutcome:
        """Tally decisions the way the Node merge script does: comparer skips are ``fallbackSkipped``,
        not ``skipped``; merges fallen back to add are also ``fallbackAdded``."""
        outcome = cls(memory_path=memory_path, decisions=decisions, **flags)
        for decision in decisions:
            title = decision.entry.title
            outcome.reason_by_title[title] = decision.reason
            if decision.fallback:
                outcome.fallback_added.append(title)
            if decision.action == "add":
                outcome.added_titles.append(title)
            elif decision.action == "merge":
                outcome.merged_titles.append(title)
                outcome.merged_bullets += len(decision.entry.bullets)
            elif decision.is_comparer_skip:
                outcome.fallback_skipped.append(title)
            else:
                outcome.skipped_titles.append(title)
        return outcome

    def to_json(self) -> dict[str, Any]:
        return {
            "memoryPath": str(self.memory_path),
            "createdFile": self.created_file,
            "added": self.added,
            "skipped": self.skipped,
            "merged": self.merged,
            "mergedBullets": self.merged_bullets,
            "addedTitles": list(self.added_titles),
            "skippedTitles": list(self.skipped_titles),
            "mergedTitles": list(self.merged_titles),
            "fallbackAdded": list(self.fallback_added),
            "fallbackSkipped": list(self.fallback_skipped),
            "reasonByTitle": dict(self.reason_by_title),
        }


def write_entries(
    memory_path: Path,
    entries: list[Entry],
    *,
    workspace: Path,
    now: datetime,
    day: date,
    allow_merge: bool = True,
    base_sha256: str | None = _UNSET,
) -> WriteOutcome:
    """Apply ``entries`` to ``memory_path`` under its lock; writes (and journals) only if something changes.

    ``base_sha256`` (the file's hash at preview time, None for "did not exist")
    only sets :attr:`WriteOutcome.rebased`; the entries are always re-planned
    against the current content, so nothing stale is ever written back.
    """
    refuse_memory_md(memory_path)
    check_regular_or_missing(memory_path)
    with file_lock(memory_path, workspace):
        check_regular_or_missing(memory_path)
        before = read_exact(memory_path)
        # A write a kill interrupted is settled first, so the journal matches the file undo will see.
        settle(workspace, memory_path, before, tail_bytes=SETTLE_TAIL_BYTES)
        document = MemoryDocument.parse(before)
        decisions = plan(entries, document, allow_merge=allow_merge)
        result = apply_decisions(document, decisions, now=now, day=day)
        rebased = base_sha256 is not _UNSET and sha256_text(before) != base_sha256
        if not result.changed:
            return WriteOutcome.from_decisions(memory_path, decisions, rebased=rebased)
        record = WriteRecord(
            memory_path=str(memory_path.absolute()),
            before_sha256=sha256_text(before),
            after_sha256=sha256_text(result.text) or "",
            hunks=result.hunks,
            time=now.isoformat(),
            titles=[d.entry.title for d in decisions if d.action in ("add", "merge")],
        )
        journaled_write(workspace, memory_path, result.text, record)
    return WriteOutcome.from_decisions(
        memory_path,
        decisions,
        written=True,
        created_file=before is None,
        rebased=rebased,
        inserted_lines=result.inserted_lines,
        journal_id=record.id,
    )
