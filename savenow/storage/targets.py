"""Where a write may land: regular Markdown files inside an allowed folder (issue 10 item 4).

The chat commands only write ``<workspace>/memory/YYYY-MM-DD.md`` (the service
checks the resolved path); the script drop-ins take a ``--memory-path`` and a
pending file's ``memoryPath``, so both go through :func:`check_memory_target`:

* a ``.md`` file, never ``MEMORY.md`` (any case);
* not a symlink (dangling or not) and, when it exists, a regular, writable file;
* its resolved path inside one of the allowed roots (the folder the command
  runs from, the workspace), and not inside a private folder there (``.ssh/``, ``.git/``, ``.savenow/`` …).

:func:`check_state_target` guards savenow's own JSON files (pending previews):
never a Markdown file, never the entries file, and an existing file must be a
pending preview before it is overwritten or deleted.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ..errors import UnsafeTargetError
from .files import refuse_memory_md

# Folders whose files are credentials, configuration or savenow's own state: never a note's home.
PRIVATE_FOLDERS = frozenset({".ssh", ".gnupg", ".git", ".savenow", ".aws", ".kube", ".docker", ".config"})


def _refuse(path: Path, en: str, zh: str) -> UnsafeTargetError:
    return UnsafeTargetError(f"refusing to write {path}: {en}", f"拒绝写入 {path}：{zh}")


def inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def check_regular_or_missing(path: Path) -> None:
    """Refuse a symlink, a non-regular file or a read-only file as a write target."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _refuse(path, f"cannot inspect it ({exc.strerror})", f"无法检查它（{exc.strerror}）") from None
    if stat.S_ISLNK(info.st_mode):
        raise _refuse(path, "it is a symbolic link", "它是符号链接")
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(path, "it is not a regular file", "它不是普通文件")
    if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise _refuse(path, "it is read-only", "它是只读的")


def check_memory_target(path: Path, roots: Iterable[Path]) -> Path:
    """``path`` if a drop-in may write it; raises UnsafeTargetError (or ForbiddenTargetError) otherwise."""
    refuse_memory_md(path)
    if path.suffix.lower() != ".md":
        raise _refuse(path, "a memory file must be a .md file", "记忆文件必须是 .md 文件")
    check_regular_or_missing(path)
    resolved = path.resolve()
    refuse_memory_md(resolved)
    allowed = [Path(root).resolve() for root in roots]
    root = next((root for root in allowed if inside(resolved, root)), None)
    if root is None:
        where = " or ".join(str(root) for root in allowed)
        raise _refuse(path, f"it is outside {where}", f"它不在 {where} 之内")
    private = [part for part in resolved.relative_to(root).parts[:-1] if part.casefold() in PRIVATE_FOLDERS]
    if private:
        raise _refuse(path, f"it is inside {private[0]}/", f"它位于 {private[0]}/ 中")
    return path


def check_state_target(path: Path, *, forbidden: Iterable[Path] = (), what: str = "pending file") -> Path:
    """A savenow JSON state file: not Markdown, not one of ``forbidden`` (the memory and entries files)."""
    refuse_memory_md(path)
    if path.suffix.lower() in (".md", ".markdown"):
        raise _refuse(
            path, f"a {what} is JSON, never a Markdown file", f"{what} 是 JSON，绝不是 Markdown 文件"
        )
    resolved = path.resolve()
    for other in forbidden:
        if resolved == Path(other).resolve():
            raise _refuse(path, f"the {what} cannot be {other}", f"{what} 不能是 {other}")
    check_regular_or_missing(path)
    return path
