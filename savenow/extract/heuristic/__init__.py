"""The offline extractor: durable notes from a chat without a model (DESIGN §7).

For users without an API key this *is* the product, so it aims for few,
precise notes rather than many. The pipeline, in order:

1. **Statements** — every message is split into sentences (fenced code and
   pasted logs are context, never note text). Each sentence is scored from
   signals (:mod:`.signals`): explicit markers ("for the notes", 记住, 以后,
   root cause / 根因, owns / 负责 …), identifiers, an assistant restating what
   the user said, the user confirming a fix afterwards, a yes to "对吗？".
   Questions, hypotheses that were ruled out, attempts the user reports as
   still failing, proposals the user turned down, chit-chat, status pings and
   one-off plans score nothing.
2. **Notes** — statements are grouped around the strongest ones (shared
   identifiers or near-identical wording), so the same fix said three times
   becomes one note; the best 1–3 sentences of a group are its bullets.
3. **Placement** (:mod:`.placement`) — a note already in today's file becomes
   ``skip``, a note that extends an existing section's topic ``merge``, the
   rest ``add``. The comparer (``savenow.memory.compare.plan``) still has the
   last word.
4. The five most valuable notes are kept (skips only fill free slots).

Deterministic, no I/O, a few milliseconds for 180 messages.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ...models import MAX_ENTRIES, ChatMessage, Entry, ExtractionResult, MemorySection
from ...text.cjk import HAN
from ...text.identifiers import identifiers
from ...text.normalize import compact, compact_similarity
from ...text.stopwords import EN_COMMON_WORDS, EN_NOT_NAMES, EN_SMALL_WORDS
from . import signals
from .machine import is_machine_line, is_machine_text
from .placement import USER_RULE, USER_STANDING, Placement, local_topic, on_topic, place, topic_home
from .signals import LEX
from .titles import TitleContext, note_title

__all__ = ["HeuristicExtractor", "Note", "Statement", "find_notes"]

SEED_MIN = 4.0  # a statement this strong can start a note on its own
MEMBER_MIN = 1.5  # weaker statements may only support a note started by a stronger one
BULLET_RATIO = 0.55  # a supporting sentence becomes a bullet when it scores this share of the seed
MAX_BULLETS = 3
MAX_BULLET_CHARS = 320
SAME_TEXT = 0.5  # similarity above which two sentences say the same thing
FAR_SAME_TEXT = 0.6  # … when they are more than two messages apart and share no identifier
CONFIRM_WINDOW = 10  # messages after a fix in which the user's "works" counts as confirmation
INCIDENT_WINDOW = 6  # messages within which a cause found, confirmed and fixed is one incident
CAUSE_FIX_SAME_TEXT = 0.75  # a cause and its fix share words and identifiers; only near-copies are one bullet


@dataclass
class Statement:
    """One sentence of the chat, with what the signals say about it."""

    message: int  # index of its message
    role: str
    text: str
    bullet: str
    ids: frozenset[str]
    score: float = 0.0
    kinds: set[str] = field(default_factory=set)  # note, future, root_cause, fix, owner, preference
    prior: bool = False  # says it is already saved / agreed before
    restates: bool = False  # its message acknowledges and repeats the user's message before it
    noted: bool = False  # under a note marker ("Rule:", "For the notes:") and not a list item of its own
    machine: bool = False  # a log line, traceback, prompt, command output or bare URL: support, never a seed
    acknowledged: bool = False  # (user) the assistant's next message says it recorded this
    symptom: bool = False  # only reports a problem ("403 on …", "又在重启"): support, never a seed or bullet
    item: int | None = None  # the user's numbered item (message index) this sentence is about, in a dump
    part: int | None = None  # the item number of a numbered list inside one user message it belongs to
    _compact: str | None = field(default=None, repr=False)

    _grams: frozenset[str] | None = field(default=None, repr=False)
    _alike: dict[int, tuple[Statement, float]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def compact(self) -> str:
        if self._compact is None:
            self._compact = compact(self.bullet)
        return self._compact

    @property
    def grams(self) -> frozenset[str]:
        if self._grams is None:
            text = self.compact
            self._grams = frozenset(text[i : i + 2] for i in range(len(text) - 1))
        return self._grams


@dataclass
class Note:
    """A group of statements about one durable fact."""

    seed: Statement
    members: list[Statement] = field(default_factory=list)
    companions: list[Statement] = field(default_factory=list)  # seeds of notes joined to this one

    @property
    def score(self) -> float:
        support = sum(1 for m in self.members if m is not self.seed and m.score >= 2.0)
        roles = {m.role for m in self.members}
        return self.seed.score + 0.5 * min(support, 2) + (0.5 if len(roles) == 2 else 0.0)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset().union(*(m.ids for m in self.members))

    @property
    def kinds(self) -> set[str]:
        return set().union(*(m.kinds for m in self.bullets()))

    def bullets(self) -> list[Statement]:
        incident = self._incident_bullets()
        chosen: list[Statement] = incident or [self._named_lead()]
        for companion in self.companions:
            if len(chosen) < MAX_BULLETS and not any(_same_fact(companion, other) for other in chosen):
                chosen.append(companion)
        if self.companions and not incident:
            chosen.sort(key=lambda m: m.message)  # details read in the order they were handed over
        ranked = sorted(self.members, key=lambda m: (-m.score, m.message))
        for member in ranked:
            if len(chosen) == MAX_BULLETS:
                break
            if member in chosen or member.machine or member.symptom:
                continue
            if incident and "root_cause" in member.kinds:
                continue  # the earlier "found the cause" is superseded by the confirmed one
            if member.score < self.seed.score * BULLET_RATIO:
                continue
            if any(_same_fact(member, other) for other in chosen):
                continue
            chosen.append(member)
        return chosen

    def _named_lead(self) -> Statement:
        """An owner note must say who: "以后 hm-common 的问题都找他" gives way to the acknowledgement
        "`hm-common` 由 Wen Jie 维护" when only that one names the person."""
        seed = self.seed
        if not ("owner" in seed.kinds or _PERSON_PRONOUN.search(seed.bullet)) or _PERSON.search(seed.bullet):
            return seed
        named = [
            m
            for m in [*self.members, *self.companions]
            if _PERSON.search(m.bullet)
            and not (m.machine or m.symptom)
            and m.score >= seed.score * BULLET_RATIO
            and (m.kinds & _STANDING or m.ids & seed.ids)
        ]
        return max(named, key=lambda m: (m.score, m.message)) if named else seed

    def _incident_bullets(self) -> list[Statement]:
        """An incident note leads with its root cause and its fix: the cause that names the
        decisive identifier (not the earlier "found the cause" without one), and the fix that
        carries the command or config key."""
        if not (self.seed.kinds & _INCIDENT) or self.seed.kinds & _STANDING or self.seed.kinds >= _INCIDENT:
            return []  # not an incident, or its lead sentence already says both cause and fix
        usable = [m for m in self.members if not (m.machine or m.symptom) and m.score > 0]
        causes = [m for m in usable if "root_cause" in m.kinds and "fix" not in m.kinds]
        fixes = [m for m in usable if "fix" in m.kinds and m.kinds & _STANDING == set()]
        if not causes or not fixes:
            return []
        fix = max(
            fixes,
            key=lambda m: (
                bool(LEX.PERMANENT.search(m.text)),
                "`" in m.text,
                bool(m.ids),
                m.score,
                m.message,
            ),
        )
        cause = max(causes, key=lambda m: (bool(m.ids - fix.ids), bool(m.ids), m.score, m.message))
        return [cause] if cause is fix else [cause, fix]


class HeuristicExtractor:
    """Rule-based extractor: deterministic, offline, no model downloads."""

    name = "heuristic"

    def extract(self, messages: Sequence[ChatMessage], sections: Sequence[MemorySection]) -> ExtractionResult:
        with signals.chat_memo():  # what the lexicons remember is this chat's, in this thread
            return self._extract(messages, sections)

    def _extract(
        self, messages: Sequence[ChatMessage], sections: Sequence[MemorySection]
    ) -> ExtractionResult:
        language = signals.conversation_language(m.text for m in messages if m.role == "user")
        scored = statements(messages)
        notes = find_notes(messages, scored)
        texts = [m.text or "" for m in messages]
        home = topic_home(texts, sections)
        placed = [
            (
                note,
                place(
                    note.bullets(),
                    note.ids,
                    _placement_kinds(note, texts, home),
                    note.seed.prior,
                    sections,
                    home,
                    local_topic(texts, (m.message for m in note.members), sections),
                ),
            )
            for note in notes
        ]
        placed_notes = [(n, p) for n, p in placed if p is not None]
        kept = [(n, p) for n, p in placed_notes if p.action != "skip"][:MAX_ENTRIES]
        skips = _unique_skips([(n, p) for n, p in placed_notes if p.action == "skip"])
        in_notes = {id(m) for n, _ in kept for m in n.members}
        skips += restated_skips(
            [s for s in scored if id(s) not in in_notes], sections, {p.matched_bullet for _, p in skips}
        )
        kept += skips[: MAX_ENTRIES - len(kept)]
        titles = TitleContext([m.text or "" for m in messages if m.role == "user"], texts)
        entries = [
            _entry(note, placement, language, index, titles) for index, (note, placement) in enumerate(kept)
        ]
        return ExtractionResult(entries=entries)


# --------------------------------------------------------------------------- statements


@dataclass
class _Message:
    role: str
    text: str
    items: list[tuple[str | None, str]]  # (list label, sentence)
    is_paste: bool
    prose: str  # the text without fenced code
    ids: frozenset[str]  # identifiers of the prose
    confirms: bool  # says it works now
    rejects: bool  # says it still fails
    chosen: str | None = None  # the list label the user picked from this message's options
    recalled: bool = False  # a later message says this was saved / agreed before
    accepted: bool = False  # the user's reply agrees to what this (assistant) message proposes
    handed: bool = False  # (user) one numbered item of a dump sent one message at a time
    listed: bool = False  # (user) a numbered list of facts in this one message that the assistant took in


def _messages(messages: Sequence[ChatMessage]) -> list[_Message]:
    result = []
    for message in messages:
        text = message.text or ""
        items = signals.sentence_items(text)
        prose_chars = sum(len(sentence) for _, sentence in items)
        prose = signals.prose(text)
        is_paste = (bool(signals.code_blocks(text)) and prose_chars < 40) or is_machine_text(prose)
        rejects = bool(LEX.REJECT.search(prose))
        says_done = bool(LEX.CONFIRM.search(prose) or LEX.APPLIED.search(prose))
        confirms = not rejects and says_done and not signals.is_question(prose.strip())
        ids = frozenset(identifiers(prose))
        result.append(_Message(message.role, text, items, is_paste, prose, ids, confirms, rejects))
        _whole_rule(result[-1])
    _mark_choices(result)
    _mark_recalled(result)
    _mark_accepted(result)
    _mark_listed(result)
    return result


LIST_MIN_ITEMS = 3  # "1. … 2. … 3. …" in one message: fewer is an aside, not a list of facts


def _list_labels(message: _Message) -> list[int]:
    return [int(label) for label, _ in message.items if label and label.isdigit()]


def _mark_listed(chat: list[_Message]) -> None:
    """ "here's the list: 1. hostname mm-build, static IP … 2. Xcode lives at … 3. …" on separate lines
    of one user message, answered by an acknowledgement ("Got it.", "收到"): each item is a fact handed
    over. Most items must hold an identifier (a list of chores or wishes is not a handover)."""
    for index, message in enumerate(chat[:-1]):
        if message.role != "user" or message.is_paste:
            continue
        labels = _list_labels(message)
        if len(labels) < LIST_MIN_ITEMS or labels != list(range(labels[0], labels[0] + len(labels))):
            continue
        answer = chat[index + 1]
        if (
            answer.role != "assistant"
            or answer.is_paste
            or not _ACK_START.search(answer.prose.strip()[:_ACK_HEAD_CHARS])
        ):
            continue
        with_ids = sum(
            1 for label, sentence in message.items if label and label.isdigit() and identifiers(sentence)
        )
        if 2 * with_ids >= len(labels):
            message.listed = True


RULE_MESSAGE_CHARS = 200  # a user's rule message this short is one instruction


def _whole_rule(message: _Message) -> None:
    """ "from now on every compose file gets the logging block. use an x-logging anchor for it.":
    a short rule message is one instruction, so the sentences after its rule marker stay with it."""
    if message.role != "user" or message.is_paste or len(message.prose.strip()) > RULE_MESSAGE_CHARS:
        return
    items = message.items
    start = next(
        (i for i, (label, text) in enumerate(items) if label is None and LEX.FUTURE.search(text)), None
    )
    if start is None or signals.is_question(items[start][1]):
        return
    end = start + 1
    while end < len(items):
        label, text = items[end]
        if label or signals.is_question(text) or LEX.CHITCHAT.search(text) or LEX.DEFERRAL.search(text):
            break
        end += 1
    if end - start > 1:
        joined = items[start][1]
        for _, text in items[start + 1 : end]:
            joined += text if joined.endswith(("。", "！", "；")) else " " + text
        message.items = [*items[:start], (None, joined), *items[end:]]


def _mark_accepted(chat: list[_Message]) -> None:
    """ "agree" / "就这么办" / "ok do it": the assistant message just before holds the decision."""
    for index, message in enumerate(chat):
        if message.role != "user" or message.is_paste or not LEX.AGREE.search(message.prose):
            continue
        for earlier in range(index - 1, max(index - 3, -1), -1):
            if chat[earlier].role == "assistant" and not chat[earlier].is_paste:
                chat[earlier].accepted = True
                after = chat[index + 1] if index + 1 < len(chat) else None
                if after is not None and after.role == "assistant" and after.ids & chat[earlier].ids:
                    after.accepted = True  # "Plan: …" — the assistant writes down what was agreed
                break


def _mark_choices(chat: list[_Message]) -> None:
    """ "option 1" / "那就改 2" after a numbered list: remember which item the user picked."""
    for index, message in enumerate(chat):
        if message.role != "user" or message.is_paste:
            continue
        match = LEX.CHOICE.search(message.prose)
        if not match:
            continue
        label = (match.group(1) or match.group(2)).casefold()
        for earlier in range(index - 1, max(index - 4, -1), -1):
            offered = {item_label for item_label, _ in chat[earlier].items if item_label}
            if chat[earlier].role == "assistant" and offered:
                if label in offered:
                    chat[earlier].chosen = label
                break


def _user_reply(chat: list[_Message], index: int) -> _Message | None:
    for later in chat[index + 1 : index + 3]:
        if later.role == "user" and not later.is_paste:
            return later
    return None


def _confirmed_after(chat: list[_Message], index: int) -> bool:
    """A user message soon after says it works (and not that it still fails)."""
    for later in chat[index + 1 : index + 1 + CONFIRM_WINDOW]:
        if later.role != "user" or later.is_paste:
            continue
        if later.rejects:
            return False
        if later.confirms:
            return True
    return False


def _confirmed_before(chat: list[_Message], index: int) -> bool:
    """The assistant sums up right after the user said it works."""
    for earlier in range(index - 1, max(index - 3, -1), -1):
        if chat[earlier].role == "assistant":
            return False
        if chat[earlier].confirms:
            return True
    return False


def _rejected_after(chat: list[_Message], index: int) -> bool:
    """The user's next words report the suggestion failed or turn it down."""
    reply = _user_reply(chat, index)
    if reply is None:
        return False
    if reply.rejects:
        return True
    # "No" after a message that ends in a question answers the question, not the statements before it.
    asked = signals.is_question(chat[index].prose.strip())
    return not asked and bool(_TURNED_DOWN.search(reply.prose))


