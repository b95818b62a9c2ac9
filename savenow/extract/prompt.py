"""What the LLM extractor sends: the system prompt, the entries schema, and a budgeted user message.

One chat-completions request per /savenow carries exactly two messages:

* ``system``: the durable / not-durable rules and the shape of the answer
  (:data:`SYSTEM_PROMPT`), the same for every request;
* ``user``: today's memory sections (``## Title`` + ``- bullet`` lines) and the
  cleaned transcript (``U:`` / ``A:`` lines, oldest first).

The transcript is trimmed to fit without losing what a note could use
(:func:`render_transcript`): messages that are only an acknowledgement, thanks,
greeting or laugh are left out (:func:`is_filler`), long pasted blocks keep their
head, tail and the lines the chat talks about, layout (column padding, a log
prefix repeating the line above, blank lines) is squeezed, and the role mark is
written only where the speaker changes. A memory section that shares nothing
with the chat is sent as its heading alone (:func:`is_unrelated`).

The prompt stays under ``llm.max_prompt_tokens`` (estimated, :mod:`.tokens`):
the oldest messages go first, and a memory file too large for its share sends
only the sections most similar to the conversation.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..models import MAX_ENTRIES, ChatMessage, MemorySection
from ..text.cjk import han_ngrams
from ..text.identifiers import identifier_tokens
from ..text.normalize import bigrams, compact
from ..text.stopwords import EN_KEYWORD_STOPWORDS
from ..text.tokens import MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS, estimate_tokens

__all__ = [
    "ENTRIES_JSON_SCHEMA",
    "SYSTEM_PROMPT",
    "Prompt",
    "build_prompt",
    "correction_message",
    "response_format",
]

SYSTEM_PROMPT = f"""\
Pick the durable notes of this chat for the user's daily memory file.
Durable: confirmed root cause + fix; rules, conventions, config values; preferences, standing instructions \
(from now on/以后/always/never); IDs, paths, hosts, ports, env vars, commands, owners; lasting decisions.
Not durable: greetings, thanks, small talk, errands; status, one-off results; plans for today/tomorrow; \
abandoned ideas, disproven guesses, failed fixes; raw logs; secret values (name the variable only).
Reply with JSON only: {{"entries": [{{"candidate_index": 0, "title": "…", "bullets": ["…"], \
"action": "add|merge|skip", "merge_target_title": "…"|null, "reason": "…"}}]}}; at most {MAX_ENTRIES}, \
best first; [] if none. Each: one topic (a repeated fix is one); short title; 1-3 self-contained bullets, \
identifiers, commands, paths, numbers verbatim; in the conversation's language (mixed: the user's). \
action: skip = already in today's memory, merge = belongs under an existing heading (for both, \
merge_target_title = that heading exactly, no "## "), else add (null). reason: one short clause."""

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
    messages_filler: int = 0  # acknowledgements, thanks, greetings left out (see is_filler)


_ROLE_MARK = {"user": "U", "assistant": "A"}
_FENCE = re.compile(r"^(```|~~~)")
_BLANK_LINES = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
# The memory file's share of the budget when both it and the transcript are too large.
_MEMORY_SHARE = 1 / 3
_SCHEMA_RESERVE_TOKENS = estimate_tokens(str(ENTRIES_JSON_SCHEMA)) + 16

# -- transcript trimming -------------------------------------------------------------------------------
#
# Everything a note could use is kept: identifiers, numbers, paths, code, outcomes, rules. What goes is
# what no note can use: messages that are nothing but an acknowledgement, and the middle of long
# pasted blocks that nothing else in the chat refers to.


def _strip_symbols(text: str) -> str:
    """``text`` without emoji, symbols and punctuation (what filler is wrapped in)."""
    kept = []
    for char in text:
        category = unicodedata.category(char)
        kept.append(" " if category[0] in "PSZC" or category == "Mn" else char)
    return " ".join("".join(kept).split())


