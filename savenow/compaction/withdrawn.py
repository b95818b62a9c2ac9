"""What the chat withdrew, and how far a withdrawal reaches (DESIGN §13: disproven and abandoned
things never reach the summary).

A withdrawal names its object: Chinese puts it before the marker ("京东就算了", "宽窄巷子那家不考虑
了", "自驾不要了"), English after it ("forget the custom 3-retries thing", "drop the postfix relay
idea", "scratch the second option"). A bare marker ("199减20利润太薄了，不做了", "Dec 18 was too early,
forget it") withdraws the clause before it.

Its scope:

- in the withdrawing line, the clauses that name the object, the marker's clause, and the reasons
  between them ("这边要提前一天约，太麻烦") go; a clause that carries a value of its own (the
  replacement: "…4h 还是吵，改 12h 吧，4h 不要了") and the clauses outside that span ("那还是包车吧，
  自驾不要了") stay;
- every earlier line that names the object goes whole (the option as it was first put: "建国说租车
  自驾，神州租车有7座的"); its identifiers that are not the object go to the identifier line.

A marker that opens a message ("算了，铝扣板留着", "never mind, …") takes back the message before it,
which this rule does not try to find: it withdraws nothing here, and the rest of the line stays.
The abandoned *values* ("8080 那个 URL 不要了") are also handled by the value rules in
:mod:`savenow.compaction.summary`; this rule adds the words around them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, ClassVar, Protocol, TypeVar

from ..text.cjk import HAN
from .chatsignals import Lexeme


class _LineLike(Protocol):
    __dataclass_fields__: ClassVar[dict[str, Any]]  # a dataclass: lines are cut with replace()
    text: str
    order: int
    ids: frozenset[str]


L = TypeVar("L", bound=_LineLike)

# Chinese: object, then the marker. 算了 only where it means "drop it" (就算了 / 那算了 / 还是算了),
# not "计算了" (退款已经算了).
# The spaces after the object are taken whole (\s*+): nothing after them can begin with a space, and
# a run of spaces where code was blanked out (see _withdrawals_in) would otherwise be split between
# the two \s* every way there is, at every start (a 90-character line with a command took 200 ms).
_ZH_TAIL = re.compile(
    r"(?P<obj>[^，,；;。！!？?]*?)\s*+(?:就|也|都|还是)?\s*"
    r"(?:(?<=[就还])算了|不要了|不考虑了?|不用了|放弃了?|不做了|不搞了|不弄了|pass\s?掉了?|否掉了?|作罢|免了"
    r"|(?<=就)不(?:去|订|买|用|弄|搞|做|换|装|租|约)了)"  # "那家就不订了"
)
# Chinese: the marker, then the object ("不要自驾了", "放弃京东").
_ZH_HEAD = re.compile(r"(?:不要|不用|不考虑|放弃|别再)(?P<obj>[^，,；;。！!？?了]{2,12})了")
# English: the marker, then the object. "drop / skip / abandon" are also things people do to
# tables and tests, so they withdraw only an idea, a plan, an option … or "it / that".
_EN = re.compile(
    r"(?<![A-Za-z])(?:(?:forget(?: about)?|scratch|ditch|never mind|let's not(?: do| go with| use)?|pass on)\s+(?P<obj>[^,.;!?]+)"
    r"|(?P<obj3>(?:the\s+)?[\w-]+(?:\s+[\w-]+){0,3}?)\s+is\s+off\s+the\s+table"
    r"|(?:drop|skip|abandon)\s+(?P<obj2>(?:the|that|this|my|your|our)\s+[^,.;!?]*?"
    r"(?:idea|plan|option|approach|route|suggestion|thing)|it|that))",
    re.IGNORECASE,
)
_PRONOUN = re.compile(r"^(?:it|that|this|those|them|all that)$", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[，,；;。！!？?]")
_CLAUSE_SPLIT = re.compile(r"(?<=[，；;。！!？?])|(?<=,)(?!\d{3})|(?<=[.])\s")

# Words that say which one, not what: 那家, 这个, "the custom … thing".
_ZH_POINTERS = re.compile(
    r"(?:那|这|哪)(?:个|家|班|种|套|条|款|次|位|台|边|些|份|张)?|的|吧|我看|然后|反正|要不|还是|其实|就|也|都|了"
)
_EN_FILLERS = frozenset(
    [
        "the",
        "a",
        "an",
        "my",
        "your",
        "our",
        "their",
        "this",
        "that",
        "these",
        "those",
        "whole",
        "old",
        "about",
        "all",
        "of",
        "idea",
        "plan",
        "option",
        "approach",
        "route",
        "suggestion",
        "thing",
        "things",
        "one",
        "stuff",
    ]
)
# An object this general names no one thing ("这个方案不考虑了", "forget that plan"): no cross-line reach.
_GENERIC = frozenset(
    [
        "方案",
        "办法",
        "想法",
        "计划",
        "选项",
        "东西",
        "主意",
        "思路",
        "做法",
        "这事",
        "那事",
        "it",
        "that",
        "this",
        "them",
        "idea",
        "plan",
        "option",
        "thing",
        "one",
    ]
)
_HAN_CHAR = re.compile("[" + HAN + "]")
_HAN_RUN = re.compile("[" + HAN + "]+")
_LATIN_TERM = re.compile(r"[a-z0-9][\w.-]{2,}")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_LATIN_TERM_START = re.compile(r"[a-z0-9]")
_WORD_SPLIT = re.compile(r"[\s-]+")
_TERM = re.compile(r"[A-Za-z0-9][\w.+#/-]*[" + HAN + r"]?|[" + HAN + r"]{2,}")


@dataclass(frozen=True)
class Withdrawal:
    order: int  # the line that says it
    terms: tuple[str, ...]  # the object's words, all of which an earlier line must name
    kept: str = ""  # what the same message keeps ("那就订南站的全季吧"): an earlier line about it stays


def object_terms(obj: str) -> tuple[str, ...]:
    """The words of a withdrawn object that say what it is: "宽窄巷子那家" → 宽窄巷子, "the custom
    3-retries thing" → custom, 3, retries."""
    obj = obj.strip()
    if not obj or _PRONOUN.match(obj):
        return ()
    if _HAN_CHAR.search(obj):
        parts = [p for p in _ZH_POINTERS.split(obj) if p.strip()]
        terms = [t for part in parts for t in _TERM.findall(part)]
        latin = [t for t in terms if not _HAN_CHAR.match(t)]
        han = [t for t in terms if _HAN_CHAR.match(t)]
        # the noun right before the marker is the object; a longer run before it is the sentence's own
        terms = latin + [t[-4:] for t in han[-1:]]
    else:
        words = _WORD_SPLIT.split(obj.casefold())
        terms = [w.strip("'\"`") for w in words if _LATIN_TERM_START.search(w) and w not in _EN_FILLERS]
    # a single letter names nothing ("forget the y"); a single digit only beside other words
    terms = [t for t in dict.fromkeys(terms) if t.casefold() not in _GENERIC and (len(t) > 1 or t.isdigit())]
    return tuple(terms) if any(len(t) > 1 for t in terms) else ()


