"""One client for OpenAI-compatible chat completions and embeddings.

What every call gets, whoever calls it (the LLM extractor, the embedder, a summarizer):

* **A total deadline per request** (``timeout_s``): connect, send and the whole
  answer, not per read. The request runs in a worker thread and the caller
  waits at most until the deadline; the worker stops at its next chunk, so a
  server trickling a byte a second costs ``timeout_s``, not minutes.
* **A response-size cap** (``max_response_bytes``): a larger answer is refused
  as it streams in, never held whole.
* **Retries** of timeouts, dropped connections, 429 and 5xx, with exponential
  backoff, honouring ``Retry-After`` (seconds or an HTTP date; ``nan``, ``inf``,
  negative or garbage values are ignored; a wait longer than
  ``max_retry_after_s`` is reported at once, not waited for).
* **The response_format ladder**: the caller names the formats it accepts in
  order (``json_schema`` → ``json_object`` → plain text); a 400/422 steps down,
  and the rung that worked is remembered for the next call. A rejected
  ``temperature`` (reasoning models) is dropped the same way.
* **Defensive parsing**: the body must be JSON at most 64 levels deep; the
  content is surrogate-clean text.
* **Secrets**: the API key only goes into the ``Authorization`` header; every
  server text that reaches a log line or an error is scrubbed of it and of
  anything key-shaped.
* **Neutral typed errors** (:class:`LLMUnavailableError`, :class:`LLMRefusedError`,
  :class:`LLMAnswerError`): they say what failed, the caller says what was not done.

HTTP is ``httpx`` (installed with python-telegram-bot), not the openai SDK.
"""

from __future__ import annotations

import email.utils
import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpx

from ..errors import LLMAnswerError, LLMRefusedError, LLMUnavailableError
from ..messages import Text
from ..text.safety import clean_surrogates, loads_json, scrub

__all__ = ["ChatFormat", "Endpoint", "LLMClient", "Usage", "chat_completions_url", "embeddings_url"]

log = logging.getLogger("savenow.llm")

USER_AGENT = "savenow (+https://github.com/openclaw)"
BACKOFF_BASE_S = 1.0
BACKOFF_CAP_S = 30.0
MAX_RETRY_AFTER_S = 120.0
MAX_RESPONSE_BYTES = 8 * 1024 * 1024
SERVER_TEXT_LIMIT = 300
EMBED_BATCH = 64

_T = TypeVar("_T")
ChatFormat = tuple[str, dict[str, Any] | None]  # (name for logs, the response_format field or None)


@dataclass(frozen=True)
class Endpoint:
    """Where and how to call: an OpenAI-compatible base URL (``…/v1``) and a model."""

    base_url: str
    model: str
    api_key: str = field(default="", repr=False)
    timeout_s: float = 60.0  # total per request
    max_retries: int = 3
    max_response_bytes: int = MAX_RESPONSE_BYTES
    max_retry_after_s: float = MAX_RETRY_AFTER_S
    # Extra request headers (an org or project header); like the key, never in a repr, log or error.
    headers: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_settings(cls, settings: Any, *, model: str | None = None) -> Endpoint:
        """From :class:`savenow.config.LLMSettings` (duck-typed, so this module needs no config)."""
        key = settings.api_key.get_secret_value() if settings.api_key else ""
        return cls(
            base_url=settings.base_url or "",
            model=model or settings.model or "",
            api_key=key,
            timeout_s=float(settings.timeout_s),
            max_retries=int(settings.max_retries),
            max_response_bytes=int(getattr(settings, "max_response_bytes", MAX_RESPONSE_BYTES)),
        )


class Usage:
    """What the server reported over all requests of one job, and how many requests it took."""

    def __init__(self) -> None:
        self.requests = 0
        self.reported: dict[str, int] = {}

    def add(self, reported: Any) -> None:
        if not isinstance(reported, dict):
            return
        for name in ("prompt_tokens", "completion_tokens", "total_tokens"):
            value = reported.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                self.reported[name] = self.reported.get(name, 0) + value


