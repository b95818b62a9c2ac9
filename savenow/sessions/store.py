"""The session-store interface every reader implements (DESIGN §5.1).

Readers: OpenClaw's file-era store and the bot's recorder store (one reader, the
same layout), and OpenClaw's SQLite-era database (:mod:`.sqlite_store`). Beside the
required :class:`SessionStore`, a store may offer optional capabilities, each a
``runtime_checkable`` Protocol the catalog tests with ``isinstance``:

* :class:`ChatIndex` — the sessions of one chat without listing every session;
* :class:`UserMessageProbe` — whether a session has a user message, cheaper than reading it;
* :class:`WritableStore` — a store savenow itself writes (the recorder); OpenClaw's never are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

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


@runtime_checkable
class SessionStore(Protocol):
    source: str  # what SessionInfo.source says for sessions from this store

    def list_sessions(self) -> list[SessionInfo]: ...

    def get(self, key: str) -> SessionInfo | None: ...

    def read_messages(self, info: SessionInfo, limit: int) -> Transcript: ...


@runtime_checkable
class ChatIndex(Protocol):
    """A store that finds one chat's sessions by an index (a /savenow in a topic needs only those)."""

    def sessions_in_chat(self, chat_id: str) -> list[SessionInfo]: ...


@runtime_checkable
class UserMessageProbe(Protocol):
    """A store that answers "has this session a user message?" without reading the whole transcript."""

    def probe_user_message(self, info: SessionInfo) -> bool: ...


@runtime_checkable
class WritableStore(Protocol):
    """A store savenow writes in the file layout (the bot's recorder). OpenClaw's stores never are."""

    def record(
        self,
        key: str,
        *,
        role: Literal["user", "assistant"],
        text: str,
        message_id: int | str | None,
        chat_id: str,
        chat_type: Literal["direct", "group"],
        thread_id: str | None = None,
        sender: str | None = None,
    ) -> None: ...

    def record_edit(self, key: str, *, message_id: int | str, text: str) -> bool: ...

    def start_new_session(self, key: str) -> str: ...
