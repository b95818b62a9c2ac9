"""Locked, atomic, byte-exact file access (DESIGN §8).

* :func:`file_lock` — an exclusive lock per target file. Lock files live in
  ``<workspace>/.savenow/locks/``, never under ``memory/`` (OpenClaw indexes
  every folder there, hidden ones included).
* :func:`read_exact` — the text exactly as stored: BOM kept as ``"\\ufeff"``,
  CRLF kept; a file that is not UTF-8 is refused, never rewritten.
* :func:`atomic_write` — temp file in the same folder, fsync, ``os.replace``,
  fsync of the folder.

On POSIX the lock is ``flock(2)`` on the lock file, the very lock
``filelock.FileLock`` takes there (the two interoperate); it is called directly
because importing filelock costs ~20 ms and the script drop-ins must start as
fast as the Node scripts they replace. Elsewhere filelock is used.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .errors import BadInputError, ForbiddenTargetError, LockTimeoutError

STATE_DIR_NAME = ".savenow"
LOCK_TIMEOUT_S = 30.0
_POLL_S = 0.01

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def state_dir(workspace: Path) -> Path:
    return workspace / STATE_DIR_NAME


def lock_path_for(target: Path, locks_dir: Path) -> Path:
    """One lock file per target, named from the target's absolute path."""
    absolute = os.path.abspath(target)
    digest = hashlib.sha256(absolute.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    safe_name = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in Path(absolute).name)[:60]
    return locks_dir / f"{safe_name}.{digest}.lock"


def default_locks_dir(workspace: Path | None) -> Path:
    """``<workspace>/.savenow/locks``; with no workspace, a folder in the system temp dir."""
    if workspace is not None:
        return state_dir(workspace) / "locks"
    return Path(tempfile.gettempdir()) / "savenow-locks"


@contextmanager
def file_lock(target: Path, workspace: Path | None, *, timeout_s: float = LOCK_TIMEOUT_S) -> Iterator[None]:
    """Hold the exclusive lock of ``target`` (re-read the target inside the block)."""
    locks_dir = default_locks_dir(workspace)
    lock_file = lock_path_for(target, locks_dir)
    if fcntl is None:  # pragma: no cover - Windows
        locks_dir.mkdir(parents=True, exist_ok=True)
        with _filelock_lock(lock_file, timeout_s, target):
            yield
        return
    try:
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    except FileNotFoundError:  # first lock in this workspace (mkdir only then: syscalls add up)
        locks_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _flock_with_timeout(fd, timeout_s, target)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _flock_with_timeout(fd: int, timeout_s: float, target: Path) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise _lock_timeout(target) from None
            time.sleep(_POLL_S)


@contextmanager
def _filelock_lock(lock_file: Path, timeout_s: float, target: Path) -> Iterator[None]:  # pragma: no cover
    from filelock import FileLock, Timeout

    try:
        with FileLock(lock_file, timeout=timeout_s):
            yield
    except Timeout as exc:
        raise _lock_timeout(target) from exc


def _lock_timeout(target: Path) -> LockTimeoutError:
    return LockTimeoutError(
        f"{target} is locked by another savenow process; try again in a moment",
        f"{target} 正被另一个 savenow 进程锁定，请稍后再试",
    )


def refuse_memory_md(path: Path) -> None:
    """Every command refuses a target named MEMORY.md, in any case (DESIGN §5.3)."""
    if path.name.casefold() == "memory.md":
        raise ForbiddenTargetError(
            f"refusing to write {path}: savenow never writes MEMORY.md, only memory/YYYY-MM-DD.md",
            f"拒绝写入 {path}：savenow 从不写 MEMORY.md，只写 memory/YYYY-MM-DD.md",
        )


def read_exact(path: Path) -> str | None:
    """The file's text exactly as stored (BOM and CRLF kept); None when it does not exist."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise BadInputError(f"{path} is a folder, not a file", f"{path} 是文件夹，不是文件") from exc
    except PermissionError as exc:
        raise BadInputError(f"cannot read {path}: permission denied", f"无法读取 {path}：没有权限") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(
            f"{path} is not UTF-8 text (byte {exc.start}); savenow leaves it unchanged",
            f"{path} 不是 UTF-8 文本（第 {exc.start} 字节）；savenow 不会修改它",
        ) from exc


def read_json(path: Path, what: str) -> Any | None:
    """The JSON a file holds (a BOM is allowed); None when it does not exist.

    ``what`` names the file in the message of malformed JSON, e.g. "entries file".
    """
    text = read_exact(path)
    if text is None:
        return None
    try:
        return json.loads(text.lstrip("\ufeff"))
    except ValueError as exc:
        raise BadInputError(
            f"{what} {path} is not valid JSON ({exc})", f"{what} {path} 不是合法的 JSON（{exc}）"
        ) from exc


def sha256_text(text: str | None) -> str | None:
    """Hash of the file's bytes (None for a missing file)."""
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically: temp file + fsync + rename + fsync dir."""
    folder = path.parent
    mode = _existing_mode(path)
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".savenow-tmp", dir=folder)
    except FileNotFoundError:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".savenow-tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8", "surrogatepass"))
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise
    fsync_dir(folder)


def _existing_mode(path: Path) -> int | None:
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        # mkstemp creates 0600; a new memory file gets the usual 0644 (minus umask).
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
        path.unlink()
    except FileNotFoundError:
        return False
    fsync_dir(path.parent)
    return True
