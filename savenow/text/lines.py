"""Raw lines with their own endings: the unit the merge, the journal and undo work in."""

from __future__ import annotations


def split_lines(text: str) -> list[str]:
    """Raw lines, each with its own ending ("\\r\\n", "\\n", or none for an unterminated last line)."""
    if not text:
        return []
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines
