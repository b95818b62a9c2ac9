"""The fast paths of the extractor say exactly what the plain regexes say.

Lexicons are matched case-sensitively on lowercased text, with Chinese-only alternatives
left out for ASCII text, and remembered per chat; machine-line tests skip scans that cannot
match. These tests compare each fast answer with the original pattern's on varied text.
"""

from __future__ import annotations

import re

import pytest

from savenow.extract.heuristic import machine, signals
from savenow.extract.heuristic.signals import LEX

TEXTS = [
    "From now on, ALWAYS reply in English.",
    "以后回复别用表格，Always 先给结论",
    "The ROOT CAUSE was a stale DNS cache; Fix: pin the image digest.",
    "找到原因了：证书链缺了中间证书，修法：改成 fullchain.pem",
    "Still fails with the SAME ERROR 502",
    "I'll look at it TONIGHT, remind me",
    "Café owner Zoë OWNS the billing service",  # cased letters outside ASCII that lowercase plainly
    "RÉSUMÉ: from now on ÖFFNEN always 以后",
    "ΣΟΦΙΑ owns it; Ωmega is in charge of 部署",  # final sigma: the plain pattern decides
    "ǅ ǈ ß ẞ: still running",  # title-case and sharp s: IGNORECASE folds them specially
    "ſtill running",  # long s: IGNORECASE folds it onto "s"
    "\u212aeep in mind the disk",  # Kelvin sign folds onto "k"
    "İstanbul office: never deploy on Friday",
    "ok, acme.sh then",
    "那就用 restic 吧",
    "what about certbot?",
    "Noted: aisle seats for you",
    "好的，记下了这条规则",
    "72% done, took 3m 10s so far",
    "",
]


@pytest.mark.parametrize(
    "name", [n for n, v in vars(signals.Lexicon).items() if isinstance(v, signals.Lexeme)]
)
def test_every_lexeme_answers_like_its_pattern(name: str) -> None:
    lexeme = getattr(LEX, name)
    for text in TEXTS:
        with signals.chat_memo():
            fast = lexeme.search(text)
        plain = lexeme.regex.search(text)
        assert bool(fast) == bool(plain), (name, text)
        if fast and plain:
            assert fast.span() == plain.span(), (name, text)
            assert [g and g.casefold() for g in fast.groups()] == [g and g.casefold() for g in plain.groups()]
        assert bool(lexeme.search(text)) == bool(plain)  # the remembered answer too


def test_lexeme_keeps_sub_and_finditer_of_the_plain_pattern() -> None:
    assert LEX.ACK_PREFIX.sub("", "Got it: port 8443") == "port 8443"
    assert [m.group(1) for m in LEX.ALTERNATIVE.finditer("what about Certbot?")] == ["Certbot"]


def test_a_pattern_with_an_uppercase_letter_keeps_the_case_insensitive_path() -> None:
    lexeme = signals.Lexeme(re.compile(r"I'd go with", re.IGNORECASE))
    assert lexeme.search("i'd GO WITH it")


def test_machine_lines_with_and_without_the_cheap_tests() -> None:
    assert machine.is_machine_line("NEXT   LEFT   LAST")
    assert machine.is_machine_line('ts=2026-11-18 level=error msg="boom"')
    assert machine.is_machine_line("https://example.com/a/b")
    assert machine.is_machine_line("Traceback (most recent call last):")
    assert not machine.is_machine_line("the level is fine, thanks")
    assert not machine.is_machine_line("端口是 8443，不是 8080")


def test_chinese_question_words_need_chinese_text() -> None:
    assert signals.is_question("端口是多少")
    assert not signals.is_question("port is 8443")
    assert signals.is_question("is it 8443?")


@pytest.mark.parametrize(
    "parts",
    [
        ("(?<!x)以后", "以后再说", "later"),  # both halves match at one place: the order decides
        ("以后再说", "(?<!x)以后", "later"),
        ("later", "以后", "(?:从今)?以后都"),
        ("以后", "从今"),  # no alternative can match ASCII text
    ],
)
def test_text_with_chinese_is_searched_in_two_halves_like_the_whole_pattern(parts: tuple[str, ...]) -> None:
    lexeme = signals.Lexeme("|".join(parts), re.IGNORECASE, parts)
    plain = re.compile("|".join(parts), re.IGNORECASE)
    for text in ["以后再说吧", "later 以后再说", "从今以后都这样", "先这样，later", "LATER", "没有", ""]:
        fast, expected = lexeme.search(text), plain.search(text)
        assert (fast and fast.span()) == (expected and expected.span()), (parts, text)