_TURNED_DOWN = re.compile(
    r"^\s*(?:nah|no(?:pe)?\b|not now|forget it|never ?mind|算了|不用|先不|先这样|不了|再说)", re.IGNORECASE
)
_ACK_START = re.compile(
    r"^\s*(?:got it|noted|understood|ok(?:ay)?[,.:]|sure[,.:]|记下了|记住了|明白|收到|好[，,。.]|好的|了解)",
    re.IGNORECASE,
)
_NAME = re.compile(r"(?<![A-Za-z])[A-Z][a-z]{2,}(?![A-Za-z])|[" + HAN + r"]{2,3}(?=负责)")
_DEFINITION = re.compile(
    r"(?<![A-Za-z])(?:is|are|runs?|lives?|sits?|uses?|goes|connects? to|on|in|at)(?![A-Za-z])|在|是|用|放|走",
    re.IGNORECASE,
)
_CARRIED = (
    "note",
    "root_cause",
    "fix",
    "change",
)  # a marker sentence lends its kind to the rest of its message
MARKER_ONLY_CHARS = 24
_LONG_ID = re.compile(r"-?\d{6,}")  # chat ids, account ids: worth keeping on their own


@dataclass
class _Context:
    """What the surrounding conversation says about one message."""

    restates: bool
    confirmed: bool
    rejected: bool
    reply: _Message | None
    has_name: bool
    name: str | None
    echoed: frozenset[str]  # identifiers the next assistant message repeats (for user messages)
    chosen: str | None
    asked_to_note: bool  # the user just asked to remember something ("记一下", "remember this")
    explicit_ack: bool = False  # "Noted: …" / "记下了：…" right after a user statement
    said_words: frozenset[str] = frozenset()  # (explicit acks) the words of the user message acknowledged
    applied: bool = False  # the user's next message says they did it and it works ("both set to 1380")
    accepted: bool = False  # the user agreed to this message's proposal
    acknowledged: bool = False  # (user) the assistant's next message says it recorded this message
    ack_words: frozenset[str] | None = None  # … the words of that acknowledgement (None: a bare "记下了")
    confirmed_fact: bool = False  # (assistant) the user's reply says yes and repeats one of its values
    handed: bool = False  # (user) a numbered item of a dump: a fact handed over
    corrected: bool = False  # (user) corrects the assistant, who admits the mistake next


