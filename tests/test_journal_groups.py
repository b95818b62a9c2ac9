"""Changes of several files as one journaled group (DESIGN §8): written intent-first, undone whole,
byte for byte, and only while every file is as the group left it."""

from __future__ import annotations

from pathlib import Path

import pytest

from savenow.errors import StorageError, UndoRefusedError
from savenow.storage import journal
from savenow.storage.journal import FileChange, read_records, undo_group, undo_last, write_group

BEFORE = "\ufeffkept\r\nbytes\r\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path, Path]:
    edited, deleted, created = tmp_path / "state" / "a.json", tmp_path / "state" / "b.md", tmp_path / "c.md"
    edited.parent.mkdir()
    edited.write_bytes(BEFORE.encode())
    deleted.write_bytes(b"old\n")
    return edited, deleted, created


def group(workspace: Path, edited: Path, deleted: Path, created: Path) -> str | None:
    changes = [FileChange(edited, "new\n"), FileChange(deleted, None), FileChange(created, "made\n")]
    return write_group(
        workspace, changes, kind="objects", time="t", action="test", copies=workspace / "copies"
    )


def test_a_group_is_intents_then_files_then_commits_and_undo_takes_all_back(
    tmp_path: Path, files: tuple[Path, Path, Path]
) -> None:
    edited, deleted, created = files
    group_id = group(tmp_path, *files)
    assert group_id is not None
    assert (edited.read_text(), deleted.exists(), created.read_text()) == ("new\n", False, "made\n")
    lines = journal.journal_path(tmp_path).read_text().splitlines()
    assert [line.split('"')[3] for line in lines] == ["intent"] * 3 + ["write"] * 3
    records = read_records(tmp_path)
    assert {r["group"] for r in records} == {group_id} and all(r["hunks"] == [] for r in records)
    undone = undo_group(tmp_path, group_id, time="t2")
    assert len(undone) == 3
    assert (
        edited.read_bytes() == BEFORE.encode() and deleted.read_bytes() == b"old\n" and not created.exists()
    )
    with pytest.raises(UndoRefusedError):
        undo_group(tmp_path, group_id, time="t3")  # once


def test_nothing_changed_is_no_group(tmp_path: Path, files: tuple[Path, Path, Path]) -> None:
    edited, _deleted, created = files
    changes = [FileChange(edited, BEFORE), FileChange(created, None)]
    assert write_group(tmp_path, changes, kind="objects", time="t", action="x", copies=tmp_path / "c") is None
    assert not journal.journal_path(tmp_path).exists()


def test_undo_is_refused_whole_when_one_file_changed_since(
    tmp_path: Path, files: tuple[Path, Path, Path]
) -> None:
    edited, deleted, created = files
    group_id = group(tmp_path, *files)
    assert group_id is not None
    created.write_text("made, then edited by hand\n")
    with pytest.raises(UndoRefusedError, match="changed since"):
        undo_group(tmp_path, group_id, time="t2")
    assert edited.read_text() == "new\n" and not deleted.exists()  # nothing of the group was undone


def test_undo_is_refused_when_the_copy_before_is_gone(tmp_path: Path, files: tuple[Path, Path, Path]) -> None:
    group_id = group(tmp_path, *files)
    assert group_id is not None
    for copy in (tmp_path / "copies").iterdir():
        copy.unlink()
    with pytest.raises(UndoRefusedError, match="copy"):
        undo_group(tmp_path, group_id, time="t2")
    assert files[0].read_text() == "new\n"


def test_undo_last_takes_back_a_whole_group(tmp_path: Path, files: tuple[Path, Path, Path]) -> None:
    group(tmp_path, *files)
    undo_last(tmp_path)
    assert files[0].read_bytes() == BEFORE.encode() and files[1].exists() and not files[2].exists()
    with pytest.raises(UndoRefusedError, match="Nothing to undo"):
        undo_last(tmp_path, kinds=frozenset({journal.MEMORY_KIND}))  # a memory-only undo never sees it


def test_a_failure_part_way_commits_what_landed_and_aborts_the_rest(
    tmp_path: Path, files: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    edited, deleted, created = files
    real = journal.atomic_write

    def full_disk_for_created(path: Path, text: str, *, workspace: Path | None = None) -> None:
        if path == created.absolute():
            raise StorageError("the disk is full")
        real(path, text, workspace=workspace)

    monkeypatch.setattr(journal, "atomic_write", full_disk_for_created)
    with pytest.raises(StorageError):
        group(tmp_path, *files)
    monkeypatch.undo()
    states = {Path(r["memoryPath"]).name: r["state"] for r in read_records(tmp_path)}
    assert states == {"a.json": "committed", "b.md": "committed", "c.md": "aborted"}
    undo_last(tmp_path)  # takes back exactly what landed
    assert (
        edited.read_bytes() == BEFORE.encode() and deleted.read_bytes() == b"old\n" and not created.exists()
    )
