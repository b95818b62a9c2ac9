"""Titles a person would write: the note's subject and what kind of note it is.

"网关 token：根因与修复", "Staging 8443: setup", "Owner of billing-service",
"Deploy rules" — a short noun phrase in the conversation's language, not a
truncated sentence. The subject is one or two terms *of the note itself*
(identifiers, words, Chinese phrases) that the conversation keeps using, with
a bonus for those in its opening problem, so a title never brings in a word the
note does not hold. The kind comes from the note's kinds. Titles stay short and
are never cut inside a value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ...text.cjk import HAN, han_runs
from ...text.stopwords import EN_TITLE_STOPWORDS, ZH_EDGE_HAN, ZH_FUNCTION_HAN, ZH_TITLE_STOPWORDS
from ...vocabulary import NoteKind
from . import signals

__all__ = ["KIND_LABEL", "TitleContext", "heading_subject", "note_title"]

TITLE_MAX = 40
SECOND_TERM_MIN = 3.0  # a second subject term must recur in the chat (or open it), not appear once
OPENING_MESSAGES = 3
ZH_TERM_BONUS = 1.5  # a Chinese chat names its subject in Chinese ("网关") more than in pasted identifiers  # the user's first messages state the problem the chat is about
_LATIN = re.compile(r"[A-Za-z#@][A-Za-z0-9_.#@/-]*[A-Za-z0-9]")


_KIND = {
    "incident": {"en": "root cause and fix", "zh": "根因与修复"},
    NoteKind.ROOT_CAUSE: {"en": "root cause", "zh": "根因"},
    NoteKind.FIX: {"en": "fix", "zh": "修复"},
    NoteKind.CHANGE: {"en": "change", "zh": "变更"},
    "rule": {"en": "rule", "zh": "规则"},
    NoteKind.PREFERENCE: {"en": "preference", "zh": "偏好"},
    NoteKind.DECISION: {"en": "decision", "zh": "决定"},
    "setup": {"en": "setup", "zh": "配置"},
    NoteKind.NOTE: {"en": "notes", "zh": "要点"},
}


_LABELS = sorted({label for labels in _KIND.values() for label in labels.values()}, key=len, reverse=True)
# "Prepared statement: root cause and fix", "网关 token：根因与修复": the label savenow put after the subject.
KIND_LABEL = re.compile(
    r"\s*[:：]\s*(?:" + "|".join(re.escape(label) for label in _LABELS) + r")\s*$", re.IGNORECASE
)


def heading_subject(title: str) -> str:
    """A heading without the kind label savenow writes after its subject: what the section is about.
    A heading that is only a label, or none, stays as it is."""
    subject = KIND_LABEL.sub("", title)
    return subject if subject.strip() else title


class TitleContext:
    """What the whole conversation says about terms: how often each is used, and in the opening."""

    def __init__(self, user_texts: Sequence[str], all_texts: Sequence[str]) -> None:
        self.chat = " ".join(signals.prose(t) for t in all_texts).casefold()
        self.opening = " ".join(signals.prose(t) for t in user_texts[:OPENING_MESSAGES]).casefold()

    def weight(self, term: str) -> float:
        folded = term.casefold()
        return min(self.chat.count(folded), 5) + (3.0 if folded in self.opening else 0.0)


def note_title(
    bullets: Sequence[str],
    kinds: set[str],
    ids: Iterable[str],
    language: str,
    context: TitleContext,
    avoid: Iterable[str] = (),
) -> str:
    """``"<subject>: <kind>"`` (``"<subject>：<kind>"`` in Chinese); owners read "Owner of <object>"."""
    text = " ".join(bullets)
    kind = _kind(kinds)
    if NoteKind.OWNER in kinds:
        owned = _owned(text)
        subject = owned or _subject(text, set(ids), language, context, {a.casefold() for a in avoid})
        if not subject:
            return "负责人" if language == "zh" else "Owner"
        return f"{subject} 负责人" if language == "zh" else f"Owner of {subject}"
    if kind in (NoteKind.NOTE, "setup") and bullets:
        # A plain fact names its subject itself ("Groceries: Ocado …", "Rent is split …", "Oat flat white, …").
        lead = _lead_subject(bullets[0]) or (_first_clause(bullets[0]) if kind == NoteKind.NOTE else "")
        if lead:
            return _capitalized(lead) if language != "zh" else lead
    subject = _subject(text, set(ids), language, context, {a.casefold() for a in avoid})
    label = _KIND[kind][language]
    if kind == NoteKind.NOTE:
        if subject:
            return _capitalized(subject) if language != "zh" else subject
        lead = _first_clause(bullets[0]) if bullets else ""
        return lead or ("笔记" if language == "zh" else "Note")
    if not subject:
        return label if language == "zh" else label[:1].upper() + label[1:]
    if language == "zh":
        return f"{subject}：{label}"
    first = subject.split(" ", 1)[0]
    if first.isalpha() and first.islower():
        subject = (
            subject[:1].upper() + subject[1:]
        )  # a plain word starts the title; an identifier keeps its case
    return f"{subject}: {label}"


def _capitalized(subject: str) -> str:
    first = subject.split(" ", 1)[0]
    if first.isalpha() and first.islower():
        return (
            subject[:1].upper() + subject[1:]
        )  # a plain word starts the title; an identifier keeps its case
    return subject


# Words that make a phrase a chat line rather than a subject: pronouns, "here", deixis (both languages).
_DEICTIC = re.compile(
    r"(?<![\w'])(?:i|me|my|we|us|our|you|your|he|him|his|she|her|they|them|their|it|its|this|that|these|those"
    r"|here|there|today|tomorrow|yesterday)(?![\w'])|[我你您他她它咱]|这个|那个|这些|那些|这里|那里",
    re.IGNORECASE,
)
_KIND_WORDS = re.compile(
    r"^(?:fix|cause|root cause|rule|note|notes|summary|update|change|decision|setup|tl;dr|修复|修法|根因|原因|规则|"
    r"要点|总结|结论|变更|决定|配置|备注)$",
    re.IGNORECASE,
)
_LABEL_COLON = re.compile(r"^\s*([^:：`]{2,28}?)\s*[:：]\s*\S")
_EN_COPULA = re.compile(
    r"^\s*((?:[A-Za-z][\w'.+-]*\s+){0,3}?[A-Za-z][\w'.+-]*)\s+(?:is|are|lives|live|runs|run|sits|goes|go|stays|uses)\s",
)
_ZH_COPULA = re.compile(
    r"^\s*([" + HAN + r"A-Za-z0-9_.\-` ]{2,14}?)\s*(?:是|在|放在|跑在|存在|用的是|统一用)"
)
_EN_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


# A phrase that says what to do or what someone will do is a chat line, not a subject.
_NOT_SUBJECT = re.compile(
    r"[,，、]|\d$|^[\d一二两三四五六七八九十几]|^(?:按|用|请|记得)|应该|先|要|把|就|可以|需要|会|别|不|"
    r"(?<![\w'])(?:will|should|would|could|can|do|does|did|done|let's|please|make|need|so|and|but|or)(?![\w'])",
    re.IGNORECASE,
)
_ASIDE_LEAD = re.compile(
    r"^\s*(?:for the record|fyi|btw|note that|remember that|keep in mind that)[,:]?\s+", re.IGNORECASE
)


def _lead_subject(bullet: str) -> str:
    """The subject a plain fact opens with: a short label before its colon, or the words before
    "is / runs / 是 / 在" — when they are a name, not a pronoun, a kind label or an instruction."""
    bullet = _ASIDE_LEAD.sub("", bullet)
    for pattern in (_LABEL_COLON, _EN_COPULA, _ZH_COPULA):
        match = pattern.match(bullet)
        if match is None:
            continue
        subject = _EN_ARTICLE.sub("", match.group(1).replace("`", "").strip())
        words = subject.split()
        if (
            subject
            and not _DEICTIC.search(subject)
            and not _NOT_SUBJECT.search(subject)
            and not set(subject) & ZH_FUNCTION_HAN  # "staging 上应用监听的" is half a sentence
            and not _KIND_WORDS.match(subject)
            and len(words) <= 4
            and not (len(words) == 1 and subject.casefold() in EN_TITLE_STOPWORDS)
        ):
            return subject
    return ""


def _first_clause(bullet: str) -> str:
    """The bullet's first clause, when short and free of pronouns: "Oat flat white, extra shot" → "Oat flat white"."""
    clause = re.split(r"[,，;；。:：(（—]|\s-\s", bullet, maxsplit=1)[0].replace("`", "").strip(" .")
    if (
        not clause
        or _DEICTIC.search(clause)
        or _NOT_SUBJECT.search(clause)
        or _KIND_WORDS.match(clause)
        or len(clause) > 24
        or len(clause.split()) > 4
    ):
        return ""
    return clause