def _single_name(text: str) -> str | None:
    """The one capitalized name a message mentions (not at a sentence start), if exactly one."""
    names = {m.group(0) for m in _NAME.finditer(text) if not m.group(0).isupper()}
    names -= EN_NOT_NAMES
    return next(iter(names)) if len(names) == 1 else None


ASK_NOTE_CHARS = 30  # "ok 记一下" / "remember that" — a reply this short only asks to keep what was said


def _asked_to_note(chat: list[_Message], index: int) -> bool:
    """The user asks to remember something just before this message, or asks to remember this message
    itself in a short reply right after it ("以后改了密码记得重新生成 AuthID" → "ok 记一下")."""
    previous = chat[index - 1] if index > 0 else None
    if previous is not None and previous.role == "user" and LEX.NOTE.search(previous.prose):
        return True
    after = chat[index + 1] if index + 1 < len(chat) else None
    return (
        after is not None
        and after.role == "user"
        and len(after.prose.strip()) <= ASK_NOTE_CHARS
        and bool(LEX.NOTE.search(after.prose))
        and not after.ids
    )


def _applied_next(chat: list[_Message], index: int) -> bool:
    """The user's very next message reports this instruction applied and working, echoing its values."""
    reply = _user_reply(chat, index)
    return reply is not None and reply.confirms and bool(reply.ids & chat[index].ids)


def _explicit_ack(chat: list[_Message], index: int) -> bool:
    """ "Noted: aisle for you" answering a user statement (not a question or a request)."""
    if index == 0:
        return False
    said = chat[index - 1]
    text = said.prose.strip()
    if said.role != "user" or said.is_paste or signals.is_question(text) or len(text) < 12:
        return False
    if LEX.EXPLICIT_ACK.search(chat[index].prose):
        return True
    return _restated_rule(said, chat[index])


RESTATED_TERMS = 3  # content terms an acknowledgement must repeat to restate the user's rule
ECHO_SHARE = 0.5  # … and the share of a plain echo's own terms that must be the user's


def _echoes_item(chat: list[_Message], index: int) -> bool:
    """ "1. coffee. … an oat flat white, extra shot, from Ferro" answered by "Oat flat white, extra
    shot, no sugar, from Ferro on Camden Rd.": a user handing over facts as numbered items, each
    confirmed back by a plain restatement (no "Noted:"), hands over each item like "Noted: …" would."""
    if index == 0 or chat[index].role != "assistant" or chat[index].is_paste or not chat[index].items:
        return False
    said = chat[index - 1]
    if said.role != "user" or said.is_paste or not said.items or said.items[0][0] is None:
        return False  # only a numbered (or lettered) item of the user's
    first = chat[index].items[0][1]
    if signals.is_question(first) or signals.is_question(said.prose.strip()):
        return False
    words = _echo_terms(first)
    shared = words & _echo_terms(said.prose)
    return len(shared) >= RESTATED_TERMS and len(shared) >= ECHO_SHARE * len(words)


def _echo_terms(text: str) -> frozenset[str]:
    """Words, numbers and times ("18", "30") and Chinese bigrams, without a sentence's final dot."""
    return frozenset(term.rstrip(".") for term in _fact_terms(text)) - {""}


ITEM_FOLLOW_UP = 3  # messages after a numbered item that are still about it (a question and its answer)


def _numbered_label(message: _Message) -> int | None:
    if message.role != "user" or message.is_paste or not message.items:
        return None
    label = message.items[0][0]
    return int(label) if label and label.isdigit() else None


def _dump_items(chat: list[_Message]) -> set[int]:
    """ "1. bills …" … "2. Noor's swimming …" … "3. meds …": the user sends numbered items one
    message at a time (each number following the one before). Each is a fact handed over, whatever the
    assistant answers to it (a follow-up question, "Noted."), unless the user calls it minor."""
    labels = [(index, _numbered_label(message)) for index, message in enumerate(chat)]
    numbered = [(index, label) for index, label in labels if label is not None]
    found: set[int] = set()
    for (first, one), (second, two) in itertools.pairwise(numbered):
        if two == one + 1:
            found |= {first, second}
    return {
        index
        for index in found
        if not LEX.MINOR.search(chat[index].prose) and not signals.is_question(chat[index].prose.strip())
    }


def _item_of_messages(chat: list[_Message]) -> dict[int, int]:
    """Each message of a numbered dump → the user's item message it is about: the item, its echo
    and up to three messages after it, until the user's next item."""
    owner: dict[int, int] = {}
    starts = {index - 1 for index in range(1, len(chat)) if _echoes_item(chat, index)}
    for item in sorted(starts | _dump_items(chat)):
        index = item + 1
        for later in range(item, min(item + 1 + ITEM_FOLLOW_UP, len(chat))):
            message = chat[later]
            if later > index and message.role == "user" and message.items and message.items[0][0]:
                break  # the next item starts
            owner[later] = item
    return owner


def _restated_rule(said: _Message, answer: _Message) -> bool:
    """ "明白，钢琴课是例外：提前两小时提醒…" / "OK, build alerts go to the team channel": an
    acknowledgement without a colon that repeats a user's preference or routing value is a record too."""
    if not _ACK_START.search(answer.prose) or not LEX.ROUTING.search(said.prose):
        return False
    if LEX.REQUEST.search(said.prose.strip()) and not LEX.FUTURE.search(said.prose):
        return False
    return len(_text_words(said.prose) & _text_words(answer.prose)) >= RESTATED_TERMS


_ACK_HEAD_CHARS = 40  # a record acknowledgement says so at its start ("好的，记下了…", "Noted, …")


