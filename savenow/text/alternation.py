"""Compile a long alternation of words so that ``search`` skips, in C, every position no word can start at.

A lexicon is a long list of alternatives (``(?<![A-Za-z])(?:from now on|always|never|…)(?![A-Za-z])``
plus Chinese words). CPython's regex engine skips quickly over the text only when it knows the set
of characters a match can start with (``_compile_info``'s charset prefix), and it knows that only
when every top-level alternative starts with a plain character. The leading letter lookbehind, an
optional word (``(?:the )?rule is``) or a group (``(?:笔记|记录)里也``) hides it, so the engine runs
its whole matcher at every position of every sentence, for every lexicon.

:func:`compile_alternation` rewrites the parsed pattern into one that matches exactly the same
spans, in the same order of preference, and starts with plain characters:

* a group or an optional part in front is distributed over the rest, keeping the order in which the
  engine tries them: ``(?:a|b)c`` is ``ac|bc``, greedy ``(?:a)?c`` is ``ac|c`` (lazy: ``c|ac``),
  ``a+c`` is ``aa*c``, and a small class ``[sz]e`` is ``se|ze``;
* a lookbehind in front moves after the first character, which it then also checks:
  ``(?<![A-Za-z])a…`` is ``a(?<![A-Za-z]a)…`` (the same test of the same characters);
* the alternatives are then grouped by their first character (two alternatives that start with
  different characters never both match at one position, so their relative order is free), and the
  alternatives of one group share their common leading parts (``as (?:agreed|noted|…)``), keeping
  their order.

Anything it cannot rewrite this way (a capturing group, an anchor, a lookahead, a class or
repetition in front, an alternative that may match the empty string) leaves the pattern as it
was: :func:`compile_alternation` then returns the ordinary compiled pattern.

:func:`quick_start` is the lighter tool for a pattern that cannot be rewritten (a value, a name,
a code: classes and groups in front): it puts a lookahead on the characters a match can begin with,
read off the parsed pattern, in front of the pattern as it is.
"""

from __future__ import annotations

import importlib
import re
from typing import Any

try:  # the parser and compiler behind ``re`` (CPython 3.11+): parsed, rewritten, compiled
    _parser: Any = importlib.import_module("re._parser")
    _compiler: Any = importlib.import_module("re._compiler")
    _constants: Any = importlib.import_module("re._constants")
    ASSERT, ASSERT_NOT, BRANCH, IN = (
        _constants.ASSERT,
        _constants.ASSERT_NOT,
        _constants.BRANCH,
        _constants.IN,
    )
    LITERAL, SUBPATTERN, MAXREPEAT = _constants.LITERAL, _constants.SUBPATTERN, _constants.MAXREPEAT
    MAX_REPEAT, MIN_REPEAT = _constants.MAX_REPEAT, _constants.MIN_REPEAT
except (ImportError, AttributeError):  # pragma: no cover - another implementation of ``re``: no rewriting
    _parser = None

__all__ = ["compile_alternation", "quick_start", "rewritten"]

_LIMIT = 2000  # alternatives after distributing; beyond that, the pattern is left as it was
_SMALL_CLASS = 8  # a class of at most this many plain characters in front is split into them

Item = tuple[Any, Any]


class _CannotRewrite(Exception):
    pass


