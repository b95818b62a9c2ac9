"""Session keys: validation, construction, and the exclusions of DESIGN §3.

A session key names a conversation (``agent:main:telegram:group:-100123:topic:42``).
It is never used as a path: transcript file names come from the store's
``sessionId``. Validation still refuses anything path-like, so a key typed by a
user can never be mistaken for one.
"""

from __future__ import annotations

import re

from ..errors import InvalidSessionKeyError
from ..messages import Text
from ..vocabulary import ChatType

MAX_KEY_CHARS = 256

_EXCLUDED_PARTS = (":slash:", ":cron:", ":subagent:", ":heartbeat")
_EXCLUDED_PREFIXES = ("cron:", "hook:", "node-")
_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")
_TOPIC_SUFFIX = re.compile(r":topic:([^:]+)$")
_GROUP_PART = re.compile(r":(?:group|channel|supergroup):([^:]+)")
_DIRECT_PART = re.compile(r":(?:direct|dm):([^:]+)$")


def validate_session_key(key: str) -> str:
    """Return ``key`` stripped, or raise :class:`InvalidSessionKeyError` when it is not a session key."""
    if not isinstance(key, str):
        raise InvalidSessionKeyError(Text("session.key_not_text"))
    candidate = key.strip()
    shown = _shown(candidate)
    if not candidate:
        raise InvalidSessionKeyError(Text("session.key_empty"))
    if len(candidate) > MAX_KEY_CHARS:
        raise InvalidSessionKeyError(Text("session.key_too_long", length=len(candidate), limit=MAX_KEY_CHARS))
    if _CONTROL_CHARS.search(candidate) or any(ch.isspace() for ch in candidate):
        raise InvalidSessionKeyError(Text("session.key_control", shown=shown))
    if "/" in candidate or "\\" in candidate or ".." in candidate:
        raise InvalidSessionKeyError(Text("session.key_path", shown=shown))
    return candidate


def _shown(text: str) -> str:
    """A short, printable rendering of user input for an error message."""
    clipped = text if len(text) <= 60 else text[:57] + "..."
    return repr(_CONTROL_CHARS.sub("?", clipped))


def telegram_session_key(
    agent_id: str,
    *,
    chat_type: ChatType,
    chat_id: str | int | None = None,
    thread_id: str | int | None = None,
    user_id: str | int | None = None,
) -> str:
    """OpenClaw's key for a Telegram chat: group, forum topic, or direct (DESIGN §5.1)."""
    prefix = f"agent:{agent_id}:telegram"
    if chat_type == "direct":
        peer = user_id if user_id is not None else chat_id
        if peer is None:
            raise ValueError("a direct session key needs user_id or chat_id")
        return f"{prefix}:direct:{peer}"
    if chat_id is None:
        raise ValueError("a group session key needs chat_id")
    key = f"{prefix}:group:{chat_id}"
    return f"{key}:topic:{thread_id}" if thread_id not in (None, "") else key


def main_session_key(agent_id: str) -> str:
    return f"agent:{agent_id}:main"


def is_excluded_key(key: str) -> bool:
    """True for sessions /savenow never picks by itself: slash, cron, hook, node, subagent, heartbeat (§3)."""
    lowered = key.lower()
    return lowered.startswith(_EXCLUDED_PREFIXES) or any(part in lowered for part in _EXCLUDED_PARTS)


def thread_id_from_key(key: str) -> str | None:
    """The forum topic id of a ``…:topic:<threadId>`` key."""
    match = _TOPIC_SUFFIX.search(key)
    return match.group(1) if match else None


def chat_id_from_key(key: str) -> str | None:
    """The chat a key names: the group/channel id, or the direct peer id."""
    group = _GROUP_PART.search(key)
    if group:
        return group.group(1)
    direct = _DIRECT_PART.search(key)
    return direct.group(1) if direct else None


def chat_type_from_key(key: str) -> str | None:
    if _GROUP_PART.search(key):
        return "group"
    if _DIRECT_PART.search(key) or key.endswith(":main"):
        return "direct"
    return None


# Keys OpenClaw wrote before keys carried the agent (`telegram:group:-100…:topic:2`, `main`);
# system keys without an agent (`cron:…`, `hook:…`, `node-…`, `global`) are left as they are.
_LEGACY_UNPREFIXED = re.compile(r"^(?!agent:|cron:|hook:|node-|subagent:)[a-z][a-z0-9_-]{0,31}:[^:]")
_AGENTLESS_SYSTEM_KEYS = frozenset({"global", "unknown"})


def canonical_session_key(key: str, agent_id: str) -> str:
    """The canonical form of a key: legacy keys without the agent prefix get ``agent:<agent_id>:``."""
    if key == "main":
        return main_session_key(agent_id)
    if key in _AGENTLESS_SYSTEM_KEYS or not _LEGACY_UNPREFIXED.match(key):
        return key
    return f"agent:{agent_id}:{key}"
