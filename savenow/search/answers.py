"""What kind of value a question asks for, and whether a chunk holds one (answer types).

A question names its subject *and* the kind of answer it wants: 什么时候 / "when" a date, 几点 /
"what time" a clock time, 多少钱 / "how much … cost" an amount of money, 多久 / "how long" a
duration, 多少 / 几 / "how many" a number, 比例 / "what percentage" a share (``60%``), 为什么 / 原因 /
"why" / "what made" a cause (the note says 因为, 原因：, "root cause", "due to"). The question words themselves score nothing (they are
stop words: every note could hold them), but the *value* they ask for is evidence a chunk is the
answer and not a note that only mentions the subject: "疫苗几号打" is answered by the note with the
date of the jab, not the one that says a jab is due; "when does the lease end" by the line with
the end date. Both languages, written as general grammar, never from a workspace's words.

The ranking (``engine._with_answer_types``) gives a chunk that holds a value of an asked kind a
share of the distance to a full score; it never lowers a chunk that holds none, and it never
lifts a chunk that matched nothing else of the question.
"""

from __future__ import annotations

import re
from functools import cache

from ..text.patterns import en_words
from ..text.script import fold_traditional

__all__ = ["asked_kinds", "frame_words", "holds_kind", "question_phrases"]

# -- what the question asks for --------------------------------------------------------------------
# (queries are casefolded before these run: en_words' [A-Za-z] guard is the [a-z] one here)
_ASKS: dict[str, str] = {
    "date": (
        r"什么时候|啥时候|哪天|哪一天|几号|几月|何时|日期|哪年|"
        + en_words(r"when|what date|which day|what day|which date|how soon")
    ),
    "clock": (r"几点|什么时候|啥时候|什么时间|啥时间|几时|" + en_words(r"what time|when|how early|how late")),
    "money": (
        r"多少钱|几块钱|价格|价钱|费用|花了多少|多少元|收费|报价|"
        # "how much … cost/pay/charge", "how much is a …" (the price of a thing); not "how much
        # memory is free", which asks for a number
        + en_words(
            r"how much (?:\w+ ){0,6}?(?:cost|costs|pay|paid|charge|charged|spend|spent)",
            r"how much (?:is|are|was|were) (?:a|an|the|it|one)",
            r"what(?:'s| is| was) the (?:price|cost|fee)|price|fee|fees",
        )
    ),
    "duration": (r"多久|多长时间|多长|几天|几分钟|几小时|" + en_words(r"how long")),
    "number": (r"多少|几[个次份单件台位岁斤公里档级类]|第几|" + en_words(r"how many|how much|what number")),
    # A share of a whole: 报销比例, 占比, 几成, "what percentage", "what share of".
    "share": (
        r"比例|占比|百分比|百分之几|几成|多少成|"
        + en_words(r"percentage|what percent|how many percent|what share|what proportion|what ratio")
    ),
    # A cause: 为什么 / 原因 / "why" / "what caused" / "what made … go down".
    "cause": (
        r"为什么|为啥|原因|怎么回事|怎么会|何故|起因|根因|"
        + en_words(r"why|what caused|what made|what makes|how come|cause|causes|reason|reasons|root cause")
    ),
}

