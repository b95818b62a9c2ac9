"""An LLM summary behind the :class:`~savenow.compaction.summary.Summarizer` protocol (DESIGN §13).

Optional: ``compaction.summarizer: llm`` (or ``auto`` with ``llm.base_url`` and a key set).
One chat completion per run through the shared client (:mod:`savenow.llm`: deadline, size
cap, retries, secret scrubbing); a transcript larger than ``llm.max_prompt_tokens`` is read in
pieces, each piece folded into the summary so far with the same update prompt.

The summary has fixed sections (pi-style: goal, constraints, progress, decisions, next steps,
critical context, files), bilingual headings like the offline summary. An incremental run
sends the previous summary and only the new messages and asks for ONE merged summary: the
answer replaces the previous one, it is never appended to or nested inside it; an answer that
nests anyway is refused.

Any failure raises an ``LLMError``; :class:`~savenow.compaction.compactor.SessionCompactor`
then runs the offline summarizer and the result says so (``summarizer``, ``summarizerFallback``).
The answer is bounded by ``max_tokens`` here, whatever the model wrote: the least important
lines go first, identifiers last.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from ..errors import LLMAnswerError
from ..llm import BaseLLMEngine, unfenced_answer
from ..messages import Text
from ..text.tokens import estimate_tokens
from .model import SessionMessage

__all__ = ["LLM_TITLE", "LLMSummarizer", "bound_summary", "clean_answer"]

log = logging.getLogger("savenow.compaction.llm")

LLM_TITLE = "## Session summary (LLM) · 会话摘要"
_CONTEXT_HINT = (
    "identifiers verbatim: paths, hosts, IPs, ports, ids, env vars, versions, amounts with units, "
    "people and their roles"
)
# (heading, what goes there, how long its lines survive trimming: higher = later), in writing order.
SECTIONS: tuple[tuple[str, str, int], ...] = (
    ("### Goal · 目标", "what the user is trying to get done, in one or two lines", 3),
    ("### Constraints & preferences · 约束与偏好", "what the user requires or prefers, stable ones only", 2),
    ("### Progress · 进展", "done / in progress / blocked, one line each, in order", 1),
    ("### Key decisions · 关键决定", "each decision with its FINAL value (a later change wins)", 5),
    ("### Next steps · 下一步", "open items not done yet, unresolved errors", 4),
    ("### Critical context · 关键上下文", _CONTEXT_HINT, 7),
    ("### Files · 文件", "files read and modified, paths verbatim", 6),
)
_TOOL_RESULT_CHARS = 2000  # a tool's output is evidence, not the story: its head is enough
_PROMPT_OVERHEAD = 600
_WRAPPER = re.compile(r"</?(summary|previous-summary|conversation)>", re.IGNORECASE)


def _system_prompt(max_tokens: int) -> str:
    sections = "\n".join(f"{heading}\n- ({hint})" for heading, hint, _ in SECTIONS)
    return (
        "You write the working summary of a long conversation between a user and their assistant, so the "
        "assistant can continue the work after the older messages are removed from its context.\n"
        "Rules:\n"
        "- Keep every identifier exactly as written (paths, hosts, IPs, ports, ids, env vars, versions, "
        "amounts with units, names of people).\n"
        "- Only final values: when something was changed or corrected later, write the new value only.\n"
        "- Leave out chit-chat, greetings, thanks, guesses that were disproven, and the assistant's "
        "explanations.\n"
        "- Write in the conversation's language (Chinese chats in Chinese); keep Latin-script terms as they are.\n"
        f"- At most about {max_tokens} tokens. One short line per bullet. Omit an empty section.\n"
        "- Answer with the summary only, in exactly this Markdown layout (no code fence, no preamble):\n"
        f"{LLM_TITLE}\n\n{sections}"
    )


def _first_prompt() -> str:
    return "Summarize the conversation in <conversation> tags with the layout above."


def _update_prompt() -> str:
    return (
        "<previous-summary> holds the summary of the earlier part of this conversation; <conversation> holds "
        "the NEW messages since then. Write ONE updated summary with the layout above that replaces the "
        "previous one: keep everything in it that still holds, add what is new, move finished items from "
        "next steps to progress, replace values the new messages changed. Do not quote or nest the "
        "previous summary, and do not add a section about what changed."
    )


def render_transcript(messages: Sequence[SessionMessage]) -> str:
    lines = []
    for message in messages:
        text = message.content.strip()
        if message.is_tool_result and len(text) > _TOOL_RESULT_CHARS:
            text = text[:_TOOL_RESULT_CHARS] + " …"
        if message.is_tool_call:
            call = f"[tool call: {message.tool_name} {message.tool_input or ''}]".strip()
            text = f"{text}\n{call}" if text else call
        stamp = f" {message.timestamp}" if message.timestamp else ""
        lines.append(f"[{message.role}{stamp}] {text}")
    return "\n".join(lines)


def _pieces(messages: Sequence[SessionMessage], budget: int) -> list[list[SessionMessage]]:
    """Consecutive runs of messages, each within ``budget`` tokens (a single huge message stays whole)."""
    pieces: list[list[SessionMessage]] = [[]]
    used = 0
    for message in messages:
        cost = estimate_tokens(render_transcript([message])) + 4
        if pieces[-1] and used + cost > budget:
            pieces.append([])
            used = 0
        pieces[-1].append(message)
        used += cost
    return [piece for piece in pieces if piece]


class LLMSummarizer(BaseLLMEngine):
    """Summaries by an OpenAI-compatible chat model; raises an ``LLMError`` when it cannot."""

    missing_base_url = missing_model = "compaction.llm_not_configured"

    def summarize(self, previous: str | None, removed: Sequence[SessionMessage], *, max_tokens: int) -> str:
        summary = previous.strip() if previous and previous.strip() else None
        if not removed:
            if summary is None:
                raise LLMAnswerError(Text("compaction.llm_nothing_to_summarize"))
            return bound_summary(summary, max_tokens)
        budget = self._settings.max_prompt_tokens - _PROMPT_OVERHEAD - 2 * max_tokens
        for piece in _pieces(removed, max(budget, 1000)):
            summary = self._one_call(summary, piece, max_tokens)
        assert summary is not None
        return summary

    def _one_call(self, previous: str | None, piece: Sequence[SessionMessage], max_tokens: int) -> str:
        parts = []
        if previous is not None:
            parts.append(f"<previous-summary>\n{previous}\n</previous-summary>")
        parts.append(f"<conversation>\n{render_transcript(piece)}\n</conversation>")
        parts.append(_update_prompt() if previous is not None else _first_prompt())
        messages = [
            {"role": "system", "content": _system_prompt(max_tokens)},
            {"role": "user", "content": "\n\n".join(parts)},
        ]
        log.info(
            "LLM summary: %d messages, %s",
            len(piece),
            "update of the previous summary" if previous else "first",
        )
        answer = self._client.get().chat(messages, formats=[("text", None)], temperature=0.0)
        return bound_summary(clean_answer(answer, previous), max_tokens)


def clean_answer(answer: str, previous: str | None = None) -> str:
    """The summary inside the model's answer, with our title on top; nesting and empty answers refused."""
    text = unfenced_answer(answer)
    if re.search(r"<previous-summary>", text, re.IGNORECASE) or text.count(LLM_TITLE) > 1:
        raise LLMAnswerError(Text("compaction.llm_nested"))
    if previous and len(previous) > 200 and previous.strip() in text:
        raise LLMAnswerError(Text("compaction.llm_nested"))
    text = _WRAPPER.sub("", text).strip()
    if text.startswith(LLM_TITLE):
        text = text[len(LLM_TITLE) :].strip()
    if not re.search(r"\w", text):
        raise LLMAnswerError(Text("compaction.llm_empty"))
    return f"{LLM_TITLE}\n\n{text}\n"


