"""The words every layer shares, defined once: chat types, roles, note kinds, scope keys.

Nothing here imports from the rest of savenow, so any module may import it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

__all__ = ["ChatType", "NoteKind", "Role", "scope_key"]

ChatType = Literal["direct", "group"]  # a private chat, or a group / supergroup (forum topics included)
Role = Literal["user", "assistant"]  # who wrote a transcript message


class NoteKind(StrEnum):
    """What a durable note says (DESIGN §5.2). A ``StrEnum``: each kind compares equal to its word."""

    NOTE = "note"  # marked as worth keeping ("for the notes", 记住) or a plain fact handed over
    FUTURE = "future"  # a standing rule: "from now on", 以后, always / never
    ROOT_CAUSE = "root_cause"  # why something broke
    FIX = "fix"  # what repaired it
    OWNER = "owner"  # who is responsible for what
    PREFERENCE = "preference"  # how someone likes things done
    CHANGE = "change"  # a setting or value that changed
    DECISION = "decision"  # a choice made between options


def scope_key(chat_id: str | int | None, thread_id: str | int | None) -> str:
    """The key of a (chat, thread) scope: one pending preview per scope (DESIGN §2).

    ``local`` stands for the CLI without a chat, ``main`` for a chat without topics.
    """
    return f"{chat_id or 'local'}:{thread_id or 'main'}"
