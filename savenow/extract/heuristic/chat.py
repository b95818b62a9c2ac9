"""Chat context: each message with what the conversation around it says about it.

Who confirmed, rejected, accepted or picked what; numbered dumps and lists; recalled facts.
Computed once per chat, before any sentence is scored.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...models import ChatMessage
from ...text.cjk import HAN
from ...text.identifiers import identifiers, values
from ...text.stopwords import EN_COMMON_WORDS, EN_NOT_NAMES
from ...vocabulary import NoteKind
from . import signals
from .cache import text_cache
from .machine import is_machine_text
from .rules import (
    APPLIED_SHARED_WORDS,
    APPLIED_WINDOW,
    ASK_NOTE_CHARS,
    BARE_RULE_ACK_CHARS,
    CHOICE_WINDOW,
    CONFIRM_WINDOW,
    ECHO_SHARE,
    ITEM_FOLLOW_UP,
    LIST_MIN_ITEMS,
    RESTATED_TERMS,
    RULE_MESSAGE_CHARS,
    STEM_CHARS,
    TAG_QUESTION_CHARS,
)
from .signals import LEX
from .words import fact_terms, quantities, text_words


@dataclass
class Message:
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
    updated: bool = False  # its old value was replaced by the one a later message changed it to


def read_chat(messages: Sequence[ChatMessage]) -> list[Message]:
    result = []
    for message in messages:
        text = message.text or ""
        items, is_paste, prose, ids, confirms, rejects = _read_message(message.role, text)
        result.append(Message(message.role, text, list(items), is_paste, prose, ids, confirms, rejects))
    _mark_choices(result)
    _mark_recalled(result)
    _mark_accepted(result)
    _mark_listed(result)
    return result


_Read = tuple[tuple[tuple[str | None, str], ...], bool, str, frozenset[str], bool, bool]


@text_cache  # what one message says on its own: the same in every preview of a chat
def _read_message(role: str, text: str) -> _Read:
    """A message's sentences (a short rule kept whole), whether it is a paste, its prose and
    identifiers, and whether it says it works now or still fails: a pure function of the two."""
    items = signals.sentence_items(text)
    prose_chars = sum(len(sentence) for _, sentence in items)
    prose = signals.prose(text)
    is_paste = (bool(signals.code_blocks(text)) and prose_chars < 40) or is_machine_text(prose)
    rejects = bool(LEX.REJECT.search(prose))
    says_done = bool(LEX.CONFIRM.search(prose) or LEX.APPLIED.search(prose))
    confirms = not rejects and says_done and not signals.is_question(prose.strip())
    ids = frozenset(identifiers(prose))
    message = Message(role, text, items, is_paste, prose, ids, confirms, rejects)
    _whole_rule(message)
    return tuple(message.items), is_paste, prose, ids, confirms, rejects


def _list_labels(message: Message) -> list[int]:
    return [int(label) for label, _ in message.items if label and label.isdigit()]


def _mark_listed(chat: list[Message]) -> None:
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
            or not ACK_START.search(answer.prose.strip()[:_ACK_HEAD_CHARS])
        ):
            continue
        with_ids = sum(
            1 for label, sentence in message.items if label and label.isdigit() and identifiers(sentence)
        )
        if 2 * with_ids >= len(labels):
            message.listed = True


def _whole_rule(message: Message) -> None:
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


def _mark_accepted(chat: list[Message]) -> None:
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


def _mark_choices(chat: list[Message]) -> None:
    """ "option 1" / "那就改 2" after a numbered list: remember which item the user picked."""
    for index, message in enumerate(chat):
        if message.role != "user" or message.is_paste:
            continue
        match = LEX.CHOICE.search(message.prose)
        if not match:
            continue
        label = (match.group(1) or match.group(2)).casefold()
        for earlier in range(index - 1, max(index - 1 - CHOICE_WINDOW, -1), -1):
            offered = {item_label for item_label, _ in chat[earlier].items if item_label}
            if chat[earlier].role == "assistant" and offered:
                if label in offered:
                    chat[earlier].chosen = label
                break


def user_reply(chat: list[Message], index: int) -> Message | None:
    for later in chat[index + 1 : index + 3]:
        if later.role == "user" and not later.is_paste:
            return later
    return None


def confirmed_after(chat: list[Message], index: int) -> bool:
    """A user message soon after says it works (and not that it still fails)."""
    for later in chat[index + 1 : index + 1 + CONFIRM_WINDOW]:
        if later.role != "user" or later.is_paste:
            continue
        if later.rejects:
            return False
        if later.confirms:
            return True
    return False


def confirmed_before(chat: list[Message], index: int) -> bool:
    """The assistant sums up right after the user said it works."""
    for earlier in range(index - 1, max(index - 3, -1), -1):
        if chat[earlier].role == "assistant":
            return False
        if chat[earlier].confirms:
            return True
    return False


def rejected_after(chat: list[Message], index: int) -> bool:
    """The user's next words report the suggestion failed or turn it down."""
    reply = user_reply(chat, index)
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
ACK_START = re.compile(
    r"^\s*(?:got it|noted|understood|ok(?:ay)?[,.:]|sure[,.:]|(?:nice|great|perfect)[,.!，。！]|记下了|记住了|明白|收到|好[，,。.]|好的|了解)",
    re.IGNORECASE,
)
NAME = re.compile(r"(?<![A-Za-z])[A-Z][a-z]{2,}(?![A-Za-z])|[" + HAN + r"]{2,3}(?=负责)")
DEFINITION = re.compile(
    r"(?<![A-Za-z])(?:is|are|runs?|lives?|sits?|uses?|goes|connects? to|on|in|at)(?![A-Za-z])|在|是|用|放|走",
    re.IGNORECASE,
)
CARRIED = (
    NoteKind.NOTE,
    NoteKind.ROOT_CAUSE,
    NoteKind.FIX,
    NoteKind.CHANGE,
)  # a marker sentence lends its kind to the rest of its message
LONG_ID = re.compile(r"-?\d{6,}")  # chat ids, account ids: worth keeping on their own


