"""The shape of chat sentences that every reader of a chat agrees on (the extractor, the summary)."""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["is_question"]

_ZH_QUESTION = re.compile(
    r"[吗呢](?:[。!！]*)$|多少|是不是|怎么|为什么|为啥|什么|哪[个里些儿]|要不要|能不能|会不会|有没有"
)


@lru_cache(maxsize=4096)  # asked about the same sentences by every step of the extractor
def is_question(sentence: str) -> bool:
    """It ends in a question mark, or (all-Chinese words) it has a question particle or word."""
    stripped = sentence.rstrip()
    if stripped.endswith(("?", "？")):
        return True
    return not stripped.isascii() and bool(_ZH_QUESTION.search(stripped))  # its words are all Chinese
