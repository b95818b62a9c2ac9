"""Token estimates without a tokenizer download (DESIGN §7).

One token per CJK character plus the other characters / 4. Real tokenizers
give about 0.7–1.1 tokens per Han character (Qwen ≈ 0.69, o200k ≈ 0.79,
cl100k ≈ 1.10), so counting one per character errs on the safe side for a
prompt budget, while the usual "characters / 4" would undercount Chinese by
about half. CJK punctuation and full-width forms (，。「」（）) count as CJK:
tokenizers rarely merge them with neighbours either.

When a server reports the usage of a request, that figure wins; these
estimates only plan a prompt before it is sent.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping

from .cjk import CJK_LETTER_RANGES, CJK_PUNCTUATION_RANGES, char_class

__all__ = [
    "MESSAGE_OVERHEAD_TOKENS",
    "REPLY_PRIMING_TOKENS",
    "count_cjk",
    "estimate_messages_tokens",
    "estimate_tokens",
]


@functools.cache
def _cjk_char() -> re.Pattern[str]:
    # Compiled at the first non-ASCII text: CPython's charset optimizer walks every code point of
    # the CJK ranges (several ms), which an English session, `--help` or a search never needs.
    return re.compile("[" + char_class(CJK_PUNCTUATION_RANGES + CJK_LETTER_RANGES) + "]")


# Chat formats wrap each message in a few special tokens (role, separators) and
# prime the reply with a few more; OpenAI documents 3–4 per message and 3 per reply.
MESSAGE_OVERHEAD_TOKENS = 4
REPLY_PRIMING_TOKENS = 3


def count_cjk(text: str) -> int:
    """How many characters of ``text`` count as CJK (one token each)."""
    return len(_cjk_char().findall(text))


def estimate_tokens(text: str) -> int:
    """1 token per CJK character + the other characters / 4 (rounded up)."""
    if text.isascii():  # most tool output and code: no CJK to look for, the same figure
        return math.ceil(len(text) / 4)
    cjk = count_cjk(text)
    return cjk + math.ceil((len(text) - cjk) / 4)


def estimate_messages_tokens(messages: Iterable[Mapping[str, str]]) -> int:
    """The estimated prompt tokens of chat-completion ``messages`` ({role, content} dicts)."""
    total = REPLY_PRIMING_TOKENS
    for message in messages:
        total += MESSAGE_OVERHEAD_TOKENS + estimate_tokens(message.get("content") or "")
    return total
