"""Writers at once, then undo back to the start (issue 10, concurrency; issue 9 item 7, multi-level undo)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from savenow.cli import main
from savenow.storage.journal import read_records, settled_view, undo_stack

WRITERS = 6
ORIGINAL = "# 2026-11-28\r\n\r\n## 09:00 - Shared\r\n- first\r\n"  # CRLF: kept through every write and undo


def test_concurrent_writers_then_undo_each_in_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    memory = tmp_path / "memory" / "2026-11-28.md"
    memory.parent.mkdir()
    memory.write_bytes(ORIGINAL.encode())
    for number in range(WRITERS):
        entries = [
            {"title": f"笔记 {number}", "bullets": [f"fact {number}"]},
            {
                "title": "m",
                "bullets": [f"merged {number}"],
                "action": "merge",
                "merge_target_title": "Shared",
            },
        ]
        (tmp_path / f"e{number}.json").write_text(json.dumps(entries, ensure_ascii=False))
    env = {**os.environ, "SAVENOW_NOW": "2026-11-28T10:00:00+08:00", "SAVENOW_TIMEZONE": "Asia/Shanghai"}
    env.pop("SAVENOW_WORKSPACE", None)
    command = [sys.executable, "-m", "savenow.cli", "merge-daily-memory", "--memory-path", str(memory)]
    processes = [
        subprocess.Popen(
            [*command, "--entries-file", f"e{n}.json"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for n in range(WRITERS)
    ]
    for process in processes:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err.decode()
    text = memory.read_bytes().decode()
    for number in range(WRITERS):
        assert text.count(f"- fact {number}\r\n") == 1 and text.count(f"- merged {number}\r\n") == 1
    assert "\n" not in text.replace("\r\n", "")
    assert len(undo_stack(settled_view(tmp_path))) == WRITERS
    monkeypatch.chdir(tmp_path)  # undo runs in this process from here: only the writers need their own
    monkeypatch.delenv("SAVENOW_WORKSPACE", raising=False)
    monkeypatch.setenv("SAVENOW_NOW", env["SAVENOW_NOW"])
    capsys.readouterr()
    assert main(["undo", "--list", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["writes"]) == WRITERS
    for remaining in range(WRITERS, 0, -1):
        assert main(["undo"]) == 0, capsys.readouterr().err
        assert len(undo_stack(settled_view(tmp_path))) == remaining - 1
    assert memory.read_bytes() == ORIGINAL.encode()
    assert all(r["state"] == "committed" for r in read_records(tmp_path))
    assert sorted(p.name for p in memory.parent.iterdir()) == ["2026-11-28.md"]
