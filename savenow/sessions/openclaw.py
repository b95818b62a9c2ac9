"""OpenClaw's on-disk session store (DESIGN §5.1), read only.

``<dir>/sessions.json`` maps session key → entry; each entry's transcript is a
pi v3 JSONL file in the same folder. The bot's recorder writes the same layout
into its own folder, so this one reader serves both (``source`` tells them apart).

Choices (see "Sessions" in README.md):

* **Tail only.** Transcripts are read backwards from the end in blocks until
  ``limit`` user/assistant messages are collected, so a 200 MB file costs what
  its last few hundred lines cost. A single line over 8 MB (a pasted image, a
  huge tool result) is skipped and counted as malformed.
* **Compaction is not a boundary.** A ``compaction`` entry only tells the model
  to forget; the messages before it are still in the file and were still said in
  this conversation, so they are read (up to ``limit``). The compaction summary
  itself is model-written, not said by anyone, and is not shown.
* **Reset is a boundary.** ``/new`` and ``/reset`` start a new session id and a
  new file; a ``session`` header met mid-file (a file continued after a reset)
  also ends the window.
* **Line order, not the parentId tree.** Concurrent writers (delivery mirrors,
  the recorder) append lines whose parent is not the previous line; every line
  in the file was shown in the chat, so the file order is the conversation.
* **"No user message"** is decided lazily, only for the few sessions that match a
  chat and thread (:meth:`OpenClawFileStore.probe_user_message`): a missing
  transcript has none; otherwise the first 256 KB are scanned, and a larger file
  whose head shows none is presumed to have one.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from ..errors import BadInputError
from ..messages import Text
from .keys import canonical_session_key, chat_id_from_key, chat_type_from_key, thread_id_from_key
from .store import SessionInfo, Transcript
from .transcript import message_from_line
from .window import TailCollector

STORE_FILE = "sessions.json"
TRANSCRIPT_SUFFIX = ".jsonl"

BLOCK_BYTES = 128 * 1024
MAX_LINE_BYTES = 8 * 1024 * 1024
HEAD_PROBE_BYTES = 256 * 1024
MAX_EPOCH_MS = 95_617_584_000_000  # 5000-01-01
MAX_TAIL_SCAN_BYTES = 64 * 1024 * 1024  # the tail scan reads at most this much of a transcript
MAX_TAIL_SCAN_S = 5.0  # ... and for at most this long, however the lines look
_CHEAP_SKIP_BYTES = 64 * 1024  # big lines are checked for "toolResult" before a full JSON parse

_SAFE_NAME_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+=-]{0,159}$")
_NUMERIC_ID = re.compile(r"^-?\d+$")
_ADDRESS_WORDS = frozenset({"telegram", "group", "supergroup", "channel", "direct", "dm", "user", "chat"})


# ---- sessions.json, validated at the edge (lenient: unknown fields ignored) -------------------


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class _DeliveryContext(_Lenient):
    channel: str | None = None
    to: str | int | None = None
    accountId: str | int | None = None
    threadId: str | int | float | None = None


class _Origin(_Lenient):
    provider: str | None = None
    chatType: str | None = None
    to: str | int | None = None
    threadId: str | int | float | None = None


class _Entry(_Lenient):
    sessionId: str
    updatedAt: int | float | str | None = None
    chatType: str | None = None
    sessionFile: str | None = None
    origin: _Origin | None = None
    deliveryContext: _DeliveryContext | None = None
    lastThreadId: str | int | float | None = None
    lastTo: str | int | None = None
    displayName: str | None = None
    subject: str | None = None
    label: str | None = None


_ENTRY = TypeAdapter(_Entry)


class EntryPlace(NamedTuple):
    key_thread: str | None  # the thread the session key itself names
    thread_ids: tuple[str, ...]  # every thread id the entry names, the key's first
    chat_id: str | None
    chat_type: str | None


def entry_place(key: str, entry: _Entry) -> EntryPlace:
    """Where a session entry lives, the same for the JSON and the SQLite store: the key's own thread,
    every thread id the entry names (the key's first), its chat and its chat type."""
    delivery, origin = entry.deliveryContext, entry.origin
    key_thread = thread_id_from_key(key)
    thread_ids = _unique(
        _id_text(value)
        for value in (
            key_thread,
            delivery.threadId if delivery else None,
            entry.lastThreadId,
            origin.threadId if origin else None,
        )
    )
    chat_id = chat_id_from_key(key) or _chat_from_address(
        (delivery.to if delivery else None), entry.lastTo, (origin.to if origin else None)
    )
    chat_type = entry.chatType or (origin.chatType if origin else None) or chat_type_from_key(key)
    return EntryPlace(key_thread, thread_ids, chat_id, chat_type)


_INVALID = object()  # memo marker: the entry failed validation


class _Snapshot:
    """One parse of sessions.json: raw entries, a chat index, and SessionInfo built on demand.

    Building (and validating) all 5,000 entries of a big store costs ~100 ms; a
    /savenow in a topic only needs the handful of entries of its chat, so entries
    are validated lazily and an index from chat id to keys is built up front.
    """

    def __init__(self, signature: tuple[int, ...], raw: dict[str, Any], store: OpenClawFileStore) -> None:
        self.signature = signature
        self.raw = _canonical_keys(raw, store.agent_id)
        self.source = store.source
        self.resolver = _TranscriptResolver(store.sessions_dir, _directory_names(store.sessions_dir))
        self.by_chat: dict[str, list[str]] = {}
        for key, value in self.raw.items():
            chat = _raw_chat_id(key, value)
            if chat is not None:
                self.by_chat.setdefault(chat, []).append(key)
        self._infos: dict[str, Any] = {}
        self._lock = threading.Lock()

    def info(self, key: str) -> SessionInfo | None:
        found = self._infos.get(key)
        if found is None:
            value = self.raw.get(key)
            if value is None:
                return None
            try:
                found = self._build(key, _ENTRY.validate_python(value))
            except ValidationError:
                found = _INVALID  # not an object with a usable sessionId: skipped, never fatal
            with self._lock:
                self._infos[key] = found
        return found if isinstance(found, SessionInfo) else None  # else _INVALID

    def all(self) -> list[SessionInfo]:
        return [info for key in self.raw if (info := self.info(key)) is not None]

    def skipped(self) -> int:
        return len(self.raw) - len(self.all())

    def _build(self, key: str, entry: _Entry) -> SessionInfo:
        key_thread, thread_ids, chat_id, chat_type = entry_place(key, entry)
        transcript = self.resolver.resolve(
            entry.sessionId, entry.sessionFile, key_thread or next(iter(thread_ids), None)
        )
        return SessionInfo(
            key=key,
            session_id=entry.sessionId,
            updated_at_ms=_millis(entry.updatedAt),
            chat_type=chat_type,
            thread_id=thread_ids[0] if thread_ids else None,
            transcript_path=transcript,
            source=self.source,
            has_user_message=False if transcript is None else None,
            chat_id=chat_id,
            thread_ids=thread_ids,
            label=entry.displayName or entry.subject or entry.label,
        )


def _raw_chat_id(key: str, value: Any) -> str | None:
    """The chat of an unvalidated entry, for the index (the same rule as SessionInfo.chat_id)."""
    chat = chat_id_from_key(key)
    if chat is not None or not isinstance(value, dict):
        return chat
    delivery, origin = value.get("deliveryContext"), value.get("origin")
    return _chat_from_address(
        delivery.get("to") if isinstance(delivery, dict) else None,
        value.get("lastTo"),
        origin.get("to") if isinstance(origin, dict) else None,
    )


# Parsed stores shared by every OpenClawFileStore in the process (the bot builds a catalog per
# command), keyed by folder and source and revalidated on each use by the files' stat signature.
_SNAPSHOTS: dict[tuple[str, str, str], _Snapshot] = {}
_SNAPSHOTS_LOCK = threading.Lock()


class OpenClawFileStore:
    """A folder holding ``sessions.json`` and its transcripts; a missing folder is an empty store."""

    def __init__(self, sessions_dir: Path, source: str = "openclaw", agent_id: str | None = None) -> None:
        self.sessions_dir = Path(sessions_dir).expanduser()
        self.source = source
        # Legacy keys without the agent prefix belong to the agent whose folder this is.
        self.agent_id = agent_id or agent_of_folder(self.sessions_dir) or "main"

    # -- the SessionStore interface --

    def list_sessions(self) -> list[SessionInfo]:
        snapshot = self._load()
        return snapshot.all() if snapshot else []

    def get(self, key: str) -> SessionInfo | None:
        snapshot = self._load()
        return snapshot.info(canonical_session_key(key, self.agent_id)) if snapshot else None

    def read_messages(self, info: SessionInfo, limit: int) -> Transcript:
        if info.transcript_path is None or limit <= 0:
            return Transcript(messages=[], malformed_lines=0, total_messages_seen=0)
        self._refuse_escape(info.transcript_path)
        try:
            return read_transcript_tail(info.transcript_path, limit)
        except FileNotFoundError:
            return Transcript(messages=[], malformed_lines=0, total_messages_seen=0)

    # -- extras the catalog uses --

    def sessions_in_chat(self, chat_id: str) -> list[SessionInfo]:
        """The sessions whose key or delivery address names ``chat_id`` (an index lookup)."""
        snapshot = self._load()
        if snapshot is None:
            return []
        return [info for key in snapshot.by_chat.get(chat_id, ()) if (info := snapshot.info(key)) is not None]

    @property
    def skipped_entries(self) -> int:
        """Entries of sessions.json that were not objects with a usable sessionId."""
        snapshot = self._load()
        return snapshot.skipped() if snapshot else 0

    def probe_user_message(self, info: SessionInfo) -> bool:
        """Whether the session has a user message, from a bounded scan of the transcript's head."""
        if info.has_user_message is not None:
            return info.has_user_message
        if info.transcript_path is None:
            return False
        self._refuse_escape(info.transcript_path)
        try:
            return transcript_has_user_message(info.transcript_path)
        except FileNotFoundError:
            return False

    def _refuse_escape(self, transcript: Path) -> None:
        """A transcript that is a symlink to a file outside the store is not read (issue 10 item 8)."""
        if not transcript.is_symlink():
            return
        root = self.sessions_dir.resolve()
        target = transcript.resolve()
        if target != root and root not in target.parents:
            raise BadInputError(
                Text("openclaw_store.symlink_outside", transcript=transcript, target=target, root=root)
            )

    # -- loading, cached on the files' stat signature --

    @property
    def _cache_key(self) -> tuple[str, str, str]:
        return (os.path.abspath(self.sessions_dir), self.source, self.agent_id)

    def _load(self) -> _Snapshot | None:
        path = self.sessions_dir / STORE_FILE
        try:
            stat = path.stat()
            folder = self.sessions_dir.stat()
        except (FileNotFoundError, NotADirectoryError):
            return None
        # The folder's mtime covers transcripts created or renamed since (topic files, resets).
        signature = (stat.st_mtime_ns, stat.st_size, stat.st_ino, folder.st_mtime_ns)
        with _SNAPSHOTS_LOCK:
            snapshot = _SNAPSHOTS.get(self._cache_key)
            if snapshot is None or snapshot.signature != signature:
                snapshot = _Snapshot(signature, self._parse(path), self)
                _SNAPSHOTS[self._cache_key] = snapshot
            return snapshot

    def _parse(self, path: Path) -> dict[str, Any]:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise BadInputError(Text("openclaw_store.cannot_read", path=path, reason=exc.strerror)) from exc
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            detail = (
                "nested too deep" if isinstance(exc, RecursionError) else " ".join(str(exc).split())[:200]
            )
            raise BadInputError(Text("openclaw_store.bad_json", path=path, detail=detail)) from None
        if not isinstance(data, dict):
            raise BadInputError(Text("openclaw_store.not_a_map", path=path))
        return data


def _canonical_keys(raw: dict[str, Any], agent_id: str) -> dict[str, Any]:
    """The store re-keyed by canonical key (OPENCLAW-STORE.md); a key already canonical wins over its legacy twin."""
    if all(key.startswith("agent:") for key in raw):
        return raw
    keyed: dict[str, Any] = {}
    for key, value in raw.items():
        canonical = canonical_session_key(key, agent_id)
        if canonical != key and canonical in raw:
            continue
        keyed[canonical] = value
    return keyed


def agent_of_folder(sessions_dir: Path) -> str | None:
    """The agent a ``<state>/agents/<agentId>/sessions`` folder belongs to; None for any other folder."""
    parts = Path(sessions_dir).parts
    if len(parts) >= 3 and parts[-1] == "sessions" and parts[-3] == "agents":
        return parts[-2]
    return None


def _directory_names(folder: Path) -> frozenset[str]:
    try:
        with os.scandir(folder) as listing:
            return frozenset(item.name for item in listing if item.name.endswith(TRANSCRIPT_SUFFIX))
    except OSError:
        return frozenset()


class _TranscriptResolver:
    """Maps an entry to its transcript path without touching the disk per entry."""

    def __init__(self, folder: Path, names: frozenset[str]) -> None:
        self.folder = folder
        self.names = names
        self._roots = {os.path.abspath(folder), os.path.realpath(folder)}

    def resolve(self, session_id: str, session_file: str | None, thread_id: str | None) -> Path | None:
        if session_file:
            inside = self._inside(session_file)
            if inside is not None and (inside.name in self.names or inside.exists()):
                return inside
            # A sessionFile outside the folder (a store copied from another host, or a hostile
            # entry) is never opened; the conventional name inside the folder is tried instead.
        if not _SAFE_NAME_PART.match(session_id) or ".." in session_id:
            return None
        if thread_id and _SAFE_NAME_PART.match(thread_id):
            topic_name = f"{session_id}-topic-{thread_id}{TRANSCRIPT_SUFFIX}"
            if topic_name in self.names:
                return self.folder / topic_name
        plain = f"{session_id}{TRANSCRIPT_SUFFIX}"
        return self.folder / plain if plain in self.names else None

    def _inside(self, session_file: str) -> Path | None:
        if "\x00" in session_file:
            return None
        joined = os.path.normpath(os.path.join(self.folder, os.path.expanduser(session_file)))
        absolute = os.path.abspath(joined)
        for root in self._roots:
            if absolute != root and os.path.commonpath([absolute, root]) == root:
                return Path(absolute)
        return None


def _unique(values: Iterator[str | None] | Any) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for value in values:
        if value:
            seen.setdefault(value, None)
    return tuple(seen)


def _id_text(value: str | float | None) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else None
    text = str(value).strip()
    return text or None


def _chat_from_address(*addresses: str | int | None) -> str | None:
    """The chat id in a delivery address such as ``telegram:-100123`` or ``group:-100123:topic:7``."""
    for address in addresses:
        if address is None:
            continue
        for token in str(address).split(":"):
            if token.lower() in _ADDRESS_WORDS or not token:
                continue
            if _NUMERIC_ID.match(token) or token.startswith("@"):
                return token
            break
    return None


def _millis(value: float | str | None) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        # nan, inf and 1e20 are no time: keep within what datetime can show (year < 5000)
        return int(value) if 0 < value < MAX_EPOCH_MS else None
    try:
        millis = int(datetime.fromisoformat(value).timestamp() * 1000)
    except (ValueError, OverflowError, OSError):
        return None
    return millis if 0 < millis < MAX_EPOCH_MS else None


# ---- transcripts ------------------------------------------------------------------------------


def iter_lines_backwards(
    path: Path, *, block_bytes: int = BLOCK_BYTES, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[bytes | None]:
    """Yield a file's lines last to first, reading blocks from the end.

    An over-long line is yielded as ``None`` (skipped by the caller) and never held
    in memory whole, so memory stays bounded by ``max_line_bytes`` + one block.
    """
    with open(path, "rb") as handle:
        position = handle.seek(0, os.SEEK_END)
        partial = b""  # the end of a line whose start is further back
        oversized = False
        while position > 0:
            step = min(block_bytes, position)
            position -= step
            handle.seek(position)
            block = handle.read(step)
            if oversized:
                newline = block.rfind(b"\n")
                if newline < 0:
                    continue
                yield None
                oversized = False
                block = block[:newline]
                partial = b""
            else:
                block += partial
            lines = block.split(b"\n")
            partial = lines[0]
            yield from reversed(lines[1:])
            if len(partial) > max_line_bytes:
                oversized, partial = True, b""
        if oversized:
            yield None
        elif partial:
            yield partial


def read_transcript_tail(path: Path, limit: int) -> Transcript:
    """The last ``limit`` user/assistant messages of a pi transcript, oldest first (DESIGN §4).

    The conversation rules (header, reset, rewind, retries, edits) are the shared
    :class:`~savenow.sessions.window.TailCollector`'s, the same for the SQLite store.
    """
    collector = TailCollector(limit)
    malformed = 0
    scanned = 0
    stopped = False
    deadline = time.monotonic() + MAX_TAIL_SCAN_S
    for raw in iter_lines_backwards(path):
        if raw is None:
            malformed += 1
            continue
        line = raw.strip()
        if not line:
            continue
        if len(line) > _CHEAP_SKIP_BYTES and b'"toolResult"' in line[:512]:
            collector.count_unparsed_message()  # a huge tool result: never shown, not worth parsing
            continue
        scanned += len(raw) + 1
        if scanned > MAX_TAIL_SCAN_BYTES or time.monotonic() > deadline:
            stopped = (
                True  # junk after the conversation: stop looking further back (bounded by bytes and time)
            )
            break
        if not line.startswith(b"{"):
            malformed += 1  # not a JSON object, whatever it parses as: no need to parse it
            continue
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):  # RecursionError: a line nested thousands deep
            malformed += 1
            continue
        if not isinstance(obj, dict):
            malformed += 1
            continue
        if not collector.add(obj):
            break
    collector.end_window()
    return collector.transcript(malformed, scan_stopped=stopped)


def transcript_has_user_message(path: Path, head_bytes: int = HEAD_PROBE_BYTES) -> bool:
    """Scan the first ``head_bytes`` for a user message with visible text."""
    with open(path, "rb") as handle:
        head = handle.read(head_bytes)
        truncated = bool(handle.read(1))
    lines = head.split(b"\n")
    if truncated:
        lines = lines[:-1]  # the last piece may be cut mid-line
    for line in lines:
        if b'"user"' not in line:
            continue
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):
            continue
        message = message_from_line(obj)
        if message is not None and message.role == "user":
            return True
    return truncated
