"""Search tokens that work for English, Chinese and identifiers alike (DESIGN §12).

* Identifiers stay whole *and* split into parts: ``vm.overcommit_memory`` gives
  ``vm.overcommit_memory``, ``vm``, ``overcommit``, ``memory``; ``-1003566973693`` keeps its
  leading minus (and ``1003566973693``); ``postgres:16.4-alpine``, ``203.0.113.47``, ``a828e60``.
* English words are case-folded and lightly stemmed (plural/-ed/-ing), stop words dropped from
  queries only.
* Han text is segmented by :mod:`savenow.text.segment` (bigrams by default).

The same function tokenizes documents and queries, so both sides always agree.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from ..text.script import fold_traditional
from ..text.segment import HAN_RUN, bigram_words, get_segmenter

__all__ = ["QueryTerm", "document_terms", "is_identifier", "query_terms", "subject_terms"]

# One scan finds Han runs and "words": Latin/digit runs joined by identifier punctuation. A
# leading "-" belongs to a number ("-1003566973693", a Telegram chat id), not to a word.
_WORD_CHARS = "0-9a-z_\u00c0-\u024f"
_SCAN = re.compile(
    HAN_RUN.pattern + f"|(?:(?<![{_WORD_CHARS}])-+)?[{_WORD_CHARS}]+(?:[.\\-:/@+#]+[{_WORD_CHARS}]+)*"
)
_PART_SPLIT = re.compile(r"[.\-:/@+#_]+")
_MAJOR_SPLIT = re.compile(r"[:/@]+")  # host:port, image:tag, a/path, user@host
_HEX = re.compile(r"[0-9a-f]{8,64}")
SHORT_HASH = 7  # git's short form: a note may hold either


def _words(text: str) -> list[str]:
    """A word list written as words (easier to read and edit than a list of quoted strings)."""
    return text.split()


PART_WEIGHT = 0.35  # a query's identifier parts count, but the whole identifier counts most

_EN_STOP = frozenset(
    _words(
        "a an the is are was were be been being am do does did done doing have has had i me my mine "
        "we our you your he she it its they them their this that these those what which who whom "
        "whose when where why how there here of to in on at by for from with without about into onto "
        "over under up down out off and or but if then so than too very can could should would will "
        "shall may might must not no yes just also any some all each every s t d ll re ve m o y get "
        "got set now current currently last please tell show find much many "
        "time use using need say said thing something anything somebody someone "
        # words that name the kind of answer, not the subject ("the cholesterol result", "the name
        # of the teacher"): a note gives the value and rarely says "result" (Chinese: below)
        "name value result detail info whether before after another other again still ever while during "
    )
)
# Han characters that only ask or bind ("which", "what", particles): a query bigram holding one
# carries no subject. Indexed text keeps them (they are harmless there).
_ZH_STOP_CHARS = frozenset("的了吗呢吧啊哪么啥谁几怎呀嘛是")
# Prepositions and coverbs (对 to/about, 把, 给, 跟, 向, 从): in a question they bind the words
# around them ("孩子对什么过敏", "油墨从哪家店买") and belong to neither, so a bigram across one (子对)
# is a seam, not a word — some note may hold those two characters by chance. Found by position like
# the question words; the few common words they begin or end (对象, 跟进, 方向 …) stay words.
_ZH_COVERB_CHARS = frozenset("对把给跟向从")
_ZH_COVERB_WORDS = frozenset(
    _words(
        "对象 对比 对接 对账 对面 对方 对应 对话 面对 核对 校对 把手 给予 供给 跟进 跟踪 方向 向导 从来 自从 服从"
    )
)
# 几/哪 with a measure word is one question word (几号, 几点, 哪天, 哪台, 哪款): 号交 in 房租几号交 is no word.
# So is 这/那 with one ("that one": 那台, 这家, 那次): 家里那台服务器 asks about 家里 and 服务器, and
# 里那 / 台服 are seams, not words.
_ZH_WHICH = frozenset("几哪这那")
_ZH_MEASURE_WORDS = frozenset("号点天个岁次年月周台家款种位条本件块张只首句")
_ZH_STOP_WORDS = frozenset(
    _words(
        "什么 时候 多少 如何 为什 怎样 是否 是不 有没 没有 现在 目前 一下 哪里 哪儿 哪些 这个 那个 一个 是什 可以 能不 应该 是 在 和 与 有 要 我 你 吧 "
        "需要 怎么 后来 以后 之前 之后 多久 回事 已经 还是 就是 但是 一般 记得 知道 告诉 在哪 "
        # Words that name the kind of answer, not the subject (尿酸指标多少, 体检结果, 叫什么名字):
        # a note gives the value ("尿酸 520") and rarely says 指标.
        "指标 数值 读数 结果 情况 名字 名称 具体 比例 占比 原因 "
    )
)


@dataclass(frozen=True)
class QueryTerm:
    """A query's term and how much it counts."""

    term: str
    weight: float
    han: bool = False  # a Han bigram: absent from the index, it may just straddle two words
    whole: str | None = None  # for a piece of an identifier: the identifier it came from


