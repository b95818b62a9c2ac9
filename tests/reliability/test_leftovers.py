"""Leftover temp files: removed on a file's first write in a process, each folder listed once.

The recorder writes per message into a folder of many sessions: listing that folder for every
write was the cost. Killed writes themselves are covered by test_kill_points.py (a real SIGKILL).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from savenow.storage import files
from savenow.storage.files import TEMP_PREFIX, atomic_write
from savenow.storage.locks import target_digest


@pytest.fixture
def listings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every folder os.listdir is asked for, with a fresh per-process index."""
    seen: list[str] = []
    real = os.listdir

    def counting(path: str | os.PathLike[str] = ".") -> list[str]:
        seen.append(os.path.abspath(path))
        return real(path)

    monkeypatch.setattr(files, "_leftovers", files._LeftoverIndex())
    monkeypatch.setattr(os, "listdir", counting)
    return seen


def leftover_of(target: Path, folder: Path, tag: str) -> Path:
    path = folder / f"{TEMP_PREFIX}{target_digest(target)}.{tag}"
    path.write_text("left by a killed write")
    return path


def test_each_folder_is_listed_once_per_process(tmp_path: Path, listings: list[str]) -> None:
    workspace = tmp_path / "ws"
    sessions = workspace / "sessions"
    sessions.mkdir(parents=True)
    for n in range(50):
        atomic_write(sessions / f"s{n % 5}.jsonl", f"line {n}\n", workspace=workspace)
    assert sorted(listings) == sorted({str(sessions), str(workspace / ".savenow" / "tmp")})
    assert (sessions / "s4.jsonl").read_text() == "line 49\n"
    assert sorted(os.listdir(workspace / ".savenow" / "tmp")) == []


def test_leftovers_of_each_target_go_on_its_first_write_only(tmp_path: Path, listings: list[str]) -> None:
    workspace = tmp_path / "ws"
    folder = workspace / "memory"
    temp_dir = workspace / ".savenow" / "tmp"
    folder.mkdir(parents=True)
    temp_dir.mkdir(parents=True)
    a, b = folder / "2026-11-28.md", folder / "2026-11-29.md"
    a_left = leftover_of(a, temp_dir, "aaaa")
    b_left = leftover_of(b, temp_dir, "bbbb")
    legacy_b = folder / ".2026-11-29.md.abc123.savenow-tmp"
    legacy_b.write_text("left by an older savenow")
    unrelated = temp_dir / "someone-elses-file"
    unrelated.write_text("keep me")

    atomic_write(a, "a\n", workspace=workspace)
    assert not a_left.exists()
    assert b_left.exists() and legacy_b.exists()  # another target's lock is not ours to assume

    atomic_write(b, "b\n", workspace=workspace)
    assert not b_left.exists() and not legacy_b.exists()
    assert unrelated.read_text() == "keep me"
    assert len(listings) == 2  # memory/ and .savenow/tmp, once each


def test_a_fresh_process_looks_again(tmp_path: Path, listings: list[str]) -> None:
    workspace = tmp_path / "ws"
    folder = workspace / "memory"
    folder.mkdir(parents=True)
    target = folder / "2026-11-28.md"
    atomic_write(target, "one\n", workspace=workspace)
    late = leftover_of(target, workspace / ".savenow" / "tmp", "late")  # another process died after our look
    atomic_write(target, "two\n", workspace=workspace)
    assert late.exists()  # this process listed the folder already
    files._leftovers.forget()  # what a new process starts with
    atomic_write(target, "three\n", workspace=workspace)
    assert not late.exists()
    assert target.read_text() == "three\n"
