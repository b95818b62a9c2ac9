"""Which files ``memory_get`` may read: ``MEMORY.md``, ``memory/**/*.md`` and ``search.extra_paths``.

The check runs on the fully resolved path, so ``..`` and symlinks cannot lead outside; a path
that is allowed but does not exist reads as empty text (DESIGN §12).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..errors import SearchPathRefusedError

__all__ = ["resolve_readable"]


def _refuse(path: str, why: str, why_zh: str) -> SearchPathRefusedError:
    shown = path if len(path) <= 200 else path[:200] + "…"
    return SearchPathRefusedError(
        f"get {shown!r}: refused, {why} (only MEMORY.md, memory/**/*.md and search.extra_paths)",
        f"拒绝读取 {shown!r}：{why_zh}（只能读 MEMORY.md、memory/**/*.md 和 search.extra_paths）",
    )


def _inside(child: Path, parent: Path) -> bool:
    return child == parent or parent in child.parents


def resolve_readable(workspace: Path, path: str, extra_paths: Iterable[Path] = ()) -> tuple[str, Path]:
    """(the path as shown, the real file) — or :class:`SearchPathRefusedError`."""
    if not path or "\x00" in path or len(path) > 4096:
        raise _refuse(path.replace("\x00", "\\0"), "not a file path", "不是文件路径")
    root = workspace.resolve()
    candidate = Path(os.path.expanduser(path))
    if not candidate.is_absolute():
        candidate = workspace / candidate
    real = candidate.resolve()  # follows symlinks and "..": what would really be read
    if real.suffix.lower() != ".md":
        raise _refuse(path, "not a Markdown file", "不是 Markdown 文件")
    if real == root / "MEMORY.md" or _inside(real, root / "memory"):
        return real.relative_to(root).as_posix(), real
    for extra in extra_paths:
        allowed = (extra if extra.is_absolute() else workspace / extra).resolve()
        if real == allowed or (allowed.is_dir() and _inside(real, allowed)):
            try:
                return real.relative_to(root).as_posix(), real
            except ValueError:
                return real.as_posix(), real
    raise _refuse(path, "outside the memory files", "不在记忆文件范围内")
