"""What counts as CJK: the one definition, as code-point ranges.

* **Ideographs** (Han): the unified block, extension A, the compatibility block and
  extensions B..G. A regular expression that means "a Chinese character" uses :data:`HAN`.
* **CJK letters**: ideographs plus kana and Hangul syllables — what :func:`has_cjk` and
  :func:`cjk_ratio` count, and where spacing is arbitrary (DESIGN §5.3).
* **CJK punctuation**: CJK symbols (，。「」) and the half/full-width forms. They are not
  letters, but a tokenizer rarely merges them with neighbours, so token estimates count them.

The ranges are plain data and the helpers string comparisons: compiling an exact CJK
character class costs about 2 ms per process, which the script drop-ins cannot afford;
modules that match CJK in regular expressions build their class from :data:`HAN` /
:func:`char_class` once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache, lru_cache

__all__ = [
    "CJK_LETTER_RANGES",
    "CJK_PUNCTUATION_RANGES",
    "HAN",
    "HANGUL_RANGES",
    "HAN_RANGES",
    "KANA_RANGES",
    "char_class",
    "cjk_ratio",
    "han_ngrams",
    "han_run_pattern",
    "han_runs",
    "has_cjk",
    "is_cjk",
]

Ranges = tuple[tuple[int, int], ...]

HAN_RANGES: Ranges = (
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0x3400, 0x4DBF),  # extension A
    (0xF900, 0xFAFF),  # compatibility ideographs
    (0x20000, 0x3134F),  # extensions B..G
)
KANA_RANGES: Ranges = ((0x3040, 0x30FF),)  # hiragana and katakana
HANGUL_RANGES: Ranges = ((0xAC00, 0xD7AF),)  # Hangul syllables
CJK_LETTER_RANGES: Ranges = HAN_RANGES + KANA_RANGES + HANGUL_RANGES
CJK_PUNCTUATION_RANGES: Ranges = (
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0xFF00, 0xFFEF),  # half-width and full-width forms
)


def char_class(ranges: Ranges) -> str:
    """The body of a regex character class for ``ranges`` (put it inside ``[...]``)."""
    return "".join(f"{chr(low)}-{chr(high)}" for low, high in ranges)


HAN = char_class(HAN_RANGES)  # "[" + HAN + "]" matches one Chinese character


def is_cjk(char: str) -> bool:
    """``char`` is a CJK letter (ideograph, kana or Hangul)."""
    # The common cases first, as string comparisons: most text is below kana or is a unified ideograph.
    if char < "\u3040":
        return False
    if "\u4e00" <= char <= "\u9fff":
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in CJK_LETTER_RANGES)


def has_cjk(text: str) -> bool:
    # max() runs in C: text whose highest character is below kana (accents, dashes, curly quotes)
    # holds no CJK letter, and is_cjk would say so character by character.
    return not text.isascii() and max(text) >= "\u3040" and any(_is_cjk_inline(text))


def _is_cjk_inline(text: str) -> Iterator[bool]:
    """is_cjk of each character, its two common cases without a call (most characters are one)."""
    return (char >= "\u3040" and ("\u4e00" <= char <= "\u9fff" or is_cjk(char)) for char in text)


@lru_cache(maxsize=1024)  # asked about the same bullets, titles and a chat's joined user text again
def cjk_ratio(text: str) -> float:
    """Share of CJK characters among the non-space characters (0.0 for empty text)."""
    visible = len("".join(text.split()))  # str.split() splits at exactly the str.isspace characters
    if not visible:
        return 0.0
    if text.isascii():
        return 0.0
    return sum(1 for cjk in _is_cjk_inline(text) if cjk) / visible


@cache
def han_run_pattern(shortest: int = 1) -> re.Pattern[str]:
    """The pattern of a run of at least ``shortest`` Chinese characters (compiled once, on first use:
    the drop-ins never need it)."""
    return re.compile(f"[{HAN}]{{{shortest},}}")


def han_runs(text: str, shortest: int = 1) -> list[str]:
    """The runs of Chinese characters in ``text`` at least ``shortest`` long, in order."""
    return han_run_pattern(shortest).findall(text)


@lru_cache(maxsize=4096)  # the same sentences and bullets are asked about again and again
def han_ngrams(text: str, n: int = 2) -> frozenset[str]:
    """Every ``n`` consecutive Chinese characters of ``text`` (a segmenter-free view of its words)."""
    found = frozenset(run[i : i + n] for run in han_runs(text, n) for i in range(len(run) - n + 1))
    return found or _NONE  # English text has none: one empty set, not one per remembered text


_NONE: frozenset[str] = frozenset()
