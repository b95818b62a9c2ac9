"""One exclusive lock per target file (DESIGN §8).

Lock files live in ``<workspace>/.savenow/locks/``, never under ``memory/``
(OpenClaw indexes every folder there, hidden ones included). On POSIX the lock
is ``flock(2)`` on the lock file, the very lock ``filelock.FileLock`` takes there
(the two interoperate); it is called directly because importing filelock costs
~20 ms and the script drop-ins must start as fast as the Node scripts they
replace. Elsewhere filelock is used.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import LockTimeoutError, StorageError
from ..messages import Text

STATE_DIR_NAME = ".savenow"
LOCK_TIMEOUT_S = 30.0
_POLL_S = 0.01

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def state_dir(workspace: Path) -> Path:
    return workspace / STATE_DIR_NAME


def target_digest(target: Path) -> str:
    import hashlib  # on use: a reader that never locks (``savenow get``) does not load OpenSSL

    absolute = os.path.abspath(target)
    return hashlib.sha256(absolute.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def lock_path_for(target: Path, locks_dir: Path) -> Path:
    """One lock file per target, named from the target's absolute path."""
    absolute = os.path.abspath(target)
    safe_name = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in Path(absolute).name)[:60]
    return locks_dir / f"{safe_name}.{target_digest(target)}.lock"


def default_locks_dir(workspace: Path | None) -> Path:
    """``<workspace>/.savenow/locks``; with no workspace, a folder in the system temp dir."""
    if workspace is not None:
        return state_dir(workspace) / "locks"
    import tempfile

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
        fd = _open_lock(lock_file, locks_dir)
    except OSError as exc:
        raise StorageError(
            Text("locks.cannot_create", target=target, locks_dir=locks_dir, reason=exc.strerror or exc)
        ) from None
    try:
        _flock_with_timeout(fd, timeout_s, target)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _open_lock(lock_file: Path, locks_dir: Path) -> int:
    try:
        return os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    except FileNotFoundError:  # first lock in this workspace (mkdir only then: syscalls add up)
        locks_dir.mkdir(parents=True, exist_ok=True)
        return os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)


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
    return LockTimeoutError(Text("locks.timeout", target=target))
