"""Chinese word segmentation for search: the one place that decides what a "word" of Han text is.

Two segmenters, chosen by measurement (docs/search.md):

* ``bigram`` (the default): every pair of adjacent Han characters. No dictionary, nothing to load
  (0 ms start-up), and every 2-character word (端口, 证书, 备份) is matched exactly, because a
  2-character word *is* a bigram; longer words match as runs of bigrams. The price is a few
  spurious bigrams across word boundaries (书什 in 证书什么); the search ranking ignores query
  bigrams the index has never seen when both their characters are covered by bigrams it has.
* ``jieba``: dictionary words from ``rjieba`` (the Rust jieba-rs binding) or pure-Python ``jieba``,
  plus the bigrams of words longer than two characters, so 2-character sub-words still match.
  It costs a dictionary load per process (rjieba ≈ 0.1–0.4 s, jieba ≈ 0.9 s from its cache), which
  a CLI that answers in tens of milliseconds cannot pay, and it measured no better here.

Pure functions; callers pass runs of Han characters (see :data:`HAN_RUN`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

__all__ = ["HAN_RUN", "SEGMENTERS", "bigram_words", "get_segmenter", "jieba_available"]

# A run of East Asian letters: Han (with extensions), kana, Hangul — written as "everything from
# U+3040 up except CJK/full-width punctuation and emoji", because an exact class of the Han ranges
# costs ~10 ms to compile in every process, which a CLI answering in tens of milliseconds cannot
# afford. Kana and Hangul get bigrams too: no dictionary knows them here either.
HAN_RUN = re.compile("[^\x00-\u303f\ufe30-\ufe4f\uff00-\uffef\U0001f000-\U0001ffff\U00031350-\U0010ffff]+")

Segmenter = Callable[[str], list[str]]


def bigram_words(run: str) -> list[str]:
    """Adjacent pairs of a Han run; a single character stays a word of its own."""
    if len(run) < 2:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


@lru_cache(maxsize=1)
def _jieba_cut() -> Callable[[str], list[str]] | None:
    try:
        import rjieba  # type: ignore[import-not-found,unused-ignore]

        return lambda text: list(rjieba.cut(text))
    except ImportError:
        pass
    try:
        import jieba  # type: ignore[import-not-found,import-untyped,unused-ignore]

        jieba.setLogLevel(60)
        return lambda text: list(jieba.cut(text))
    except ImportError:
        return None


def jieba_available() -> bool:
    return _jieba_cut() is not None


def jieba_words(run: str) -> list[str]:
    """Dictionary words of a Han run, plus the bigrams of each longer word (so 2-char words match)."""
    cut = _jieba_cut()
    if cut is None:
        return bigram_words(run)
    words: list[str] = []
    for word in cut(run):
        words.append(word)
        if len(word) > 2:
            words.extend(bigram_words(word))
    return words


SEGMENTERS: dict[str, Segmenter] = {"bigram": bigram_words, "jieba": jieba_words}


def get_segmenter(name: str) -> Segmenter:
    """``bigram``, ``jieba`` (falls back to bigrams when neither jieba package is installed)."""
    try:
        return SEGMENTERS[name]
    except KeyError:
        raise ValueError(f"unknown segmenter {name!r}; choose one of {sorted(SEGMENTERS)}") from None
