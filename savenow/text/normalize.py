"""Text normalization and similarity that work for Chinese as well as English.

Whitespace tokens fail on CJK text (``网关令牌不匹配修复`` is one "word"), so the
comparisons here run on *compact* normalized text: NFKC, case-folded,
punctuation / Markdown removed, and no spaces next to CJK characters. The
score blends two views that fail differently:

* rapidfuzz's Indel ratio on word-sorted compact text (order of English words
  does not matter; Chinese is compared character by character), and
* the Dice coefficient of character bigrams (unrelated English titles share
  letters, which inflates the Indel ratio, but rarely share bigrams).

Pure functions, no I/O; the only dependency is rapidfuzz (a C extension,
cheap to import), because the script drop-ins must start fast.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache

from .cjk import cjk_ratio, has_cjk  # noqa: F401  (re-exported: callers of the old textnorm)
from .script import fold_traditional

__all__ = [
    "bigrams",
    "bullet_key",
    "bullet_keys",
    "compact",
    "compact_many",
    "compact_similarity",
    "normalize",
    "normalize_many",
    "similarity",
]

# Everything that is not a letter/digit/whitespace is punctuation, a symbol or
# Markdown markup (` * # > [ ] ( ) ~ |); "_" counts as \w, so name it explicitly.
_NOT_WORD = re.compile(r"[^\w\s]|_")
_SPACES = re.compile(r"\s+")
# Spacing is dropped next to East Asian text, approximated as code points from U+3000 up
# (CJK, kana, Hangul, Yi, compatibility forms): an exact CJK character class costs ~2 ms to
# compile per process, which the script drop-ins cannot afford; Latin, Cyrillic, Greek,
# Arabic, Indic and Thai text all lie below U+3000 and keep their spaces.
_SPACE_NEXT_TO_CJK = re.compile("(?<=[^\\x00-\u2fff]) | (?=[^\\x00-\u2fff])")


def normalize(text: str, *, fold_script: bool = True) -> str:
    """NFKC, case-folded, Traditional Chinese folded onto Simplified, punctuation/Markdown/backticks
    removed, whitespace collapsed. ``fold_script=False`` keeps Traditional characters: what
    savenow 0.2 compared (a tombstone written then holds the hash of that form)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if fold_script:
        folded = fold_traditional(folded)
    return _SPACES.sub(" ", _NOT_WORD.sub(" ", folded)).strip()


@lru_cache(maxsize=4096)
def compact(text: str) -> str:
    """:func:`normalize`, then drop the spaces next to CJK characters.

    ``"网关 令牌, gateway"`` and ``"网关令牌 gateway"`` compare equal: spacing
    around Chinese text is arbitrary, while English words keep one space.
    """
    return _SPACE_NEXT_TO_CJK.sub("", normalize(text))


def bullet_key(text: str) -> str:
    """The key under which two bullets count as the same ("already present")."""
    return normalize(text).replace(" ", "")


@lru_cache(maxsize=4096)
def bigrams(compact_text: str) -> Counter[str]:
    """Character bigrams of compact text; each English word is padded so word edges count."""
    pairs: list[str] = []
    for word in compact_text.split(" "):
        if not word:
            continue
        padded = word if len(word) > 1 and has_cjk(word) else f" {word} "
        pairs.extend(map(str.__add__, padded, padded[1:]))  # each character and the next, in C
    return Counter(pairs)


@lru_cache(maxsize=4096)
def _bigram_multiset(compact_text: str) -> tuple[frozenset[str], int]:
    """The bigrams of :func:`bigrams` as a set with one member per occurrence ("ab", "ab2", "ab3"
    for a bigram seen three times: every bigram has two characters, so no member is another's),
    and their total count. Two such sets intersect in the multiset intersection, in C."""
    grams = bigrams(compact_text)
    members = [gram if n == 1 else f"{gram}{n}" for gram, count in grams.items() for n in range(1, count + 1)]
    return frozenset(members), len(members)


