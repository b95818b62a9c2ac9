"""compile_alternation matches exactly what the plain pattern matches, and gives the engine a charset."""

from __future__ import annotations

import re

import pytest

from savenow.text.alternation import compile_alternation, rewritten
from savenow.text.patterns import en_words

TEXTS = [
    "",
    "as agreed, same as always; it's still the rule",
    "alias as-is: asagreed is one word, unlike as agreed",
    "用emoji了 以后回复别用 emoji",
    "笔记里也有，记录里也写了",
    "the remember button: i remember it, please remember this",
    "works, worked, working, work",
    "summarise / summarize / summary",
    "see /etc/nginx/sites-enabled/app.conf and ~/.openclaw/openclaw.json or ./run.sh ../x/y",
    "KEY_ID=1, OPENCLAW_GATEWAY_TOKEN, not_an_env, billing-svc, edge-1, ExecStart, Retry-After",
    "aaa aab aac ab a",
    "x" * 50 + " as before " + "y" * 50,
]

PATTERNS = [
    en_words("already in (?:today's |the |your )?notes", "as agreed", "as noted", "as before", "as always"),
    en_words("(?:is |that's |it's )?still the rule", "(?:same )?as always", "work(?:s|ed|ing)?"),
    en_words("to summari[sz]e", "summary", "rules?(?=\\s*:)"),
    "(?<!i )(?<!you )remember(?: this| that)?(?! (?:it|when))",
    "(?:笔记|记录)里也|笔记里(?:也|已经)?(?:是|有|写|记)|" + en_words("emoji"),
    r"(?<![\w/])(?:~|\.{1,2})?/[\w.\-]+(?:/[\w.\-<>]*)+",
    r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![A-Za-z0-9_])",
    r"(?<![\w-])[A-Za-z][a-z0-9]*(?:-[A-Za-z0-9]+)+(?![\w-])",
    "a+b|a{2,3}c|aa??b",  # repetitions in front, greedy and lazy
    "(?:ab|cd)e|(?:x|yz)?w",
]


@pytest.mark.parametrize("source", PATTERNS)
def test_the_rewritten_pattern_finds_the_same_spans(source: str) -> None:
    plain, fast = re.compile(source), compile_alternation(source)
    assert rewritten(source) is not None, source  # each of these is rewritten
    for text in TEXTS:
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in plain.finditer(text)], text
        found, expected = fast.search(text), plain.search(text)
        assert (found and found.span()) == (expected and expected.span()), text


@pytest.mark.parametrize(
    "source",
    [
        "(a)b|c",  # a capturing group would be copied
        "^foo|bar",  # an anchor in front
        "(?=x)xy|z",  # a lookahead in front
        "a*b|c",  # a repetition that may be skipped
        "x?|y",  # may match the empty string
        "foo",  # already starts with a plain character
    ],
)
def test_patterns_it_cannot_rewrite_stay_as_they_are(source: str) -> None:
    assert rewritten(source) is None
    assert compile_alternation(source).pattern == source


def test_case_insensitive_patterns_are_compiled_as_they_are() -> None:
    assert rewritten("(?<![a-z])(?:foo|bar)", re.IGNORECASE) is None
    assert compile_alternation("(?<![a-z])(?:foo|bar)", re.IGNORECASE).search("FOO")
