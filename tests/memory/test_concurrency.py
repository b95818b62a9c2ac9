"""Eight processes merging different entries into one file at once: each entry lands exactly once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from savenow.memory.document import MemoryDocument
from savenow.storage.journal import read_records

WRITERS = 8


def test_eight_processes_write_one_file(tmp_path: Path) -> None:
    memory = tmp_path / "memory" / "2026-05-15.md"
    memory.parent.mkdir()
    memory.write_text("# 2026-05-15\n\n## 09:00 - Shared target\n- first\n", encoding="utf-8")
    for number in range(WRITERS):
        entries = [
            {
                "title": f"进程 {number} 的笔记 note-{number}",
                "bullets": [f"独立内容 {number} unique-{number}"],
            },
            {
                "title": f"merge {number}",
                "bullets": [f"merged bullet {number}"],
                "action": "merge",
                "merge_target_title": "Shared target",
            },
        ]
        (tmp_path / f"entries-{number}.json").write_text(
            json.dumps(entries, ensure_ascii=False), encoding="utf-8"
        )
    env = {**os.environ, "SAVENOW_NOW": "2026-05-15T16:48:00", "SAVENOW_TIMEZONE": "Asia/Shanghai"}
    command = [sys.executable, "-m", "savenow.cli", "merge-daily-memory", "--memory-path", str(memory)]
    processes = [
        subprocess.Popen(
            [*command, "--entries-file", f"entries-{number}.json"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for number in range(WRITERS)
    ]
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err.decode()
        assert json.loads(out)["added"] == 1
    text = memory.read_text(encoding="utf-8")
    document = MemoryDocument.parse(text)
    titles = [section.title for section in document.sections]
    for number in range(WRITERS):
        assert titles.count(f"进程 {number} 的笔记 note-{number}") == 1
        assert text.count(f"- 独立内容 {number} unique-{number}\n") == 1
        assert text.count(f"- merged bullet {number}\n") == 1
    shared = document.sections[0]
    assert shared.title == "Shared target" and len(shared.bullets) == 1 + WRITERS
    assert text.count("- (merged 16:48)") == 1
    assert text.startswith("# 2026-05-15\n\n## 09:00 - Shared target\n- first\n")
    assert len([r for r in read_records(tmp_path) if r["type"] == "write"]) == WRITERS
