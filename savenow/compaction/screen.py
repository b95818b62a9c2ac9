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

:func:`quick_start` does the same for a pattern with no such words (a value, a name, a code):
a pattern that opens with a lookbehind or an alternation of classes is tried, alternative by
alternative, at every character; a lookahead on the characters a match can begin with (read
off the parsed pattern) turns most characters away after one test. Same matches, same groups.
"""

from __future__ import annotations

import re
from re import _constants as _sre  # type: ignore[attr-defined]
from re import _parser as _sre_parse  # type: ignore[attr-defined]
from typing import Any

from .chatsignals import Lexeme, lowercased

__all__ = ["Screened", "quick_start", "required_literals"]

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


# -- the characters a match can begin with ------------------------------------------------------

_CATEGORIES = {
    _sre.CATEGORY_DIGIT: r"\d",
    _sre.CATEGORY_NOT_DIGIT: r"\D",
    _sre.CATEGORY_SPACE: r"\s",
    _sre.CATEGORY_NOT_SPACE: r"\S",
    _sre.CATEGORY_WORD: r"\w",
    _sre.CATEGORY_NOT_WORD: r"\W",
}


class _Unsure(Exception):
    """The first characters cannot be read off with certainty."""


def _class_char(code: int) -> str:
    return f"\\U{code:08x}" if code > 0xFFFF else f"\\u{code:04x}"


def _set_members(items: Any) -> list[str]:
    """A parsed character class as members of a ``[...]`` class (a negated class: unsure)."""
    members = []
    for op, av in items:
        if op is _sre.LITERAL:
            members.append(_class_char(av))
        elif op is _sre.RANGE:
            members.append(_class_char(av[0]) + "-" + _class_char(av[1]))
        elif op is _sre.CATEGORY and av in _CATEGORIES:
            members.append(_CATEGORIES[av])
        else:
            raise _Unsure
    return members


def _first(items: Any) -> tuple[list[str], bool]:
    """(class members a match of the sequence ``items`` can begin with, whether it can match nothing)."""
    members: list[str] = []
    for op, av in items:
        if op is _sre.LITERAL:
            return [*members, _class_char(av)], False
        if op is _sre.IN:
            return [*members, *_set_members(av)], False
        if op is _sre.CATEGORY and av in _CATEGORIES:
            return [*members, _CATEGORIES[av]], False
        if op in _ZERO_WIDTH:
            continue  # consumes nothing: the next item begins the match
        if op is _sre.SUBPATTERN:
            _group, add_flags, del_flags, inner = av
            if add_flags or del_flags:
                raise _Unsure  # a scoped flag changes what a character matches
            found, empty = _first(inner.data)
        elif op is _sre.ATOMIC_GROUP:
            found, empty = _first(av.data)
        elif op is _sre.BRANCH:
            found, empty = [], False
            for alternative in av[1]:
                more, more_empty = _first(alternative.data)
                found += more
                empty = empty or more_empty
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT):
            found, empty = _first(av[2].data)
            empty = empty or av[0] == 0
        else:
            raise _Unsure  # any character, a back-reference, a conditional
        members += found
        if not empty:
            return members, False
    return members, True


def _skips_ahead(items: Any, flags: int) -> bool:
    """``re`` already skips to where a match can begin: the pattern opens with a character, a
    class, or an alternation of characters, matched with case (a lookahead would only slow it)."""
    while items and items[0][0] is _sre.SUBPATTERN and not items[0][1][1] and not items[0][1][2]:
        items = items[0][1][3].data
    if not items or flags & re.IGNORECASE:
        return False
    op, av = items[0]
    if op is _sre.BRANCH:
        return all(alternative.data and alternative.data[0][0] is _sre.LITERAL for alternative in av[1])
    if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT) and av[0] >= 1 and av[2].data:
        op = av[2].data[0][0]  # [A-Z]{3}: a class, repeated
    return op in (_sre.LITERAL, _sre.IN)


def quick_start(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` behind a lookahead on the characters its matches begin with (see the module's
    docstring); ``pattern`` itself when they cannot be read off, when it can match nothing, or
    when ``re`` finds where to begin on its own."""
    try:
        parsed = _sre_parse.parse(pattern.pattern, pattern.flags)
        if _skips_ahead(parsed.data, pattern.flags):
            return pattern
        members, empty = _first(parsed.data)
        if empty or not members:
            return pattern
        flags = pattern.flags & ~re.UNICODE  # the inline flags of the source come back with it
        return re.compile("(?=[" + "".join(dict.fromkeys(members)) + "])(?:" + pattern.pattern + ")", flags)
    except (_Unsure, re.error):
        return pattern
