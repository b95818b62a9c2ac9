"""The lexicon screen: a fast look for words every match contains, never a different answer."""

import re

import pytest

from savenow.compaction import summary, withdrawn
from savenow.compaction.chatsignals import Lexeme
from savenow.compaction.screen import Screened, required_literals
from savenow.text import identifiers
from savenow.text.alternation import quick_start

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
    # Traditional Chinese: other characters for the same words
    "請在 12 月 15 日前繳交，聯絡人是陳經理，電話 02-2345-6789，費用 NT$1,200 元。",
    "會議改到下週三 下午 3:30，地點不變；預算維持 HK$8,000 就好",
    "那個方案不考慮了 哈哈哈，改用 zstd-9 吧",
    # accented letters, other scripts' digits and signs
    "Zoë Béranger paid €12.50 at Café Ångström — naïve résumé, 3 Rue de l'Église",
    "ÉLODIE O'NEILL: ¥3000 円 for 2 nights, £45 deposit, 30％ off, １２月３日",
    "Müller & Søren set FEATURE_X=0 and --keep-daily 7; order 91330106MA2H7K3L5Q",
    # runs of spaces and tabs between and around the words
    "  the   port   stays   8443  ,   keep    it  ",
    "\t\tset\tthe  timeout to   30s\t\t",
    "张三    和   李四     说   明天    10 点   见",
]
WRAPPED = re.compile(r"\(\?=\[((?:\\.|[^\]\\])+)\]\)\(\?:(.*)\)", re.DOTALL)


def _module_patterns(value):
    """The patterns a module value holds, in tuples and lists too (``_SUMMARY_VALUES``'s pairs)."""
    if isinstance(value, re.Pattern):
        if value.pattern is not None:  # None: compile_alternation's, tested in tests/text
            yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _module_patterns(item)


MODULE_PATTERNS = list(
    dict.fromkeys(
        p
        for module in (summary, withdrawn, identifiers)
        for v in vars(module).values()
        for p in _module_patterns(v)
    )
)


def _original(pattern):
    """The pattern a ``(?=[…])(?:…)`` wrapper (quick_start's, or one written by hand) was put around."""
    wrapped = WRAPPED.fullmatch(pattern.pattern)
    return re.compile(wrapped.group(2), pattern.flags) if wrapped else None


def _matches(pattern, text):
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


def _assert_same_matches(quick, original):
    assert quick.groupindex == original.groupindex
    for text in QUICK_TEXTS + [t.upper() for t in QUICK_TEXTS] + [t.lower() for t in QUICK_TEXTS]:
        assert _matches(quick, text) == _matches(original, text), text
        assert bool(quick.match(text)) == bool(original.match(text)), text


WRAPPED_PATTERNS = [p for p in MODULE_PATTERNS if _original(p) is not None]


def test_the_wrapped_patterns_are_all_collected():
    # every module pattern built behind a lookahead is unwrapped, _SUMMARY_VALUES's pairs among them
    assert [p for p in MODULE_PATTERNS if p.pattern.startswith("(?=[")] == WRAPPED_PATTERNS
    assert len(WRAPPED_PATTERNS) >= 20
    assert identifiers._VALUE_NO_EMAIL in WRAPPED_PATTERNS
    assert {p for pair in summary._SUMMARY_VALUES for p in pair} & set(WRAPPED_PATTERNS)


@pytest.mark.parametrize(
    "pattern", WRAPPED_PATTERNS, ids=lambda p: WRAPPED.fullmatch(p.pattern).group(2)[:30]
)
def test_a_wrapped_pattern_finds_what_its_original_finds(pattern):
    _assert_same_matches(pattern, _original(pattern))


@pytest.mark.parametrize(
    "pattern",
    [p for p in MODULE_PATTERNS if _original(p) is None and quick_start(p) is not p],
    ids=lambda p: p.pattern[:30],
)
def test_quick_start_finds_what_the_pattern_finds(pattern):
    _assert_same_matches(quick_start(pattern), pattern)


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
