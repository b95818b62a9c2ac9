"""The lexicon screen: a fast look for words every match contains, never a different answer."""

import re

import pytest

from savenow.compaction import summary, withdrawn
from savenow.compaction.chatsignals import Lexeme
from savenow.compaction.screen import Screened, quick_start, required_literals
from savenow.text import identifiers

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


# -- quick_start: a lookahead on the first characters, never a different match --------------------


QUICK_TEXTS = [
    *TEXTS,
    "Call Mrs Okafor on +65 9123 7781 before the 26th; Dec 18th is the deadline.",
    "王阿姨说 12 月 15 号前要交，联系人是刘教授，电话 021-64370045。",
    "hannah.wells@gmail.com sent CRB-0419 and 4e7a1c9 for CAD 14,500",
    "Omar is vegetarian lol",
    "这个方案不考虑了 哈哈",
    "那家    就不订了",  # spaces before the marker, as a blanked-out code span leaves them
    "   ",
]


def _matches(pattern, text):
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


@pytest.mark.parametrize(
    "pattern",
    [
        p
        for module in (summary, withdrawn, identifiers)
        for p in vars(module).values()
        if isinstance(p, re.Pattern) and quick_start(p) is not p
    ],
    ids=lambda p: p.pattern[:30],
)
def test_quick_start_finds_what_the_pattern_finds(pattern):
    quick = quick_start(pattern)
    assert quick.groupindex == pattern.groupindex
    for text in QUICK_TEXTS + [t.upper() for t in QUICK_TEXTS]:
        assert _matches(quick, text) == _matches(pattern, text), text
        assert bool(quick.match(text)) == bool(pattern.match(text)), text


def test_quick_start_reads_the_first_characters_of_a_pattern():
    assert quick_start(re.compile(r"(?<![A-Za-z])(?:lol|哈哈+)\W*$")).pattern.startswith("(?=[")
    # nothing to gain: re skips ahead on a first character or class by itself
    for source in (r"abc", r"[月年]", r"Jan|Feb", r"[A-Z]{3}\d"):
        assert quick_start(re.compile(source)).pattern == source
    # nothing it can be sure of: any character, a pattern that can match nothing, a scoped flag
    for source in (r"(?<!x).b", r"(?<!x)a*", r"(?<!x)(?i:a)b"):
        assert quick_start(re.compile(source)).pattern == source


def test_values_without_an_address_are_found_as_before():
    whole = re.compile(identifiers._VALUE.pattern)
    for text in QUICK_TEXTS:
        if "@" not in text:
            found = [m.group(0) for m in identifiers._VALUE_NO_EMAIL.finditer(text)]
            assert found == [m.group(0) for m in whole.finditer(text)], text
    assert "hannah.wells@gmail.com" in identifiers.written_values("hannah.wells@gmail.com sent CRB-0419")


def test_a_withdrawal_after_a_blanked_out_command_is_found_quickly():
    # "`restic forget …`" is blanked out to spaces; the tail pattern once tried every split of them
    text = "脚本里 forget 那一步是： `restic forget --keep-daily 7 --keep-weekly 4 --keep-monthly 6 --prune`"
    assert [obj.strip() for _, _, obj in withdrawn._withdrawals_in(text)] == ["那一步是："]
    assert [obj for _, _, obj in withdrawn._withdrawals_in("那家    就不订了")] == ["那家"]
    assert [obj for _, _, obj in withdrawn._withdrawals_in("zstd-9 的方案不考虑了")] == ["zstd-9 的方案"]