def _clauses(text: str) -> list[str]:
    return [c for c in _CLAUSE_SPLIT.split(text) if c.strip()]


def _mentions(text: str, term: str) -> bool:
    folded, term = _casefolded(text), _casefolded(term)
    if not term or not ("a" <= term[0] <= "z" or "0" <= term[0] <= "9"):
        return term in folded
    at = folded.find(term)
    while at >= 0:  # a whole word: "4h" is not inside "24h" (no pattern built per term)
        end = at + len(term)
        if not _is_word_char(folded[at - 1 : at]) and not _is_word_char(folded[end : end + 1]):
            return True
        at = folded.find(term, at + 1)
    return False


# Every line is compared with every withdrawal (and every withdrawal with the lines before it):
# each text is case-folded once, not once per pair.
_casefolded = lru_cache(maxsize=8192)(str.casefold)


def _is_word_char(char: str) -> bool:
    return bool(char) and ("a" <= char <= "z" or "0" <= char <= "9")


def _names(text: str, terms: Sequence[str]) -> bool:
    return bool(terms) and all(_mentions(text, t) for t in terms)


_CODE_SPAN = re.compile(r"`[^`]*`")


def _withdrawals_in(text: str) -> list[tuple[int, int, str]]:
    """(start, end, object) of each withdrawal marker in ``text``; the object as written. Code is
    no speech: `restic forget --keep-daily 7` withdraws nothing."""
    if "`" in text:
        text = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)
    found = []
    for match in _ZH_TAIL.finditer(text):
        found.append((match.start(), match.end(), match.group("obj")))
    for match in _ZH_HEAD.finditer(text):
        found.append((match.start(), match.end(), match.group("obj")))
    for match in _EN.finditer(text):
        obj = match.group("obj") or match.group("obj2") or match.group("obj3") or ""
        found.append((match.start(), match.end(), obj))
    return found


