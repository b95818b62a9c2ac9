"""Token estimates for a session (DESIGN §7, §13).

The CJK-aware estimate of the text toolkit (:func:`savenow.text.tokens.estimate_tokens`:
1 per CJK character + the rest / 4), plus 10 per tool call; a server-reported context size wins
when a store has one.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..text.tokens import estimate_tokens
from .model import SessionMessage

TOOL_CALL_TOKENS = 10

__all__ = ["TOOL_CALL_TOKENS", "message_tokens", "session_tokens"]


def message_tokens(message: SessionMessage) -> int:
    content = message.content
    # estimate_tokens' ASCII case inline: most messages take it, and status estimates every one.
    tokens = (len(content) + 3) // 4 if content.isascii() else estimate_tokens(content)
    if message.tool_name is not None:  # is_tool_call, without a property call per message
        tokens += estimate_tokens(f"{message.tool_name} {message.tool_input or ''}") + TOOL_CALL_TOKENS
    return tokens


def session_tokens(messages: Sequence[SessionMessage], summary: str | None) -> int:
    """The context the next model call would carry: the summary plus the live messages.

    When a reply carries the usage a server reported, that figure stands for
    everything up to and including it, and only what came after is estimated.
    """
    usage = [m.usage_tokens for m in messages]
    if usage.count(None) < len(usage):  # counted in C: most sessions carry no reported usage
        reported_at = max(i for i, tokens in enumerate(usage) if tokens is not None)
        reported = usage[reported_at] or 0
        return reported + sum(map(message_tokens, messages[reported_at + 1 :]))
    return estimate_tokens(summary or "") + sum(map(message_tokens, messages))
