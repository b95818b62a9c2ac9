"""A workspace and an OpenClaw store with a few finished conversations, for the objects tests."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from savenow.cli import main
from tests.sessions.storegen import GROUP, StoreBuilder, assistant, topic_key, user

NOW = "2026-11-29T21:00:00+08:00"

VARIANT_CHAT = [  # the user says 张姐; memory has 张姐姐
    user("张姐今天说，以后改成每周三、周六上午来打扫"),
    assistant("好的，张姐从下周起每周三、周六上午来。"),
    user("嗯 就这样"),
]
PREFERENCE_CHAT = [
    user("你最近回复太长了，以后回复三句话以内就行"),
    assistant("收到，以后控制在三句话以内。"),
]
REMEMBER_CHAT = [
    user("帮我记住：家里 wifi 密码是 sunflower-2048，路由器在书房"),
    assistant("记下了。"),
]
TOPIC_CHAT = [
    user("开了个新 side project，叫 tide-notes"),
    assistant("不错！用什么技术栈？"),
    user("Rust + SQLite，先跑在 NAS 上"),
    assistant("好。"),
]
NOTHING_CHAT = [user("今天天气怎么样"), assistant("晴，18 度。"), user("好 谢谢")]
THREADS = {21: VARIANT_CHAT, 22: PREFERENCE_CHAT, 23: REMEMBER_CHAT, 24: TOPIC_CHAT, 25: NOTHING_CHAT}


@dataclass
class Install:
    root: Path
    workspace: Path

    @property
    def objects(self) -> Path:
        return self.workspace / "memory" / "objects"

    def files(self) -> dict[str, bytes]:
        """Every file of the workspace, savenow's state included (locks aside)."""
        return {
            str(p.relative_to(self.root)): p.read_bytes()
            for p in sorted(self.workspace.rglob("*"))
            if p.is_file() and "locks" not in p.parts
        }

    def object_files(self) -> list[Path]:
        return sorted(self.objects.rglob("*.md")) if self.objects.exists() else []

    def seed(self, data: object, name: str = "seed.json") -> str:
        path = self.root / name
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return str(path)


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
    for thread, chat in THREADS.items():
        store.add(
            topic_key(thread), chat, updated_at=ms, chatType="group", deliveryContext={"threadId": thread}
        )
    store.write()
    monkeypatch.setenv("SAVENOW_WORKSPACE", str(workspace))
    monkeypatch.setenv("SAVENOW_SESSIONS_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("SAVENOW_TIMEZONE", "Asia/Shanghai")
    monkeypatch.setenv("SAVENOW_NOW", NOW)
    yield Install(root=tmp_path, workspace=workspace)


Runner = Callable[..., tuple[int, str, str]]


@pytest.fixture
def savenow(capsys: pytest.CaptureFixture[str]) -> Runner:
    """The real CLI, in-process: (exit status, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return run


def scope_flags(thread: int) -> list[str]:
    return ["--chat-id", GROUP, "--thread-id", str(thread)]


__all__ = ["GROUP", "NOW", "Install", "Runner", "scope_flags"]
