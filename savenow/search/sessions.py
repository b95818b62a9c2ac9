"""Session transcripts as a search source (``search.sources: [memory, sessions]``), read only.

A transcript (``*.jsonl``, one JSON object a line) becomes text with exactly one line per JSONL
line: a user/assistant message is ``role: text`` on its line (cleaned as in DESIGN §4, newlines
flattened), every other line is blank. So a hit's ``startLine..endLine`` are the transcript's own
line numbers.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..sessions.transcript import message_from_line

__all__ = ["session_files", "transcript_markdown"]


def session_files(sessions_dir: Path) -> list[tuple[str, Path]]:
    """(result path, file) for each transcript directly in ``sessions_dir``; symlinks ignored."""
    try:
        entries = list(os.scandir(sessions_dir))
    except OSError:
        return []
    return [
        (f"sessions/{entry.name}", Path(entry.path))
        for entry in entries
        if entry.name.endswith(".jsonl") and not entry.is_symlink() and entry.is_file(follow_symlinks=False)
    ]


def transcript_markdown(jsonl: str) -> str:
    lines: list[str] = []
    for raw in jsonl.split("\n"):
        text = ""
        try:
            message = message_from_line(json.loads(raw)) if raw.strip() else None
        except ValueError:
            message = None
        if message is not None:
            text = f"{message.role}: " + " ".join(message.text.split())
        lines.append(text)
    return "\n".join(lines)
