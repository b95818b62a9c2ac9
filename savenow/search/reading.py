"""``memory_get`` (DESIGN §12): read a memory file, or lines of it. No index is involved, so
``savenow get`` loads none of the search engine (its tokenizer, SQLite, the ranking)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .options import SearchOptions

__all__ = ["GetResult", "read_memory_file"]


@dataclass(frozen=True)
class GetResult:
    """memory_get's answer."""

    path: str
    text: str
    from_line: int = 1
    lines: int | None = None
    missing: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "text": self.text, "from": self.from_line, "lines": self.lines}


def read_memory_file(
    workspace: Path,
    options: SearchOptions,
    path: str,
    *,
    from_line: int | None = None,
    lines: int | None = None,
) -> GetResult:
    """Only MEMORY.md, memory/** and the extra paths (resolved, so nothing leads out); a missing
    file is empty text, anything else is refused (:class:`~savenow.errors.SearchPathRefusedError`)."""
    from ..storage.files import read_bytes
    from .access import resolve_readable

    rel, file = resolve_readable(workspace, path, options.extra_paths)
    start = max(1, from_line or 1)
    data = read_bytes(file)  # refuses FIFOs and oversized files instead of hanging or filling memory
    if data is None:
        return GetResult(rel, "", start, lines, missing=True)
    content = data.decode("utf-8", errors="replace")
    if from_line is None and lines is None:
        return GetResult(rel, content, 1, None)
    chosen = content.split("\n")[start - 1 : (start - 1 + lines) if lines else None]
    return GetResult(rel, "\n".join(chosen), start, lines)
