"""Fixtures for the extractor tests: a fake OpenAI-compatible server and settings pointing at it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from savenow.config import LLMSettings
from tests.fakes.fake_llm import FakeLLMServer

TEST_API_KEY = "sk-test-SECRET-5f1d2c9a7b"


@pytest.fixture
def fake_llm() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


@pytest.fixture
def llm_settings(fake_llm: FakeLLMServer) -> Callable[..., LLMSettings]:
    """``llm_settings(**overrides)``: LLMSettings aimed at the fake server, with a recognisable test key."""

    def make(**overrides: Any) -> LLMSettings:
        values: dict[str, Any] = {
            "base_url": fake_llm.base_url,
            "model": "fake-model",
            "api_key": TEST_API_KEY,
            "timeout_s": 5,
            "max_retries": 2,
        }
        values.update(overrides)
        return LLMSettings(**values)

    return make


class SleepRecorder:
    """Stands in for time.sleep: records the delays, never waits."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def no_sleep() -> SleepRecorder:
    return SleepRecorder()
