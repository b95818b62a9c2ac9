"""What the LLM extractor sends: the system prompt, the entries schema, and a budgeted user message.

One chat-completions request per /savenow carries exactly two messages:

* ``system``: the durable / not-durable rules and the shape of the answer
  (:data:`SYSTEM_PROMPT`), the same for every request;
* ``user``: today's memory sections (``## Title`` + ``- bullet`` lines) and the
  cleaned transcript (``U:`` / ``A:`` lines, oldest first).

The prompt stays under ``llm.max_prompt_tokens`` (estimated, :mod:`.tokens`):
the oldest messages go first, and a memory file too large for its share sends
only the sections most similar to the conversation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..models import MAX_ENTRIES, ChatMessage, MemorySection
from ..textnorm import bigrams, compact
from .tokens import MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS, estimate_tokens

__all__ = [
    "ENTRIES_JSON_SCHEMA",
    "SYSTEM_PROMPT",
    "Prompt",
    "build_prompt",
    "correction_message",
    "response_format",
]

SYSTEM_PROMPT = f"""\
You pick the durable notes of a chat between a user and their AI assistant, for the user's daily memory \
file. Answer with one JSON object and nothing else: {{"entries": [...]}}.

Durable (save): the final, confirmed root cause and its fix; stable rules, conventions and config values; \
preferences and standing instructions ("from now on …", "以后 …", "always/never …"); IDs, paths, hosts, \
ports, env vars, commands, owners; decisions that will matter later.
Not durable (never save): greetings, thanks, jokes, small talk, personal errands; status pings and one-off \
results (counts, durations, "still running"); plans for today or tomorrow; abandoned ideas, disproven \
hypotheses and fixes that did not work; pasted logs as such; secret values (name the variable, never its \
token, password or key).

Rules:
- At most {MAX_ENTRIES} entries, most valuable first. {{"entries": []}} when nothing is durable.
- One topic per entry: a short title a person would write; 1-3 self-contained bullets; keep identifiers, \
commands, paths and numbers verbatim. The same fix repeated is one entry.
- Write titles and bullets in the conversation's language (Chinese chat → Chinese notes; mixed → the \
user's language).
- Compare with today's memory sections: a fact already there → "skip", merge_target_title = that heading; \
a new fact that belongs under an existing heading → "merge", merge_target_title = that heading exactly as \
shown (without "## "); anything else → "add", merge_target_title null.
- reason: one short clause (why it lasts, or why skip).

