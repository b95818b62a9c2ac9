"""Markdown → search chunks (DESIGN §12): one per section, long sections split with overlap.

A section is a heading line (``#``/``##``) and the lines up to the next such heading; ``###`` and
deeper stay inside their section. A section longer than ``max_tokens`` is cut on line boundaries
into pieces of about ``max_tokens`` that overlap by about ``overlap_tokens``; each piece is
indexed with its section's heading in front, so "headings are indexed with their bullets" holds
for every piece. Line numbers are 1-based and inclusive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CHUNKER_VERSION", "Chunk", "chunk_markdown"]

# bump when the cut changes: the index is rebuilt. 2: the text toolkit's token estimate (emoji and other
# non-CJK characters from U+3000 up now cost 1/4 instead of 1).
CHUNKER_VERSION = 2
_SECTION_HEADING = re.compile(r"^#{1,2}\s+\S")


@dataclass(frozen=True)
class Chunk:
    """One searchable piece of a file: a section, or part of a long one."""

    start_line: int
    end_line: int
    text: str  # the lines start_line..end_line, exactly as in the file
    heading: str  # the section heading ("" for text before the first heading)

    @property
    def indexed_text(self) -> str:
        """What the index sees: a split piece carries its heading too."""
        if self.heading and not self.text.startswith(self.heading):
            return self.heading + "\n" + self.text
        return self.text

    @property
    def hash(self) -> str:
        import hashlib  # only when indexing: a search that changes nothing never needs OpenSSL

        return hashlib.sha256(self.indexed_text.encode("utf-8")).hexdigest()[:32]


def _sections(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) 0-based, end exclusive; text before the first heading is its own section."""
    starts = [i for i, line in enumerate(lines) if _SECTION_HEADING.match(line)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    return [(start, end) for start, end in zip(starts, starts[1:] + [len(lines)], strict=True)]


def _has_body(lines: list[str]) -> bool:
    return any(line.strip() and not _SECTION_HEADING.match(line) for line in lines)


def _split(lines: list[str], max_tokens: int, overlap_tokens: int) -> list[tuple[int, int]]:
    """Line windows of about ``max_tokens``, each starting ~``overlap_tokens`` before the last ended."""
    # Here, not at import: a search that indexes nothing never loads the token estimate
    # (savenow.text.tokens and savenow.text.cjk: ≈ 1–3 ms of every CLI search's start-up).
    from ..text.tokens import estimate_tokens

    costs = [max(1, estimate_tokens(line)) for line in lines]
    windows: list[tuple[int, int]] = []
    start = 0
    while start < len(lines):
        end, total = start, 0
        while end < len(lines) and (end == start or total + costs[end] <= max_tokens):
            total += costs[end]
            end += 1
        windows.append((start, end))
        if end >= len(lines):
            break
        back, carried = end, 0
        while back - 1 > start and carried + costs[back - 1] <= overlap_tokens:
            back -= 1
            carried += costs[back]
        start = back
    return windows


def chunk_markdown(text: str, *, max_tokens: int = 400, overlap_tokens: int = 80) -> list[Chunk]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    chunks: list[Chunk] = []
    for start, end in _sections(lines):
        section = lines[start:end]
        if not _has_body(section):
            continue  # a lone title or a blank preamble: nothing to find there
        heading = section[0] if _SECTION_HEADING.match(section[0]) else ""
        while section and not section[-1].strip():  # trailing blank lines are not part of the answer
            section = section[:-1]
        for w_start, w_end in _split(section, max_tokens, overlap_tokens):
            body = "\n".join(section[w_start:w_end])
            if not body.strip():
                continue
            chunks.append(Chunk(start + w_start + 1, start + w_end, body, heading))
    return chunks
