"""What every cache savenow keeps on disk shares: a key made of its input files, and an atomic store.

A cached value (the settings' view, the parsed thesaurus) is keyed by the stat stamp of each file
it was computed from — path or name, size, mtime, ctime, inode, device — so any edit, copy or
upgrade is a new key. A file changed within :data:`RACY_NS` may change again without its times
moving (a clock tick is up to 10 ms on Linux, 2 s on FAT): such a key is not *trusted*, and the
value is computed but not stored. Imported on the search path, so it imports nothing at import.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["RACY_NS", "FilesKey", "store_bytes"]

RACY_NS = 2_000_000_000  # a file changed this recently may change again unseen


class FilesKey:
    """The parts of a cache key, plain values and files' stamps, hashed into a short hex digest.

    ``trusted`` stays True while every file added is older than ``racy_ns``."""

    def __init__(self, racy_ns: int = RACY_NS) -> None:
        import time

        self.parts: list[Any] = []
        self.trusted = True
        self._racy_after = time.time_ns() - racy_ns

    def add(self, *parts: Any) -> None:
        self.parts.extend(parts)

    def add_file(self, label: str, path: str | os.PathLike[str]) -> None:
        """The file's stamp under ``label``; OSError when it cannot be stat'ed (the caller decides)."""
        st = os.stat(path)
        self.parts.append([label, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev])
        if max(st.st_mtime_ns, st.st_ctime_ns) > self._racy_after:
            self.trusted = False

    def digest(self, as_text: Callable[[list[Any]], str] = repr) -> str:
        try:
            from _blake2 import blake2b  # hashlib would load OpenSSL (≈ 15 ms) for this one hash
        except ImportError:  # pragma: no cover - another Python
            from hashlib import blake2b
        return blake2b(as_text(self.parts).encode("utf-8"), digest_size=20).hexdigest()


def store_bytes(path: Path, data: bytes) -> bool:
    """Write ``data`` atomically (temp + fsync + rename), private to the user; False when the
    folder cannot be written — a cache that cannot be written is simply not used. The fsync is
    paid only on a cache miss, and keeps a crash from leaving an empty file under the final name
    (readers treat an unreadable cache as a miss anyway)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        return False
    return True
