"""The bot's recorder: what it sees in Telegram, written in OpenClaw's file layout (DESIGN §5.1).

It writes only into its own folder (``settings.effective_recorder_dir``), never into
OpenClaw's ``sessions_dir``; :class:`~savenow.sessions.openclaw.OpenClawFileStore`
reads it back with ``source="recorder"``.

* One line per message, appended with a single ``write`` on an ``O_APPEND`` file
  and fsynced; ``sessions.json`` is rewritten atomically (temp, fsync, rename,
  fsync dir). Both happen under one file lock (processes) and a thread lock
  (threads), re-reading ``sessions.json`` under the lock.
* Edits append a ``custom`` line (``customType: "savenow.edit"``) naming the
  edited entry; the reader shows the newest text once, in the original place.
  Appending keeps a transcript append-only (no rewrite of a long file per edit).
* A new session id (and file) starts on :meth:`start_new_session` (``/new``,
  ``/reset``) or when a key has been idle longer than ``idle_gap``.

Synchronous: the Telegram layer calls it off the event loop.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from filelock import FileLock

from ..clock import Clock
from ..storage.files import atomic_write, fsync_dir
from ..text.safety import clean_value
from ..vocabulary import ChatType, Role
from .keys import chat_id_from_key, chat_type_from_key, thread_id_from_key, validate_session_key
from .openclaw import STORE_FILE, TRANSCRIPT_SUFFIX, iter_lines_backwards
from .window import EDIT_CUSTOM_TYPE

log = logging.getLogger("savenow.recorder")

MAX_RECORDED_CHARS = 64_000  # Telegram caps a message at 4,096; this only guards against misuse
EDIT_SCAN_LINES = 5_000  # how far back an edit looks for the message it changes
_LEAF_FIELD = "savenowLeafId"  # the last entry id written, the parentId of the next line


class SessionRecorder:
    def __init__(self, root: Path, *, agent_id: str, clock: Clock, idle_gap: timedelta) -> None:
        self.root = Path(root).expanduser()
        self.agent_id = agent_id
        self.clock = clock
        self.idle_gap = idle_gap
        self._thread_lock = threading.Lock()

    # -- public --

    def record(
        self,
        key: str,
        *,
        role: Role,
        text: str,
        message_id: int | str | None,
        chat_id: str,
        chat_type: ChatType,
        thread_id: str | None = None,
        sender: str | None = None,
    ) -> None:
        """Append one message to the key's current session (starting one when needed)."""
        key = validate_session_key(key)
        if role not in ("user", "assistant"):
            raise ValueError(f"role must be user or assistant, not {role!r}")
        if not text or not text.strip():
            return
        text = text[:MAX_RECORDED_CHARS]
        with self._locked():
            store = self._read_store()
            now = self.clock.now()
            entry = store.get(key)
            if entry is None or self._is_idle(entry, now):
                entry = self._open_session(
                    key, entry, now, chat_id=chat_id, chat_type=chat_type, thread_id=thread_id
                )
            entry_id = _new_entry_id()
            line = {
                "type": "message",
                "id": entry_id,
                "parentId": entry.get(_LEAF_FIELD),
                "timestamp": _iso(now),
                "message": _pi_message(role, text, now),
                "savenow": _compact(
                    {
                        "messageId": None if message_id is None else str(message_id),
                        "chatId": str(chat_id),
                        "threadId": None if thread_id is None else str(thread_id),
                        "sender": sender,
                    }
                ),
            }
            self._append(self._transcript(entry), line)
            entry[_LEAF_FIELD] = entry_id
            entry.update(_delivery_fields(str(chat_id), chat_type, thread_id, sender))
            entry["updatedAt"] = _millis(now)
            store[key] = entry
            self._write_store(store)

    def record_edit(self, key: str, *, message_id: int | str, text: str) -> bool:
        """Record an edited message's new text; False when the message is not in the current session."""
        key = validate_session_key(key)
        with self._locked():
            store = self._read_store()
            entry = store.get(key)
            if entry is None:
                return False
            path = self._transcript(entry)
            target = _find_entry_id(path, str(message_id))
            if target is None:
                return False
            now = self.clock.now()
            entry_id = _new_entry_id()
            self._append(
                path,
                {
                    "type": "custom",
                    "customType": EDIT_CUSTOM_TYPE,
                    "id": entry_id,
                    "parentId": entry.get(_LEAF_FIELD),
                    "timestamp": _iso(now),
                    "data": {
                        "targetId": target,
                        "messageId": str(message_id),
                        "text": text[:MAX_RECORDED_CHARS],
                    },
                },
            )
            entry[_LEAF_FIELD] = entry_id
            store[key] = entry
            self._write_store(store)
            return True

    def start_new_session(self, key: str) -> str:
        """Start a fresh session for ``key`` (``/new``, ``/reset``); returns the new session id."""
        key = validate_session_key(key)
        with self._locked():
            store = self._read_store()
            now = self.clock.now()
            previous = store.get(key)
            chat_id = chat_id_from_key(key) or ""
            chat_type: ChatType = "group" if chat_type_from_key(key) == "group" else "direct"
            entry = self._open_session(
                key, previous, now, chat_id=chat_id, chat_type=chat_type, thread_id=thread_id_from_key(key)
            )
            entry["updatedAt"] = _millis(now)
            store[key] = entry
            self._write_store(store)
            return str(entry["sessionId"])

    def append_compaction(
        self,
        key: str,
        *,
        summary: str,
        first_kept_entry_id: str | None,
        tokens_before: int,
        tokens_after: int,
        removed_count: int,
    ) -> str:
        """Append a pi ``compaction`` line to the key's current transcript (the old lines stay).

        The caller holds :meth:`locked` (compaction reads, flushes and commits under it).
        """
        key = validate_session_key(key)
        store = self._read_store()
        entry = store.get(key)
        if entry is None:
            raise KeyError(key)
        entry_id = _new_entry_id()
        self._append(
            self._transcript(entry),
            {
                "type": "compaction",
                "id": entry_id,
                "parentId": entry.get(_LEAF_FIELD),
                "timestamp": _iso(self.clock.now()),
                "summary": summary,
                "firstKeptEntryId": first_kept_entry_id,
                "tokensBefore": tokens_before,
                "tokensAfter": tokens_after,
                "details": {"removedCount": removed_count, "by": "savenow"},
            },
        )
        entry[_LEAF_FIELD] = entry_id
        store[key] = entry
        self._write_store(store)
        return entry_id

    def transcript_of(self, key: str) -> Path | None:
        """The current transcript file of a recorded key, or None."""
        entry = self._read_store().get(validate_session_key(key))
        return None if entry is None else self._transcript(entry)

    # -- sessions --

    def _is_idle(self, entry: dict[str, Any], now: datetime) -> bool:
        updated = entry.get("updatedAt")
        if not isinstance(updated, int | float) or not isinstance(entry.get("sessionId"), str):
            return True
        return _millis(now) - updated > self.idle_gap.total_seconds() * 1000

    def _open_session(
        self,
        key: str,
        previous: dict[str, Any] | None,
        now: datetime,
        *,
        chat_id: str,
        chat_type: ChatType,
        thread_id: str | None,
    ) -> dict[str, Any]:
        """A new session id and transcript file (header line written) for ``key``."""
        session_id = str(uuid.uuid4())
        topic = thread_id_from_key(key) or (str(thread_id) if thread_id is not None else None)
        file_name = (
            f"{session_id}-topic-{topic}{TRANSCRIPT_SUFFIX}" if topic else f"{session_id}{TRANSCRIPT_SUFFIX}"
        )
        entry = {k: v for k, v in (previous or {}).items() if k not in (_LEAF_FIELD, "sessionFile")}
        entry.update(
            {
                "sessionId": session_id,
                "sessionFile": file_name,
                "sessionStartedAt": _millis(now),
                "updatedAt": _millis(now),
            }
        )
        if chat_id:
            entry.update(_delivery_fields(str(chat_id), chat_type, thread_id, None))
        header = {
            "type": "session",
            "version": 3,
            "id": session_id,
            "timestamp": _iso(now),
            "cwd": str(self.root),
        }
        self._append(self.root / file_name, header)
        return entry

    def _transcript(self, entry: dict[str, Any]) -> Path:
        name = entry.get("sessionFile") or f"{entry['sessionId']}{TRANSCRIPT_SUFFIX}"
        path = self.root / Path(str(name)).name  # our own entries are bare file names
        return path

    # -- files --

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        with self._thread_lock, FileLock(str(self.root / f"{STORE_FILE}.lock")):
            yield

    def locked(self) -> Any:
        """The recorder's lock, for a caller that reads and appends as one step (compaction)."""
        return self._locked()

    def _read_store(self) -> dict[str, Any]:
        path = self.root / STORE_FILE
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return {}
        try:
            data = json.loads(raw) if raw.strip() else {}
        except ValueError:
            data = None
        if not isinstance(data, dict):
            # Our own store is damaged: keep it for inspection, start a fresh index.
            stamp = self.clock.now().strftime("%Y%m%dT%H%M%S")
            kept = path.with_name(f"{STORE_FILE}.broken-{stamp}")
            os.replace(path, kept)
            log.warning(
                "the recorder's session index was damaged; kept it as %s and started a new one", kept.name
            )
            return {}
        return {key: value for key, value in data.items() if isinstance(value, dict)}

    def _write_store(self, store: dict[str, Any]) -> None:
        atomic_write(self.root / STORE_FILE, json.dumps(clean_value(store), ensure_ascii=False, indent=2))

    def _append(self, path: Path, line: dict[str, Any]) -> None:
        # clean_value: half an emoji (a lone surrogate) never makes the line invalid UTF-8
        data = (json.dumps(clean_value(line), ensure_ascii=False, separators=(",", ":")) + "\n").encode(
            "utf-8"
        )
        created = not path.exists()
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, data)  # one write on O_APPEND: a line is never interleaved with another
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            fsync_dir(path.parent)


