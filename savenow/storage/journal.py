"""The change log: what each write of a file inserted and removed, before/after hashes, and undo (DESIGN §8).

One JSON line per event in ``<workspace>/.savenow/journal.jsonl``. A write is
journaled in two steps around its rename, so a kill at any point leaves the
log telling the truth:

1. ``{"type": "intent", "of": "write", …}`` — the whole record, appended and fsynced BEFORE the rename;
2. ``{"type": "write", …}`` — the same record again, appended after the rename and the folder fsync
   (the commit; a reader of the one-step format sees exactly the records it always saw).

A write with an intent but no commit (the process died in between) is
settled the next time its file is written or undone, under that file's lock,
by looking at the file: it hashes to the intent's after-state, or the lines it
inserted are there → committed; otherwise → aborted (``{"type": "abort"}``).
So undo only ever removes a write that is really in the file.

Any kind of file can be logged (``kind``: ``memory`` today; objects and
compaction next). ``undo`` walks the committed, not-yet-undone writes of an
undoable kind from the newest: each call takes one out, so repeated calls go
back write by write. An undo is itself a journaled change (intent + commit).

A ``write``/``undo`` line with no intent before it (the one-step format) is committed.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import StorageError, UndoRefusedError
from ..messages import Text
from ..text.lines import split_lines
from . import faults
from .files import atomic_write, delete_file, read_exact, sha256_text, storage_error
from .locks import file_lock, state_dir

JOURNAL_NAME = "journal.jsonl"
UNDOABLE_KINDS = frozenset({"memory", "objects"})
SETTLE_TAIL_BYTES = 512 * 1024  # a write settles intents found in the journal's last 512 KiB


def journal_path(workspace: Path) -> Path:
    return state_dir(workspace) / JOURNAL_NAME


@dataclass
class Hunk:
    """``old`` raw lines of the file before became ``new`` raw lines, starting at line ``at`` of the file after."""

    at: int
    old: list[str]
    new: list[str]

    @property
    def inserted(self) -> int:
        return len(self.new) - len(self.old)

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "old": list(self.old), "new": list(self.new)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hunk:
        return cls(at=int(data["at"]), old=[str(x) for x in data["old"]], new=[str(x) for x in data["new"]])


@dataclass
class WriteRecord:
    memory_path: str  # the file written (any kind; the JSON key stays "memoryPath")
    before_sha256: str | None  # None: the write created the file
    after_sha256: str
    hunks: list[Hunk]
    time: str
    titles: list[str] = field(default_factory=list)
    id: str = field(default_factory=lambda: secrets.token_hex(6))
    kind: str = "memory"
    undoes: str | None = None  # set on an undo: the id of the write it took out
    state: str = "committed"  # committed | intent | aborted (folded in from commit/abort lines)

    @property
    def created_file(self) -> bool:
        return self.before_sha256 is None

    @property
    def inserted_lines(self) -> int:
        return sum(hunk.inserted for hunk in self.hunks)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": "undo" if self.undoes else "write",
            "id": self.id,
            "time": self.time,
            "kind": self.kind,
            "memoryPath": self.memory_path,
            "beforeSha256": self.before_sha256,
            "afterSha256": self.after_sha256,
            "titles": self.titles,
            "hunks": [hunk.to_json() for hunk in self.hunks],
        }
        if self.undoes:
            data["undoes"] = self.undoes
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WriteRecord:
        return cls(
            id=str(data["id"]),
            time=str(data.get("time", "")),
            kind=str(data.get("kind") or "memory"),
            memory_path=str(data["memoryPath"]),
            before_sha256=data.get("beforeSha256"),
            after_sha256=str(data["afterSha256"]),
            titles=[str(title) for title in data.get("titles", [])],
            hunks=[Hunk.from_json(hunk) for hunk in data["hunks"]],
            undoes=str(data["undoes"]) if data.get("undoes") else None,
            state=str(data.get("state") or "committed"),
        )


# -- appending ----------------------------------------------------------------------------------------


def _append(workspace: Path, data: dict[str, Any]) -> None:
    """One line, fsynced. A torn line a crash or a full disk left is ended first, so it never swallows
    this record; a short write is cut back off, so this one never becomes the torn line either."""
    path = journal_path(workspace)
    line = (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8", "replace")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with file_lock(path, workspace):
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    line = b"\n" + line
                written = os.write(fd, line)  # one write on O_APPEND: lines never interleave
                if written != len(line):
                    os.ftruncate(fd, size)
                    raise OSError(errno.ENOSPC, "No space left on device")
                faults.point("fsync:journal")
                os.fsync(fd)
            finally:
                os.close(fd)
    except OSError as exc:
        raise storage_error("write", path, exc) from None


def begin_write(workspace: Path, record: WriteRecord) -> None:
    """Journal the intent of ``record`` (call holding the file's lock, before the rename)."""
    data = record.to_json()
    _append(workspace, {**data, "type": "intent", "of": data["type"]})


def commit_write(workspace: Path, record: WriteRecord) -> None:
    _append(workspace, record.to_json())
    for listener in _change_listeners:
        listener(workspace, Path(record.memory_path))


ChangeListener = Callable[[Path, Path], None]
_change_listeners: list[ChangeListener] = []


def on_committed_change(listener: ChangeListener) -> None:
    """Call ``listener(workspace, path)`` after every committed change (the search index uses it).

    Storage is the bottom layer, so it cannot know who cares about a change; a layer above
    registers here instead (the service registers the search index). A listener must not raise.
    """
    if listener not in _change_listeners:
        _change_listeners.append(listener)


def _abort(workspace: Path, record_id: str) -> None:
    _append(workspace, {"type": "abort", "id": record_id})


def journaled_write(workspace: Path, path: Path, text: str, record: WriteRecord) -> None:
    """Intent, atomic write, commit: the one way a logged file is changed (hold ``path``'s lock)."""
    begin_write(workspace, record)
    try:
        atomic_write(path, text, workspace=workspace)
    except BaseException:
        try:
            _abort(workspace, record.id)
        except StorageError:  # the disk is gone too: the next write settles the intent by the file
            pass
        raise
    commit_write(workspace, record)


def diff_hunks(before: str | None, after: str) -> list[Hunk]:
    """The hunks turning ``before`` into ``after`` (raw lines), positions in ``after``."""
    import difflib

    old, new = split_lines(before or ""), split_lines(after)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    return [
        Hunk(at=j1, old=old[i1:i2], new=new[j1:j2])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def write_logged(
    workspace: Path,
    path: Path,
    render: Callable[[str | None], str],
    *,
    kind: str,
    time: str,
    titles: Sequence[str] = (),
) -> WriteRecord | None:
    """Lock ``path``, re-read it, let ``render`` make the new text from the current one, and write it
    journaled (intent + commit) with the hunks of what changed; None when nothing changed.

    The one call a feature needs (objects, compaction) to get atomic, locked, undoable writes.
    """
    with file_lock(path, workspace):
        before = read_exact(path)
        settle(workspace, path, before, tail_bytes=SETTLE_TAIL_BYTES)
        after = render(before)
        if after == before:
            return None
        record = WriteRecord(
            memory_path=str(path.absolute()),
            before_sha256=sha256_text(before),
            after_sha256=sha256_text(after) or "",
            hunks=diff_hunks(before, after),
            time=time,
            titles=list(titles),
            kind=kind,
        )
        journaled_write(workspace, path, after, record)
    return record


# -- reading --------------------------------------------------------------------------------------------


def _read_lines(workspace: Path, tail_bytes: int | None = None) -> list[str]:
    path = journal_path(workspace)
    try:
        with open(path, "rb") as handle:
            if tail_bytes is not None:
                size = handle.seek(0, os.SEEK_END)
                handle.seek(max(0, size - tail_bytes))
            data = handle.read()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise storage_error("read", path, exc) from None
    return data.decode("utf-8", "replace").splitlines()


def read_records(workspace: Path, *, tail_bytes: int | None = None) -> list[dict[str, Any]]:
    """Write and undo records, in order, each with its ``state`` (committed / intent / aborted).

    A torn or foreign line is skipped, never fatal.
    """
    records: list[dict[str, Any]] = []
    intents: dict[str, dict[str, Any]] = {}
    for line in _read_lines(workspace, tail_bytes):
        try:
            data = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(data, dict):
            continue
        kind = data.get("type")
        record_id = str(data.get("id"))
        if kind == "intent" and data.get("of") in ("write", "undo"):
            data["type"], data["state"] = data.pop("of"), "intent"
            records.append(data)
            intents[record_id] = data
        elif kind in ("write", "undo"):
            intent = intents.pop(record_id, None)
            if intent is not None:
                intent.clear()
                intent.update(data)  # the commit takes the intent's place in the order
                intent["state"] = "committed"
            else:
                data["state"] = "committed"
                records.append(data)
        elif kind == "abort" and record_id in intents:
            intents.pop(record_id)["state"] = "aborted"
    return records


def _parsed(records: list[dict[str, Any]]) -> list[WriteRecord]:
    parsed = []
    for data in records:
        try:
            parsed.append(WriteRecord.from_json(data))
        except (KeyError, TypeError, ValueError):
            continue
    return parsed


# -- settling writes a kill interrupted -------------------------------------------------------------------


def _landed(record: WriteRecord, by_id: dict[str, WriteRecord], current: str | None) -> bool:
    """Whether an interrupted change is in the file now."""
    digest = sha256_text(current)
    if digest == record.after_sha256:
        return True
    if digest == record.before_sha256 or current is None:
        return False
    lines = split_lines(current)
    target = by_id.get(record.undoes) if record.undoes else record
    if target is None:
        return False
    present = all(_count_block(lines, hunk.new) == 1 for hunk in target.hunks if hunk.new)
    return not present if record.undoes else present


def settle(workspace: Path, path: Path, current: str | None, *, tail_bytes: int | None = None) -> None:
    """Commit or abort ``path``'s interrupted changes by what the file holds (hold ``path``'s lock)."""
    if not _has_unsettled(workspace, tail_bytes):
        return  # the common case, found without parsing a line
    records = _parsed(read_records(workspace, tail_bytes=tail_bytes))
    by_id = {record.id: record for record in records}
    absolute = str(path.absolute())
    for record in records:
        if record.state == "intent" and record.memory_path == absolute:
            if _landed(record, by_id, current):
                commit_write(workspace, record)
            else:
                _abort(workspace, record.id)


_HEAD = re.compile(r'^\{"type": "(intent|write|undo|abort)", "id": "([^"]+)"', re.MULTILINE)


def _has_unsettled(workspace: Path, tail_bytes: int | None) -> bool:
    """Whether some intent has no commit or abort after it (by each line's head, as _append writes it)."""
    open_ids: set[str] = set()
    for match in _HEAD.finditer("\n".join(_read_lines(workspace, tail_bytes))):
        kind, record_id = match.groups()
        if kind == "intent":
            open_ids.add(record_id)
        else:
            open_ids.discard(record_id)
    return bool(open_ids)


def settled_view(workspace: Path) -> list[WriteRecord]:
    """Every record with interrupted changes settled in memory (nothing appended): for listing."""
    records = _parsed(read_records(workspace))
    by_id = {record.id: record for record in records}
    texts: dict[str, str | None] = {}
    for record in records:
        if record.state == "intent":
            if record.memory_path not in texts:
                try:
                    texts[record.memory_path] = read_exact(Path(record.memory_path))
                except Exception:  # noqa: BLE001 - an unreadable file only means "not landed" here
                    texts[record.memory_path] = None
            record.state = "committed" if _landed(record, by_id, texts[record.memory_path]) else "aborted"
    return records


def undo_stack(records: list[WriteRecord]) -> list[WriteRecord]:
    """Committed writes of an undoable kind not undone yet, oldest first (the last one is undone next)."""
    undone = {r.undoes for r in records if r.undoes and r.state == "committed"}
    return [
        r
        for r in records
        if not r.undoes and r.state == "committed" and r.kind in UNDOABLE_KINDS and r.id not in undone
    ]


def last_write(workspace: Path) -> tuple[WriteRecord | None, bool]:
    """The newest write not undone yet; else the newest write and True (it was undone)."""
    records = settled_view(workspace)
    stack = undo_stack(records)
    if stack:
        return stack[-1], False
    writes = [r for r in records if not r.undoes and r.state == "committed" and r.kind in UNDOABLE_KINDS]
    return (writes[-1], True) if writes else (None, False)


# -- undo -------------------------------------------------------------------------------------------------


def undo_last(
    workspace: Path, *, now: datetime | None = None, expected_id: str | None = None
) -> tuple[Path, int]:
    """Remove exactly the lines the newest write still in effect inserted; returns (file, lines removed).

    Each call goes back one more write. ``expected_id``: the write the caller checked (e.g. that it is
    the requester's); if another write became the newest meanwhile, nothing is undone.
    """
    for path in {Path(r.memory_path) for r in _parsed(read_records(workspace)) if r.state == "intent"}:
        with file_lock(path, workspace):
            settle(workspace, path, _read_for_undo(path))
    record, undone = last_write(workspace)
    if record is None:
        raise UndoRefusedError(Text("journal.nothing_recorded", journal=journal_path(workspace)))
    if undone:
        raise UndoRefusedError(Text("journal.already_undone", path=record.memory_path))
    memory_path = Path(record.memory_path)
    with file_lock(memory_path, workspace):
        newest, _ = last_write(workspace)  # under the lock: another write or undo may have come in between
        if newest is None or newest.id != record.id or (expected_id is not None and record.id != expected_id):
            raise UndoRefusedError(Text("journal.changed_meanwhile"))
        current = _read_for_undo(memory_path)
        if current is None:
            raise UndoRefusedError(Text("journal.file_gone", path=memory_path))
        restored = _restore(record, current)
        undo = WriteRecord(
            memory_path=record.memory_path,
            before_sha256=sha256_text(current),
            after_sha256=sha256_text(restored) or "",
            hunks=[Hunk(at=h.at, old=list(h.new), new=list(h.old)) for h in record.hunks],
            time=(now or datetime.now().astimezone()).isoformat(),
            titles=list(record.titles),
            kind=record.kind,
            undoes=record.id,
        )
        if record.created_file and not restored:
            begin_write(workspace, undo)
            delete_file(memory_path)
            commit_write(workspace, undo)
        else:
            journaled_write(workspace, memory_path, restored, undo)
    return memory_path, record.inserted_lines


def _read_for_undo(path: Path) -> str | None:
    return read_exact(path)


def _restore(record: WriteRecord, current: str) -> str:
    lines = split_lines(current)
    hunks = sorted(record.hunks, key=lambda hunk: hunk.at, reverse=True)
    if sha256_text(current) == record.after_sha256:
        for hunk in hunks:
            lines[hunk.at : hunk.at + len(hunk.new)] = hunk.old
        restored = "".join(lines)
        if sha256_text(restored) == record.before_sha256 or (record.created_file and not restored):
            return restored
        raise _refuse(record)  # pragma: no cover - corrupt journal
    for hunk in hunks:
        start = _find_block(lines, hunk)
        lines[start : start + len(hunk.new)] = hunk.old
    return "".join(lines)


def _count_block(lines: list[str], block: list[str]) -> int:
    size = len(block)
    return sum(
        1
        for start in range(len(lines) - size + 1)
        if lines[start] == block[0] and lines[start : start + size] == block
    )


def _find_block(lines: list[str], hunk: Hunk) -> int:
    if not hunk.new:  # a pure removal cannot be found again in a file changed since
        raise UndoRefusedError(Text("journal.cannot_place_removed"))
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
    return UndoRefusedError(
        Text("journal.lines_edited" if missing else "journal.lines_repeated", sample=sample)
    )


def _refuse(record: WriteRecord) -> UndoRefusedError:  # pragma: no cover - corrupt journal
    return UndoRefusedError(Text("journal.mismatch", path=record.memory_path))