def _acknowledged(chat: list[_Message], index: int) -> bool:
    """The assistant answers this user statement by saying it recorded it ("好的，记下了这条规则")."""
    message = chat[index]
    if message.role != "user" or message.is_paste or _asks(message):
        return False
    if index + 1 >= len(chat) or chat[index + 1].role != "assistant" or chat[index + 1].is_paste:
        return False
    answer = chat[index + 1].prose.strip()
    if LEX.RECORDED.search(answer[:_ACK_HEAD_CHARS]) or LEX.EXPLICIT_ACK.search(answer):
        return True
    if len(answer) <= BARE_RULE_ACK_CHARS and _ACK_START.search(answer) and LEX.FUTURE.search(message.prose):
        return True  # "never put secrets in cron files" — "Understood.": a rule taken on board
    return bool(_ACK_START.search(answer)) and _echoes_user(chat, index + 1)  # "好，Metabase 归周敏负责"


_BARE_ACK_CHARS = 30
BARE_RULE_ACK_CHARS = 16  # "Understood." / "OK." — takes a rule on board without restating it
TAG_QUESTION_CHARS = 8  # "ok?", "right?", "好吗？": a tag on a statement, not a question


def _asks(message: _Message) -> bool:
    """A question — but a statement ending in a short tag ("…, for any script. ok?") is still a statement."""
    if not signals.is_question(message.prose.strip()):
        return False
    sentences = [sentence for _, sentence in message.items]
    if len(sentences) < 2 or len(sentences[-1].strip()) > TAG_QUESTION_CHARS:
        return True
    return any(signals.is_question(sentence) for sentence in sentences[:-1])


def _ack_words(answer: str) -> frozenset[str] | None:
    """What a record acknowledgement repeats; None when it repeats nothing ("好的，记下了这条规则。")."""
    if len(answer.strip()) <= _BARE_ACK_CHARS and not identifiers(answer):
        return None
    return _text_words(answer)


def _text_words(text: str) -> frozenset[str]:
    return (
        frozenset(w.casefold() for w in _WORD.findall(text)) - EN_COMMON_WORDS
        | identifiers(text)
        | _cjk_bigrams(text)
    )


def _deferred_later(chat: list[_Message], index: int, ids: frozenset[str]) -> bool:
    """The user later puts this proposal off ("statement_timeout 让她定吧，我下午跟她聊"): not decided yet."""
    if not ids:
        return False
    for later in chat[index + 1 : index + 1 + CONFIRM_WINDOW]:
        if later.role != "user" or later.is_paste or later.confirms or not later.ids & ids:
            continue
        if LEX.DEFERRAL.search(later.prose) and not LEX.FUTURE.search(later.prose):
            return True
    return False


# "不对不对, …" / "No, actually …": the user corrects what the assistant just said …
_CORRECTION_LEAD = re.compile(
    r"^\s*(?:(?:不对|不是的?|错了)(?:不对|错了)?|(?:no+|nope|actually|wrong|not quite)(?![A-Za-z]))[\s,，.。!！:：]+",
    re.IGNORECASE,
)
# … and the assistant admits it: "抱歉，刚才算错了" / "Sorry, my mistake" / "You're right".
_ADMITS = re.compile(
    r"^\s*(?:抱歉|对不起|不好意思|你说得对|说得对|(?:sorry|apologies|my (?:mistake|bad)|you're right|you are right)(?![A-Za-z]))"
    r"|(?:我|刚才)[^。.!！\n]{0,12}(?:算错|搞错|说错|记错|弄错)|(?<![A-Za-z])I (?:was wrong|got (?:that|it) wrong|miscalculated)",
    re.IGNORECASE,
)
CORRECTED_BONUS = 4.0  # the user's corrected value, accepted by the assistant: a fact it now holds
_ADMIT_HEAD_CHARS = 40


def _correction_accepted(chat: list[_Message], index: int) -> bool:
    """The user corrects the assistant ("不对, X 说我们用的是 0W-20 …") and the assistant's next message
    admits the mistake ("抱歉，刚才算错了。按 0W-20 …"): the corrected statement is a fact handed over."""
    message = chat[index]
    if message.role != "user" or message.is_paste or not _CORRECTION_LEAD.search(message.prose):
        return False
    if index + 1 >= len(chat) or chat[index + 1].role != "assistant" or chat[index + 1].is_paste:
        return False
    return bool(_ADMITS.search(chat[index + 1].prose.strip()[:_ADMIT_HEAD_CHARS]))


def _confirmed_fact(chat: list[_Message], index: int) -> bool:
    """The user's next message agrees ("Right, 8443 for staging") and repeats one of this message's values."""
    reply = _user_reply(chat, index)
    if reply is None or chat[index].role != "assistant" or chat[index + 1] is not reply:
        return False
    return bool(LEX.YES.search(reply.prose)) and bool(reply.ids & chat[index].ids) and not reply.rejects


def _echoed_ids(chat: list[_Message], index: int) -> frozenset[str]:
    if chat[index].role != "user" or index + 1 >= len(chat) or chat[index + 1].role != "assistant":
        return frozenset()
    return chat[index].ids & chat[index + 1].ids


def _echoes_user(chat: list[_Message], index: int) -> bool:
    """The assistant's message repeats identifiers or wording of the user's message before it."""
    if index == 0 or chat[index - 1].role != "user":
        return False
    said, answer = chat[index - 1], chat[index]
    return bool(said.ids & answer.ids) or signals.alike(said.prose, answer.prose) >= 0.35


def statements(messages: Sequence[ChatMessage]) -> list[Statement]:
    """Every sentence of the chat, scored."""
    chat = _messages(messages)
    result: list[Statement] = []
    items = _item_of_messages(chat)
    for index in _dump_items(chat):
        # an item the assistant restates is handed over by that restatement already
        chat[index].handed = index + 1 >= len(chat) or not _echoes_item(chat, index + 1)
    for index, message in enumerate(chat):
        if message.is_paste:
            continue
        found = _message_statements(chat, index)
        for statement in found:
            statement.item = items.get(index)
        result.extend(found)
    _mark_applied_fixes(chat, result)
    _resolve_this_way(chat, result)
    _mark_chosen_options(chat, result)
    return result


CHOICE_WINDOW = 6  # messages back from the user's pick in which the proposal and the alternatives are
CHOICE_MAX_CHARS = 60
CHOSEN_BONUS = 4.0
ACCEPTED_BONUS = 3.0  # a proposal with identifiers the user agreed to ("yes do that")


def _mark_chosen_options(chat: list[_Message], scored: list[Statement]) -> None:
    """ "Better option: DNS-01 with acme.sh …" — "what about certbot?" — "same problem" — "ok acme.sh
    then": the proposal the user picked by name is the decision; what the assistant said about the
    alternatives the user asked about and then passed over is not noted."""
    for index, message in enumerate(chat):
        text = message.prose.strip()
        if message.role != "user" or message.is_paste or len(text) > CHOICE_MAX_CHARS:
            continue
        match = LEX.NAMED_CHOICE.search(text)
        if not match or signals.is_question(text):
            continue
        chosen = next(group for group in match.groups() if group).casefold()
        start = max(0, index - CHOICE_WINDOW)
        window = [s for s in scored if start <= s.message < index and s.role == "assistant"]
        proposals = [s for s in window if chosen in s.text.casefold() and not signals.is_question(s.text)]
        if not proposals:
            continue
        passed_over = _alternatives(chat[start:index]) - {chosen}
        for statement in window:
            folded = statement.text.casefold()
            if chosen not in folded and any(term in folded for term in passed_over):
                statement.score = 0.0  # "same problem" about the alternative the user did not take
        proposal = max(proposals, key=lambda s: (bool(s.ids), "`" in s.text, -s.message))
        proposal.kinds.add("decision")
        proposal.symptom = False
        proposal.score = max(proposal.score, 0.0) + CHOSEN_BONUS


def _alternatives(chat: list[_Message]) -> set[str]:
    """The options the user asked about ("what about certbot?", "那 rclone 呢？")."""
    found = set()
    for message in chat:
        if message.role != "user":
            continue
        for match in LEX.ALTERNATIVE.finditer(message.prose):
            found.add(next(group for group in match.groups() if group).casefold())
    return found


