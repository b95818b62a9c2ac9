"""The search: block of the configuration, validated like the rest, and the CLI going through it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from savenow.cli import main
from savenow.config import load_settings
from savenow.errors import ConfigError
from savenow.search import options_from_settings
from tests.fakes.fake_embeddings import FakeEmbeddingsServer


def _yaml(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_and_mapping(tmp_path: Path) -> None:
    settings = load_settings(workspace=str(tmp_path))
    options = options_from_settings(settings)
    assert (options.provider, options.max_results, options.min_score) == (
        "none",
        6,
        settings.search.min_score,
    )
    assert options.weights == pytest.approx((0.7, 0.3)) and options.candidate_multiplier == 4


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("search:\n  provider: magic\n", "search.provider"),
        ("search:\n  weights: {vector: 0, text: 0}\n", "search.weights"),
        ("search:\n  min_score: 2\n", "search.min_score"),
        ("search:\n  sources: [memory, mail]\n", "search.sources"),
        ("search:\n  max_results: 0\n", "search.max_results"),
        ("search:\n  half_life_days: 0\n", "search.half_life_days"),
        ("search:\n  remote: {base_url: x, api_kee: y}\n", "search.remote.api_kee"),
    ],
)
def test_bad_values_name_the_key(tmp_path: Path, text: str, key: str) -> None:
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        load_settings(_yaml(tmp_path, text))


def test_the_provider_falls_back_to_the_llm_endpoint_and_model_defaults(tmp_path: Path) -> None:
    path = _yaml(
        tmp_path, "llm:\n  base_url: http://127.0.0.1:1/v1\n  api_key: sk-x\nsearch:\n  provider: openai\n"
    )
    options = options_from_settings(load_settings(path))
    assert options.base_url == "http://127.0.0.1:1/v1" and options.api_key == "sk-x"
    assert options.model == "text-embedding-3-small"


def test_cli_with_a_config_file_uses_the_provider(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    workspace = tmp_path / "ws"
    (workspace / "memory").mkdir(parents=True)
    (workspace / "memory" / "2026-01-02.md").write_text("## 桔梗\n- 小雨喜欢白色桔梗\n", encoding="utf-8")
    with FakeEmbeddingsServer() as server:
        config = _yaml(
            tmp_path,
            f"workspace: {workspace}\nsearch:\n  provider: openai\n  model: fake\n"
            f"  remote:\n    base_url: {server.base_url}\n    api_key: sk-secret\n",
        )
        assert main(["search", "--config", str(config), "--json", "桔梗"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["provider"], data["model"], data["fallback"]) == ("openai", "fake", None)
    assert data["results"][0]["path"] == "memory/2026-01-02.md"


def test_disabled_search_is_refused_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _yaml(tmp_path, f"workspace: {tmp_path}\nsearch:\n  enabled: false\n")
    assert main(["search", "--config", str(config), "x"]) == 2
    assert "search.enabled" in capsys.readouterr().err


def test_the_unconfigured_cli_never_imports_pydantic(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2026-01-01.md").write_text("## 端口\n- 网关端口 18789\n", encoding="utf-8")
    code = (
        "import sys; from savenow.cli import main; "
        f"rc = main(['search', '--json', '--workspace', {str(tmp_path)!r}, '网关端口']); "
        "assert rc == 0 and 'pydantic' not in sys.modules and 'httpx' not in sys.modules, sorted(sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAVENOW_")} | {"HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert '"memory/2026-01-01.md"' in done.stdout


def test_a_search_process_imports_only_what_it_uses(tmp_path: Path) -> None:
    """No logging (nothing logs without an embeddings provider), no shutil (argparse measures the
    terminal only to print help), no token estimate or array module (nothing is indexed or
    embedded once the index is built)."""
    import os
    import subprocess
    import sys

    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2026-01-01.md").write_text("## 端口\n- 网关端口 18789\n", encoding="utf-8")
    unused = ["logging", "shutil", "array", "savenow.text.tokens", "hashlib"]
    search = f"main(['search', '--json', '--workspace', {str(tmp_path)!r}, '网关端口'])"
    code = (
        # RACY_NS 0: the note just written is not re-hashed by the second search
        "import sys, io, contextlib; from savenow.cli import main; import savenow.search.index as i; "
        f"i.RACY_NS = 0; {search}; "  # builds the index
        f"[sys.modules.pop(m) for m in list(sys.modules) if m in {unused!r}]; "
        f"out = io.StringIO(); contextlib.redirect_stdout(out).__enter__(); rc = {search}; "
        f"print(sorted(m for m in {unused!r} if m in sys.modules), file=sys.stderr)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAVENOW_")} | {"HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr.strip() == "[]"


def test_with_a_provider_the_library_logs_stay_off_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import logging

    workspace = tmp_path / "ws"
    (workspace / "memory").mkdir(parents=True)
    (workspace / "memory" / "2026-01-02.md").write_text("## 桔梗\n- 小雨喜欢白色桔梗\n", encoding="utf-8")
    logger = logging.getLogger("savenow")
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    config = _yaml(
        tmp_path,
        f"workspace: {workspace}\nsearch:\n  provider: openai\n  model: fake\n"
        "  remote:\n    base_url: http://127.0.0.1:9/v1\n    api_key: sk-secret\n    max_retries: 0\n",
    )
    assert main(["search", "--config", str(config), "--json", "桔梗"]) == 0
    assert any(isinstance(handler, logging.NullHandler) for handler in logger.handlers)
    assert json.loads(capsys.readouterr().out)["fallback"]["reason"] == "provider_error"
