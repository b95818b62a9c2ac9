"""Build OpenClaw SQLite-era stores for tests, following OPENCLAW-STORE.md (our own DDL, two layouts).

* ``schema=8``: session tables without compression (the first shipped session schema);
* ``schema=24``: ``STRICT`` tables, ``event_json`` nullable beside ``event_zstd`` /
  ``event_utf8_bytes``, and cold archives.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zstandard

from .storegen import BASE_MS, header

_ids = itertools.count(1)

SCHEMA_8 = """
CREATE TABLE schema_meta (meta_key TEXT PRIMARY KEY, role TEXT NOT NULL, schema_version INTEGER NOT NULL,
  agent_id TEXT, app_version TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE session_nodes (session_key TEXT PRIMARY KEY, current_session_id TEXT NOT NULL,
  entry_json TEXT NOT NULL, updated_at INTEGER NOT NULL, archived_at INTEGER, last_interaction_at INTEGER,
  label TEXT, display_name TEXT, parent_session_key TEXT, spawned_by TEXT);
CREATE TABLE session_key_contract (id INTEGER PRIMARY KEY, main_key TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE session_windows (session_id TEXT PRIMARY KEY, session_key TEXT NOT NULL, previous_session_id TEXT,
  reason TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, chat_type TEXT, channel TEXT,
  account_id TEXT, primary_conversation_id TEXT);
CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT NOT NULL,
  created_at INTEGER NOT NULL, PRIMARY KEY (session_id, seq));
"""

SCHEMA_24 = """
CREATE TABLE schema_meta (meta_key TEXT NOT NULL PRIMARY KEY, role TEXT NOT NULL, schema_version INTEGER NOT NULL,
  agent_id TEXT, app_version TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT;
CREATE TABLE session_nodes (session_key TEXT NOT NULL PRIMARY KEY, current_session_id TEXT NOT NULL,
  entry_json TEXT NOT NULL, entry_valid INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL, status TEXT,
  created_at INTEGER, parent_session_key TEXT, spawned_by TEXT, label TEXT, display_name TEXT,
  archived_at INTEGER, last_read_at INTEGER, last_interaction_at INTEGER, last_activity_at INTEGER) STRICT;
CREATE INDEX idx_nodes_active ON session_nodes(session_key) WHERE archived_at IS NULL;
CREATE TABLE session_key_contract (id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1), main_key TEXT NOT NULL,
  updated_at INTEGER NOT NULL) STRICT;
CREATE TABLE session_windows (session_id TEXT NOT NULL PRIMARY KEY, session_key TEXT NOT NULL,
  previous_session_id TEXT, reason TEXT, session_scope TEXT NOT NULL DEFAULT 'conversation',
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, chat_type TEXT, channel TEXT, account_id TEXT,
  primary_conversation_id TEXT) STRICT;
CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT,
  created_at INTEGER NOT NULL, event_zstd BLOB, event_utf8_bytes INTEGER, navigation_json TEXT,
  PRIMARY KEY (session_id, seq)) STRICT;
CREATE TABLE session_transcript_cold_archives (session_id TEXT NOT NULL PRIMARY KEY, generation TEXT NOT NULL,
  archive_name TEXT NOT NULL UNIQUE, archive_sha256 TEXT NOT NULL, event_count INTEGER NOT NULL,
  raw_bytes INTEGER NOT NULL, archive_bytes INTEGER NOT NULL, last_seq INTEGER NOT NULL,
  archived_at INTEGER NOT NULL, storage TEXT NOT NULL, archive_blob BLOB) STRICT;