Entry: {{"candidate_index": 0, "title": "…", "bullets": ["…"], "action": "add|merge|skip", \
"merge_target_title": "…" or null, "reason": "…"}}"""

_ENTRY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "candidate_index": {"type": "integer"},
        "title": {"type": "string"},
        "bullets": {"type": "array", "items": {"type": "string"}},
        "action": {"type": "string", "enum": ["add", "merge", "skip"]},
        "merge_target_title": {"type": ["string", "null"]},
        "reason": {"type": ["string", "null"]},
    },
    "required": ["candidate_index", "title", "bullets", "action", "merge_target_title", "reason"],
    "additionalProperties": False,
}

# Strict-mode friendly (OpenAI structured outputs): every property required, no
# additionalProperties, no maxItems (the 5-entry cap is in the prompt and enforced on our side).
ENTRIES_JSON_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"entries": {"type": "array", "items": _ENTRY_SCHEMA}},
    "required": ["entries"],
    "additionalProperties": False,
}

# The response_format ladder: json_schema, then json_object, then plain text (parsed leniently).
FORMAT_LADDER: tuple[str, ...] = ("json_schema", "json_object", "text")


def response_format(kind: str) -> dict[str, Any] | None:
    """The ``response_format`` request field for one rung of :data:`FORMAT_LADDER` (None = omit)."""
    if kind == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": "savenow_entries", "strict": True, "schema": ENTRIES_JSON_SCHEMA},
        }
    if kind == "json_object":
        return {"type": "json_object"}
    return None


def correction_message(problem: str) -> dict[str, str]:
    """The extra user message of the second attempt after an invalid answer (never echoes the answer)."""
    return {
        "role": "user",
        "content": f"Your previous answer was not usable ({problem}). Answer again with only the JSON object "
        f'{{"entries": [...]}} described above.',
    }


@dataclass(frozen=True)
class Prompt:
    """The two chat messages of one request, and what the budget left out."""

    messages: list[dict[str, str]]
    estimated_tokens: int
    messages_sent: int
    messages_dropped: int  # oldest transcript messages left out for the budget
    sections_sent: int
    sections_omitted: int  # memory sections left out as least similar to the conversation


_ROLE_MARK = {"user": "U", "assistant": "A"}
_FENCE = re.compile(r"^(```|~~~)")
_BLANK_RUNS = re.compile(r"\n{3,}")
_LONG_BLOCK_HEAD = 20
_LONG_BLOCK_TAIL = 8
# The memory file's share of the budget when both it and the transcript are too large.
_MEMORY_SHARE = 1 / 3
_SCHEMA_RESERVE_TOKENS = estimate_tokens(str(ENTRIES_JSON_SCHEMA)) + 16


def _shorten_long_blocks(text: str) -> str:
    """Keep the head and tail of a fenced block longer than head+tail lines; pasted logs repeat themselves."""
    lines = text.split("\n")
    out: list[str] = []
    block: list[str] | None = None
    for line in lines:
        if block is None:
            out.append(line)
            if _FENCE.match(line.strip()):
                block = []
            continue
        if _FENCE.match(line.strip()):
            if len(block) > _LONG_BLOCK_HEAD + _LONG_BLOCK_TAIL + 1:
                omitted = len(block) - _LONG_BLOCK_HEAD - _LONG_BLOCK_TAIL
                block = [
                    *block[:_LONG_BLOCK_HEAD],
                    f"… ({omitted} lines omitted)",
                    *block[-_LONG_BLOCK_TAIL:],
                ]
            out.extend(block)
            out.append(line)
            block = None
        else:
            block.append(line)
    if block is not None:  # an unclosed fence: keep it as it is
        out.extend(block)
    return "\n".join(out)


def _message_text(text: str) -> str:
    text = "\n".join(line.rstrip() for line in text.strip().split("\n"))
    return _BLANK_RUNS.sub("\n\n", _shorten_long_blocks(text))


def render_transcript_lines(messages: Sequence[ChatMessage]) -> list[str]:
    """One ``U: …`` / ``A: …`` block per message; a repeated paste is sent once."""
    seen: set[str] = set()
    lines: list[str] = []
    for message in messages:
        text = _message_text(message.text)
        if not text:
            continue
        if len(text) > 200 and text in seen:
            text = "(the same text as an earlier message)"
        seen.add(text)
        lines.append(f"{_ROLE_MARK.get(message.role, message.role)}: {text}")
    return lines


def render_section(section: MemorySection) -> str:
    return "\n".join([f"## {section.title}", *(f"- {bullet}" for bullet in section.bullets)])


def _section_relevance(section: MemorySection, conversation_grams: Any) -> float:
    """Share of the section's character bigrams that occur in the conversation (title counts double)."""

    def containment(text: str) -> float:
        grams = bigrams(compact(text))
        total = sum(grams.values())
        return sum((grams & conversation_grams).values()) / total if total else 0.0

    return (2 * containment(section.title) + containment(" ".join(section.bullets))) / 3


