"""Traditional Chinese folded onto Simplified, one character for one, for matching only.

Users in Taiwan and Hong Kong write Traditional characters (記住, 以後, 連線), while every word list
of savenow (the extractor's lexicons, the thesaurus, the question words of search) is written in
Simplified, and a note saved in one script must be found by a question in the other. So text is
compared through :func:`fold_traditional`, which maps each Traditional character onto its
Simplified form and leaves every other character alone. What is written — a note's bullets, an
object's fields, a snippet — is always the user's own text: the fold is for comparing only.

The fold is one character for one character, so a span found in the folded text is the same span
of the original (the extractor cuts bullets from the original at the positions it matched). It
works on characters, not words: a word only one script uses (軟體 / 软件) stays what it is.

The table (``t2s.txt``, ~4,200 pairs) is data generated from OpenCC's ``t2s`` conversion (the
converter everyone uses; Apache-2.0, see the file's header): ``python -m savenow.text.script``
rewrites it from the installed ``opencc`` (a dev dependency), and a test checks that the file is
what OpenCC gives. Shipping the table rather than calling OpenCC costs no dependency and no start-up
(reading it takes well under a millisecond; OpenCC's dictionaries take ≈ 170 ms to load). Every
character of savenow's own Simplified word lists is a fixed point of the table (a test checks), so
folding never moves a word away from them.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from .cjk import han_run_pattern

__all__ = ["TABLE_PATH", "ScriptRestorer", "fold_traditional", "table_digest"]

TABLE_PATH = Path(__file__).with_name("t2s.txt")
_FIRST_HAN = "\u3400"  # no character below extension A is folded
# Characters OpenCC folds when they stand alone but that Simplified writing keeps in words of its
# own (哪吒): folding them would move those words away from the Simplified word lists. The test
# that every character of savenow's word lists is a fixed point of the fold finds any other.
_ALSO_SIMPLIFIED = frozenset("吒")


def fold_traditional(text: str) -> str:
    """``text`` with each Traditional Chinese character replaced by its Simplified form
    (same length, same positions); text without Chinese characters is returned as it is."""
    if text.isascii() or max(text) < _FIRST_HAN:
        return text
    return text.translate(_table())


class ScriptRestorer:
    """The way back from folded text into the characters the given texts were written in.

    Rules that read a conversation folded build their output from it. :meth:`text` puts each run
    of Chinese characters back: a run the texts hold as it stands stays (a path, a name typed in
    Simplified); else each of its longest stretches the folded texts hold goes back as the texts
    wrote it there (the fold keeps positions: a bullet whose lead-in was cut is two stretches);
    else character by character, but only a character with one Traditional form (风 → 風; 发
    stays, it may be 發 or 髮) that the texts wrote in Traditional. Texts without a
    Traditional character restore nothing."""

    def __init__(self, texts: Iterable[str]) -> None:
        written = list(texts)
        pairs = [(text, folded) for text in written if (folded := fold_traditional(text)) != text]
        originals = [text for text, _ in pairs]
        seen: dict[str, Counter[str]] = {}
        for text, folded in pairs:  # each text folded once
            for original, simple in zip(text, folded):
                if original != simple:
                    seen.setdefault(simple, Counter())[original] += 1
        single = _single_traditional_form()
        self._on = bool(seen)
        self._back = {
            ord(simple): counts.most_common(1)[0][0]
            for simple, counts in seen.items()
            if ord(simple) in single
        }
        self._written = "\0".join(written) if originals else ""
        self._original = "\0".join(originals)
        self._folded = "\0".join(folded for _, folded in pairs)

    def __bool__(self) -> bool:
        return self._on

    def text(self, value: str) -> str:
        if not self._on:
            return value
        return han_run_pattern().sub(self._run_back, value)

    def _run_back(self, match: re.Match[str]) -> str:
        run = match.group()
        if run in self._written:
            return run
        pieces, start = [], 0
        while start < len(run):  # the longest stretch the texts hold, then the next one
            end = self._longest_held(run, start)
            if end - start >= 2:
                at = self._folded.find(run[start:end])
                pieces.append(self._original[at : at + end - start])
            else:  # one character: which Traditional one is in no text's words here
                end = start + 1
                pieces.append(run[start].translate(self._back))
            start = end
        return "".join(pieces)

    def _longest_held(self, run: str, start: int) -> int:
        """The end of the longest ``run[start:end]`` the folded texts hold (``start`` when none)."""
        low, high = start, len(run)  # a stretch held has every shorter prefix held: bisect
        while low < high:
            middle = (low + high + 1) // 2
            if run[start:middle] in self._folded:
                low = middle
            else:
                high = middle - 1
        return low


@cache
def _single_traditional_form() -> frozenset[int]:
    """The Simplified characters only one Traditional character folds onto."""
    sources = Counter(_table().values())
    return frozenset(simplified for simplified, count in sources.items() if count == 1)


@cache
def _table() -> dict[int, int]:
    """Traditional code point → Simplified code point, from ``t2s.txt`` (its two data lines)."""
    lines = [line for line in TABLE_PATH.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    traditional, simplified = lines[0], lines[1]
    return str.maketrans(traditional, simplified)


@cache
def table_digest() -> str:
    """A short hash of the table: an index of folded text is rebuilt when the table changes."""
    try:
        from _blake2 import blake2b  # hashlib would load OpenSSL (≈ 15 ms) on the search path
    except ImportError:  # pragma: no cover - another Python
        from hashlib import blake2b
    return blake2b(TABLE_PATH.read_bytes(), digest_size=6).hexdigest()


def opencc_pairs() -> list[tuple[str, str]]:
    """(Traditional, Simplified) for each BMP ideograph OpenCC's t2s folds onto one other character.

    Each character is converted on a line of its own, so no phrase of OpenCC's spans two of them."""
    import opencc  # type: ignore[import-untyped,unused-ignore]  # a dev dependency

    from .cjk import HAN_RANGES

    try:
        converter = opencc.OpenCC("t2s")
    except Exception:  # noqa: BLE001 - releases before 1.1.7 name the configuration with its suffix
        converter = opencc.OpenCC("t2s.json")
    chars = [chr(code) for low, high in HAN_RANGES if high <= 0xFFFF for code in range(low, high + 1)]
    converted = converter.convert("\n".join(chars)).split("\n")
    if len(converted) != len(chars):
        raise RuntimeError("OpenCC changed the number of lines")
    return [
        (original, folded)
        for original, folded in zip(chars, converted)
        if len(folded) == 1 and folded != original and original not in _ALSO_SIMPLIFIED
    ]


def _table_text(pairs: list[tuple[str, str]], source: str) -> str:
    return (
        "# Traditional -> Simplified, one character for one: line 1 holds the Traditional characters,\n"
        "# line 2 their Simplified forms at the same positions. Generated by `python -m savenow.text.script`\n"
        f"# from {source}'s t2s conversion (OpenCC, https://github.com/BYVoid/OpenCC, Apache License 2.0).\n"
        + "".join(a for a, _ in pairs)
        + "\n"
        + "".join(b for _, b in pairs)
        + "\n"
    )


def main() -> None:
    """Rewrite ``t2s.txt`` from the installed OpenCC."""
    from importlib.metadata import version

    pairs = opencc_pairs()
    temp = TABLE_PATH.with_name(TABLE_PATH.name + ".tmp")
    with temp.open("w", encoding="utf-8") as handle:
        handle.write(_table_text(pairs, f"opencc {version('opencc')}"))
        handle.flush()
        os.fsync(handle.fileno())
    temp.replace(TABLE_PATH)  # a package file is read by running processes: never half-written
    print(f"{len(pairs)} pairs written to {TABLE_PATH}", file=sys.stderr)


if __name__ == "__main__":
    main()
