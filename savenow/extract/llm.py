"""The LLM extractor: one chat-completions request to any OpenAI-compatible endpoint per /savenow.

What it sends is built by :mod:`.prompt` (system rules + today's memory
sections + the cleaned transcript). What comes back is never trusted: it is
parsed leniently (a JSON object, a bare array, or the first JSON value inside
prose), validated with pydantic, and every entry that is empty or oversized is
dropped with a reason. The comparer still decides add / merge / skip afterwards.

HTTP goes through ``httpx`` (already installed with python-telegram-bot), not
the openai SDK, which would bring a second HTTP stack for one POST request.

The API key only ever goes into the ``Authorization`` header: it is not
logged, and any text from the server is scrubbed of it before it reaches a
log line or an error message.
"""

from __future__ import annotations

import email.utils
import json
import logging
import re
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..config import LLMSettings
from ..errors import BadInputError, ConfigError, ExtractorError
from ..models import (
    ACTIONS,
    MAX_ENTRIES,
    ChatMessage,
    DroppedEntry,
    Entry,
    ExtractionResult,
    MemorySection,
    parse_entry,
)
from .prompt import FORMAT_LADDER, Prompt, build_prompt, correction_message, response_format

__all__ = ["LLMExtractor", "parse_reply"]

log = logging.getLogger("savenow.extract.llm")

_USER_AGENT = "savenow (+https://github.com/openclaw)"
_BACKOFF_BASE_S = 1.0
_BACKOFF_CAP_S = 30.0
_MAX_RETRY_AFTER_S = 120.0  # a server asking for a longer wait is reported, not waited for
_ANSWER_ATTEMPTS = 2  # an invalid answer is asked for once more, then reported
_SERVER_TEXT_LIMIT = 300
_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_HEADING_PREFIX = re.compile(r"^#+\s*|^\d{1,2}:\d{2}\s*[-–—]\s*")
# Key-like tokens ("sk-proj-…", "gsk_…"); a digit is required so words like "api-version" survive.
_SECRET_SHAPES = re.compile(r"\b((?:sk|pk|rk|gsk|xai|key|api)[-_])(?=[\w\-*]*\d)[\w\-*]{6,}", re.IGNORECASE)
_BEARER = re.compile(r"(Bearer\s+)\S+", re.IGNORECASE)


class InvalidReplyError(ValueError):
    """The model's answer is not an entries JSON value (asked once more, then reported)."""


