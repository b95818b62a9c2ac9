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
import re
from collections.abc import Iterable, Mapping

from .cjk import CJK_LETTER_RANGES, CJK_PUNCTUATION_RANGES, Ranges

__all__ = [
    "MESSAGE_OVERHEAD_TOKENS",
    "REPLY_PRIMING_TOKENS",
    "count_cjk",
    "estimate_messages_tokens",
    "estimate_tokens",
]


def _utf8_sequences(low: int, high: int) -> list[list[tuple[int, int]]]:
    """Byte ranges, one list per alternative, matching exactly the UTF-8 encodings of ``low..high``.

    The usual split: first where the encoding's length changes, then until every byte after
    the first spans whole continuation ranges, so each alternative is a product of byte ranges."""
    for edge in (0x7F, 0x7FF, 0xFFFF):
        if low <= edge < high:
            return _utf8_sequences(low, edge) + _utf8_sequences(edge + 1, high)
    for trailing in range(1, len(chr(low).encode("utf-8"))):
        mask = (1 << (6 * trailing)) - 1
        if low & ~mask != high & ~mask:
            if low & mask:
                return _utf8_sequences(low, low | mask) + _utf8_sequences((low | mask) + 1, high)
            if high & mask != mask:
                return _utf8_sequences(low, (high & ~mask) - 1) + _utf8_sequences(high & ~mask, high)
    return [list(zip(chr(low).encode("utf-8"), chr(high).encode("utf-8"), strict=True))]


def _utf8_pattern(ranges: Ranges) -> bytes:
    """A bytes regex matching one UTF-8-encoded character of ``ranges``: each alternative starts
    with one literal lead byte, so the matcher skips the other bytes without trying a branch."""
    alternatives = []
    for low, high in sorted(ranges):
        for sequence in _utf8_sequences(low, high):
            (first, last), rest = sequence[0], sequence[1:]
            tail = b"".join(b"\\x%02x" % a if a == b else b"[\\x%02x-\\x%02x]" % (a, b) for a, b in rest)
            alternatives += [b"\\x%02x" % lead + tail for lead in range(first, last + 1)]
    return b"|".join(alternatives)


@functools.cache
def _cjk_utf8() -> re.Pattern[bytes]:
    # The same characters as "[" + char_class(ranges) + "]", matched in the text's UTF-8 bytes:
    # CPython compiles that str class by walking each of its ~40,000 BMP code points (≈ 10 ms of
    # every process that counts Chinese); this bytes pattern compiles in about a millisecond and
    # matches as fast. Compiled at the first non-ASCII text (never for English, `--help`, search).
    return re.compile(_utf8_pattern(CJK_PUNCTUATION_RANGES + CJK_LETTER_RANGES))


# Chat formats wrap each message in a few special tokens (role, separators) and
# prime the reply with a few more; OpenAI documents 3–4 per message and 3 per reply.
MESSAGE_OVERHEAD_TOKENS = 4
REPLY_PRIMING_TOKENS = 3


def count_cjk(text: str) -> int:
    """How many characters of ``text`` count as CJK (one token each)."""
    # surrogatepass: a lone surrogate (JSON allows "\ud800") encodes as bytes no range holds.
    return len(_cjk_utf8().findall(text.encode("utf-8", "surrogatepass")))


def estimate_tokens(text: str) -> int:
    """1 token per CJK character + the other characters / 4 (rounded up)."""
    if text.isascii():  # most tool output and code: no CJK to look for, the same figure
        return (len(text) + 3) // 4  # = ceil(len / 4), in integers
    cjk = count_cjk(text)
    return cjk + (len(text) - cjk + 3) // 4


def estimate_messages_tokens(messages: Iterable[Mapping[str, str]]) -> int:
    """The estimated prompt tokens of chat-completion ``messages`` ({role, content} dicts)."""
    total = REPLY_PRIMING_TOKENS
    for message in messages:
        total += MESSAGE_OVERHEAD_TOKENS + estimate_tokens(message.get("content") or "")
    return total
