"""Apply add / merge decisions to a memory document, as insertions only (DESIGN §5.3).

* add → ``## HH:MM - Title`` and its ``- bullet`` lines at the end of the
  file, one blank line before; a file with no content first gets
  ``# YYYY-MM-DD`` and a blank line.
* merge → the new bullets right after the target section's last bullet, then
  ``- (merged HH:MM)``; a merge marker that is already the section's last
  bullet is replaced, not stacked. Several entries merging into one section
  share one marker.
* A file that ends inside an unclosed code fence gets the closing fence
  before the new sections (otherwise they would be code, and invisible).
* Every other byte stays: new lines use the file's own line ending; an
  unterminated last line only gains the ending it needs to be followed.

The changes are also returned as :class:`Hunk` s (raw old lines → raw new lines
at a position of the new file), which the journal keeps so ``undo`` can take
exactly those lines out again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from ..storage.journal import Hunk
from .compare import Decision
from .document import MemoryDocument, line_content, line_ending


@dataclass
class MergeResult:
    text: str  # the whole new file
    hunks: list[Hunk] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.hunks)

    @property
    def inserted_lines(self) -> int:
        return sum(hunk.inserted for hunk in self.hunks)


@dataclass
class _Op:
    """What happens at one original line: an optional replacement, then insertions after it."""

    replace: list[str] | None = None
    insert: list[str] = field(default_factory=list)


def one_line(text: str) -> str:
    """Titles and bullets are one line each in the file, whatever the caller passed."""
    return " ".join(text.splitlines()) if ("\n" in text or "\r" in text) else text


def heading_line(title: str, now: datetime) -> str:
    return f"## {now:%H:%M} - {one_line(title)}"


def merge_marker(now: datetime) -> str:
    return f"- (merged {now:%H:%M})"


def apply_decisions(
    document: MemoryDocument, decisions: list[Decision], *, now: datetime, day: date
) -> MergeResult:
    """The new file text for ``decisions`` (from :func:`savenow.memory.compare.plan` on ``document``)."""
    nl = document.newline
    ops: dict[int, _Op] = {}
    _plan_merges(document, decisions, ops, nl, now)
    adds = [decision.entry for decision in decisions if decision.action == "add"]
    head: list[str] = []
    if adds:
        blocks: list[str] = []
        for number, entry in enumerate(adds):
            if number:
                blocks.append(nl)
            blocks.append(heading_line(entry.title, now) + nl)
            blocks.extend(f"- {one_line(bullet)}{nl}" for bullet in entry.bullets)
        if document.is_blank:
            blocks = [f"# {day.isoformat()}{nl}", nl, *blocks]
        elif document.open_fence:
            # The file ends inside an unclosed code block: close it, or the new sections would be code.
            blocks = [document.open_fence + nl, nl, *blocks]
        if document.lines:
            separate = not document.is_blank and not document.open_fence
            _append_at_end(document, ops, blocks, nl, separate=separate)
        else:
            head = blocks
    return _render(document, ops, head)


def _plan_merges(
    document: MemoryDocument, decisions: list[Decision], ops: dict[int, _Op], nl: str, now: datetime
) -> None:
    by_section: dict[int, list[str]] = {}
    for decision in decisions:
        if decision.action != "merge" or decision.target_section is None:
            continue
        by_section.setdefault(decision.target_section, []).extend(decision.entry.bullets)
    for number, bullets in by_section.items():
        section = document.sections[number]
        anchor = section.last_bullet_line
        new_lines = [f"- {one_line(bullet)}{nl}" for bullet in bullets] + [merge_marker(now) + nl]
        op = ops.setdefault(anchor, _Op())
        if section.marker_line is not None and section.marker_line == anchor:
            op.replace = new_lines  # the old trailing marker goes; the new one takes its place
        else:
            raw = document.lines[anchor]
            if not line_ending(raw):
                op.replace = [raw + nl]
            op.insert.extend(new_lines)


def _append_at_end(
    document: MemoryDocument, ops: dict[int, _Op], blocks: list[str], nl: str, separate: bool
) -> None:
    last = len(document.lines) - 1
    op = ops.setdefault(last, _Op())
    tail = op.insert or op.replace or [document.lines[last]]
    if not line_ending(tail[-1]):  # only the original last line can lack an ending
        op.replace = [document.lines[last] + nl]
        tail = op.replace
    if separate and line_content(tail[-1]).strip():
        op.insert.append(nl)
    op.insert.extend(blocks)


def _render(document: MemoryDocument, ops: dict[int, _Op], head: list[str]) -> MergeResult:
    """Untouched runs of lines are copied as slices; only the changed places are visited."""
    lines = document.lines
    out: list[str] = list(head)
    hunks: list[Hunk] = [Hunk(at=0, old=[], new=list(head))] if head else []
    copied = 0
    for number in sorted(ops):
        op = ops[number]
        out.extend(lines[copied:number])
        if op.replace is not None:
            hunks.append(Hunk(at=len(out), old=[lines[number]], new=op.replace + op.insert))
            out.extend(op.replace)
        else:
            out.append(lines[number])
            if op.insert:
                hunks.append(Hunk(at=len(out), old=[], new=list(op.insert)))
        out.extend(op.insert)
        copied = number + 1
    out.extend(lines[copied:])
    return MergeResult(text="".join(out), hunks=hunks)
