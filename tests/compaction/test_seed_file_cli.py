"""The seed's file format through `savenow compact status|run|history|check` (DESIGN §13, §15)."""

import json
import os
from pathlib import Path

import pytest

from savenow.cli import main

from .support import append_seed, conversation, msg, write_seed

NOW_ENV = {"SAVENOW_NOW": "2026-11-30T12:00:00+00:00"}


@pytest.fixture(autouse=True)
def _env(monkeypatch, tmp_path):
    for key, value in NOW_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("SAVENOW_CONFIG", str(tmp_path / "none.yaml"))
    (tmp_path / "none.yaml").write_text("{}\n")
    monkeypatch.setenv("SAVENOW_EXTRACTOR", "heuristic")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def seed(tmp_path: Path, count: int = 20, **extra) -> Path:
    path = tmp_path / ".clawsession.json"
    write_seed(path, conversation(count), **extra)
    (tmp_path / "ws").mkdir(exist_ok=True)
    return path


def test_status_json_shape(tmp_path, capsys):
    store = seed(tmp_path)
    code, out, _ = run(
        capsys, "compact", "status", "--store", str(store), "--workspace", str(tmp_path / "ws"), "--json"
    )
    status = json.loads(out)
    assert code == 0
    assert {"messages", "tokens", "maxTokens", "shouldCompact", "compactionCount"} <= status.keys()
    assert status["messages"] == 20 and status["shouldCompact"] is False and status["maxTokens"] == 80000


def test_run_under_the_threshold_changes_nothing_not_even_timestamps(tmp_path, capsys):
    store = seed(tmp_path)
    before = store.read_bytes()
    os.utime(store, ns=(1_000_000_000, 1_000_000_000))
    code, out, _ = run(
        capsys, "compact", "run", "--store", str(store), "--workspace", str(tmp_path / "ws"), "--json"
    )
    assert code == 0 and json.loads(out)["removedCount"] == 0
    assert store.read_bytes() == before
    assert store.stat().st_mtime_ns == 1_000_000_000
    assert not (tmp_path / "ws" / "memory").exists()


def test_run_over_the_threshold_and_forced(tmp_path, capsys):
    store = seed(tmp_path, extra_field="kept")
    code, out, _ = run(
        capsys,
        "compact",
        "run",
        "--store",
        str(store),
        "--workspace",
        str(tmp_path / "ws"),
        "--max-tokens",
        "100",
        "--json",
    )
    result = json.loads(out)
    assert code == 0
    assert {
        "summary",
        "removedCount",
        "compactionCount",
        "tokensBefore",
        "tokensAfter",
        "flush",
    } <= result.keys()
    assert result["removedCount"] == 16 and result["compactionCount"] == 1
    assert result["tokensAfter"] < result["tokensBefore"]
    data = json.loads(store.read_text())
    assert data["extra_field"] == "kept"  # fields savenow does not know stay
    assert data["compactionCount"] == 1 and data["updatedAt"] == "2026-11-30T12:00:00Z"
    assert data["messages"][0]["role"] == "system" and data["messages"][0]["compacted"] is True
    assert [m["content"] for m in data["messages"][1:]] == [m["content"] for m in conversation(20)[16:]]
    assert "/etc/app/svc-0.conf" in data["messages"][0]["content"]  # identifiers verbatim
    # the second run with nothing new is a no-op
    before = store.read_bytes()
    code, out, _ = run(
        capsys,
        "compact",
        "run",
        "--store",
        str(store),
        "--workspace",
        str(tmp_path / "ws"),
        "--force",
        "--json",
    )
    assert json.loads(out)["removedCount"] == 0 and store.read_bytes() == before
    # history
    code, out, _ = run(
        capsys, "compact", "history", "--store", str(store), "--workspace", str(tmp_path / "ws"), "--json"
    )
    (item,) = json.loads(out)["compactions"]
    assert item["removedCount"] == 16 and {"at", "tokensBefore", "tokensAfter"} <= item.keys()


def test_compaction_n_plus_one_summarizes_what_n_kept(tmp_path, capsys):
    store = seed(tmp_path, count=10)
    ws = str(tmp_path / "ws")
    run(capsys, "compact", "run", "--store", str(store), "--workspace", ws, "--force")
    append_seed(store, conversation(10, start=10))
    code, out, _ = run(
        capsys, "compact", "run", "--store", str(store), "--workspace", ws, "--force", "--json"
    )
    assert code == 0
    result = json.loads(out)
    summary = result["summary"]
    assert result["removedCount"] == 10  # the 4 kept by the first run + 10 new, minus the 4 kept now
    assert "svc-6" in summary and "svc-8" in summary  # kept by compaction 1, summarized by compaction 2
    assert "svc-0" in summary  # still there from the first summary
    assert summary.count("## Session summary") == 1  # merged, never nested


