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

Any kind of file can be logged (``kind``: ``memory``, ``objects``). ``undo``
walks the committed, not-yet-undone writes of the kinds it is given from the
newest: each call takes one out, so repeated calls go back write by write. An
undo is itself a journaled change (intent + commit).

A change that spans several files (an objects change: object file, trash copy,
tombstones) is a *group*: one record per file, all with the same ``group`` id,
written by :func:`write_group` — every intent first (one fsynced append), then
each file's atomic write or delete, then every commit. Such a member carries no
hunks but ``beforeCopy``, a byte-for-byte copy of the file before (kept beside
the feature's state, so the feature can delete it again: a purge leaves no
plaintext in this log). :func:`undo_group` takes back every member of a group
still in effect, byte for byte, and only while each file is exactly as the
group left it. A kill in between is settled member by member, by each file,
like any write; undo then takes back exactly the members that landed.

A ``write``/``undo`` line with no intent before it (the one-step format) is committed.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
from collections.abc import Callable, Sequence
from contextlib import ExitStack
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
MEMORY_KIND = "memory"
OBJECTS_KIND = "objects"
UNDOABLE_KINDS = frozenset({MEMORY_KIND, OBJECTS_KIND})
DELETED = ""  # after_sha256 of a change that deleted its file
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
    group: str | None = None  # the multi-file change this write is one file of (write_group)
    before_copy: str | None = None  # a group member: where the bytes before are kept
    action: str | None = None  # a group: what the feature did ("upsert", "forget", …)

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
        for key, value in (("group", self.group), ("beforeCopy", self.before_copy), ("action", self.action)):
            if value is not None:
                data[key] = value
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
            group=_optional(data.get("group")),
            before_copy=_optional(data.get("beforeCopy")),
            action=_optional(data.get("action")),
        )


def _optional(value: Any) -> str | None:
    return str(value) if value else None


# -- appending ----------------------------------------------------------------------------------------


def _append(workspace: Path, *records: dict[str, Any]) -> None:
    """Lines, fsynced once. A torn line a crash or a full disk left is ended first, so it never swallows
    these records; a short write is cut back off, so none of them becomes the torn line either."""
    path = journal_path(workspace)
    line = "".join(json.dumps(data, ensure_ascii=False) + "\n" for data in records).encode("utf-8", "replace")
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


def commit_write(workspace: Path, *records: WriteRecord) -> None:
    _append(workspace, *(record.to_json() for record in records))
    for record in records:
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


def _abort(workspace: Path, *record_ids: str) -> None:
    if record_ids:
        _append(workspace, *({"type": "abort", "id": record_id} for record_id in record_ids))


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
    if current is None:
        return record.after_sha256 == DELETED
    if digest == record.before_sha256:
        return False
    lines = split_lines(current)
    target = by_id.get(record.undoes) if record.undoes else record
    if target is None or not target.hunks:  # a group member is whole-file: its hash alone says
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


def settle_open(workspace: Path, kinds: frozenset[str] | None = None) -> None:
    """Settle every interrupted change (of ``kinds``) in the journal, each under its file's lock."""
    if not _has_unsettled(workspace, None):
        return
    records = _parsed(read_records(workspace))
    for path in sorted({r.memory_path for r in records if r.state == "intent" and _of(r, kinds)}):
        with file_lock(Path(path), workspace):
            settle(workspace, Path(path), read_exact(Path(path)))


def _of(record: WriteRecord, kinds: frozenset[str] | None) -> bool:
    return kinds is None or record.kind in kinds


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


def undo_stack(records: list[WriteRecord], kinds: frozenset[str] = UNDOABLE_KINDS) -> list[WriteRecord]:
    """Committed writes of ``kinds`` not undone yet, oldest first (the last one is undone next)."""
    undone = {r.undoes for r in records if r.undoes and r.state == "committed"}
    return [r for r in _writes(records, kinds) if r.id not in undone]


def _writes(records: list[WriteRecord], kinds: frozenset[str]) -> list[WriteRecord]:
    return [r for r in records if not r.undoes and r.state == "committed" and r.kind in kinds]