# A judgement on what was just said, then a change in the same line: "每天 4 点想了一下没必要，改成每周日
# 4 点吧", "hourly is overkill, make it daily". The judged clauses go; the change and what follows stay.
_JUDGEMENT = re.compile(
    r"没必要|不行|不划算|不值得|行不通|不合适|太(?:早|晚|贵|慢|吵|薄|麻烦|折腾|远|累)了"
    r"|(?<![A-Za-z])(?:not worth(?: it)?|no point|pointless|overkill|too (?:early|late|expensive|slow|noisy|risky|much))(?![A-Za-z])",
    re.IGNORECASE,
)
_CHANGE = re.compile(
    r"改成|改为|换成|改到|改用|换到|调到|挪到"
    r"|(?<![A-Za-z])(?:instead|switch(?:ing)? to|chang(?:e|ing) (?:it |that )?to|make it|go with|let's do)(?![A-Za-z])",
    re.IGNORECASE,
)


def _judged_then_changed(text: str) -> str | None:
    """What is left of a line that judges a value and changes it ("改成每周日 4 点吧，…"), or None
    when the line does not do both, in that order."""
    judged = _JUDGEMENT.search(text)
    change = _CHANGE.search(text, judged.end()) if judged else None
    if not judged or not change:
        return None
    clauses = _clauses(text)
    starts, at = [], 0
    for clause in clauses:
        at = text.find(clause, at)
        starts.append(at)
        at += len(clause)
    first_kept = max((i for i, start in enumerate(starts) if start <= change.start()), default=0)
    judged_at = max((i for i, start in enumerate(starts) if start <= judged.start()), default=0)
    if first_kept == judged_at:  # "4 点不行改成 5 点": the change starts inside the judged clause
        return text[change.start() :].strip()
    return "".join(clauses[first_kept:]).strip()


def _cut_line(text: str, ids: frozenset[str]) -> tuple[str, tuple[str, ...], bool]:
    """The line without what it withdraws, the withdrawn object's terms, and whether it withdrew."""
    changed = _judged_then_changed(text)
    if changed is not None:
        text = changed  # then the withdrawals in what is left, if any
    clauses = _clauses(text)
    starts, at = [], 0
    for clause in clauses:
        at = text.find(clause, at)
        starts.append(at)
        at += len(clause)
    gone: set[int] = set()
    all_terms: list[str] = []
    withdrew = False
    for start, end, obj in _withdrawals_in(text):
        index = max((i for i, s in enumerate(starts) if s <= start), default=0)
        if index == 0 and not obj.strip() and start == starts[0]:
            continue  # "算了，铝扣板留着": it takes back the message before
        terms = object_terms(obj)
        if not terms and _PRONOUN.match(obj.strip() or "it") and index > 0:
            # a bare marker withdraws the clause before it: its values name the object
            before = clauses[index - 1]
            terms = tuple(v for v in ids if v in before)
            gone.add(index - 1)
        withdrew = True
        gone.add(index)
        if terms:
            first = next((i for i, c in enumerate(clauses[: index + 1]) if _names(c, terms)), index)
            for i in range(first, index):
                own_values = [v for v in ids if v in clauses[i] and not any(_mentions(v, t) for t in terms)]
                if _names(clauses[i], terms) or not own_values:
                    gone.add(i)  # the object, or a reason for dropping it
            all_terms += terms
    if not withdrew:
        return text, (), changed is not None
    kept = [c for i, c in enumerate(clauses) if i not in gone]
    rest = "".join(kept).strip(" ，,；;。")
    return rest, tuple(dict.fromkeys(all_terms)), True