# "Alice owns billing-svc", "limit increases go through Priya", "举报由周宁负责", "周宁负责举报", "etl 归 Kenji".
_EN_OWNED = re.compile(
    r"\b(?:owns|maintains|is responsible for|is in charge of|looks after|handles|runs)\s+(?:the\s+)?"
    r"([\w`.\-/ ]{2,40}?)(?=\s+(?:for|and billing|in|on|at|with)\b|[,;.:(]|$)",
    re.IGNORECASE,
)
_ZH_OWNED = re.compile(
    r"([" + HAN + r"A-Za-z0-9_.\-`]{2,12})\s*(?:由|归)\s*[" + HAN + r"A-Za-z]{1,12}?\s*(?:负责|管|维护)?"
    r"|[" + HAN + r"A-Za-z]{2,4}\s*负责\s*([" + HAN + r"A-Za-z0-9_.\-`]{2,12})"
)


def _owned(text: str) -> str:
    """What the owner note says someone owns, when it says so plainly (never a pronoun)."""
    for match in (*_EN_OWNED.finditer(text), *_ZH_OWNED.finditer(text)):
        owned = next((g for g in match.groups() if g), "").replace("`", "").strip()
        owned = re.sub(r"^(?:的|了)", "", owned)
        if owned and not _DEICTIC.search(owned) and len(owned.split()) <= 4:
            return owned
    return ""


