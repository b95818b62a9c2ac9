"""The wording the object rules and the planning step share: words that make a restated value news
(CHANGED), that say a stored value again (RESTATE, UNCHANGED), the identifiers and numbers a value
must keep (:func:`salient_tokens`), and whether a new text holds most of a stored one.

Kept here, below both :mod:`.heuristic` and :mod:`.extract`, so neither imports the other."""

from __future__ import annotations

import re

from ..text.cjk import han_ngrams
from ..text.patterns import en_words
from .model import norm_name


def pattern(*parts: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    return re.compile("|".join(parts), flags)


CHANGED = pattern(  # words that make a restated name or number a new fact
    en_words("no longer", "not", "isn't", "wasn't", "left", "quit", "moved", "moving", "changed", "switched", "new",
        "anymore", "instead", "now", "former", "ex"),
    "不再|不是|没有|离职|辞职|换|改|搬|调|新|现在|以前|之前|原来|已经不",
)  # fmt: skip
RESTATE = pattern(  # the user says a stored value again ("我自己还是老样子 不吃辣")
    en_words(
        "still", "as usual", "as always", "same as (?:before|always|ever)", "like before", "like always"
    ),
    "老样子|照旧|跟以前一样|和以前一样|还是一样|依旧|照样|仍然|一如既往",
)
# "keep answers short like usual", "时区一样": the user says a value is what it was (never 不一样)
SAME_AGAIN = pattern(
    en_words(
        "like usual",
        "as usual",
        "as always",
        "like always",
        "you already know",
        "same as (?:mine|me|here|ever)",
        "that's unchanged",
    ),
    "你知道的|(?:跟|和|同)[我你][^，。不没]{0,4}一样|[^，。\\s]{2}(?<![不没])一样(?![的地得])|没变",
)
# "好的老周，一直是这么叫的": the assistant's reply says the stored value holds ("我一直是夜猫子" from the
# user is a fact about them, not a restatement)
SAME_IN_REPLY = pattern(SAME_AGAIN.pattern, "一直是|一直都是")
# "还是 2027 年 6 月，没变": the value said again, not a correction of the one before
UNCHANGED = pattern(en_words("unchanged", "no change", "hasn't changed", "not changed", "same as before", "as planned"),
                "没变|不变|没有变|照旧|跟之前一样|和之前一样")  # fmt: skip

_SALIENT = re.compile(
    r"[A-Za-z]+/[A-Za-z_]+|(?:UTC|GMT)\s?[+-]\s?\d+|\d+(?:[.,:/-]\d+)+|[A-Za-z]*\d+[A-Za-z]+\w*|[A-Za-z]+\d+\w*|"
    r"(?<![A-Za-z])[A-Z][A-Za-z]+(?:[-_][A-Za-z0-9]+)*|[a-z]+[-_][a-z0-9]+|\d+"
)
_SALIENT_STOP = {"the", "i", "i'm", "ok", "user", "lives", "wants", "prefers", "the user"}


def salient_tokens(text: str) -> list[str]:
    """Identifiers, numbers and proper words a value must keep (America/Toronto, UTC+8, 14B, Leeds)."""
    found = []
    for match in _SALIENT.finditer(text):
        token = match.group(0).strip()
        if token.casefold() in _SALIENT_STOP or len(token) < 2:
            continue
        found.append(token)
    return found


def contains_stored(new: str, stored: str) -> bool:
    """Most of the stored value's words (Latin) or character pairs (Chinese) are in the new text."""
    mine = norm_name(new)
    words = [w for w in re.findall(r"[a-z0-9]{3,}", norm_name(stored)) if w not in ("user", "the")]
    pairs = han_ngrams(norm_name(stored).replace("用户", " "))
    found = sum(w in mine for w in words) + len(pairs & han_ngrams(mine))
    total = len(words) + len(pairs)
    return total > 0 and found / total >= 0.8
