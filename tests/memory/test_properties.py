"""Property tests: generated memory files (CRLF, BOM, fences, CJK) and generated entries.

* every original line survives, in order and unchanged (a merge marker that a
  new merge replaces is the one line allowed to go; an unterminated last line
  may only gain its line ending);
* writing the same entries twice changes nothing the second time;
* the hunks the journal keeps turn the new file back into the old one.
"""

from __future__ import annotations

import tempfile
from datetime import date, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from savenow.memory.compare import plan
from savenow.memory.document import MERGE_MARKER, MemoryDocument, line_content, split_lines
from savenow.memory.merge import apply_decisions
from savenow.memory.writer import write_entries
from savenow.models import Entry

NOW = datetime(2026, 5, 15, 16, 48)
DAY = date(2026, 5, 15)
ALPHABET = "abcxyzABC 网关令牌修复上传大小限制部署 ,.`*_-#!。，（）0129"

words = st.text(alphabet=ALPHABET, min_size=1, max_size=24).filter(lambda t: t.strip() != "")
times = st.sampled_from(["09:00", "10:30", "14:02", "23:59"])


@st.composite
def memory_lines(draw: st.DrawFn) -> list[str]:
    kind = draw(
        st.sampled_from(["h1", "heading", "timed", "bullet", "marker", "blank", "text", "fence", "indented"])
    )
    if kind == "h1":
        return ["# 2026-05-15"]
    if kind == "heading":
        return [f"## {draw(words)}"]
    if kind == "timed":
        return [f"## {draw(times)} - {draw(words)}"]
    if kind == "bullet":
        return [f"- {draw(words)}"]
    if kind == "marker":
        return [f"- (merged {draw(times)})"]
    if kind == "blank":
        return [draw(st.sampled_from(["", "   "]))]
    if kind == "fence":
        inner = draw(
            st.lists(st.one_of(words.map(lambda w: f"## {w}"), words.map(lambda w: f"- {w}")), max_size=3)
        )
        return ["```", *inner, "```"]
    if kind == "indented":
        return [f"  - {draw(words)}"]
    return [draw(words)]


@st.composite
def memory_texts(draw: st.DrawFn) -> str:
    lines = [line for group in draw(st.lists(memory_lines(), max_size=25)) for line in group]
    if draw(st.integers(0, 9)) == 0:
        lines += [draw(st.sampled_from(["```", "~~~~"])), f"## {draw(words)}"]  # an unclosed fence at the end
    endings = draw(st.lists(st.sampled_from(["\n", "\r\n"]), min_size=len(lines), max_size=len(lines)))
    raw = [line + ending for line, ending in zip(lines, endings, strict=True)]
    if raw and draw(st.booleans()):
        raw[-1] = lines[-1]  # no final newline
    bom = "\ufeff" if draw(st.booleans()) else ""
    return bom + "".join(raw)


@st.composite
def entry_lists(draw: st.DrawFn, text: str) -> list[Entry]:
    titles = [s.title for s in MemoryDocument.parse(text).sections] or ["nothing"]
    entries = []
    for index in range(draw(st.integers(0, 5))):
        action = draw(st.sampled_from(["add", "merge", "skip"]))
        target = draw(st.one_of(st.sampled_from(titles), words)) if action == "merge" else None
        bullets = draw(st.lists(words, min_size=1, max_size=3))
        entries.append(Entry(draw(words).strip(), [b.strip() for b in bullets], action, target, None, index))
    return entries


def is_subsequence(needles: list[str], haystack: list[str]) -> bool:
    position = iter(haystack)
    return all(any(candidate == needle for candidate in position) for needle in needles)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_original_lines_survive_in_order(data: st.DataObject) -> None:
    text = data.draw(memory_texts())
    entries = data.draw(entry_lists(text))
    document = MemoryDocument.parse(text)
    assert "".join(document.lines) == text
    decisions = plan(entries, document)
    result = apply_decisions(document, decisions, now=NOW, day=DAY)
    merged_sections = {d.target_section for d in decisions if d.action == "merge"}
    replaced = {
        document.sections[n].marker_line
        for n in merged_sections
        if document.sections[n].marker_line is not None
    }
    kept = [raw for number, raw in enumerate(document.lines) if number not in replaced]
    new_lines = split_lines(result.text)
    if kept and not kept[-1].endswith("\n"):
        # the unterminated last line may only gain an ending: compare it by content
        assert is_subsequence(kept[:-1], new_lines)
        assert kept[-1] in new_lines or any(line_content(line) == kept[-1] for line in new_lines)
    else:
        assert is_subsequence(kept, new_lines)
    for number in replaced:
        assert MERGE_MARKER.match(line_content(document.lines[number]).strip()[2:])
    if not any(d.action in ("add", "merge") for d in decisions):
        assert result.text == text
    # the hunks undo the change exactly
    rebuilt = split_lines(result.text)
    for hunk in sorted(result.hunks, key=lambda h: h.at, reverse=True):
        assert rebuilt[hunk.at : hunk.at + len(hunk.new)] == hunk.new
        rebuilt[hunk.at : hunk.at + len(hunk.new)] = hunk.old
    assert "".join(rebuilt) == text
    # the new file parses to the old sections plus the added ones, and no marker is stacked
    again = MemoryDocument.parse(result.text)
    assert len(again.sections) == len(document.sections) + sum(d.action == "add" for d in decisions)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_writing_the_same_entries_twice_changes_nothing_the_second_time(data: st.DataObject) -> None:
    text = data.draw(memory_texts())
    entries = data.draw(entry_lists(text))
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        path = workspace / "memory" / "2026-05-15.md"
        path.parent.mkdir()
        path.write_bytes(text.encode("utf-8"))
        write_entries(path, entries, workspace=workspace, now=NOW, day=DAY)
        after_first = path.read_bytes()
        second = write_entries(path, entries, workspace=workspace, now=NOW, day=DAY)
        assert not second.written
        assert path.read_bytes() == after_first
        assert not [p for p in path.parent.iterdir() if p.name != "2026-05-15.md"]
