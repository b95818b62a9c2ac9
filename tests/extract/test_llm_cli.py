"""`savenow preview` with the LLM extractor end to end: the fake server, a temporary store, the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from savenow.cli import main
from tests.extract.conftest import TEST_API_KEY
from tests.fakes.fake_llm import FakeLLMServer, chat_reply

CHAT_ID = "-100123"
THREAD_ID = 7
SESSION_KEY = f"agent:main:telegram:group:{CHAT_ID}:topic:{THREAD_ID}"
MEMORY = "# 2026-11-28\n\n## Gateway\n- gateway runs under systemd\n"


def write_workspace(root: Path) -> tuple[Path, Path]:
    sessions = root / "sessions"
    workspace = root / "ws"
    sessions.mkdir(parents=True)
    (workspace / "memory").mkdir(parents=True)
    (workspace / "memory" / "2026-11-28.md").write_text(MEMORY, encoding="utf-8")
    index = {
        SESSION_KEY: {
            "sessionId": "s1",
            "updatedAt": 1_795_000_000_000,
            "chatType": "group",
            "deliveryContext": {"channel": "telegram", "to": CHAT_ID, "threadId": THREAD_ID},
        }
    }
    (sessions / "sessions.json").write_text(json.dumps(index), encoding="utf-8")
    lines = [{"type": "session", "version": 3, "id": "s1", "timestamp": "2026-11-28T01:00:00Z", "cwd": "/"}]
    texts = [("user", "gateway token mismatch again"), ("assistant", "the unit file overrides the token")]
    for number, (role, text) in enumerate(texts):
        lines.append(
            {
                "type": "message",
                "id": f"m{number}",
                "parentId": f"m{number - 1}" if number else None,
                "timestamp": f"2026-11-28T01:0{number}:00Z",
                "message": {"role": role, "content": [{"type": "text", "text": text}]},
            }
        )
    body = "".join(json.dumps(line) + "\n" for line in lines)
    (sessions / f"s1-topic-{THREAD_ID}.jsonl").write_text(body, encoding="utf-8")
    return workspace, sessions


@pytest.fixture
def cli_env(tmp_path: Path, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    workspace, sessions = write_workspace(tmp_path)
    config = tmp_path / "config.yaml"
    config.write_text("{}\n", encoding="utf-8")
    for name, value in {
        "SAVENOW_CONFIG": str(config),
        "SAVENOW_NOW": "2026-11-28T20:00:00+00:00",
        "SAVENOW_TIMEZONE": "UTC",
        "SAVENOW_LLM__BASE_URL": fake_llm.base_url,
        "SAVENOW_LLM__MODEL": "fake-model",
        "SAVENOW_LLM__API_KEY": TEST_API_KEY,
        "SAVENOW_LLM__MAX_RETRIES": "0",
    }.items():
        monkeypatch.setenv(name, value)
    return ["--workspace", str(workspace), "--sessions-dir", str(sessions), "--chat-id", CHAT_ID,
            "--thread-id", str(THREAD_ID)]  # fmt: skip


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_garbage_twice_exits_2_and_changes_no_file(
    tmp_path: Path, fake_llm: FakeLLMServer, cli_env: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    fake_llm.script(chat_reply("no idea"), chat_reply("still no json"))
    before = snapshot(tmp_path)

    code = main(["preview", *cli_env])

    captured = capsys.readouterr()
    assert code == 2
    assert "not usable twice" in captured.err
    assert TEST_API_KEY not in captured.err + captured.out
    assert snapshot(tmp_path) == before  # no memory write, no pending preview
    assert len(fake_llm.requests) == 2


def test_a_good_answer_previews_through_the_comparer(
    fake_llm: FakeLLMServer, cli_env: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    entry = {"title": "Gateway token fix", "bullets": ["the unit file's OPENCLAW_GATEWAY_TOKEN overrides the config"],
             "action": "merge", "merge_target_title": "## Gateway", "reason": "root cause"}  # fmt: skip
    fake_llm.script(chat_reply(json.dumps({"entries": [entry]})))

    code = main(["preview", "--json", *cli_env])

    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [(e["action"], e["merge_target_title"]) for e in out["entries"]] == [("merge", "Gateway")]
    assert out["written"] is False
    user_message = fake_llm.requests[0].json["messages"][1]["content"]
    assert "U: gateway token mismatch again" in user_message and "## Gateway" in user_message
