"""Pieces of regular expressions every lexicon shares (the extractor's, the objects rules', the
compaction summary's)."""

from __future__ import annotations

__all__ = ["en_words"]


def en_words(*alternatives: str) -> str:
    """English words or phrases, not inside a longer Latin word: letter lookarounds rather than
    ``\\b``, which fails beside Chinese (a Chinese character is a word character, so ``\\bemoji\\b``
    would not match inside ``用emoji了``)."""
    return "(?<![A-Za-z])(?:" + "|".join(alternatives) + ")(?![A-Za-z])"