@dataclass
class _Reply:
    status: int
    headers: httpx.Headers
    body: bytes

    def json(self) -> Any:
        try:
            return loads_json(self.body.decode("utf-8", "replace"))
        except ValueError:
            return None

    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class _Transient(Exception):
    """Worth another try after a pause: a timeout, a dropped connection, 429, 5xx."""

    def __init__(self, what: Text, retry_after: float | None = None) -> None:
        super().__init__(what.render("en"))
        self.what = what
        self.retry_after = retry_after


class LLMClient:
    def __init__(
        self,
        endpoint: Endpoint,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.endpoint = endpoint
        self._transport = transport
        self._sleep = sleep
        self._clock = clock
        self._chat_url = chat_completions_url(endpoint.base_url)
        self._embed_url = embeddings_url(endpoint.base_url)
        self.where = display_url(self._chat_url)
        self._http: httpx.Client | None = None
        self._rung = 0  # remembered across calls: a server that rejected json_schema is not asked again
        self._send_temperature = True

    def __repr__(self) -> str:  # never the key
        return f"LLMClient(url={self.where!r}, model={self.endpoint.model!r})"

    # -- chat completions ------------------------------------------------------------------------------

    def chat(
        self,
        messages: Sequence[dict[str, str]],
        *,
        formats: Sequence[ChatFormat] = (("text", None),),
        temperature: float | None = 0.0,
        usage: Usage | None = None,
    ) -> str:
        """The content of one completion (``""`` when the answer has none); raises an ``LLMError``."""
        usage = usage if usage is not None else Usage()
        ladder = list(formats) or [("text", None)]
        return self._with_retries(lambda: self._chat_once(list(messages), ladder, temperature, usage))

    def _chat_once(
        self,
        messages: list[dict[str, str]],
        ladder: list[ChatFormat],
        temperature: float | None,
        usage: Usage,
    ) -> str:
        """POST until the server accepts the request's shape (stepping down on 400/422)."""
        while True:
            rung = min(self._rung, len(ladder) - 1)
            body: dict[str, Any] = {"model": self.endpoint.model, "messages": messages, "stream": False}
            if temperature is not None and self._send_temperature:
                body["temperature"] = temperature
            if ladder[rung][1] is not None:
                body["response_format"] = ladder[rung][1]
            usage.requests += 1
            log.info(
                "LLM request: POST %s model=%s response_format=%s",
                self.where,
                self.endpoint.model,
                ladder[rung][0],
            )
            reply = self._exchange(self._chat_url, body)
            log.info("LLM response: HTTP %d", reply.status)
            if reply.status == 200:
                return self._content(reply, usage)
            if reply.status in (400, 422) and self._step_down(reply, ladder, rung, temperature):
                continue
            self._raise_for(reply)

    def _step_down(
        self, reply: _Reply, ladder: list[ChatFormat], rung: int, temperature: float | None
    ) -> bool:
        text = self._server_text(reply).lower()
        if temperature is not None and self._send_temperature and "temperature" in text:
            self._send_temperature = False
            log.warning("LLM server rejected temperature; sending none")
            return True
        if rung + 1 < len(ladder):
            self._rung = rung + 1
            log.warning(
                "LLM server rejected response_format %s (HTTP %d); trying %s",
                ladder[rung][0],
                reply.status,
                ladder[rung + 1][0],
            )
            return True
        return False

    def _content(self, reply: _Reply, usage: Usage) -> str:
        data = reply.json()
        if not isinstance(data, dict):
            return ""
        usage.add(data.get("usage"))
        try:
            content = data["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            return ""
        return clean_surrogates(content) if isinstance(content, str) else ""

    # -- embeddings ------------------------------------------------------------------------------------

    def embed(
        self,
        texts: Sequence[str],
        *,
        model: str | None = None,
        batch_size: int = EMBED_BATCH,
        extra: Mapping[str, Any] | None = None,
    ) -> list[list[float]]:
        """One vector per text, in order; batched ``batch_size`` texts per request.

        ``extra`` adds body fields some servers want (``"input_type": "query"`` for e5/bge-style
        models); OpenAI itself rejects unknown fields, so callers send them only when configured."""
        vectors: list[list[float]] = []
        size = max(1, batch_size)
        for start in range(0, len(texts), size):
            batch = [clean_surrogates(text) for text in texts[start : start + size]]
            vectors.extend(self._embed_batch(batch, model or self.endpoint.model, extra or {}))
        return vectors

    def _embed_batch(self, batch: list[str], model: str, extra: Mapping[str, Any]) -> list[list[float]]:
        body = {**extra, "model": model, "input": batch}
        return self._with_retries(lambda: self._embed_once(body, len(batch)))

    def _embed_once(self, body: dict[str, Any], expected: int) -> list[list[float]]:
        log.info(
            "LLM request: POST %s model=%s (%d inputs)", display_url(self._embed_url), body["model"], expected
        )
        reply = self._exchange(self._embed_url, body)
        if reply.status != 200:
            self._raise_for(reply)
        data = reply.json()
        rows = data.get("data") if isinstance(data, dict) else None
        if not isinstance(rows, list) or len(rows) != expected:
            raise self._bad_answer(Text("llm.why.embedding_count", expected=expected))
        ordered = sorted(rows, key=lambda row: row.get("index", 0) if isinstance(row, dict) else 0)
        vectors = []
        for row in ordered:
            vector = row.get("embedding") if isinstance(row, dict) else None
            if (
                not isinstance(vector, list)
                or not vector
                or not all(
                    isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
                    for x in vector
                )
            ):
                raise self._bad_answer(Text("llm.why.embedding_not_numbers"))
            vectors.append([float(x) for x in vector])
        if len({len(v) for v in vectors}) > 1:
            raise self._bad_answer(Text("llm.why.embedding_lengths"))
        return vectors

    # -- retries ---------------------------------------------------------------------------------------

    def _with_retries(self, attempt: Callable[[], _T]) -> _T:
        failures = 0
        while True:
            try:
                return attempt()
            except _Transient as failure:
                failures += 1
                wait = failure.retry_after
                if wait is not None and wait > self.endpoint.max_retry_after_s:
                    raise LLMUnavailableError(Text("llm.rate_limited", wait=wait)) from None
                if failures > self.endpoint.max_retries:
                    raise LLMUnavailableError(
                        Text("llm.failed_times", where=self.where, failures=failures, what=failure.what)
                    ) from None
                delay = wait if wait is not None else min(BACKOFF_BASE_S * 2 ** (failures - 1), BACKOFF_CAP_S)
                log.warning(
                    "LLM request failed (%s); retry %d/%d in %.1f s",
                    self.scrub(failure.what.render("en")),
                    failures,
                    self.endpoint.max_retries,
                    delay,
                )
                self._sleep(delay)

    # -- one HTTP exchange under a total deadline ------------------------------------------------------

    def _exchange(self, url: str, body: dict[str, Any]) -> _Reply:
        """One POST under a total deadline of ``timeout_s``, counted from when the worker starts it."""
        timeout = self.endpoint.timeout_s
        http = self._http_client()
        started = threading.Event()
        done = threading.Event()
        cancel = threading.Event()
        outcome: dict[str, Any] = {}

        def work() -> None:
            try:
                outcome["deadline"] = self._clock() + timeout
                started.set()
                outcome["reply"] = self._read(http, url, body, outcome["deadline"], cancel)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
                outcome["error"] = exc
            finally:
                started.set()
                done.set()

        threading.Thread(target=work, name="savenow-llm-request", daemon=True).start()
        started.wait()
        if not done.wait(max(0.0, outcome.get("deadline", 0.0) - self._clock())):
            cancel.set()  # the worker stops at its next chunk, or at its own read timeout
            raise _Transient(Text("llm.why.no_answer", seconds=timeout))
        if "error" in outcome:
            raise outcome["error"]
        reply: _Reply = outcome["reply"]
        return reply

    def _http_client(self) -> httpx.Client:
        """One connection pool per client (an abandoned request keeps its own connection busy, not the pool)."""
        if self._http is None:
            self._http = httpx.Client(transport=self._transport, timeout=self.endpoint.timeout_s)
        return self._http

    def close(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None

    def _read(
        self, http: httpx.Client, url: str, body: dict[str, Any], deadline: float, cancel: threading.Event
    ) -> _Reply:
        timeout = self.endpoint.timeout_s
        cap = self.endpoint.max_response_bytes
        try:
            with http.stream("POST", url, json=body, headers=self._headers()) as response:
                declared = response.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > cap:
                    raise self._too_large(cap)
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > cap:
                        raise self._too_large(cap)
                    if cancel.is_set() or self._clock() > deadline:
                        raise _Transient(Text("llm.why.no_answer", seconds=timeout))
                    chunks.append(chunk)
                return _Reply(response.status_code, response.headers, b"".join(chunks))
        except httpx.TimeoutException:
            raise _Transient(Text("llm.why.no_answer", seconds=timeout)) from None
        except httpx.TransportError as exc:
            raise _Transient(Text("llm.why.connection", kind=type(exc).__name__)) from None

    def _headers(self) -> dict[str, str]:
        headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **self.endpoint.headers}
        if self.endpoint.api_key:
            headers["Authorization"] = f"Bearer {self.endpoint.api_key}"
        return headers

    # -- errors (never the key) ------------------------------------------------------------------------

    def _raise_for(self, reply: _Reply) -> None:
        status = reply.status
        if status == 429 or status >= 500:
            raise _Transient(
                Text("llm.why.http", status=status), retry_after_seconds(reply.headers.get("retry-after", ""))
            )
        if status in (401, 403):
            raise LLMRefusedError(Text("llm.bad_key", where=self.where, status=status))
        if status == 404:
            raise LLMRefusedError(Text("llm.not_found", where=self.where, model=self.endpoint.model))
        detail = self.scrub(self._server_text(reply))
        raise LLMRefusedError(
            Text("llm.rejected", where=self.where, status=status, detail=detail or Text("llm.no_details"))
        )

    def _too_large(self, cap: int) -> LLMAnswerError:
        return LLMAnswerError(Text("llm.too_large", where=self.where, mib=cap // (1024 * 1024)))

    def _bad_answer(self, why: Text) -> LLMAnswerError:
        return LLMAnswerError(Text("llm.unusable", where=self.where, why=why))

    def _server_text(self, reply: _Reply) -> str:
        data = reply.json()
        error = data.get("error") if isinstance(data, dict) else None
        if isinstance(error, dict):
            text = str(error.get("message") or error)
        elif error is not None:
            text = str(error)
        elif isinstance(data, dict) and "detail" in data:
            text = str(data["detail"])
        else:
            text = reply.text()[: SERVER_TEXT_LIMIT * 4]
        text = " ".join(text.split())
        return text if len(text) <= SERVER_TEXT_LIMIT else text[: SERVER_TEXT_LIMIT - 1] + "…"

    def scrub(self, text: str) -> str:
        return scrub(text, [self.endpoint.api_key, *self.endpoint.headers.values()])


def retry_after_seconds(value: str) -> float | None:
    """``Retry-After`` in seconds (delta-seconds or an HTTP date); None when absent or not a time."""
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return max(seconds, 0.0) if math.isfinite(seconds) else None  # "nan", "inf": no usable wait
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - datetime.now(UTC)).total_seconds(), 0.0)


def chat_completions_url(base_url: str) -> str:
    base = base_url.strip().rstrip("/")
    return base if base.endswith("/chat/completions") else base + "/chat/completions"


def embeddings_url(base_url: str) -> str:
    base = base_url.strip().rstrip("/").removesuffix("/chat/completions")
    return base if base.endswith("/embeddings") else base + "/embeddings"


def display_url(url: str) -> str:
    """The endpoint for messages and logs: no credentials, no query string."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}"


class LazyLLMClient:
    """An :class:`LLMClient` for one engine's settings, built at the first call and closed by :meth:`close`.

    Engines hold one so that constructing them (offline runs, ``--help``, config checks) builds no client.
    """

    def __init__(
        self,
        settings: Any,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._settings = settings
        self._transport = transport
        self._sleep = sleep
        self._client: LLMClient | None = None

    def get(self) -> LLMClient:
        if self._client is None:
            self._client = LLMClient(
                Endpoint.from_settings(self._settings), transport=self._transport, sleep=self._sleep
            )
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
