"""A small OpenClaw installation for the chat-command flows: a store with topics, and a workspace."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from savenow.cli import main
from tests.sessions.storegen import GROUP, StoreBuilder, assistant, compaction, tool_result, topic_key, user

NOW = "2026-11-29T21:00:00+08:00"
TODAY = "2026-11-29"

DURABLE_TOPIC = [
    user("早，网关又报 unauthorized: gateway token mismatch 了"),
    assistant("先看看是不是时钟漂移？", tool_call=True),
    tool_result("Wed Nov 29 09:01:02 CST 2026"),
    user("时钟是对的"),
    assistant("那不是时钟的问题。看一下 gateway.cmd 里的 OPENCLAW_GATEWAY_TOKEN 和 openclaw.json 是否一致。"),
    user("果然不一致，改了 gateway.cmd 里的 token 之后重启就好了"),
    assistant(
        "根因是轮换 token 时只更新了 openclaw.json，没更新 `gateway.cmd` 里的 `OPENCLAW_GATEWAY_TOKEN`。"
        "修复：两处同时更新后重启 gateway。"
    ),
    user("记住：以后轮换 gateway token 时 `gateway.cmd` 和 `openclaw.json` 必须一起改"),
    assistant("好的，记住了：以后轮换 token 两处一起改。"),
    user("谢谢 哈哈"),
]

CHITCHAT_TOPIC = [
    user("hi there"),
    assistant("Hi! How can I help?"),
    user("nothing much, just saying hello. how are you?"),
    assistant("Doing well, thanks for asking!"),
    user("cool, talk later"),
    assistant("Sure, see you!"),
]


@dataclass
class Install:
    root: Path
    workspace: Path
    sessions: Path

    @property
    def memory_file(self) -> Path:
        return self.workspace / "memory" / f"{TODAY}.md"

    def files(self) -> dict[str, bytes]:
        """Every file under the installation, for "nothing changed" assertions."""
        return {
            str(path.relative_to(self.root)): path.read_bytes()
            for path in sorted(self.root.rglob("*"))
            if path.is_file() and "locks" not in path.parts
        }


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Install]:
    for name in list(os.environ):
        if name.startswith("SAVENOW_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    workspace = tmp_path / "workspace"
    (workspace / "memory").mkdir(parents=True)
    store = StoreBuilder(tmp_path / "sessions")
    ms = 1_795_900_000_000
    store.add(topic_key(7), DURABLE_TOPIC, updated_at=ms, chatType="group", deliveryContext={"threadId": 7})
    store.add(topic_key(8), CHITCHAT_TOPIC, updated_at=ms, chatType="group", deliveryContext={"threadId": 8})
    # An older session of topic 7 (before a /new): the newest one wins.
    store.add(
        topic_key(7) + ":old",
        [user("old conversation"), assistant("old answer")],
        updated_at=ms - 86_400_000,
        chatType="group",
        lastThreadId=7,
    )
    # Never candidates: slash, cron, subagent, heartbeat sessions of the same topic.
    for suffix in (":slash:42", ":cron:nightly", ":subagent:x", ":heartbeat"):
        store.add(f"agent:main:telegram{suffix}", DURABLE_TOPIC, updated_at=ms + 5, lastThreadId=7)
    store.add("agent:main:telegram:direct:555", DURABLE_TOPIC, updated_at=ms, chatType="direct")
    store.add(topic_key(9), [compaction(), *DURABLE_TOPIC], updated_at=ms, chatType="group", lastThreadId=9)
    broken = ['{"type": "message", "message": {"role": "user"', "not json at all", *DURABLE_TOPIC]
    store.add(topic_key(10), broken, updated_at=ms, chatType="group", lastThreadId=10)
    store.write()
    monkeypatch.setenv("SAVENOW_WORKSPACE", str(workspace))
    monkeypatch.setenv("SAVENOW_SESSIONS_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("SAVENOW_EXTRACTOR", "heuristic")
    monkeypatch.setenv("SAVENOW_TIMEZONE", "Asia/Shanghai")
    monkeypatch.setenv("SAVENOW_NOW", NOW)
    yield Install(root=tmp_path, workspace=workspace, sessions=tmp_path / "sessions")


Runner = Callable[..., tuple[int, str, str]]


@pytest.fixture
def savenow(capsys: pytest.CaptureFixture[str]) -> Runner:
    """Run the real CLI in-process: returns (exit status, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return run


__all__ = ["GROUP", "NOW", "TODAY", "Install"]
