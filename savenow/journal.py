"""What each memory write inserted, and ``undo`` (DESIGN §8).

Every write appends one JSON line to ``<workspace>/.savenow/journal.jsonl``:
the memory file, the before/after sha256, and the hunks (raw old lines → raw
new lines at a position of the new file). ``undo_last`` takes the last write
out again:

* if the file is byte-identical to what that write left, the hunks are
  reversed in place and the result must hash to the before-state;
* otherwise each hunk's inserted block must still be in the file, unchanged
  and found exactly once; it is put back to its old lines. If any block was
  edited, moved ambiguously or removed, undo refuses and changes nothing.

An undone write is marked by an ``undo`` record and is never undone twice.
Undo goes back one write only: the write before it stays.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .errors import UndoRefusedError
from .fileio import atomic_write, delete_file, file_lock, read_exact, sha256_text, state_dir
from .memory.document import split_lines
from .memory.merge import Hunk
from .search.hooks import note_memory_write

JOURNAL_NAME = "journal.jsonl"


def journal_path(workspace: Path) -> Path:
    return state_dir(workspace) / JOURNAL_NAME


@dataclass
class WriteRecord:
    memory_path: str
    before_sha256: str | None  # None: the write created the file
    after_sha256: str
    hunks: list[Hunk]
    time: str
    titles: list[str] = field(default_factory=list)
    id: str = field(default_factory=lambda: secrets.token_hex(6))

    @property
    def created_file(self) -> bool:
        return self.before_sha256 is None

    @property
    def inserted_lines(self) -> int:
        return sum(hunk.inserted for hunk in self.hunks)

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "write",
            "id": self.id,
            "time": self.time,
            "memoryPath": self.memory_path,
            "beforeSha256": self.before_sha256,
            "afterSha256": self.after_sha256,
            "titles": self.titles,
            "hunks": [hunk.to_json() for hunk in self.hunks],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WriteRecord:
        return cls(
            id=str(data["id"]),
            time=str(data.get("time", "")),
            memory_path=str(data["memoryPath"]),
            before_sha256=data.get("beforeSha256"),
            after_sha256=str(data["afterSha256"]),
            titles=[str(title) for title in data.get("titles", [])],
            hunks=[Hunk.from_json(hunk) for hunk in data["hunks"]],
        )


def record_write(workspace: Path, record: WriteRecord) -> None:
    """Append a write record (call while still holding the memory file's lock)."""
    _append(workspace, record.to_json())


def _append(workspace: Path, data: dict[str, Any]) -> None:
    path = journal_path(workspace)
    line = json.dumps(data, ensure_ascii=False) + "\n"
    with file_lock(path, workspace), open(path, "a", encoding="utf-8") as handle:
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


def read_records(workspace: Path) -> list[dict[str, Any]]:
    """All journal records; a torn or foreign line is skipped, never fatal."""
    text = read_exact(journal_path(workspace))
    records = []
    for line in (text or "").splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and data.get("type") in ("write", "undo"):
            records.append(data)
    return records


def last_write(workspace: Path) -> tuple[WriteRecord | None, bool]:
    """The last write record and whether it was already undone."""
    records = read_records(workspace)
    undone = {str(r.get("undoes")) for r in records if r["type"] == "undo"}
    for data in reversed(records):
        if data["type"] == "write":
            try:
                record = WriteRecord.from_json(data)
            except (KeyError, TypeError, ValueError):
                continue
            return record, record.id in undone
    return None, False


def undo_last(workspace: Path, *, now: datetime | None = None) -> tuple[Path, int]:
    """Remove exactly the lines the last write inserted; returns (memory file, lines removed)."""
    record, undone = last_write(workspace)
    if record is None:
        raise UndoRefusedError(
            f"Nothing to undo: no savenow write is recorded in {journal_path(workspace)}.",
            f"没有可撤销的内容：{journal_path(workspace)} 中没有 savenow 的写入记录。",
        )
    if undone:
        raise UndoRefusedError(
            f"The last write to {record.memory_path} was already undone; nothing changed.",
            f"对 {record.memory_path} 的最后一次写入已经撤销过了；未做任何修改。",
        )
    memory_path = Path(record.memory_path)
    with file_lock(memory_path, workspace):
        current = read_exact(memory_path)
        if current is None:
            raise UndoRefusedError(
                f"Cannot undo: {memory_path} no longer exists; nothing changed.",
                f"无法撤销：{memory_path} 已不存在；未做任何修改。",
            )
        restored = _restore(record, current)
        if record.created_file and not restored:
            delete_file(memory_path)
        else:
            atomic_write(memory_path, restored)
        _append(
            workspace,
            {"type": "undo", "undoes": record.id, "time": (now or datetime.now().astimezone()).isoformat()},
        )
    note_memory_write(workspace, memory_path)
    return memory_path, record.inserted_lines


def _restore(record: WriteRecord, current: str) -> str:
    lines = split_lines(current)
    hunks = sorted(record.hunks, key=lambda hunk: hunk.at, reverse=True)
    if sha256_text(current) == record.after_sha256:
        for hunk in hunks:
            lines[hunk.at : hunk.at + len(hunk.new)] = hunk.old
        restored = "".join(lines)
        if sha256_text(restored) == record.before_sha256 or (record.created_file and not restored):
            return restored
        raise _refuse(record, "the journal does not match the file")  # pragma: no cover - corrupt journal
    for hunk in hunks:
        start = _find_block(lines, hunk)
        lines[start : start + len(hunk.new)] = hunk.old
    return "".join(lines)


def _find_block(lines: list[str], hunk: Hunk) -> int:
    size = len(hunk.new)
    first = hunk.new[0]
    found = [
        start
        for start in range(len(lines) - size + 1)
        if lines[start] == first and lines[start : start + size] == hunk.new
    ]
    if len(found) == 1:
        return found[0]
    if hunk.at in found:
        return hunk.at
    raise _refuse_block(hunk, missing=not found)


def _refuse_block(hunk: Hunk, *, missing: bool) -> UndoRefusedError:
    sample = next((line.strip() for line in hunk.new if line.strip()), "")[:60]
    if missing:
        return UndoRefusedError(
            f'Cannot undo: the inserted lines (from "{sample}") were edited or removed since; nothing changed.',
            f"无法撤销：插入的行（从“{sample}”开始）之后被修改或删除了；未做任何修改。",
        )
    return UndoRefusedError(
        f'Cannot undo: the inserted lines (from "{sample}") now appear more than once; nothing changed.',
        f"无法撤销：插入的行（从“{sample}”开始）现在出现了不止一次；未做任何修改。",
    )


def _refuse(record: WriteRecord, why: str) -> UndoRefusedError:  # pragma: no cover - corrupt journal
    return UndoRefusedError(
        f"Cannot undo the last write to {record.memory_path}: {why}; nothing changed.",
        f"无法撤销对 {record.memory_path} 的最后一次写入：日志与文件不一致；未做任何修改。",
    )
