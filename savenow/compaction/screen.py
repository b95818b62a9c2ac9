"""A fast first look for the summary's lexicons: skip the texts a lexicon cannot match.

A lexicon such as ``(?<![A-Za-z])(?:error|failed|…)(?![A-Za-z])|报错|…`` opens with a
lookbehind, so ``re`` tries all of its alternatives at every character of every sentence. Yet
every match contains one of a few literal words ("error", "failed", "报错" …): read off the
parsed pattern, they make a plain alternation grouped by first character, which ``re`` scans
many times faster. :class:`Screened` looks for those words first and runs the lexicon's own
search (through :class:`Lexeme`, remembered per chat) only on a text that has one, so every
answer is the lexicon's own: the words are a necessary condition, never a sufficient one.

A pattern whose words cannot be read off with certainty (a scoped inline flag, an alternative
without a literal) is searched as it is.

For a pattern with no such words (a value, a name, a code) see
:func:`savenow.text.alternation.quick_start`: a lookahead on the characters a match can begin with.
"""

from __future__ import annotations

import re
from re import _constants as _sre  # type: ignore[attr-defined]
from re import _parser as _sre_parse  # type: ignore[attr-defined]
from typing import Any

from .chatsignals import Lexeme, lowercased

__all__ = ["Screened", "required_literals"]

_ZERO_WIDTH = (_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT)


def required_literals(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Literal strings of which every match of ``pattern`` contains at least one (lowercased
    when the pattern ignores case), or None when that cannot be read off with certainty."""
    try:
        parsed = _sre_parse.parse(pattern.pattern, pattern.flags)
    except Exception:  # noqa: BLE001 - an unreadable pattern is simply searched as it is
        return None
    words = _required(parsed.data)
    if not words:
        return None
    if (pattern.flags | parsed.state.flags) & re.IGNORECASE:
        words = frozenset(w.lower() for w in words)
    return words


def _required(items: Any) -> frozenset[str] | None:
    """One set of words a match of the sequence ``items`` must contain, the most selective found."""
    best: frozenset[str] | None = None

    def consider(words: frozenset[str] | None) -> None:
        nonlocal best
        if not words or not all(words):
            return
        if best is None or (min(map(len, words)), -len(words)) > (min(map(len, best)), -len(best)):
            best = words

    run: list[str] = []
    for op, av in items:
        if op is _sre.LITERAL:
            run.append(chr(av))
            continue
        if run:  # anything else ends the run of literals (zero-width assertions too: conservative)
            consider(frozenset(["".join(run)]))
            run = []
        if op in _ZERO_WIDTH:
            continue
        if op is _sre.SUBPATTERN:
            _group, add_flags, del_flags, inner = av
            if not add_flags and not del_flags:  # a scoped flag would change what a literal matches
                consider(_required(inner.data))
        elif op is _sre.BRANCH:
            union: set[str] = set()
            for alternative in av[1]:
                words = _required(alternative.data)
                if not words:
                    break
                union |= words
            else:
                consider(frozenset(union))
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT) and av[0] >= 1:
            consider(_required(av[2].data))  # repeated at least once: its words are there
    if run:
        consider(frozenset(["".join(run)]))
    return best


def _alternation(words: frozenset[str]) -> re.Pattern[str]:
    """A pattern that finds any of ``words``, grouped by first character (``re`` tries the
    alternatives of a group only where the character is right)."""
    groups: dict[str, set[str]] = {}
    for word in words:
        groups.setdefault(word[0], set()).add(word[1:])
    parts = []
    for first, rests in sorted(groups.items()):
        if "" in rests:  # the character alone is one of the words
            parts.append(re.escape(first))
        else:
            parts.append(re.escape(first) + "(?:" + "|".join(sorted(map(re.escape, rests))) + ")")
    return re.compile("|".join(parts))


class Screened:
    """``pattern``'s answers, found faster (see the module's docstring)."""

    __slots__ = ("_caseless", "_screen", "lexeme")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.lexeme = Lexeme(pattern)
        words = required_literals(pattern)
        self._screen = _alternation(words) if words else None
        self._caseless = bool(pattern.flags & re.IGNORECASE)

    def search(self, text: str) -> re.Match[str] | None:
        if self._screen is not None:
            seen = lowercased(text) if self._caseless else text
            if seen is not None and self._screen.search(seen) is None:
                return None  # none of the words every match contains
        return self.lexeme.search(text)
