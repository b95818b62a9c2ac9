"""How many messages ``/savenow list`` shows per session, counted once per transcript version.

The count is what :meth:`SessionCatalog.read_messages` returns for the preview's window (the cleaned
messages of the live conversation, at most ``limit``), so it needs the conversation rules of
:mod:`.window`, not a newline count. Reading and cleaning up to ``limit`` messages of every candidate
session is the cost of ``list``; the count of a transcript file that has not changed since — same
inode, size and mtime — is looked up instead:

* in this process (the bot answers every ``/savenow list`` from one process), and
* in ``<workspace>/.savenow/cache/message-counts.json`` for the next ``savenow list`` process:
  a cache, written best effort (atomically, under its lock, never failing the listing).

Counts of a scan that stopped at its byte or time bound, of symlinked transcripts (whose target
is checked on each read) and of stores without transcript files (SQLite) are never cached.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

from .store import SessionInfo, Transcript

CACHE_FILE = Path("cache") / "message-counts.json"  # under the workspace's .savenow/
MAX_ENTRIES = 4000  # transcripts remembered on disk; the newest counted are kept
_FORMAT = 1

Signature = tuple[int, int, int]  # inode, size, mtime_ns

_MEMORY: dict[tuple[str, int], tuple[Signature, int]] = {}  # (path, limit) -> (signature, count)
_MEMORY_LOCK = threading.Lock()


class MessageCounts:
    """Counts of one listing; :meth:`save` keeps the new ones for the next process."""

    def __init__(self, state_dir: Path | None) -> None:
        self._file = state_dir / CACHE_FILE if state_dir is not None else None
        self._workspace = state_dir.parent if state_dir is not None else None
        self._disk: dict[str, list[int]] | None = None
        self._new = 0

    def count(self, info: SessionInfo, limit: int, read: Callable[[], Transcript]) -> int:
        """``len(read().messages)``, from the cache when the transcript file is unchanged."""
        path = info.transcript_path
        signature = _signature(path) if path is not None else None
        if path is None or signature is None:
            return len(read().messages)
        key = (os.path.abspath(path), limit)
        with _MEMORY_LOCK:
            known = _MEMORY.get(key)
        if known is not None and known[0] == signature:
            return known[1]
        stored = self._on_disk().get(_disk_key(*key))
        if stored is not None and tuple(stored[:3]) == signature:
            count = stored[3]
        else:
            transcript = read()
            count = len(transcript.messages)
            if transcript.scan_stopped or _signature(path) != signature:
                return count  # bounded by time too, or written meanwhile: not this version's count
            self._on_disk()[_disk_key(*key)] = [*signature, count]
            self._new += 1
        with _MEMORY_LOCK:
            _MEMORY[key] = (signature, count)
        return count

    def save(self) -> None:
        """Write the new counts (best effort: a read-only or busy workspace just is not cached)."""
        if not self._new or self._file is None or self._workspace is None or not self._workspace.is_dir():
            return
        from ..errors import SaveNowError
        from ..storage.files import atomic_write
        from ..storage.locks import file_lock

        try:
            with file_lock(self._file, self._workspace, timeout_s=1):
                merged = {**_read(self._file), **(self._disk or {})}
                kept = dict(list(merged.items())[-MAX_ENTRIES:])
                self._file.parent.mkdir(parents=True, exist_ok=True)
                atomic_write(
                    self._file, json.dumps({"version": _version(), "counts": kept}), workspace=self._workspace
                )
        except (OSError, SaveNowError):
            return
        self._new = 0

    def _on_disk(self) -> dict[str, list[int]]:
        if self._disk is None:
            self._disk = _read(self._file) if self._file is not None else {}
        return self._disk


def _signature(path: Path) -> Signature | None:
    try:
        if path.is_symlink():
            return None
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def _version() -> str:
    """Counts follow the cleaning rules of the savenow that counted them."""
    from .. import __version__

    return f"{_FORMAT}:{__version__}"


def _disk_key(path: str, limit: int) -> str:
    return f"{limit}:{path}"


def _read(file: Path | None) -> dict[str, list[int]]:
    """The cache file's counts; anything unexpected is an empty cache, never an error."""
    if file is None:
        return {}
    try:
        data = json.loads(file.read_bytes())
    except (OSError, ValueError, RecursionError):
        return {}
    counts = data.get("counts") if isinstance(data, dict) and data.get("version") == _version() else None
    if not isinstance(counts, dict):
        return {}
    return {
        key: value
        for key, value in counts.items()
        if isinstance(key, str)
        and isinstance(value, list)
        and len(value) == 4
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value)
    }
