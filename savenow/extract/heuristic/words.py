"""Content words of a sentence: Latin words, identifiers-as-terms and Chinese bigrams."""

from __future__ import annotations

import re

from ...text.cjk import han_ngrams
from ...text.identifiers import identifiers
from ...text.stopwords import EN_COMMON_WORDS, EN_SMALL_WORDS, ZH_FACT_TERM_HAN
from .cache import text_cache


@text_cache
def text_words(text: str) -> frozenset[str]:
    return (
        frozenset(w.casefold() for w in WORD.findall(text)) - EN_COMMON_WORDS
        | identifiers(text)
        | cjk_bigrams(text)
    )


WORD = re.compile(r"[A-Za-z][A-Za-z0-9]{3,}")


def cjk_bigrams(text: str) -> frozenset[str]:
    return han_ngrams(text, 2)


_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*")


@text_cache
def fact_terms(text: str) -> frozenset[str]:
    words = {w.casefold() for w in _TERM.findall(text) if len(w) >= 2} - EN_COMMON_WORDS - EN_SMALL_WORDS
    grams = {g for g in cjk_bigrams(text) if not set(g) & ZH_FACT_TERM_HAN}
    return frozenset(words | grams)


@text_cache
def quantities(text: str) -> frozenset[str]:
    """Numbers a fact states, units or currency around them or not ("850mg", "€6.49", "17:00"):
    two digits or more, or a decimal — "1 月", "一天 2 次" identify nothing on their own."""
    found = frozenset(m.group(0) for m in _QUANTITY.finditer(text) if _digits(m.group(0)) >= 2)
    return found or _NONE  # most sentences state none: one empty set, not one per remembered text


_NONE: frozenset[str] = frozenset()


def _digits(number: str) -> int:
    """The digits of a :data:`_QUANTITY` match: all of it but its separators (no regex per match)."""
    return len(number) - number.count(".") - number.count(":") - number.count(",")


_QUANTITY = re.compile(r"(?<![\w.])\d+(?:[.:,]\d+)*")