APPLIED_FIX_BONUS = 3.0
ADOPTED_BONUS = 3.0
THIS_WAY_TAIL = 8  # characters after "这么写" / "like this" up to which the rule says nothing else  # a user rule that adopts the assistant's proposal "this way"
_THIS_WAY = re.compile(
    r"(?<![A-Za-z])(?:like (?:this|that)|this way|that way|the same way)(?![A-Za-z])|[这那]么[写做办配弄搞来]|[这那]样[写做办配弄搞]|照[这那此]",
    re.IGNORECASE,
)


def _resolve_this_way(chat: list[_Message], scored: list[Statement]) -> None:
    """ "以后所有 repo 的 Dockerfile 都这么写" / "from now on every repo does it like this": a user's rule
    that points at the assistant's proposal just before says what that proposal says — its bullet takes
    the proposal's sentence with the identifiers (`--frozen-lockfile`), so the rule names its values."""
    for statement in scored:
        if statement.role != "user" or "future" not in statement.kinds:
            continue
        pointer = _THIS_WAY.search(statement.text)
        if (
            not pointer
            or len(statement.text) - pointer.end() > THIS_WAY_TAIL
            or signals.is_question(statement.text)
        ):
            continue  # "照这个来：名字统一 …" says its rule itself
        before = [
            s
            for s in scored
            if s.role == "assistant"
            and statement.message - 2 <= s.message < statement.message
            and s.ids - statement.ids
            and not s.machine
            and not signals.is_question(s.text)
        ]
        if not before:
            continue
        proposal = max(before, key=lambda s: (s.message, "`" in s.text, len(s.ids)))
        statement.bullet = _clip(f"{statement.bullet.rstrip('。.')}：{proposal.bullet}")
        # the proposal's subject (its first identifier) is what the rule adopts; the rest is its explanation
        subject = min(proposal.ids - statement.ids, key=lambda i: (proposal.text.find(i) % 10_000, i))
        statement.ids = statement.ids | {subject}
        statement.score += ADOPTED_BONUS


def _mark_applied_fixes(chat: list[_Message], scored: list[Statement]) -> None:
    """A command (inline code) the assistant gives right after the root cause was found, which the
    user then reports working ("跑了，好了", "done, works now"), is the incident's fix — even when
    it reads like a step ("跑 `…`", "Run `…`") and the user's reply repeats none of its values."""
    causes = [s for s in scored if "root_cause" in s.kinds and s.score > 0]
    for statement in scored:
        if statement.role != "assistant" or statement.kinds & (_INCIDENT | _STANDING) or statement.machine:
            continue
        if "`" not in statement.text or signals.is_question(statement.text):
            continue
        if LEX.HEDGE.search(statement.text) or LEX.RULED_OUT.search(statement.text):
            continue
        # Config lines reported applied and working are the fix of an incident with no cause named.
        uncaused_fix = _config_applied(chat, statement) and not _cause_near(causes, statement)
        reply = _user_reply(chat, statement.message)
        if not uncaused_fix and (reply is None or not reply.confirms):
            continue
        if uncaused_fix or any(
            0 <= statement.message - cause.message <= INCIDENT_WINDOW and _shares_subject(cause, statement)
            for cause in causes
        ):
            statement.kinds.add("fix")
            statement.symptom = False  # "… and restart" in a fix is the remedy, not a report
            statement.score += APPLIED_FIX_BONUS


# A config assignment in inline code: `KEY=value`, `- KEY=value`, `key: value`.
_CONFIG_ASSIGNMENT = re.compile(r"`-?\s*[A-Za-z_][\w.\-]*(?:=|:\s+)[^`\s][^`]*`")


def _cause_near(causes: list[Statement], statement: Statement) -> bool:
    """A root cause stated within an incident's reach, before or after: the fix belongs to that incident."""
    return any(abs(statement.message - cause.message) <= INCIDENT_WINDOW for cause in causes)


def _config_applied(chat: list[_Message], statement: Statement) -> bool:
    """The assistant's config lines ("在 compose 里加：" + `KEY=value`) that the user reports applied and, in
    the same or the next message, working ("ok 加了" → "出来了"): that config is the fix, with no cause named."""
    if not statement.text.rstrip().endswith("`") or not _CONFIG_ASSIGNMENT.search(statement.text):
        return False
    replies = [
        m for m in chat[statement.message + 1 : statement.message + 4] if m.role == "user" and not m.is_paste
    ]
    if not replies or any(m.rejects for m in replies):
        return False
    return any(LEX.CONFIRM.search(m.prose) for m in replies[:2])


def _message_statements(chat: list[_Message], index: int) -> list[Statement]:
    message = chat[index]
    whole = message.prose
    assistant = message.role == "assistant"
    context = _Context(
        restates=assistant and bool(_ACK_START.search(whole)) and _echoes_user(chat, index),
        confirmed=assistant and (_confirmed_after(chat, index) or _confirmed_before(chat, index)),
        rejected=assistant and _rejected_after(chat, index),
        reply=_user_reply(chat, index),
        has_name=bool(_NAME.search(whole)),
        name=_single_name(whole),
        echoed=_echoed_ids(chat, index),
        chosen=message.chosen,
        asked_to_note=assistant and _asked_to_note(chat, index),
        explicit_ack=assistant and (_explicit_ack(chat, index) or _echoes_item(chat, index)),
        accepted=assistant and message.accepted,
        applied=assistant and _applied_next(chat, index),
        acknowledged=not assistant and _acknowledged(chat, index),
        confirmed_fact=assistant and _confirmed_fact(chat, index),
        handed=message.handed,
        corrected=not assistant and _correction_accepted(chat, index),
    )
    if context.acknowledged:
        context.ack_words = _ack_words(chat[index + 1].prose)
    context.restates = context.restates or context.explicit_ack
    if context.explicit_ack:
        said = chat[index - 1]
        context.said_words = (
            frozenset(w.casefold() for w in _WORD.findall(said.prose)) | said.ids | _cjk_bigrams(said.prose)
        )
    minor = bool(LEX.MINOR.search(whole))
    carried: set[str] = set()
    result: list[Statement] = []
    part: int | None = None
    part_minor = False
    for label, sentence in message.items:
        if context.corrected and not result:
            sentence = _CORRECTION_LEAD.sub("", sentence, count=1)  # the correction, not a denial
        if message.listed and label and label.isdigit():
            part, part_minor = int(label), bool(LEX.MINOR.search(sentence))
            carried = set()  # each item of the list stands on its own
        elif message.listed and part is not None and LEX.MINOR.search(sentence):
            part_minor = True
        context.handed = message.handed or (message.listed and part is not None and not part_minor)
        statement = Statement(
            message=index,
            role=message.role,
            text=sentence,
            bullet=_clip(signals.clean_bullet(sentence)),
            ids=frozenset(identifiers(sentence)),
            prior=message.recalled or signals.says_known(sentence),
            restates=context.restates,
            machine=is_machine_line(sentence),
            acknowledged=context.acknowledged,
        )
        statement.noted = label is None and (
            "note" in carried or bool(LEX.NOTE.search(sentence)) or context.explicit_ack
        )
        statement.score = _score(statement, context, carried, label)
        if (
            LEX.PRIOR.search(sentence)
            and not statement.ids
            and not statement.kinds
            and len(statement.bullet) < 40
        ):
            statement.score = 0.0  # "it's already in today's notes" points elsewhere; says nothing itself
        if "owner" in statement.kinds:
            statement.bullet = _resolve_pronoun(statement.bullet, context.name)
        if _marker_only(statement) or _is_lead_in(sentence):
            # "There it is." / "修法：" — the marker speaks for the sentences that follow.
            carried |= statement.kinds & set(_CARRIED)
            statement.score = 0.0
        else:
            carried |= statement.kinds & {"note"}
        # An acknowledgement repeating the user's rule records it ("alerts on build failure go to …").
        statement.symptom = _symptom_only(statement) and not context.explicit_ack
        statement.part = part if message.listed else None
        if part_minor if message.listed else minor:
            statement.score *= 0.25
        if assistant and _deferred_later(chat, index, statement.ids):
            statement.score = max(0.0, statement.score - 3.0)
        if result and _bare_confirm_question(sentence) and _said_yes(context.reply):
            result[-1].score += 2.5  # "…，对吗？" "对" — the user confirmed the sentence before
        result.append(statement)
    return result


