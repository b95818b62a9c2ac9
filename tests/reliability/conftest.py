"""Reliability probes reuse the chat-command installation of tests/service."""

import json
from pathlib import Path

import pytest

from tests.service.conftest import install, savenow  # noqa: F401 - fixtures


@pytest.fixture
def skill_ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A skill workspace for the drop-ins: memory/ with today's file, temp/ with an entries file."""
    for name in ("SAVENOW_WORKSPACE", "SAVENOW_LLM__API_KEY", "SAVENOW_TELEGRAM__TOKEN"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "memory").mkdir()
    (tmp_path / "temp").mkdir()
    (tmp_path / "memory" / "2026-11-28.md").write_text(
        "# 2026-11-28\n\n## 09:00 - Old\n- old note\n", encoding="utf-8"
    )
    entries = [{"title": "Nginx upload limit", "bullets": ["client_max_body_size 50m in files.conf"]}]
    (tmp_path / "temp" / "savenow-entries.json").write_text(json.dumps(entries), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SAVENOW_NOW", "2026-11-28T10:00:00+08:00")
    monkeypatch.setenv("SAVENOW_TIMEZONE", "Asia/Shanghai")
    return tmp_path
