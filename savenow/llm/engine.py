"""What every component that asks a chat model shares (the notes, objects and compaction engines).

A subclass names the catalog texts for missing settings and gets: the settings check at
construction (a clear :class:`~savenow.errors.ConfigError`, before any request), a client built
at the first call (so offline runs, ``--help`` and config checks build none), a ``repr`` that
never shows the key, and :meth:`close`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

import httpx

from ..errors import ConfigError
from ..messages import Text
from .client import LazyLLMClient


class BaseLLMEngine:
    """Base class for an engine backed by an OpenAI-compatible chat model."""

    name = "llm"
    #: catalog keys of the errors raised when ``base_url`` or ``model`` is missing
    missing_base_url: ClassVar[str]
    missing_model: ClassVar[str]

    def __init__(
        self,
        settings: Any,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not settings.base_url:
            raise ConfigError(Text(self.missing_base_url))
        if not settings.model:
            raise ConfigError(Text(self.missing_model))
        self._settings = settings
        self._client = LazyLLMClient(settings, transport=transport, sleep=sleep)

    def __repr__(self) -> str:  # never the key
        return f"{type(self).__name__}(model={self._settings.model!r})"

    def close(self) -> None:
        self._client.close()
