"""The LLM object extractor: the memory-interpret prompt, ``upsert_memory`` as structured output (DESIGN §14).

Optional: ``objects.extractor: llm`` (or ``auto`` with ``llm.base_url`` and a key set). One chat
completion through the shared client (:mod:`savenow.llm`), asking for
``{"objects": [upsert_memory, …]}`` by ``json_schema`` (then ``json_object``, then text).

What comes back is never trusted: each item goes through :func:`savenow.objects.model.parse_object`
(unknown type, a key outside the fixed vocabulary, a path-like name, no summary → dropped with the
reason), and the survivors become :class:`Candidate` objects for the same :func:`plan` the offline
extractor feeds: identity decides create vs update, near-matches are asked, tombstones and
superseded values hold, at most 5 are written. The model's own "op" is advice; identity decides.

An answer that is not an objects list is asked for once more; a second bad answer, or any
endpoint failure, raises :class:`ExtractorError` (nothing proposed, nothing written) — unless
``llm.fallback_to_heuristic`` is on, in which case :class:`FallbackObjectExtractor` runs the
offline extractor and says so.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ExtractorError, LLMError, ObjectInputError
from ..llm import BaseLLMEngine, unfenced_answer
from ..messages import Localized, Text, WithoutFullStop
from ..models import ChatMessage
from ..text.safety import loads_json
from .extract import Candidate, ObjectExtractor, Proposed, objects_index
from .model import (
    LIST_FIELDS,
    MAX_OBJECTS_PER_CONVERSATION,
    SAVED_KINDS,
    SELF_KEYS,
    TOPIC_STATUSES,
    TYPES,
    parse_object,
)
from .store import Stored

if TYPE_CHECKING:
    from ..llm import ChatFormat

__all__ = ["OBJECTS_JSON_SCHEMA", "FallbackObjectExtractor", "LLMObjectExtractor", "parse_objects_reply"]

log = logging.getLogger("savenow.objects.llm")

_ATTEMPTS = 2
_MAX_ITEMS = 12  # more than this is not a careful answer; the rest is ignored
_MAX_MESSAGE_CHARS = 2000
_MAX_ANSWER_CHARS = 500_000


def _nullable(kind: str, **extra: Any) -> dict[str, Any]:
    return {"type": [kind, "null"], **extra}


def _enum(values: Sequence[str]) -> dict[str, Any]:
    return {"type": ["string", "null"], "enum": [*values, None]}


_ITEM_PROPERTIES: dict[str, Any] = {
    "type": {"type": "string", "enum": list(TYPES)},
    "op": {"type": "string", "enum": ["create", "update", "skip"]},
    "category": _enum(sorted(set(SELF_KEYS.values()))),
    "key": _enum(list(SELF_KEYS)),
    "name": _nullable("string"),
    "relation": _nullable("string"),
    "status": _enum(TOPIC_STATUSES),
    "saved_kind": _enum(SAVED_KINDS),
    "title": _nullable("string"),
    "summary": {"type": "string"},
    "detail": _nullable("string"),
    **{name: {"type": "array", "items": {"type": "string"}} for name in LIST_FIELDS},
    "remember": {"type": "boolean"},
    "message": _nullable("integer"),
    "reason": {"type": "string"},
}
OBJECTS_JSON_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["objects"],
    "properties": {
        "objects": {
            "type": "array",
            "maxItems": MAX_OBJECTS_PER_CONVERSATION + 3,  # room for skips
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": list(_ITEM_PROPERTIES),
                "properties": _ITEM_PROPERTIES,
            },
        }
    },
}
_FORMATS: list[ChatFormat] = [
    (
        "json_schema",
        {"type": "json_schema", "json_schema": {"name": "upsert_memory", "strict": True, "schema": OBJECTS_JSON_SCHEMA}},
    ),
    ("json_object", {"type": "json_object"}),
    ("text", None),
]  # fmt: skip


def _vocabulary() -> str:
    by_category: dict[str, list[str]] = {}
    for key, category in SELF_KEYS.items():
        by_category.setdefault(category, []).append(key)
    return "\n".join(f"- {category}: {', '.join(keys)}" for category, keys in by_category.items())


SYSTEM_PROMPT = f"""You read a finished conversation between a user and their assistant and decide what is worth \
keeping in the user's long-term structured memory. Call it upsert_memory: answer with one JSON object \
{{"objects": [...]}} and nothing else.

