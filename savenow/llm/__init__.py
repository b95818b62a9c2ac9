"""The one LLM client: chat completions and embeddings over OpenAI-compatible APIs.

    client = LLMClient(Endpoint.from_settings(settings.llm))
    text = client.chat(messages, formats=[("json_schema", {...}), ("json_object", {...}), ("text", None)])
    vectors = client.embed(["note one", "第二条笔记"])

See :mod:`savenow.llm.client` for what every call gets (total deadline, size cap,
retries honouring Retry-After, the response_format ladder, secret scrubbing,
neutral typed errors from :mod:`savenow.errors`).
"""

from __future__ import annotations

from ..errors import LLMAnswerError, LLMError, LLMRefusedError, LLMUnavailableError
from .answers import strip_thinking, unfenced_answer
from .client import ChatFormat, Endpoint, LazyLLMClient, LLMClient, Usage, retry_after_seconds
from .engine import BaseLLMEngine

__all__ = [
    "BaseLLMEngine",
    "ChatFormat",
    "Endpoint",
    "LLMAnswerError",
    "LLMClient",
    "LLMError",
    "LLMRefusedError",
    "LLMUnavailableError",
    "LazyLLMClient",
    "Usage",
    "retry_after_seconds",
    "strip_thinking",
    "unfenced_answer",
]
