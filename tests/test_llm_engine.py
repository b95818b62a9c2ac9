"""The base every model-backed engine shares (savenow.llm.BaseLLMEngine): one settings check, one lazy client."""

from __future__ import annotations

import httpx
import pytest
from pydantic import SecretStr

from savenow.compaction.llm_summary import LLMSummarizer
from savenow.config import LLMSettings
from savenow.errors import ConfigError
from savenow.extract.llm import LLMExtractor
from savenow.llm import BaseLLMEngine
from savenow.objects.llm import LLMObjectExtractor

ENGINES = [LLMExtractor, LLMObjectExtractor, LLMSummarizer]
KEY = "sk-never-shown-0123456789"


@pytest.mark.parametrize("engine", ENGINES)
def test_every_model_backed_engine_shares_the_base(engine: type[BaseLLMEngine]) -> None:
    assert issubclass(engine, BaseLLMEngine)
    assert engine.name == "llm"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("missing", ["base_url", "model"])
def test_missing_settings_are_a_config_error_in_both_languages(
    engine: type[BaseLLMEngine], missing: str
) -> None:
    values = {"base_url": "http://127.0.0.1:9/v1", "model": "m", missing: None}
    with pytest.raises(ConfigError) as caught:
        engine(LLMSettings(**values))
    assert caught.value.en and caught.value.zh and caught.value.en != caught.value.zh


@pytest.mark.parametrize("engine", ENGINES)
def test_no_client_is_built_before_the_first_call_and_repr_hides_the_key(engine: type[BaseLLMEngine]) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:  # pragma: no cover - must not be reached
        raise AssertionError("no request expected")

    instance = engine(
        LLMSettings(base_url="http://127.0.0.1:9/v1", model="m", api_key=SecretStr(KEY)),
        transport=httpx.MockTransport(refuse),
    )
    assert KEY not in repr(instance) and "'m'" in repr(instance)
    assert instance._client._client is None  # built lazily: offline runs and --help build none
    instance.close()
