"""OpenClaw's SQLite-era session store (2026.8+), read only (OPENCLAW-STORE.md).

``<state>/agents/<agentId>/agent/openclaw-agent.sqlite`` holds one row per
session key in ``session_nodes`` (the file era's ``sessions.json`` entry in
``entry_json``), one row per transcript generation in ``session_windows`` and
the transcript itself in ``transcript_events`` (one event per ``seq``; from
schema 23 large events are one zstd frame in ``event_zstd``).

Reading while OpenClaw writes:

* **Never a write.** The database is opened as a ``mode=ro`` URI with
  ``PRAGMA query_only``; every read of one command runs in one read
  transaction, so it sees one consistent snapshot. ``database is locked``
  (a writer committing in rollback-journal mode, a checkpoint) is retried up to
  the busy timeout.
* **Nothing created beside it.** SQLite creates ``-wal``/``-shm`` files when a
  read-only connection opens a WAL database that has none. Those files are
  absent only when no connection has the database open, so then — and only
  then — the file is read as ``immutable`` (no locks, no side files), and the
  read counts only if the file's stat is unchanged and no ``-wal`` appeared by
  its end; otherwise it is read again the live way. A live file (its ``-wal``
  exists) is never opened ``immutable``.
* **Layout checked, not assumed.** ``schema_meta`` / ``user_version`` give the
  version; ``PRAGMA table_info`` gives the columns. A layout without the columns
  this reader needs is refused with :class:`~savenow.errors.UnsupportedSessionStoreError`
  naming the version found.

Conversation rules are the file era's (:class:`~savenow.sessions.window.TailCollector`):
events are fed newest first (``seq`` descending, read lazily from a cursor, so a
huge transcript costs what its tail costs). A generation that continues its
predecessor (``rollover``, ``compaction``, ``recovery``) is followed into the
previous window while messages are still wanted; a ``reset`` window starts a new
conversation. A window whose events went to a cold archive (schema 20+) is read
from the archive (an ``archive_blob`` or ``sessions/cold/<name>``).
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pydantic import ValidationError

from ..errors import SessionStoreBusyError, UnsupportedSessionStoreError
from .keys import canonical_session_key, chat_id_from_key
from .openclaw import _ENTRY, _millis, _raw_chat_id, entry_place
from .store import SessionInfo, Transcript
from .transcript import message_from_line
from .window import TailCollector

DB_NAME = "openclaw-agent.sqlite"
SOURCE = "openclaw-sqlite"
MIN_SESSION_SCHEMA = 8  # schema 1 (2026.5.30–2026.7.x) has no session tables
DEFAULT_BUSY_TIMEOUT_S = 5.0
MAX_EVENT_BYTES = 16 * 1024 * 1024  # OpenClaw compresses events up to 4 MiB; anything past this is corrupt
MAX_ARCHIVE_LINES = 50_000  # the tail of a cold archive kept while streaming it
MAX_WINDOWS = 32  # continuation windows followed back
CONTINUING_REASONS = frozenset({"rollover", "compaction", "recovery"})
HEAD_PROBE_EVENTS = 400
_CHEAP_SKIP_CHARS = 8 * 1024  # compressed events are 1 KiB–4 MiB; most big ones are tool output

_REQUIRED = {
    "session_nodes": ("session_key", "current_session_id", "entry_json", "updated_at", "archived_at"),
    "transcript_events": ("session_id", "seq", "event_json"),
}


@dataclass(frozen=True)
class Layout:
    """What this database holds, from its version markers and ``PRAGMA table_info``."""

    schema_version: int | None
    compressed: bool  # event_zstd + event_utf8_bytes (schema 23+)
    windows: bool  # session_windows with previous_session_id and reason
    cold_archives: bool  # session_transcript_cold_archives (schema 20+)


class _Rows:
    """One parse of session_nodes (non-archived), a chat index, SessionInfo built on demand."""

    def __init__(
        self, signature: tuple[int, ...], rows: list[tuple[Any, ...]], agent_id: str, main_key: str | None
    ) -> None:
        self.signature = signature
        # session_key_contract.main_key: the agent's main session is agent:<id>:<main_key>
        self.main_alias = (
            (f"agent:{agent_id}:main", f"agent:{agent_id}:{main_key}")
            if main_key and main_key != "main"
            else None
        )
        self.raw: dict[str, tuple[str, str, int | None, str | None]] = {}
        self.by_chat: dict[str, list[str]] = {}
        for key, session_id, entry_json, updated_at, label in rows:
            canonical = canonical_session_key(str(key), agent_id)
            if canonical != key and canonical in self.raw:
                continue
            self.raw[canonical] = (str(session_id), str(entry_json or "{}"), updated_at, label)
        for key, (_, entry_json, _, _) in self.raw.items():
            chat = chat_id_from_key(key)
            if chat is None:
                chat = _raw_chat_id(key, _loads(entry_json))
            if chat is not None:
                self.by_chat.setdefault(chat, []).append(key)
        self._infos: dict[str, SessionInfo | None] = {}
        self._lock = threading.Lock()
        self.probed: dict[str, bool] = {}  # session id -> has a user message, for this version of the file

    def info(self, key: str) -> SessionInfo | None:
        if self.main_alias is not None and key == self.main_alias[0] and key not in self.raw:
            key = self.main_alias[1]
        if key in self._infos:
            return self._infos[key]
        row = self.raw.get(key)
        found = None if row is None else _session_info(key, *row)
        with self._lock:
            self._infos[key] = found
        return found

    def all(self) -> list[SessionInfo]:
        return [info for key in self.raw if (info := self.info(key)) is not None]


_STALE = object()  # an immutable read that cannot be trusted
_ROWS: dict[tuple[str, str], _Rows] = {}
_ROWS_LOCK = threading.Lock()


class OpenClawSqliteStore:
    """One agent's ``openclaw-agent.sqlite``; a missing file is an empty store."""

    source = SOURCE

    def __init__(
        self,
        db_path: Path,
        *,
        agent_id: str = "main",
        busy_timeout_s: float = DEFAULT_BUSY_TIMEOUT_S,
        on_retry: Callable[[int], None] | None = None,
    ) -> None:
        self.db_path = Path(db_path).expanduser()
        self.agent_id = agent_id
        self.busy_timeout_s = busy_timeout_s
        self._on_retry = on_retry  # tests: told each time a locked read is retried
        # <state>/agents/<id>/agent/openclaw-agent.sqlite → <state>/agents/<id>/sessions/cold
        self.cold_dir = self.db_path.parent.parent / "sessions" / "cold"

    # -- the SessionStore interface --

    def list_sessions(self) -> list[SessionInfo]:
        rows = self._rows()
        return rows.all() if rows else []

    def get(self, key: str) -> SessionInfo | None:
        rows = self._rows()
        return rows.info(canonical_session_key(key, self.agent_id)) if rows else None

    def read_messages(self, info: SessionInfo, limit: int) -> Transcript:
        if limit <= 0 or not self.db_path.is_file():
            return Transcript(messages=[])
        return self._read(lambda conn, layout: self._tail(conn, layout, info.session_id, limit))

    # -- capabilities (store.ChatIndex, store.UserMessageProbe) --

    def sessions_in_chat(self, chat_id: str) -> list[SessionInfo]:
        rows = self._rows()
        if rows is None:
            return []
        return [info for key in rows.by_chat.get(chat_id, ()) if (info := rows.info(key)) is not None]

    def probe_user_message(self, info: SessionInfo) -> bool:
        """A user message among the first events (in seq order) of the live window; a longer one is presumed."""
        if info.has_user_message is not None:
            return info.has_user_message
        rows = self._rows()
        if rows is None:
            return False
        known = rows.probed.get(info.session_id)
        if known is None:  # asked again while the database is unchanged: the same answer
            known = bool(self._read(lambda conn, layout: _probe(conn, layout, info.session_id)))
            rows.probed[info.session_id] = known
        return known

    # -- reading --

    def _rows(self) -> _Rows | None:
        signature = self._signature()
        if signature is None:
            return None
        cache_key = (os.path.abspath(self.db_path), self.agent_id)
        with _ROWS_LOCK:
            cached = _ROWS.get(cache_key)
            if cached is not None and cached.signature == signature:
                return cached
        rows, main_key = self._read(_session_rows)
        snapshot = _Rows(signature, rows, self.agent_id, main_key)
        with _ROWS_LOCK:
            _ROWS[cache_key] = snapshot
        return snapshot

    def _signature(self) -> tuple[int, ...] | None:
        return _file_signature(self.db_path)

    def _read(self, work: Callable[[sqlite3.Connection, Layout], Any]) -> Any:
        """Run ``work`` in one read transaction; retried while the database is locked."""
        deadline = time.monotonic() + self.busy_timeout_s
        attempt = 0
        while True:
            try:
                return self._read_once(work)
            except sqlite3.OperationalError as exc:
                if not _is_locked(exc):
                    raise UnsupportedSessionStoreError.unreadable(self.db_path, str(exc)) from exc
                attempt += 1
                if attempt > 1 and time.monotonic() >= deadline:  # always one retry: the lock may be brief
                    raise SessionStoreBusyError.for_path(self.db_path, self.busy_timeout_s) from exc
                if self._on_retry is not None:
                    self._on_retry(attempt)
                time.sleep(min(0.05 * attempt, 0.25))
            except sqlite3.DatabaseError as exc:
                raise UnsupportedSessionStoreError.unreadable(self.db_path, str(exc)) from exc

    def _read_once(self, work: Callable[[sqlite3.Connection, Layout], Any]) -> Any:
        if _is_quiescent_wal(self.db_path):
            before = _stat_or_none(self.db_path)
            try:
                result = self._transaction(work, immutable=True)
            except UnsupportedSessionStoreError:
                raise  # the layout, not the timing: reading again would say the same
            except sqlite3.DatabaseError:
                result = _STALE  # a writer changed the file under the immutable read
            if result is not _STALE and _unchanged_and_still_quiescent(self.db_path, before):
                return result
            # A writer opened the database meanwhile: what the immutable read saw may be stale.
        return self._transaction(work, immutable=False)

    def _transaction(self, work: Callable[[sqlite3.Connection, Layout], Any], *, immutable: bool) -> Any:
        conn = _connect(self.db_path, immutable=immutable, busy_timeout_s=self.busy_timeout_s)
        try:
            conn.execute("BEGIN")  # deferred: the first SELECT takes the snapshot every read shares
            result = work(conn, _layout(conn, self.db_path))
            conn.execute("COMMIT")
            return result
        finally:
            conn.close()

    def _tail(self, conn: sqlite3.Connection, layout: Layout, session_id: str, limit: int) -> Transcript:
        collector = TailCollector(limit)
        malformed = 0
        window: str | None = session_id
        visited: set[str] = set()
        while window is not None and window not in visited and len(visited) < MAX_WINDOWS:
            visited.add(window)
            had_events = False
            for entry in _events_newest_first(conn, layout, window):
                had_events = True
                if entry is None:
                    malformed += 1
                elif entry is _UNPARSED_MESSAGE:
                    collector.count_unparsed_message()
                elif not collector.add(entry):
                    break
            if not had_events and layout.cold_archives:
                for entry in self._cold_archive_newest_first(conn, window):
                    if entry is None:
                        malformed += 1
                    elif not collector.add(entry):
                        break
            collector.end_window()
            if collector.done:
                break
            window = _previous_if_continuing(conn, layout, window)
        return collector.transcript(malformed)

    def _cold_archive_newest_first(
        self, conn: sqlite3.Connection, session_id: str
    ) -> Iterator[dict[str, Any] | None]:
        row = conn.execute(
            "SELECT archive_name, storage, archive_blob, raw_bytes FROM session_transcript_cold_archives "
            "WHERE session_id = ?",
            (session_id,),
        ).fetchone()
        if row is None:
            return
        name, storage, blob, raw_bytes = row
        if storage == "sqlite" and isinstance(blob, bytes):
            source: io.BufferedIOBase | io.BytesIO = io.BytesIO(blob)
        else:
            path = self._cold_file(str(name or ""))
            if path is None:
                return
            source = open(path, "rb")  # noqa: SIM115 - closed below
        try:
            lines = _zstd_tail_lines(source, raw_bytes)
        finally:
            source.close()
        for line in reversed(lines):
            yield _parse_event(line)

    def _cold_file(self, name: str) -> Path | None:
        if not name or name in (".", "..") or "/" in name or "\\" in name or "\x00" in name:
            return None
        for candidate in (self.cold_dir / name, self.cold_dir / f"{name}.jsonl.zst"):
            if candidate.is_file() and not candidate.is_symlink():
                return candidate
        return None


