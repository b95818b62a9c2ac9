"""The vocabulary of compaction: a session's messages, what a store holds, what a run did (DESIGN §13).

Plain dataclasses: a store adapter turns its file into a :class:`SessionSnapshot`,
the compactor works on that and hands the store a :class:`Compaction` to commit.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

Role = Literal["user", "assistant", "system", "tool"]


@dataclass(frozen=True, slots=True)
class SessionMessage:
    """One message of a session as the compactor sees it.

    ``id`` is stable across runs: the entry id in a transcript, a content hash in
    the seed's file (which has no ids). The flush remembers the last id it handled.
    """

    id: str
    role: Role
    content: str
    timestamp: str | None = None
    tool_name: str | None = None  # set on an assistant message that calls a tool
    tool_input: str | None = None
    tool_call_id: str | None = None  # transcripts: pairs a call with its result
    usage_tokens: int | None = None  # the context size a server reported at this reply

    @property
    def is_tool_call(self) -> bool:
        return self.tool_name is not None

    @property
    def is_tool_result(self) -> bool:
        return self.role == "tool"

    def text(self) -> str:
        """The message's text as COMPACTION.md defines it: content, then ``name input`` of a tool call."""
        if self.tool_name is None:
            return self.content
        call = f"{self.tool_name} {self.tool_input or ''}".rstrip()
        return f"{self.content}\n{call}" if self.content else f"\n{call}"


# A frozen dataclass's __init__ sets each field through object.__setattr__, which on CPython 3.11
# costs about as much as the rest of reading a seed message; a store builds one per message of a
# session (2,000 for a long `status`), so it sets the slots through their descriptors instead.
# A field added to SessionMessage makes this unpacking fail at import, not go unset.
_new_object = object.__new__
(_set_id, _set_role, _set_content, _set_timestamp, _set_tool_name, _set_tool_input, _set_tool_call_id,
 _set_usage_tokens) = (getattr(SessionMessage, f.name).__set__ for f in fields(SessionMessage))  # fmt: skip


def session_message(
    id: str,
    role: Role,
    content: str,
    timestamp: str | None,
    tool_name: str | None,
    tool_input: str | None,
    tool_call_id: str | None,
    usage_tokens: int | None,
) -> SessionMessage:
    """``SessionMessage(id, role, content, …)`` with every field given: the same object, built faster."""
    message = _new_object(SessionMessage)
    _set_id(message, id)
    _set_role(message, role)
    _set_content(message, content)
    _set_timestamp(message, timestamp)
    _set_tool_name(message, tool_name)
    _set_tool_input(message, tool_input)
    _set_tool_call_id(message, tool_call_id)
    _set_usage_tokens(message, usage_tokens)
    return message


@dataclass(frozen=True)
class HistoryItem:
    """One past compaction, as ``compact history`` lists it."""

    at: str
    removed_count: int
    tokens_before: int
    tokens_after: int

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at,
            "removedCount": self.removed_count,
            "tokensBefore": self.tokens_before,
            "tokensAfter": self.tokens_after,
        }


@dataclass
class SessionSnapshot:
    """What a store holds now: the live messages (after the last compaction) and its summary."""

    messages: list[SessionMessage]
    summary: str | None = None
    compaction_count: int = 0
    history: list[HistoryItem] = field(default_factory=list)
    version: str | None = None  # a fingerprint of the file: a commit refuses when it changed meanwhile


@dataclass(frozen=True)
class Compaction:
    """What one compaction decided: the store applies it (rewrite, or append a record)."""

    summary: str
    removed: list[SessionMessage]
    kept: list[SessionMessage]
    tokens_before: int
    tokens_after: int
    at: str  # ISO-8601, the injected clock's time


@dataclass
class FlushReport:
    """What the pre-compaction flush did (``run --json`` prints it under ``flush``)."""

    status: Literal["written", "nothing", "skipped", "failed", "disabled", "not-needed"]
    messages: int = 0  # messages the extractor read this time
    notes: list[str] = field(default_factory=list)  # titles added or merged
    memory_path: str | None = None
    journal_id: str | None = None  # `savenow undo` takes this write out again
    notice: str | None = None  # why it was skipped or failed (en)
    notice_zh: str | None = None
    retry_pending: int = 0  # messages kept to retry at the next compaction

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status, "messages": self.messages, "notes": list(self.notes)}
        if self.memory_path:
            data["memoryPath"] = self.memory_path
        if self.journal_id:
            data["journalId"] = self.journal_id
        if self.notice:
            data["notice"] = self.notice
        if self.retry_pending:
            data["retryPending"] = self.retry_pending
        return data


@dataclass
class CompactionResult:
    """The outcome of :meth:`SessionCompactor.compact`."""

    compacted: bool
    removed_count: int
    compaction_count: int
    tokens_before: int
    tokens_after: int
    summary: str
    flush: FlushReport
    reason: str = ""  # why nothing happened: "under-threshold", "nothing-new"
    summarizer: str = "offline"  # which summarizer wrote ``summary``: "offline" or "llm"
    summarizer_fallback: str | None = None  # why the LLM summary was not used (the offline one ran)

    def to_json(self) -> dict[str, Any]:
        return {
            "compacted": self.compacted,
            "summary": self.summary,
            "removedCount": self.removed_count,
            "compactionCount": self.compaction_count,
            "tokensBefore": self.tokens_before,
            "tokensAfter": self.tokens_after,
            "flush": self.flush.to_json(),
            **({"reason": self.reason} if self.reason else {}),
            **({"summarizer": self.summarizer} if self.compacted else {}),
            **({"summarizerFallback": self.summarizer_fallback} if self.summarizer_fallback else {}),
        }
