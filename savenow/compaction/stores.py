"""The two session stores compaction works on (DESIGN §13).

* :class:`SessionFileStore` — the seed compactor's ``.clawsession.json``
  (``version``, ``createdAt``, ``updatedAt``, ``messages[{role, content, timestamp,
  toolUse?}]``, ``compactionCount``, ``totalTokens``). A compaction rewrites it
  atomically: one ``system`` message holding the summary (``"compacted": true``),
  then the kept messages. Fields savenow does not know are kept as they were;
  ``compactions`` (the history) is ours.
* :class:`TranscriptStore` — the bot recorder's OpenClaw-layout transcript
  (pi v3 JSONL). Append-only: a compaction is one ``{"type":"compaction",
  "summary","firstKeptEntryId","tokensBefore",…}`` line; the old lines stay.
  Only the recorder's folder is ever written; OpenClaw's store is read only and
  refused here.

Both are read and committed under a lock on the store file; a commit re-checks
the file's fingerprint so a write that happened meanwhile is never overwritten.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from ..errors import CompactionStoreError
from ..messages import Text
from ..storage.files import atomic_write, read_exact
from ..storage.locks import file_lock
from .model import Compaction, HistoryItem, SessionMessage, SessionSnapshot, session_message

SEED_VERSION = 1
SUMMARY_FLAG = "compacted"
_SEED_SUMMARY_PREFIXES = ("Previously compacted context:", "Newly compacted context:", "## Session summary")
_ROLES = frozenset({"user", "assistant", "system", "tool"})


class CompactionStore(Protocol):
    identity: str  # stable name of the session, keys savenow's flush state
    label: str  # shown to people

    def exists(self) -> bool: ...

    def locked(self) -> Any: ...

    def load(self, *, ids: bool = True) -> SessionSnapshot:
        """The session as it is now; ``ids=False`` when the caller never looks at message ids
        (status, token estimates, the model context): a store may then skip computing them."""
        ...

    def commit(self, snapshot: SessionSnapshot, compaction: Compaction) -> None: ...


def _fingerprint(path: Path) -> str | None:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return f"{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}"


# --------------------------------------------------------------------------- the seed's file


class SessionFileStore:
    def __init__(self, path: Path) -> None:
        self.path = Path(path).expanduser()
        self.identity = "file:" + os.path.abspath(self.path)
        self.label = str(self.path)
        # What the last load() for a compaction read and parsed: the commit re-reads the file under
        # the lock and, when its bytes are the same, rewrites that parse instead of parsing again.
        self._parsed: tuple[str, dict[str, Any]] | None = None

    @classmethod
    def checked(cls, path: Path, sessions_dir: Path | None) -> SessionFileStore:
        """The seed's session file at ``path`` (``~`` expanded) for ``--store``: it must exist, and
        never lie inside OpenClaw's sessions folder (OpenClaw's stores are read-only)."""
        from ..storage.targets import resolves_inside

        resolved = path.expanduser()
        if not resolved.is_file():
            raise CompactionStoreError(Text("compaction.not_found", path=path))
        if sessions_dir is not None and resolves_inside(resolved, sessions_dir):
            raise CompactionStoreError(Text("compaction.in_openclaw_folder", path=path))
        return cls(resolved)

    def exists(self) -> bool:
        return self.path.is_file()

    @contextmanager
    def locked(self) -> Iterator[None]:
        with file_lock(self.path, None):
            yield

    def _read(self) -> dict[str, Any]:
        return self._parse(self._text())

    def _text(self) -> str:
        try:
            text = read_exact(self.path)
        except OSError as exc:
            raise CompactionStoreError(
                Text("compaction.cannot_read", path=self.path, reason=exc.strerror)
            ) from exc
        if text is None:
            raise CompactionStoreError(Text("compaction.not_found", path=self.path))
        return text

    def _parse(self, text: str) -> dict[str, Any]:
        try:
            data = json.loads(text.lstrip("\ufeff"))
        except ValueError as exc:
            raise CompactionStoreError(Text("compaction.bad_json", path=self.path, detail=exc)) from exc
        if not isinstance(data, dict) or not isinstance(data.get("messages", []), list):
            raise CompactionStoreError(Text("compaction.no_messages", path=self.path))
        return data

    def load(self, *, ids: bool = True) -> SessionSnapshot:
        version = _fingerprint(self.path)
        text = self._text()
        data = self._parse(text)
        self._parsed = (text, data) if ids else None  # only a compaction (it needs the ids) commits
        raw_messages = data.get("messages") or []
        summary: str | None = None
        messages: list[SessionMessage] = []
        chain = ""
        for index, raw in enumerate(raw_messages):
            if not isinstance(raw, dict):
                raise CompactionStoreError(Text("compaction.message_not_object", path=self.path, index=index))
            if not messages and summary is None and _is_seed_summary(raw):
                summary = str(raw.get("content") or "")
                continue
            message = _seed_message(raw, index, chain, self.path, ids)
            messages.append(message)
            chain = message.id
        history = [
            HistoryItem(
                at=str(item.get("at", "")),
                removed_count=int(item.get("removedCount", 0)),
                tokens_before=int(item.get("tokensBefore", 0)),
                tokens_after=int(item.get("tokensAfter", 0)),
            )
            for item in data.get("compactions") or []
            if isinstance(item, dict)
        ]
        count = data.get("compactionCount")
        return SessionSnapshot(
            messages=messages,
            summary=summary,
            compaction_count=count if isinstance(count, int) and count >= 0 else len(history),
            history=history,
            version=version,
        )

    def commit(self, snapshot: SessionSnapshot, compaction: Compaction) -> None:
        if _fingerprint(self.path) != snapshot.version:
            raise CompactionStoreError(Text("compaction.file_changed", path=self.path))
        parsed, self._parsed = self._parsed, None
        text = self._text()  # re-read under the lock: a same-size edit in the same mtime tick is still seen
        data = parsed[1] if parsed is not None and parsed[0] == text else self._parse(text)
        raw_messages = data.get("messages") or []
        offset = len(raw_messages) - len(snapshot.messages)  # the old summary message, if any
        kept_ids = {message.id for message in compaction.kept}
        kept_raw = [
            raw
            for raw, message in zip(raw_messages[offset:], snapshot.messages, strict=True)
            if message.id in kept_ids
        ]
        summary_message = {
            "role": "system",
            "content": compaction.summary,
            "timestamp": compaction.at,
            SUMMARY_FLAG: True,
        }
        data["messages"] = [summary_message, *kept_raw]
        data.setdefault("version", SEED_VERSION)
        data.setdefault("createdAt", compaction.at)
        data["updatedAt"] = compaction.at
        data["compactionCount"] = snapshot.compaction_count + 1
        data["totalTokens"] = compaction.tokens_after
        history = [h for h in data.get("compactions") or [] if isinstance(h, dict)]
        history.append(
            HistoryItem(
                compaction.at, len(compaction.removed), compaction.tokens_before, compaction.tokens_after
            ).to_json()
        )
        data["compactions"] = history
        atomic_write(self.path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _is_seed_summary(raw: dict[str, Any]) -> bool:
    if raw.get("role") != "system":
        return False
    if raw.get(SUMMARY_FLAG) is True:
        return True
    content = raw.get("content")
    return isinstance(content, str) and content.lstrip().startswith(_SEED_SUMMARY_PREFIXES)


def _seed_message(
    raw: dict[str, Any], index: int, previous_id: str, path: Path, with_id: bool = True
) -> SessionMessage:
    """A seed message; its id hashes its content and the previous message's id (``""`` without
    ``with_id``: hashing is most of the cost of reading a long session for `status`).

    The seed's file has no ids. A chained hash stays the same while messages are
    appended, tells identical messages apart, and changes for the kept messages
    when a compaction rewrites the file — they were never flushed, and a flush
    marker that is no longer found means "everything here is after it".
    """
    role = raw.get("role")
    if role not in _ROLES:
        raise CompactionStoreError(Text("compaction.bad_role", path=path, index=index, role=role))
    content = raw.get("content")
    if not isinstance(content, str):
        from ..sessions.transcript import content_text

        content = content_text(content) if content is not None else ""
    tool = raw.get("toolUse")
    name = tool_input = None
    if isinstance(tool, dict) and tool.get("name"):
        name = str(tool["name"])
        value = tool.get("input")
        tool_input = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    stamp = raw.get("timestamp")
    timestamp = stamp if isinstance(stamp, str) else (str(stamp) if stamp is not None else None)
    digest = ""
    if with_id:
        import hashlib  # here: `status` reads without ids and never loads OpenSSL

        fields = (previous_id, role, timestamp or "", content, name or "", tool_input or "")
        digest = hashlib.sha256("\x1f".join(fields).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    usage = raw.get("usage")
    reported = usage.get("totalTokens") if isinstance(usage, dict) else None
    usage_tokens = reported if isinstance(reported, int) and reported > 0 else None
    return session_message(digest, role, content, timestamp, name, tool_input, None, usage_tokens)


# --------------------------------------------------------------------------- the recorder's transcripts


class TranscriptStore:
    """One recorded session (a key of the recorder's ``sessions.json``)."""

    def __init__(self, recorder: Any, key: str, transcript: Path) -> None:
        self.recorder = recorder  # savenow.sessions.recorder.SessionRecorder
        self.key = key
        self.path = transcript
        self.identity = f"recorder:{key}:{transcript.name}"
        self.label = key

    def exists(self) -> bool:
        return self.path.is_file()

    @contextmanager
    def locked(self) -> Iterator[None]:
        with self.recorder.locked():
            yield

    def load(self, *, ids: bool = True) -> SessionSnapshot:  # entry ids cost nothing here
        version = _fingerprint(self.path)
        lines = _read_lines(self.path)
        entries: list[tuple[str, dict[str, Any]]] = []
        edits: dict[str, str] = {}
        last_compaction: dict[str, Any] | None = None
        history: list[HistoryItem] = []
        for obj in lines:
            kind = obj.get("type")
            if kind == "session" and entries:
                entries, last_compaction, history = [], None, []  # a file continued after a reset
            elif kind == "custom" and obj.get("customType") == "savenow.edit":
                data = obj.get("data")
                if isinstance(data, dict) and isinstance(data.get("targetId"), str):
                    edits[data["targetId"]] = str(data.get("text") or "")
            elif kind == "compaction":
                last_compaction = obj
                history.append(
                    HistoryItem(
                        at=str(obj.get("timestamp", "")),
                        removed_count=int((obj.get("details") or {}).get("removedCount", 0)),
                        tokens_before=int(obj.get("tokensBefore") or 0),
                        tokens_after=int(obj.get("tokensAfter") or 0),
                    )
                )
            elif kind == "message" and isinstance(obj.get("id"), str):
                entries.append((obj["id"], obj))
        start = 0
        summary = None
        if last_compaction is not None:
            summary = str(last_compaction.get("summary") or "")
            first_kept = last_compaction.get("firstKeptEntryId")
            entry_ids = [entry_id for entry_id, _ in entries]
            start = entry_ids.index(first_kept) if first_kept in entry_ids else len(entries)
        messages = [
            message
            for entry_id, obj in entries[start:]
            if (message := _transcript_message(entry_id, obj, edits)) is not None
        ]
        return SessionSnapshot(
            messages=messages,
            summary=summary,
            compaction_count=len(history),
            history=history,
            version=version,
        )

    def commit(self, snapshot: SessionSnapshot, compaction: Compaction) -> None:
        if _fingerprint(self.path) != snapshot.version:
            raise CompactionStoreError(Text("compaction.transcript_changed", key=self.key))
        if self.recorder.transcript_of(self.key) != self.path:
            raise CompactionStoreError(Text("compaction.new_session", key=self.key))
        first_kept = compaction.kept[0].id if compaction.kept else None
        self.recorder.append_compaction(
            self.key,
            summary=compaction.summary,
            first_kept_entry_id=first_kept,
            tokens_before=compaction.tokens_before,
            tokens_after=compaction.tokens_after,
            removed_count=len(compaction.removed),
        )


def _read_lines(path: Path) -> list[dict[str, Any]]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise CompactionStoreError(Text("compaction.transcript_not_found", path=path)) from exc
    lines = []
    for line in raw.split(b"\n"):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue  # malformed lines are skipped, never fatal (DESIGN §5.1)
        if isinstance(obj, dict):
            lines.append(obj)
    return lines


def _transcript_message(entry_id: str, obj: dict[str, Any], edits: dict[str, str]) -> SessionMessage | None:
    from ..sessions.transcript import clean_text, content_text

    message = obj.get("message")
    if not isinstance(message, dict):
        return None
    role = message.get("role")
    content = message.get("content")
    stamp = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None
    if role == "toolResult":
        return SessionMessage(id=entry_id, role="tool", content=content_text(content), timestamp=stamp)
    if role not in ("user", "assistant"):
        return None
    text = clean_text(edits.get(entry_id, content_text(content)))
    name = tool_input = None
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and block.get("type") == "toolCall":
                name = str(block.get("name") or "tool")
                args = block.get("arguments")
                tool_input = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
                break
    usage = message.get("usage")
    reported = None
    if isinstance(usage, dict):
        total = usage.get("totalTokens")
        reported = total if isinstance(total, int) and total > 0 else None
    if not text and name is None:
        return None
    return SessionMessage(
        id=entry_id,
        role=role,
        content=text,
        timestamp=stamp,
        tool_name=name,
        tool_input=tool_input,
        usage_tokens=reported,
    )
