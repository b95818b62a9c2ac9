"""Helpers for the compaction tests: seed files, a recording extractor, settings on a tmp workspace."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from savenow.clock import Clock
from savenow.config import Settings
from savenow.models import ChatMessage, Entry, ExtractionResult, MemorySection

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def clock() -> Clock:
    return Clock(tz=UTC, fixed=NOW)


def msg(role: str, content: str, minute: int, tool: tuple[str, str] | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {
        "role": role,
        "content": content,
        "timestamp": f"2026-11-30T{8 + minute // 60:02d}:{minute % 60:02d}:00Z",
    }
    if tool:
        item["toolUse"] = {"name": tool[0], "input": tool[1]}
    return item


def conversation(count: int, start: int = 0) -> list[dict[str, Any]]:
    """``count`` alternating user/assistant messages, each stating one fact with an identifier."""
    out = []
    for i in range(start, start + count):
        if i % 2 == 0:
            out.append(msg("user", f"请把服务 svc-{i} 的端口改成 {9000 + i}，以后都用这个端口", i))
        else:
            out.append(
                msg(
                    "assistant",
                    f"好，svc-{i - 1} 现在监听 {9000 + i - 1}，配置在 /etc/app/svc-{i - 1}.conf",
                    i,
                )
            )
    return out


def write_seed(path: Path, messages: list[dict[str, Any]], **extra: Any) -> None:
    data = {
        "version": 1,
        "createdAt": "2026-11-30T08:00:00Z",
        "updatedAt": "2026-11-30T08:00:00Z",
        "messages": messages,
        "compactionCount": 0,
        "totalTokens": 0,
        **extra,
    }
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")


def append_seed(path: Path, messages: list[dict[str, Any]]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["messages"].extend(messages)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")


def settings(workspace: Path, **compaction: Any) -> Settings:
    return Settings(
        workspace=workspace,
        sessions_dir=workspace.parent / "openclaw-sessions",
        compaction=compaction,
        extractor="heuristic",
    )


class RecordingExtractor:
    """Records every message text it is shown; proposes one note per call naming the first message."""

    name = "recording"

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.calls = 0
        self.lock = threading.Lock()

    def extract(self, messages: Sequence[ChatMessage], sections: Sequence[MemorySection]) -> ExtractionResult:
        with self.lock:
            self.calls += 1
            self.seen.extend(m.text for m in messages)
        durable = [m.text for m in messages if "svc-" in m.text]
        if not durable:
            return ExtractionResult(entries=[])
        return ExtractionResult(entries=[Entry(title=f"Ports {durable[0][:24]}", bullets=durable[:3])])