# ---- connection and layout --------------------------------------------------------------------


def _connect(path: Path, *, immutable: bool, busy_timeout_s: float) -> sqlite3.Connection:
    uri = f"file:{quote(os.path.abspath(path))}?mode=ro" + ("&immutable=1" if immutable else "")
    conn = sqlite3.connect(
        uri, uri=True, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False
    )
    conn.execute("PRAGMA query_only = ON")
    return conn


def _file_signature(path: Path) -> tuple[int, ...] | None:
    """Changes whenever a writer commits: the database file's stat and its -wal's."""
    try:
        stat = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    wal = _stat_or_none(_side_file(path, "-wal"))
    wal_part = (wal.st_mtime_ns, wal.st_size) if wal else (0, -1)
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino, *wal_part)


def _side_file(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None


def _is_quiescent_wal(path: Path) -> bool:
    """A WAL database no connection has open (no -wal, no -shm): reading it the usual way would create them."""
    try:
        with open(path, "rb") as handle:
            header = handle.read(20)
    except OSError:
        return False
    is_wal = len(header) == 20 and header[:16] == b"SQLite format 3\x00" and header[18] == 2
    return (
        is_wal
        and not _side_file(path, "-wal").exists()
        and not _side_file(path, "-shm").exists()
        and not _side_file(path, "-journal").exists()
    )


def _unchanged_and_still_quiescent(path: Path, before: os.stat_result | None) -> bool:
    after = _stat_or_none(path)
    if before is None or after is None:
        return False
    same = (before.st_mtime_ns, before.st_size, before.st_ino) == (
        after.st_mtime_ns,
        after.st_size,
        after.st_ino,
    )
    return same and not _side_file(path, "-wal").exists()


def _is_locked(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")}


_LAYOUTS: dict[tuple[str, tuple[int, ...]], Layout] = {}


def _layout(conn: sqlite3.Connection, path: Path) -> Layout:
    """The database's layout, checked once per version of the file (its stat signature)."""
    signature = _file_signature(path)
    cache_key = (os.path.abspath(path), signature) if signature is not None else None
    if cache_key is not None and (known := _LAYOUTS.get(cache_key)) is not None:
        return known
    layout = _check_layout(conn, path)
    if cache_key is not None:
        _LAYOUTS.clear()  # one current version per process is plenty
        _LAYOUTS[cache_key] = layout
    return layout


def _check_layout(conn: sqlite3.Connection, path: Path) -> Layout:
    version = _schema_version(conn)
    missing = [
        f"{table}.{column}"
        for table, needed in _REQUIRED.items()
        for column in needed
        if column not in _columns(conn, table)
    ]
    if missing or (version is not None and version < MIN_SESSION_SCHEMA):
        raise UnsupportedSessionStoreError.for_layout(path, version, missing)
    events = _columns(conn, "transcript_events")
    compressed = "event_zstd" in events
    if compressed and "event_utf8_bytes" not in events:
        raise UnsupportedSessionStoreError.for_layout(path, version, ["transcript_events.event_utf8_bytes"])
    windows = {"session_id", "previous_session_id", "reason"} <= _columns(conn, "session_windows")
    cold = {"session_id", "archive_name", "storage", "archive_blob"} <= _columns(
        conn, "session_transcript_cold_archives"
    )
    return Layout(schema_version=version, compressed=compressed, windows=windows, cold_archives=cold)


def _schema_version(conn: sqlite3.Connection) -> int | None:
    """schema_meta's primary row when there is one, else PRAGMA user_version (0 = unset)."""
    if "schema_version" in _columns(conn, "schema_meta"):
        row = conn.execute("SELECT schema_version FROM schema_meta WHERE meta_key = 'primary'").fetchone()
        if row is not None and isinstance(row[0], int):
            return row[0]
    user_version = conn.execute("PRAGMA user_version").fetchone()[0]
    return int(user_version) if user_version else None


# ---- rows --------------------------------------------------------------------------------------


def _session_rows(conn: sqlite3.Connection, layout: Layout) -> tuple[list[tuple[Any, ...]], str | None]:
    """The live (non-archived) session rows, and the main key alias when the database records one."""
    columns = _columns(conn, "session_nodes")
    label = "coalesce(display_name, label)" if {"display_name", "label"} <= columns else "NULL"
    rows = conn.execute(
        f"SELECT session_key, current_session_id, entry_json, updated_at, {label} "
        "FROM session_nodes WHERE archived_at IS NULL"
    ).fetchall()
    main_key = None
    if "main_key" in _columns(conn, "session_key_contract"):
        found = conn.execute("SELECT main_key FROM session_key_contract WHERE id = 1").fetchone()
        main_key = str(found[0]) if found and found[0] else None
    return rows, main_key


def _session_info(
    key: str, session_id: str, entry_json: str, updated_at: int | None, label: str | None
) -> SessionInfo | None:
    value = _loads(entry_json)
    if not isinstance(value, dict):
        value = {}
    try:
        entry = _ENTRY.validate_python({**value, "sessionId": session_id})
    except ValidationError:
        return None
    _, thread_ids, chat_id, chat_type = entry_place(key, entry)
    return SessionInfo(
        key=key,
        session_id=session_id,
        updated_at_ms=_millis(updated_at) or _millis(entry.updatedAt),
        chat_type=chat_type,
        thread_id=thread_ids[0] if thread_ids else None,
        transcript_path=None,
        source=SOURCE,
        has_user_message=None,
        chat_id=chat_id,
        thread_ids=thread_ids,
        label=label or entry.displayName or entry.subject or entry.label,
    )


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


# ---- events ------------------------------------------------------------------------------------

_UNPARSED_MESSAGE: dict[str, Any] = {"type": "message", "unparsed": True}  # a huge tool result


def _event_columns(layout: Layout) -> str:
    return (
        "seq, event_json, event_zstd, event_utf8_bytes"
        if layout.compressed
        else "seq, event_json, NULL, NULL"
    )


def _events_newest_first(
    conn: sqlite3.Connection, layout: Layout, session_id: str
) -> Iterator[dict[str, Any] | None]:
    cursor = conn.execute(
        f"SELECT {_event_columns(layout)} FROM transcript_events WHERE session_id = ? ORDER BY seq DESC",
        (session_id,),
    )
    try:
        for _seq, text, frame, size in cursor:
            yield _event(text, frame, size)
    finally:
        cursor.close()  # a reader that stopped early must not hold the statement open past COMMIT


def _event(text: Any, frame: Any, size: Any) -> dict[str, Any] | None:
    if isinstance(frame, bytes) and not isinstance(text, str):
        if not (isinstance(size, int) and 0 < size <= MAX_EVENT_BYTES):
            return None
        text = _decompress_event(frame, size)
    if not isinstance(text, str):
        return None  # neither representation, or a damaged frame: skipped and counted
    if len(text) > _CHEAP_SKIP_CHARS and '"toolResult"' in text[:512]:
        return _UNPARSED_MESSAGE  # a big tool result is never shown: not worth a JSON parse
    return _parse_event(text)


def _decompress_event(frame: bytes, size: int) -> str | None:
    """One zstd frame, capped at its recorded UTF-8 size and decoded strictly."""
    import zstandard

    try:
        raw = _decompressor().decompress(frame, max_output_size=size)
    except zstandard.ZstdError:
        return None
    if len(raw) != size:
        return None
    try:
        return raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        return None


_PER_THREAD = threading.local()


def _decompressor() -> Any:
    """One zstd context per thread (they are not thread-safe; making one per event costs more than decoding)."""
    found = getattr(_PER_THREAD, "decompressor", None)
    if found is None:
        import zstandard

        found = _PER_THREAD.decompressor = zstandard.ZstdDecompressor()
    return found


def _parse_event(text: str | bytes) -> dict[str, Any] | None:
    try:
        obj = json.loads(text)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def _previous_if_continuing(conn: sqlite3.Connection, layout: Layout, session_id: str) -> str | None:
    if not layout.windows:
        return None
    row = conn.execute(
        "SELECT previous_session_id, reason FROM session_windows WHERE session_id = ?", (session_id,)
    ).fetchone()
    if row is None or row[1] not in CONTINUING_REASONS or not row[0]:
        return None
    return str(row[0])


def _zstd_tail_lines(source: Any, raw_bytes: Any) -> list[bytes]:
    """The last lines of a zstd-compressed JSONL stream, decompressed in pieces (bounded memory)."""
    import zstandard

    cap = raw_bytes if isinstance(raw_bytes, int) and raw_bytes > 0 else None
    tail: deque[bytes] = deque(maxlen=MAX_ARCHIVE_LINES)
    partial = b""
    total = 0
    try:
        with zstandard.ZstdDecompressor().stream_reader(source, read_across_frames=True) as reader:
            while True:
                chunk = reader.read(256 * 1024)
                if not chunk:
                    break
                total += len(chunk)
                if cap is not None and total > cap:
                    break  # more than the archive row says it holds: stop at what it promised
                pieces = (partial + chunk).split(b"\n")
                partial = pieces.pop()
                tail.extend(piece for piece in pieces if piece.strip())
    except zstandard.ZstdError:
        pass  # a damaged archive: keep what decoded
    if partial.strip():
        tail.append(partial)
    return list(tail)


def _probe(conn: sqlite3.Connection, layout: Layout, session_id: str) -> bool:
    cursor = conn.execute(
        f"SELECT {_event_columns(layout)} FROM transcript_events WHERE session_id = ? ORDER BY seq LIMIT ?",
        (session_id, HEAD_PROBE_EVENTS + 1),
    )
    seen = 0
    try:
        for _seq, text, frame, size in cursor:  # lazily: most sessions show a user message in a few rows
            seen += 1
            if seen > HEAD_PROBE_EVENTS:
                return True  # a long transcript whose head shows none: presumed, as for files
            if isinstance(text, str) and '"user"' not in text:
                continue
            entry = _event(text, frame, size)
            if entry is None or entry is _UNPARSED_MESSAGE:
                continue
            message = message_from_line(entry)
            if message is not None and message.role == "user":
                return True
    finally:
        cursor.close()
    if not seen and layout.cold_archives:
        row = conn.execute(
            "SELECT 1 FROM session_transcript_cold_archives WHERE session_id = ?", (session_id,)
        ).fetchone()
        return row is not None  # an archived window is not empty
    return False


def database_path(state_dir: Path, agent_id: str) -> Path:
    """Where OpenClaw 2026.8+ keeps an agent's sessions."""
    return Path(state_dir).expanduser() / "agents" / agent_id / "agent" / DB_NAME
