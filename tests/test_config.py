"""Settings precedence (flags > env > YAML > defaults) and error reporting (DESIGN §11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from savenow.config import load_settings
from savenow.errors import ConfigError


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import os

    for name in list(os.environ):
        if name.startswith("SAVENOW_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.config/savenow/config.yaml


def _yaml(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults() -> None:
    settings = load_settings()
    assert settings.transcript_limit == 150
    assert settings.preview_ttl_minutes == 30
    assert settings.extractor == "auto" and not settings.use_llm
    assert settings.workspace == Path("~/.openclaw/workspace").expanduser()
    assert settings.state_dir == settings.workspace / ".savenow"
    assert settings.effective_recorder_dir == settings.workspace / ".savenow" / "sessions"
    assert settings.sessions_dir == Path("~/.openclaw/agents/main/sessions").expanduser()


def test_sessions_dir_follows_the_agent_unless_set(tmp_path: Path) -> None:
    assert (
        load_settings(agent_id="work").sessions_dir == Path("~/.openclaw/agents/work/sessions").expanduser()
    )
    assert load_settings(agent_id="work", sessions_dir=str(tmp_path)).sessions_dir == tmp_path


def test_flags_beat_env_beat_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _yaml(tmp_path, "transcript_limit: 170\nagent_id: fromyaml\nllm:\n  model: yaml-model\n")
    monkeypatch.setenv("SAVENOW_TRANSCRIPT_LIMIT", "160")
    monkeypatch.setenv("SAVENOW_LLM__BASE_URL", "http://127.0.0.1:1/v1")
    assert load_settings(config).transcript_limit == 160
    assert load_settings(config, transcript_limit=130).transcript_limit == 130
    settings = load_settings(config)
    assert settings.agent_id == "fromyaml"
    assert settings.llm.model == "yaml-model" and settings.llm.base_url == "http://127.0.0.1:1/v1"


def test_config_file_from_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAVENOW_CONFIG", str(_yaml(tmp_path, "preview_ttl_minutes: 5\n")))
    assert load_settings().preview_ttl_minutes == 5


def test_auto_uses_llm_only_with_url_and_key(tmp_path: Path) -> None:
    config = _yaml(tmp_path, "llm:\n  base_url: http://127.0.0.1:9/v1\n")
    assert not load_settings(config).use_llm
    config = _yaml(tmp_path, "llm:\n  base_url: http://127.0.0.1:9/v1\n  api_key: sk-test\n")
    settings = load_settings(config)
    assert settings.use_llm
    assert "sk-test" not in repr(settings) and "sk-test" not in str(settings.llm)


@pytest.mark.parametrize(
    ("yaml_text", "env", "expected"),
    [
        ("transcript_limit: 500\n", {}, "transcript_limit (config file"),
        (
            "",
            {"SAVENOW_TRANSCRIPT_LIMIT": "12"},
            "transcript_limit (environment variable SAVENOW_TRANSCRIPT_LIMIT)",
        ),
        (
            "",
            {"SAVENOW_LLM__TIMEOUT_S": "soon"},
            "llm.timeout_s (environment variable SAVENOW_LLM__TIMEOUT_S)",
        ),
        ("extractor: magic\n", {}, "extractor (config file"),
        ("no_such_key: 1\n", {}, "no_such_key (config file"),
    ],
)
def test_bad_values_name_key_and_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, yaml_text: str, env: dict[str, str], expected: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as caught:
        load_settings(_yaml(tmp_path, yaml_text))
    assert expected in str(caught.value)


def test_bad_flag_is_reported_as_flag(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"transcript_limit \(command-line flag\)"):
        load_settings(transcript_limit=5)


@pytest.mark.parametrize("text", ["[1, 2]\n", "a: [\n"])
def test_bad_yaml_file(tmp_path: Path, text: str) -> None:
    with pytest.raises(ConfigError, match="config file"):
        load_settings(_yaml(tmp_path, text))


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "nope.yaml")