def select_sections(
    sections: Sequence[MemorySection], conversation: str, budget_tokens: int
) -> list[MemorySection]:
    """The sections to send: all when they fit, else the most similar to the conversation, in file order."""
    costs = [estimate_tokens(render_section(s)) + 1 for s in sections]
    if sum(costs) <= budget_tokens:
        return list(sections)
    conversation_grams = bigrams(compact(conversation))
    ranked = sorted(
        range(len(sections)), key=lambda i: _section_relevance(sections[i], conversation_grams), reverse=True
    )
    chosen: set[int] = set()
    used = 0
    for index in ranked:
        if used + costs[index] <= budget_tokens:
            chosen.add(index)
            used += costs[index]
    return [s for i, s in enumerate(sections) if i in chosen]


def _memory_block(sent: Sequence[MemorySection], total: int) -> str:
    if total == 0:
        return "Today's memory file has no sections yet: every durable note is an add."
    header = f"Today's memory file ({total} section{'s' if total != 1 else ''}"
    if len(sent) < total:
        header += f"; the {len(sent)} most related to this chat are shown"
    header += "). Merge/skip targets are these headings:"
    return "\n\n".join([header, *(render_section(s) for s in sent)])


def _conversation_header(dropped: int) -> str:
    header = "Conversation (oldest first; U = user, A = assistant"
    if dropped:
        header += f"; {dropped} earlier messages omitted"
    return header + "):"


def _clip_to_tokens(text: str, budget_tokens: int) -> str:
    """The end of ``text`` within ``budget_tokens`` (the newest part of a too-long message matters most)."""
    if estimate_tokens(text) <= budget_tokens:
        return text
    low, high = 0, len(text)
    while low < high:  # the smallest start index whose tail fits
        middle = (low + high) // 2
        if estimate_tokens(text[middle:]) + 1 <= budget_tokens:
            high = middle
        else:
            low = middle + 1
    return "…" + text[low:]


def build_prompt(
    messages: Sequence[ChatMessage], sections: Sequence[MemorySection], *, max_prompt_tokens: int
) -> Prompt:
    """The system + user messages for one extraction, estimated under ``max_prompt_tokens``."""
    transcript = render_transcript_lines(messages)
    fixed = (
        REPLY_PRIMING_TOKENS
        + 2 * MESSAGE_OVERHEAD_TOKENS
        + estimate_tokens(SYSTEM_PROMPT)
        + estimate_tokens(_memory_block([], len(sections)))
        + estimate_tokens(_conversation_header(len(transcript)))
        + _SCHEMA_RESERVE_TOKENS
        + 4  # the blank lines joining the blocks
    )
    available = max(max_prompt_tokens - fixed, 0)
    line_costs = [estimate_tokens(line) + 1 for line in transcript]
    transcript_cost = sum(line_costs)

    memory_budget = max(int(available * _MEMORY_SHARE), available - transcript_cost)
    sent_sections = select_sections(sections, "\n".join(transcript), memory_budget)
    memory_text = _memory_block(sent_sections, len(sections))
    memory_cost = estimate_tokens(memory_text) - estimate_tokens(_memory_block([], len(sections)))

    transcript_budget = max(available - memory_cost, 0)
    kept: list[str] = []
    used = 0
    for line, cost in zip(reversed(transcript), reversed(line_costs), strict=True):
        if used + cost > transcript_budget:
            break
        kept.append(line)
        used += cost
    if not kept and transcript:  # not even the newest message fits whole: send its end
        kept.append(_clip_to_tokens(transcript[-1], max(transcript_budget - 1, 1)))
    kept.reverse()
    dropped = len(transcript) - len(kept)

    user_content = "\n\n".join([memory_text, _conversation_header(dropped), "\n".join(kept)])
    chat = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user_content}]
    estimated = (
        REPLY_PRIMING_TOKENS
        + 2 * MESSAGE_OVERHEAD_TOKENS
        + estimate_tokens(SYSTEM_PROMPT)
        + estimate_tokens(user_content)
    )
    return Prompt(
        messages=chat,
        estimated_tokens=estimated,
        messages_sent=len(kept),
        messages_dropped=dropped,
        sections_sent=len(sent_sections),
        sections_omitted=len(sections) - len(sent_sections),
    )
