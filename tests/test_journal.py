"""Writes are journaled; undo removes exactly what the last write inserted, or refuses."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import pytest

from savenow.errors import ForbiddenTargetError, UndoRefusedError
from savenow.memory.writer import write_entries
from savenow.models import Entry
from savenow.storage.journal import journal_path, last_write, undo_last

NOW = datetime(2026, 5, 15, 16, 48)
DAY = date(2026, 5, 15)
ORIGINAL = "\ufeff# 2026-05-15\r\n\r\n## 10:00 - Target\r\n- a\r\n- (merged 11:00)\r\ntail without newline"


def write(workspace: Path, entries: list[Entry], name: str = "2026-05-15.md"):
    return write_entries(workspace / "memory" / name, entries, workspace=workspace, now=NOW, day=DAY)


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2026-05-15.md").write_bytes(ORIGINAL.encode())
    return tmp_path


def memory_bytes(workspace: Path) -> bytes:
    return (workspace / "memory" / "2026-05-15.md").read_bytes()


def test_write_is_journaled_and_undo_restores_bytes(workspace: Path) -> None:
    outcome = write(workspace, [Entry("x", ["b"], "merge", "Target"), Entry("New", ["n"])])
    assert outcome.written and outcome.journal_id
    record, undone = last_write(workspace)
    assert record is not None and not undone and record.id == outcome.journal_id
    assert record.titles == ["x", "New"]
    path, removed = undo_last(workspace)
    assert path == workspace / "memory" / "2026-05-15.md"
    assert removed == outcome.inserted_lines == 4
    assert memory_bytes(workspace) == ORIGINAL.encode()
    assert not (workspace / "memory" / ".savenow").exists()
    assert journal_path(workspace).is_file()


def test_undo_twice_is_refused(workspace: Path) -> None:
    write(workspace, [Entry("New", ["n"])])
    undo_last(workspace)
    with pytest.raises(UndoRefusedError, match="already undone"):
        undo_last(workspace)
    assert memory_bytes(workspace) == ORIGINAL.encode()


def test_undo_with_nothing_journaled(tmp_path: Path) -> None:
    with pytest.raises(UndoRefusedError, match="Nothing to undo"):
        undo_last(tmp_path)


def test_undo_after_unrelated_edit_removes_only_inserted_lines(workspace: Path) -> None:
    write(workspace, [Entry("x", ["b"], "merge", "Target"), Entry("New", ["n"])])
    path = workspace / "memory" / "2026-05-15.md"
    path.write_bytes(path.read_bytes().replace(b"# 2026-05-15", b"# 2026-05-15 (edited)"))
    undo_last(workspace)
    assert memory_bytes(workspace) == ORIGINAL.replace("# 2026-05-15", "# 2026-05-15 (edited)").encode()


def test_undo_refuses_when_inserted_lines_changed(workspace: Path) -> None:
    write(workspace, [Entry("New", ["n"])])
    path = workspace / "memory" / "2026-05-15.md"
    changed = path.read_bytes().replace(b"- n\r\n", b"- n (edited by hand)\r\n")
    path.write_bytes(changed)
    with pytest.raises(UndoRefusedError, match="edited or removed"):
        undo_last(workspace)
    assert path.read_bytes() == changed


def test_undo_of_created_file_deletes_it(tmp_path: Path) -> None:
    outcome = write(tmp_path, [Entry("New", ["n"])], name="2026-05-16.md")
    assert outcome.created_file
    undo_last(tmp_path)
    assert not (tmp_path / "memory" / "2026-05-16.md").exists()


def test_undo_refuses_when_file_is_gone(workspace: Path) -> None:
    write(workspace, [Entry("New", ["n"])])
    (workspace / "memory" / "2026-05-15.md").unlink()
    with pytest.raises(UndoRefusedError, match="no longer exists"):
        undo_last(workspace)


def test_nothing_to_write_is_not_journaled(workspace: Path) -> None:
    outcome = write(workspace, [Entry("x", ["a"], "merge", "Target")])
    assert not outcome.written and outcome.skipped_titles == ["x"]
    assert not journal_path(workspace).exists()


def test_second_write_of_same_entries_changes_nothing(workspace: Path) -> None:
    entries = [Entry("x", ["b"], "merge", "Target"), Entry("New", ["n"])]
    write(workspace, entries)
    after = memory_bytes(workspace)
    outcome = write(workspace, entries)
    assert not outcome.written and memory_bytes(workspace) == after
    assert outcome.fallback_skipped == ["New"] and outcome.skipped_titles == ["x"]


def test_torn_journal_lines_are_skipped(workspace: Path) -> None:
    write(workspace, [Entry("New", ["n"])])
    with journal_path(workspace).open("a", encoding="utf-8") as handle:
        handle.write('{"type": "write", "id": "broken"\n')  # a torn line: ignored
    undo_last(workspace)
    assert memory_bytes(workspace) == ORIGINAL.encode()
    records = [json.loads(x) for x in journal_path(workspace).read_text().splitlines() if x.endswith("}")]
    assert records[-1]["type"] == "undo"


def test_memory_md_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ForbiddenTargetError):
        write_entries(tmp_path / "MeMoRy.md", [Entry("a", ["b"])], workspace=tmp_path, now=NOW, day=DAY)
    assert not (tmp_path / "MeMoRy.md").exists()
