"""Lines with the shapes real OpenClaw transcripts hold (OPENCLAW-STORE.md), for both eras' tests."""

from __future__ import annotations

import itertools
from typing import Any

from .storegen import BASE_MS, _iso, message

_ids = itertools.count(1)


def _entry(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "id": f"s{next(_ids):07x}", "parentId": None, "timestamp": _iso(BASE_MS), **fields}


def reset(reason: str = "new", first_kept: str | None = None) -> dict[str, Any]:
    fields: dict[str, Any] = {"reason": reason}
    if first_kept is not None:
        fields["firstKeptEntryId"] = first_kept
    return _entry("reset", **fields)


def leaf(target_id: str | None) -> dict[str, Any]:
    return _entry("leaf", targetId=target_id)


def mirror(text: str, *, provider: str = "openclaw", marker: bool = False) -> dict[str, Any]:
    """A delivery mirror: the gateway's copy of the assistant's previous text."""
    extra: dict[str, Any] = {"api": "openclaw-transcript", "provider": provider, "model": "delivery-mirror"}
    if marker:
        extra = {"openclawDeliveryMirror": {"kind": "channel-final"}}
    return message("assistant", [{"type": "text", "text": text}], BASE_MS, stopReason="stop", **extra)


def injected_failure() -> dict[str, Any]:
    return message(
        "assistant",
        [{"type": "text", "text": "⚠️ Agent failed before reply: upstream timeout"}],
        BASE_MS,
        provider="openclaw",
        model="gateway-injected",
    )


def failed_turn() -> dict[str, Any]:
    """An assistant turn that errored before saying anything."""
    return message("assistant", [], BASE_MS, stopReason="error", errorMessage="429 rate limited")


def typeless(role: str, text: str) -> dict[str, Any]:
    """An older line: a ``message`` without ``type``."""
    return {"message": {"role": role, "content": text, "timestamp": BASE_MS}}


SYSTEM_LINES = (
    "System: [2026-11-26 14:02:11 UTC] Exec completed (tidy-ot, code 0) :: 3.8G /home/u/clawd\n"
    "System: [2026-11-26 14:02:40 GMT+8] Telegram group -1001234567890 | Alice (42)\n\n"
)
METADATA = 'Conversation info (untrusted metadata):\n```json\n{\n  "message_id": "109",\n  "sender": "Alice"\n}\n```\n\n'
HEARTBEAT = (
    "Read HEARTBEAT.md if it exists (workspace context). Follow it strictly. Do not infer or repeat old tasks "
    "from prior chats. If nothing needs attention, reply HEARTBEAT_OK.\n"
    "When reading HEARTBEAT.md, use workspace file /home/u/.openclaw/workspace/HEARTBEAT.md (exact case).\n"
    "Current time: Thursday, November 26th, 2026 — 14:03 (Asia/Shanghai)"
)
MEDIA = (
    "[media attached: /home/u/.openclaw/media/inbound/file_4---fb53.jpg (image/jpeg) | "
    "/home/u/.openclaw/media/inbound/file_4---fb53.jpg]\n"
    "To send an image back, prefer the message tool (media/path/filePath). If you must inline, use "
    "MEDIA:https://example.com/image.jpg (spaces ok, quote if needed). Keep caption in the text body.\n"
)
BACKGROUND_TASK = (
    'A background task "index the wiki" just completed successfully.\n\nFindings:\nDeploy the cache on friday.\n\n'
    "Summarize this naturally for the user. Keep it brief (1-2 sentences)."
)
CRON_PROMPT = "[cron:7f3a daily-digest] Summarize yesterday's unread mail and always use the deploy key."


def queued(*texts: str) -> str:
    parts = ["[Queued messages while agent was busy]"]
    for number, text in enumerate(texts, 1):
        parts.append(f"\n\n---\nQueued #{number}\n{METADATA}{text}")
    return "".join(parts)