def _find_entry_id(path: Path, message_id: str) -> str | None:
    """The id of the recorded line for a Telegram message id, scanning back from the end."""
    try:
        lines = iter_lines_backwards(path)
        for count, raw in enumerate(lines):
            if count >= EDIT_SCAN_LINES:
                return None
            if not raw or message_id.encode() not in raw:
                continue
            try:
                obj = json.loads(raw)
            except ValueError:
                continue
            meta = obj.get("savenow") if isinstance(obj, dict) else None
            if (
                obj.get("type") == "message"
                and isinstance(meta, dict)
                and meta.get("messageId") == message_id
            ):
                entry_id = obj.get("id")
                return entry_id if isinstance(entry_id, str) else None
    except FileNotFoundError:
        return None
    return None


def _pi_message(role: Role, text: str, now: datetime) -> dict[str, Any]:
    if role == "user":
        return {"role": "user", "content": text, "timestamp": _millis(now)}
    return {
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "stopReason": "stop",
        "timestamp": _millis(now),
    }


def _delivery_fields(
    chat_id: str, chat_type: ChatType, thread_id: str | None, sender: str | None
) -> dict[str, Any]:
    address = f"telegram:{chat_id}"
    thread = None if thread_id is None else str(thread_id)
    fields: dict[str, Any] = {
        "chatType": chat_type,
        "channel": "telegram",
        "lastChannel": "telegram",
        "lastTo": address,
        "deliveryContext": _compact({"channel": "telegram", "to": address, "threadId": thread}),
        "origin": _compact(
            {
                "provider": "telegram",
                "surface": "telegram",
                "chatType": chat_type,
                "to": address,
                "threadId": thread,
            }
        ),
    }
    if thread is not None:
        fields["lastThreadId"] = thread
    return fields


def _compact(values: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def _new_entry_id() -> str:
    return secrets.token_hex(4)  # pi uses 8-hex entry ids


def _millis(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