class _TransientFailure(Exception):
    """A timeout, a dropped connection, HTTP 429 or 5xx: worth another try after a pause."""

    def __init__(self, what: str, retry_after: float | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.retry_after = retry_after


class _LLMEntry(BaseModel):
    """One entry as the model wrote it (DESIGN §5.2), checked at the edge before models.parse_entry."""

    model_config = ConfigDict(extra="ignore")

    candidate_index: int | None = None
    title: str = ""
    bullets: list[str] = Field(default_factory=list)
    action: str | None = None
    merge_target_title: str | None = None
    reason: str | None = None

    @field_validator("title", mode="before")
    @classmethod
    def _title_or_empty(cls, value: Any) -> Any:
        return "" if value is None else value

    @field_validator("bullets", mode="before")
    @classmethod
    def _bullets_as_list(cls, value: Any) -> Any:
        if value is None:
            return []
        return [value] if isinstance(value, str) else value

    @field_validator("candidate_index", mode="before")
    @classmethod
    def _index_or_none(cls, value: Any) -> Any:
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class LLMExtractor:
    """Proposes entries with one chat-completions call (plus bounded retries) per extraction."""

    name = "llm"

    def __init__(
        self,
        settings: LLMSettings,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not settings.base_url:
            raise ConfigError(
                "extractor llm: llm.base_url is not set (SAVENOW_LLM__BASE_URL)",
                "LLM 提取器：未设置 llm.base_url（SAVENOW_LLM__BASE_URL）",
            )
        if not settings.model:
            raise ConfigError(
                "extractor llm: llm.model is not set (SAVENOW_LLM__MODEL)",
                "LLM 提取器：未设置 llm.model（SAVENOW_LLM__MODEL）",
            )
        self._settings = settings
        self._url = _chat_completions_url(settings.base_url)
        self._where = _display_url(self._url)
        self._transport = transport
        self._sleep = sleep
        # Remembered across calls, so a server that rejected json_schema is not asked again.
        self._format_rung = 0
        self._send_temperature = True

    def __repr__(self) -> str:  # never the key
        return f"LLMExtractor(url={self._where!r}, model={self._settings.model!r})"

    # -- the Extractor protocol ------------------------------------------------------------------

    def extract(self, messages: Sequence[ChatMessage], sections: Sequence[MemorySection]) -> ExtractionResult:
        prompt = build_prompt(messages, sections, max_prompt_tokens=self._settings.max_prompt_tokens)
        log.info(
            "LLM extraction: %d messages sent (%d dropped), %d sections sent (%d omitted), ~%d prompt tokens",
            prompt.messages_sent,
            prompt.messages_dropped,
            prompt.sections_sent,
            prompt.sections_omitted,
            prompt.estimated_tokens,
        )
        usage = _Usage(estimated_prompt_tokens=prompt.estimated_tokens)
        problem: str | None = None
        with httpx.Client(transport=self._transport, timeout=self._settings.timeout_s) as client:
            for _ in range(_ANSWER_ATTEMPTS):
                chat = prompt.messages if problem is None else [*prompt.messages, correction_message(problem)]
                content = self._complete(client, chat, usage)
                try:
                    raw_entries = parse_reply(content)
                except InvalidReplyError as exc:
                    problem = str(exc)
                    log.warning("LLM answer unusable (%s)", problem)
                    continue
                result = entries_from_reply(raw_entries)
                result.usage = usage.as_dict()
                result.notices.extend(_budget_notices(prompt))
                log.info(
                    "LLM proposed %d entries (%d dropped); usage %s",
                    len(result.entries),
                    len(result.dropped),
                    result.usage,
                )
                return result
        raise ExtractorError(
            f"The LLM's answer was not usable twice ({problem}); nothing was written and no preview was stored.",
            f"LLM 两次返回的内容都无法使用（{problem}），未写入任何内容，也没有生成预览。",
        )

    # -- one answer, with retries and the response_format ladder ------------------------------------

    def _complete(self, client: httpx.Client, chat: list[dict[str, str]], usage: _Usage) -> str:
        """The content of one successful completion; raises ExtractorError when retries run out."""
        failures = 0
        while True:
            try:
                return self._post_once(client, chat, usage)
            except _TransientFailure as failure:
                failures += 1
                too_long = failure.retry_after is not None and failure.retry_after > _MAX_RETRY_AFTER_S
                if failures > self._settings.max_retries or too_long:
                    raise self._transient_error(failure, failures) from None
                delay = self._delay(failures, failure.retry_after)
                log.warning(
                    "LLM request failed (%s); retry %d/%d in %.1f s",
                    failure.what,
                    failures,
                    self._settings.max_retries,
                    delay,
                )
                self._sleep(delay)

    def _post_once(self, client: httpx.Client, chat: list[dict[str, str]], usage: _Usage) -> str:
        """POST until the server accepts the request's shape (stepping down the ladder on 400/422)."""
        while True:
            body = self._request_body(chat)
            usage.requests += 1
            log.info(
                "LLM request: POST %s model=%s response_format=%s",
                self._where,
                self._settings.model,
                FORMAT_LADDER[self._format_rung],
            )
            try:
                response = client.post(self._url, json=body, headers=self._headers())
            except httpx.TimeoutException:
                raise _TransientFailure(f"no answer within {self._settings.timeout_s:g} s") from None
            except httpx.TransportError as exc:
                raise _TransientFailure(f"connection failed: {type(exc).__name__}") from None
            status = response.status_code
            log.info("LLM response: HTTP %d", status)
            if status == 200:
                return self._content(response, usage)
            if status in (400, 422) and self._step_down(response):
                continue
            if status == 429 or status >= 500:
                raise _TransientFailure(f"HTTP {status}", _retry_after(response))
            raise self._http_error(response)

    def _request_body(self, chat: list[dict[str, str]]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self._settings.model, "messages": chat, "stream": False}
        if self._send_temperature:
            body["temperature"] = 0
        fmt = response_format(FORMAT_LADDER[self._format_rung])
        if fmt is not None:
            body["response_format"] = fmt
        return body

    def _headers(self) -> dict[str, str]:
        headers = {"User-Agent": _USER_AGENT, "Accept": "application/json"}
        key = self._settings.api_key.get_secret_value() if self._settings.api_key else ""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _step_down(self, response: httpx.Response) -> bool:
        """Adapt to a server that rejects a request field; False when nothing is left to drop."""
        text = _server_text(response).lower()
        if self._send_temperature and "temperature" in text:
            self._send_temperature = False  # reasoning models accept only their default
            log.warning("LLM server rejected temperature; sending none")
            return True
        if self._format_rung + 1 < len(FORMAT_LADDER):
            rejected = FORMAT_LADDER[self._format_rung]
            self._format_rung += 1
            log.warning(
                "LLM server rejected response_format %s (HTTP %d); trying %s",
                rejected,
                response.status_code,
                FORMAT_LADDER[self._format_rung],
            )
            return True
        return False

    def _content(self, response: httpx.Response, usage: _Usage) -> str:
        try:
            data = response.json()
        except ValueError:
            return ""  # reported as an unusable answer by parse_reply
        if not isinstance(data, dict):
            return ""
        usage.add(data.get("usage"))
        try:
            content = data["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            return ""
        return content if isinstance(content, str) else ""

    def _delay(self, failures: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return retry_after
        return min(_BACKOFF_BASE_S * 2 ** (failures - 1), _BACKOFF_CAP_S)

    # -- errors the user sees (never the key) --------------------------------------------------------

    def _transient_error(self, failure: _TransientFailure, attempts: int) -> ExtractorError:
        if failure.retry_after is not None and failure.retry_after > _MAX_RETRY_AFTER_S:
            return ExtractorError(
                f"The LLM endpoint is rate-limited and asks to wait {failure.retry_after:.0f} s; "
                "nothing was written. Try /savenow again later.",
                f"LLM 接口限流，要求等待 {failure.retry_after:.0f} 秒；未写入任何内容，请稍后再试 /savenow。",
            )
        return ExtractorError(
            f"The LLM endpoint {self._where} failed {attempts} times ({self._scrub(failure.what)}); "
            "nothing was written. Try again later.",
            f"LLM 接口 {self._where} 连续失败 {attempts} 次（{self._scrub(failure.what)}），未写入任何内容，请稍后再试。",
        )

    def _http_error(self, response: httpx.Response) -> ExtractorError:
        status = response.status_code
        detail = self._scrub(_server_text(response))
        if status in (401, 403):
            return ExtractorError(
                f"The LLM endpoint {self._where} refused the API key (HTTP {status}); check llm.api_key. "
                "Nothing was written.",
                f"LLM 接口 {self._where} 拒绝了 API key（HTTP {status}），请检查 llm.api_key。未写入任何内容。",
            )
        if status == 404:
            return ExtractorError(
                f"The LLM endpoint {self._where} or the model {self._settings.model!r} was not found (HTTP 404); "
                "check llm.base_url and llm.model. Nothing was written.",
                f"找不到 LLM 接口 {self._where} 或模型 {self._settings.model!r}（HTTP 404），"
                "请检查 llm.base_url 和 llm.model。未写入任何内容。",
            )
        return ExtractorError(
            f"The LLM endpoint {self._where} rejected the request (HTTP {status}: {detail or 'no details'}). "
            "Nothing was written.",
            f"LLM 接口 {self._where} 拒绝了请求（HTTP {status}：{detail or '无详情'}）。未写入任何内容。",
        )

    def _scrub(self, text: str) -> str:
        key = self._settings.api_key.get_secret_value() if self._settings.api_key else ""
        return redact(text, key)


class _Usage:
    """What the server reported over all requests of one extraction, plus our own estimate."""

    def __init__(self, estimated_prompt_tokens: int) -> None:
        self.estimated_prompt_tokens = estimated_prompt_tokens
        self.requests = 0
        self.reported: dict[str, int] = {}

    def add(self, reported: Any) -> None:
        if not isinstance(reported, dict):
            return
        for field in ("prompt_tokens", "completion_tokens", "total_tokens"):
            value = reported.get(field)
            if isinstance(value, int) and not isinstance(value, bool):
                self.reported[field] = self.reported.get(field, 0) + value

    def as_dict(self) -> dict[str, int]:
        return {
            **self.reported,
            "requests": self.requests,
            "estimated_prompt_tokens": self.estimated_prompt_tokens,
        }


def _budget_notices(prompt: Prompt) -> list[str]:
    """Say what the token budget left out, so a missing note can be explained."""
    notices = []
    if prompt.messages_dropped:
        notices.append(
            f"The {prompt.messages_dropped} oldest messages were left out to fit llm.max_prompt_tokens."
        )
    if prompt.sections_omitted:
        notices.append(
            f"{prompt.sections_omitted} memory sections least related to this chat were not sent to the LLM."
        )
    return notices


# -- parsing the answer (pure functions, tested on their own) --------------------------------------------


def parse_reply(content: str) -> list[Any]:
    """The entries list of an answer: ``{"entries": [...]}``, a bare array, or the first JSON value in prose."""
    text = _THINK_BLOCK.sub("", content or "").strip()
    if not text:
        raise InvalidReplyError("empty answer")
    try:
        return _entries_of(json.loads(text))
    except (ValueError, InvalidReplyError):
        pass
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[\[{]", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        try:
            return _entries_of(value)
        except InvalidReplyError:
            continue
    raise InvalidReplyError("no JSON object with an entries list")


def _entries_of(value: Any) -> list[Any]:
    if isinstance(value, dict) and "entries" in value:
        value = value["entries"]
    elif isinstance(value, dict) and "title" in value:
        value = [value]
    if not isinstance(value, list):
        raise InvalidReplyError("no JSON object with an entries list")
    if value and not any(isinstance(item, dict) for item in value):
        raise InvalidReplyError("the entries are not JSON objects")
    return value


def entries_from_reply(raw_entries: list[Any]) -> ExtractionResult:
    """Validate each proposed entry; keep at most MAX_ENTRIES, report the rest as dropped."""
    entries: list[Entry] = []
    dropped: list[DroppedEntry] = []
    for index, raw in enumerate(raw_entries):
        outcome = _one_entry(raw, index)
        if isinstance(outcome, DroppedEntry):
            dropped.append(outcome)
        elif len(entries) >= MAX_ENTRIES:
            dropped.append(DroppedEntry(outcome.title, f"over the {MAX_ENTRIES}-entry limit"))
        else:
            outcome.candidate_index = len(entries)
            entries.append(outcome)
    return ExtractionResult(entries=entries, dropped=dropped)


def _one_entry(raw: Any, index: int) -> Entry | DroppedEntry:
    label = _label(raw, index)
    try:
        checked = _LLMEntry.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "entry"
        return DroppedEntry(label, f"malformed entry ({where}: {first.get('msg', 'invalid')})")
    data = checked.model_dump()
    data["merge_target_title"] = _clean_target(checked.merge_target_title)
    data["action"] = _normalize_action(checked.action, data["merge_target_title"])
    if data["action"] == "add":
        data["merge_target_title"] = None
    try:
        entry = parse_entry(data, index)
    except BadInputError as exc:
        return DroppedEntry(label, exc.en.replace(f"entries[{index}].", ""))
    if entry is None:
        return DroppedEntry(label, "no title or no bullets")
    return entry


def _label(raw: Any, index: int) -> str:
    title = raw.get("title") if isinstance(raw, dict) else None
    if isinstance(title, str) and title.strip():
        title = " ".join(title.split())
        return title if len(title) <= 80 else title[:79] + "…"
    return f"(entry {index + 1})"


def _clean_target(target: str | None) -> str | None:
    """A heading as the model may quote it (``## 14:02 - Title``) → the title the comparer looks up."""
    if target is None:
        return None
    cleaned = target.strip()
    for _ in range(2):
        cleaned = _HEADING_PREFIX.sub("", cleaned, count=1).strip()
    return cleaned or None


def _normalize_action(action: str | None, target: str | None) -> str:
    value = (action or "").strip().lower()
    if value in ACTIONS:
        return value
    return "merge" if target else "add"  # "update", "append", "new" … read by intent


# -- helpers ----------------------------------------------------------------------------------------------


def redact(text: str, key: str = "") -> str:
    """``text`` without the API key or anything shaped like a key or bearer token."""
    if key and len(key) >= 4:
        text = text.replace(key, "***")
    text = _BEARER.sub(r"\1***", text)
    return _SECRET_SHAPES.sub(r"\1***", text)


def _server_text(response: httpx.Response) -> str:
    """The server's error message (OpenAI shape ``{"error": {"message"}}`` or raw text), one line, clipped."""
    try:
        data = response.json()
    except ValueError:
        text = response.text
    else:
        error = data.get("error") if isinstance(data, dict) else None
        if isinstance(error, dict):
            text = str(error.get("message") or error)
        elif error is not None:
            text = str(error)
        elif isinstance(data, dict) and "detail" in data:
            text = str(data["detail"])
        else:
            text = response.text
    text = " ".join(text.split())
    return text if len(text) <= _SERVER_TEXT_LIMIT else text[: _SERVER_TEXT_LIMIT - 1] + "…"


def _retry_after(response: httpx.Response) -> float | None:
    """Retry-After in seconds (delta-seconds or an HTTP date), or None."""
    value = response.headers.get("retry-after", "").strip()
    if not value:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - datetime.now(UTC)).total_seconds(), 0.0)


def _chat_completions_url(base_url: str) -> str:
    base = base_url.strip().rstrip("/")
    return base if base.endswith("/chat/completions") else base + "/chat/completions"


def _display_url(url: str) -> str:
    """The endpoint for messages and logs: no credentials, no query string."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}"
