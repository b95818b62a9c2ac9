"""Bad input (issue 10 items 2, 3, 8): one line on stderr, exit 2, every file as it was — or, for
input that is merely damaged, the command goes on and says what it skipped."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from savenow.cli import main
from tests.reliability.support import assert_refused, hashes, refuse_in_process, run_cli
from tests.service.conftest import TODAY, Install, Runner
from tests.sessions.storegen import topic_key

MEMORY = Path("memory/2026-11-28.md")
MERGE = ["merge-daily-memory", "--entries-file", "temp/savenow-entries.json", "--memory-path", str(MEMORY)]
DEEP = "[" * 100_000


def test_entries_nested_100k_deep(skill_ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (skill_ws / "temp" / "savenow-entries.json").write_text(DEEP)
    refuse_in_process(capsys, skill_ws, *MERGE, contains="not valid JSON (nested more than 64 levels")
    refuse_in_process(
        capsys,
        skill_ws,
        "preview-diff",
        "--entries-file",
        "temp/savenow-entries.json",
        contains="not valid JSON",
    )


def test_pending_nested_100k_deep_and_bad_version(skill_ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pending = skill_ws / "temp" / "savenow-pending.json"
    pending.write_text(DEEP)
    refuse_in_process(capsys, skill_ws, "apply", "--pending-file", str(pending), contains="not valid JSON")
    assert (
        main(["preview-diff", "--entries-file", "temp/savenow-entries.json", "--pending-file", str(pending)])
        == 2
    )
    capsys.readouterr()
    pending.unlink()
    assert (
        main(["preview-diff", "--entries-file", "temp/savenow-entries.json", "--pending-file", str(pending)])
        == 0
    )
    capsys.readouterr()
    data = json.loads(pending.read_text())
    for version in ("abc", 2.5, [1]):
        pending.write_text(json.dumps({**data, "version": version}))
        refuse_in_process(capsys, skill_ws, "apply", "--pending-file", str(pending), contains="version")


def test_sessions_json_nested_100k_deep(install: Install, savenow: Runner) -> None:
    (install.sessions / "sessions.json").write_text(DEEP)
    before = hashes(install.root)
    status, _, err = savenow("preview", "--chat-id", "-1001234567890", "--thread-id", "7")
    assert_refused(status, err, contains="is not valid JSON (nested too deep)")
    assert hashes(install.root) == before


def test_a_transcript_line_nested_5000_deep_is_skipped_and_counted(install: Install, savenow: Runner) -> None:
    transcript = next(install.sessions.glob("*.jsonl"))
    key = next(
        k
        for k, v in json.loads((install.sessions / "sessions.json").read_text()).items()
        if transcript.name.startswith(v["sessionId"])
    )
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write("[" * 5000 + "]" * 5000 + "\n")
    status, out, err = savenow("preview", key)
    assert status == 0, err
    assert "malformed transcript line(s) were skipped" in out


def test_updated_at_1e20_and_nan_are_no_time(install: Install, savenow: Runner) -> None:
    store = json.loads((install.sessions / "sessions.json").read_text())
    store[topic_key(7)]["updatedAt"] = 1e20
    store[topic_key(8)]["updatedAt"] = "9999-12-31T23:59:59+00:00"
    (install.sessions / "sessions.json").write_text(json.dumps(store))
    status, _out, err = savenow("list", "--chat-id", "-1001234567890", "--thread-id", "7", "--json")
    assert status == 0, err
    assert "Traceback" not in err


@pytest.mark.parametrize("now", ["9999-12-31T23:50", "0001-01-01T00:00", "nonsense"])
def test_savenow_now_out_of_range(
    skill_ws: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, now: str
) -> None:
    monkeypatch.setenv("SAVENOW_NOW", now)
    refuse_in_process(capsys, skill_ws, *MERGE, contains="SAVENOW_NOW")


def test_a_lone_surrogate_in_an_entry_is_replaced_before_writing(
    skill_ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entries = (
        '[{"title": "Emoji cut \\ud83d in half", "bullets": ["half \\ude00 and a pair \\ud83d\\ude00"]}]'
    )
    (skill_ws / "temp" / "savenow-entries.json").write_text(entries)
    assert main(MERGE) == 0
    text = (skill_ws / MEMORY).read_bytes().decode("utf-8")  # strict: valid UTF-8
    assert "Emoji cut \ufffd in half" in text and "half \ufffd and a pair 😀" in text
    (skill_ws / ".savenow" / "journal.jsonl").read_bytes().decode("utf-8")
    capsys.readouterr()
    assert main(MERGE) == 0  # the next command still reads the day's file
    assert main(["undo"]) == 0


def test_a_lone_surrogate_in_a_transcript_line(install: Install, savenow: Runner) -> None:
    transcript = min(install.sessions.glob("*.jsonl"))
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(
            json.dumps(
                {
                    "type": "message",
                    "id": "x1",
                    "message": {"role": "user", "content": "记住：端口 \ud83d 是 18789"},
                }
            )
            + "\n"
        )
    store = json.loads((install.sessions / "sessions.json").read_text())
    key = next(k for k, v in store.items() if transcript.name.startswith(v["sessionId"]))
    status, _out, err = savenow("auto", key)
    assert status == 0, err
    if install.memory_file.exists():
        install.memory_file.read_bytes().decode("utf-8")


def test_secrets_never_reach_the_file_the_journal_or_stdout(
    skill_ws: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    configured = "my-configured-llm-key-0123456789"
    monkeypatch.setenv("SAVENOW_LLM__API_KEY", configured)
    shapes = [
        "sk-proj-" + "A1b2C3d4" * 4,
        "Bearer " + "eyJhbGciOiJIUzI1NiJ9x" * 2,
        "123456789:AAHfiqksKZ8WmR2zSjiQ7_v4TMAKdiHm9T0",
        "AKIAIOSFODNN7EXAMPLE",
        "ghp_" + "x" * 36,
        "AIza" + "S" * 35,
        "xoxb-123456789012-abcdefghij",
    ]
    bullets = [f"token {shape} here" for shape in shapes] + [f"key {configured}"]
    entries = [{"title": "Keys", "bullets": bullets[:5]}, {"title": "More keys", "bullets": bullets[5:]}]
    (skill_ws / "temp" / "savenow-entries.json").write_text(json.dumps(entries))
    pending = skill_ws / "temp" / "savenow-pending.json"
    assert (
        main(
            [
                "preview-diff",
                "--entries-file",
                "temp/savenow-entries.json",
                "--memory-path",
                str(MEMORY),
                "--pending-file",
                str(pending),
            ]
        )
        == 0
    )
    preview = capsys.readouterr().out
    assert "8 secret-looking string(s)" in preview and "were redacted" in preview
    assert main(["apply", "--pending-file", str(pending)]) == 0
    out = capsys.readouterr().out
    written = "".join(  # everything savenow wrote (the entries file is the test's own input)
        p.read_text() for p in skill_ws.rglob("*") if p.is_file() and p.name != "savenow-entries.json"
    )
    for secret in [configured, *shapes]:
        for text in (preview, out, written):
            assert secret not in text
    assert "[redacted]" in (skill_ws / MEMORY).read_text()


def test_ordinary_words_are_not_redacted(skill_ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = [{"title": "api-version", "bullets": ["use sk-learn and key_format; task-1234 Bearer of news"]}]
    (skill_ws / "temp" / "savenow-entries.json").write_text(json.dumps(entries))
    assert main(MERGE) == 0
    assert "use sk-learn and key_format; task-1234 Bearer of news" in (skill_ws / MEMORY).read_text()


def test_yaml_errors_are_one_line(install: Install, savenow: Runner, tmp_path: Path) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("llm:\n  base_url: [unclosed\n  model: x\n")
    status, _, err = savenow("list", "--config", str(config))
    assert_refused(status, err, contains="not valid YAML")


def test_a_missing_workspace_is_refused_and_not_created(
    install: Install, savenow: Runner, tmp_path: Path
) -> None:
    missing = tmp_path / "nonexistent"
    status, _, err = savenow("preview", "--workspace", str(missing))
    assert_refused(status, err, contains="does not exist")
    assert not missing.exists()


def test_fifos_are_refused_not_waited_on(skill_ws: Path) -> None:
    fifo = skill_ws / "temp" / "fifo.json"
    os.mkfifo(fifo)
    memory_fifo = skill_ws / "memory" / "2026-11-29.md"
    os.mkfifo(memory_fifo)
    before = hashes(skill_ws)
    env = {"SAVENOW_NOW": "2026-11-28T10:00:00+08:00"}
    for argv in (
        ["merge-daily-memory", "--entries-file", str(fifo), "--memory-path", str(MEMORY)],
        [
            "merge-daily-memory",
            "--entries-file",
            "temp/savenow-entries.json",
            "--memory-path",
            str(memory_fifo),
        ],
        ["preview-diff", "--entries-file", "temp/savenow-entries.json", "--memory-path", str(memory_fifo)],
    ):
        result = run_cli(*argv, cwd=skill_ws, env=env, timeout=30)
        assert_refused(result.returncode, result.stderr)
    assert hashes(skill_ws) == before


def test_disk_full_is_one_line_and_changes_nothing(
    skill_ws: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    real_write = os.write

    def full(fd: int, data: bytes) -> int:
        if len(data) > 40:  # the memory temp file (journal lines are written too: fail them all)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    before = (skill_ws / MEMORY).read_bytes()
    err = refuse_in_process_allowing_state(capsys, skill_ws, *MERGE)
    assert "the disk is full" in err
    assert (skill_ws / MEMORY).read_bytes() == before
    assert not [p for p in skill_ws.rglob("*savenow-tmp*")]


def test_a_read_only_file_system_is_one_line(
    skill_ws: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    def read_only(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    before = (skill_ws / MEMORY).read_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", read_only)
        err = refuse_in_process_allowing_state(capsys, skill_ws, *MERGE)
    assert "read-only" in err
    assert (skill_ws / MEMORY).read_bytes() == before
    assert main(["undo"]) == 2  # the aborted write is not undoable: nothing was written
    assert "Nothing to undo" in capsys.readouterr().err
    assert (skill_ws / MEMORY).read_bytes() == before


def refuse_in_process_allowing_state(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> str:
    """Like refuse_in_process, but savenow's own .savenow/ may have gained a journal line (an abort)."""
    memory_before = {k: v for k, v in hashes(root).items() if not k.startswith(".savenow")}
    status = main(list(argv))
    err = capsys.readouterr().err
    assert_refused(status, err)
    assert {k: v for k, v in hashes(root).items() if not k.startswith(".savenow")} == memory_before
    return err


def test_today_file_is_where_auto_writes(install: Install) -> None:
    assert install.memory_file.name == f"{TODAY}.md"


def test_junk_after_a_conversation_bounds_the_tail_scan(
    install: Install, savenow: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from savenow.sessions import openclaw

    monkeypatch.setattr(openclaw, "MAX_TAIL_SCAN_BYTES", 256 * 1024)
    transcript = min(install.sessions.glob("*.jsonl"))
    store = json.loads((install.sessions / "sessions.json").read_text())
    key = next(k for k, v in store.items() if transcript.name.startswith(v["sessionId"]))
    with transcript.open("a", encoding="utf-8") as handle:
        for number in range(20_000):
            handle.write(f"junk line {number} that is not JSON at all\n")
            handle.write('{"type": "custom", "customType": "noise", "data": {}}\n')
    status, out, err = savenow("preview", key)
    assert status == 0, err
    assert "Reading the transcript stopped early" in out
