"""The session-store interface every reader implements (DESIGN §5.1).

Two implementations share one reader: OpenClaw's own store (read only) and the
bot's recorder store, which writes the same layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..models import ChatMessage


@dataclass(frozen=True)
class SessionInfo:
    """One entry of a store's ``sessions.json``, normalized."""

    key: str
    session_id: str
    updated_at_ms: int | None
    chat_type: str | None  # "direct" | "group" | "channel" | None when unknown
    thread_id: str | None  # the forum topic this session belongs to, when known
    transcript_path: Path | None  # None: the store names no readable transcript
    source: str  # "openclaw" | "recorder"
    has_user_message: bool | None  # None: not checked yet (cheap hints only)
    chat_id: str | None = None  # the Telegram chat, from the key or the delivery context
    thread_ids: tuple[str, ...] = field(default=())  # every thread id the entry mentions (§3)
    label: str | None = None  # displayName / subject / label, for listings


@dataclass
class Transcript:
    """The last messages of a session, cleaned (DESIGN §4), oldest first."""

    messages: list[ChatMessage]
    malformed_lines: int = 0  # lines that were not JSON objects, or oversized; skipped
    total_messages_seen: int = 0  # message entries examined, tool results and empties included
    scan_stopped: bool = False  # the tail scan hit its byte or time bound before the conversation's start


class SessionStore(Protocol):
    def list_sessions(self) -> list[SessionInfo]: ...

    def get(self, key: str) -> SessionInfo | None: ...

    def read_messages(self, info: SessionInfo, limit: int) -> Transcript: ...
