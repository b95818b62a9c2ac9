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

BOM = "\ufeff"
_HEADING_TIME = re.compile(r"^(\d{2}:\d{2})\s*-\s*")
MERGE_MARKER = re.compile(r"^\(merged \d{2}:\d{2}\)$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def split_lines(text: str) -> list[str]:
    """Raw lines, each with its own ending ("\\r\\n", "\\n", or none for an unterminated last line)."""
    if not text:
        return []
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


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
    crlf = lf = 0
    for raw in lines:
        if raw.endswith("\r\n"):
            crlf += 1
        elif raw.endswith("\n"):
            lf += 1
    return "\r\n" if crlf > lf else "\n"


@dataclass
class Section:
    """One ``## `` section; line numbers index :attr:`MemoryDocument.lines` (0-based)."""

    title: str  # without "## " and without "HH:MM - "
    time: str | None  # "HH:MM" or None
    heading_line: int
    bullets: list[str] = field(default_factory=list)  # bullet texts, merge marker excluded
    bullet_lines: list[int] = field(default_factory=list)
    last_bullet_line: int = -1  # where merged bullets go after; the heading when no bullets
    marker_line: int | None = None  # the trailing "- (merged HH:MM)" bullet, when last

    @property
    def heading(self) -> str:
        return f"{self.time} - {self.title}" if self.time else self.title

    def to_model(self) -> MemorySection:
        return MemorySection(title=self.title, bullets=tuple(self.bullets), time=self.time)


@dataclass
class MemoryDocument:
    """A parsed memory file. ``text`` is exactly the input; ``lines`` join back to it."""

    text: str
    lines: list[str]
    sections: list[Section]
    newline: str
    open_fence: str | None = None  # the fence run when the file ends inside an unclosed code block

    @classmethod
    def parse(cls, text: str | None) -> MemoryDocument:
        text = text or ""
        lines = split_lines(text)
        sections, open_fence = _parse_sections(lines)
        return cls(
            text=text, lines=lines, sections=sections, newline=detect_newline(lines), open_fence=open_fence
        )

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
    sections: list[Section] = []
    current: Section | None = None
    fence: str | None = None  # the opening fence run ("```", "~~~~"…) while inside a block
    for index, raw in enumerate(lines):
        content = raw.rstrip()  # like the Node script's trimEnd(): drops "\r\n" and trailing blanks
        if index == 0 and content.startswith(BOM):
            content = content[1:]
        if fence is not None:
            if _closes_fence(content, fence):
                fence = None
            continue
        if content.startswith("## "):
            current = _new_section(content, index)
            sections.append(current)
            continue
        if content.startswith(("```", "~~~", " ")):
            opened = _FENCE.match(content)
            if opened:
                fence = opened.group(1)
                continue
        if current is not None and content.startswith("- "):
            _add_bullet(current, content[2:].strip(), index)
    return sections, fence


def _closes_fence(content: str, fence: str) -> bool:
    stripped = content.strip()
    return (
        stripped.startswith(fence[0] * len(fence))
        and not stripped.strip(fence[0])
        and len(content) - len(content.lstrip(" ")) <= 3
    )


def _new_section(content: str, index: int) -> Section:
    heading = content[3:].strip()
    match = _HEADING_TIME.match(heading)
    time = match.group(1) if match else None
    title = heading[match.end() :].strip() if match else heading
    return Section(title=title, time=time, heading_line=index, last_bullet_line=index)


def _add_bullet(section: Section, text: str, index: int) -> None:
    section.last_bullet_line = index
    if MERGE_MARKER.match(text):
        section.marker_line = index
        return
    section.marker_line = None  # only a marker that is the last bullet counts
    section.bullets.append(text)
    section.bullet_lines.append(index)
