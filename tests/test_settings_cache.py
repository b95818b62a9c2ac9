"""The settings cache of light commands (savenow/settings_cache.py): a hit skips pydantic, and
nothing about validation changes — same errors, env overrides apply, edits are seen, no secret
is ever written down."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from savenow import settings_cache
from savenow.cli import search as search_cli
from savenow.cli.main import main
from savenow.errors import ConfigError

OLD_NS = 10**18  # 2001: a config file this old has its final mtime


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.startswith("SAVENOW_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    # The files are written a moment ago: trust their mtime as if they were old (see test_racy…).
    monkeypatch.setattr(settings_cache, "_RACY_NS", 0)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "memory" / "2026-01-01.md").write_text("## 端口\n- gateway 端口改成 18789。\n", encoding="utf-8")
    return ws


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "home" / ".config" / "savenow" / "config.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _args(**values: object) -> argparse.Namespace:
    return argparse.Namespace(**{"config": None, "workspace": None, "timezone": None, **values})


def _entries() -> list[Path]:
    folder = settings_cache.cache_dir()
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _no_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    import savenow.config

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("validated again")

    monkeypatch.setattr(savenow.config, "load_settings", refuse)


def test_a_hit_returns_what_validation_gave(
    tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _config(tmp_path, f"workspace: {workspace}\nsearch:\n  min_score: 0.2\n  extra_paths: [notes]\n")
    first = search_cli._options(_args())
    assert first[1].min_score == 0.2 and first[1].extra_paths == (workspace / "notes",)
    assert len(_entries()) == 1
    _no_validation(monkeypatch)
    assert search_cli._options(_args()) == first


def test_a_hit_in_a_new_process_loads_no_pydantic(tmp_path: Path, workspace: Path) -> None:
    _config(tmp_path, "search:\n  max_results: 3\n")
    search_cli._options(_args(workspace=str(workspace)))  # stores the view
    code = (
        "import sys\nfrom savenow.cli.main import main\n"
        f"code = main(['search', '--json', '--workspace', {str(workspace)!r}, 'gateway'])\n"
        "print(code, 'pydantic' in sys.modules, 'yaml' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "0 False False"


def test_a_bad_config_is_the_same_error_every_time_and_never_stored(tmp_path: Path) -> None:
    _config(tmp_path, "search:\n  min_score: 5\n")
    messages = []
    for _ in range(2):
        with pytest.raises(ConfigError) as refused:
            search_cli._options(_args())
        messages.append(refused.value.message("en"))
    assert messages[0] == messages[1] and "search.min_score" in messages[0]
    assert _entries() == []


def test_an_edited_config_is_validated_again(tmp_path: Path) -> None:
    path = _config(tmp_path, "search:\n  min_score: 0.2\n")
    assert search_cli._options(_args())[1].min_score == 0.2
    path.write_text("search:\n  min_score: 0.25\n", encoding="utf-8")
    assert search_cli._options(_args())[1].min_score == 0.25
    path.write_text("search:\n  min_score: 9\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        search_cli._options(_args())


def test_an_env_override_and_a_flag_apply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _config(tmp_path, "search:\n  min_score: 0.2\n")
    assert search_cli._options(_args())[1].min_score == 0.2
    monkeypatch.setenv("SAVENOW_SEARCH__MIN_SCORE", "0.45")
    assert search_cli._options(_args())[1].min_score == 0.45
    monkeypatch.setenv("SAVENOW_SEARCH__MIN_SCORE", "7")
    with pytest.raises(ConfigError) as refused:
        search_cli._options(_args())
    assert "SAVENOW_SEARCH__MIN_SCORE" in refused.value.message("en")
    monkeypatch.delenv("SAVENOW_SEARCH__MIN_SCORE")
    assert search_cli._options(_args(workspace="/elsewhere"))[0] == Path("/elsewhere")
    assert search_cli._options(_args())[1].min_score == 0.2


def test_no_secret_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _config(
        tmp_path,
        "search:\n  provider: openai\n  remote: {base_url: 'http://127.0.0.1:9', api_key: sk-yaml-secret}\n",
    )
    options = search_cli._options(_args())[1]
    assert options.api_key == "sk-yaml-secret"
    assert _entries() == []  # a view holding a key is validated on every run instead
    _config(tmp_path, "search:\n  min_score: 0.2\n")
    monkeypatch.setenv("SAVENOW_LLM__API_KEY", "sk-env-secret")
    search_cli._options(_args())
    assert len(_entries()) == 1
    assert all("sk-" not in entry.read_text(encoding="utf-8") for entry in _entries())


@pytest.mark.parametrize(
    "base_url",
    ["http://user:sk-in-url@127.0.0.1:9/v1", "http://127.0.0.1:9/v1?api-key=sk-in-query"],
)
def test_credentials_in_the_base_url_are_never_written(tmp_path: Path, base_url: str) -> None:
    _config(tmp_path, f"search:\n  provider: openai\n  remote: {{base_url: '{base_url}'}}\n")
    assert search_cli._options(_args())[1].base_url == base_url
    assert _entries() == []  # such a view is validated on every run instead


def test_a_config_written_in_the_last_seconds_is_not_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings_cache, "_RACY_NS", 2_000_000_000)
    path = _config(tmp_path, "search:\n  min_score: 0.2\n")
    assert search_cli._options(_args())[1].min_score == 0.2
    assert _entries() == []  # a same-size edit in the same clock tick would keep this mtime
    os.utime(path, ns=(OLD_NS, OLD_NS))  # ctime is now, still: not yet
    search_cli._options(_args())
    assert _entries() == []


def test_openclaw_json_names_the_workspace_searched(tmp_path: Path, workspace: Path) -> None:
    state = tmp_path / "home" / ".openclaw"
    state.mkdir(parents=True)
    (state / "openclaw.json").write_text(
        json.dumps({"agents": {"defaults": {"workspace": str(workspace)}}}), encoding="utf-8"
    )
    assert search_cli._options(_args())[0] == workspace
    (state / "openclaw.json").write_text(
        json.dumps({"agents": {"defaults": {"workspace": str(tmp_path / "other")}}}), encoding="utf-8"
    )
    assert search_cli._options(_args())[0] == tmp_path / "other"


def test_the_compact_flags_are_the_settings_flags() -> None:
    from savenow.cli.compaction import _SETTINGS_FLAGS
    from savenow.config import SETTINGS_FLAGS

    assert _SETTINGS_FLAGS == SETTINGS_FLAGS


def _seed(path: Path, count: int = 12) -> Path:
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"第 {i} 条消息 message {i}"}
        for i in range(count)
    ]
    path.write_text(json.dumps({"version": 1, "messages": messages}), encoding="utf-8")
    return path


def test_compact_status_from_the_cache_is_the_services_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from savenow.config import load_settings
    from savenow.service.compaction import CompactionService, Target

    _config(tmp_path, "compaction:\n  max_tokens: 100\n  preserve_recent: 2\n")
    store = _seed(tmp_path / "s.clawsession.json")
    expected = CompactionService(load_settings()).status(Target(store_file=store))
    for _ in range(2):  # a miss, then a hit
        assert main(["compact", "status", "--store", str(store), "--json"]) == 0
        assert json.loads(capsys.readouterr().out) == expected
    assert main(["compact", "status", "--store", str(store), "--json", "--max-tokens", "5000"]) == 0
    assert json.loads(capsys.readouterr().out)["maxTokens"] == 5000
    monkeypatch.setenv("SAVENOW_COMPACTION__MAX_TOKENS", "7")  # below the minimum: refused as before
    assert main(["compact", "status", "--store", str(store)]) == 2
    assert "SAVENOW_COMPACTION__MAX_TOKENS" in capsys.readouterr().err


def test_compact_status_refuses_as_the_service_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = tmp_path / "home" / ".openclaw" / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    inside = _seed(sessions / "x.clawsession.json")
    assert main(["compact", "status", "--store", str(inside)]) == 2
    assert "OpenClaw" in capsys.readouterr().err
    assert main(["compact", "status", "--store", str(tmp_path / "missing.json")]) == 2
    assert "not found" in capsys.readouterr().err
    monkeypatch.setenv("SAVENOW_TIMEZONE", "Mars/Olympus")
    assert main(["compact", "status", "--store", str(_seed(tmp_path / "ok.json"))]) == 2
    assert "Mars/Olympus" in capsys.readouterr().err
