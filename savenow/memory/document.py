"""The daily memory file ``memory/YYYY-MM-DD.md`` as lines and sections (DESIGN §5.3).

The file is kept as raw lines *with* their endings, so writing it back is
byte-exact: CRLF and LF (even mixed), a BOM, a missing final newline, and any
text outside sections all survive. Only ``\\n`` ends a line (a lone ``\\r``
stays part of the line's text).

A section is a ``## `` heading, optionally ``## HH:MM - Title``; its bullets
are the ``- `` lines under it (not indented). Lines inside fenced code blocks
(`````` ``` `````` or ``~~~``) are neither headings nor bullets. A trailing
``- (merged HH:MM)`` bullet is the merge marker, not content.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..models import MemorySection
from ..text.lines import split_lines

BOM = "\ufeff"
MERGE_MARKER = re.compile(r"^\(merged \d{2}:\d{2}\)$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_FENCE_OR_INDENT = ("`", "~", " ")


def line_content(raw: str) -> str:
    """A raw line without its ending."""
    if raw.endswith("\r\n"):
        return raw[:-2]
    if raw.endswith("\n"):
        return raw[:-1]
    return raw


def line_ending(raw: str) -> str:
    if raw.endswith("\r\n"):
        return "\r\n"
    if raw.endswith("\n"):
        return "\n"
    return ""


def detect_newline(lines: list[str]) -> str:
    """The file's own line ending: CRLF when most terminated lines use it, else LF."""
    text = "".join(lines)
    crlf = text.count("\r\n")
    return "\r\n" if crlf > text.count("\n") - crlf else "\n"


@dataclass(slots=True)
class Section:
    """One ``## `` section; line numbers index :attr:`MemoryDocument.lines` (0-based)."""

    title: str  # without "## " and without "HH:MM - "
    time: str | None  # "HH:MM" or None
    heading_line: int
    bullets: list[str] = field(default_factory=list)  # bullet texts, merge markers excluded
    last_bullet_line: int = -1  # where merged bullets go after; the heading when no bullets
    marker_line: int | None = None  # the trailing "- (merged HH:MM)" bullet, when last

    @property
    def heading(self) -> str:
        return f"{self.time} - {self.title}" if self.time else self.title

    def to_model(self) -> MemorySection:
        return MemorySection(title=self.title, bullets=tuple(self.bullets), time=self.time)


@dataclass
class MemoryDocument:
    """A parsed memory file. ``text`` is exactly the input; ``lines`` join back to it.

    Treat it as immutable: a caller that parsed a file once (the service, for a preview)
    hands the same object to the extractor and the comparer.
    """

    text: str
    lines: list[str]
    sections: list[Section]
    newline: str
    open_fence: str | None = None  # the fence run when the file ends inside an unclosed code block

    @classmethod
    def parse(cls, text: str | None) -> MemoryDocument:
        """Parse ``text`` (None = no file)."""
        text = text or ""
        lines = split_lines(text)
        sections, open_fence = _parse_sections(lines)
        crlf = text.count("\r\n")
        newline = "\r\n" if crlf > text.count("\n") - crlf else "\n"
        return cls(text=text, lines=lines, sections=sections, newline=newline, open_fence=open_fence)

    @property
    def has_bom(self) -> bool:
        return self.text.startswith(BOM)

    @property
    def is_blank(self) -> bool:
        """Nothing but whitespace (and maybe a BOM): a new file's header is still due."""
        return not self.text.lstrip(BOM).strip()

    def memory_sections(self) -> list[MemorySection]:
        """What extractors see: title, time, bullets (merge markers left out)."""
        return [section.to_model() for section in self.sections]

    def content(self, index: int) -> str:
        return line_content(self.lines[index])


def _parse_sections(lines: list[str]) -> tuple[list[Section], str | None]:
    """Sections and, when the file ends inside a code block, its open fence.

    A hot loop (2,000-section files): lines are classified by their first
    character, and only headings pay for ``rstrip``. Like the Node script's
    ``trimEnd()``, a heading or bullet with nothing after its marker is none.
    """
    sections: list[Section] = []
    current: Section | None = None
    fence: str | None = None  # the opening fence run ("```", "~~~~"…) while inside a block
    for index, raw in enumerate(lines):
        if index == 0 and raw.startswith(BOM):
            raw = raw[1:]
        first = raw[:1]
        if fence is not None:
            if first in _FENCE_OR_INDENT and _closes_fence(raw.rstrip(), fence):
                fence = None
            continue
        if first == "-":
            if current is not None and raw[1:2] == " " and (text := raw[2:].strip()):
                current.last_bullet_line = index
                if text.startswith("(merged ") and MERGE_MARKER.match(text):
                    current.marker_line = index
                else:
                    current.marker_line = None  # only a marker that is the last bullet counts
                    current.bullets.append(text)
        elif first == "#":
            if raw.startswith("## ") and (content := raw.rstrip()).startswith("## "):
                current = _new_section(content, index)
                sections.append(current)
        elif first in _FENCE_OR_INDENT and (opened := _FENCE.match(raw)):
            fence = opened.group(1)
    return sections, fence


def _closes_fence(content: str, fence: str) -> bool:
    stripped = content.strip()
    return (
        stripped.startswith(fence[0] * len(fence))
        and not stripped.strip(fence[0])
        and len(content) - len(content.lstrip(" ")) <= 3
    )


def _new_section(content: str, index: int) -> Section:
    """``content`` is a heading line without trailing blanks; ``HH:MM - `` is split off by hand
    (this runs once per section, and a regex per heading is measurably slower)."""
    heading = content[3:].strip()
    if heading[2:3] == ":" and heading[:2].isdecimal() and heading[3:5].isdecimal():
        rest = heading[5:].lstrip()
        if rest.startswith("-"):
            return Section(rest[1:].strip(), heading[:5], index, [], index, None)
    return Section(heading, None, index, [], index, None)