"""

COMPRESS_FROM_BYTES = 1024  # OpenClaw compresses eligible events from 1 KiB


@dataclass
class SqliteStoreBuilder:
    """Rows for one agent database under ``state_dir``; :meth:`write` creates it in WAL mode and closes it."""

    state_dir: Path
    agent_id: str = "main"
    schema: int = 24
    nodes: list[tuple[Any, ...]] = field(default_factory=list)
    windows: list[tuple[Any, ...]] = field(default_factory=list)
    events: list[tuple[Any, ...]] = field(default_factory=list)
    archives: list[tuple[Any, ...]] = field(default_factory=list)

    @property
    def db_path(self) -> Path:
        return self.state_dir / "agents" / self.agent_id / "agent" / "openclaw-agent.sqlite"

    def add(
        self,
        key: str,
        lines: list[dict[str, Any]] | None,
        *,
        session_id: str | None = None,
        updated_at: int = BASE_MS,
        archived: bool = False,
        label: str | None = None,
        reason: str = "initial",
        previous: str | None = None,
        **entry: Any,
    ) -> str:
        """A session key whose current window holds ``lines`` (a header event is written first)."""
        session_id = session_id or f"sqlsess-{next(_ids):06d}"
        entry_json = json.dumps({"sessionId": session_id, "updatedAt": updated_at, **entry})
        self.nodes.append(
            (key, session_id, entry_json, updated_at, updated_at + 1 if archived else None, label)
        )
        self.window(key, session_id, lines, reason=reason, previous=previous, updated_at=updated_at)
        return session_id

    def window(
        self,
        key: str,
        session_id: str,
        lines: list[dict[str, Any]] | None,
        *,
        reason: str = "initial",
        previous: str | None = None,
        updated_at: int = BASE_MS,
    ) -> None:
        """One transcript generation; ``lines=None`` writes no event rows (an archived-to-cold window)."""
        self.windows.append((session_id, key, previous, reason, updated_at, updated_at))
        if lines is None:
            return
        for seq, line in enumerate([header(session_id), *lines]):
            self.events.append((session_id, seq, json.dumps(line, ensure_ascii=False)))

    def cold_archive(
        self, session_id: str, lines: list[dict[str, Any]], *, storage: str = "sqlite"
    ) -> Path | None:
        """The window's events as a zstd JSONL archive, in a blob or under ``sessions/cold/``."""
        raw = "".join(
            json.dumps(line, ensure_ascii=False) + "\n" for line in [header(session_id), *lines]
        ).encode()
        frame = zstandard.ZstdCompressor().compress(raw)
        name = f"{session_id}.jsonl.zst"
        path = None
        if storage == "file":
            path = self.state_dir / "agents" / self.agent_id / "sessions" / "cold" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(frame)
        blob = frame if storage == "sqlite" else None
        self.archives.append(
            (session_id, "g1", name, "0" * 64, len(lines) + 1, len(raw), len(frame), 0, 1, storage, blob)
        )
        return path

    def write(self, *, meta_version: int | None = None, extra_sql: str = "") -> Path:
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.db_path)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(SCHEMA_24 if self.schema >= 23 else SCHEMA_8)
            if extra_sql:
                conn.executescript(extra_sql)
            version = meta_version if meta_version is not None else self.schema
            conn.execute(
                "INSERT INTO schema_meta VALUES ('primary', 'agent', ?, ?, '2026.9.7', 0, 0)",
                (version, self.agent_id),
            )
            conn.execute(f"PRAGMA user_version = {int(version)}")
            conn.execute("INSERT INTO session_key_contract VALUES (1, 'main', 0)")
            conn.executemany(
                "INSERT INTO session_nodes (session_key, current_session_id, entry_json, updated_at, archived_at, "
                "label) VALUES (?, ?, ?, ?, ?, ?)",
                self.nodes,
            )
            conn.executemany(
                "INSERT INTO session_windows (session_id, session_key, previous_session_id, reason, created_at, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                self.windows,
            )
            for session_id, seq, text in self.events:
                self._insert_event(conn, session_id, seq, text)
            if self.archives:
                conn.executemany(
                    "INSERT INTO session_transcript_cold_archives VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    self.archives,
                )
            conn.commit()
        finally:
            conn.close()
        return self.db_path

    def _insert_event(self, conn: sqlite3.Connection, session_id: str, seq: int, text: str) -> None:
        raw = text.encode("utf-8")
        if self.schema >= 23 and len(raw) >= COMPRESS_FROM_BYTES:
            conn.execute(
                "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, "
                "event_utf8_bytes) VALUES (?, ?, NULL, 0, ?, ?)",
                (session_id, seq, zstandard.ZstdCompressor(level=1).compress(raw), len(raw)),
            )
        elif self.schema >= 23:
            conn.execute(
                "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) "
                "VALUES (?, ?, ?, 0, ?)",
                (session_id, seq, text, len(raw)),
            )
        else:
            conn.execute("INSERT INTO transcript_events VALUES (?, ?, ?, 0)", (session_id, seq, text))