def last_write(workspace: Path, kinds: frozenset[str] = UNDOABLE_KINDS) -> tuple[WriteRecord | None, bool]:
    """The newest write of ``kinds`` not undone yet; else the newest write and True (it was undone)."""
    records = settled_view(workspace)
    stack = undo_stack(records, kinds)
    if stack:
        return stack[-1], False
    writes = _writes(records, kinds)
    return (writes[-1], True) if writes else (None, False)


# -- undo -------------------------------------------------------------------------------------------------


def undo_last(
    workspace: Path,
    *,
    now: datetime | None = None,
    expected_id: str | None = None,
    kinds: frozenset[str] = UNDOABLE_KINDS,
) -> tuple[Path, int]:
    """Remove exactly the lines the newest write (of ``kinds``) still in effect inserted; returns
    (file, lines removed). A write that is one file of a group takes its whole group back.

    Each call goes back one more write. ``expected_id``: the write the caller checked (e.g. that it is
    the requester's); if another write became the newest meanwhile, nothing is undone.
    """
    settle_open(workspace)
    record, undone = last_write(workspace, kinds)
    if record is None:
        raise UndoRefusedError(Text("journal.nothing_recorded", journal=journal_path(workspace)))
    if undone:
        raise UndoRefusedError(Text("journal.already_undone", path=record.memory_path))
    if record.group is not None:
        if expected_id is not None and record.id != expected_id:
            raise UndoRefusedError(Text("journal.changed_meanwhile"))
        members = undo_group(workspace, record.group, time=_now_text(now))
        return Path(record.memory_path), sum(member.inserted_lines for member in members)
    memory_path = Path(record.memory_path)
    with file_lock(memory_path, workspace):
        newest, _ = last_write(workspace, kinds)  # under the lock: another write or undo may have come in
        if newest is None or newest.id != record.id or (expected_id is not None and record.id != expected_id):
            raise UndoRefusedError(Text("journal.changed_meanwhile"))
        current = read_exact(memory_path)
        if current is None:
            raise UndoRefusedError(Text("journal.file_gone", path=memory_path))
        restored = _restore(record, current)
        undo = WriteRecord(
            memory_path=record.memory_path,
            before_sha256=sha256_text(current),
            after_sha256=sha256_text(restored) or "",
            hunks=[Hunk(at=h.at, old=list(h.new), new=list(h.old)) for h in record.hunks],
            time=_now_text(now),
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


def _now_text(now: datetime | None) -> str:
    return (now or datetime.now().astimezone()).isoformat()


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


# -- changes of several files (groups) --------------------------------------------------------------------


@dataclass
class FileChange:
    """One file of a grouped change: its new text, or None to delete it.

    ``keep_copy``: keep a byte-for-byte copy of the file before, so the group can be undone
    (False for a deletion meant to be final, e.g. a purge)."""

    path: Path
    after: str | None
    keep_copy: bool = True


def write_group(
    workspace: Path,
    changes: Sequence[FileChange],
    *,
    kind: str,
    time: str,
    action: str,
    copies: Path,
    undoes: str | None = None,
) -> str | None:
    """Change several files as one journaled change; returns its group id (None when nothing changed).

    Holding every file's lock: re-read each, settle its interrupted changes, keep a copy of each
    file's bytes before in ``copies`` (``<sha256>.before``, fsynced), then every intent, then each
    atomic write or delete, then every commit. ``undoes``: this group takes back a change recorded
    elsewhere (a legacy log): its records are undo records, so nothing undoes them in turn.
    """
    latest = {change.path.absolute(): change for change in changes}  # the last change of a file wins
    with ExitStack() as stack:
        for path in sorted(latest, key=str):
            stack.enter_context(file_lock(path, workspace))
        group = secrets.token_hex(6)
        planned: list[tuple[WriteRecord, str | None]] = []
        for path, change in latest.items():
            before = read_exact(path)
            settle(workspace, path, before, tail_bytes=SETTLE_TAIL_BYTES)
            if change.after == before:
                continue
            copy = None
            if before is not None and change.keep_copy and undoes is None:
                copy = str(keep_copy(workspace, copies, before))
            record = WriteRecord(
                memory_path=str(path),
                before_sha256=sha256_text(before),
                after_sha256=sha256_text(change.after) or DELETED,
                hunks=[],
                time=time,
                kind=kind,
                undoes=undoes,
                group=group,
                before_copy=copy,
                action=action,
            )
            planned.append((record, change.after))
        if not planned:
            return None
        _apply_group(workspace, planned)
    return group


def keep_copy(workspace: Path, copies: Path, text: str) -> Path:
    """``text`` kept as ``copies/<sha256>.before`` (content-addressed: written once, fsynced)."""
    copy = copies / f"{sha256_text(text)}.before"
    with file_lock(copy, workspace):
        if read_exact(copy) != text:
            atomic_write(copy, text, workspace=workspace)
    return copy


def _apply_group(workspace: Path, planned: list[tuple[WriteRecord, str | None]]) -> None:
    """Every intent, each write, every commit (hold every file's lock). A failure part-way commits the
    files already written and aborts the rest, so undo takes back exactly what landed."""
    _append(workspace, *({**r.to_json(), "type": "intent", "of": r.to_json()["type"]} for r, _ in planned))
    done: list[WriteRecord] = []
    try:
        for record, after in planned:
            path = Path(record.memory_path)
            if after is None:
                delete_file(path)
            else:
                atomic_write(path, after, workspace=workspace)
            done.append(record)
    except BaseException:
        try:
            _abort(workspace, *(record.id for record, _ in planned[len(done) :]))
            if done:
                commit_write(workspace, *done)
        except StorageError:  # the disk is gone too: the next change settles them by the files
            pass
        raise
    commit_write(workspace, *done)


def group_members(records: list[WriteRecord], group: str) -> list[WriteRecord]:
    """The members of ``group`` still in effect (committed, not undone), in the order they were written."""
    undone = {r.undoes for r in records if r.undoes and r.state == "committed"}
    return [
        r
        for r in records
        if r.group == group and not r.undoes and r.state == "committed" and r.id not in undone
    ]


def undo_group(workspace: Path, group: str, *, time: str) -> list[WriteRecord]:
    """Take back, byte for byte, every member of ``group`` still in effect; returns them.

    Refused, with nothing changed, when a file is no longer exactly as the group left it or a
    copy of its bytes before is gone. The undo is itself a group (intent + commit per file).
    """
    members = group_members(_parsed(read_records(workspace)), group)
    if not members:
        raise UndoRefusedError(Text("journal.nothing_recorded", journal=journal_path(workspace)))
    with ExitStack() as stack:
        for path in sorted({r.memory_path for r in members}):
            stack.enter_context(file_lock(Path(path), workspace))
        members = group_members(_parsed(read_records(workspace)), group)  # re-read under the locks
        undo_id = secrets.token_hex(6)
        planned: list[tuple[WriteRecord, str | None]] = []
        for member in reversed(members):
            current = read_exact(Path(member.memory_path))
            if (sha256_text(current) or DELETED) != member.after_sha256:
                raise UndoRefusedError(Text("journal.group_changed", path=member.memory_path))
            before = _copy_before(member)
            undo = WriteRecord(
                memory_path=member.memory_path,
                before_sha256=sha256_text(current),
                after_sha256=sha256_text(before) or DELETED,
                hunks=[],
                time=time,
                kind=member.kind,
                undoes=member.id,
                group=undo_id,
                action=member.action,
            )
            planned.append((undo, before))
        if planned:
            _apply_group(workspace, planned)
    return members


def _copy_before(member: WriteRecord) -> str | None:
    """The member's file as it was before (None: the member created it)."""
    if member.before_sha256 is None:
        return None
    text = read_exact(Path(member.before_copy)) if member.before_copy else None
    if text is None or sha256_text(text) != member.before_sha256:
        raise UndoRefusedError(Text("journal.copy_missing", path=member.memory_path))
    return text
