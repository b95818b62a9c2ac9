"""The skill drop-ins: flags, outputs and messages of the Node scripts; exit 2 on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from savenow.cli import main

MEMORY = (
    "# 2026-05-15\n\n## 10:00 - 网关令牌不匹配修复\n- 通过更新 gateway.cmd 中的令牌解决了 unauthorized 错误\n\n"
    "## 14:02 - Telegram UI conventions\n- Single-row 3-button layout.\n"
)
ENTRIES = [
    {
        "candidate_index": 0,
        "title": "网关令牌不匹配的修复方法",
        "bullets": ["通过更新 gateway.cmd 里的令牌解决 unauthorized 错误"],
    },
    {
        "candidate_index": 1,
        "title": "Nginx 上传大小限制",
        "bullets": ["client_max_body_size 设为 50m"],
        "action": "add",
    },
    {
        "candidate_index": 2,
        "title": "Button rules",
        "bullets": ["Cancel on the right."],
        "action": "merge",
        "merge_target_title": "Telegram UI conventions",
        "reason": "same topic",
    },
]


@pytest.fixture()
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "memory").mkdir()
    (tmp_path / "temp").mkdir()
    (tmp_path / "memory" / "2026-05-15.md").write_text(MEMORY, encoding="utf-8")
    (tmp_path / "temp" / "savenow-entries.json").write_text(
        json.dumps(ENTRIES, ensure_ascii=False), encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SAVENOW_NOW", "2026-05-15T16:48:00+08:00")
    monkeypatch.setenv("SAVENOW_TIMEZONE", "Asia/Shanghai")
    return tmp_path


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


PREVIEW = ["preview-diff", "--entries-file", "temp/savenow-entries.json", "--date", "2026-05-15"]
PENDING = ["--pending-file", "temp/savenow-pending.json"]


def test_preview_diff_prints_markdown_and_writes_pending(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scope = ["--session-key", "agent:main:telegram:group:-1:topic:42", "--message-thread-id", "42"]
    assert main([*PREVIEW, *PENDING, *scope, "--ttl-minutes", "10"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(
        "### /savenow preview — memory/2026-05-15.md\n\n**3 candidates** → 1 add, 1 merge, 1 skip."
    )
    assert "**1. SKIP — 网关令牌不匹配的修复方法**" in out and "title sim 0.80" in out
    assert "**2. ADD — Nginx 上传大小限制**" in out
    assert out.endswith("Buttons expire in 10 min. Or `/savenow auto` next time to skip preview.\n")
    assert err == f"pending written: {workspace / 'temp' / 'savenow-pending.json'}\n"
    pending = json.loads((workspace / "temp" / "savenow-pending.json").read_text(encoding="utf-8"))
    assert pending["version"] == 1 and pending["messageThreadId"] == "42"
    assert pending["memoryPath"] == str(workspace / "memory" / "2026-05-15.md")
    assert pending["entriesFile"] == str(workspace / "temp" / "savenow-entries.json")
    assert pending["generatedAt"] == "2026-05-15T16:48:00+08:00"
    assert pending["expiresAt"] == "2026-05-15T16:58:00+08:00"
    assert len(pending["entries"]) == 3 and pending["date"] == "2026-05-15"
    assert (workspace / "memory" / "2026-05-15.md").read_text(encoding="utf-8") == MEMORY


def test_zero_candidates_write_no_pending(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (workspace / "temp" / "savenow-entries.json").write_text("[]")
    assert main([*PREVIEW, *PENDING]) == 0
    assert (
        "**0 candidates** — nothing durable in this session. No write performed." in capsys.readouterr().out
    )
    assert not (workspace / "temp" / "savenow-pending.json").exists()


def test_default_memory_path_uses_date_and_cwd(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["preview-diff", "--entries-file", "temp/savenow-entries.json"]) == 0
    assert "— memory/2026-05-15.md" in capsys.readouterr().out


def test_merge_daily_memory_json(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["merge-daily-memory", "--entries-file", "temp/savenow-entries.json", "--date", "2026-05-15"])
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert list(result) == [
        "memoryPath", "createdFile", "added", "skipped", "merged", "mergedBullets", "addedTitles",
        "skippedTitles", "mergedTitles", "fallbackAdded", "fallbackSkipped", "reasonByTitle",
    ]  # fmt: skip
    assert result["added"] == 1 and result["merged"] == 1 and result["mergedBullets"] == 1
    assert result["fallbackSkipped"] == ["网关令牌不匹配的修复方法"] and result["createdFile"] is False
    text = (workspace / "memory" / "2026-05-15.md").read_text(encoding="utf-8")
    assert "- Cancel on the right.\n- (merged 16:48)\n" in text and text.endswith(
        "## 16:48 - Nginx 上传大小限制\n- client_max_body_size 设为 50m\n"
    )
    assert (workspace / ".savenow" / "journal.jsonl").is_file()


def test_merge_creates_file_with_header(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "merge-daily-memory",
        "--entries-file",
        "temp/savenow-entries.json",
        "--memory-path",
        "memory/2026-05-16.md",
    ]
    assert main([*args, "--allow-merge", "false"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["createdFile"] is True and result["fallbackAdded"] == ["Button rules"]
    assert (
        (workspace / "memory" / "2026-05-16.md")
        .read_text(encoding="utf-8")
        .startswith("# 2026-05-15\n\n## 16:48 - ")
    )


def test_apply_and_cancel_pending_file(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main([*PREVIEW, *PENDING, "--message-thread-id", "42"]) == 0
    capsys.readouterr()
    assert main(["apply", *PENDING, "--message-thread-id", "43"]) == 2
    assert (
        capsys.readouterr().err
        == "savenow: Pending preview is from a different topic. Rerun /savenow here.\n"
    )
    monkeypatch.setenv("SAVENOW_NOW", "2026-05-15T16:50:00+08:00")
    assert main(["apply", *PENDING, "--message-thread-id", "42"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["added"] == 1 and result["merged"] == 1
    text = (workspace / "memory" / "2026-05-15.md").read_bytes()
    assert main(["apply", *PENDING]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["added"] == 0 and "already applied" in captured.err
    assert (workspace / "memory" / "2026-05-15.md").read_bytes() == text
    assert main(["cancel", *PENDING]) == 0
    assert "already applied" in capsys.readouterr().out
    assert main(["cancel", *PENDING]) == 0
    assert capsys.readouterr().out == "No pending preview to cancel.\n"
    assert main(["apply", *PENDING]) == 2
    assert capsys.readouterr().err == "savenow: No pending preview, run /savenow first.\n"


def test_cancel_before_apply(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*PREVIEW, *PENDING]) == 0
    capsys.readouterr()
    assert main(["cancel", *PENDING]) == 0
    assert capsys.readouterr().out == "Pending preview cancelled. Nothing written.\n"
    assert not (workspace / "temp" / "savenow-pending.json").exists()


def test_apply_expired(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main([*PREVIEW, *PENDING]) == 0
    capsys.readouterr()
    before = snapshot(workspace)
    monkeypatch.setenv("SAVENOW_NOW", "2026-05-15T17:30:00+08:00")
    assert main(["apply", *PENDING]) == 2
    assert capsys.readouterr().err == "savenow: Preview expired (12 min ago), rerun /savenow.\n"
    assert snapshot(workspace) == before


@pytest.mark.parametrize(
    ("entries_text", "args", "message"),
    [
        ("{not json", [], "is not valid JSON"),
        ('"just a string"', [], "entries must be a JSON array"),
        ('[{"title": "t", "bullets": 5}]', [], "entries[0].bullets must be a list of strings"),
        (
            '[{"title": "t", "bullets": ["b"], "action": "delete"}]',
            [],
            "entries[0].action must be add, merge or skip",
        ),
        ("[]", ["--memory-path", "MEMORY.md"], "never writes MEMORY.md"),
        ("[]", ["--memory-path", "memory/memory.MD"], "never writes MEMORY.md"),
        ("[]", ["--date", "15/05/2026"], "--date must be YYYY-MM-DD"),
        (None, [], "entries file not found"),
    ],
)
@pytest.mark.parametrize("command", ["preview-diff", "merge-daily-memory"])
def test_bad_input_exits_2_with_one_line_and_no_change(
    workspace: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    entries_text: str | None,
    args: list[str],
    message: str,
) -> None:
    entries = workspace / "temp" / "savenow-entries.json"
    if entries_text is None:
        entries.unlink()
    else:
        entries.write_text(entries_text)
    extra = PENDING if command == "preview-diff" else []
    before = snapshot(workspace)
    assert main([command, "--entries-file", "temp/savenow-entries.json", *extra, *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and message in captured.err
    assert snapshot(workspace) == before


def test_bad_pending_file_and_memory_md_target(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pending = workspace / "temp" / "savenow-pending.json"
    pending.write_text('{"memoryPath": 3}')
    before = snapshot(workspace)
    assert main(["apply", *PENDING]) == 2
    assert "pending preview is malformed: memoryPath is missing" in capsys.readouterr().err
    data = {
        "version": 1, "sessionKey": "", "messageThreadId": "", "generatedAt": "2026-05-15T16:40:00+08:00",
        "expiresAt": "2026-05-15T17:10:00+08:00", "memoryPath": str(workspace / "MEMORY.md"), "entries": [],
    }  # fmt: skip
    pending.write_text(json.dumps(data))
    before = snapshot(workspace)
    assert main(["apply", *PENDING]) == 2
    assert "never writes MEMORY.md" in capsys.readouterr().err
    assert snapshot(workspace) == before


def test_non_utf8_memory_file_is_refused_untouched(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = workspace / "memory" / "2026-05-15.md"
    path.write_bytes("## 标题\n- gbk\n".encode("gbk"))
    before = snapshot(workspace)
    assert (
        main(["merge-daily-memory", "--entries-file", "temp/savenow-entries.json", "--date", "2026-05-15"])
        == 2
    )
    assert "is not UTF-8 text" in capsys.readouterr().err
    assert snapshot(workspace) == before


def test_drop_in_path_imports_no_heavy_modules(workspace: Path) -> None:
    code = (
        "import sys\nfrom savenow.cli import main\n"
        "rc = main(['preview-diff', '--entries-file', 'temp/savenow-entries.json', '--pending-file', 'temp/p.json'])\n"
        "rc |= main(['merge-daily-memory', '--entries-file', 'temp/savenow-entries.json'])\n"
        "rc |= main(['apply', '--pending-file', 'temp/p.json'])\n"
        "rc |= main(['cancel', '--pending-file', 'temp/p.json'])\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'telegram', 'httpx', 'yaml', 'filelock'})\n"
        "print(rc, heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=workspace, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "0 []"
