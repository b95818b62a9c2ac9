"""Byte-exact reads and atomic writes (DESIGN §8).

* :func:`read_exact` — the text exactly as stored: BOM kept as ``"\\ufeff"``,
  CRLF kept; a file that is not UTF-8, not a regular file (a FIFO, a device) or
  unreadable is refused with one line, never rewritten and never waited on.
* :func:`read_json` — the same, parsed defensively (depth-bounded, surrogates cleaned).
* :func:`atomic_write` — temp file, fsync, ``os.replace``, fsync of the folder.
  The temp file lives in ``<workspace>/.savenow/tmp/`` when that is on the same
  file system, else beside the target under a name no indexer takes for a note
  (``.savenow-tmp.<digest>.<random>``, no ``.md`` in it); a leftover of a killed
  write is removed by the first write of the same file in the next process that writes it
  (callers hold its lock; each folder is listed once per process).
  Text that cannot be encoded as UTF-8 is refused before any byte is written.
  A disk that is full, read-only or forbidden raises :class:`StorageError`.
"""

from __future__ import annotations

import _thread
import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from ..errors import BadInputError, ForbiddenTargetError, StorageError
from ..messages import Text
from . import faults
from .locks import state_dir, target_digest

TEMP_PREFIX = ".savenow-tmp."
MAX_READ_BYTES = 64 * 1024 * 1024  # a memory, entries or pending file larger than this is refused


def refuse_memory_md(path: Path) -> None:
    """Every command refuses a target named MEMORY.md, in any case (DESIGN §5.3)."""
    if path.name.casefold() == "memory.md":
        raise ForbiddenTargetError(Text("storage.never_memory_md", path=path))


def read_bytes(path: Path, *, limit: int = MAX_READ_BYTES) -> bytes | None:
    """The file's bytes; None when it does not exist. Never blocks on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise BadInputError(Text("storage.is_folder", path=path)) from exc
    except PermissionError as exc:
        raise BadInputError(Text("storage.read_denied", path=path)) from exc
    except OSError as exc:
        raise _storage_error("read", path, exc) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise BadInputError(Text("storage.is_folder", path=path))
        if not stat.S_ISREG(info.st_mode):
            raise BadInputError(Text("storage.not_regular", path=path))
        if info.st_size > limit:
            raise BadInputError(Text("storage.too_large", path=path, size=info.st_size, limit=limit))
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise _storage_error("read", path, exc) from None
    finally:
        os.close(fd)


def read_exact(path: Path) -> str | None:
    """The file's text exactly as stored (BOM and CRLF kept); None when it does not exist."""
    data = read_bytes(path)
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(Text("storage.not_utf8", path=path, byte=exc.start)) from exc


def read_json(path: Path, what: str | Text) -> Any | None:
    """The JSON a file holds (a BOM is allowed); None when it does not exist.

    ``what`` names the file in the message of malformed JSON, e.g. "entries file".
    """
    text = read_exact(path)
    if text is None:
        return None
    from ..text.safety import loads_json  # only JSON reads need it, not every write

    try:
        return loads_json(text.lstrip("\ufeff"))
    except ValueError as exc:
        detail = " ".join(str(exc).split())[:200]
        raise BadInputError(Text("storage.bad_json", what=what, path=path, detail=detail)) from exc


def sha256_text(text: str | None) -> str | None:
    """Hash of the file's bytes (None for a missing file)."""
    if text is None:
        return None
    import hashlib  # here, not at import: a reader (``savenow get``) never loads OpenSSL

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def encode_text(text: str, path: Path) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate got past the text boundary: refuse, write nothing
        raise BadInputError(Text("storage.lone_surrogate", path=path, index=exc.start)) from None