def _kind(kinds: set[str]) -> str:
    if {NoteKind.ROOT_CAUSE, NoteKind.FIX} <= kinds:
        return "incident"
    for kind in (NoteKind.ROOT_CAUSE, NoteKind.FIX, NoteKind.PREFERENCE):
        if kind in kinds:
            return kind
    if NoteKind.FUTURE in kinds:
        return "rule"
    if NoteKind.CHANGE in kinds:
        return NoteKind.CHANGE
    if NoteKind.DECISION in kinds:
        return NoteKind.DECISION
    if "setup" in kinds:
        return "setup"
    return NoteKind.NOTE


def _subject(text: str, ids: set[str], language: str, context: TitleContext, avoid: set[str]) -> str:
    """One or two of the note's terms, in the order the note uses them."""
    folded = text.casefold()
    candidates: dict[str, float] = {}
    for match in _LATIN.finditer(text):
        term = match.group(0).strip("./-")
        key = term.casefold()
        if (
            len(key) < 3
            or key in EN_TITLE_STOPWORDS
            or key in avoid
            or len(term) > 28
            or key.isdigit()
            and len(key) < 4
        ):
            continue
        bonus = 2.0 if key in ids else 0.0
        candidates[term] = max(candidates.get(term, 0.0), context.weight(term) + bonus)
    for run in han_runs(text, 2):
        for i in range(len(run) - 1):
            gram = run[i : i + 2]
            if (
                gram[0] in ZH_FUNCTION_HAN
                or gram[1] in ZH_FUNCTION_HAN
                or gram in avoid
                or gram in ZH_TITLE_STOPWORDS
            ):
                continue
            if context.chat.count(gram) < 2:
                continue
            term = _whole_term(run, i, context)
            weight = context.weight(term) + (ZH_TERM_BONUS if language == "zh" else 0.0)
            candidates[term] = max(candidates.get(term, 0.0), weight)
    # A term the note negates ("不发邮件", "no Slack") would make the title say the opposite.
    candidates = {t: w for t, w in candidates.items() if not _negated(text, t)}
    if not candidates:
        return _first_term(text)
    ranked = sorted(candidates.items(), key=lambda item: (-item[1], folded.find(item[0].casefold())))
    chosen = [ranked[0][0]]
    for term, weight in ranked[1:]:
        if len(chosen) == 2 or weight < max(SECOND_TERM_MIN, 0.5 * ranked[0][1]):
            break
        key = term.casefold()
        if any(key in c.casefold() or c.casefold() in key or _overlaps(text, c, term) for c in chosen):
            continue
        if len(" ".join([*chosen, term])) > TITLE_MAX - 12:
            continue
        chosen.append(term)
    # In the order the conversation brought them up: "网关 token", the subject before its detail.
    # English keeps the note's own word order ("Staging app"); Chinese follows the order the
    # conversation brought the terms up ("网关 token": the subject before its detail).
    if language == "zh":
        chosen.sort(key=lambda term: (_first_use(context.chat, term), folded.find(term.casefold())))
    else:
        chosen.sort(key=lambda term: folded.find(term.casefold()))
    return " ".join(chosen)


