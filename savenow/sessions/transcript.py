"""Transcript cleaning (DESIGN §4): what a human said and read, nothing else.

Dropped: ``toolResult`` messages, ``toolCall`` / ``thinking`` / image blocks,
OpenClaw's inbound metadata blocks (fenced JSON after ``Conversation info
(untrusted metadata):`` and its siblings), envelope prefixes such as
``[Thu 2026-11-26 14:03 GMT+8]``, and the silent-reply tokens OpenClaw's agent
uses when it chooses not to answer. A message is clipped to 4,000 characters.
Before that, :mod:`.shapes` drops what real transcripts hold that nobody said
(delivery mirrors, reply tags, gateway scaffolding and prompts).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from ..models import ChatMessage
from ..text.safety import clean_surrogates
from . import shapes

MAX_MESSAGE_CHARS = 4000
_ELLIPSIS = "…"

# OpenClaw prepends untrusted context as "<Label> (untrusted metadata):" + a ```json fence.
# "Conversation info" and "Sender" are the ones DESIGN §4 names; the siblings carry the
# same kind of machine context (thread starter, replied/forwarded message, group backlog).
_METADATA_BLOCK = re.compile(
    r"(?:Conversation info|Sender|Thread starter|Replied message|Forwarded message context"
    r"|Chat history since last reply) \(untrusted(?: metadata|,\s*for context)\):[ \t]*\r?\n"
    r"```[a-z]*[ \t]*\r?\n.*?\r?\n```[ \t]*(?:\r?\n)*",
    re.DOTALL,
)
# "[Thu 2026-11-26 14:03 GMT+8] " at the start of a line; also the older envelope forms
# "[Telegram Alice +2m 2026-01-18 06:19 PST]" and "[… 2026-01-18T05:19Z]".
_ENVELOPE_PREFIX = re.compile(
    r"^\[(?:[^\]\n]{0,120}?\s)?\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)"
    r"(?:\s*(?:Z|[A-Za-z][A-Za-z0-9+\-:/_]{0,40}|[+-]\d{2}:?\d{2}))?\]\s?",
    re.MULTILINE,
)
_MESSAGE_ID_LINE = re.compile(r"^\[message_id: [^\]\n]{1,40}\]\s*$", re.MULTILINE)
_EXTRA_BLANK_LINES = re.compile(r"\n{3,}")
_SILENT_REPLIES = frozenset({"NO_REPLY", "HEARTBEAT_OK"})
_TEXT_BLOCK_TYPES = frozenset({"text", "input_text", "output_text"})


def clean_text(text: str) -> str:
    """Strip metadata blocks and envelope prefixes; clip to 4,000 characters."""
    cleaned = _METADATA_BLOCK.sub("", clean_surrogates(text).replace("\r\n", "\n"))
    cleaned = _ENVELOPE_PREFIX.sub("", cleaned)
    cleaned = _MESSAGE_ID_LINE.sub("", cleaned)
    cleaned = _EXTRA_BLANK_LINES.sub("\n\n", cleaned).strip()
    return clip(cleaned)


def clip(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + _ELLIPSIS


def content_text(content: Any) -> str:
    """The visible text of a pi message ``content``: a string, or the text blocks of a list."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = [
        block["text"]
        for block in content
        if isinstance(block, dict)
        and block.get("type") in _TEXT_BLOCK_TYPES
        and isinstance(block.get("text"), str)
    ]
    return "\n".join(part for part in parts if part.strip())


def message_from_line(obj: Any) -> ChatMessage | None:
    """A cleaned user/assistant message from one parsed transcript line, or None.

    None for every other line type, for tool results, and for messages whose
    visible text is empty once tools, thinking and metadata are removed.
    """
    message = message_body(obj)
    if message is None:
        return None
    role = message.get("role")
    if role not in ("user", "assistant"):
        return None
    raw = content_text(message.get("content"))
    if role == "assistant":
        if shapes.is_stand_in_assistant(message, obj):
            return None
        text = clean_text(shapes.clean_assistant_text(raw))
    else:
        text = clean_text(shapes.strip_user_scaffolding(raw))
        if shapes.is_machine_prompt(text):
            return None
    if not text or (role == "assistant" and text in _SILENT_REPLIES):
        return None
    return ChatMessage(role=role, text=text, timestamp=_timestamp(obj, message))


def message_body(obj: Any) -> dict[str, Any] | None:
    """The ``message`` of a message line; older files write it without ``"type"`` (OPENCLAW-STORE.md)."""
    if not isinstance(obj, dict):
        return None
    kind = obj.get("type", "message")
    message = obj.get("message")
    return message if kind == "message" and isinstance(message, dict) else None


def _timestamp(line: dict[str, Any], message: dict[str, Any]) -> str | None:
    stamp = line.get("timestamp")
    if isinstance(stamp, str) and stamp:
        return stamp
    millis = message.get("timestamp")
    if isinstance(millis, int | float) and not isinstance(millis, bool) and 0 < millis < 1e14:
        return datetime.fromtimestamp(millis / 1000, tz=UTC).isoformat().replace("+00:00", "Z")
    return None
