"""Kept for imports written before the storage package: the change log is :mod:`savenow.storage.journal`."""

from __future__ import annotations

from .storage.journal import (
    JOURNAL_NAME,
    Hunk,
    WriteRecord,
    journal_path,
    last_write,
    read_records,
    record_write,
    undo_last,
)

__all__ = [
    "JOURNAL_NAME",
    "Hunk",
    "WriteRecord",
    "journal_path",
    "last_write",
    "read_records",
    "record_write",
    "undo_last",
]