def _fold(text: str) -> str:
    """What documents and queries are compared as: NFKC, case-folded, Traditional Chinese folded
    onto Simplified (one character for one, so a note in either script answers a question in the other)."""
    return fold_traditional(unicodedata.normalize("NFKC", text).casefold())


# Irregular forms the suffix rules would get wrong ("goes" is not the plural of "goe").
_IRREGULAR = {"goes": "go", "going": "go", "gone": "go", "went": "go"}


def _stem(word: str) -> str:
    """A deliberately light English stemmer: only endings that never change the subject."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if not word.isalpha() or len(word) <= 3:
        return word
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word
            if suffix == "es" and not word.endswith(("shes", "ches", "xes", "zes", "sses")):
                continue
            stem = word[: -len(suffix)] + keep
            if (
                suffix in ("ing", "ed")
                and len(stem) >= 3
                and stem[-1] == stem[-2]
                and stem[-1] not in "lszdf"
            ):
                stem = stem[:-1]  # setting → set, planned → plan (install, pass, add, staff stay)
            return stem
    return word


def _word_terms(word: str) -> list[tuple[str, float]]:
    """A Latin/digit token: itself (stemmed if a plain word) and, if compound, its pieces:
    the parts between any separators, the sub-identifiers between ``:``/``/``/``@``, and the
    7-character short form of a long hex hash."""
    word = word.rstrip(".-:/@+#")
    bare = word.lstrip("-")
    if not bare:
        return []
    parts = [p for p in _PART_SPLIT.split(bare) if p]
    if len(parts) <= 1 and bare.isalnum():
        if word.startswith("-") and bare.isdigit():
            return [(word, 1.0), (bare, PART_WEIGHT)]
        if _HEX.fullmatch(bare) and not bare.isdigit() and not bare.isalpha():
            return [(bare, 1.0), (bare[:SHORT_HASH], PART_WEIGHT)]
        return [(bare if bare in _EN_STOP else _stem(bare), 1.0)]  # "does" stays a stop word, not "doe"
    terms = [(word, 1.0)]
    majors = [m for m in _MAJOR_SPLIT.split(bare) if m]
    if len(majors) > 1:
        terms.extend((major, PART_WEIGHT) for major in majors if not major.isalnum() or major.isdigit())
    terms.extend((_stem(part), PART_WEIGHT) for part in parts)
    return terms


SINGLE_HAN_WEIGHT = 0.5  # a lone query character between question words (钱 in 多少钱一个月)


def _question_spans(run: str) -> list[bool]:
    """Which characters of a query's Han run belong to a question word or particle (多少, 现在,
    什么, 吗 …). Found by position, so a bigram that straddles one (租现 in 房租现在) is known to be
    a seam between words, whether or not some note happens to hold those two characters."""
    marked = [char in _ZH_STOP_CHARS or _binds(run, i) for i, char in enumerate(run)]
    for i in range(len(run) - 1):
        pair = run[i : i + 2]
        if pair in _ZH_STOP_WORDS or (pair[0] in _ZH_WHICH and pair[1] in _ZH_MEASURE_WORDS):
            marked[i] = marked[i + 1] = True
    return marked


def _binds(run: str, i: int) -> bool:
    """Whether ``run[i]`` is a coverb between words (not part of 对象, 跟进 …)."""
    if run[i] not in _ZH_COVERB_CHARS:
        return False
    return run[max(0, i - 1) : i + 1] not in _ZH_COVERB_WORDS and run[i : i + 2] not in _ZH_COVERB_WORDS


def _query_han_words(run: str) -> list[tuple[str, float]]:
    """A query's Han run as (word, weight): bigrams inside the stretches between question words
    weigh 1; one inside a question word weighs 0 (its characters still tell the ranking a seam
    from a missing word); one across a question word's edge is dropped; a lone content character
    left between question words weighs SINGLE_HAN_WEIGHT."""
    marked = _question_spans(run)
    if not any(marked):
        return [(word, 1.0) for word in bigram_words(run)]
    out: list[tuple[str, float]] = []
    for i in range(len(run) - 1):
        if marked[i] == marked[i + 1]:  # a bigram across a question word's edge is no word at all
            out.append((run[i : i + 2], 0.0 if marked[i] else 1.0))
    for i, char in enumerate(run):
        alone = not marked[i] and (i == 0 or marked[i - 1]) and (i == len(run) - 1 or marked[i + 1])
        if alone and char not in _ZH_STOP_WORDS:
            out.append((char, SINGLE_HAN_WEIGHT))
    return out


def _scan(text: str, segmenter: str, query: bool = False) -> list[tuple[str, float, bool, str | None]]:
    """(term, weight, is Han, the identifier a piece belongs to) for every token of ``text``;
    ``query``: Han runs are split at question words first (:func:`_query_han_words`)."""
    segment = get_segmenter(segmenter)
    out: list[tuple[str, float, bool, str | None]] = []
    for match in _SCAN.finditer(_fold(text)):
        token = match.group()
        if HAN_RUN.fullmatch(token):
            if query and segmenter == "bigram" and len(token) > 1:
                out.extend((word, weight, True, None) for word, weight in _query_han_words(token))
            else:
                out.extend((word, 1.0, True, None) for word in segment(token))
            continue
        terms = _word_terms(token)
        whole = terms[0][0] if len(terms) > 1 else None
        out.extend((term, weight, False, None if i == 0 else whole) for i, (term, weight) in enumerate(terms))
    return out


def document_terms(text: str, segmenter: str = "bigram") -> Counter[str]:
    """Term frequencies of an indexed chunk (every term once per occurrence).

    Han characters are indexed one by one as well: a query word the index lacks as a whole
    (换过 where the note says 换了) can still be matched, for partial credit, by its characters.
    """
    terms = Counter(item[0] for item in _scan(text, segmenter))
    for match in HAN_RUN.finditer(_fold(text)):
        run = match.group()
        if len(run) > 1:
            terms.update(run)
    return terms


def _is_stop(term: str, han: bool) -> bool:
    if han:
        return term in _ZH_STOP_WORDS or any(char in _ZH_STOP_CHARS for char in term)
    return term in _EN_STOP


def query_terms(text: str, segmenter: str = "bigram") -> list[QueryTerm]:
    """Distinct query terms with weights. Stop words stay in the list with weight 0 (unless nothing
    else is left): they score nothing, but their characters tell a word seam from a missing word."""
    scanned = _scan(text, segmenter, query=True)
    if all(_is_stop(term, han) or not weight for term, weight, han, _whole in scanned):
        kept = [(t, w or 1.0, han, whole) for t, w, han, whole in scanned]
    else:
        kept = [(t, 0.0 if _is_stop(t, han) else w, han, whole) for t, w, han, whole in scanned]
    merged: dict[str, QueryTerm] = {}
    for term, weight, han, whole in kept:
        old = merged.get(term)
        if old is None or old.weight < weight:
            merged[term] = QueryTerm(term, weight, han, whole if whole != term else None)
    return list(merged.values())


_CLOCK_TIME = re.compile(r"\d{1,2}:\d{2}")
HEADING_PREFIX = re.compile(r"^#+\s*(?:\d{1,2}:\d{2}\s*[-–—:]?\s*)?")  # "## 15:30 - " of a daily note


def is_identifier(term: str) -> bool:
    """A token that names one thing (a host, a key, an address): letters with digits or separators."""
    bare = term.lstrip("-")
    if _CLOCK_TIME.fullmatch(bare):
        return False  # "14:20" says when, not what
    return len(bare) >= 3 and not bare.isalpha() and not bare.isdigit() and _SCAN.fullmatch(term) is not None


def subject_terms(heading: str, text: str, segmenter: str = "bigram") -> frozenset[str]:
    """What a note is *about*, lexically: the content words of its heading (without the
    ``HH:MM -`` time) and the identifiers it names. Two notes whose subjects share a term the
    query asks for are about the same thing — that is what lets a newer one supersede an older one."""
    words = {
        t.term
        for t in query_terms(HEADING_PREFIX.sub("", heading), segmenter)
        if t.weight > 0 and t.whole is None
    }
    return frozenset(words | _identifiers(text))


def _identifiers(text: str) -> set[str]:
    """The whole identifiers of ``text`` (what :func:`_scan` gives as a token's first term when
    :func:`is_identifier` holds), without segmenting its Han runs or splitting its plain words:
    neither can be an identifier, and the supersession rules ask this of every result pair."""
    out: set[str] = set()
    for match in _SCAN.finditer(_fold(text)):
        token = match.group()
        if token.isalpha():
            continue  # a Han run or a plain word
        terms = _word_terms(token)
        if terms and is_identifier(terms[0][0]):
            out.add(terms[0][0])
    return out