def _marker_score(statement: Statement, context: _Context, carried: set[str]) -> float:
    """What the explicit markers say; also records the statement's kinds."""
    text = statement.text
    kinds = statement.kinds
    score = 0.0
    if LEX.NOTE.search(text):
        kinds.add("note")
        score += 4.0
    elif "note" in carried or context.asked_to_note:
        score += 2.0
    if LEX.FUTURE.search(text):
        kinds.add("future")
        score += 2.0
    if LEX.OWNER.search(text) and context.has_name:
        kinds.add("owner")
        score += 4.0
    # A preference is the user's (or the user's, repeated back): an assistant's "不用管" is not one.
    if LEX.PREFERENCE.search(text) and "future" in kinds and (statement.role == "user" or context.restates):
        kinds.add("preference")
        score += 2.0
    if LEX.ROOT_CAUSE.search(text) or "root_cause" in carried:
        kinds.add("root_cause")
        score += 1.5 + (1.5 if context.confirmed else 0.0)
    if LEX.FIX.search(text) or "fix" in carried:
        kinds.add("fix")
        score += 1.0 + (1.0 if context.confirmed else 0.0)
    if context.applied and statement.ids and not kinds & {"fix", "root_cause"}:
        kinds.add("fix")  # an instruction the user then applied and saw work is the fix
        score += 2.0
    if (LEX.DONE.search(text) or "change" in carried) and statement.role == "assistant":
        kinds.add("change")
        score += 1.5 + (1.0 if context.confirmed else 0.0)
    return score


_EXPLAINS = frozenset({"note", "future", "root_cause", "fix", "owner", "preference", "change", "decision"})


def _symptom_only(statement: Statement) -> bool:
    """ "403, the URL is like …" / "X keeps crashing" / "又在疯狂重启": the problem, not what was learned.

    A sentence that names a cause, a fix, a rule, an owner or a note marker, or ties the
    problem to a condition ("fails when the disk is full", "一…就…"), says more than the symptom.
    """
    return (
        bool(LEX.SYMPTOM.search(statement.text))
        and not statement.kinds & _EXPLAINS
        and not LEX.CAUSAL.search(statement.text)
    )


def _marker_only(statement: Statement) -> bool:
    """ "There it is." / "That's the problem." / "原因找到了" — a marker with nothing else in it."""
    if statement.ids or len(statement.bullet) > MARKER_ONLY_CHARS:
        return False
    rest = statement.bullet
    for pattern in (LEX.ROOT_CAUSE, LEX.FIX, LEX.NOTE, LEX.DONE, _FILLER):
        rest = pattern.sub("", rest)
    return len(re.sub(r"[\W_]+", "", rest)) <= 5


_FILLER = re.compile(
    r"(?<![A-Za-z])(?:that'?s|this|these|it|is|was|are|the|here|we|i|all|so|yes|yep|ok|both|times?)(?![A-Za-z])"
    r"|就是|这个|那个|这就是|就这|了",
    re.IGNORECASE,
)


def _bare_confirm_question(sentence: str) -> bool:
    return (
        bool(LEX.CONFIRM_QUESTION.search(sentence))
        and len(LEX.CONFIRM_QUESTION.sub("", sentence).strip()) <= 4
    )


def _said_yes(reply: _Message | None) -> bool:
    return reply is not None and bool(LEX.YES.search(reply.prose))


def _is_lead_in(sentence: str) -> bool:
    """ "Fix in `config.json`:" introduces a block: not a fact on its own."""
    return sentence.rstrip().endswith((":", "：")) and len(sentence) <= 80


def _resolve_pronoun(bullet: str, name: str | None) -> str:
    """ "She owns billing" → "Priya owns billing" when the message named one person."""
    if not name:
        return bullet
    return _PRONOUN.sub(name + " ", bullet, count=1)


# a capitalized word inside a sentence (not its first word) or a Chinese name before 负责
_PERSON = re.compile(r"(?<=[^.!?:：\s]\s)[A-Z][a-z]{2,}(?![A-Za-z])|[" + HAN + r"]{2,3}(?=负责)")
_PERSON_PRONOUN = re.compile(
    r"(?<![A-Za-z])(?:him|her|them)(?![A-Za-z])|找[他她]|[他她]的|归[他她]", re.IGNORECASE
)
_PRONOUN = re.compile(r"^(?:she|he|they)\s+(?=\w)|^(?:她|他)(?=[" + HAN + r"])", re.IGNORECASE)


HANDED_ITEM = 3.0  # a numbered item of the user's dump
HANDED_VALUE = 0.5  # … per number, time or name it holds (the sentence with the values is the bullet)
_VALUE = re.compile(r"\d+(?:[:.]\d+)?|(?<=[^.!?] )[A-Z][a-z]+")


def _score(statement: Statement, context: _Context, carried: set[str], label: str | None) -> float:
    text = statement.text
    score = _marker_score(statement, context, carried)
    if len(statement.bullet) < 6 or not re.search(r"[\w" + HAN + r"]{2}", statement.bullet):
        return 0.0
    if LEX.CHITCHAT.search(text) or LEX.DEFERRAL.search(text):
        return 0.0
    if LEX.ONE_OFF.search(text) and "future" not in statement.kinds and not LEX.RECURRING.search(text):
        return 0.0  # "Added: dentist Thursday 3 Dec, 15:00" — an appointment, however acknowledged
    if LEX.STATUS.search(text) and not statement.kinds & {"future", "note"} and not context.handed:
        return 0.0  # "72% done" is a status; "at most 10% after 23:00, always" is a rule
    if LEX.RULED_OUT.search(text) or LEX.RECOMMENDS_ITEM.search(statement.bullet):
        return 0.0
    if statement.role == "user" and LEX.REQUEST.search(statement.bullet) and "future" not in statement.kinds:
        return 0.0
    confirmed_question = False
    if signals.is_question(text):
        reply = context.reply
        confirmed_question = bool(
            statement.role == "assistant"
            and LEX.CONFIRM_QUESTION.search(text)
            and reply is not None
            and LEX.YES.search(reply.prose)
        )
        if not confirmed_question:
            return 0.0
        statement.bullet = _clip(signals.clean_bullet(LEX.CONFIRM_QUESTION.sub("", text)))
    if statement.prior:
        score += 1.0
    ids = len(statement.ids)
    score += min(2.0, 0.6 * ids + 0.4 * sum(1 for i in statement.ids if _LONG_ID.fullmatch(i)))
    if context.restates and (ids or statement.kinds & {"future", "owner"} or context.explicit_ack):
        score += 3.0 if ids or context.explicit_ack else 2.0
    if context.explicit_ack and (_keywords(statement) | _cjk_bigrams(statement.bullet)) & context.said_words:
        score += 1.0  # it repeats the user's own words: the user handed this fact over
    if context.accepted and (ids or statement.kinds & {"fix", "change"}):
        score += ACCEPTED_BONUS if ids else 2.0  # the user said yes to this proposal: it is the decision
        if ids and not statement.kinds & (_INCIDENT | _STANDING):
            statement.kinds.add("decision")
    if confirmed_question:
        score += 2.5
    if statement.role == "user" and ids and _DEFINITION.search(text):
        score += 0.5
    if statement.role == "user" and ids and context.echoed & statement.ids:
        score += 2.0  # the assistant picked it up: a fact the user is handing over
    elif (
        context.acknowledged
        and statement.kinds & {"future", "note", "owner", "preference"}
        and (context.ack_words is None or _text_words(statement.bullet) & context.ack_words)
    ):
        score += 2.0  # a rule the user set and the assistant said it recorded ("记下了", or repeating it)
    if context.corrected and _VALUE.search(statement.bullet):
        score += CORRECTED_BONUS
    if context.handed:
        score += HANDED_ITEM + HANDED_VALUE * min(3, len(_VALUE.findall(statement.bullet)))
    if context.confirmed_fact and statement.ids & (context.reply.ids if context.reply else frozenset()):
        score += 2.5  # the user agreed and repeated its value: a fact both sides hold
    if label and context.chosen:
        score += 3.0 if label.casefold() == context.chosen else -3.0
    if LEX.HEDGE.search(text) and not context.accepted:
        score -= 1.5
    if LEX.NOT_CHOSEN.search(text):
        score -= 2.0
    if LEX.PROBE.search(statement.bullet) and "note" not in statement.kinds:
        score -= 2.0  # "let's check …" is a step; "let's remember: …" is a marker
    if context.rejected:
        score -= 3.0
    return max(score, 0.0)