_NEGATION = re.compile(
    r"(?:(?:不要|不再|不用|禁止|不|别|勿|没有|无需)[" + HAN + r"]{0,2}"
    r"|(?<![\w'])(?:no|not|never|don't|do not|without|instead of)\s+(?:[a-z]+\s+)?)$",
    re.IGNORECASE,
)


def _negated(text: str, term: str) -> bool:
    """Every use of ``term`` in the note follows a negation: the note says it does NOT hold."""
    folded, key = text.casefold(), term.casefold()
    starts = [m.start() for m in re.finditer(re.escape(key), folded)]
    return bool(starts) and all(_NEGATION.search(folded[max(0, at - 12) : at]) for at in starts)


def _first_use(chat: str, term: str) -> int:
    position = chat.find(term.casefold())
    return position if position >= 0 else len(chat)


WHOLE_TERM_MAX = 4


def _whole_term(run: str, start: int, context: TitleContext) -> str:
    """The longest piece of the Chinese run around a bigram that the chat uses exactly as often:
    "林老" is always part of "林老师", so the title says 林老师, never "老师 林老"."""
    gram = run[start : start + 2]
    count = context.chat.count(gram)
    best = gram
    for length in range(3, WHOLE_TERM_MAX + 1):
        for begin in range(max(0, start + 2 - length), min(start, len(run) - length) + 1):
            piece = run[begin : begin + length]
            if piece[0] in ZH_EDGE_HAN or piece[-1] in ZH_EDGE_HAN or len(piece) <= len(best):
                continue
            if (
                context.chat.count(piece) == count
                and not _cuts_stop_word(run, begin, length)
                and not _edged_by_stop_word(piece)
            ):
                best = piece
    return best


def _overlaps(text: str, first: str, second: str) -> bool:
    """Two terms cut from one longer word ("吃香" / "香菜"): the text runs them together."""
    a, b = first.casefold(), second.casefold()
    folded = text.casefold()
    return any(a.endswith(b[:k]) and a + b[k:] in folded for k in range(1, min(len(a), len(b)))) or any(
        b.endswith(a[:k]) and b + a[k:] in folded for k in range(1, min(len(a), len(b)))
    )


def _first_term(text: str) -> str:
    """A title is never a bare kind label: without a recurring term, the note's first identifier
    or Chinese word stands in."""
    for match in _LATIN.finditer(text):
        term = match.group(0).strip("./-")
        if len(term) >= 3 and term.casefold() not in EN_TITLE_STOPWORDS and len(term) <= 28:
            return term
    for run in han_runs(text, 2):
        pieces = [p for p in re.split(f"[{''.join(sorted(ZH_FUNCTION_HAN))}]", run) if len(p) >= 2]
        for piece in pieces:
            if piece[:2] not in ZH_TITLE_STOPWORDS:
                return piece[:WHOLE_TERM_MAX]
    return ""


def _edged_by_stop_word(piece: str) -> bool:
    """ "以后排查" starts with the marker 以后: the term is 排查, the marker is no part of it."""
    return any(piece != word and piece.startswith(word) for word in ZH_TITLE_STOPWORDS)


def _cuts_stop_word(run: str, begin: int, length: int) -> bool:
    """ "管理页以" takes half of 以后: a term never ends or starts inside a marker word."""
    end = begin + length
    for word in ZH_TITLE_STOPWORDS:
        at = run.find(word)
        while at >= 0:
            if at < begin < at + len(word) or at < end < at + len(word):
                return True
            at = run.find(word, at + 1)
    return False
