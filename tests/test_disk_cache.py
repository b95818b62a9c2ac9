"""The atomic store every on-disk cache uses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from savenow import disk_cache


def test_a_stored_value_is_whole_and_private(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "key.bin"
    assert disk_cache.store_bytes(path, b"value")
    assert path.read_bytes() == b"value"
    assert path.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["key.bin"]


def test_a_failed_flush_to_disk_leaves_neither_the_file_nor_its_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []

    def failing_fsync(fd: int) -> None:
        synced.append(fd)
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    path = tmp_path / "key.bin"
    assert not disk_cache.store_bytes(path, b"value")
    assert synced  # the data is flushed before the rename, never after
    assert list(tmp_path.iterdir()) == []