# Acknowledgements, thanks, greetings, laughter and "wait a moment", in English and Chinese. A message
# made only of these (and punctuation or emoji) is filler. Deliberately absent: yes/no answers ("yes",
# "对", "不是"), approvals and outcomes ("works", "good", "nice", "好了", "可以", "行了", "果然"), because
# after a question or a fix those words are the answer or the confirmation.
_FILLER_PHRASES: tuple[str, ...] = (
    # English
    "ok", "okay", "okey", "k", "kk", "sure", "sure thing", "alright", "all right", "got it", "gotcha",
    "noted", "roger", "will do", "thanks", "thank you", "thanks a lot", "thanks for the help", "thx",
    "ty", "tysm", "cheers", "np", "no problem", "no worries", "you're welcome", "youre welcome",
    "anytime", "hi", "hello", "hey", "hey there", "morning", "good morning", "evening", "good evening",
    "good night", "night", "bye", "see you", "see ya", "later", "one sec", "a sec", "sec", "one moment",
    "just a moment", "hold on", "brb", "back", "i'm back", "im back", "lol", "lmao", "haha", "hahaha",
    "hehe", "heh", "hmm", "hm", "ah", "oh", "ooh", "wow", "i see", "makes sense", "ok makes sense",
    "quick one", "quick question",
    # Chinese
    "好", "好的", "好吧", "好嘞", "好滴", "好哒", "嗯", "嗯嗯", "哦", "哦哦", "噢", "喔", "啊", "呀",
    "收到", "了解", "明白", "明白了", "知道了", "懂了", "记下了", "谢谢", "谢谢啦", "谢谢你", "谢了", "多谢",
    "感谢", "辛苦了", "辛苦啦", "不辛苦", "不客气", "不用谢", "没事", "早", "早安", "早上好", "晚上好",
    "晚安", "午安", "拜拜", "再见", "明天见", "在吗", "在的", "在", "怎么了", "稍等", "等下", "等一下",
    "马上", "我试下", "我试试", "试下", "试试", "我看看", "回来了", "我回来了", "去吧", "哈", "哈哈",
    "哈哈哈", "嘿嘿", "呵呵",
)  # fmt: skip
_ASCII_WORDS = re.compile(r"[a-z ]+")


def _filler_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    """One or more filler phrases, matched against text in :func:`_strip_symbols` form."""
    forms = sorted({_strip_symbols(phrase) for phrase in phrases}, key=len, reverse=True)
    alternatives = (rf"\b{re.escape(f)}\b" if _ASCII_WORDS.fullmatch(f) else re.escape(f) for f in forms)
    return re.compile(r"(?:(?:" + "|".join(alternatives) + r")\s*)+")


_FILLER_MESSAGE = _filler_pattern(_FILLER_PHRASES)
_FILLER_MAX_CHARS = 60
# Symbols that report an outcome: a message made of them is a result, not filler.
_OUTCOME_SYMBOLS = frozenset("✅✔☑❌✖⚠🎉")
# Never filler, whatever the words: digits, code, paths, identifiers, markers of a fix or a rule.
_KEEP_SIGNAL = re.compile(r"[0-9`/\\_=@#$%*]|\w\.\w")
_DURABLE_MARKER = re.compile(
    r"root cause|\bfix|\bwork(?:s|ed|ing)?\b|remember|from now on|\balways\b|\bnever\b|\bdecid|\bowner|"
    r"\bowns\b|\brule\b|根因|原因|修|好了|果然|以后|记住|负责|决定|规定|必须|不要|别|禁止|一律|成功|正常|搞定|解决",
    re.IGNORECASE,
)
_QUESTION_END = re.compile(r"[?？吗呢]\s*$")

