"""Applying decisions: add/merge placement, markers, line endings, new-file header."""

from __future__ import annotations

from datetime import date, datetime

from savenow.memory.compare import plan
from savenow.memory.document import MemoryDocument
from savenow.memory.merge import apply_decisions
from savenow.models import Entry

NOW = datetime(2026, 5, 15, 16, 48)
DAY = date(2026, 5, 15)


def run(text: str | None, entries: list[Entry]) -> str:
    document = MemoryDocument.parse(text)
    return apply_decisions(document, plan(entries, document), now=NOW, day=DAY).text


def test_new_file_starts_with_date_header() -> None:
    assert (
        run(None, [Entry("Test note", ["A bullet"])]) == "# 2026-05-15\n\n## 16:48 - Test note\n- A bullet\n"
    )


def test_adds_go_to_the_end_with_one_blank_line_before() -> None:
    text = "# 2026-05-15\n\n## 10:00 - Old\n- old\n"
    assert run(text, [Entry("New", ["n1", "n2"]), Entry("Other", ["o"])]) == (
        text + "\n## 16:48 - New\n- n1\n- n2\n\n## 16:48 - Other\n- o\n"
    )


def test_no_extra_blank_line_when_file_ends_blank() -> None:
    text = "## A\n- a\n\n"
    assert run(text, [Entry("New", ["n"])]) == text + "## 16:48 - New\n- n\n"


def test_merge_inserts_after_last_bullet_with_marker() -> None:
    text = (
        "# d\n\n## 14:02 - Telegram UI conventions\n- Single-row.\nnote line\n\n## 14:30 - Unrelated\n- foo\n"
    )
    entry = Entry("Buttons", ["Cancel right.", "Apply left."], "merge", "Telegram UI conventions")
    assert run(text, [entry]) == (
        "# d\n\n## 14:02 - Telegram UI conventions\n- Single-row.\n- Cancel right.\n- Apply left.\n"
        "- (merged 16:48)\nnote line\n\n## 14:30 - Unrelated\n- foo\n"
    )


def test_trailing_marker_is_replaced_not_stacked() -> None:
    text = "## 14:02 - Target\n- bullet a\n- (merged 14:05)\n"
    out = run(text, [Entry("Second", ["bullet b"], "merge", "Target")])
    assert out == "## 14:02 - Target\n- bullet a\n- bullet b\n- (merged 16:48)\n"


def test_two_merges_into_one_section_share_one_marker() -> None:
    text = "## T\n- a\n"
    out = run(text, [Entry("x", ["b"], "merge", "T"), Entry("y", ["c", "b"], "merge", "T")])
    assert out == "## T\n- a\n- b\n- c\n- (merged 16:48)\n"


def test_merge_into_heading_without_bullets() -> None:
    assert run("## T\n\ntext\n", [Entry("x", ["b"], "merge", "T")]) == "## T\n- b\n- (merged 16:48)\n\ntext\n"


def test_crlf_file_gets_crlf_lines_and_unterminated_tail_is_terminated() -> None:
    text = "\ufeff# d\r\n\r\n## T\r\n- a\r\ntrailing text"
    out = run(text, [Entry("x", ["b"], "merge", "T"), Entry("New", ["n"])])
    assert (
        out
        == "\ufeff# d\r\n\r\n## T\r\n- a\r\n- b\r\n- (merged 16:48)\r\ntrailing text\r\n\r\n## 16:48 - New\r\n- n\r\n"
    )


def test_merge_at_unterminated_end_of_file() -> None:
    out = run("## T\n- a", [Entry("x", ["b"], "merge", "T"), Entry("New", ["n"])])
    assert out == "## T\n- a\n- b\n- (merged 16:48)\n\n## 16:48 - New\n- n\n"
    out = run("## T\n- a\n- (merged 10:00)", [Entry("x", ["b"], "merge", "T")])
    assert out == "## T\n- a\n- b\n- (merged 16:48)\n"


def test_blank_existing_file_keeps_its_bytes_and_gets_header() -> None:
    assert run("", [Entry("A", ["b"])]) == "# 2026-05-15\n\n## 16:48 - A\n- b\n"
    assert run("\ufeff", [Entry("A", ["b"])]) == "\ufeff\n# 2026-05-15\n\n## 16:48 - A\n- b\n"
    assert run("\n\n", [Entry("A", ["b"])]) == "\n\n# 2026-05-15\n\n## 16:48 - A\n- b\n"


def test_skips_change_nothing_and_produce_no_hunks() -> None:
    text = "## T\n- a\n"
    document = MemoryDocument.parse(text)
    result = apply_decisions(document, plan([Entry("x", ["a"], "skip")], document), now=NOW, day=DAY)
    assert result.text == text and not result.changed


def test_hunks_describe_exactly_the_change() -> None:
    text = "## T\n- a\n- (merged 10:00)\n## U\n- u"
    document = MemoryDocument.parse(text)
    decisions = plan([Entry("x", ["b"], "merge", "T"), Entry("New", ["n"])], document)
    result = apply_decisions(document, decisions, now=NOW, day=DAY)
    rebuilt = result.text.splitlines(keepends=True)
    for hunk in sorted(result.hunks, key=lambda h: h.at, reverse=True):
        assert rebuilt[hunk.at : hunk.at + len(hunk.new)] == hunk.new
        rebuilt[hunk.at : hunk.at + len(hunk.new)] = hunk.old
    assert "".join(rebuilt) == text
    assert result.inserted_lines == 1 + 3  # a bullet (the marker is replaced); blank, heading, bullet


def test_multiline_titles_and_bullets_stay_on_one_line() -> None:
    out = run(None, [Entry("Two\nlines", ["b1\nb2"])])
    assert out == "# 2026-05-15\n\n## 16:48 - Two lines\n- b1 b2\n"


def test_unclosed_fence_at_end_is_closed_before_new_sections() -> None:
    out = run("## A\n- a\n```\ncode", [Entry("New", ["n"])])
    assert out == "## A\n- a\n```\ncode\n```\n\n## 16:48 - New\n- n\n"
    assert [s.title for s in MemoryDocument.parse(out).sections] == ["A", "New"]


def test_merge_drops_bullets_saved_elsewhere_in_the_file() -> None:
    text = "## T\n- a\n## U\n- u\n"
    assert (
        run(text, [Entry("x", ["u", "new"], "merge", "T")])
        == "## T\n- a\n- new\n- (merged 16:48)\n## U\n- u\n"
    )


def test_entry_with_nothing_left_after_normalization_is_skipped() -> None:
    document = MemoryDocument.parse("## T\n- a\n")
    (decision,) = plan([Entry("🚀🚀", ["!!!"])], document)
    assert decision.action == "skip" and decision.reason == "empty" and decision.is_comparer_skip
