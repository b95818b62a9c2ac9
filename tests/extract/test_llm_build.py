"""build_extractor: heuristic / llm / auto, and the optional fallback to the offline extractor."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from savenow.config import Settings
from savenow.errors import ConfigError, ExtractorError
from savenow.extract import FallbackExtractor, build_extractor
from savenow.extract.llm import LLMExtractor
from savenow.messages import localize
from savenow.models import ChatMessage, Entry, ExtractionResult, MemorySection
from tests.fakes.fake_llm import FakeLLMServer, chat_reply


def settings(**values: object) -> Settings:
    return Settings(**values)  # type: ignore[arg-type]


LLM = {"base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key": "sk-x"}


def test_auto_uses_the_llm_when_a_url_and_key_are_set() -> None:
    assert isinstance(build_extractor(settings(extractor="auto", llm=LLM)), LLMExtractor)


def test_auto_without_a_key_is_offline() -> None:
    heuristic = pytest.importorskip("savenow.extract.heuristic")
    extractor = build_extractor(
        settings(extractor="auto", llm={"base_url": "http://127.0.0.1:9/v1", "model": "m"})
    )
    assert isinstance(extractor, heuristic.HeuristicExtractor)


def test_heuristic_ignores_the_llm_settings() -> None:
    heuristic = pytest.importorskip("savenow.extract.heuristic")
    assert isinstance(build_extractor(settings(extractor="heuristic", llm=LLM)), heuristic.HeuristicExtractor)


def test_llm_without_a_url_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="llm.base_url"):
        build_extractor(settings(extractor="llm"))


def test_llm_explicitly_chosen_may_go_without_a_key() -> None:  # a local Ollama needs none
    extractor = build_extractor(
        settings(extractor="llm", llm={"base_url": "http://127.0.0.1:9/v1", "model": "m"})
    )
    assert isinstance(extractor, LLMExtractor)


def test_the_fallback_setting_wraps_the_llm() -> None:
    extractor = build_extractor(settings(llm={**LLM, "fallback_to_heuristic": True}))
    assert isinstance(extractor, FallbackExtractor)
    assert extractor.name == "llm"


class Offline:
    name = "heuristic"

    def extract(self, messages: Sequence[ChatMessage], sections: Sequence[MemorySection]) -> ExtractionResult:
        return ExtractionResult(entries=[Entry("Offline note", ["from the heuristic"])], notices=["offline"])


def test_a_failing_llm_falls_back_and_says_so(fake_llm: FakeLLMServer) -> None:
    fake_llm.script(chat_reply("garbage"), chat_reply("more garbage"))
    llm = LLMExtractor(settings(llm={**LLM, "base_url": fake_llm.base_url}).llm)

    result = FallbackExtractor(llm, Offline).extract([ChatMessage("user", "hi")], [])

    assert [e.title for e in result.entries] == ["Offline note"]
    notice = localize(result.notices[0], "en")
    assert notice.startswith("LLM failed (The LLM's answer was not usable twice")
    assert notice.endswith("; used the offline extractor")
    assert localize(result.notices[0], "zh").endswith("已改用离线提取")
    assert result.notices[1] == "offline"


def test_without_the_fallback_the_error_reaches_the_caller(fake_llm: FakeLLMServer) -> None:
    fake_llm.script(chat_reply("garbage"), chat_reply("more garbage"))
    extractor = build_extractor(settings(llm={**LLM, "base_url": fake_llm.base_url}))

    with pytest.raises(ExtractorError):
        extractor.extract([ChatMessage("user", "hi")], [])
