"""Who is who and what is what, as the workspace itself says it: an alias graph for search.

People write their memory with names ("晓晓喜欢白色桔梗", "pi-garage is only exposed via
Tailscale") and ask with roles and kinds ("which flowers does my wife like", "how do I reach the
Raspberry Pi"). The files usually say once which is which — ``林晓（晓晓，老婆）：生日…``,
``- pi-garage: Raspberry Pi 5, Pi-hole``, ``老公 阿杰``, ``my daughter Doudou`` — and this module
reads those statements into *label groups*: labels that name the same person or thing. At query
time a query word found in one label may be answered, at a discount, by the other labels of its
group (:func:`alias_alternatives`).

Only the *shape* of a statement is used — a short head with a colon or parentheses, a role word
next to a name — never words of any one workspace; the role words are general kinship and
household vocabulary (:mod:`savenow.text.roles`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from ..text.cjk import HAN, is_cjk
from ..text.roles import ROLE_WORDS, role_equivalents, starts_with_role
from .tokenize import is_identifier, query_terms

__all__ = ["ALIAS_FACTOR", "alias_alternatives", "label_groups", "label_terms"]

ALIAS_FACTOR = 0.6  # an alias answers a query word for this share of its weight


@dataclass(frozen=True)
class _Patterns:
    """The compiled patterns of the alias reader."""

    list_mark: re.Pattern[str]
    sentence_break: re.Pattern[str]
    definition: re.Pattern[str]  # "HEAD: rest" / "HEAD（alias，role）：rest" / "HEAD — rest"
    parenthesis: re.Pattern[str]  # "NAME（role）" / "NAME (Zhou Ye)" anywhere in a sentence
    is_the: re.Pattern[str]  # "pi-study is the Raspberry Pi in the study"
    clause_end: re.Pattern[str]
    en_role_name: re.Pattern[str]  # "my wife 晓晓", "our daughter Doudou"
    list_split: re.Pattern[str]
    role_attached: re.Pattern[str]  # "女儿朵朵（8 岁）"
    role_spaced: re.Pattern[str]  # "老公 阿杰 (…)", "猫 Mochi"
    role_called: re.Pattern[str]  # "我老婆叫晓晓", "猫叫年糕"
    en_called: re.Pattern[str]  # "our cat is called Mochi", "Mochi is our cat"


@cache
def _patterns() -> _Patterns:
    """Compiled on first use (indexing), not at import: the CLI's start-up stays short."""
    name_end = r"(?=\s*(?:[、，,。；;（(：:]|$))"
    han_roles = sorted((w for w in ROLE_WORDS if not w.isascii()), key=len, reverse=True)
    attached = "|".join(re.escape(w) for w in han_roles if len(w) >= 2)
    spaced = "|".join(re.escape(w) for w in han_roles)
    before = r"(?:^|(?<=[\s、，,（(：:]))"
    return _Patterns(
        list_mark=re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+"),
        sentence_break=re.compile(rf"[。；;]\s*|\.\s+(?=[A-Z{HAN}])"),
        definition=re.compile(
            r"^(?P<head>[^:：（(，,—]{1,30}?)\s*(?:[（(](?P<paren>[^)）]{1,40})[)）])?\s*"
            r"(?:：|:\s|\s[—–]\s)\s*(?P<rest>.+)$"
        ),
        parenthesis=re.compile(r"(?P<name>[\w.\-]+(?: [A-Z][\w.\-]*)?)\s?[（(](?P<paren>[^)）]{1,24})[)）]"),
        is_the=re.compile(r"^(?P<head>[\w.\-]+(?: [\w.\-]+)?) is (?:the|our|my|a|an) (?P<rest>[^,;.]{2,40})"),
        clause_end=re.compile(r"[，,；;（(]| - | — "),
        en_role_name=re.compile(
            rf"\b(?:my|our)\s+(?P<role>[a-z][a-z-]+)\s+(?P<name>[A-Z][\w-]+|[{HAN}]{{2,3}})"
        ),
        list_split=re.compile(r"[,，、/]"),
        role_attached=re.compile(rf"{before}(?P<role>{attached})(?P<name>[{HAN}]{{2,3}}){name_end}"),
        role_spaced=re.compile(
            rf"{before}(?P<role>{spaced})\s+(?P<name>[A-Z][\w-]{{1,19}}|[{HAN}]{{2,3}}){name_end}"
        ),
        role_called=re.compile(
            rf"(?P<role>{spaced})(?:的名字)?(?:叫做|名叫|叫)\s*(?P<name>[A-Z][\w-]{{1,19}}|[{HAN}]{{2,3}})"
        ),
        en_called=re.compile(
            r"\b(?:(?:my|our)\s+(?P<role>[a-z][a-z-]+)(?:'s name)?\s+(?:is called|is named|called|named|is)\s+"
            r"(?P<name>[A-Z][\w-]+)|(?P<name2>[A-Z][\w-]+) is (?:my|our) (?P<role2>[a-z][a-z-]+)\b)"
        ),
    )


_MAX_LABEL_WORDS = 6


def _clean(label: str) -> str | None:
    label = label.strip().strip("`*\"'“”「」《》").strip()
    if not any(ch.isalpha() for ch in label):
        return None  # a number, a date, an age: says nothing about who or what
    if len(label) < (3 if label.isascii() else 2) and label not in ROLE_WORDS:
        return None  # "ro", "rw" (but a role word such as 猫 is a label)
    if len(label.split()) > _MAX_LABEL_WORDS or len(label) > 40:
        return None
    return label


def _head_is_short(head: str) -> bool:
    words = head.split()
    if not words or len(words) > 3:
        return False
    return sum(1 for ch in head if is_cjk(ch)) <= 6


