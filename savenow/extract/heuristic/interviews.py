"""Interviews: the assistant asks, the user answers with values, one fact per answer.

"航班号和时间？" — "去程 MU 729 …" — "收到：去 MU 729 …。订单号呢？" — "PNR 是 K7QW2M" — "好的。酒店定了吗？" …
Nothing in such a run says "remember"; the answers are the facts the user hands over, and a person
keeps them grouped by what was asked about: the flight with its booking code, the hotel with its
nights. This module finds those runs and cuts them into subjects (step 2, beside :mod:`.notes`):

* an **exchange** is an assistant message ending in a question that asks for facts (not an offer,
  "要不要我…？", "Do you want …?"), the user's answer (their messages until the assistant speaks
  again), and the assistant's confirming restatement of it, when its next message has one;
* a **run** is exchanges one after another (each next question is asked in the message that took
  in the last answer); it may open on a fact the user volunteered that the asking message restates.
  Only a run of two exchanges or more is an interview: one question and its answer is a chat;
* an answer is kept unless what it says rules it out (chit-chat, a status, a one-off, a value
  replaced later: :attr:`.Statement.dismissed`), it hedges or gives the idea up ("本来想…"), it
  declines ("不用记"), or it is a bare yes/no;
* a **subject** is the stretch of a run about one thing. An answer that carries a handle of its own
  (a host, a path, an address, a code, a long number) to a question naming something new starts
  another subject — unless question and answer are both short (an attribute: "Firm?" "Ledgerwell";
  "订单号呢？" "PNR 是 K7QW2M") or the question points back ("Best contact for her?"). Answers with
  no handle are details of the subject being talked about ("Daily?" — "every other day").

Each subject's bullets are its exchanges' restatements where the assistant confirmed the answer
(every value of it said back), else the user's answer sentences.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...models import ChatMessage
from ...text.cjk import HAN
from ...text.identifiers import identifiers, values
from ...text.sentences import is_question
from ...text.stopwords import EN_COMMON_WORDS
from .chat import ACK_START
from .rules import (
    ANSWER_CORRECTION_REACH,
    ATTRIBUTE_ANSWER_CHARS,
    ATTRIBUTE_QUESTION_CHARS,
    INTERVIEWER_LEAD_CHARS,
    SUBSTANTIVE_HAN,
)
from .signals import LEX, prose, sentences
from .statements import Statement
from .words import cjk_bigrams, quantities


@dataclass
class Exchange:
    """One question of the assistant, the user's answer to it, and the assistant's restatement."""

    question: str  # the asking sentences ("" for a fact the user volunteered before the first question)
    answers: list[Statement] = field(default_factory=list)  # the user's kept answer sentences
    restated: list[Statement] = field(default_factory=list)  # the assistant's sentences saying them back
    taken_in: bool = False  # the assistant's next message acknowledges the answer or says it back
    reply: int = -1  # that next message

    @property
    def bullets(self) -> list[Statement]:
        if self.restated:
            return self.restated
        subject = "" if _yes_no(self.question) else asked_subject(self.question)
        return [_with_subject(answer, subject) for answer in self.answers] if subject else self.answers

    @property
    def answer_text(self) -> str:
        return " ".join(s.text for s in self.answers)


def interview_subjects(messages: Sequence[ChatMessage], scored: Sequence[Statement]) -> list[list[Exchange]]:
    """The subjects of every interview in the chat, each a list of exchanges with something to keep."""
    by_message: dict[int, list[Statement]] = {}
    for statement in scored:
        by_message.setdefault(statement.message, []).append(statement)
    subjects: list[list[Exchange]] = []
    for run in _runs(messages, by_message):
        kept = [exchange for exchange in run if exchange.bullets]
        # An interviewer takes the answers in ("收到", "Got it.", saying them back); questions that
        # only lead on to the next question are a conversation, or a diagnosis.
        taken = sum(1 for exchange in kept if exchange.taken_in)
        if len(kept) >= 2 and taken * 2 >= len(kept):
            subjects.extend(_subjects(kept))
    return subjects


def _asks_for_facts(text: str) -> str:
    """The question an assistant message ends with, when it asks the user for facts ("" otherwise).

    An interviewer's message is the question, after at most an acknowledgement or a short
    restatement; one that explains, diagnoses or instructs first (a troubleshooting step ending
    "…, what does it print?") asks about the problem, not for facts to keep."""
    said = sentences(prose(text))
    if not said or not said[-1].rstrip().endswith(("?", "？")):
        return ""
    asking: list[str] = []
    for sentence in reversed(said):
        if not is_question(sentence):
            break
        asking.insert(0, sentence)
    question = " ".join(asking)
    if LEX.OPENER.search(question):
        return ""  # "今天弄点啥？" / "How did the session go?": what the chat is about comes next
    if "`" in question or LEX.PROBE.search(question) or _CHECK.search(question):
        return ""  # "`df -h` on mon-2?" / "先确认下：…对吧？" — a diagnostic step or a check
    if LEX.OFFER.search(question) or LEX.HEDGE.search(question) or LEX.CONFIRM_QUESTION.search(question):
        return ""  # an offer, a proposal or a yes/no check asks for no fact of the user's
    before = " ".join(said[: len(said) - len(asking)])
    if len(before) > INTERVIEWER_LEAD_CHARS and not ACK_START.search(before):
        return ""
    return question


# "…，对吧？" / "先确认一下：…" / "…, right?": the assistant checks what it believes.
_CHECK = re.compile(
    r"对吧|是吧|没错吧|确认|吧\s*[?？]\s*$|(?<![A-Za-z])(?:right|correct|isn't it|aren't they)\s*[?？]",
    re.IGNORECASE,
)


def _runs(messages: Sequence[ChatMessage], by_message: dict[int, list[Statement]]) -> list[list[Exchange]]:
    runs: list[list[Exchange]] = []
    run: list[Exchange] = []
    index = 0
    while index < len(messages):
        message = messages[index]
        question = _asks_for_facts(message.text or "") if message.role == "assistant" else ""
        if not question:
            if run:
                runs.append(run)
                run = []
            index += 1
            continue
        if not run:
            opening = _volunteered(messages, by_message, index)
            if opening is not None:
                run.append(opening)
        end = index + 1
        while end < len(messages) and messages[end].role == "user":
            end += 1
        if end == index + 1:  # nobody answered
            index += 1
            continue
        answers = [s for m in range(index + 1, end) for s in by_message.get(m, []) if _kept_answer(s)]
        if _yes_no(question):
            # "密码也改了吗？" — "密码没改": only an answer that hands a value over says more than yes or no
            answers = [s for s in answers if _handles(s.text) or values(s.text) or quantities(s.text)]
        answers = [
            s
            for s in answers
            if not _corrected_later(messages, end, s) and not _repriced_later(messages, end, s)
        ]
        if _taken_back_next(messages, index):
            # "I was thinking Salt Year" — "Salt Year is punchy. Go with it?" — "hmm actually no": the
            # answer takes back what the question was about, and says nothing to keep itself
            answers = []
            if run:
                run[-1].answers, run[-1].restated = [], []
        elif _taken_back_next(messages, end):
            answers = []  # the user's next message takes this answer back
        if any(LEX.NOT_TO_NOTE.search(messages[m].text or "") for m in range(index + 1, end)):
            answers = []  # "解决了 … 不用记": the user says it is not to be kept
        restated = _restatement(by_message.get(end, []), answers) if end < len(messages) else []
        taken_in = bool(restated) or (
            end < len(messages) and bool(ACK_START.search(prose(messages[end].text or "")))
        )
        run.append(Exchange(question, answers, restated, taken_in, end))
        index = end  # the message that took the answer in may ask the next question
    if run:
        runs.append(run)
    return runs


def _corrected_later(messages: Sequence[ChatMessage], after: int, answer: Statement) -> bool:
    """ "原来是周三…，现在改成周四晚上七点" … "哦不对 … 周四她有别的学生 改成周六上午十点": a later message of the
    user's that opens by correcting and names what this answer named replaces it: the old value is
    not kept (the correction, acknowledged, is a fact of its own)."""
    own = _value_words(answer.text)
    for message in messages[after : after + ANSWER_CORRECTION_REACH]:
        if message.role != "user":
            continue
        text = prose(message.text or "")
        if is_question(text):
            continue  # "wait, does CA981 land at T3?" asks about the value, it replaces nothing
        said = _value_words(text)
        if _CORRECTS.search(text) and own & said and said - own:
            return True  # names the old value and gives another
    return False


# Chinese days and clock times ("周四", "星期六", "七点", "10 点"): values a correction replaces.
_ZH_WHEN = re.compile(r"(?:周|星期|礼拜)[一二三四五六日天]|[一二三四五六七八九十两\d]{1,3}\s*点")


def _taken_back_next(messages: Sequence[ChatMessage], reply: int) -> bool:
    """The user's message right after the assistant's message ``reply`` opens by taking back what was just said."""
    following = reply + 1
    if following >= len(messages) or messages[following].role != "user":
        return False
    return bool(_TAKES_BACK.search(prose(messages[following].text or "")))


# "hmm actually no", "no wait", "never mind", "算了", "还是不要了", "当我没说": the idea just given is dropped.
_TAKES_BACK = re.compile(
    r"^\W*(?:hmm+|嗯+|呃|啊)?[\s,，.。…]*"
    r"(?:actually,?\s+no|no,?\s+wait|never\s?mind|scratch that|forget (?:it|that)|"
    r"算了|还是算了|不要了|还是不要|还是不用|当我没说)",
    re.IGNORECASE,
)


def _repriced_later(messages: Sequence[ChatMessage], after: int, answer: Statement) -> bool:
    """ "我先报了 HK$650/hour" … "rate 提到 HK$720/hour": a later message of the user's giving a price or
    a rate of the same form (a currency, a per-unit) with another number replaces this one. Plain
    numbers, shares and units ("10mg", "30%", "3 个") are left alone: two of them are as often two things."""
    own = _rate_forms(answer.text)
    if not own:
        return False
    for message in messages[after:]:
        if message.role != "user":
            continue
        later = _rate_forms(prose(message.text or ""))
        if any(form in later and not numbers & later[form] for form, numbers in own.items()):
            return True
    return False


def _rate_forms(text: str) -> dict[str, set[str]]:
    """The prices and rates a text gives, by form ("hk$#/hour", "€#") → their numbers."""
    forms: dict[str, set[str]] = {}
    for token in _VALUE_TOKEN.findall(text):
        token = token.rstrip(".,，。;；:：)）").casefold()
        if _RATE_MARK.search(token):
            forms.setdefault(_NUMBERS.sub("#", token), set()).update(_NUMBERS.findall(token))
    return forms


_VALUE_TOKEN = re.compile(r"[^\s" + HAN + r"，。；：、（）]*\d[^\s" + HAN + r"，。；：、（）]*")
_RATE_MARK = re.compile(r"[$¥€£/]")  # not "%": a deposit of 30% and a balance of 70% are two shares
_NUMBERS = re.compile(r"\d+(?:[.,]\d+)*")


def _value_words(text: str) -> frozenset[str]:
    """What a correction can replace: the values, handles and days or times a text names."""
    return frozenset(values(text) | quantities(text) | _handles(text) | set(_ZH_WHEN.findall(text)))


# A message that opens by correcting what was said: "哦不对 …", "不对，…", "sorry, 10mg", "actually …".
_CORRECTS = re.compile(
    r"^\W*(?:哦|噢|啊|呃)?\s*(?:不对|不是的|错了|说错了|更正|等下|等等)"
    r"|^\W*(?:oh,?\s*)?(?:sorry|actually|correction|wait|hold on|scratch that)(?![A-Za-z])",
    re.IGNORECASE,
)


def _volunteered(
    messages: Sequence[ChatMessage], by_message: dict[int, list[Statement]], asking: int
) -> Exchange | None:
    """ "学费也变了 一节课 220" — "收到，每节 220 元。是按次付还是按月？": a fact the user handed over that the
    asking message restates before its question opens the run."""
    said = asking - 1
    if said < 0 or messages[said].role != "user":
        return None
    answers = [s for s in by_message.get(said, []) if _kept_answer(s)]
    restated = _restatement(by_message.get(asking, []), answers)
    return Exchange("", answers, restated, taken_in=True, reply=asking) if restated else None


def _kept_answer(statement: Statement) -> bool:
    if statement.role != "user" or statement.dismissed or statement.machine or statement.symptom:
        return False
    if statement.prior or is_question(statement.text):
        return False
    text = statement.text
    if (
        LEX.HEDGE.search(text)
        or LEX.WITHDRAWN.search(text)
        or LEX.REJECT.search(text)
        or LEX.TENTATIVE.search(text)
    ):
        return False
    if _YES_OR_NO.match(text):
        return False
    return _has_content(text)


# A bare yes or no ("yes", "right", "对", "先不用"): it confirms or declines, it hands nothing over.
_YES_OR_NO = re.compile(
    r"^\W*(?:yes|yep|yeah|right|correct|exactly|sure|ok|okay|no|nope|not needed|对|是|是的|没错|嗯|好|不用|先不用|没有|没)\W*$",
    re.IGNORECASE,
)


# "酒店定了吗？", "Is it …?", "Does she need …?": a question a yes or a no answers.
_YES_NO = re.compile(
    r"吗\s*[?？]\s*$|^\s*(?:and\s+)?(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|had)\s",
    re.IGNORECASE,
)


def _yes_no(question: str) -> bool:
    last = sentences(question)[-1] if question else ""
    return bool(_YES_NO.search(last))


# An answer opening with a yes ("嗯 …", "对 …", "yes, …").
_OPENS_YES = re.compile(r"^\W*(?:嗯|对|是的|是|没错|yes|yep|yeah|right|correct)(?![A-Za-z])", re.IGNORECASE)


def _has_content(text: str) -> bool:
    """Two words or more (or four Chinese characters): "every other day", "按月"; not "ok"."""
    latin = re.findall(r"[A-Za-z0-9@._/:+-]+", text)
    han = len(re.findall("[" + HAN + "]", text))
    return len(latin) >= 2 or han >= 2 or bool(_handles(text) or quantities(text))


def _restatement(reply: list[Statement], answers: list[Statement]) -> list[Statement]:
    """The assistant's sentences before its next question that say every value of the answer back
    ("收到：去 MU 729 PVG 08:35 → KIX，回 MU 730 …"); none when they leave a value out."""
    if not answers:
        return []
    said = [
        s
        for position, s in enumerate(reply)
        if s.role == "assistant"
        and not is_question(s.text)
        and not s.dismissed
        and len(s.bullet) >= 4
        and not (LEX.HEDGE.search(s.text) or LEX.PROBE.search(s.bullet) or "`" in s.text and position > 0)
    ]
    wanted = frozenset().union(*(values(a.text) for a in answers)) | frozenset().union(
        *(quantities(a.text) for a in answers)
    )
    if not said or not wanted:
        return []
    told = " ".join(s.text for s in said).casefold()
    if not all(value.casefold() in told for value in wanted):
        return []
    return [s for s in said if any(value.casefold() in s.text.casefold() for value in wanted)]


def _subjects(run: list[Exchange]) -> list[list[Exchange]]:
    subjects: list[list[Exchange]] = []
    for exchange in run:
        if subjects and not _starts_subject(exchange, subjects[-1]):
            subjects[-1].append(exchange)
        elif subjects or _substantive(exchange):
            subjects.append([exchange])
    return subjects


def _substantive(exchange: Exchange) -> bool:
    """A subject opens on an answer that hands something over: a value, a name, a Chinese phrase —
    not "new exercises" said before the details come."""
    text = exchange.answer_text
    han = len(re.findall("[" + HAN + "]", text))
    return bool(
        exchange.restated or values(text) or quantities(text) or _handles(text) or han >= SUBSTANTIVE_HAN
    )


def _starts_subject(exchange: Exchange, subject: list[Exchange]) -> bool:
    question = exchange.question
    last = subject[-1]
    if LEX.ANOTHER_ITEM.search(question):
        return True  # "Anything else?" asks for another item
    if last.restated and not _yes_no(question):
        return (
            False  # "Noted: Northway …, account NW-55810. Who's your rep?" asks about what it just said back
        )
    if not _handles(exchange.answer_text):
        return False  # a detail without a handle of its own belongs to what is being talked about
    if _yes_no(question) and _OPENS_YES.match(exchange.answer_text):
        return False  # "用 latexmk 吗？" — "嗯 latexmk -xelatex main.tex": a yes, with the detail of it
    known = frozenset().union(*(_terms(e.question) | _terms(e.answer_text) for e in subject))
    new = _terms(question) - known
    if not new:
        return False  # it asks about what was said
    if _POINTS_BACK.search(question) and len(new) <= 1:
        return False  # "Best contact for her?"
    short_question = len(question) <= ATTRIBUTE_QUESTION_CHARS
    return not (short_question and len(exchange.answer_text) <= ATTRIBUTE_ANSWER_CHARS)


_POINTS_BACK = re.compile(r"(?<![A-Za-z])(?:her|him|his|its|their|them)(?![A-Za-z])|[她他它]", re.IGNORECASE)

# Words of any question: they name no subject ("What's the …?", "怎么", "呢").
_QUESTION_WORDS = frozenset(
    {
        "what",
        "which",
        "when",
        "where",
        "who",
        "whom",
        "whose",
        "why",
        "how",
        "many",
        "much",
        "does",
        "did",
        "any",
        "today",
        "going",
        "anything",
        "something",
        "happened",
    }
)
_QUESTION_HAN = re.compile(r"[什么怎哪几多吗呢吧啥是的了和与或还有没要用在]|今天")


def _terms(text: str) -> frozenset[str]:
    """The content words of a text: Latin words (three letters or more, not common English, not
    question words) and Chinese character pairs without question particles."""
    latin = {w.casefold() for w in re.findall(r"[A-Za-z][A-Za-z0-9]{2,}", text)}
    latin -= EN_COMMON_WORDS | _QUESTION_WORDS
    han = {pair for pair in cjk_bigrams(text) if not _QUESTION_HAN.search(pair)}
    return frozenset(latin | han)


# A handle names one thing: an e-mail address, a path, a host or domain, an IP, a code mixing
# letters and digits, a number of four digits or more that is not a year.
_TOKEN = re.compile(r"[A-Za-z0-9@._/:+\-]+")
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_PATH = re.compile(r"^~?/[\w.-]+(?:/[\w.-]*)+$")
_DOMAIN = re.compile(r"^(?:[a-z0-9-]+\.)+[a-z]{2,}$", re.IGNORECASE)
_IP = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?$")
_CODE = re.compile(r"^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9_-]{4,}$")
_LONG_NUMBER = re.compile(r"(?<!\d)\d{4,}(?!\d)")
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def _handles(text: str) -> frozenset[str]:
    found = set()
    for token in _TOKEN.findall(text):
        token = token.lstrip(".:,-").rstrip(".:,-/")  # a path keeps its leading slash
        if not token:
            continue
        if (
            _EMAIL.match(token)
            or _PATH.match(token)
            or _IP.match(token)
            or _CODE.match(token)
            or _DOMAIN.match(token)
            and not token.replace(".", "").isdigit()
            or any(not _YEAR.match(n) for n in _LONG_NUMBER.findall(token))
        ):
            found.add(token)
    return frozenset(found)


# -- a bare answer says what it answers ---------------------------------------------------------------


def asked_subject(question: str) -> str:
    """What a short question asks about, as a noun phrase: "New VM name?" → "New VM name",
    "订单号呢？" → "订单号", "Which address is that?" → "address"; "" when the question is long,
    holds a value of its own (a guess the answer may turn down), or leaves nothing."""
    last = sentences(question)[-1].strip() if question else ""
    last = last.rstrip("?？ ").strip()
    if not last or values(last) or identifiers(last):
        return ""
    if re.search("[" + HAN + "]", last):
        subject = _ZH_ASKING.sub("", last).strip(" ，,")
        return subject if 2 <= len(subject) <= 8 and not _ZH_NOT_SUBJECT.search(subject) else ""
    words = last.split()
    if words and words[0].casefold() in _EN_NOT_A_THING:
        return ""  # "Who owns each?", "How often?": the answer is a person, a manner, a place, a time
    while words and words[0].casefold().strip(",.") in _EN_LEAD:
        words = words[1:]
    while words and words[-1].casefold() in _EN_TAIL:
        words = words[:-1]
    if any(word.casefold() in _EN_POINTERS for word in words):
        return ""  # "What are they called?": the subject is said elsewhere
    return " ".join(words) if 1 <= len(words) <= 4 else ""


def _with_subject(answer: Statement, subject: str) -> Statement:
    """ "pool-1.fenwick.internal" → "New VM name: pool-1.fenwick.internal": an answer of a few words
    is no fact on its own; with the question's subject it is one. A longer answer says its subject."""
    bullet = answer.bullet
    chinese = bool(re.search("[" + HAN + "]", bullet + subject))
    short = len(re.findall("[" + HAN + "]", bullet)) <= 6 if chinese else len(bullet.split()) <= 3
    if not short or subject.casefold() in bullet.casefold():
        return answer
    named = copy.copy(answer)
    named.bullet = f"{subject}：{bullet}" if chinese else f"{subject}: {bullet}"
    return named