def _mark_recalled(chat: list[_Message]) -> None:
    """ "That's what we said this morning" marks the message it answers as already saved."""
    for index, message in enumerate(chat):
        if not signals.says_known(message.prose) or message.ids:
            continue
        for earlier in range(index - 1, max(index - 3, -1), -1):
            if chat[earlier].role != message.role and not chat[earlier].is_paste:
                chat[earlier].recalled = True
                break


def _clip(text: str) -> str:
    if len(text) <= MAX_BULLET_CHARS:
        return text
    cut = text[:MAX_BULLET_CHARS]
    boundary = max(cut.rfind(mark) for mark in ("；", "，", "; ", ", ", " — "))
    return (cut[:boundary] if boundary > MAX_BULLET_CHARS // 2 else cut).rstrip() + "…"


# --------------------------------------------------------------------------- notes


def _same_fact(a: Statement, b: Statement) -> bool:
    alike = _alike(a, b)
    if ("fix" in a.kinds) != ("fix" in b.kinds) and "root_cause" in a.kinds | b.kinds:
        return (
            alike >= CAUSE_FIX_SAME_TEXT
        )  # the cause and the fix are two bullets, even with the same identifiers
    return alike >= SAME_TEXT or (bool(a.ids) and a.ids <= b.ids and alike >= 0.3)


def _related(seed: Statement, other: Statement) -> bool:
    if seed.prior != other.prior:
        return False
    if seed.message == other.message and seed.part != other.part:
        return False  # two items of one list are two facts, even about one machine
    if seed.message == other.message and seed.part is not None and seed.part == other.part:
        return True  # the sentences of one list item are one fact
    if seed.ids & other.ids or _same_incident(seed, other):
        return True
    episode = {"root_cause", "fix"}
    if seed.message == other.message and seed.kinds & episode and other.kinds & episode:
        return True
    if seed.message == other.message and seed.noted and other.noted:
        return True  # one "rule:" sentence split at a semicolon
    distance = abs(seed.message - other.message)
    if _records(seed, other) or _records(other, seed):
        return True  # the user's rule and the assistant's "Noted: …" of it
    if distance == 1 and (seed.restates or other.restates) and _alike(seed, other) >= 0.25:
        return True  # the user's words and the assistant's acknowledgement of them
    if 0 < distance <= 2 and seed.role != other.role and _keywords(seed) & _keywords(other):
        return True
    # Far apart and with no identifier in common, only near-identical wording is the same fact:
    # two English rules about the same subject share many letters without being one note.
    return _alike(seed, other) >= (SAME_TEXT if distance <= 2 else FAR_SAME_TEXT)


_INCIDENT = frozenset({"root_cause", "fix"})
_STANDING = frozenset({"future", "owner", "preference"})


def _standing_rule(statement: Statement) -> bool:
    """A rule, owner or preference the user set and the assistant acknowledged (or the acknowledgement)."""
    if not statement.kinds & _STANDING or statement.kinds & _INCIDENT:
        return False
    return statement.acknowledged if statement.role == "user" else statement.restates


def _different_kinds(a: Statement, b: Statement) -> bool:
    """A standing rule born from an incident is its own note, even with the incident's identifiers:
    "以后轮换 token 时两处必须一起改" is not the root cause of today's outage."""
    return (_standing_rule(a) and _incident(b)) or (_standing_rule(b) and _incident(a))


def _incident(statement: Statement) -> bool:
    """A root cause or fix of what happened (a "以后改用…" sentence is a rule, not an incident)."""
    return bool(statement.kinds & _INCIDENT) and not statement.kinds & _STANDING


def _same_incident(a: Statement, b: Statement) -> bool:
    """Cause found → cause confirmed → fix applied, a few messages apart, about the same thing
    (a path and its file name, a bare word of an identifier, a shared Chinese phrase)."""
    if not (_incident(a) and _incident(b)) or abs(a.message - b.message) > INCIDENT_WINDOW:
        return False
    return _shares_subject(a, b)


def _subject_terms(statement: Statement) -> frozenset[str]:
    terms = set(_keywords(statement))
    for identifier in statement.ids:
        terms.update(w.casefold() for w in _WORD.findall(identifier))
    return frozenset(terms - EN_COMMON_WORDS)


def _shares_subject(a: Statement, b: Statement) -> bool:
    if _subject_terms(a) & _subject_terms(b):
        return True
    return len(_cjk_bigrams(a.bullet) & _cjk_bigrams(b.bullet)) >= 2


def _records(said: Statement, ack: Statement) -> bool:
    """``ack`` is the assistant's acknowledgement, in the very next message, of the user's ``said``."""
    return (
        said.acknowledged
        and said.score > 0
        and ack.message == said.message + 1
        and ack.restates
        and bool(_text_words(said.bullet) & _text_words(ack.bullet))
    )


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]{3,}")


def _keywords(statement: Statement) -> frozenset[str]:
    words = {w.casefold() for w in _WORD.findall(statement.bullet)}
    return frozenset(words - EN_COMMON_WORDS) | statement.ids


_CJK_RUN = re.compile(r"[" + HAN + r"]{2,}")


def _cjk_bigrams(text: str) -> frozenset[str]:
    return frozenset(run[i : i + 2] for run in _CJK_RUN.findall(text) for i in range(len(run) - 1))


def _alike(a: Statement, b: Statement) -> float:
    """Text similarity, skipping the exact score when too few character bigrams are shared.

    Grouping and bullet choice ask about the same pair many times, so the answer is kept
    on the statement (the bullet text is settled before notes are formed)."""
    remembered = a._alike.get(id(b))
    if remembered is not None and remembered[0] is b:
        return remembered[1]
    smaller = min(len(a.grams), len(b.grams))
    if not smaller or len(a.grams & b.grams) < 0.3 * smaller:
        value = 0.0
    else:
        value = compact_similarity(a.compact, b.compact)
    a._alike[id(b)] = (b, value)
    b._alike[id(a)] = (a, value)
    return value


def find_notes(messages: Sequence[ChatMessage], scored: list[Statement] | None = None) -> list[Note]:
    """Group the scored statements into notes, strongest first.

    Single-link over shared identifiers or near-identical wording; a weak
    statement only attaches to a note's seed or strong members, so weak
    sentences never chain two facts together. A note is kept when its score
    (its seed plus support from other sentences and from both speakers)
    reaches ``SEED_MIN``.
    """
    ranked = sorted(
        (
            s
            for s in (statements(messages) if scored is None else scored)
            if s.score >= MEMBER_MIN or (s.prior and s.score > 0)
        ),
        key=lambda s: (-s.score, s.message),
    )
    notes: list[Note] = []
    for statement in ranked:
        strong = statement.score >= SEED_MIN
        homes = [
            note
            for note in notes
            if not (strong and _different_kinds(statement, note.seed))
            and any(
                _related(member, statement)
                for member in note.members
                if strong or member is note.seed or member.score >= SEED_MIN
            )
        ]
        if homes:
            home = homes[0]
            home.members.append(statement)
            # Two notes joined by a strong statement are one fact; weak ones never chain notes.
            for other in homes[1:] if strong else []:
                if _other_items(home.seed, other.seed):
                    continue
                home.members.extend(other.members)
                notes.remove(other)
        elif statement.machine or statement.symptom:
            continue  # a pasted log line, a URL or a problem report may support a note, never start one
        elif statement.score >= MEMBER_MIN or (statement.prior and statement.score >= 1.0):
            notes.append(Note(seed=statement, members=[statement]))
    # A user fact the assistant acknowledged can carry a note together; a lone weak sentence cannot.
    kept = [note for note in notes if note.score >= SEED_MIN or (note.seed.prior and note.seed.score >= 1.0)]
    kept.sort(key=lambda note: -note.score)
    return _join_details(kept)