def _rank(heading: str) -> int:
    """How long a section's lines survive trimming (higher = later); unknown headings go first."""
    english = heading.split(" · ")[0].strip().casefold()
    for known, _, rank in SECTIONS:
        if english == known.split(" · ")[0].casefold():
            return rank
    return 0


def bound_summary(text: str, max_tokens: int) -> str:
    """``text`` within ``max_tokens``: bullets of the least important sections go first, each
    section's last bullets first; a summary with no bullets left is cut at a line."""
    if estimate_tokens(text) <= max_tokens:
        return text
    lines = text.rstrip("\n").split("\n")
    rank_of: list[int] = []
    current = 0
    for line in lines:
        if line.startswith("#"):
            current = _rank(line) if line.startswith("### ") else current
            rank_of.append(99)
        else:
            rank_of.append(current)
    order = sorted(
        (i for i, line in enumerate(lines) if rank_of[i] < 99 and line.strip()),
        key=lambda i: (rank_of[i], -i),
    )
    kept = [True] * len(lines)

    def render() -> str:
        out = [line for line, keep in zip(lines, kept, strict=True) if keep]
        # A heading whose every line went goes too.
        tidy = [line for i, line in enumerate(out) if not (line.startswith("### ") and _empty_after(out, i))]
        return "\n".join(_squeeze_blank(tidy)) + "\n"

    total = estimate_tokens(text)
    for index in order:
        kept[index] = False
        total -= estimate_tokens(lines[index]) + 1
        if total <= max_tokens:  # per-line estimates are close, not exact: check the whole
            total = estimate_tokens(render())
            if total <= max_tokens:
                break
    result = render()
    while estimate_tokens(result) > max_tokens and "\n" in result.rstrip("\n"):
        result = result.rstrip("\n").rsplit("\n", 1)[0] + "\n"
    return result


def _empty_after(lines: list[str], index: int) -> bool:
    for line in lines[index + 1 :]:
        if line.strip():
            return line.startswith("#")
    return True


def _squeeze_blank(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out