# -- the values ------------------------------------------------------------------------------------
_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_WEEKDAYS = (
    r"mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?"
)
_HOLDS: dict[str, str] = {
    "date": (
        r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|(?<![\d.:/])\d{1,2}/\d{1,2}(?![\d/.:])|"
        r"\d{1,2}\s*月\s*(?:\d{1,2}\s*[日号]|底|初|中旬|上旬|下旬|末|中)|\d{4}\s*年\s*\d{1,2}\s*月|"
        r"(?<!\d)\d{1,2}\s*号|[周星期礼拜]+[一二三四五六日天]|下周|下个月|明天|后天|"
        r"(?<![a-z])(?:(?:" + _MONTHS + r")\.?\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}\s+(?:" + _MONTHS + r")|"
        r"(?:" + _WEEKDAYS + r")(?:s)?|tomorrow|next week|next month)(?![a-z])"
    ),
    "clock": (
        r"(?<![\d.:])\d{1,2}:\d{2}(?![\d:])|(?<!\d)\d{1,2}\s*点(?:半|\d{1,2}\s*分?)?|"
        r"[上下中早晚]午\s*\d|(?<!\d)\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)(?![a-z])"
    ),
    "money": (
        r"\d[\d,.]*\s*(?:元|块|万元|万|角|美元|美金|欧元|英镑|港币|日元|rmb|cny|usd|eur|gbp|hkd|jpy|dollars?|euros?|pounds?)"
        r"(?![a-z])|[¥￥$€£]\s*\d|(?<![a-z])(?:rmb|cny|usd|eur|gbp|hkd)\s*\d"
    ),
    "duration": (
        r"(?<![\d.:])\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?|days?|weeks?|months?|"
        r"years?|秒|毫秒|分钟|分|小时|个小时|天|周|星期|个月|年)(?![a-z])"
    ),
    "number": (
        r"(?<![a-z\d._:/-])\d+(?:[.,]\d+)?(?![a-z\d._:/-])|(?<![a-z\d._:/-])\d+(?:[.,]\d+)?\s*[^\x00-\x7f\s]"
    ),
    "share": r"\d+(?:[.,]\d+)?\s*%|百分之|[一二三四五六七八九]成(?:(?=左右|以上|以下|的)|(?![{HAN}]))|(?<![a-z])\d+(?:\.\d+)?\s*percent(?![a-z])",
    # The words that say *why*: a note gives the cause with them (原因：…, 因为, "root cause", "due to").
    "cause": (
        r"因为|由于|原因|导致|造成|起因|根因|所以|"
        r"(?<![a-z])(?:because|due to|caused by|cause|causes|root cause|reason|owing to|thanks to|"
        r"turned out|traced to)(?![a-z])"
    ),
}


# Compiled on first use, one at a time: compiling them all at import cost a search process
# 6-12 ms of start-up (python -X importtime), more than the rest of this module's work.
@cache
def _ask(kind: str) -> re.Pattern[str]:
    return re.compile(_ASKS[kind])


@cache
def _hold(kind: str) -> re.Pattern[str]:
    # the Han class is filled in here, not at import: a search that asks for no kind loads no text.cjk
    from ..text.cjk import HAN

    return re.compile(_HOLDS[kind].replace("{HAN}", HAN))


def asked_kinds(query: str) -> frozenset[str]:
    """The kinds of value ``query`` asks for (empty when it asks for none: a name, a place, a how)."""
    folded = query.casefold()
    kinds = {kind for kind in _ASKS if _ask(kind).search(folded)}
    if kinds & {"money", "duration", "clock", "share"}:
        kinds.discard("number")  # 多少钱 asks for money, 几点 for a time, 比例 a share, not any number
    return frozenset(kinds)


# A daily note's heading time (`## 09:40 - Standup`) says when the note was written, not a value.
_HEADING_TIME = re.compile(r"^(#+\s*)\d{1,2}:\d{2}", re.MULTILINE)


def holds_kind(text: str, kinds: frozenset[str]) -> bool:
    """Whether ``text`` (a chunk, its headings' clock times left out) holds a value of one of ``kinds``."""
    body = _HEADING_TIME.sub(r"\1", fold_traditional(text.casefold()))
    return any(_hold(kind).search(body) is not None for kind in kinds)


# Words that, in a question asking for that kind, only say the kind again: "how much did the
# voice actor *charge*" asks for a sum of money whatever the verb; a note gives the sum ("报价
# 2400 元") and rarely the verb. As query terms (stemmed, like search/tokenize.py makes them).
# English only: a Chinese question says the kind with question words the tokenizer already
# drops by position (多少钱, 花了多少), and zeroing a bigram afterwards would leave its seams.
_FRAME_WORDS: dict[str, frozenset[str]] = {
    "money": frozenset(["cost", "charge", "price", "pay", "paid", "spend", "spent", "fee"]),
    "date": frozenset(["date", "day"]),
    "duration": frozenset(["long"]),  # "how long": the note gives "2s", "5 分钟"
    "cause": frozenset(["cause", "reason", "made", "make", "root"]),
}


def question_phrases(query: str, kinds: frozenset[str]) -> list[str]:
    """The phrases of ``query`` that ask for one of ``kinds`` ("what made", "how much did the
    voice actor charge", "root cause"): a frame word says the kind again only inside one of them;
    elsewhere it is the subject ("why is the *root* partition full", "when is the *day* trip")."""
    folded = query.casefold()
    return [match.group(0) for kind in sorted(kinds) for match in _ask(kind).finditer(folded)]


def frame_words(kinds: frozenset[str]) -> frozenset[str]:
    """The query terms that only restate one of ``kinds`` (they should score nothing)."""
    return frozenset().union(*(_FRAME_WORDS.get(kind, frozenset()) for kind in kinds))
