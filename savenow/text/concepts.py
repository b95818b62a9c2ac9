"""A bilingual concept thesaurus: words that mean related things when they share no characters.

``老婆`` and ``wife``, ``证书`` and ``TLS``, ``Uptime Kuma`` and ``监控`` share no character and no
bigram, so character similarity and bigram search cannot connect them. A small multilingual
embedding model would; :file:`concepts.txt` is that knowledge as data, one concept group a line:

    flower              flower|flowers|花|鲜花
    bellflower>flower   bellflower|balloon flower|桔梗

Terms in one group are near-synonyms or translations (relation ``synonym``); the ``>parent``
link is the broader concept (``broader`` seen from the child, ``narrower`` from the parent).

Terms are keyed the way :mod:`savenow.text.normalize` normalizes text (NFKC, case-folded,
punctuation to spaces), so ``Wi-Fi``, ``wi fi`` and ``WI-FI`` are one key. English terms match
whole words (the last word also in its plural: ``web servers``); a multi-word term also matches
written as one word (``web server`` ≈ ``webserver``). Terms holding CJK match by longest match
over the compact text, so ``数据库备份`` finds 数据库 and 备份, ``花钱`` is not 花 when 花钱 is a
term, and overlapping words both count (``下周三``: 下周, 周三).

The file is read once, on first use (about 8 ms idle: ``benchmarks/concepts_load.py``). Only the
standard library and :mod:`savenow.text` are imported.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from itertools import chain, compress, repeat
from operator import ne
from pathlib import Path
from typing import Any, Literal, NamedTuple

from .normalize import compact, compact_many

__all__ = [
    "CONCEPTS_PATH",
    "Concept",
    "ConceptFileError",
    "RelatedTerm",
    "Relation",
    "Thesaurus",
    "ancestors",
    "concepts_in",
    "concepts_of",
    "get_concept",
    "related_terms",
    "thesaurus",
]

CONCEPTS_PATH = Path(__file__).with_name("concepts.txt")

Relation = Literal["synonym", "broader", "narrower"]

_ID = re.compile(r"[a-z0-9][a-z0-9_.+-]*")
_LATIN_WORD = re.compile(r"[0-9a-z\u00c0-\u024f]+")
# "East Asian" the way normalize.compact approximates it (code points from U+3000 up): a key holding
# such a character is matched by longest match over the compact text, not word by word.
_WIDE = re.compile("[^\x00-\u2fff]")
# A rare Han character that survives normalization and no term holds: joins a line's terms for
# one normalization pass (spaces next to it go, like the spaces at a term's ends).
_SENTINEL = "\u9fa5"
_TOO_SHORT = frozenset(["", *"abcdefghijklmnopqrstuvwxyz0123456789"])  # keys that would match anything
# The longest English term, in words; longer runs are never tried.
_MAX_WORDS = 6
_REMEMBERED_TEXTS = 4096  # texts whose concepts a thesaurus remembers (a chat asks about a few hundred)


class ConceptFileError(ValueError):
    """A line of a concepts file is malformed, or the groups do not form a forest."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        super().__init__(f"{source}:{line}: {problem}")
        self.line = line
        self.problem = problem


# NamedTuples, not dataclasses: importing dataclasses (and inspect) would cost more than loading
# the whole thesaurus, and every caller of the text toolkit would pay it.
class Concept(NamedTuple):
    """One group: its id, its broader concept's id, its surface terms as written, its narrower ids."""

    id: str
    parent: str | None
    terms: tuple[str, ...]
    children: tuple[str, ...]


class RelatedTerm(NamedTuple):
    """A surface term related to the one asked about, how, and through which concept group."""

    term: str
    relation: Relation
    concept: str


def singular_forms(word: str) -> tuple[str, ...]:
    """English singulars a plural word may stand for, most likely first (``boxes`` → box, boxe)."""
    if len(word) < 4 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return ()
    if word.endswith("ies") and len(word) > 4:
        return (word[:-3] + "y", word[:-1])
    if word.endswith(("ses", "xes", "zes", "ches", "shes")):
        return (word[:-2], word[:-1])
    return (word[:-1],)


# A well-formed group line, matched over the whole file at once (the fast path of loading).
_GROUP_LINE = re.compile(
    r"^([a-z0-9][a-z0-9_.+-]*)(?:>([a-z0-9][a-z0-9_.+-]*))?\t([^|\s][^\n]*[^|\s]|[^|\s])[ \t\r]*$",
    re.MULTILINE,
)
_CONTENT_LINE = re.compile(r"^[ \t]*[^#\s]", re.MULTILINE)
_BAD_TERM = re.compile(r"\|\s*\||\s\||\|\s")  # an empty term, or spaces around a bar


