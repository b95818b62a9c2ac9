"""Build OpenClaw-layout session stores for tests (DESIGN §5.1): sessions.json + pi v3 transcripts."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BASE_MS = 1_795_000_000_000  # 2026-11-18, a fixed base for deterministic timestamps
_ids = itertools.count(1)


def _iso(ms: int) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def header(session_id: str, ms: int = BASE_MS) -> dict[str, Any]:
    return {
        "type": "session",
        "version": 3,
        "id": session_id,
        "timestamp": _iso(ms),
        "cwd": "/home/u/.openclaw/workspace",
    }


def message(role: str, content: Any, ms: int = BASE_MS, **extra: Any) -> dict[str, Any]:
    entry_id = f"{next(_ids):08x}"
    body = {"role": role, "content": content, "timestamp": ms, **extra}
    return {"type": "message", "id": entry_id, "parentId": None, "timestamp": _iso(ms), "message": body}


def user(text: str, ms: int = BASE_MS) -> dict[str, Any]:
    return message("user", text, ms)


def assistant(
    text: str, ms: int = BASE_MS, *, tool_call: bool = False, thinking: bool = False
) -> dict[str, Any]:
    blocks: list[dict[str, Any]] = []
    if thinking:
        blocks.append({"type": "thinking", "thinking": "let me think about it"})
    if text:
        blocks.append({"type": "text", "text": text})
    if tool_call:
        blocks.append({"type": "toolCall", "id": "call_1", "name": "exec", "arguments": {"command": "ls"}})
    return message("assistant", blocks, ms, stopReason="toolUse" if tool_call else "stop")


def tool_result(text: str, ms: int = BASE_MS) -> dict[str, Any]:
    return message("toolResult", [{"type": "text", "text": text}], ms, toolCallId="call_1", toolName="exec")


def compaction(summary: str = "Earlier: the user discussed X.", ms: int = BASE_MS) -> dict[str, Any]:
    return {
        "type": "compaction",
        "id": f"{next(_ids):08x}",
        "parentId": None,
        "timestamp": _iso(ms),
        "summary": summary,
        "firstKeptEntryId": "00000001",
        "tokensBefore": 50000,
    }


def conversation(pairs: int, *, prefix: str = "msg", start_ms: int = BASE_MS) -> list[dict[str, Any]]:
    """``pairs`` user/assistant exchanges, numbered, one second apart."""
    lines: list[dict[str, Any]] = []
    for index in range(pairs):
        lines.append(user(f"{prefix} user {index}", start_ms + 2000 * index))
        lines.append(assistant(f"{prefix} assistant {index}", start_ms + 2000 * index + 1000))
    return lines


@dataclass
class StoreBuilder:
    """Accumulates sessions, then writes ``sessions.json`` and transcripts into ``folder``."""

    folder: Path
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(
        self,
        key: str,
        lines: list[dict[str, Any] | str] | None = None,
        *,
        session_id: str | None = None,
        updated_at: int | None = None,
        topic_file: str | None = None,
        **entry: Any,
    ) -> str:
        """Add a session; ``lines`` are dicts (JSON) or raw strings (written as is, e.g. malformed)."""
        session_id = session_id or f"sess-{next(_ids):06d}"
        self.folder.mkdir(parents=True, exist_ok=True)
        if lines is not None:
            name = f"{session_id}-topic-{topic_file}.jsonl" if topic_file else f"{session_id}.jsonl"
            with open(self.folder / name, "w", encoding="utf-8") as handle:
                handle.writelines(
                    (line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)) + "\n"
                    for line in [header(session_id), *lines]
                )
        self.entries[key] = {"sessionId": session_id, "updatedAt": updated_at or BASE_MS, **entry}
        return session_id

    def write(self) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "sessions.json").write_text(json.dumps(self.entries, indent=2), encoding="utf-8")
        return self.folder


GROUP = "-1001234567890"


def topic_key(thread: str | int, chat: str = GROUP, agent: str = "main") -> str:
    return f"agent:{agent}:telegram:group:{chat}:topic:{thread}"
