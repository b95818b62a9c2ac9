"""The search index on disk: ``<workspace>/.savenow/search.sqlite`` (standard-library sqlite3).

Derived data only: the Markdown files are the truth, so anything wrong with this file (corrupt,
written by a newer savenow, unreadable) is answered by deleting it and indexing again.
``PRAGMA user_version`` holds the schema version; :data:`MIGRATIONS` moves an older file forward
one step at a time.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

__all__ = ["INDEX_FILE", "SCHEMA_VERSION", "IndexStore", "index_path"]

INDEX_FILE = "search.sqlite"

# Step n turns a version n-1 file into version n. Never edit a released step: append one.
MIGRATIONS: dict[int, list[str]] = {
    1: [
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE files (path TEXT PRIMARY KEY, source TEXT NOT NULL, size INTEGER NOT NULL,
               mtime_ns INTEGER NOT NULL, hash TEXT NOT NULL, day TEXT)""",
        """CREATE TABLE chunks (id INTEGER PRIMARY KEY, path TEXT NOT NULL, source TEXT NOT NULL,
               start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, hash TEXT NOT NULL,
               heading TEXT NOT NULL, text TEXT NOT NULL, length INTEGER NOT NULL, day TEXT)""",
        "CREATE INDEX chunks_by_path ON chunks (path)",
        # dl (the chunk's length) is repeated here so that ranking needs no join. There is no index
        # by chunk: a file's postings are deleted by re-tokenizing its chunks (a third of the size).
        """CREATE TABLE postings (term TEXT NOT NULL, chunk_id INTEGER NOT NULL, tf INTEGER NOT NULL,
               dl INTEGER NOT NULL, PRIMARY KEY (term, chunk_id)) WITHOUT ROWID""",
        """CREATE TABLE embeddings (provider TEXT NOT NULL, model TEXT NOT NULL, hash TEXT NOT NULL,
               vector BLOB NOT NULL, PRIMARY KEY (provider, model, hash)) WITHOUT ROWID""",
    ],
    # Who is who, as the files say it (search/aliases.py): one row per label group, a JSON list.
    2: [
        "CREATE TABLE aliases (id INTEGER PRIMARY KEY, path TEXT NOT NULL, labels TEXT NOT NULL)",
        "CREATE INDEX aliases_by_path ON aliases (path)",
    ],
    # A file's ctime (only the kernel sets it): a same-size rewrite with its mtime set back is seen.
    # -1 for the files already indexed: the next scan re-hashes them once (nothing is re-chunked).
    3: ["ALTER TABLE files ADD COLUMN ctime_ns INTEGER NOT NULL DEFAULT -1"],
}
SCHEMA_VERSION = max(MIGRATIONS)


def index_path(workspace: Path) -> Path:
    return workspace / ".savenow" / INDEX_FILE


class IndexStore:
    """An open index; :meth:`open` repairs or rebuilds whatever it cannot use."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self.db = connection
        self.path = path

    @classmethod
    def open(cls, path: Path) -> IndexStore:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return cls(cls._connect_and_migrate(path), path)
        except sqlite3.DatabaseError:
            # Corrupt, truncated, or not SQLite at all: it is derived data, so start again.
            cls._remove(path)
            return cls(cls._connect_and_migrate(path), path)

    @staticmethod
    def _remove(path: Path) -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                Path(str(path) + suffix).unlink()

    @classmethod
    def _connect_and_migrate(cls, path: Path) -> sqlite3.Connection:
        """A connection to an index of our schema. Opening one that is up to date costs one
        version read: it was put in WAL mode (persistent) before its first migration, and damage
        past the header shows in the first real query, which the engine answers by rebuilding."""
        db = cls._connect(path)
        try:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            if version == SCHEMA_VERSION:
                return db
            if version > SCHEMA_VERSION:  # a newer savenow wrote it: ours cannot read it, rebuild
                db.close()
                cls._remove(path)
                db = cls._connect(path)
                version = 0
            db.execute("PRAGMA journal_mode=WAL")
            cls._migrate(db, version)
            db.execute("SELECT count(*) FROM files").fetchone()  # a header-only corruption shows here
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
        # Per connection: WAL's durable-at-checkpoint mode is enough for derived data.
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    @staticmethod
    def _migrate(db: sqlite3.Connection, version: int) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            current = int(db.execute("PRAGMA user_version").fetchone()[0])  # another process may have won
            for step in range(max(version, current) + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[step]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {step}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self.db.close()

    # -- meta ---------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def clear_index(self) -> None:
        """Drop every file and chunk (the embedding cache stays: it is keyed by content)."""
        self.db.execute("DELETE FROM postings")
        self.db.execute("DELETE FROM aliases")
        self.db.execute("DELETE FROM chunks")
        self.db.execute("DELETE FROM files")
