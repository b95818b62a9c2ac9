"""Shapes real OpenClaw transcripts hold that are not a person speaking (OPENCLAW-STORE.md, both eras).

Per message, before DESIGN §4's cleaning:

* assistant rows that only copy or stand in for the assistant: delivery mirrors
  (``model: "delivery-mirror"`` from OpenClaw / its old name Clawdbot, or an
  ``openclawDeliveryMirror`` marker) and ``gateway-injected`` rows
  ("⚠️ Agent failed before reply: …");
* reply tags (``[[reply_to_current]]``, ``[[reply_to:123]]``, ``[[audio_as_voice]]``)
  at the start of assistant text, and a trailing ``HEARTBEAT_OK`` token;
* gateway scaffolding inside user text: ``System: [<date> <time> <zone>] …`` lines,
  ``[media attached: …]`` notes with their "To send an image back…" instruction,
  the ``[Queued messages while agent was busy]`` wrapper and its ``Queued #N``
  markers (the queued text itself stays: those are the user's words);
* user rows that are prompts the gateway wrote, not the user: heartbeat polls,
  ``A background task "…" just completed`` notices, ``[cron:<id> <name>]`` prompts,
  scheduled reminders.

Nothing here reads a file; :mod:`.window` applies the conversation-level rules
(resets, rewinds, retries) and :mod:`.transcript` the §4 cleaning.
"""

from __future__ import annotations

import re
from typing import Any

_MIRROR_MODELS = frozenset({"delivery-mirror", "gateway-injected"})
_GATEWAY_PROVIDERS = frozenset({"openclaw", "clawdbot", ""})
_AGENT_FAILED = "⚠️ Agent failed before reply"

_REPLY_TAGS = re.compile(
    r"^\s*(?:\[\[\s*(?:reply_to_current|reply_to\s*:\s*[^\]\n]{1,80}|reply_to_[a-z_]{1,40}|audio_as_voice)\s*\]\]\s*)+",
    re.IGNORECASE,
)
_TRAILING_HEARTBEAT_OK = re.compile(r"\s*\bHEARTBEAT_OK\s*$")

# One gateway line each; a line the user typed never starts like these.
_SCAFFOLD_LINES = re.compile(
    r"^(?:"
    r"System: \[\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?[^\]\n]{0,40}\][^\n]*"
    r"|\[media attached(?: \d+/\d+)?:[^\n]*\]"
    r"|\[media attached: \d+ files?\]"
    r"|To send an image back,[^\n]*"
    r"|<media:[a-z]{1,20}>"
    r"|\[Queued messages while agent was busy\]"
    r"|Queued #\d+"
    r"|---(?=\nQueued #\d+$)"
    r")[ \t]*(?:\n|$)",
    re.MULTILINE,
)
# A user row that is wholly a prompt the gateway wrote (checked once scaffolding and §4 metadata are gone).
_MACHINE_PROMPT = re.compile(
    r"^(?:Read HEARTBEAT\.md\b"
    r"|A background task \""
    r"|\[cron:[^\]\n]{1,200}\]"
    r"|A scheduled reminder has been triggered\b"
    r"|\[Queue overflow\] Dropped \d+)",
)


def is_stand_in_assistant(message: dict[str, Any], line: dict[str, Any] | None = None) -> bool:
    """An assistant row that copies the assistant (a delivery mirror) or speaks for the gateway."""
    if message.get("openclawDeliveryMirror") or (line is not None and line.get("openclawDeliveryMirror")):
        return True
    model = message.get("model")
    provider = message.get("provider")
    if isinstance(model, str) and model in _MIRROR_MODELS:
        return not isinstance(provider, str) or provider.lower() in _GATEWAY_PROVIDERS
    return False


def clean_assistant_text(text: str) -> str:
    """Assistant text without leading reply tags, a trailing HEARTBEAT_OK, or the gateway's failure notice."""
    stripped = _REPLY_TAGS.sub("", text, count=1)
    stripped = _TRAILING_HEARTBEAT_OK.sub("", stripped)
    if stripped.lstrip().startswith(_AGENT_FAILED):
        return ""
    return stripped


def strip_user_scaffolding(text: str) -> str:
    """User text without the gateway's System/media/queue lines; the user's own lines stay as they were."""
    if not text:
        return text
    normalized = text.replace("\r\n", "\n")
    if not _might_hold_scaffolding(normalized):
        return text
    return _SCAFFOLD_LINES.sub("", normalized)


def is_machine_prompt(cleaned_text: str) -> bool:
    """A user row the gateway wrote (heartbeat poll, background-task notice, cron prompt, reminder)."""
    return bool(_MACHINE_PROMPT.match(cleaned_text))


def _might_hold_scaffolding(text: str) -> bool:
    # A cheap test first: most user messages hold none of these, and the regex runs per line.
    return (
        "System: [" in text
        or "[media attached" in text
        or "To send an image back" in text
        or "Queued" in text
        or "<media:" in text
    )
