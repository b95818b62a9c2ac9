"""The vector seam: an :class:`Embedder` protocol and an OpenAI-compatible ``/v1/embeddings`` provider.

The HTTP part is :class:`OpenAIEmbedder` alone (httpx, batching, retries with backoff) so that it
can be switched onto the shared LLM client without touching the search code: the index only ever
calls ``embedder.embed(texts)`` and reads ``provider`` / ``model``.

Any failure surfaces as :class:`EmbeddingError`; the search turns it into a lexical answer with
``"fallback"`` saying why, never into an error the user sees.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Literal, Protocol, runtime_checkable

__all__ = ["Embedder", "EmbeddingError", "Kind", "OpenAIEmbedder", "normalized"]

Kind = Literal["document", "query"]


class EmbeddingError(Exception):
    """The embeddings provider failed; the message is safe to show (no key, no headers)."""


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
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._headers = {"Content-Type": "application/json", **dict(headers or {})}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self.batch_size = max(1, batch_size)
        self.max_retries = max(0, max_retries)
        self.timeout_s = timeout_s
        # OpenAI rejects unknown fields; servers of asymmetric models (e5, bge, Voyage-style) want
        # "input_type": "query" | "passage". Off unless configured.
        self.send_input_type = send_input_type
        # Vectors made with and without input types differ: a distinct provider name keeps the
        # cache and the index signature apart.
        self.provider = "openai+input_type" if send_input_type else "openai"
        self._sleep = sleep

    def embed(self, texts: Sequence[str], kind: Kind = "document") -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            vectors.extend(self._embed_batch(list(texts[start : start + self.batch_size]), kind))
        return vectors

    def _embed_batch(self, batch: list[str], kind: Kind) -> list[list[float]]:
        import httpx

        url = f"{self.base_url}/embeddings"
        body: dict[str, object] = {"model": self.model, "input": batch}
        if self.send_input_type:
            body["input_type"] = "query" if kind == "query" else "passage"
        last = "no attempt"
        for attempt in range(self.max_retries + 1):
            if attempt:
                self._sleep(min(8.0, 0.5 * 2 ** (attempt - 1)))
            try:
                response = httpx.post(
                    url,
                    json=body,
                    headers=self._headers,
                    timeout=self.timeout_s,
                )
            except httpx.HTTPError as exc:
                last = f"{type(exc).__name__}"
                continue
            if response.status_code == 429 or response.status_code >= 500:
                last = f"HTTP {response.status_code}"
                continue
            if response.status_code != 200:
                raise EmbeddingError(f"embeddings provider answered HTTP {response.status_code}")
            return self._parse(response, len(batch))
        raise EmbeddingError(f"embeddings provider failed after {self.max_retries + 1} attempts ({last})")

    @staticmethod
    def _parse(response: object, expected: int) -> list[list[float]]:
        try:
            data = response.json()["data"]  # type: ignore[attr-defined]
            ordered = sorted(data, key=lambda item: int(item.get("index", 0)))
            vectors = [[float(x) for x in item["embedding"]] for item in ordered]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise EmbeddingError("embeddings provider sent a malformed answer") from exc
        if len(vectors) != expected or not vectors or len({len(v) for v in vectors}) != 1:
            raise EmbeddingError("embeddings provider sent the wrong number or size of vectors")
        return vectors
