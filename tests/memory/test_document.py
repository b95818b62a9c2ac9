"""MemoryDocument: sections, bullets, fences, exact round trip."""

from __future__ import annotations

from savenow.memory.document import MemoryDocument, detect_newline, split_lines
from savenow.models import MemorySection


def test_sections_titles_times_and_bullets() -> None:
    doc = MemoryDocument.parse(
        "# 2026-05-15\n\n## 10:00 - 网关令牌不匹配修复\n- 通过更新令牌解决\n- 第二条\n\n## Plain title\n- x\n"
    )
    assert [(s.title, s.time) for s in doc.sections] == [
        ("网关令牌不匹配修复", "10:00"),
        ("Plain title", None),
    ]
    assert doc.sections[0].bullets == ["通过更新令牌解决", "第二条"]
    assert doc.sections[0].heading_line == 2 and doc.sections[0].last_bullet_line == 4
    assert doc.memory_sections() == [
        MemorySection("网关令牌不匹配修复", ("通过更新令牌解决", "第二条"), "10:00"),
        MemorySection("Plain title", ("x",), None),
    ]


def test_headings_and_bullets_inside_fences_are_ignored() -> None:
    text = "## A\n- a\n```md\n## not a heading\n- not a bullet\n```\n- b\n~~~~\n## still code\n~~~\n## still code too\n~~~~\n## B\n"
    doc = MemoryDocument.parse(text)
    assert [s.title for s in doc.sections] == ["A", "B"]
    assert doc.sections[0].bullets == ["a", "b"]


def test_unclosed_fence_hides_the_rest() -> None:
    doc = MemoryDocument.parse("## A\n```\n## B\n")
    assert [s.title for s in doc.sections] == ["A"]


def test_merge_marker_is_not_a_bullet_and_only_counts_when_last() -> None:
    doc = MemoryDocument.parse("## A\n- a\n- (merged 14:05)\n## B\n- (merged 09:00)\n- b\n")
    first, second = doc.sections
    assert first.bullets == ["a"] and first.marker_line == 2 and first.last_bullet_line == 2
    assert second.bullets == ["b"] and second.marker_line is None


def test_crlf_bom_and_round_trip() -> None:
    text = "\ufeff## 09:30 - Title\r\n- one\r\n\r\ntrailing"
    doc = MemoryDocument.parse(text)
    assert doc.has_bom and doc.newline == "\r\n"
    assert doc.sections[0].title == "Title" and doc.sections[0].bullets == ["one"]
    assert "".join(doc.lines) == text


def test_split_lines_keeps_endings_and_lone_cr() -> None:
    assert split_lines("a\r\nb\rc\nd") == ["a\r\n", "b\rc\n", "d"]
    assert split_lines("") == []
    assert detect_newline(["a\r\n", "b\n", "c\r\n"]) == "\r\n"
    assert detect_newline(["a\n"]) == "\n"


def test_blank_and_heading_only_sections() -> None:
    assert MemoryDocument.parse(None).is_blank
    assert MemoryDocument.parse("\ufeff \n").is_blank
    doc = MemoryDocument.parse("## Empty\n\nsome paragraph\n")
    assert doc.sections[0].bullets == [] and doc.sections[0].last_bullet_line == 0
    assert not doc.is_blank


def test_indented_dash_is_not_a_bullet_and_h3_does_not_split() -> None:
    doc = MemoryDocument.parse("## A\n  - nested\n### sub\n- real\n")
    assert len(doc.sections) == 1 and doc.sections[0].bullets == ["real"]