class _Line(NamedTuple):
    number: int
    id: str
    parent: str | None
    terms: list[str]


def _parse_lines(text: str, source: str) -> list[_Line]:
    """Every group line, line by line, raising on the first malformed one (the slow, precise path)."""
    parsed: list[_Line] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        head, tab, body = line.partition("\t")
        if not tab:
            raise ConceptFileError(source, number, "no TAB between the id and the terms")
        concept_id, arrow, parent = head.partition(">")
        if not _ID.fullmatch(concept_id):
            raise ConceptFileError(source, number, f"bad id {concept_id!r} (lower-case a-z 0-9 _ . + -)")
        if arrow and not _ID.fullmatch(parent):
            raise ConceptFileError(source, number, f"bad parent id {parent!r}")
        terms = body.split("|")
        if any(not term.strip() for term in terms):
            raise ConceptFileError(source, number, "an empty term (check for || or a trailing |)")
        if any(term != term.strip() for term in terms):
            raise ConceptFileError(source, number, "spaces around a | (write a|b, not a | b)")
        parsed.append(_Line(number, concept_id, parent or None, terms))
    return parsed


def _parse_fast(text: str) -> list[_Line] | None:
    """The group lines via one regex over the file; None when a line may be malformed."""
    found = _GROUP_LINE.findall(text)
    if len(found) != len(_CONTENT_LINE.findall(text)) or _BAD_TERM.search(text):
        return None
    return [_Line(0, concept_id, parent or None, body.split("|")) for concept_id, parent, body in found]


