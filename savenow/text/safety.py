"""Text that is safe to write: no lone surrogates, no secrets, JSON that cannot blow the stack.

Called at every text boundary (entries JSON, pending JSON, transcript lines, LLM
answers) before anything is written, so a memory file, the journal and stdout
never hold invalid UTF-8 or a key.

* :func:`clean_surrogates` — a lone UTF-16 surrogate (half an emoji cut by a
  JavaScript slice arrives as ``\\ud83d`` in JSON) becomes U+FFFD; a proper pair
  that arrived split (``\\ud83d\\ude00``) is joined back into its character.
* :func:`redact` — configured secrets and key-shaped strings become ``[redacted]``;
  returns how many were replaced, so a preview can say so.
* :func:`loads_json` — ``json.loads`` that turns nesting too deep for the
  decoder into ``ValueError`` (never ``RecursionError``) and cleans surrogates.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

REDACTED = "[redacted]"
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_PAIR = re.compile(r"[\ud800-\udbff][\udc00-\udfff]")
MAX_JSON_DEPTH = 64

# Key shapes. Each needs enough entropy-looking characters that prose never matches.
_KEY_SHAPES = re.compile(
    r"""
    \bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_\-]{16,}       # OpenAI / Anthropic / Stripe style
    | \b(?:gsk|xai|rk|pk)_[A-Za-z0-9]{16,}                     # Groq, xAI, Stripe restricted
    | \bBearer\s+[A-Za-z0-9._~+/=\-]{12,}                      # an Authorization header value
    | \b\d{6,12}:[A-Za-z0-9_\-]{30,}\b                          # Telegram bot token
    | \b(?:AKIA|ASIA)[A-Z0-9]{16}\b                             # AWS access key id
    | \bgh[pousr]_[A-Za-z0-9]{30,}\b                            # GitHub tokens
    | \bgithub_pat_[A-Za-z0-9_]{30,}\b
    | \bAIza[0-9A-Za-z_\-]{35}\b                                # Google API key
    | \bxox[abprs]-[A-Za-z0-9\-]{10,}\b                         # Slack tokens
    | \bglpat-[A-Za-z0-9_\-]{20,}\b                             # GitLab
    | -----BEGIN\ [A-Z ]*PRIVATE\ KEY-----[\s\S]*?(?:-----END\ [A-Z ]*PRIVATE\ KEY-----|$)
    """,
    re.VERBOSE,
)
_AWS_SECRET = re.compile(r"(?i)(aws_secret_access_key\s*[=:]\s*)[A-Za-z0-9/+=]{40}")


def has_surrogates(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def clean_surrogates(text: str) -> str:
    """``text`` as valid Unicode: split pairs joined, lone surrogates → U+FFFD."""
    if not has_surrogates(text):
        return text
    joined = _PAIR.sub(lambda m: m.group().encode("utf-16", "surrogatepass").decode("utf-16"), text)
    return _SURROGATE.sub("\ufffd", joined)


def clean_value(value: Any) -> Any:
    """Surrogates cleaned in every string of a JSON value (keys too); iterative, so depth is no risk."""
    if isinstance(value, str):
        return clean_surrogates(value)
    if not isinstance(value, list | dict):
        return value
    root: list[Any] = [value]
    stack: list[tuple[Any, Any, Any]] = [(root, 0, value)]
    while stack:
        parent, key, node = stack.pop()
        if isinstance(node, str):
            parent[key] = clean_surrogates(node)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                stack.append((node, index, item))
        elif isinstance(node, dict):
            for name in [k for k in node if isinstance(k, str) and has_surrogates(k)]:
                node[clean_surrogates(name)] = node.pop(name)
            for name, item in node.items():
                stack.append((node, name, item))
    return root[0]


def loads_json(text: str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON defensively: nesting deeper than ``max_depth`` → ValueError; strings surrogate-clean.

    The C decoder stops itself at the interpreter's recursion limit (RecursionError, turned into
    ValueError here); the depth of what it returns is then measured without recursion.
    """
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested more than {max_depth} levels deep") from None
    if _depth(value) > max_depth:
        raise ValueError(f"nested more than {max_depth} levels deep")
    return clean_value(value)


def _depth(value: Any) -> int:
    deepest = 0
    stack = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            deepest = max(deepest, level)
            stack.extend((item, level + 1) for item in node if isinstance(item, list | dict))
    return deepest


def redact(text: str, known: Iterable[str] = ()) -> tuple[str, int]:
    """``text`` with configured secrets and key-shaped strings replaced; and how many were replaced."""
    count = 0
    for secret in known:
        if secret and len(secret) >= 8 and secret in text:
            count += text.count(secret)
            text = text.replace(secret, REDACTED)
    text, shapes = _KEY_SHAPES.subn(REDACTED, text)
    text, aws = _AWS_SECRET.subn(lambda m: m.group(1) + REDACTED, text)
    return text, count + shapes + aws


def safe_text(text: str, known: Iterable[str] = ()) -> tuple[str, int]:
    """Both guards at once: surrogates cleaned, secrets redacted."""
    return redact(clean_surrogates(text), known)


# Looser shapes for text that is only ever shown in an error or a log line, where a false
# positive costs nothing: "sk-…"/"gsk_…" with any digit in them, and any bearer value.
_LOOSE_KEY = re.compile(r"\b((?:sk|pk|rk|gsk|xai|key|api)[-_])(?=[\w\-*]*\d)[\w\-*]{6,}", re.IGNORECASE)
_LOOSE_BEARER = re.compile(r"(Bearer\s+)\S+", re.IGNORECASE)


def scrub(text: str, known: Iterable[str] = ()) -> str:
    """``text`` for an error message or a log line: secrets out, aggressively."""
    for secret in known:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
    text, _ = redact(text)
    text = _LOOSE_BEARER.sub(r"\1***", text)
    return _LOOSE_KEY.sub(r"\1***", text)
