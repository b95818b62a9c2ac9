"""The vector seam: an :class:`Embedder` protocol and an OpenAI-compatible ``/v1/embeddings`` provider.

The HTTP part is the shared LLM client's (:mod:`savenow.llm`: batching, a total deadline per
request, a size cap, retries honouring ``Retry-After``, secret scrubbing); :class:`OpenAIEmbedder`
only maps the search's options onto it. The index only ever calls ``embedder.embed(texts)`` and
reads ``provider`` / ``model``.

Any failure surfaces as :class:`EmbeddingError` (an ``LLMError``, :mod:`savenow.errors`); the
search turns it into a lexical answer with ``"fallback"`` saying why, never into an error the
user sees.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from ..errors import EmbeddingError
from ..messages import Text

if TYPE_CHECKING:
    import httpx

    from ..llm import LLMClient

__all__ = ["Embedder", "EmbeddingError", "Kind", "OpenAIEmbedder", "normalized"]

Kind = Literal["document", "query"]


@runtime_checkable
class Embedder(Protocol):
    provider: str  # a stable name for the cache key, e.g. "openai"
    model: str

    def embed(self, texts: Sequence[str], kind: Kind = "document") -> list[list[float]]:
        """One vector per text, in order; raises :class:`EmbeddingError`. ``kind`` says whether the
        texts are notes or a question: asymmetric models (e5, bge) embed the two differently."""
        ...


def normalized(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm > 0 else [0.0 for _ in vector]


class OpenAIEmbedder:
    """POST ``{base_url}/embeddings`` with ``{"model", "input": [...]}`` (OpenAI, Gemini's OpenAI
    endpoint, Ollama, vLLM all speak it). ``base_url`` ends in ``/v1`` (or the provider's equivalent)."""

    provider = "openai"

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        headers: Mapping[str, str] | None = None,
        batch_size: int = 64,
        max_retries: int = 2,
        timeout_s: float = 30.0,
        send_input_type: bool = False,
        sleep: Callable[[float], None] = time.sleep,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.batch_size = max(1, batch_size)
        # OpenAI rejects unknown fields; servers of asymmetric models (e5, bge, Voyage-style) want
        # "input_type": "query" | "passage". Off unless configured.
        self.send_input_type = send_input_type
        # Vectors made with and without input types differ: a distinct provider name keeps the
        # cache and the index signature apart.
        self.provider = "openai+input_type" if send_input_type else "openai"
        self._endpoint_args = {
            "base_url": self.base_url,
            "model": model,
            "api_key": api_key or "",
            "headers": dict(headers or {}),
            "timeout_s": timeout_s,
            "max_retries": max(0, max_retries),
        }
        self._sleep = sleep
        self._transport = transport
        self._client: LLMClient | None = None

    def __repr__(self) -> str:  # never the key or the headers
        return f"OpenAIEmbedder(base_url={self.base_url!r}, model={self.model!r})"

    def _llm(self) -> LLMClient:
        if self._client is None:  # httpx loads on the first embedding, not with the search engine
            from ..llm import Endpoint, LLMClient

            endpoint = Endpoint(**self._endpoint_args)  # type: ignore[arg-type]
            self._client = LLMClient(endpoint, transport=self._transport, sleep=self._sleep)
        return self._client

    def embed(self, texts: Sequence[str], kind: Kind = "document") -> list[list[float]]:
        from ..errors import LLMError

        extra = {"input_type": "query" if kind == "query" else "passage"} if self.send_input_type else None
        try:
            return self._llm().embed(texts, batch_size=self.batch_size, extra=extra)
        except EmbeddingError:
            raise
        except LLMError as error:  # the client's neutral, scrubbed message; search falls back
            raise EmbeddingError(Text("search.embedding_failed", reason=error)) from None

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
