"""Does a line say that something *changed*? The words people use for it, as language.

A note that says "改到周日" / "moved to 2026-11-20" / "upgraded to 4.3" replaces an earlier value
of the same thing; search uses that to rank the newer note above the one it supersedes. These
are general verbs of changing in both languages (not words of any one workspace). Plain
substring and word checks, no regular expression: this is imported on the CLI's start-up path.
"""

from __future__ import annotations

import itertools

from .script import fold_traditional

__all__ = ["states_a_change"]


def _words(text: str) -> tuple[str, ...]:
    """A word list written as words (easier to read and edit than a list of quoted strings)."""
    return tuple(text.split())


# Chinese: a verb of changing with its result complement ("改到", "换成", "涨到" …), or a word
# that marks the new or the old state ("不再", "改用", "新的 X …，旧的 Y 不用了", "停用").
_ZH_CHANGE = _words(
    "改成 改为 改到 改用 改走 改在 换成 换到 换了 换为 换用 调到 调成 调为 挪到 移到 迁到 迁移到 搬到 "
    "涨到 涨了 降到 降了 加到 减到 提高到 升到 升级到 更新到 延到 延期到 推迟到 提前到 定为 变成 "
    "变为 切到 切换到 不再 已改 新的 旧的 不用了 停用 弃用"
)

# English: words that only occur when something changed, and two-word forms ("moved to").
_EN_CHANGE_WORDS = frozenset(
    _words(
        "changed switched moved migrated upgraded downgraded replaced rescheduled postponed "
        "raised lowered increased decreased bumped renamed instead anymore"
    )
)
_EN_CHANGE_PAIRS = frozenset(
    ("no longer", "now on", "now runs", "now uses", "now at", "now in", "updated to", "is now")
)


def _english_words(folded: str) -> list[str]:
    words: list[str] = []
    current: list[str] = []
    for char in folded:
        if char.isascii() and (char.isalnum() or char == "'"):
            current.append(char)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def states_a_change(line: str) -> bool:
    """Whether ``line`` says a value or choice changed ("游泳课改到周日", "date moved to …")."""
    folded = fold_traditional(line.casefold())  # the markers are written in Simplified
    if any(marker in folded for marker in _ZH_CHANGE) or "→" in folded or "->" in folded:
        return True
    words = _english_words(folded)
    if any(word in _EN_CHANGE_WORDS for word in words):
        return True
    return any(f"{a} {b}" in _EN_CHANGE_PAIRS for a, b in itertools.pairwise(words))