class Thesaurus:
    """The parsed, validated groups and the indexes the lookups use."""

    def __init__(self, text: str, source: str = "concepts.txt") -> None:
        self._source = source
        lines = _parse_fast(text) or _parse_lines(text, source)
        self._text = text
        self._groups: dict[str, tuple[str | None, tuple[str, ...]]] = {}
        self._children: dict[str, list[str]] = {}
        self._by_key: dict[str, str] = {}  # compact normalized term → the one concept id holding it
        self._shared: dict[str, tuple[str, ...]] = {}  # … or the several holding it
        self._wide_keys: frozenset[str] = frozenset()  # the keys holding CJK
        self._cjk_longest: dict[str, int] = {}  # first character → longest CJK key starting with it
        self._en_longest: dict[str, int] = {}  # first word → most words of an English key starting with it
        self._found: dict[str, frozenset[str]] = {}  # text → what concepts_in found in it (bounded)
        self._concepts: dict[str, Concept] | None = None
        self._check_forest(lines)
        self._index(lines)

    @classmethod
    def from_file(cls, path: Path = CONCEPTS_PATH) -> Thesaurus:
        return cls(path.read_text(encoding="utf-8"), source=path.name)

    def plain_state(self) -> dict[str, Any]:
        """The parsed indexes as plain data (strings, tuples, dicts), for a cache to keep; what is
        built on first use (:attr:`concepts`, what :meth:`concepts_in` remembers) is left out."""
        return {name: value for name, value in vars(self).items() if name not in ("_concepts", "_found")}

    @classmethod
    def from_plain_state(cls, state: dict[str, Any]) -> Thesaurus:
        """The thesaurus :meth:`plain_state` described, without parsing or checking it again."""
        loaded = cls.__new__(cls)
        loaded.__dict__.update(state)
        loaded._concepts = None
        loaded._found = {}
        return loaded

    # -- building ---------------------------------------------------------------------------
    # Loading must stay in the low milliseconds (a CLI answers in tens): the work is done in
    # C-level passes (one regex over the file, one compact_many over every term, Counter, dict
    # and sorted over lists); per-line Python code runs only to report an error precisely.

    def _fail(self, concept_id: str, problem: str) -> ConceptFileError:
        number = next(
            (line.number for line in _parse_lines(self._text, self._source) if line.id == concept_id), 0
        )
        return ConceptFileError(self._source, number, problem)

    def _check_forest(self, lines: list[_Line]) -> None:
        """Unique ids, known parents, no cycles; fills ``_groups`` and ``_children``."""
        groups = self._groups
        groups.update((line.id, (line.parent, tuple(line.terms))) for line in lines)
        if len(groups) != len(lines):
            duplicate = next(cid for cid, count in Counter(line.id for line in lines).items() if count > 1)
            raise self._fail(duplicate, f"duplicate id {duplicate!r}")
        for line in lines:
            if line.parent is not None:
                if line.parent not in groups:
                    raise self._fail(line.id, f"unknown parent {line.parent!r}")
                self._children.setdefault(line.parent, []).append(line.id)
        rooted: set[str] = set()  # ids whose chain of parents is known to end at a root
        for line in lines:
            chain: list[str] = []
            current: str | None = line.id
            while current is not None and current not in rooted:
                if current in chain:
                    raise self._fail(line.id, "cycle: " + " > ".join([*chain, current]))
                chain.append(current)
                current = groups[current][0]
            rooted.update(chain)

    def _index(self, lines: list[_Line]) -> None:
        # compact_many over each line's terms joined by a sentinel word character (not over each
        # term: normalizing 8,000 short strings one by one costs more than the rest of the load).
        # tests/text/test_concepts.py checks every key equals compact(term).
        compacted = compact_many([_SENTINEL.join(line.terms) for line in lines])
        line_keys = [joined.split(_SENTINEL) for joined in compacted]
        keys = list(chain.from_iterable(line_keys))
        owners = list(chain.from_iterable(repeat(line.id, len(line.terms)) for line in lines))
        by_key = dict(zip(keys, owners))
        if (
            len(keys) != len(owners)
            or sum(map(len, map(set, line_keys))) != len(keys)
            or not by_key.keys().isdisjoint(_TOO_SHORT)
        ):
            self._check_keys(lines)
        if len(by_key) != len(keys):  # a term in several groups: its first and last owner differ
            first = dict(zip(reversed(keys), reversed(owners)))
            shared = set(compress(by_key, map(ne, map(first.__getitem__, by_key), by_key.values())))
            for key, owner in compress(zip(keys, owners), map(shared.__contains__, keys)):
                self._shared[key] = (*self._shared.get(key, ()), owner)
        wide = list(filter(_WIDE.search, by_key))
        self._wide_keys = frozenset(wide)
        self._cjk_longest = {key[0]: len(key) for key in sorted(wide, key=len)}
        multi = [key for key in by_key.keys() - set(wide) if " " in key]
        self._en_longest = {key.partition(" ")[0]: key.count(" ") + 1 for key in sorted(multi, key=len)}
        # "web server" is also written "webserver", "Wi-Fi" as "wifi" (unless that is a term of its own).
        joined = dict(zip([key.replace(" ", "") for key in multi], [by_key[key] for key in multi]))
        for key in multi:
            if key in self._shared:
                self._shared.setdefault(key.replace(" ", ""), self._shared[key])
        self._by_key = {**joined, **by_key}

    def _check_keys(self, lines: list[_Line]) -> None:
        """No term normalizes to nothing or one Latin letter; no group holds a term twice."""
        for line in lines:
            seen: dict[str, str] = {}
            for term in line.terms:
                key = compact(term)
                if _SENTINEL in term:
                    raise self._fail(line.id, f"term {term!r} holds the reserved character {_SENTINEL}")
                if not key or (len(key) == 1 and not _WIDE.search(key)):
                    raise self._fail(line.id, f"term {term!r} normalizes to {key!r}")
                if key in seen:
                    raise self._fail(line.id, f"{term!r} repeats {seen[key]!r} once normalized")
                seen[key] = term

    # -- lookups ----------------------------------------------------------------------------

    @property
    def concepts(self) -> dict[str, Concept]:
        """Every group by id, in file order (built on first use: loading needs only the indexes)."""
        if self._concepts is None:
            self._concepts = {concept_id: self._concept(concept_id) for concept_id in self._groups}
        return self._concepts

    def _concept(self, concept_id: str) -> Concept:
        parent, terms = self._groups[concept_id]
        return Concept(concept_id, parent, terms, tuple(self._children.get(concept_id, ())))

    def get(self, concept_id: str) -> Concept | None:
        return self._concept(concept_id) if concept_id in self._groups else None

    def ancestors(self, concept_id: str) -> tuple[str, ...]:
        """The broader concepts of a group, nearest first."""
        chain: list[str] = []
        parent = self._groups[concept_id][0] if concept_id in self._groups else None
        while parent is not None:
            chain.append(parent)
            parent = self._groups[parent][0]
        return tuple(chain)

    @property
    def term_count(self) -> int:
        """Surface terms over all groups, as written in the file."""
        return sum(len(terms) for _, terms in self._groups.values())

    def _ids(self, key: str) -> tuple[str, ...]:
        owner = self._by_key.get(key)
        if owner is None:
            return ()
        return self._shared.get(key) or (owner,)

    def _ids_plural(self, head: str, last: str) -> tuple[str, ...]:
        """Ids of the key ``head last``, or of ``last``'s singular (``web servers`` → web server)."""
        for candidate in (last, *singular_forms(last)):
            ids = self._ids(f"{head} {candidate}" if head else candidate)
            if ids:
                return ids
        return ()

    def concepts_of(self, term: str) -> tuple[str, ...]:
        """Ids of the groups holding ``term`` (normalized; an English plural finds its singular)."""
        key = compact_many([term.replace("\n", " ")])[0]
        if _WIDE.search(key):
            return self._ids(key)
        head, _, last = key.rpartition(" ")
        return self._ids_plural(head, last)

    def related_terms(self, term: str) -> tuple[RelatedTerm, ...]:
        """The other terms of ``term``'s groups, then their broader and narrower groups' terms."""
        ids = self.concepts_of(term)
        if not ids:
            return ()
        seen = {compact_many([term])[0]}
        related: list[RelatedTerm] = []

        def add(concept_id: str, relation: Relation) -> None:
            surfaces = self._groups[concept_id][1]
            for surface, key in zip(surfaces, compact_many(list(surfaces)), strict=True):
                if key not in seen:
                    seen.add(key)
                    related.append(RelatedTerm(surface, relation, concept_id))

        for concept_id in ids:
            add(concept_id, "synonym")
        for concept_id in ids:
            parent = self._groups[concept_id][0]
            if parent is not None:
                add(parent, "broader")
        for concept_id in ids:
            for child in self._children.get(concept_id, ()):
                add(child, "narrower")
        return tuple(related)

    def concepts_in(self, text: str) -> set[str]:
        """Ids of the concept groups whose terms occur in ``text`` (Chinese and English)."""
        found = self._found.get(text)  # remembered: the same notes and sections are asked about again
        if found is None:
            if len(self._found) >= _REMEMBERED_TEXTS:
                self._found.clear()
            found = self._found[text] = frozenset(self._concepts_in(text))
        return set(found)

    def _concepts_in(self, text: str) -> set[str]:
        if not text:
            return set()
        compacted = compact_many([text.replace("\n", " ")])[0]
        found: set[str] = set()
        self._scan_words(_LATIN_WORD.findall(compacted), found)
        if _WIDE.search(compacted):
            self._scan_cjk(compacted, found)
        return found

    def _scan_words(self, words: list[str], found: set[str]) -> None:
        """Longest match of English keys, word by word; the last word of a match may be a plural."""
        longest_of = self._en_longest
        i = 0
        while i < len(words):
            matched = 0
            for size in range(min(longest_of.get(words[i], 1), len(words) - i), 0, -1):
                ids = self._ids_plural(" ".join(words[i : i + size - 1]), words[i + size - 1])
                if ids:
                    found.update(ids)
                    matched = size
                    break
            i += matched or 1

    def _scan_cjk(self, compacted: str, found: set[str]) -> None:
        """Longest match of the keys holding CJK at each position of the compact text.

        A match nested in a longer one is not a match (花钱 holds no 花), but one that runs past
        the longer one's end is (下周三 is 下周 and 周三).
        """
        wide_keys = self._wide_keys  # English keys ("uptime") match only as whole words
        longest_of = self._cjk_longest
        covered = 0  # end of the matches so far
        end = len(compacted)
        for i in range(end):
            longest = longest_of.get(compacted[i], 0)
            if not longest or i + longest <= covered:
                continue
            # A mixed term ("u盘") starts only at a word's start, not inside "menu盘".
            if i and compacted[i] < "\u3000" and _ascii_alnum(compacted[i - 1]):
                continue
            for size in range(min(longest, end - i), max(covered - i, 0), -1):
                key = compacted[i : i + size]
                if key not in wide_keys:
                    continue
                if _ascii_alnum(key[-1]) and i + size < end and _ascii_alnum(compacted[i + size]):
                    continue  # a term ending in Latin letters ("小米tv") ends a word
                found.update(self._ids(key))
                covered = i + size
                break


def _ascii_alnum(char: str) -> bool:
    return char.isascii() and char.isalnum()


@cache
def thesaurus() -> Thesaurus:
    """The packaged thesaurus, read on first use."""
    return Thesaurus.from_file()


def concepts_in(text: str) -> set[str]:
    """Ids of the packaged concept groups found in ``text``."""
    return thesaurus().concepts_in(text)


def concepts_of(term: str) -> tuple[str, ...]:
    """Ids of the packaged groups holding ``term``."""
    return thesaurus().concepts_of(term)


def related_terms(term: str) -> tuple[RelatedTerm, ...]:
    """Synonyms (same group), broader (parent group) and narrower (child groups) terms of ``term``."""
    return thesaurus().related_terms(term)


def get_concept(concept_id: str) -> Concept | None:
    """The packaged group ``concept_id`` (its terms, parent and children), None when unknown."""
    return thesaurus().get(concept_id)


def ancestors(concept_id: str) -> tuple[str, ...]:
    """The broader groups of a packaged group, nearest first (``uptime_kuma`` → uptime_monitor, monitoring …)."""
    return thesaurus().ancestors(concept_id)
