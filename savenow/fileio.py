"""Kept for imports written before the storage package: everything lives in :mod:`savenow.storage`."""

from __future__ import annotations

from .errors import LockTimeoutError
from .storage.files import (
    atomic_write,
    delete_file,
    fsync_dir,
    read_exact,
    read_json,
    refuse_memory_md,
    sha256_text,
)
from .storage.locks import (
    LOCK_TIMEOUT_S,
    STATE_DIR_NAME,
    default_locks_dir,
    file_lock,
    lock_path_for,
    state_dir,
)

__all__ = [
    "LOCK_TIMEOUT_S",
    "STATE_DIR_NAME",
    "LockTimeoutError",
    "atomic_write",
    "default_locks_dir",
    "delete_file",
    "file_lock",
    "fsync_dir",
    "lock_path_for",
    "read_exact",
    "read_json",
    "refuse_memory_md",
    "sha256_text",
    "state_dir",
]
