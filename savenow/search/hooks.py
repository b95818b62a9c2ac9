"""The write path's one line: ``note_memory_write(workspace, path)`` after a successful write.

It re-indexes just that file, lexically, right away, so the next search finds what was written
(embeddings, if configured, are added by that next search). It never raises: a write must not
fail because of the index, which every search re-checks anyway. With no index yet it does
nothing (the first search builds one).
"""

from __future__ import annotations

import logging
from pathlib import Path

__all__ = ["note_memory_write"]

log = logging.getLogger(__name__)


def note_memory_write(workspace: Path, path: Path) -> None:
    if not (workspace / ".savenow" / "search.sqlite").exists():  # = store.index_path, without sqlite3
        return
    try:
        from .engine import MemorySearch
        from .options import SearchOptions

        try:
            rel = path.absolute().relative_to(workspace.absolute()).as_posix()
        except ValueError:
            return
        with MemorySearch(workspace, SearchOptions(), embedder=None) as search:
            search.sync(only=[rel])
    except Exception as exc:  # noqa: BLE001 - the write already succeeded; the next search catches up
        log.warning("search index not updated after writing %s: %s", path.name, type(exc).__name__)