# A fenced block longer than head + tail + _MIN_ELIDED lines keeps its head, its tail and the middle
# lines that contain an anchor: an identifier the chat's prose mentions, or one that recurs in another
# message (what the discussion was about). Each run of other lines becomes one "…(N lines)" marker.
_BLOCK_HEAD = 6
_BLOCK_TAIL = 3
_MIN_ELIDED = 2
_MAX_ANCHORED_LINES = 10
# Inside a pasted block: a run of spaces that aligns columns, and a line prefix (timestamp, host,
# process) that repeats the line above. Both are layout, not content.
_ALIGNMENT_RUN = re.compile(r"(?<=\S) {3,}(?=\S)")
_DITTO = "〃 "
_MIN_DITTO_PREFIX = 16
_MIN_DITTO_WORDS = 3
# A leading acknowledgement ("好。", "OK, ") in front of the real content.
_LEADING_FILLER = re.compile(r"^(?P<ack>[^\n]{1,12}?)[，,。.!！~～]+\s*(?=\S)")


def is_filler(text: str, *, answers_question: bool = False) -> bool:
    """True for a message that is only an acknowledgement, thanks, greeting, laugh or "one sec".

    ``answers_question``: the message directly follows the other side's question, where even "ok" or
    "好" is an answer (an approval) and is kept.
    """
    stripped = text.strip()
    if answers_question or not stripped or len(stripped) > _FILLER_MAX_CHARS:
        return False
    if _KEEP_SIGNAL.search(stripped) or _DURABLE_MARKER.search(stripped):
        return False
    if any(char in _OUTCOME_SYMBOLS for char in stripped):
        return False
    words = _strip_symbols(unicodedata.normalize("NFKC", stripped).casefold())
    return not words or _FILLER_MESSAGE.fullmatch(words) is not None


def strip_leading_filler(text: str) -> str:
    """``text`` without an acknowledgement sentence in front of its content ("好。以后…" → "以后…")."""
    match = _LEADING_FILLER.match(text)
    if match is None or not is_filler(match.group("ack")):
        return text
    return text[match.end() :]


def _split_prose_and_blocks(text: str) -> tuple[list[str], list[str]]:
    """The lines of ``text`` outside and inside fenced blocks."""
    prose: list[str] = []
    code: list[str] = []
    in_block = False
    for line in text.split("\n"):
        if _FENCE.match(line.strip()):
            in_block = not in_block
        else:
            (code if in_block else prose).append(line)
    return prose, code


def block_anchors(texts: Sequence[str]) -> set[str]:
    """Identifiers (lower-cased) the chat mentions in prose, or in more than one message."""
    anchors: set[str] = set()
    seen_once: set[str] = set()
    for text in texts:
        prose, code = _split_prose_and_blocks(text)
        anchors |= identifier_tokens(prose)
        in_message = identifier_tokens(prose) | identifier_tokens(code)
        anchors |= in_message & seen_once
        seen_once |= in_message
    return anchors


def _fold_repeated_lines(block: list[str]) -> list[str]:
    """A line repeated right after itself is written once, with the count."""
    out: list[str] = []
    repeats = 0
    for line in [*block, None]:
        if out and line is not None and line == out[-1] and line.strip():
            repeats += 1
            continue
        if repeats:
            out.append(f"…(the line above {repeats} more times)")
            repeats = 0
        if line is not None:
            out.append(line)
    return out


def _ditto_prefix(line: str, previous: str) -> int:
    """The length of the space-ended prefix ``line`` repeats from ``previous`` (0 when too short).

    Indentation alone is never a prefix: the prefix must carry words (a timestamp, a host).
    """
    length = 0
    for index, (a, b) in enumerate(zip(line, previous, strict=False)):
        if a != b:
            break
        if a == " ":
            length = index + 1
    prefix = line[:length]
    if length < _MIN_DITTO_PREFIX or length == len(line) or len(prefix.split()) < _MIN_DITTO_WORDS:
        return 0
    return length