def compile_alternation(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, or a pattern with the same matches that ``search`` runs faster
    (see the module's docstring). Case-sensitive patterns only: under IGNORECASE a letter is no
    plain character, so those are compiled as they are."""
    pattern = rewritten(source, flags)
    return pattern if pattern is not None else re.compile(source, flags)


def rewritten(source: str, flags: int = 0) -> re.Pattern[str] | None:
    """The rewritten pattern, or None when ``source`` cannot be rewritten (or needs no rewriting)."""
    flags = int(flags)  # as re.compile does: RegexFlag arithmetic in the compiler is slow
    if _parser is None or flags & (re.IGNORECASE | re.VERBOSE | re.LOCALE):
        return None
    try:
        parsed = _parser.parse(source, flags)
        if parsed.state.groups > 1:
            return None  # capturing groups would be copied and renumbered
        alternatives = _starting_plain(list(parsed.data))
        if alternatives == [list(parsed.data)]:
            return None  # already starts with a plain character or a class: the compiler knows its charset
        if len(alternatives) > 1 and any(alt[0][0] is not LITERAL for alt in alternatives):
            return None  # a class beside other alternatives: no charset the compiler would use
        tree = _parser.SubPattern(parsed.state, _alternation(parsed.state, alternatives))
        return _compiler.compile(tree, flags)
    except (_CannotRewrite, RecursionError, re.error):
        return None


def _starting_plain(sequence: list[Item]) -> list[list[Item]]:
    """Sequences, each starting with a plain character (or a class), whose alternation (in this
    order) matches what ``sequence`` matches, with the same preference."""
    if not sequence:
        raise _CannotRewrite("may match the empty string")
    (op, av), rest = sequence[0], sequence[1:]
    if op is LITERAL:
        return [sequence]
    if op is BRANCH:
        return _bounded([alt for branch in av[1] for alt in _starting_plain(list(branch.data) + rest)])
    if op is SUBPATTERN:
        group, add_flags, del_flags, inner = av
        if group is not None or add_flags or del_flags:
            raise _CannotRewrite("a group or flags in front")
        return _starting_plain(list(inner.data) + rest)
    if op in (MAX_REPEAT, MIN_REPEAT):
        low, high, inner = av
        if low == 0 and high == 1:
            taken, skipped = list(inner.data) + rest, rest
            tried, then = (taken, skipped) if op is MAX_REPEAT else (skipped, taken)
            return _bounded(_starting_plain(tried) + _starting_plain(then))
        if low >= 1:  # x{n,m} is x then x{n-1,m-1}, tried in the same order (greedy or lazy)
            high = high if high == MAXREPEAT else high - 1
            tail = [(op, (low - 1, high, inner))] if high else []
            return _starting_plain(list(inner.data) + tail + rest)
        raise _CannotRewrite("a repetition in front")
    if op is IN:
        if len(av) <= _SMALL_CLASS and all(member_op is LITERAL for member_op, _ in av):
            return [[(LITERAL, code), *rest] for _, code in av]  # one character each: never both at one place
        return [sequence]  # a larger class: fine as the only alternative (then it is the charset)
    if op in (ASSERT, ASSERT_NOT) and av[0] < 0:  # a lookbehind: checked after the first character
        direction, behind = av
        moved: list[list[Item]] = []
        for alternative in _starting_plain(rest):
            one = alternative[0]  # one character, known to match there: the lookbehind checks it too
            check = _parser.SubPattern(behind.state, [*behind.data, one])
            moved.append([one, (op, (direction, check)), *alternative[1:]])
        return moved
    raise _CannotRewrite(f"{op} in front")


def _bounded(alternatives: list[list[Item]]) -> list[list[Item]]:
    if len(alternatives) > _LIMIT:
        raise _CannotRewrite("too many alternatives")
    return alternatives


def _alternation(state: Any, alternatives: list[list[Item]]) -> list[Item]:
    """One item list matching the alternatives in order, with shared leading items factored out."""
    if len(alternatives) == 1:
        return alternatives[0]
    runs: list[tuple[Item | None, list[list[Item]]]] = []
    if all(alt and alt[0][0] is LITERAL for alt in alternatives):
        by_char: dict[Any, list[list[Item]]] = {}  # different first characters: order is free
        for alt in alternatives:
            by_char.setdefault(alt[0][1], []).append(alt)
        runs = [(group[0][0], group) for group in by_char.values()]
    else:  # only neighbours with the same first item share it
        for alt in alternatives:
            key = alt[0] if alt else None
            if runs and alt and runs[-1][0] is not None and _same(runs[-1][0], key):
                runs[-1][1].append(alt)
            else:
                runs.append((key, [alt]))
    branches: list[list[Item]] = []
    for first, group in runs:
        if first is None or len(group) == 1:
            branches.extend(group)
        else:
            branches.append([first, *_alternation(state, [alt[1:] for alt in group])])
    if len(branches) == 1:
        return branches[0]
    return [(BRANCH, (None, [_parser.SubPattern(state, branch) for branch in branches]))]


def _same(a: Item | None, b: Item | None) -> bool:
    return a is not None and b is not None and repr(a) == repr(b)


# -- quick_start: a lookahead on the characters a match can begin with ---------------------------

_CATEGORIES: dict[Any, str] = (
    {
        _constants.CATEGORY_DIGIT: r"\d",
        _constants.CATEGORY_NOT_DIGIT: r"\D",
        _constants.CATEGORY_SPACE: r"\s",
        _constants.CATEGORY_NOT_SPACE: r"\S",
        _constants.CATEGORY_WORD: r"\w",
        _constants.CATEGORY_NOT_WORD: r"\W",
    }
    if _parser is not None
    else {}
)


class _Unsure(Exception):
    """The first characters cannot be read off with certainty."""


def quick_start(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` behind a lookahead on the characters its matches begin with, or ``pattern``
    itself when they cannot be read off, when it can match nothing, or when ``re`` finds where
    to begin on its own.

    A pattern that opens with a lookbehind, or an alternation of classes (a value, a name, a code),
    is tried alternative by alternative at every character; ``(?=[…])`` on the characters its
    matches can begin with (read off the parsed pattern) turns most characters away after one
    test. The pattern is wrapped as it is, so its matches and groups stay the same.
    """
    if _parser is None or pattern.pattern is None:  # None: compiled from a rewritten tree, no source
        return pattern
    try:
        parsed = _parser.parse(pattern.pattern, pattern.flags)
        if _skips_ahead(parsed.data, pattern.flags):
            return pattern
        members, empty = _first(parsed.data)
        if empty or not members:
            return pattern
        flags = pattern.flags & ~re.UNICODE  # the inline flags of the source come back with it
        return re.compile("(?=[" + "".join(dict.fromkeys(members)) + "])(?:" + pattern.pattern + ")", flags)
    except (_Unsure, RecursionError, re.error):
        return pattern


def _class_char(code: int) -> str:
    return f"\\U{code:08x}" if code > 0xFFFF else f"\\u{code:04x}"


def _set_members(items: Any) -> list[str]:
    """A parsed character class as members of a ``[...]`` class (a negated class: unsure)."""
    members = []
    for op, av in items:
        if op is LITERAL:
            members.append(_class_char(av))
        elif op is _constants.RANGE:
            members.append(_class_char(av[0]) + "-" + _class_char(av[1]))
        elif op is _constants.CATEGORY and av in _CATEGORIES:
            members.append(_CATEGORIES[av])
        else:
            raise _Unsure
    return members


def _first(items: Any) -> tuple[list[str], bool]:
    """(class members a match of the sequence ``items`` can begin with, whether it can match nothing)."""
    members: list[str] = []
    for op, av in items:
        if op is LITERAL:
            return [*members, _class_char(av)], False
        if op is IN:
            return [*members, *_set_members(av)], False
        if op is _constants.CATEGORY and av in _CATEGORIES:
            return [*members, _CATEGORIES[av]], False
        if op in (_constants.AT, ASSERT, ASSERT_NOT):
            continue  # consumes nothing: the next item begins the match
        if op is SUBPATTERN:
            _group, add_flags, del_flags, inner = av
            if add_flags or del_flags:
                raise _Unsure  # a scoped flag changes what a character matches
            found, empty = _first(inner.data)
        elif op is _constants.ATOMIC_GROUP:
            found, empty = _first(av.data)
        elif op is BRANCH:
            found, empty = [], False
            for alternative in av[1]:
                more, more_empty = _first(alternative.data)
                found += more
                empty = empty or more_empty
        elif op in (MAX_REPEAT, MIN_REPEAT, _constants.POSSESSIVE_REPEAT):
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
    while items and items[0][0] is SUBPATTERN and not items[0][1][1] and not items[0][1][2]:
        items = items[0][1][3].data
    if not items or flags & re.IGNORECASE:
        return False
    op, av = items[0]
    if op is BRANCH:
        return all(alternative.data and alternative.data[0][0] is LITERAL for alternative in av[1])
    if op in (MAX_REPEAT, MIN_REPEAT) and av[0] >= 1 and av[2].data:
        op = av[2].data[0][0]  # [A-Z]{3}: a class, repeated
    return op in (LITERAL, IN)
