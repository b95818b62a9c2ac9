"""Query expansion through the bilingual concept thesaurus (:mod:`savenow.text.concepts`).

A paraphrase shares no word with its answer: "water heater" / 热水器, "voice actor" / 配音, a
category word in the question and a product in the note. The thesaurus knows such words as
data (written from general language, not from any workspace). For each stretch of the query the
thesaurus knows — longest first, English up to three words, Chinese up to six characters — its
related terms become *alternatives* for the query terms of that stretch: a chunk that says one
of them earns a share of those terms' weight (synonyms most, a narrower term a little less, a
broader one least), never more than the words themselves would, and adds nothing to the budget,
so a chunk that says the words themselves loses nothing (see ``engine._lexical``).
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from ..disk_cache import RACY_NS, FilesKey, store_bytes
from .tokenize import _stem, query_terms

__all__ = ["RELATION_FACTORS", "ConceptExpansion", "concept_expansions"]

# How much of a query word's weight a related term can earn, by relation.
# A broader term is no answer: a note on 保险 does not answer a question about 车险, nor one on
# 证件 a question about 护照; so broader terms are not used (factor 0).
RELATION_FACTORS = {"synonym": 0.7, "narrower": 0.6, "broader": 0.0}
_MAX_EN_WORDS = 3
_MAX_HAN_CHARS = 6
_MAX_RELATED = 40  # a broad word ("food") may have hundreds of narrower terms: the first ones do


class ConceptExpansion(NamedTuple):
    stands_for: tuple[str, ...]  # the query terms of the stretch
    terms: tuple[str, ...]  # the related term's index terms (all needed)
    factor: float
    related: str  # the related term as written (for the reader of a trace)
    same: bool  # a synonym or translation (the word itself, said otherwise), not a narrower term


_CACHE_VERSION = 1
_RACY_NS = RACY_NS  # read at each call, so a test can close the window


@cache
def _thesaurus() -> Any:
    """The packaged concept thesaurus, parsed once per machine rather than once per process.

    Parsing and checking it is the slowest part of a search process's start-up (≈ 4× the time to
    read it back), and a CLI search is one process per question. So the parsed thesaurus is kept
    as plain data (``marshal``: strings, tuples, dicts, never code) in the cache folder, under a
    key made of every file of :mod:`savenow.text` (path, size, mtime, ctime, inode) and the
    Python and savenow versions: an edit or an upgrade of the text toolkit is a new key. A cache
    that cannot be read or written is not used; nothing is stored while a source file is younger
    than two seconds (its mtime may not be final)."""
    from ..text import concepts  # here, not at import: a query whose words are all common never needs it

    key, trusted = _key(Path(concepts.__file__).parent)
    path = _cache_dir() / f"{key}.marshal" if key else None
    if path is not None:
        try:
            state = marshal.loads(path.read_bytes())
            if isinstance(state, dict):
                return concepts.Thesaurus.from_plain_state(state)
        except (OSError, ValueError, EOFError, TypeError):
            pass
    parsed = concepts.thesaurus()
    if path is not None and trusted:
        try:
            _store(path, marshal.dumps(parsed.plain_state()))
        except (ValueError, TypeError):  # state that is not plain data: parse in every process
            pass
    return parsed


def _cache_dir() -> Path:
    from ..settings_cache import cache_dir  # the settings' cache folder; this one beside it

    return cache_dir().parent / "concepts"


def _key(folder: Path) -> tuple[str | None, bool]:
    """(hash of every source of the parsed thesaurus, whether they are old enough to trust)."""
    import sys

    from .. import __version__

    key = FilesKey(_RACY_NS)
    key.add(_CACHE_VERSION, sys.version, __version__, str(folder))
    try:
        with os.scandir(folder) as entries:
            files = sorted(entry.name for entry in entries if entry.name.endswith((".py", ".txt")))
        for name in files:
            key.add_file(name, folder / name)
    except OSError:
        return None, False
    return key.digest(repr), key.trusted


def _store(path: Path, data: bytes) -> None:
    """Written atomically (temp + rename); a folder that cannot be written is simply not used."""
    if store_bytes(path, data):
        _prune(path)


STALE_CACHE_S = 7 * 24 * 3600  # another install or version sharing the folder may still want its copy


def _prune(kept: Path) -> None:
    """Each edit or upgrade of the text toolkit stores a new copy (~0.6 MB): drop the old ones,
    those nobody wrote for a week, so the folder does not grow with every release."""
    import time

    cutoff = time.time() - STALE_CACHE_S
    try:
        for other in kept.parent.glob("*.marshal"):
            if other != kept and other.stat().st_mtime < cutoff:
                other.unlink()
    except OSError:
        pass


def _stretches(query: str) -> Iterable[str]:
    """Candidate stretches of the query: runs of 1..3 English words, Han substrings of 2..6."""
    folded = query.casefold()
    words: list[str] = []
    current: list[str] = []
    for char in folded + " ":
        if char.isascii() and (char.isalnum() or char in "-'"):
            current.append(char)
            continue
        if current:
            words.append(_without_possessive("".join(current).strip("'-")))
            current = []
        if not char.isascii() and char.isalpha():
            words.append(char)  # one Han character per slot; joined below
        elif not char.isspace():
            words.append("")  # punctuation breaks a stretch
    # English n-grams.
    latin = [w if w.isascii() else "" for w in words]
    for size in range(_MAX_EN_WORDS, 0, -1):
        for i in range(len(latin) - size + 1):
            gram = latin[i : i + size]
            if all(gram):
                yield " ".join(gram)
    # Han substrings (runs of consecutive Han slots).
    run: list[str] = []
    for w in [*words, ""]:
        if w and not w.isascii():
            run.append(w)
            continue
        text = "".join(run)
        for size in range(min(_MAX_HAN_CHARS, len(text)), 1, -1):
            for i in range(len(text) - size + 1):
                yield text[i : i + size]
        run = []


def _without_possessive(word: str) -> str:
    """The word without an English possessive (mom's → mom): the thesaurus lists the word."""
    return word[:-2] if word.endswith("'s") and len(word) > 2 else word


def _plural(stretch: str) -> str:
    """The plural of a stretch's last English word ("peanut" → "peanuts", "battery" → "batteries"):
    the thesaurus matches a plural query word to a singular term, not a singular one to a term it
    lists only in the plural (orders, peanuts, lights), so a query's singular looks that up too."""
    if not stretch.isascii() or not stretch[-1:].isalpha():
        return stretch
    if stretch.endswith("y") and stretch[-2:-1] not in "aeiou":
        return stretch[:-1] + "ies"
    if stretch.endswith(("s", "x", "z", "ch", "sh")):
        return stretch + "es"
    return stretch + "s"


def _base_forms(stretch: str) -> tuple[str, ...]:
    """The base forms of a stretch's last English word when it ends in -ed or -ing ("repaired" →
    repair, "charged" → charge, "treating" → treat): the thesaurus lists words in their base form,
    and a question says "who repaired the heater". The light stemmer's form, and it with an e."""
    head, _, last = stretch.rpartition(" ")
    if not last.isascii() or not last.isalpha() or not last.endswith(("ed", "ing")):
        return ()
    stem = _stem(last)
    if stem == last:
        return ()
    prefix = f"{head} " if head else ""
    return tuple(prefix + form for form in (stem, stem + "e"))


def concept_expansions(query: str, segmenter: str = "bigram") -> list[ConceptExpansion]:
    related_terms: Callable[[str], Iterable[Any]] = _thesaurus().related_terms
    asked = {t.term for t in query_terms(query, segmenter) if t.weight > 0}
    covered: set[str] = set()
    out: list[ConceptExpansion] = []
    for stretch in _stretches(query):
        related = (
            tuple(related_terms(stretch))
            or tuple(related_terms(_plural(stretch)))
            or next(filter(None, map(tuple, map(related_terms, _base_forms(stretch)))), ())
        )
        if not related:
            continue
        stands_for = tuple(
            t.term for t in query_terms(stretch, segmenter) if t.weight >= 1 and t.term in asked
        )
        if not stands_for or not covered.isdisjoint(stands_for):
            continue  # a longer known stretch already speaks for (some of) these words
        covered.update(stands_for)
        for item in related[:_MAX_RELATED]:
            relation = str(getattr(item, "relation", "synonym"))
            factor = RELATION_FACTORS.get(relation, 0.0)
            surface = str(getattr(item, "term", item))
            terms = tuple(t.term for t in query_terms(surface, segmenter) if t.weight >= 1)
            if factor > 0 and terms and set(terms).isdisjoint(stands_for):  # 办护照 adds nothing to 护照
                out.append(ConceptExpansion(stands_for, terms, factor, surface, relation == "synonym"))
    return out