@dataclass
class SentenceContext:
    """What the surrounding conversation says about one message."""

    restates: bool
    confirmed: bool
    rejected: bool
    reply: Message | None
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
    said_quantities: frozenset[str] = frozenset()  # (acknowledgements) the quantities of the user's statement
    summary: bool = False  # (assistant) answers the user's "works now": the state as it is kept
    answers_user: bool = False  # (assistant) the message right before it is the user's
    announces: bool = False  # (user) asks to note what the next user message hands over
    taken: bool = False  # (user) the assistant's next message takes the statement down as given
    adopted: frozenset[str] = frozenset()  # (user) the assistant's proposed identifiers it applied / adopted


@text_cache  # a pure function of the message, asked once per statement of it, in every preview
def single_name(text: str) -> str | None:
    """The one capitalized name a message mentions (not at a sentence start), if exactly one."""
    names = {m.group(0) for m in NAME.finditer(text) if not m.group(0).isupper()}
    names -= EN_NOT_NAMES
    return next(iter(names)) if len(names) == 1 else None


def announces_facts(chat: list[Message], index: int) -> bool:
    """ "我爸今天去复查了，帮我记一下医生说的" / "另外那几个电话你帮我记一下": the user asks to note what
    comes next — the facts follow in the user's next message (after at most a short "你说。" / "Go
    ahead."), and this message names no identifier or value of its own."""
    message = chat[index]
    if message.role != "user" or message.ids or quantities(message.prose):
        return False
    if not (LEX.NOTE.search(message.prose) and LEX.ASK_ASSISTANT.search(message.prose)):
        return False  # "For the notes: always deploy as the deploy user" is the fact itself
    for following in chat[index + 1 : index + 3]:
        if following.role == "assistant":
            if len(following.prose.strip()) > _SHORT_REPLY_CHARS:
                return False  # the assistant took the message itself down: it was the fact
            continue
        return bool(following.ids or quantities(following.prose)) and not signals.is_question(following.prose)
    return False


def asked_to_note(chat: list[Message], index: int) -> bool:
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


def applied_next(chat: list[Message], index: int) -> bool:
    """The user's very next message reports this instruction applied and working, echoing its values."""
    reply = user_reply(chat, index)
    return reply is not None and reply.confirms and bool(reply.ids & chat[index].ids)


