"""The LLM extractor: one chat-completions request to any OpenAI-compatible endpoint per /savenow.

What it sends is built by :mod:`.prompt` (system rules + today's memory
sections + the cleaned transcript). What comes back is never trusted: it is
parsed leniently (a JSON object, a bare array, or the first JSON value inside
prose), validated with pydantic, and every entry that is empty or oversized is
dropped with a reason. The comparer still decides add / merge / skip afterwards.

HTTP, retries, deadlines, the response_format ladder and secret scrubbing are
the shared client's (:mod:`savenow.llm`); this module only builds the request
from the prompt and reads the answer. Its errors add what was not done
("nothing was written") to the client's neutral ones.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import BadInputError, ExtractorError, LLMError
from ..llm import BaseLLMEngine, ChatFormat, Usage, strip_thinking
from ..messages import Localized, Text, WithoutFullStop
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
from ..text.safety import loads_json, scrub
from .prompt import FORMAT_LADDER, Prompt, build_prompt, correction_message, response_format

__all__ = ["LLMExtractor", "parse_reply"]

log = logging.getLogger("savenow.extract.llm")

_ANSWER_ATTEMPTS = 2  # an invalid answer is asked for once more, then reported
_MAX_ANSWER_CHARS = 1_000_000  # an entries answer is a few KB; a megabyte is not one
_MAX_DECODE_STARTS = 32  # JSON values tried inside prose before giving up (bounded work on junk)
_HEADING_PREFIX = re.compile(r"^#+\s*|^\d{1,2}:\d{2}\s*[-–—]\s*")


class InvalidReplyError(ValueError):
    """The model's answer is not an entries JSON value (asked once more, then reported)."""


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


class LLMExtractor(BaseLLMEngine):
    """Proposes entries with one chat-completions call (plus bounded retries) per extraction."""

    missing_base_url = "extract_llm.no_base_url"
    missing_model = "extract_llm.no_model"
    _formats: ClassVar[list[ChatFormat]] = [(name, response_format(name)) for name in FORMAT_LADDER]

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
        usage = Usage()
        problem: str | None = None
        for _ in range(_ANSWER_ATTEMPTS):
            chat = prompt.messages if problem is None else [*prompt.messages, correction_message(problem)]
            try:
                content = self._client.get().chat(chat, formats=self._formats, usage=usage)
            except LLMError as error:
                raise _not_written(error) from None
            try:
                raw_entries = parse_reply(content)
            except InvalidReplyError as exc:
                problem = str(exc)
                log.warning("LLM answer unusable (%s)", problem)
                continue
            result = entries_from_reply(raw_entries)
            result.usage = _usage_dict(usage, prompt)
            result.notices.extend(_budget_notices(prompt))
            log.info(
                "LLM proposed %d entries (%d dropped); usage %s",
                len(result.entries),
                len(result.dropped),
                result.usage,
            )
            return result
        # The problem stays in English: it is the correction the model was sent.
        raise ExtractorError(Text("extract_llm.unusable_twice", problem=problem))


def _not_written(error: LLMError) -> ExtractorError:
    """The client's neutral error, plus what the extractor did not do."""
    return ExtractorError(Text("extract_llm.not_written", error=WithoutFullStop(error)))


def _usage_dict(usage: Usage, prompt: Prompt) -> dict[str, int]:
    return {**usage.reported, "requests": usage.requests, "estimated_prompt_tokens": prompt.estimated_tokens}


def _budget_notices(prompt: Prompt) -> list[str | Localized]:
    """Say what the token budget left out, so a missing note can be explained."""
    notices: list[str | Localized] = []
    if prompt.messages_dropped:
        notices.append(Text("llm.messages_left_out", count=prompt.messages_dropped))
    if prompt.sections_omitted:
        notices.append(Text("llm.sections_left_out", count=prompt.sections_omitted))
    return notices


# -- parsing the answer (pure functions, tested on their own) --------------------------------------------


def parse_reply(content: str) -> list[Any]:
    """The entries list of an answer: ``{"entries": [...]}``, a bare array, or the first JSON value in prose."""
    if len(content or "") > _MAX_ANSWER_CHARS:
        raise InvalidReplyError(f"the answer is longer than {_MAX_ANSWER_CHARS} characters")
    text = strip_thinking(content)
    if not text:
        raise InvalidReplyError("empty answer")
    try:
        return _entries_of(loads_json(text))
    except (ValueError, InvalidReplyError):
        pass
    decoder = json.JSONDecoder()
    starts = 0
    for match in re.finditer(r"(?<![\[{])[\[{]", text):  # a run of brackets is tried once, at its start
        starts += 1
        if starts > _MAX_DECODE_STARTS:
            break
        try:
            value, end = decoder.raw_decode(text, match.start())
            value = loads_json(text[match.start() : end])  # depth-bounded, surrogate-clean
        except (ValueError, RecursionError):
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
            dropped.append(DroppedEntry(outcome.title, Text("llm.dropped.over_limit", limit=MAX_ENTRIES)))
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
        return DroppedEntry(
            label, Text("llm.dropped.malformed", where=where, detail=first.get("msg", "invalid"))
        )
    data = checked.model_dump()
    data["merge_target_title"] = _clean_target(checked.merge_target_title)
    data["action"] = _normalize_action(checked.action, data["merge_target_title"])
    if data["action"] == "add":
        data["merge_target_title"] = None
    try:
        entry = parse_entry(data, index)
    except BadInputError as exc:
        return DroppedEntry(label, _Unprefixed(exc, f"entries[{index}]."))
    if entry is None:
        return DroppedEntry(label, Text("llm.dropped.empty"))
    return entry


@dataclass(frozen=True)
class _Unprefixed:
    """An entry's refusal in either language, without the ``entries[i].`` its field names carry."""

    error: BadInputError
    prefix: str

    def render(self, lang: str = "en") -> str:
        return self.error.message(lang).replace(self.prefix, "")


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
    """``text`` without the API key or anything shaped like a key or bearer token (for errors and logs)."""
    return scrub(text, [key])