def test_tool_calls_stay_with_their_results(tmp_path, capsys):
    messages = [
        *conversation(8),
        msg("user", "看一下磁盘", 20),
        msg("assistant", "", 21, tool=("bash", "df -h /var")),
        msg("tool", "/dev/sda1 98% /var", 22),
        msg("assistant", "", 23, tool=("read_file", "/etc/fstab")),
        msg("tool", "UUID=abc / ext4", 24),
        msg("assistant", "/var 用了 98%", 25),
    ]
    store = tmp_path / ".clawsession.json"
    write_seed(store, messages)
    run(
        capsys,
        "compact",
        "run",
        "--store",
        str(store),
        "--workspace",
        str(tmp_path / "ws"),
        "--force",
        "--preserve-recent",
        "2",
        "--json",
    )
    kept = json.loads(store.read_text())["messages"][1:]
    assert kept[0]["role"] != "tool"
    assert kept[0]["toolUse"]["input"] == "/etc/fstab"  # the call, then its result
    assert kept[1]["role"] == "tool"


def test_bad_input_is_one_line_exit_2_and_no_change(tmp_path, capsys):
    store = tmp_path / ".clawsession.json"
    store.write_text("{not json")
    code, _, err = run(capsys, "compact", "run", "--store", str(store), "--force")
    assert code == 2 and err.count("\n") == 1 and "not valid JSON" in err
    assert store.read_text() == "{not json"
    code, _, err = run(capsys, "compact", "status", "--store", str(tmp_path / "missing.json"))
    assert code == 2 and "not found" in err
    code, _, err = run(capsys, "compact", "run", "--store", str(store), "--preserve-recent", "0")
    assert code == 2


def test_openclaw_store_is_never_written(tmp_path, capsys):
    openclaw = tmp_path / "openclaw"
    openclaw.mkdir()
    store = openclaw / "x.clawsession.json"
    write_seed(store, conversation(10))
    before = store.read_bytes()
    code, _, err = run(
        capsys, "compact", "run", "--store", str(store), "--sessions-dir", str(openclaw), "--force"
    )
    assert code == 2 and "never writes" in err and store.read_bytes() == before


def test_check_is_quiet_when_nothing_to_do_and_logs_inside_the_workspace(tmp_path, capsys):
    store = seed(tmp_path)
    ws = tmp_path / "ws"
    code, out, err = run(capsys, "compact", "check", "--store", str(store), "--workspace", str(ws))
    assert code == 0 and out == "" and err == ""
    assert not (ws / ".savenow" / "logs").exists()
    code, out, _ = run(
        capsys, "compact", "check", "--store", str(store), "--workspace", str(ws), "--max-tokens", "100"
    )
    # check uses the configured threshold, not --max-tokens: configure it instead
    os.environ["SAVENOW_COMPACTION__MAX_TOKENS"] = "100"
    try:
        code, out, _ = run(capsys, "compact", "check", "--store", str(store), "--workspace", str(ws))
    finally:
        del os.environ["SAVENOW_COMPACTION__MAX_TOKENS"]
    assert code == 0 and "compacted" in out
    log = (ws / ".savenow" / "logs" / "compaction.log").read_text()
    assert json.loads(log.splitlines()[0])["removedCount"] == 16
    assert list(tmp_path.glob("*.log")) == []


def test_system_instructions_are_never_summarized_away(tmp_path, capsys):
    store = tmp_path / ".clawsession.json"
    write_seed(store, [msg("system", "You are a careful ops assistant. 回答用中文。", 0), *conversation(12)])
    code, out, _ = run(
        capsys,
        "compact",
        "run",
        "--store",
        str(store),
        "--workspace",
        str(tmp_path / "ws"),
        "--force",
        "--json",
    )
    assert code == 0 and json.loads(out)["removedCount"] == 8
    messages = json.loads(store.read_text())["messages"]
    assert messages[0]["compacted"] is True
    assert messages[1] == msg("system", "You are a careful ops assistant. 回答用中文。", 0)
    assert len(messages) == 2 + 4
    code, out, _ = run(
        capsys,
        "compact",
        "run",
        "--store",
        str(store),
        "--workspace",
        str(tmp_path / "ws"),
        "--force",
        "--json",
    )
    assert json.loads(out)["removedCount"] == 0  # nothing new: the pinned instruction does not count