def applied_later(chat: list[Message], index: int, words: frozenset[str], values: frozenset[str]) -> bool:
    """A user message soon after reports the command or setting done and working, and names it:
    one of its values (`"180"` → "加了 180，成功了") or two words of its code (`kamal rollback …` →
    "ran kamal rollback …, works again") in the first such report; one shared word is too often the chat's subject ("Postgres"). A rejection first means it did not work."""
    for later in chat[index + 1 : index + 1 + APPLIED_WINDOW]:
        if later.role != "user" or later.is_paste:
            continue
        if later.rejects:
            return False
        if not (later.confirms or LEX.APPLIED.search(later.prose)):
            continue
        # The first report decides: "dns done" answers the step in front of it, not the plan's later ones.
        return (
            bool(values_of(later.prose) & values) or len(stems(later.prose) & words) >= APPLIED_SHARED_WORDS
        )
    return False


def values_of(text: str) -> frozenset[str]:
    """The values a message names that identify something: identifiers and numbers of two digits or more."""
    return frozenset(v for v in values(text) if not v.isdigit() or len(v) >= 2)


def stems(text: str) -> frozenset[str]:
    """The Latin words of a text (three letters or more, not common English), cut to their first letters."""
    return frozenset(
        w.casefold()[:STEM_CHARS]
        for w in re.findall(r"[A-Za-z]{3,}", text)
        if w.casefold() not in EN_COMMON_WORDS and w.casefold() not in _SHELL_WORDS
    )


# Words of nearly every command line: they name no command of their own.
_SHELL_WORDS = frozenset({"sudo", "run", "bin", "usr", "etc", "var", "sbin", "exec", "bash", "then"})


def explicit_ack(chat: list[Message], index: int) -> bool:
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


def echoes_item(chat: list[Message], index: int) -> bool:
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
    return frozenset(term.rstrip(".") for term in fact_terms(text)) - {""}


def _numbered_label(message: Message) -> int | None:
    if message.role != "user" or message.is_paste or not message.items:
        return None
    label = message.items[0][0]
    return int(label) if label and label.isdigit() else None


def dump_items(chat: list[Message]) -> set[int]:
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


def item_of_messages(chat: list[Message]) -> dict[int, int]:
    """Each message of a numbered dump → the user's item message it is about: the item, its echo
    and up to three messages after it, until the user's next item."""
    owner: dict[int, int] = {}
    starts = {index - 1 for index in range(1, len(chat)) if echoes_item(chat, index)}
    for item in sorted(starts | dump_items(chat)):
        index = item + 1
        for later in range(item, min(item + 1 + ITEM_FOLLOW_UP, len(chat))):
            message = chat[later]
            if later > index and message.role == "user" and message.items and message.items[0][0]:
                break  # the next item starts
            owner[later] = item
    return owner


def _restated_rule(said: Message, answer: Message) -> bool:
    """ "明白，钢琴课是例外：提前两小时提醒…" / "OK, build alerts go to the team channel": an
    acknowledgement without a colon that repeats a user's preference or routing value is a record too."""
    if not ACK_START.search(answer.prose) or not LEX.ROUTING.search(said.prose):
        return False
    if LEX.REQUEST.search(said.prose.strip()) and not LEX.FUTURE.search(said.prose):
        return False
    return len(text_words(said.prose) & text_words(answer.prose)) >= RESTATED_TERMS


_ACK_HEAD_CHARS = 40  # a record acknowledgement says so at its start ("好的，记下了…", "Noted, …")


def acknowledged(chat: list[Message], index: int) -> bool:
    """The assistant answers this user statement by saying it recorded it ("好的，记下了这条规则")."""
    message = chat[index]
    if message.role != "user" or message.is_paste or _asks(message):
        return False
    if index + 1 >= len(chat) or chat[index + 1].role != "assistant" or chat[index + 1].is_paste:
        return False
    answer = chat[index + 1].prose.strip()
    if LEX.RECORDED.search(answer[:_ACK_HEAD_CHARS]) or LEX.EXPLICIT_ACK.search(answer):
        return True
    if len(answer) <= BARE_RULE_ACK_CHARS and ACK_START.search(answer) and LEX.FUTURE.search(message.prose):
        return True  # "never put secrets in cron files" — "Understood.": a rule taken on board
    return bool(ACK_START.search(answer)) and echoes_user(chat, index + 1)  # "好，Metabase 归周敏负责"


# A reply this short only acknowledges or prompts: "好的，记下了这条规则。", "好的，你说，我帮你整理。",
# "Sure, go ahead." — it restates nothing of the message before it.
_SHORT_REPLY_CHARS = 30


