"""The optional LLM summary against the fake OpenAI-compatible server (DESIGN §13)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from savenow.cli import main
from savenow.compaction import SessionCompactor
from savenow.compaction.llm_summary import LLM_TITLE, LLMSummarizer, bound_summary, clean_answer
from savenow.config import LLMSettings
from savenow.errors import LLMAnswerError
from savenow.text.tokens import estimate_tokens
from tests.fakes.fake_llm import FakeLLMServer, chat_reply, error_reply

from .support import clock, conversation, write_seed

KEY = "sk-test-summary-0123456789"
FIRST = f"{LLM_TITLE}\n\n### Goal · 目标\n- 调整服务端口\n\n### Critical context · 关键上下文\n- svc-0 端口 9000\n"
MERGED = (
    f"{LLM_TITLE}\n\n### Goal · 目标\n- 调整服务端口\n\n### Key decisions · 关键决定\n- svc-20 端口 9020\n\n"
    "### Critical context · 关键上下文\n- svc-0 端口 9000\n- svc-20 端口 9020\n"
)


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as fake:
        yield fake


def _settings(server: FakeLLMServer) -> LLMSettings:
    return LLMSettings(base_url=server.base_url, model="fake-sum", api_key=SecretStr(KEY), max_retries=0)


def _compactor(path: Path, summarizer: LLMSummarizer) -> SessionCompactor:
    return SessionCompactor(preserve_recent=4, store_path=path, summarizer=summarizer, clock=clock())


def _user_prompt(server: FakeLLMServer, index: int) -> str:
    return str(server.requests[index].json["messages"][1]["content"])


def test_the_llm_writes_the_summary_and_the_result_says_so(tmp_path: Path, server: FakeLLMServer) -> None:
    path = tmp_path / ".clawsession.json"
    write_seed(path, conversation(20))
    server.script(chat_reply(FIRST))
    result = _compactor(path, LLMSummarizer(_settings(server))).compact(force=True)
    assert result.compacted and result.removed_count == 16
    assert result.summarizer == "llm" and result.summarizer_fallback is None
    assert result.summary == FIRST and result.to_json()["summarizer"] == "llm"
    request = server.requests[0]
    assert request.path == "/v1/chat/completions" and request.json["model"] == "fake-sum"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    system = request.json["messages"][0]["content"]
    for heading in ("Goal", "Constraints", "Progress", "Key decisions", "Next steps", "Critical context"):
        assert heading in system
    prompt = _user_prompt(server, 0)
    assert "svc-0" in prompt and "svc-14" in prompt and "svc-16" not in prompt  # the removed part only
    assert "<previous-summary>" not in prompt
    assert json.loads(path.read_text(encoding="utf-8"))  # the store stays the seed's format


def test_an_incremental_run_sends_the_previous_summary_and_replaces_it(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / ".clawsession.json"
    write_seed(path, conversation(20))
    server.script(chat_reply(FIRST), chat_reply(f"```markdown\n{MERGED}```"))
    compactor = _compactor(path, LLMSummarizer(_settings(server)))
    compactor.compact(force=True)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["messages"] += conversation(8, start=20)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    second = compactor.compact(force=True)
    prompt = _user_prompt(server, 1)
    assert "<previous-summary>" in prompt and FIRST.strip() in prompt
    assert "svc-20" in prompt and "svc-0 的端口" not in prompt  # new messages only, old ones via the summary
    assert "replaces the previous one" in prompt
    assert second.summary == MERGED and second.summary.count(LLM_TITLE) == 1  # merged, never nested


def test_any_llm_failure_falls_back_to_the_offline_summary(tmp_path: Path, server: FakeLLMServer) -> None:
    path = tmp_path / ".clawsession.json"
    write_seed(path, conversation(20))
    server.script(error_reply(500, f"boom {KEY}"))
    result = _compactor(path, LLMSummarizer(_settings(server))).compact(force=True)
    assert result.compacted and result.summarizer == "offline"
    assert result.summarizer_fallback and "failed" in result.summarizer_fallback
    assert KEY not in json.dumps(result.to_json(), ensure_ascii=False)
    assert "svc-0" in result.summary and LLM_TITLE not in result.summary


def test_a_nesting_answer_is_refused_and_the_offline_summary_runs(
    tmp_path: Path, server: FakeLLMServer
) -> None:
    path = tmp_path / ".clawsession.json"
    write_seed(path, conversation(20))
    nested = f"{LLM_TITLE}\n\n<previous-summary>\n{FIRST}</previous-summary>\n- more"
    server.script(chat_reply(nested))
    result = _compactor(path, LLMSummarizer(_settings(server))).compact(force=True)
    assert result.summarizer == "offline" and "nested" in (result.summarizer_fallback or "")


def test_the_summary_is_bounded_by_summary_max_tokens() -> None:
    bullets = "\n".join(f"- 进展 {i}：完成了第 {i} 步的部署和验证工作" for i in range(200))
    long = f"{LLM_TITLE}\n\n### Progress · 进展\n{bullets}\n\n### Critical context · 关键上下文\n- host db-7:5432\n"
    bounded = bound_summary(long, 200)
    assert estimate_tokens(bounded) <= 200
    assert "db-7:5432" in bounded and "进展 0" in bounded  # identifiers last; each section's last lines first


def test_clean_answer_strips_wrappers_and_refuses_empty() -> None:
    assert clean_answer("<think>hmm</think><summary>\n- a\n</summary>") == f"{LLM_TITLE}\n\n- a\n"
    with pytest.raises(LLMAnswerError):
        clean_answer("<think>only thinking</think>")


def test_long_transcripts_are_read_in_pieces_with_the_update_prompt(server: FakeLLMServer) -> None:
    from savenow.compaction.model import SessionMessage

    settings = _settings(server).model_copy(update={"max_prompt_tokens": 1000})
    removed = [
        SessionMessage(id=str(i), role="user", content=f"第 {i} 条：" + "部署日志检查" * 40)
        for i in range(30)
    ]
    server.script(*[chat_reply(FIRST) for _ in range(30)])
    LLMSummarizer(settings).summarize(None, removed, max_tokens=50)
    calls = len(server.requests)
    assert calls > 1 and "<previous-summary>" not in _user_prompt(server, 0)
    assert all("<previous-summary>" in _user_prompt(server, i) for i in range(1, calls))


def test_the_config_picks_the_summarizer(tmp_path: Path, server: FakeLLMServer, monkeypatch, capsys) -> None:
    path = tmp_path / ".clawsession.json"
    write_seed(path, conversation(20))
    (tmp_path / "ws").mkdir()
    config = tmp_path / "config.yaml"
    config.write_text(
        f"workspace: {tmp_path / 'ws'}\nextractor: heuristic\n"
        f"llm: {{base_url: '{server.base_url}', model: fake-sum, api_key: '{KEY}', max_retries: 0}}\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("SAVENOW_CONFIG", str(config))
    monkeypatch.setenv("SAVENOW_COMPACTION__SUMMARIZER", "offline")
    assert main(["compact", "run", "--store", str(path), "--force", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["summarizer"] == "offline" and server.requests == []
    monkeypatch.setenv("SAVENOW_COMPACTION__SUMMARIZER", "auto")  # key and URL set: the LLM
    data = json.loads(path.read_text(encoding="utf-8"))
    data["messages"] += conversation(8, start=20)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    server.script(chat_reply(FIRST))
    assert main(["compact", "run", "--store", str(path), "--force", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["summarizer"] == "llm" and len(server.requests) == 1
    assert KEY not in out + err


def test_a_bad_summarizer_or_object_extractor_value_names_its_key(monkeypatch, tmp_path: Path) -> None:
    from savenow.config import load_settings
    from savenow.errors import ConfigError

    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.config/savenow/config.yaml
    monkeypatch.setenv("SAVENOW_CONFIG", "")
    monkeypatch.setenv("SAVENOW_COMPACTION__SUMMARIZER", "gpt")
    with pytest.raises(ConfigError, match="compaction.summarizer"):
        load_settings()
    monkeypatch.setenv("SAVENOW_COMPACTION__SUMMARIZER", "llm")
    monkeypatch.setenv("SAVENOW_OBJECTS__EXTRACTOR", "magic")
    with pytest.raises(ConfigError, match="objects.extractor"):
        load_settings()