def _squeeze_layout(block: list[str]) -> list[str]:
    """Column-aligning space runs become two spaces; a prefix repeating the line above becomes 〃."""
    out: list[str] = []
    previous = ""
    for line in block:
        squeezed = _ALIGNMENT_RUN.sub("  ", line)
        shared = _ditto_prefix(squeezed, previous)
        previous = squeezed
        out.append(_DITTO + squeezed[shared:] if shared else squeezed)
    return out


def shorten_block(block: list[str], anchors: set[str]) -> list[str]:
    """The lines of one fenced block to send: head, tail, anchored lines; elided runs marked."""
    block = _fold_repeated_lines(block)
    if len(block) > _BLOCK_HEAD + _BLOCK_TAIL + _MIN_ELIDED:
        block = _elide_middle(block, anchors)
    return _squeeze_layout(block)


def _elide_middle(block: list[str], anchors: set[str]) -> list[str]:
    middle = range(_BLOCK_HEAD, len(block) - _BLOCK_TAIL)
    anchored = [i for i in middle if any(anchor in block[i].lower() for anchor in anchors)]
    keep = {
        *range(_BLOCK_HEAD),
        *range(len(block) - _BLOCK_TAIL, len(block)),
        *anchored[:_MAX_ANCHORED_LINES],
    }
    if len(block) - len(keep) < _MIN_ELIDED:
        return block
    out: list[str] = []
    elided = 0
    for index, line in enumerate(block):
        if index in keep:
            if elided:
                out.append(f"…({elided} lines)")
                elided = 0
            out.append(line)
        else:
            elided += 1
    return out


def _shorten_blocks(text: str, anchors: set[str]) -> str:
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
            out.extend(shorten_block(block, anchors))
            out.append(line)
            block = None
        else:
            block.append(line)
    if block is not None:  # an unclosed fence: keep it as it is
        out.extend(block)
    return "\n".join(out)


def _message_text(text: str, anchors: set[str]) -> str:
    text = "\n".join(line.rstrip() for line in text.strip().split("\n"))
    # One newline separates as well as a blank line does.
    return _BLANK_LINES.sub("\n", _shorten_blocks(text, anchors))


@dataclass(frozen=True)
class RenderedChat:
    """The rendered ``U:``/``A:`` lines (one per message), their roles, and the filler left out.

    Not :class:`savenow.sessions.store.Transcript` (what a store read): this is the prompt's view."""

    lines: list[str]
    roles: list[str]
    filler_dropped: int


_REPEAT_MIN_CHARS = 80


def render_transcript(messages: Sequence[ChatMessage]) -> RenderedChat:
    """One ``U: …`` / ``A: …`` line per message, trimmed (see the notes above)."""
    anchors = block_anchors([message.text for message in messages])
    seen: set[str] = set()
    lines: list[str] = []
    roles: list[str] = []
    filler = 0
    previous: ChatMessage | None = None
    for message in messages:
        answers_question = (
            previous is not None
            and previous.role != message.role
            and _QUESTION_END.search(previous.text) is not None
        )
        previous = message
        if is_filler(message.text, answers_question=answers_question):
            filler += 1
            continue
        text = _message_text(message.text, anchors)
        if not answers_question:
            text = strip_leading_filler(text)
        if not text:
            continue
        if len(text) >= _REPEAT_MIN_CHARS and text in seen:
            text = "(the same text as an earlier message)"
        seen.add(text)
        mark = _ROLE_MARK.get(message.role, message.role)
        lines.append(f"{mark}: {text}")
        roles.append(mark)
    return RenderedChat(lines=lines, roles=roles, filler_dropped=filler)


def join_transcript(lines: Sequence[str], roles: Sequence[str]) -> str:
    """The lines, one per message; the role mark only where the speaker changes."""
    out: list[str] = []
    for index, (line, role) in enumerate(zip(lines, roles, strict=True)):
        same_speaker = index > 0 and roles[index - 1] == role
        out.append(line[len(role) + 2 :] if same_speaker and line.startswith(f"{role}: ") else line)
    return "\n".join(out)