def _asks(message: Message) -> bool:
    """A question — but a statement ending in a short tag ("…, for any script. ok?") is still a statement."""
    if not signals.is_question(message.prose.strip()):
        return False
    sentences = [sentence for _, sentence in message.items]
    if len(sentences) < 2 or len(sentences[-1].strip()) > TAG_QUESTION_CHARS:
        return True
    return any(signals.is_question(sentence) for sentence in sentences[:-1])


def ack_words(answer: str) -> frozenset[str] | None:
    """What a record acknowledgement repeats; None when it repeats nothing ("好的，记下了这条规则。")."""
    if len(answer.strip()) <= _SHORT_REPLY_CHARS and not identifiers(answer):
        return None
    return text_words(answer)


def deferred_later(chat: list[Message], index: int, ids: frozenset[str]) -> bool:
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
CORRECTION_LEAD = re.compile(
    r"^\s*(?:(?:不对|不是的?|错了)(?:不对|错了)?|(?:no+|nope|actually|wrong|not quite)(?![A-Za-z]))[\s,，.。!！:：]+",
    re.IGNORECASE,
)


# … and the assistant admits it: "抱歉，刚才算错了" / "Sorry, my mistake" / "You're right".
_ADMITS = re.compile(
    r"^\s*(?:抱歉|对不起|不好意思|你说得对|说得对|(?:sorry|apologies|my (?:mistake|bad)|you're right|you are right)(?![A-Za-z]))"
    r"|(?:我|刚才)[^。.!！\n]{0,12}(?:算错|搞错|说错|记错|弄错)|(?<![A-Za-z])I (?:was wrong|got (?:that|it) wrong|miscalculated)",
    re.IGNORECASE,
)
_ADMIT_HEAD_CHARS = 40


def correction_accepted(chat: list[Message], index: int) -> bool:
    """The user corrects the assistant ("不对, X 说我们用的是 0W-20 …") and the assistant's next message
    admits the mistake ("抱歉，刚才算错了。按 0W-20 …"): the corrected statement is a fact handed over."""
    message = chat[index]
    if message.role != "user" or message.is_paste or not CORRECTION_LEAD.search(message.prose):
        return False
    if index + 1 >= len(chat) or chat[index + 1].role != "assistant" or chat[index + 1].is_paste:
        return False
    return bool(_ADMITS.search(chat[index + 1].prose.strip()[:_ADMIT_HEAD_CHARS]))


def confirmed_fact(chat: list[Message], index: int) -> bool:
    """The user's next message agrees ("Right, 8443 for staging") and repeats one of this message's values."""
    reply = user_reply(chat, index)
    if reply is None or chat[index].role != "assistant" or chat[index + 1] is not reply:
        return False
    return bool(LEX.YES.search(reply.prose)) and bool(reply.ids & chat[index].ids) and not reply.rejects


# What the speaker is doing or just did, not how a thing is: "刚把代码 push 到 feature/login-fix 分支了",
# "正在 ssh 到 db-02", "I'm ssh'd into db-02.internal, checking the disk", "just pushed to main".
# 刚好 / 刚需 are no "just now".
_IN_PROGRESS = re.compile(
    r"刚(?![好需])|正在|现在在|(?<![A-Za-z])(?:I'm|I am|we're|we are)\s+(?:now\s+|still\s+|currently\s+)?"
    r"(?:[A-Za-z]+ing|[A-Za-z]+'?d\s+(?:into|in|on|onto))(?![A-Za-z])|(?<![A-Za-z])(?:just|currently|right now)(?![A-Za-z])",
    re.IGNORECASE,
)


def reports_progress(prose: str) -> bool:
    """A status of the speaker's work (in progress, just done, a one-off), which a bare "好的。" only hears."""
    return bool(_IN_PROGRESS.search(prose) or LEX.STATUS.search(prose) or LEX.ONE_OFF.search(prose))


def takes_fact(chat: list[Message], index: int) -> bool:
    """ "peer for the new laptop is 10.8.0.14" — "Noted." / "好的。" / "记下了。": the assistant's next
    message only acknowledges the user's statement — a bare "noted", nothing asked back, nothing added,
    no value repeated. A fact handed over tersely is taken down so, with no marker to say it."""
    message = chat[index]
    if message.role != "user" or message.is_paste or _asks(message) or reports_progress(message.prose):
        return False
    if index + 1 >= len(chat) or chat[index + 1].role != "assistant" or chat[index + 1].is_paste:
        return False
    answer = chat[index + 1].prose.strip()
    # "Okay, so the disk isn't the bottleneck …" answers a report; "好的，几天？" asks for what is missing
    return (
        len(answer) <= BARE_RULE_ACK_CHARS
        and bool(ACK_START.search(answer) or LEX.RECORDED.search(answer))
        and not signals.is_question(answer)
    )