# Question words and particles around a Chinese question's subject ("…呢", "…是多少", "叫什么").
_ZH_ASKING = re.compile(
    r"^(?:那|那么|好的|好|嗯|对了|还有|然后)[，,\s]*|(?:是|叫|在|有)?(?:什么|多少|几点|几号|哪里|哪儿|哪|啥|怎么样|如何|多久)[^，。]*$|[呢吗啊呀吧]+$"
)
# A question about the chat itself, not about a thing ("要不要", "怎么办", "可以吗").
_ZH_NOT_SUBJECT = re.compile(r"要不要|怎么|可以|需要|你|我")
_EN_LEAD = frozenset(
    [
        "and",
        "so",
        "ok",
        "okay",
        "great",
        "got",
        "it",
        "noted",
        "what",
        "what's",
        "whats",
        "which",
        "where",
        "when",
        "who",
        "how",
        "is",
        "are",
        "was",
        "were",
        "the",
        "your",
        "her",
        "his",
        "their",
        "its",
        "any",
        "do",
        "does",
        "did",
        "you",
        "have",
        "about",
        "for",
        "much",
        "many",
        "often",
        "long",
    ]
)
_EN_TAIL = frozenset(["is", "that", "it", "are", "they", "then", "there", "again", "one"])
# who / how / where …: the answer is a person, a manner, a place; want / shall …: an offer
_EN_NOT_A_THING = frozenset(
    [
        "who",
        "whom",
        "whose",
        "how",
        "where",
        "when",
        "why",
        "want",
        "wanna",
        "shall",
        "should",
        "need",
        "mind",
    ]
)
_EN_POINTERS = frozenset(
    ["they", "them", "it", "he", "she", "him", "each", "this", "that", "these", "those", "called"]
)
