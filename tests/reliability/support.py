"""Shared helpers of the reliability probes: file hashes, the refusal contract, a CLI in a subprocess."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from savenow.cli import main


def hashes(root: Path) -> dict[str, str]:
    """sha256 of every file under ``root`` (lock files excluded: empty, and not content)."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink() and "locks" not in path.relative_to(root).parts
    }


def assert_refused(status: int, err: str, *, contains: str = "") -> None:
    """The refusal contract: exit 2, exactly one line on stderr, no traceback."""
    lines = err.splitlines()
    assert status == 2, err
    assert len(lines) == 1, err
    assert lines[0].startswith("savenow: "), err
    assert "Traceback" not in err
    assert contains in lines[0], lines[0]


def refuse_in_process(capsys: pytest.CaptureFixture[str], root: Path, *argv: str, contains: str = "") -> str:
    """Run the CLI in-process; assert the refusal contract and that no file under ``root`` changed."""
    before = hashes(root)
    status = main(list(argv))
    captured = capsys.readouterr()
    assert_refused(status, captured.err, contains=contains)
    assert hashes(root) == before
    return captured.err


def run_cli(
    *argv: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """The CLI in its own process (for SIGKILL, FIFOs and anything that could hang)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "savenow.cli", *argv],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