def adopted_ids(chat: list[Message], index: int) -> frozenset[str]:
    """ "set `UV_CACHE_DIR=/data/uv-cache` in the runner's `.env`" — "ok set UV_CACHE_DIR=/data/uv-cache":
    the identifiers of the assistant's message just before that this user message takes up while it
    says it applied or adopted them (改了 / 就用 / 以后都这样): the proposal, in the user's own words."""
    message = chat[index]
    if message.role != "user" or message.is_paste or index == 0 or signals.is_question(message.prose.strip()):
        return frozenset()
    before = chat[index - 1]
    if before.role != "assistant" or before.is_paste:
        return frozenset()
    prose = message.prose
    if not (LEX.APPLIED.search(prose) or LEX.AGREE.search(prose) or LEX.FUTURE.search(prose)):
        return frozenset()
    # only what the proposal brought in: "改 .env 为 `TW_BROKER`" repeats the name the error named, and
    # "统一叫 TIDEWATCH_BROKER_URL 吧 TW_BROKER 太短了" turns that one down
    named_earlier = frozenset().union(*(m.ids for m in chat[: index - 1]))
    return message.ids & (before.ids - named_earlier)


def echoed_ids(chat: list[Message], index: int) -> frozenset[str]:
    if chat[index].role != "user" or index + 1 >= len(chat) or chat[index + 1].role != "assistant":
        return frozenset()
    return chat[index].ids & chat[index + 1].ids


def echoes_user(chat: list[Message], index: int) -> bool:
    """The assistant's message repeats identifiers or wording of the user's message before it."""
    if index == 0 or chat[index - 1].role != "user":
        return False
    said, answer = chat[index - 1], chat[index]
    if said.ids & answer.ids or signals.alike(said.prose, answer.prose) >= _ECHO_ALIKE:
        return True
    # "好的，信用卡每月 8 日还款。要不要每月 6 号提醒你一次？": the question the acknowledgement goes
    # on to ask is not part of the echo, and must not dilute it.
    stated = " ".join(sentence for _, sentence in answer.items if not signals.is_question(sentence))
    return stated != answer.prose.strip() and signals.alike(said.prose, stated) >= _ECHO_ALIKE


_ECHO_ALIKE = 0.35


def acknowledged_quantities(chat: list[Message], index: int) -> frozenset[str]:
    """ "CX22，从 €5.83 涨到 €6.49 一个月" answered "好的，fsn-web-1（CX22）从 1 月起 €6.49/月": the
    quantities of the user's statement an acknowledgement answers. A sentence of the acknowledgement
    repeating one takes down a value handed over, though no identifier carries it (an amount, a dose)."""
    if index == 0 or chat[index].role != "assistant" or not ACK_START.search(chat[index].prose.strip()):
        return frozenset()
    said = chat[index - 1]
    if said.role != "user" or said.is_paste or signals.is_question(said.prose.strip()):
        return frozenset()
    if LEX.DEFERRAL.search(said.prose) or LEX.ONE_OFF.search(said.prose):
        return frozenset()  # "双十二那三天临时搞个满 79 包邮": a value for a while, not the rule
    reply = user_reply(chat, index)
    if (
        reply is not None
        and not chat[index].updated
        and (reply.rejects or CORRECTION_LEAD.search(reply.prose))
    ):
        return frozenset()  # "OK, pin 3.11" — "actually no, 3.12": the value taken down was replaced
    return quantities(said.prose)


def _mark_recalled(chat: list[Message]) -> None:
    """ "That's what we said this morning" marks the message it answers as already saved."""
    for index, message in enumerate(chat):
        if not signals.says_known(message.prose) or message.ids or quantities(message.prose):
            continue  # "之前说 150 元一袋，今天谈下来了，145": a new value against an old one, not a recall
        for earlier in range(index - 1, max(index - 3, -1), -1):
            if chat[earlier].role != message.role and not chat[earlier].is_paste:
                chat[earlier].recalled = True
                break