def _other_items(a: Statement, b: Statement) -> bool:
    """Two items of one user's numbered list: never one note."""
    return a.message == b.message and a.part is not None and b.part is not None and a.part != b.part


DETAIL_DISTANCE = 2  # messages between two acknowledgements of details about one subject
_PLAIN = frozenset({"note"})  # a plain fact: no rule, incident, owner, decision or change


def _join_details(notes: list[Note]) -> list[Note]:
    """ "好：钢琴课每周四 17:30，林老师家" then "记下了：280 元/节，转给林老师": details the user hands
    over one after another about one subject (a lesson's slot, place and fee) are one note, not two."""
    result: list[Note] = []
    for note in notes:
        host = next((kept for kept in result if _details_of_one_subject(kept.seed, note.seed)), None)
        if host is None:
            result.append(note)
            continue
        host.members.extend(note.members)
        host.companions.append(note.seed)
    return result


def _details_of_one_subject(a: Statement, b: Statement) -> bool:
    if a.part is not None or b.part is not None:
        return False  # items of a list in one message are each their own note
    if a.item is not None or b.item is not None:
        return a.item == b.item  # in a numbered dump, each item is one subject and only one
    return (
        a.role == b.role == "assistant"
        and a.restates
        and b.restates
        and not a.prior
        and not b.prior
        and a.kinds <= _PLAIN
        and b.kinds <= _PLAIN
        and 0 < abs(a.message - b.message) <= DETAIL_DISTANCE
        and _shares_subject(a, b)
    )


# --------------------------------------------------------------------------- entries


def _placement_kinds(note: Note, texts: Sequence[str], home: MemorySection | None) -> set[str]:
    """The note's kinds, plus whether it holds a standing rule the user set about the chat's topic."""
    standing = any(
        m.role == "user"
        and "future" in m.kinds
        and m.score >= SEED_MIN
        and not m.kinds & {"owner", "preference"}
        for m in note.members
    )
    user_rule = standing and home is not None
    if user_rule and home is not None:
        text = " ".join(m.bullet for m in note.members)
        user_rule = on_topic(text, {m.message for m in note.members}, texts, home)
    return note.kinds | ({USER_RULE} if user_rule else set()) | ({USER_STANDING} if standing else set())


RESTATED_MIN_IDS = 2  # identifiers a chat sentence must share with a saved bullet to restate it


def restated_skips(
    candidates: Sequence[Statement], sections: Sequence[MemorySection], taken: set[str | None]
) -> list[tuple[Note, Placement]]:
    """Facts the chat goes over again that today's file already holds: reported as skips.

    A sentence restates a saved bullet when it carries two of the bullet's
    identifiers (hosts, paths, values), or one of them plus a reference to
    earlier notes ("as saved", "still the rule", 按之前定的). The best sentence
    per bullet is kept; bullets an earlier skip already covers are left out.
    """
    best: dict[tuple[str, str], tuple[float, Statement]] = {}
    for section in sections:
        for bullet in section.bullets:
            if bullet in taken:
                continue
            saved_text = bullet.casefold()
            for statement in candidates:
                if statement.machine or signals.is_question(statement.text) or len(statement.bullet) < 8:
                    continue
                # A new identifier is new information: only a sentence wholly inside the bullet restates it.
                shared = sum(1 for i in statement.ids if i in saved_text)
                new = len(statement.ids) - shared
                restates = (
                    shared >= RESTATED_MIN_IDS or _restates_words(statement.bullet, bullet)
                ) and new == 0
                recalled = statement.prior and bool(
                    shared
                    or _keywords(statement) & {w.casefold() for w in _WORD.findall(bullet)}
                    or signals.alike(statement.bullet, bullet) >= 0.3
                )
                if not (restates or recalled):
                    continue
                strength = shared + (1.0 if statement.prior else 0.0) + 0.1 * statement.score
                key = (section.title, bullet)
                if key not in best or strength > best[key][0]:
                    best[key] = (strength, statement)
    ranked = sorted(best.items(), key=lambda item: -item[1][0])
    result = []
    seen: set[int] = set()
    for (title, bullet), (_, statement) in ranked:
        if id(statement) in seen:
            continue
        seen.add(id(statement))
        placement = Placement("skip", title, bullet, f'Already in today\'s memory under "{title}".')
        # The report shows the saved wording: the chat only went over it again ("still the rule").
        saved = Statement(statement.message, statement.role, bullet, bullet, statement.ids, statement.score)
        result.append((Note(seed=saved, members=[saved]), placement))
    return result


RESTATED_MIN_TERMS = 4  # words a sentence without identifiers must share with a saved bullet …
RESTATED_TERM_SHARE = 0.6  # … making up this share of the shorter of the two


_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*")
_FUNCTION_HAN = set("的了是在和就都也把被不没这那个们我你他她它吗呢吧啊之与或而及很")


@lru_cache(maxsize=4096)
def _fact_terms(text: str) -> frozenset[str]:
    words = {w.casefold() for w in _TERM.findall(text) if len(w) >= 2} - EN_COMMON_WORDS - EN_SMALL_WORDS
    grams = {g for g in _cjk_bigrams(text) if not set(g) & _FUNCTION_HAN}
    return frozenset(words | grams)


def _restates_words(sentence: str, bullet: str) -> bool:
    """ "port 80 stays closed on the router" against a saved "Port 80 stays closed on the router; …":
    most of the sentence's words are the bullet's, with no identifier to carry it."""
    said, saved = _fact_terms(sentence), _fact_terms(bullet)
    shared = len(said & saved)
    return shared >= RESTATED_MIN_TERMS and shared >= RESTATED_TERM_SHARE * min(len(said), len(saved))


def _unique_skips(placed: list[tuple[Note, Placement]]) -> list[tuple[Note, Placement]]:
    """One skip per existing bullet: notes that restate the same saved bullet are pooled."""
    by_bullet: dict[tuple[str | None, str | None], tuple[Note, Placement]] = {}
    for note, placement in placed:
        key = (placement.section_title, placement.matched_bullet)
        if key in by_bullet:
            by_bullet[key][0].members.extend(note.members)
        else:
            by_bullet[key] = (note, placement)
    return list(by_bullet.values())


def _entry(note: Note, placement: Placement, language: str, index: int, titles: TitleContext) -> Entry:
    chosen = note.bullets()
    bullets = [s.bullet for s in chosen]
    title = placement.section_title if placement.action == "skip" and placement.section_title else None
    if title is None:
        kinds = set().union(*(s.kinds for s in chosen))
        if not kinds & {"note", "future", "root_cause", "fix", "owner", "preference", "change"} and any(
            _SETUP_ID.search(i) for i in note.seed.ids
        ):
            kinds.add("setup")  # a path, a port, a host: where things are and how they are set up
        ids = frozenset().union(*(s.ids for s in chosen))
        title = note_title(bullets, kinds, ids, language, titles)
    return Entry(
        title=title,
        bullets=bullets,
        action=placement.action,
        merge_target_title=placement.section_title if placement.action == "merge" else None,
        reason=placement.reason,
        candidate_index=index,
    )


_SETUP_ID = re.compile(r"/|\d{2,}|\.[a-z]{2,5}$")
