"""The title helpers' str scans say exactly what the per-term regexes they replaced said.

`_adjacent`, `_negated`, `_with_number`, `_after_number` and `_cut_inside` once compiled a
pattern per term or title (≈ 1,000 compiles per nine unseen chats); they now scan with
str.find. Each test compares a scan with the original pattern on varied text.
"""

from __future__ import annotations

import itertools
import re

from savenow.extract.heuristic import titles

TEXTS = [
    "sudo xcode-select --install; the gateway token rotates",
    "gateway token 和 gateway-token.v2, gateway tokenizer",
    "沪深300 指数，沪深300ETF，一号楼 2 号机 6 天一循环，12号机",
    "Send Fenwick invoices to Fenwick invoices@x; Smart Recycle on Monday, Smart March",
    "The Smart Recycle bins; Big Smart, O'Smart, Xsmart Smart-Recycle",
    "不要发邮件，别发邮件，not email, never email, don't email",
    "a-b a.b a_b ab aab abb 的的 a的b",
    "",
]
TERMS = [
    "gateway",
    "token",
    "gateway token",
    "沪深",
    "一号",
    "号机",
    "天",
    "Smart",
    "Fenwick invoices",
    "email",
    "发邮件",
    "a",
    "b",
    "ab",
    "的",
]


def test_find_whole_is_the_bounded_search() -> None:
    for text, phrase, start, end in itertools.product(TEXTS, TERMS, (False, True), (False, True)):
        pattern = ("(?<![\\w.-])" if start else "") + re.escape(phrase) + ("(?![\\w.-])" if end else "")
        assert titles._find_whole(text, phrase, start, end) == bool(re.search(pattern, text)), (text, phrase)


def test_starts_are_the_non_overlapping_matches() -> None:
    for text, term in itertools.product([*TEXTS, "aaaa", "的的的"], [*TERMS, "aa", "的的"]):
        assert titles._starts(text, term) == [m.start() for m in re.finditer(re.escape(term), text)]


def test_with_number_takes_the_same_tail() -> None:
    for text, term in itertools.product(TEXTS, TERMS):
        assert titles._with_number(term, text) == _with_number_by_regex(term, text), (text, term)


def _with_number_by_regex(term: str, text: str) -> str:
    tails = {m.group(1) for m in re.finditer(re.escape(term) + r"([A-Za-z0-9]*)", text)}
    if len(tails) == 1 and (tail := tails.pop()) and len(tail) <= 6:
        return term + tail
    return term


def test_name_scans_are_the_cut_inside_patterns() -> None:
    for text, title in itertools.product(TEXTS, ["Smart", "Fenwick invoices", "invoices", "Recycle", "a"]):
        after = re.compile(re.escape(title) + rf" (?!(?i:{titles._WHEN_WORD.pattern})\b)[A-Z][a-z]")
        before = re.compile(r"(?<![\w'])([A-Z][a-z]+) " + re.escape(title) + r"(?![\w'-])")
        assert titles._name_goes_on(title, text) == bool(after.search(text)), (text, title)
        assert titles._names_before(title, text) == [m.group(1) for m in before.finditer(text)], (text, title)


def test_the_title_helpers_keep_their_answers() -> None:
    assert titles._adjacent("the gateway token rotates", "gateway", "token") == "gateway token"
    assert titles._adjacent("sudo xcode-select", "sudo", "xcode") == ""
    assert titles._negated("周报不发邮件，别发邮件", "发邮件")
    assert not titles._negated("周报发邮件", "发邮件")
    assert titles._with_number("沪深", "买沪深300，沪深300 定投") == "沪深300"
    assert titles._after_number("号机", "2 号机和 3 号机")
    assert titles._cut_inside("Smart", ["Put it in the Smart Recycle bin."])
    assert titles._cut_inside("invoices", ["Check Fenwick invoices weekly."])
    assert not titles._cut_inside("Fenwick invoices", ["Send Fenwick invoices to ap@x."])