def atomic_write(path: Path, text: str, *, workspace: Path | None = None) -> None:
    """Replace ``path`` with ``text`` atomically: temp file + fsync + rename + fsync dir.

    Call it holding ``path``'s lock: it also removes leftover temp files of ``path``.
    """
    data = encode_text(text, path)
    folder = path.parent
    try:
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)
        temp_dir = _temp_dir(folder, workspace)
        remove_leftovers(path, workspace)
        mode = _existing_mode(path)
        temp = _temp_path(path, temp_dir)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as exc:
        raise _storage_error("write", path, exc) from None
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            faults.point("fsync:temp")
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp, mode)
        faults.point("rename")
        os.replace(temp, path)
    except BaseException as exc:
        try:
            os.unlink(temp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise _storage_error("write", path, exc) from None
        raise
    faults.point("fsync:dir")
    fsync_dir(folder)


def _temp_dir(folder: Path, workspace: Path | None) -> Path:
    """``<workspace>/.savenow/tmp`` when a rename from there to ``folder`` is atomic (same device)."""
    if workspace is None:
        return folder
    temp_dir = state_dir(workspace) / "tmp"
    try:
        temp_dir.mkdir(parents=True, exist_ok=True)
        if os.stat(temp_dir).st_dev == os.stat(folder).st_dev:
            return temp_dir
    except OSError:
        pass
    return folder


def _temp_path(path: Path, temp_dir: Path) -> Path:
    import secrets

    return temp_dir / f"{TEMP_PREFIX}{target_digest(path)}.{secrets.token_hex(4)}"


def remove_leftovers(path: Path, workspace: Path | None = None) -> int:
    """Delete temp files a killed write of ``path`` left (ours and the older ``.<name>.*.savenow-tmp``).

    Each folder is listed once per process (:class:`_LeftoverIndex`): a writer that saves per message
    (the recorder) does not list a folder of thousands of sessions for every write. A write killed
    later by another process leaves its temp file to the next process that writes that file.
    """
    prefix = f"{TEMP_PREFIX}{target_digest(path)}."
    legacy = f".{path.name}."
    removed = 0
    folders = [path.parent] + ([state_dir(workspace) / "tmp"] if workspace is not None else [])
    for folder in folders:
        beside = folder == path.parent

        def leftover(name: str, beside: bool = beside) -> bool:
            return name.startswith(prefix) or (
                beside and name.startswith(legacy) and name.endswith(LEGACY_SUFFIX)
            )

        for name in _leftovers.take(folder, leftover):
            try:
                os.unlink(folder / name)
                removed += 1
            except OSError:
                pass
    return removed


LEGACY_SUFFIX = ".savenow-tmp"


class _LeftoverIndex:
    """The temp-looking names each folder held when this process first looked, minus those removed.

    Only names of a write's own target are removed (its caller holds that target's lock), so the
    names of other targets stay listed here until their own first write in this process.
    """

    def __init__(self) -> None:
        self._names: dict[str, set[str]] = {}
        self._lock = _thread.allocate_lock()  # = threading.Lock(), without importing threading

    def take(self, folder: Path, matches: Callable[[str], bool]) -> list[str]:
        key = os.path.abspath(folder)
        with self._lock:
            names = self._names.get(key)
            if names is None:
                try:
                    listed = os.listdir(folder)
                except OSError:
                    return []  # not there (yet): nothing was left in it
                names = {n for n in listed if n.startswith(TEMP_PREFIX) or n.endswith(LEGACY_SUFFIX)}
                self._names[key] = names
            taken = [name for name in names if matches(name)]
            names.difference_update(taken)
            return taken

    def forget(self) -> None:
        """List every folder again on its next write (tests, and a process that wants a fresh look)."""
        with self._lock:
            self._names.clear()


_leftovers = _LeftoverIndex()


def _existing_mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        # A new file gets the usual 0644 (minus umask); the temp file was created 0600.
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def fsync_dir(folder: Path) -> None:
    """Make a rename durable (no-op where folders cannot be opened, e.g. Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some filesystems refuse
        pass
    finally:
        os.close(fd)


def delete_file(path: Path) -> bool:
    """Remove ``path`` and fsync its folder; False when it was already gone."""
    try:
        faults.point("unlink")
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _storage_error("delete", path, exc) from None
    fsync_dir(path.parent)
    return True


_WHY = {
    errno.ENOSPC: "storage.why.disk_full",
    errno.EDQUOT: "storage.why.quota",
    errno.EROFS: "storage.why.read_only",
    errno.EACCES: "storage.why.permission",
    errno.EPERM: "storage.why.not_permitted",
}

Action = Literal["read", "write", "delete"]


def _storage_error(action: Action, path: Path, exc: OSError) -> StorageError:
    known = _WHY.get(exc.errno or 0)
    # Any other errno keeps the system's own words, in both languages.
    why: str | Text = Text(known) if known else exc.strerror or type(exc).__name__
    return StorageError(Text("storage.failed", action=Text(f"storage.verb.{action}"), path=path, why=why))


def storage_error(action: Action, path: Path, exc: OSError) -> StorageError:
    """The one-line error for an OSError on ``path`` (for callers doing their own IO)."""
    return _storage_error(action, path, exc)