def apply_take_backs(lines: list[L], silent: Sequence[_LineLike] = ()) -> list[L]:
    """This round's lines without what a message that opens by taking back cancels (see
    :func:`takes_back`), and without the opening words themselves. Run before restatements are
    merged: the user's words may otherwise have given way to the assistant's echo of them."""
    openers: list[_LineLike] = [line for line in silent if getattr(line, "takes_back", False)]
    openers += [line for line in lines if getattr(line, "takes_back", False)]
    if not openers:
        return lines
    taken = _taken_back(lines, openers)
    kept: list[L] = []
    for index, line in enumerate(lines):
        if index in taken:
            continue  # taken back whole: its values were a plan that is no more
        if getattr(line, "takes_back", False):
            rest = without_take_back(line.text)
            if not (_says_something(rest, line.ids) or _DIGIT_OR_HAN3.search(rest)):
                continue  # "never mind, let's not." says nothing more; "先保持 postgres 15" does
            line = replace(line, text=rest, ids=frozenset(v for v in line.ids if v in rest))
        kept.append(line)
    return kept


def cancel_withdrawn(lines: list[L], silent: Sequence[L] = ()) -> tuple[list[L], list[tuple[str, int]]]:
    """The lines without what the chat withdrew (see the module's docstring), and the identifiers
    of the lines that went, with their order, for the identifier line. ``silent`` are sentences
    that are no line of the summary ("宽窄巷子那家不考虑了") but whose withdrawals count."""
    withdrawals: list[Withdrawal] = []
    for line in silent:
        _, terms, withdrew = _cut_line(line.text, line.ids)
        if withdrew and terms:
            withdrawals.append(Withdrawal(line.order, terms, _same_message(line, lines)))
    cut: dict[int, L | None] = {}
    own_terms: dict[int, tuple[str, ...]] = {}
    for index, line in enumerate(lines):
        if not may_withdraw(line.text):
            continue
        rest, terms, withdrew = _cut_line(line.text, line.ids)
        if not withdrew:
            continue
        own_terms[index] = terms
        if terms:
            withdrawals.append(Withdrawal(line.order, terms, rest + "\n" + _same_message(line, lines)))
        if _says_something(rest, line.ids):
            cut[index] = replace(line, text=rest, ids=frozenset(v for v in line.ids if v in rest))
        else:
            cut[index] = None
    if not cut and not withdrawals:
        return lines, []
    kept: list[L] = []
    loose: list[tuple[str, int]] = []
    withdrawals = [w for w in withdrawals if _specific(w, lines)]
    for index, line in enumerate(lines):
        new = cut.get(index, line)
        withdrawn = [
            w for w in withdrawals if new is not None and w.order > line.order and _names(new.text, w.terms)
        ]
        if new is not None and withdrawn:
            rest = _about_the_kept_choice(new.text, withdrawn)
            if rest:  # "…可以看看南站附近的全季，一晚 420" when the same message books 全季
                kept.append(replace(new, text=rest, ids=frozenset(v for v in new.ids if v in rest)))
                continue
            loose += [
                (v, line.order)
                for v in sorted(line.ids)
                if not any(_mentions(v, t) or _mentions(t, v) for w in withdrawn for t in w.terms)
            ]
            continue
        if new is None:
            terms = own_terms.get(index, ())
            loose += [(v, line.order) for v in sorted(line.ids) if not any(_mentions(v, t) for t in terms)]
            continue
        kept.append(new)
    return kept, loose


_HINT = re.compile(
    r"算了|不要|不用了|不考虑|放弃|不做了|不搞了|不弄了|pass|否掉|作罢|免了|就不|别再|forget|scratch|ditch|never mind|drop|skip"
    r"|abandon|let's not|off the table"
    r"|没必要|不行|不划算|不值得|行不通|不合适|太.{1,2}了|worth|point|overkill|too ",
    re.IGNORECASE,
)


MAX_REACH = 3


def _specific(withdrawal: Withdrawal, lines: Sequence[_LineLike]) -> bool:
    """An object that more than a few earlier lines name ("今天", "the server") is too general to
    say which one was withdrawn: the withdrawal then reaches no other line."""
    named = sum(1 for line in lines if line.order < withdrawal.order and _names(line.text, withdrawal.terms))
    return named <= MAX_REACH


def _same_message(line: _LineLike, lines: Sequence[_LineLike]) -> str:
    """The other lines of the message ``line`` comes from (same turn and speaker)."""
    turn, role = getattr(line, "turn", -1), getattr(line, "role", "")
    if turn < 0:
        return ""
    return "\n".join(
        other.text
        for other in lines
        if getattr(other, "turn", -1) == turn and getattr(other, "role", "") == role and other is not line
    )


def _take_back_terms(text: str) -> set[str]:
    """Han pairs and Latin terms, a sentence's closing stop left off ("s3://acme-old-bucket.")."""
    return {term.rstrip(".") for term in _content_terms(text)}


