"""Has anything under the search sources changed since the last scan? (Linux inotify, stdlib only.)

A search must see every change to a source file, and a file's own stat is the truth — but a
stat of each of 3,650 files costs ≈ 20 ms here, twice the whole query budget. A long-lived
process (the bot, a tool server) asks the kernel instead: an inotify watch on every source
directory reports each change to an entry of that directory — a write, a truncate, a touch or
chmod, a create, delete or rename — and the report is queued before the writing call returns, so
"no event since the last scan" means "no change since the last scan". Reading an empty queue is
one non-blocking ``read``.

What inotify cannot vouch for, the caller stats every time or scans in full:

* a file with more than one hard link (written through a link in another directory, the event
  goes to that directory): :class:`~savenow.search.index.IndexSync` stats those on every search;
* a directory on a filesystem where other machines or a userspace daemon may write (NFS, SMB,
  FUSE…): only the local filesystems in :data:`_LOCAL_FILESYSTEMS` are watched, else no feed;
* a lost event (queue overflow), a watched directory deleted or moved, a new directory: the
  feed reports "changed" and the caller scans in full and arms a new feed.

``ChangeFeed.start`` returns None wherever it cannot promise this (not Linux, no inotify, a
limit reached, a directory missing or on another filesystem): then every search stats every file.
"""

from __future__ import annotations

import os
import struct
import sys
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["ChangeFeed", "WatchTarget"]

_IN_MODIFY = 0x002
_IN_ATTRIB = 0x004
_IN_CLOSE_WRITE = 0x008
_IN_MOVED_FROM = 0x040
_IN_MOVED_TO = 0x080
_IN_CREATE = 0x100
_IN_DELETE = 0x200
_IN_DELETE_SELF = 0x400
_IN_MOVE_SELF = 0x800
_IN_UNMOUNT = 0x2000
_IN_Q_OVERFLOW = 0x4000
_IN_IGNORED = 0x8000
_IN_ONLYDIR = 0x1000000
_IN_DONT_FOLLOW = 0x2000000
_IN_ISDIR = 0x40000000
_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = 0o2000000

_MASK = (
    _IN_MODIFY
    | _IN_ATTRIB
    | _IN_CLOSE_WRITE
    | _IN_MOVED_FROM
    | _IN_MOVED_TO
    | _IN_CREATE
    | _IN_DELETE
    | _IN_DELETE_SELF
    | _IN_MOVE_SELF
    | _IN_ONLYDIR
    | _IN_DONT_FOLLOW
)
# The watch itself is no longer good: scan in full and arm a new feed.
_BROKEN = _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_UNMOUNT | _IN_Q_OVERFLOW | _IN_IGNORED
_EVENT = struct.Struct("iIII")

# statfs f_type of filesystems whose every change goes through this kernel (linux/magic.h).
_LOCAL_FILESYSTEMS = frozenset(
    {
        0xEF53,  # ext2/3/4
        0x58465342,  # xfs
        0x9123683E,  # btrfs
        0x01021994,  # tmpfs
        0x794C7630,  # overlayfs
        0xF2F52010,  # f2fs
        0x2FC12FC1,  # zfs
        0x52654973,  # reiserfs
    }
)


@dataclass(frozen=True)
class WatchTarget:
    """A directory to watch; events name entries in it. ``suffixes`` and ``names`` say which
    entries matter (any event on a directory entry always does)."""

    path: str
    suffixes: tuple[str, ...] = (".md",)
    names: frozenset[str] = frozenset()


class ChangeFeed:
    """One inotify instance over a fixed set of directories."""

    def __init__(self, fd: int, targets: dict[int, WatchTarget]) -> None:
        self._fd = fd
        self._targets = targets

    @classmethod
    def start(cls, targets: Iterable[WatchTarget]) -> ChangeFeed | None:
        if not sys.platform.startswith("linux"):
            return None
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            init, add, statfs = libc.inotify_init1, libc.inotify_add_watch, libc.statfs
        except (OSError, AttributeError, ImportError):
            return None
        fd = int(init(_IN_NONBLOCK | _IN_CLOEXEC))
        if fd < 0:
            return None
        feed = cls(fd, {})
        buffer = ctypes.create_string_buffer(256)  # struct statfs is 120 bytes on 64-bit Linux
        for target in targets:
            encoded = os.fsencode(target.path)
            if statfs(encoded, buffer) != 0:
                feed.close()
                return None
            kind = ctypes.c_long.from_buffer(buffer).value & 0xFFFFFFFF  # f_type, the first field
            wd = int(add(fd, encoded, _MASK)) if kind in _LOCAL_FILESYSTEMS else -1
            if wd < 0:
                feed.close()
                return None
            feed._targets[wd] = target
        return feed

    def changed(self) -> bool:
        """True if anything that matters happened since the last call (or the feed broke).

        Reads the whole queue; irrelevant events (a lock or temp file) are dropped."""
        if self._fd < 0:
            return True
        relevant = False
        while True:
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                return relevant
            except OSError:
                return True
            if not data:
                return True
            offset = 0
            while offset < len(data):
                wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size : offset + _EVENT.size + length].rstrip(b"\0")
                offset += _EVENT.size + length
                if not relevant:
                    relevant = self._matters(wd, mask, os.fsdecode(name))

    def _matters(self, wd: int, mask: int, name: str) -> bool:
        if mask & (_BROKEN | _IN_ISDIR):
            return True
        target = self._targets.get(wd)
        return target is None or not name or name.endswith(target.suffixes) or name in target.names

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __del__(self) -> None:  # an engine dropped without close(): do not leak the descriptor
        try:
            self.close()
        except OSError:
            pass
