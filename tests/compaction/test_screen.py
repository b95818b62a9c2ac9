"""The lexicon screen: a fast look for words every match contains, never a different answer."""

import re

import pytest

from savenow.compaction import summary
from savenow.compaction.chatsignals import Lexeme
from savenow.compaction.screen import Screened, required_literals

from .test_summary import CHAT


def test_reads_the_words_every_match_needs():
    words = required_literals(
        re.compile(r"(?<![A-Za-z])(?:Error|failed|timed? ?out)(?![A-Za-z])|报错", re.IGNORECASE)
    )
    assert words == {"error", "failed", "time", "报错"}  # lowercased: the pattern ignores case
    assert required_literals(re.compile(r"(?:http|code)\s*:?\s*\d{1,3}")) == {"http", "code"}
    assert required_literals(re.compile(r"ab+cd")) == {"cd"}  # a run of literals; b+ is one "b"


@pytest.mark.parametrize(
    "source",
    [
        r"\d+",  # no literal at all
        r"foo|\d",  # one alternative without a literal
        r"(?i:abc)",  # a scoped flag changes what a literal matches
        r"(?:abc)?",  # optional
    ],
)
def test_leaves_a_pattern_it_cannot_read_as_it_is(source):
    assert required_literals(re.compile(source)) is None
    assert Screened(re.compile(source))._screen is None


LEXICONS = [v for v in vars(summary).values() if isinstance(v, re.Pattern) and v.flags & re.IGNORECASE]
TEXTS = [
    *(m.content for m in CHAT),
    "The deploy FAILED again, exit code 137",
    "we switched to `release-3` and pinned v1.3.2.",
    "ſtep 3: ſettled",  # long s folds onto "s" under IGNORECASE: never screened out
    "KELVIN sign: K failed",
    "İ decided",
    "ﬁnally done",
    "从 8080 改成 8443，以后都用新的端口",
    "",
]


@pytest.mark.parametrize("pattern", LEXICONS, ids=lambda p: p.pattern[:30])
def test_answers_are_the_lexicons_own(pattern):
    screened, plain = Screened(pattern), Lexeme(pattern)
    for text in TEXTS + [t.upper() for t in TEXTS] + [t.title() for t in TEXTS]:
        mine, theirs = screened.search(text), plain.search(text)
        assert (mine and mine.span()) == (theirs and theirs.span()), text