def _content_terms(text: str) -> set[str]:
    folded = text.casefold()
    han = _HAN_RUN.findall(folded)
    return {run[i : i + 2] for run in han for i in range(len(run) - 1)} | set(_LATIN_TERM.findall(folded))


def _about_the_kept_choice(text: str, withdrawn: Sequence[Withdrawal]) -> str:
    """An earlier line that names the withdrawn object and also the choice the withdrawing message
    keeps loses only its clauses about the object; otherwise it goes whole ("")."""
    clauses = _clauses(text)
    rest = [c for c in clauses if not any(_names(c, w.terms) for w in withdrawn)]
    kept = set().union(*(_content_terms(w.kept) for w in withdrawn))
    if not rest or not kept or not (_content_terms("".join(rest)) & kept):
        return ""
    return "".join(rest).strip(" ，,；;。")


def _says_something(rest: str, ids: frozenset[str]) -> bool:
    """What is left of a withdrawing line is worth a line: a value of its own, or a few words
    ("那还是住春熙路吧" stays; "book it", "ok" do not)."""
    if rest.rstrip().endswith(("?", "？", "→")):
        return False  # "要不要看一下…？ → 不用了": the offer was declined, nothing is left
    if any(v in rest for v in ids):
        return True
    return len(_HAN_CHAR.findall(rest)) >= 4 or len(_LATIN_WORD.findall(rest)) >= 3


# A message that opens by taking back what was just said: "scratch that, keep 30 days", "never mind,
# let's not", "不对，还是保留 30 天", "算了，铝扣板留着". (After a question of the assistant's, the same words
# turn the offer down instead: the summary's answer rules read that.)
_TAKE_BACK = re.compile(
    r"^\W*(?:(?:oh|ah|hmm|um|ok|okay)[\s,，]+)?(?:actually[\s,]+)?"
    r"(?:scratch that|never ?mind|forget (?:it|that|what i (?:just )?said)|ignore (?:that|my last(?: message| one)?)"
    r"|disregard that|no,? wait|wait,? no(?=\s*[,.!;]|\s*$)|on second thought|hold off(?: on (?:that|it|this))?"
    r"|actually,? no(?=\s*[,.!;]|\s*$))(?![A-Za-z])"  # not "actually, no problem"
    r"|^\W*(?:那|哎|唉|嗯)?(?:还是)?算了(?![解])|^\W*不对(?![劲称])|^\W*不不|^\W*想了想"
    r"|^\W*(?:当我没说|刚才(?:说的|那个|那句)?不算|收回(?:刚才|前面)|先别弄了|先不弄了)",
    re.IGNORECASE,
)


def takes_back(text: str) -> bool:
    """Does a user's message open by taking back what was just said?"""
    return _TAKE_BACK.match(text) is not None


_DIGIT_OR_HAN3 = re.compile("[0-9]|[" + HAN + "]{3}")


def without_take_back(text: str) -> str:
    """``text`` without the words that open it by taking back ("scratch that, …" → "…")."""
    match = _TAKE_BACK.match(text)
    return text[match.end() :].lstrip(" ，,。.;；!！—–-") if match else text


def _taken_back(lines: Sequence[_LineLike], openers: Sequence[_LineLike]) -> set[int]:
    """The lines a message that opens by taking back cancels: the last line of the user's previous
    message, and the replies to it (same turn) that talk about the same thing."""
    gone: set[int] = set()
    for opener in openers:
        turn = getattr(opener, "turn", -1)
        if turn < 2:
            continue
        said = [
            i
            for i, line in enumerate(lines)
            if getattr(line, "turn", -1) == turn - 1
            and getattr(line, "role", "") == "user"
            and line.order < opener.order
        ]
        if not said:
            continue
        target = said[-1]
        gone.add(target)
        terms = _take_back_terms(lines[target].text)
        for i, line in enumerate(lines):
            if getattr(line, "turn", -1) == turn - 1 and getattr(line, "role", "") == "assistant":
                shared = terms & _take_back_terms(line.text)
                if any(not _HAN_CHAR.match(t) for t in shared) or len(shared) >= 2:
                    gone.add(i)
    return gone


_FAST_HINT = Lexeme(_HINT)  # searched on the lowercased sentence, remembered within a chat


def may_withdraw(text: str) -> bool:
    """A cheap test: could ``text`` withdraw something?"""
    return _FAST_HINT.search(text) is not None