def _first_clause(rest: str) -> str:
    return _patterns().clause_end.split(rest, maxsplit=1)[0]


def _names_a_thing(head: str) -> bool:
    """A host or other named thing (``pve-01``, ``media-01``, ``pi-study``): letters with digits
    or joined by ``-``/``.``, the kind of head a daily note defines in passing."""
    return is_identifier(head.casefold()) and any(ch.isalpha() for ch in head)


def _glosses(name: str, paren: str) -> bool:
    """Whether parentheses in a daily note say what ``name`` is rather than add a detail: a role
    (``刘姐 (bookkeeper)``) or the same name in the other script (``氨氯地平 (amlodipine)``) — not
    ``Jellyfin (LXC 102)`` or ``阿凯 (美术)``."""
    if paren.casefold() in ROLE_WORDS:
        return True
    if any(ch.isdigit() for ch in paren) or any(sep in paren for sep in ",，、;；"):
        return False
    return name.isascii() != paren.isascii() and len(paren.split()) <= 3


def _sentence_groups(sentence: str, standing: bool) -> list[tuple[str, ...]]:
    patterns = _patterns()
    groups: list[tuple[str, ...]] = []
    match = patterns.definition.match(sentence)
    head = match.group("head").strip() if match else ""
    if match and _head_is_short(head) and (standing or _names_a_thing(head)):
        # "林晓（晓晓，老婆）：生日…" says who in the parentheses; "佳琪：老婆，生日…" in the first clause.
        labels = [head]
        if match.group("paren"):
            labels.extend(patterns.list_split.split(match.group("paren")))
        else:
            labels.append(_first_clause(match.group("rest")))
        groups.append(tuple(labels))
    for found in patterns.parenthesis.finditer(sentence):
        name, paren = found.group("name"), found.group("paren").strip()
        if match and name == head:
            continue  # the definition above has it
        if standing or _glosses(name, paren):
            groups.append((name, *patterns.list_split.split(paren)))
    is_the = patterns.is_the.match(sentence)
    if is_the:
        groups.append((is_the.group("head"), is_the.group("rest")))
    for role_name in patterns.en_role_name.finditer(sentence):
        if role_name.group("role") in ROLE_WORDS:
            groups.append((role_name.group("role"), role_name.group("name")))
    groups.extend(_role_next_to_name(sentence))
    return groups


def _role_next_to_name(sentence: str) -> Iterable[tuple[str, str]]:
    """ "老公 阿杰 (…)", "女儿朵朵（8 岁）", "猫 Mochi": a role word with a short name right after it,
    the name ending the item (a list of family members), so that "老婆生日 3 月 8 日" is no name;
    or said outright: "我老婆叫晓晓", "our cat is called Mochi", "Mochi is our cat"."""
    patterns = _patterns()
    for pattern in (patterns.role_attached, patterns.role_spaced, patterns.role_called):
        for found in pattern.finditer(sentence):
            if starts_with_role(found.group("name")) is None:
                yield (found.group("role"), found.group("name"))
    for found in patterns.en_called.finditer(sentence):
        role = found.group("role") or found.group("role2")
        name = found.group("name") or found.group("name2")
        if role in ROLE_WORDS and starts_with_role(name) is None:
            yield (role, name)


def label_groups(text: str, standing: bool = False) -> list[tuple[str, ...]]:
    """Every label group a file's text states (see the module docstring); each has 2+ labels.

    ``standing``: the file of standing facts (``MEMORY.md``), where any short ``head: what it is``
    line is a definition; elsewhere only a named thing's (``media-01: Debian 12 + Docker``) is,
    because a daily note's ``原因：…`` or ``Next rotation: …`` is a field, not a name."""
    groups: list[tuple[str, ...]] = []
    in_code = False
    for raw in text.split("\n"):
        line = raw.strip()
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code or not line or line.startswith("#"):
            continue
        line = _patterns().list_mark.sub("", line)
        for sentence in _patterns().sentence_break.split(line):
            for group in _sentence_groups(sentence.strip(), standing):
                labels = tuple(dict.fromkeys(label for raw_label in group if (label := _clean(raw_label))))
                if len(labels) >= 2:
                    groups.append(labels)
    return groups


def label_terms(group: tuple[str, ...], segmenter: str = "bigram") -> tuple[frozenset[str], ...]:
    """The search terms of each label of a group (what a query word is looked up against)."""
    return tuple(
        frozenset(t.term for t in query_terms(label, segmenter) if t.weight >= 1 and t.whole is None)
        for label in group
    )


def alias_alternatives(
    query: list[str],
    groups: Iterable[tuple[frozenset[str], ...]],
    said_otherwise: Iterable[tuple[tuple[str, ...], tuple[str, ...]]] = (),
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(query terms, index terms) pairs: the query terms found in one label of a group — as
    themselves, as another word of the same role (wife → 老婆), or as one of ``said_otherwise``
    (query terms, the terms of a synonym: 服务器 → 主机) — answered by every other label of the
    group (all of that label's terms together)."""
    ways: list[tuple[tuple[str, ...], frozenset[str]]] = []
    for term in query:
        ways.extend(((term,), frozenset({word})) for word in {term, *role_equivalents(term)})
    ways.extend((stands_for, frozenset(terms)) for stands_for, terms in said_otherwise if terms)
    asked = set(query)
    out: dict[tuple[tuple[str, ...], tuple[str, ...]], None] = {}
    for labels in groups:
        for i, own in enumerate(labels):
            hit = tuple(sorted({q for stands_for, terms in ways if terms <= own for q in stands_for}))
            if not hit:
                continue
            for j, other in enumerate(labels):
                if j != i and other and other.isdisjoint(asked):
                    out[(hit, tuple(sorted(other)))] = None
    return list(out)
