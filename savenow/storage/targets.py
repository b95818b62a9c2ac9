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
from ..messages import ListOf, Text
from .files import refuse_memory_md

# Folders whose files are credentials, configuration or savenow's own state: never a note's home.
PRIVATE_FOLDERS = frozenset({".ssh", ".gnupg", ".git", ".savenow", ".aws", ".kube", ".docker", ".config"})


def _refuse(path: Path, why: Text) -> UnsafeTargetError:
    return UnsafeTargetError(Text("targets.refused", path=path, why=why))


def inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def resolves_inside(path: Path, folder: Path) -> bool:
    """``path`` once resolved (symlinks, ``..``) lies inside ``folder`` (``~`` expanded, resolved)."""
    try:
        path.resolve().relative_to(folder.expanduser().resolve())
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
        raise _refuse(path, Text("targets.cannot_inspect", reason=exc.strerror)) from None
    if stat.S_ISLNK(info.st_mode):
        raise _refuse(path, Text("targets.symlink"))
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(path, Text("targets.not_regular"))
    if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise _refuse(path, Text("targets.read_only"))


def check_memory_target(path: Path, roots: Iterable[Path]) -> Path:
    """``path`` if a drop-in may write it; raises UnsafeTargetError (or ForbiddenTargetError) otherwise."""
    refuse_memory_md(path)
    if path.suffix.lower() != ".md":
        raise _refuse(path, Text("targets.not_markdown"))
    check_regular_or_missing(path)
    resolved = path.resolve()
    refuse_memory_md(resolved)
    allowed = [Path(root).resolve() for root in roots]
    root = next((root for root in allowed if inside(resolved, root)), None)
    if root is None:
        where = ListOf(allowed, separator="targets.or")
        raise _refuse(path, Text("targets.outside", where=where))
    private = [part for part in resolved.relative_to(root).parts[:-1] if part.casefold() in PRIVATE_FOLDERS]
    if private:
        raise _refuse(path, Text("targets.private_folder", folder=private[0]))
    return path


def check_state_target(path: Path, *, forbidden: Iterable[Path] = (), what: Text | None = None) -> Path:
    """A savenow JSON state file: not Markdown, not one of ``forbidden`` (the memory and entries files)."""
    what = what or Text("targets.pending_file")
    refuse_memory_md(path)
    if path.suffix.lower() in (".md", ".markdown"):
        raise _refuse(path, Text("targets.state_is_json", what=what))
    resolved = path.resolve()
    for other in forbidden:
        if resolved == Path(other).resolve():
            raise _refuse(path, Text("targets.state_is_other", what=what, other=other))
    check_regular_or_missing(path)
    return path
