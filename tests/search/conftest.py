"""A small bilingual workspace for the search tests (its own notes, not the evaluation set's)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from savenow.search import MemorySearch, SearchOptions

TODAY = date(2026, 6, 1)

FILES = {
    "MEMORY.md": (
        "# MEMORY.md\n\n## People\n- 小雨（老婆）：生日 5 月 20 日。\n- Tom: runs the book club.\n\n"
        "## Rules\n- Never expose the database port to the internet.\n"
    ),
    "memory/2026-03-02.md": (
        "# 2026-03-02\n\n## 10:00 - 路由器\n- 路由器管理端口先用 8080。\n\n"
        "## 15:00 - Group chat\n- Ops group chat id -1009876543210.\n"
    ),
    "memory/2026-05-20.md": (
        "# 2026-05-20\n\n## 09:00 - 路由器端口\n- 路由器管理端口从 8080 改成 8443。\n\n"
        "## 11:00 - 证书\n- 新证书到期日 2026-09-01，记得续期。\n\n"
        "## 16:00 - Kernel tuning\n- Set `vm.dirty_ratio = 10` on the storage box.\n"
        "- Deployed image `nginx:1.27-alpine`, commit b7c41d2.\n"
    ),
    "memory/2026-04-11.md": (
        "# 2026-04-11\n\n## 20:00 - 照片备份\n- 照片每晚 02:00 备份到 NAS，保留 30 天。\n"
        "- Backup job uses `RESTIC_REPOSITORY` from the env file.\n\n"
        "## 21:00 - Flowers\n- 小雨喜欢白色桔梗。\n"
    ),
}


def write_files(root: Path, files: dict[str, str] = FILES) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import os

    for name in list(os.environ):
        if name.startswith("SAVENOW_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.config/savenow/config.yaml


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_files(tmp_path / "ws")


@pytest.fixture
def search(workspace: Path) -> MemorySearch:
    engine = MemorySearch(workspace, SearchOptions(), today=TODAY)
    yield engine
    engine.close()