Object types:
- self: a stable fact about the USER only (identity, preference, communication style, working style). \
Identity is category + key, and the key MUST come from this fixed vocabulary (category: keys):
{_vocabulary()}
- relationship: a person the user mentions: name (as the user says it), relation, facts (list).
- topic: a project or ongoing subject: name (the project's own name), status active|paused|archived, \
summary, detail, recent_conclusions, open_questions.
- saved: something the user explicitly asked to remember (记住 / 帮我记住 / remember this) that is not a \
stable fact about the user: saved_kind (conversation_ref|source_ref|text_note|arrangement), title.

Rules:
- 0 to {MAX_OBJECTS_PER_CONVERSATION} objects; better nothing than junk (宁缺毋滥). Small talk, errands, \
bookings, one-off incidents and reminders, passing remarks: nothing.
- summary is required, written in the conversation's language; keep the user's own wording for names, \
numbers, amounts, identifiers and Latin-script terms.
- Only final values: when the user changes or corrects something during the chat, keep the last version \
and never the superseded one.
- Another person's preference, allergy or habit belongs to that person's relationship object, never to self.
- The current objects are given: when the conversation adds to one, use op "update" with exactly its stored \
identity (the stored name, even if the user said a nickname or short form; the same category + key); a \
topic whose status changes carries the new status. When it is restated but already fully stored, op "skip". \
Otherwise op "create".
- remember: true only when the user explicitly asked to remember it; message: the [number] of the user's \
message that decides the object.
- Fill every field; use null (or []) for fields the type does not have. Most durable first."""


def render_transcript(messages: Sequence[ChatMessage]) -> str:
    lines = []
    for number, message in enumerate(messages):
        body = " ".join(message.text.split())
        if len(body) > _MAX_MESSAGE_CHARS:
            body = body[:_MAX_MESSAGE_CHARS] + " …"
        stamp = f" {message.timestamp}" if message.timestamp else ""
        lines.append(f"[{number}] {message.role}{stamp}: {body}")
    return "\n".join(lines)


def build_messages(messages: Sequence[ChatMessage], stored: Sequence[Stored]) -> list[dict[str, str]]:
    current = json.dumps(objects_index(stored), ensure_ascii=False)
    user = (
        f"<current-objects>\n{current}\n</current-objects>\n\n"
        f"<conversation>\n{render_transcript(messages)}\n</conversation>\n\n"
        'Answer with {"objects": [...]} as described.'
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


class InvalidObjectsReply(ValueError):
    """The answer holds no objects list."""


def parse_objects_reply(content: str) -> list[Any]:
    """The objects list of an answer: ``{"objects": [...]}``, a bare list, or one object."""
    if len(content or "") > _MAX_ANSWER_CHARS:
        raise InvalidObjectsReply("the answer is too long")
    body = unfenced_answer(content)
    if not body:
        raise InvalidObjectsReply("empty answer")
    try:
        value = loads_json(body)
    except ValueError:
        start = body.find("{")
        try:
            value, _ = json.JSONDecoder().raw_decode(body, start) if start >= 0 else (None, 0)
        except ValueError:
            value = None
    if isinstance(value, dict) and isinstance(value.get("objects"), list):
        return list(value["objects"])
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and "type" in value:
        return [value]
    raise InvalidObjectsReply("no JSON object with an objects list")


def candidates_from_reply(
    items: list[Any], messages: Sequence[ChatMessage]
) -> tuple[list[Candidate], list[str | Localized]]:
    """Each item checked by the objects parser; (candidates, dropped with reasons)."""
    candidates: list[Candidate] = []
    dropped: list[str | Localized] = []
    for index, item in enumerate(items[:_MAX_ITEMS]):
        if not isinstance(item, dict):
            dropped.append(Text("objects.dropped.not_object", number=index + 1))
            continue
        fields = {
            k: v
            for k, v in item.items()
            if v is not None and k not in ("op", "remember", "message", "reason")
        }
        if fields.get("type") == "self" and not fields.get("category") and fields.get("key") in SELF_KEYS:
            fields["category"] = SELF_KEYS[fields["key"]]
        try:
            obj = parse_object(fields, Text("objects.where.item", number=index + 1))
        except ObjectInputError as error:
            dropped.append(error)  # its message, in either language
            continue
        at = _message_time(item.get("message"), messages)
        candidates.append(
            Candidate(
                obj=obj,
                priority=float(-index),  # the model lists the most durable first
                reason=str(item.get("reason") or "proposed by the LLM")[:200],
                # An explicit "remember this" lifts a tombstone: only when it points at a real user message.
                remember=bool(item.get("remember")) and at is not None,
                at=at,
            )
        )
    if len(items) > _MAX_ITEMS:
        dropped.append(Text("objects.dropped.too_many", count=len(items) - _MAX_ITEMS, limit=_MAX_ITEMS))
    return candidates, dropped


def _message_time(number: Any, messages: Sequence[ChatMessage]) -> str | None:
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < len(messages):
        return None
    message = messages[number]
    return message.timestamp if message.role == "user" else None


class LLMObjectExtractor(BaseLLMEngine):
    """Proposes memory objects with one chat completion (plus one retry of an unusable answer)."""

    missing_base_url = missing_model = "objects.llm_not_configured"

    def propose(self, messages: Sequence[ChatMessage], stored: Sequence[Stored]) -> Proposed:
        chat = build_messages(messages, stored)
        problem: str | None = None
        for _ in range(_ATTEMPTS):
            request = chat if problem is None else [*chat, _correction(problem)]
            try:
                content = self._client.get().chat(request, formats=_FORMATS)
            except LLMError as error:
                raise ExtractorError(Text("objects.llm_failed", reason=error)) from None
            try:
                items = parse_objects_reply(content)
            except InvalidObjectsReply as exc:
                problem = str(exc)
                log.warning("LLM objects answer unusable (%s)", problem)
                continue
            candidates, dropped = candidates_from_reply(items, messages)
            log.info("LLM proposed %d objects (%d dropped)", len(candidates), len(dropped))
            return Proposed(candidates=candidates, dropped=dropped, extractor=self.name)
        raise ExtractorError(Text("objects.llm_unusable", reason=problem))


def _correction(problem: str) -> dict[str, str]:
    return {
        "role": "user",
        "content": f'Your previous answer was not usable ({problem}). Answer again with only {{"objects": [...]}}.',
    }


class FallbackObjectExtractor:
    """The LLM first; on an ``ExtractorError`` the offline extractor, and ``dropped`` says so."""

    def __init__(self, primary: LLMObjectExtractor, fallback: Callable[[], ObjectExtractor]) -> None:
        self._primary = primary
        self._fallback = fallback
        self.name = primary.name

    def propose(self, messages: Sequence[ChatMessage], stored: Sequence[Stored]) -> Proposed:
        try:
            return self._primary.propose(messages, stored)
        except ExtractorError as error:
            log.warning("LLM object extractor failed (%s); using the offline extractor", error.en)
            offline = self._fallback().propose(messages, stored)
            notice = Text("objects.llm_fallback", reason=WithoutFullStop(error))
            return Proposed(
                candidates=offline.candidates, dropped=[notice, *offline.dropped], extractor=offline.extractor
            )
