"""The preview Markdown (DESIGN §6) as Telegram HTML, in chunks that Telegram accepts.

Telegram rejects a message over 4,096 characters and any HTML whose tags do not
balance, so a long preview is cut into chunks of at most :data:`CHUNK_LIMIT`
characters, preferably at line ends; a tag still open at a cut is closed at
the end of one chunk and reopened at the start of the next, and an entity like
``&amp;`` is never cut. Lengths are counted in UTF-16 code units, as Telegram
counts them, so emoji outside the BMP cannot push a chunk over the limit.

Only the small Markdown subset the preview renderer writes is converted
(``### `` heading, ``**bold**``, ``_italic_`` at a line start, `` `code` ``,
``- `` bullets, ``---`` rules); everything else is escaped text, so a bullet
like ``use snake_case_names`` comes through unchanged.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

CHUNK_LIMIT = 4000  # Telegram's limit is 4,096; leave room for a status line
RULE = "──────────"

_TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)[^>]*>")
_TOKEN = re.compile(r"<[^>]*>|&#?\w+;|[^<&]+|[<&]")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE_SPAN = re.compile(r"`([^`]+)`")
_WHOLE_ITALIC = re.compile(r"^_(.+)_$")
_LEADING_ITALIC = re.compile(r"^_([^_]+?)_(?=[\s:]|$)")


def escape(text: str) -> str:
    """Text safe inside Telegram HTML (quotes need no escaping outside attributes)."""
    return html.escape(text, quote=False)


def telegram_length(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


# -- Markdown -> HTML ---------------------------------------------------------------------------


def markdown_to_html(markdown: str) -> str:
    """Convert the preview Markdown to Telegram HTML, line by line (tags never span lines)."""
    return "\n".join(_line_to_html(line) for line in markdown.replace("\r\n", "\n").split("\n"))


def _line_to_html(line: str) -> str:
    stripped = line.strip()
    if stripped == "---":
        return RULE
    if stripped.startswith("### "):
        return f"<b>{_inline(stripped[4:])}</b>"
    if stripped.startswith("- "):
        return "• " + _inline(stripped[2:])
    leading = _LEADING_ITALIC.match(stripped)
    if leading and leading.end() < len(stripped):  # "_compared against:_ (…)"
        return f"<i>{_inline(leading.group(1))}</i>" + _inline(stripped[leading.end() :])
    whole = _WHOLE_ITALIC.match(stripped)
    if whole:  # "_reason: …_", underscores inside are kept
        return f"<i>{_inline(whole.group(1))}</i>"
    return _inline(line)


def _inline(text: str) -> str:
    """Escape ``text``, turning `code` spans and **bold** into tags (no bold inside code)."""
    parts: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(text):
        parts.append(_bold(escape(text[position : match.start()])))
        parts.append(f"<code>{escape(match.group(1))}</code>")
        position = match.end()
    parts.append(_bold(escape(text[position:])))
    return "".join(parts)


def _bold(escaped: str) -> str:
    return _BOLD.sub(lambda m: f"<b>{m.group(1)}</b>", escaped)


# -- chunking -----------------------------------------------------------------------------------


@dataclass
class _OpenTag:
    name: str
    opening: str  # the tag as written, attributes included, to reopen it in the next chunk


@dataclass
class _Packer:
    """Greedy packing of HTML pieces into chunks, keeping every chunk's tags balanced."""

    limit: int
    chunks: list[str] = field(default_factory=list)
    body: str = ""
    stack: list[_OpenTag] = field(default_factory=list)
    has_text: bool = False  # the chunk holds more than reopened tags and whitespace

    def closing(self, stack: list[_OpenTag] | None = None) -> str:
        return "".join(f"</{tag.name}>" for tag in reversed(self.stack if stack is None else stack))

    def fits(self, piece: str) -> bool:
        after = _apply_tags(self.stack, piece)
        return (
            telegram_length(self.body) + telegram_length(piece) + telegram_length(self.closing(after))
            <= self.limit
        )

    def add(self, piece: str) -> None:
        self.body += piece
        self.stack = _apply_tags(self.stack, piece)
        if _visible(piece).strip():
            self.has_text = True

    def flush(self) -> None:
        if self.has_text:
            self.chunks.append((self.body + self.closing()).strip("\n"))
        self.body = "".join(tag.opening for tag in self.stack)
        self.has_text = False

    def add_unit(self, unit: str) -> None:
        """A line (with its newline): whole when it fits, else token by token."""
        if self.fits(unit):
            self.add(unit)
            return
        self.flush()
        if self.fits(unit):
            self.add(unit)
            return
        for token in _TOKEN.findall(unit):
            self.add_token(token)

    def add_token(self, token: str) -> None:
        if self.fits(token):
            self.add(token)
            return
        if token.startswith(("<", "&")) and len(token) > 1:
            self.flush()  # tags and entities are atomic
            self.add(token)
            return
        for piece in _text_pieces(token):
            if not self.fits(piece):
                self.flush()
            if self.fits(piece):
                self.add(piece)
            else:  # a word longer than a chunk: cut it by characters
                for char in piece:
                    if not self.fits(char):
                        self.flush()
                    self.add(char)


def chunk_html(text: str, limit: int = CHUNK_LIMIT) -> list[str]:
    """Split Telegram HTML into chunks of at most ``limit`` UTF-16 units, never inside a tag or entity."""
    if limit < 200:
        raise ValueError("chunk limit too small to hold reopened tags")
    packer = _Packer(limit)
    lines = text.split("\n")
    for index, line in enumerate(lines):
        packer.add_unit(line + ("\n" if index < len(lines) - 1 else ""))
    packer.flush()
    return packer.chunks


def _apply_tags(stack: list[_OpenTag], piece: str) -> list[_OpenTag]:
    result = list(stack)
    for match in _TAG.finditer(piece):
        closing, name = match.group(1), match.group(2).lower()
        if not closing:
            result.append(_OpenTag(name, match.group(0)))
            continue
        for position in range(len(result) - 1, -1, -1):
            if result[position].name == name:
                del result[position]
                break
    return result


def _visible(piece: str) -> str:
    return _TAG.sub("", piece)


def _text_pieces(text: str) -> list[str]:
    """Words with their trailing whitespace, so cuts fall between words."""
    return re.findall(r"\S+\s*|\s+", text)


# -- previews -----------------------------------------------------------------------------------


@dataclass
class RenderedPreview:
    """What the bot sends for a preview: HTML chunks, and the full Markdown when it was shortened."""

    chunks: list[str]
    shortened: bool
    full_markdown: str | None = None


def render_preview(
    markdown: str, *, max_chunks: int = 3, shortened_note: str = "", limit: int = CHUNK_LIMIT
) -> RenderedPreview:
    """The preview as chunks; longer than ``max_chunks`` → one shortened chunk plus the full file.

    A shortened preview keeps the beginning (header and summary line) and ends
    with ``shortened_note`` (already HTML), so the buttons still sit under the
    preview and the file holds every candidate.
    """
    chunks = chunk_html(markdown_to_html(markdown), limit)
    if len(chunks) <= max_chunks:
        return RenderedPreview(chunks=chunks, shortened=False)
    tail = "\n…\n\n" + shortened_note
    head = chunk_html(chunks[0], limit - telegram_length(tail) - 1)[0]
    return RenderedPreview(chunks=[head + tail], shortened=True, full_markdown=markdown)