def dice(a: str, b: str) -> float:
    """Dice coefficient of the character bigrams of two compact texts."""
    grams_a, total_a = _bigram_multiset(a)
    grams_b, total_b = _bigram_multiset(b)
    total = total_a + total_b
    if not total:
        return 0.0
    return 2 * len(grams_a & grams_b) / total


def indel(a: str, b: str) -> float:
    """rapidfuzz Indel similarity on word-sorted compact text, in [0, 1]."""
    from rapidfuzz import fuzz  # here, not at import: search loads this module per CLI call (≈ 3 ms)

    return fuzz.token_sort_ratio(a, b) / 100.0


@lru_cache(maxsize=8192)  # the same note and bullet pairs are compared again and again
def compact_similarity(a: str, b: str) -> float:
    """:func:`similarity` for texts already passed through :func:`compact`."""
    if not a or not b:
        return 0.0
    if a == b:
        return 1.0
    return round((indel(a, b) + dice(a, b)) / 2, 4)


def similarity(a: str, b: str) -> float:
    """How alike two titles or bullets are, in [0, 1]; language-agnostic.

    ``网关令牌不匹配修复`` vs ``网关令牌不匹配的修复方法`` ≈ 0.80; unrelated titles
    score below 0.2. Empty text is similar to nothing.
    """
    return compact_similarity(compact(a), compact(b))


# The batch forms run over a whole file's titles or bullets at once, so they avoid per-match
# regex work: ASCII junk (punctuation, symbols, "_", blanks) goes with bytes.translate (C, one
# pass), and only the rarer non-ASCII junk ("，。“”…") is left for a regex.
_ASCII_JUNK = bytes(code for code in range(128) if not chr(code).isalnum() and code != 10)
_ASCII_JUNK_TO_SPACE = bytes.maketrans(_ASCII_JUNK, b" " * len(_ASCII_JUNK))
_NON_ASCII_JUNK = re.compile(r"[^\w\s\x00-\x7f]")
_NON_ASCII_NON_WORD = re.compile(r"[^\w\x00-\x7f]")


def _fold_joined(texts: list[str]) -> str | None:
    """NFKC + casefold of the texts joined by newlines; None when a text has its own newline."""
    joined = "\n".join(texts)
    if joined.count("\n") != len(texts) - 1:
        return None
    folded = unicodedata.normalize("NFKC", joined).casefold()
    return folded if folded.count("\n") == len(texts) - 1 else None


def _utf8_translate(text: str, table: bytes | None, delete: bytes = b"") -> str:
    return text.encode("utf-8", "surrogatepass").translate(table, delete).decode("utf-8", "surrogatepass")


def normalize_many(texts: list[str]) -> list[str]:
    """:func:`normalize` for many one-line texts at once (C passes over all of them, not one per text)."""
    if not texts:
        return []
    folded = _fold_joined(texts)
    if folded is None:  # a text spans lines: do them one by one
        return [normalize(text) for text in texts]
    spaced = _NON_ASCII_JUNK.sub(" ", _utf8_translate(folded, _ASCII_JUNK_TO_SPACE))
    return [" ".join(line.split()) for line in spaced.split("\n")]


def compact_many(texts: list[str]) -> list[str]:
    """:func:`compact` for many one-line texts at once."""
    if not texts:
        return []
    joined = "\n".join(normalize_many(texts))
    return _SPACE_NEXT_TO_CJK.sub("", joined).split("\n")


def bullet_keys(texts: list[str]) -> list[str]:
    """:func:`bullet_key` for many one-line texts at once: every non-letter, non-digit dropped."""
    if not texts:
        return []
    folded = _fold_joined(texts)
    if folded is None:
        return [bullet_key(text) for text in texts]
    return _NON_ASCII_NON_WORD.sub("", _utf8_translate(folded, None, _ASCII_JUNK)).split("\n")