def render_transcript_lines(messages: Sequence[ChatMessage]) -> list[str]:
    """The ``U: …`` / ``A: …`` lines of :func:`render_transcript`."""
    return render_transcript(messages).lines


def render_section(section: MemorySection) -> str:
    return "\n".join([f"## {section.title}", *(f"- {bullet}" for bullet in section.bullets)])


# -- memory sections ----------------------------------------------------------------------------------
#
# A section that shares nothing with the chat can only ever be a merge target by its topic, and its
# heading says that: its bullets are not sent. A section the chat touches is sent whole, because
# skip ("already there") and merge need its bullets.

_LATIN_WORD = re.compile(r"[A-Za-z0-9][\w./\-:@]*\w|[A-Za-z0-9]")
_IDENTIFIER_CHARS = re.compile(r"[0-9_./\-:@]")
# A section is unrelated when none of its identifiers occurs in the chat and at most one of its
# keywords does, or under this share of them.
_UNRELATED_SHARE = 0.15
_MIN_KEYWORDS_TO_COLLAPSE = 3
_ELIDED_SECTION = " …"


def _keywords(text: str) -> set[str]:
    """Identifiers, longer words and Chinese character pairs of ``text`` (lower-cased)."""
    words: set[str] = set()
    for word in _LATIN_WORD.findall(text):
        word = word.lower()
        if (len(word) >= 4 and word not in EN_KEYWORD_STOPWORDS) or (
            len(word) >= 3 and _IDENTIFIER_CHARS.search(word)
        ):
            words.add(word)
    words.update(han_ngrams(text, 2))
    return words


def is_unrelated(section: MemorySection, conversation_lower: str) -> bool:
    """True when the chat shares no identifier and (almost) no keyword with the section."""
    keywords = _keywords(" ".join([section.title, *section.bullets]))
    if len(keywords) < _MIN_KEYWORDS_TO_COLLAPSE:
        return False
    shared = {word for word in keywords if word in conversation_lower}
    if any(_IDENTIFIER_CHARS.search(word) for word in shared):
        return False
    return len(shared) <= 1 or len(shared) < _UNRELATED_SHARE * len(keywords)


def _render_for_chat(section: MemorySection, conversation_lower: str) -> str:
    if section.bullets and is_unrelated(section, conversation_lower):
        return f"## {section.title}{_ELIDED_SECTION}"
    return render_section(section)


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


def _memory_block(sent: Sequence[MemorySection], total: int, conversation_lower: str = "") -> str:
    if total == 0:
        return "Today's memory file is empty: every note is an add."
    header = f"Today's memory file ({total} section{'s' if total != 1 else ''}"
    if len(sent) < total:
        header += f"; the {len(sent)} most related to this chat are shown"
    header += "); its headings are the merge/skip targets"
    rendered = [_render_for_chat(s, conversation_lower) for s in sent]
    if any(text.endswith(_ELIDED_SECTION) for text in rendered):
        header += f' ("{_ELIDED_SECTION.strip()}": bullets unrelated to this chat, not shown)'
    return "\n".join([header + ":", *rendered])


def _conversation_header(dropped: int) -> str:
    header = "Chat (oldest first; U = user, A = assistant"
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
    rendered = render_transcript(messages)
    transcript = rendered.lines
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
    conversation_lower = "\n".join(message.text for message in messages).lower()
    memory_text = _memory_block(sent_sections, len(sections), conversation_lower)
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
    kept_roles = rendered.roles[dropped:]
    if len(kept) == 1 and dropped == len(transcript) - 1 and not kept[0].startswith(f"{kept_roles[0]}: "):
        kept_roles = [""]  # a clipped message has lost its role mark with its start

    user_content = "\n\n".join(
        [memory_text, _conversation_header(dropped), join_transcript(kept, kept_roles)]
    )
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
        messages_filler=rendered.filler_dropped,
    )
