"""The pre-compaction memory flush (DESIGN §13).

Before a compaction removes messages, the extractor reads the removed messages
that were never flushed and their durable notes go to ``memory/YYYY-MM-DD.md``
through the normal write path (lock, re-read, journal, undo).

What was flushed is tracked as a range, never as a cycle counter: the state file
``<workspace>/.savenow/compaction/<store>.json`` holds ``flushedThrough`` (the id
of the last removed message handled) and ``retry`` (messages whose write failed).

* A fresh session has no state: everything it removes is flushed.
* A failed write keeps the range in ``retry``; the next compaction flushes it
  together with its own range (the seed's file no longer holds those messages).
* Nothing is flushed twice: messages up to ``flushedThrough`` are skipped, and
  the state is read and written under its lock, so two compactors at once split
  the work instead of doubling it.
* Every trigger (threshold, ``--force``, the command, the bot, an early flush at
  the soft threshold) calls :meth:`Flusher.flush`; there is no other path.
* A missing or read-only workspace skips the flush with a notice; compaction
  goes on.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

from ..errors import SaveNowError
from ..messages import Text
from ..models import ChatMessage, Entry
from ..storage.files import atomic_write, read_exact
from ..storage.locks import file_lock
from .model import FlushReport, Role, SessionMessage

log = logging.getLogger("savenow.compaction")

STATE_FOLDER = "compaction"
MAX_RETRY_MESSAGES = 5000  # a retry range larger than this keeps its newest part
MAX_FLUSH_LOG = 50
CHUNK_MESSAGES = 150  # the extractor reads a transcript window of this size (DESIGN §4)


def state_path(workspace: Path, identity: str) -> Path:
    digest = hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    return workspace / ".savenow" / STATE_FOLDER / f"{digest}.json"


def workspace_problem(workspace: Path) -> Text | None:
    """Why the flush cannot write into ``workspace``, or None when it can."""
    if not workspace.is_dir():
        return Text("compaction.workspace_missing", workspace=workspace)
    memory = workspace / "memory"
    targets = [workspace, memory] if memory.is_dir() else [workspace]
    if not all(os.access(folder, os.W_OK | os.X_OK) for folder in targets):
        return Text("compaction.workspace_read_only", workspace=workspace)
    return None


class Flusher:
    def __init__(
        self,
        *,
        workspace: Path,
        memory_dir: Path,
        extractor: Callable[[], Any],
        now: Callable[[], datetime],
        today: Callable[[], date],
        enabled: bool = True,
        chunk_messages: int = CHUNK_MESSAGES,
    ) -> None:
        self.workspace = workspace
        self.memory_dir = memory_dir
        self._extractor = extractor  # built on first use: a chit-chat-only range never builds one
        self._now = now
        self._today = today
        self.enabled = enabled
        self.chunk_messages = chunk_messages

    def pending(self, identity: str, removed: Sequence[SessionMessage]) -> int:
        """How many of ``removed`` (plus retries) a flush would read now."""
        if self.enabled and workspace_problem(self.workspace) is None:
            state = _load(state_path(self.workspace, identity))
            return len(_unflushed(state, removed))
        return 0

    def flush(self, identity: str, removed: Sequence[SessionMessage]) -> FlushReport:
        if not self.enabled:
            return FlushReport(status="disabled")
        if not removed:
            return FlushReport(status="not-needed")
        problem = workspace_problem(self.workspace)
        if problem is not None:
            log.info("%s", problem.render("en"))  # the report carries the notice; callers show it once
            return FlushReport(status="skipped", notice=problem.render("en"), notice_zh=problem.render("zh"))
        path = state_path(self.workspace, identity)
        with file_lock(path, self.workspace):
            state = _load(path)
            todo = _unflushed(state, removed)
            report = self._flush_messages(todo)
            state["store"] = identity
            state["flushedThrough"] = removed[-1].id
            state["retry"] = (
                [_dump(m) for m in todo[-MAX_RETRY_MESSAGES:]] if report.status == "failed" else []
            )
            report.retry_pending = len(state["retry"])
            log_entry = {"at": self._now().isoformat(), **report.to_json()}
            state["flushes"] = [*state.get("flushes", []), log_entry][-MAX_FLUSH_LOG:]
            atomic_write(path, json.dumps(state, ensure_ascii=False, indent=1) + "\n")
        return report

    def _flush_messages(self, todo: list[SessionMessage]) -> FlushReport:
        chat = _chat_messages(todo)
        if not chat:
            return FlushReport(status="nothing", messages=len(todo))
        day = self._today()
        memory_path = self.memory_dir / f"{day.isoformat()}.md"
        try:
            entries = self._extract(chat, memory_path)
            if not entries:
                return FlushReport(status="nothing", messages=len(todo), memory_path=str(memory_path))
            from ..memory.writer import write_entries

            outcome = write_entries(memory_path, entries, workspace=self.workspace, now=self._now(), day=day)
        except (SaveNowError, OSError) as error:
            reason: SaveNowError | str = (
                error if isinstance(error, SaveNowError) else f"{type(error).__name__}: {error}"
            )
            failed = Text("compaction.flush_failed", reason=reason)
            log.info("memory flush failed, retried at the next compaction: %s", reason)
            return FlushReport(
                status="failed",
                messages=len(todo),
                memory_path=str(memory_path),
                notice=failed.render("en"),
                notice_zh=failed.render("zh"),
            )
        notes = [*outcome.added_titles, *outcome.merged_titles]
        return FlushReport(
            status="written" if outcome.written else "nothing",
            messages=len(todo),
            notes=notes,
            memory_path=str(memory_path),
            journal_id=outcome.journal_id,
        )

    def _extract(self, chat: list[ChatMessage], memory_path: Path) -> list[Entry]:
        from ..memory.document import MemoryDocument

        sections = MemoryDocument.parse(read_exact(memory_path)).memory_sections()
        extractor = self._extractor()
        entries: list[Entry] = []
        for start in range(0, len(chat), self.chunk_messages):
            result = extractor.extract(chat[start : start + self.chunk_messages], sections)
            entries.extend(result.entries)
        for index, entry in enumerate(entries):
            entry.candidate_index = index
        return entries


def _load(path: Path) -> dict[str, Any]:
    try:
        text = read_exact(path)
        data = json.loads(text) if text else {}
    except (OSError, ValueError, SaveNowError):
        data = {}  # a damaged state file: flush again rather than never (the comparer skips repeats)
    return data if isinstance(data, dict) else {}


def _unflushed(state: dict[str, Any], removed: Sequence[SessionMessage]) -> list[SessionMessage]:
    ids = [m.id for m in removed]
    marker = state.get("flushedThrough")
    start = ids.index(marker) + 1 if marker in ids else 0
    retry = [_load_message(raw) for raw in state.get("retry") or [] if isinstance(raw, dict)]
    retry_ids = {m.id for m in retry}
    return [*retry, *(m for m in removed[start:] if m.id not in retry_ids)]


def _chat_messages(messages: Sequence[SessionMessage]) -> list[ChatMessage]:
    from ..sessions.transcript import clean_text

    chat = []
    for message in messages:
        if message.role not in ("user", "assistant"):
            continue
        text = clean_text(message.content)
        if text:
            chat.append(ChatMessage(role=message.role, text=text, timestamp=message.timestamp))
    return chat


def _dump(message: SessionMessage) -> dict[str, Any]:
    return {
        "id": message.id,
        "role": message.role,
        "content": message.content,
        "timestamp": message.timestamp,
        "toolName": message.tool_name,
        "toolInput": message.tool_input,
    }


def _load_message(raw: dict[str, Any]) -> SessionMessage:
    role: Role = raw["role"] if raw.get("role") in ("user", "assistant", "system", "tool") else "user"
    return SessionMessage(
        id=str(raw.get("id", "")),
        role=role,
        content=str(raw.get("content") or ""),
        timestamp=raw.get("timestamp"),
        tool_name=raw.get("toolName"),
        tool_input=raw.get("toolInput"),
    )
