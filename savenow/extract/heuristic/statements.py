"""Statements: every sentence of the chat, with its score and kinds (DESIGN §7, step 1)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...models import ChatMessage
from ...text.cjk import HAN
from ...text.identifiers import INLINE_CODE, identifiers
from ...text.normalize import compact
from ...text.stopwords import EN_COMMON_WORDS
from ...vocabulary import NoteKind
from . import rules, signals
from .cache import text_cache
from .chat import (
    ACK_START,
    CARRIED,
    CORRECTION_LEAD,
    DEFINITION,
    LONG_ID,
    NAME,
    Message,
    SentenceContext,
    ack_words,
    acknowledged,
    acknowledged_quantities,
    adopted_ids,
    announces_facts,
    applied_later,
    applied_next,
    asked_to_note,
    confirmed_after,
    confirmed_before,
    confirmed_fact,
    correction_accepted,
    deferred_later,
    dump_items,
    echoed_ids,
    echoes_item,
    echoes_user,
    explicit_ack,
    item_of_messages,
    read_chat,
    rejected_after,
    single_name,
    stems,
    takes_fact,
    user_reply,
    values_of,
)
from .later_values import (
    drop_old_values,
    find_changes,
    find_corrections,
    find_reassigned,
    find_refuted,
    rewrite_before_changes,
)
from .machine import is_machine_line
from .rules import (
    CHOICE_MAX_CHARS,
    CHOICE_WINDOW,
    INCIDENT,
    INCIDENT_WINDOW,
    MARKER_ONLY_CHARS,
    MAX_BULLET_CHARS,
    STANDING,
    SUMMARY_MIN_IDS,
    SUPERSEDE_WINDOW,
    THIS_WAY_TAIL,
)
from .signals import LEX
from .words import WORD, cjk_bigrams, quantities, text_words


@dataclass
class Statement:
    """One sentence of the chat, with what the signals say about it."""

    message: int  # index of its message
    role: str
    text: str
    bullet: str
    ids: frozenset[str]
    score: float = 0.0
    kinds: set[NoteKind] = field(default_factory=set)
    prior: bool = False  # says it is already saved / agreed before
    restates: bool = False  # its message acknowledges and repeats the user's message before it
    noted: bool = False  # under a note marker ("Rule:", "For the notes:") and not a list item of its own
    machine: bool = False  # a log line, traceback, prompt, command output or bare URL: support, never a seed
    acknowledged: bool = False  # (user) the assistant's next message says it recorded this
    symptom: bool = False  # only reports a problem ("403 on …", "又在重启"): support, never a seed or bullet
    item: int | None = None  # the user's numbered item (message index) this sentence is about, in a dump
    part: int | None = None  # the item number of a numbered list inside one user message it belongs to
    step: bool = False  # an item of an assistant's numbered plan (not a recap): one step of one procedure
    # what it says rules it out, whoever acknowledges it: chit-chat, a deferral, a one-off, a status, a
    # withdrawn or replaced value (an interview's answers are taken only when not dismissed)
    dismissed: bool = False
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
            # the character bigrams of the compact bullet (grouping compares every pair of statements)
            self._grams = _char_pairs(self.compact)
        return self._grams


@text_cache  # the same bullets in every preview of a chat: computed once per text, not per statement
def _char_pairs(text: str) -> frozenset[str]:
    return frozenset(text[i : i + 2] for i in range(len(text) - 1))


def statements(messages: Sequence[ChatMessage]) -> list[Statement]:
    """Every sentence of the chat, scored."""
    chat = read_chat(messages)
    # A value the chat changes later is read as it stands (:mod:`.later_values`).
    changes = find_changes(chat)
    changes += find_corrections(chat)  # "sorry, 10mg": a measure corrected without naming the old one
    changes += find_refuted(chat)  # "不是，…根本不用 873": the value of a guess the user turned down
    changes += find_reassigned(chat)  # "`listen_port = 6432`" … "Updated: `listen_port = 6543`"
    rewrite_before_changes(chat, changes)
    result: list[Statement] = []
    items = item_of_messages(chat)
    for index in dump_items(chat):
        # an item the assistant restates is handed over by that restatement already
        chat[index].handed = index + 1 >= len(chat) or not echoes_item(chat, index + 1)
    for index, message in enumerate(chat):
        if message.is_paste:
            continue
        found = _message_statements(chat, index)
        for statement in found:
            statement.item = items.get(index)
        result.extend(found)
    _mark_applied_fixes(chat, result)
    _mark_applied_later(chat, result)
    _mark_superseded(chat, result, {v for c in changes if c.new is not None for v in (c.old, c.new)})
    drop_old_values(chat, result, changes)
    _resolve_this_way(chat, result)
    _mark_chosen_options(chat, result)
    return result


def _mark_chosen_options(chat: list[Message], scored: list[Statement]) -> None:
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
        proposal.kinds.add(NoteKind.DECISION)
        proposal.symptom = False
        proposal.score = max(proposal.score, 0.0) + rules.CHOSEN_OPTION.weight


def _alternatives(chat: list[Message]) -> set[str]:
    """The options the user asked about ("what about certbot?", "那 rclone 呢？")."""
    found = set()
    for message in chat:
        if message.role != "user":
            continue
        for match in LEX.ALTERNATIVE.finditer(message.prose):
            found.add(next(group for group in match.groups() if group).casefold())
    return found


_THIS_WAY = re.compile(
    r"(?<![A-Za-z])(?:like (?:this|that)|this way|that way|the same way)(?![A-Za-z])|[这那]么[写做办配弄搞来]|[这那]样[写做办配弄搞]|照[这那此]",
    re.IGNORECASE,
)


def _resolve_this_way(chat: list[Message], scored: list[Statement]) -> None:
    """ "以后所有 repo 的 Dockerfile 都这么写" / "from now on every repo does it like this": a user's rule
    that points at the assistant's proposal just before says what that proposal says — its bullet takes
    the proposal's sentence with the identifiers (`--frozen-lockfile`), so the rule names its values."""
    for statement in scored:
        if statement.role != "user" or NoteKind.FUTURE not in statement.kinds:
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
        statement.score += rules.ADOPTED_THIS_WAY.weight


def _mark_applied_fixes(chat: list[Message], scored: list[Statement]) -> None:
    """A command (inline code) the assistant gives right after the root cause was found, which the
    user then reports working ("跑了，好了", "done, works now"), is the incident's fix — even when
    it reads like a step ("跑 `…`", "Run `…`") and the user's reply repeats none of its values."""
    causes = [s for s in scored if NoteKind.ROOT_CAUSE in s.kinds and s.score > 0]
    for statement in scored:
        if statement.role != "assistant" or statement.kinds & (INCIDENT | STANDING) or statement.machine:
            continue
        if "`" not in statement.text or signals.is_question(statement.text):
            continue
        if LEX.HEDGE.search(statement.text) or LEX.RULED_OUT.search(statement.text):
            continue
        # Config lines reported applied and working are the fix of an incident with no cause named.
        uncaused_fix = _config_applied(chat, statement) and not _cause_near(causes, statement)
        reply = user_reply(chat, statement.message)
        if not uncaused_fix and (reply is None or not reply.confirms):
            continue
        if uncaused_fix or any(
            0 <= statement.message - cause.message <= INCIDENT_WINDOW and shares_subject(cause, statement)
            for cause in causes
        ):
            statement.kinds.add(NoteKind.FIX)
            statement.symptom = False  # "… and restart" in a fix is the remedy, not a report
            statement.score += rules.APPLIED_FIX.weight


def _mark_applied_later(chat: list[Message], scored: list[Statement]) -> None:
    """ "run `kamal app exec … db:migrate` first, then deploy" … "migrate done, redeployed. all good":
    an assistant's command or setting (inline code) that the user reports, within a few messages,
    done and working, naming its words or values, is how the thing is done now. Sentences the
    scoring already ruled out (a probe, a step "for now", a hedge, chit-chat) stay out."""
    for statement in scored:
        if statement.role != "assistant" or statement.machine or statement.score <= 0:
            continue
        if "`" not in statement.text or signals.is_question(statement.text):
            continue
        if statement.kinds & (INCIDENT | STANDING) or LEX.HEDGE.search(statement.text):
            continue
        spans = " ".join(INLINE_CODE.findall(statement.text))  # the command or setting itself, not the prose
        if applied_later(chat, statement.message, stems(spans), values_of(spans)):
            # No incident kind: a setting the user applied is its own note, not a bullet of a nearby cause.
            statement.symptom = False
            statement.score += rules.APPLIED_LATER.weight


def _mark_superseded(
    chat: list[Message], scored: list[Statement], replaced: frozenset[str] | set[str] = frozenset()
) -> None:
    """ "先改成 6381 吧" … "`REDIS_URL` 改成 `redis://cache-02:6381/0`" … "等下，6381 是 sentinel 在用的":
    a user message that opens by stopping the plan on a value just named withdraws every statement of
    the last few messages naming it, and itself when it names no value of its own. The value the chat
    then settles on is the fact; the withdrawn one must not be saved. A value ``replaced`` by a new one
    (:func:`.later_values.find_changes`) is not withdrawn here: the statements naming it take the new one."""
    for index, message in enumerate(chat):
        if (
            message.role != "user"
            or message.is_paste
            or not LEX.HOLD.search(message.prose.strip()[:_HOLD_HEAD])
        ):
            continue
        named = values_of(message.prose)
        earlier = frozenset().union(
            *(values_of(s.text) for s in scored if index - SUPERSEDE_WINDOW <= s.message < index)
        )
        stopped = (named & earlier) - replaced
        if not stopped:
            continue
        for statement in scored:
            if not index - SUPERSEDE_WINDOW <= statement.message <= index:
                continue
            own = values_of(statement.text)
            if own & stopped and (statement.message < index or own <= earlier):
                statement.score = max(0.0, statement.score + rules.SUPERSEDED.weight)
                statement.dismissed = True


# "那现在 … 监听 6380" / "so now it runs on …" / "那 runner-03 这边就是：…" / "To recap: …":
# the sentence states how things are now, or sums them up.
_NOW_STATE = re.compile(
    r"现在|目前|就是[:：]|(?<![A-Za-z])(?:now|to recap|recap|in short)(?![A-Za-z])",
    re.IGNORECASE,
)
_HOLD_HEAD = 8  # "等下，" / "wait —" opens the message; "I'll wait for it" does not stop a plan


# A config assignment in inline code: `KEY=value`, `- KEY=value`, `key: value`.
_CONFIG_ASSIGNMENT = re.compile(r"`-?\s*[A-Za-z_][\w./\-]*(?:=|:\s+)[^`\s][^`]*`")


def _cause_near(causes: list[Statement], statement: Statement) -> bool:
    """A root cause stated within an incident's reach, before or after: the fix belongs to that incident."""
    return any(abs(statement.message - cause.message) <= INCIDENT_WINDOW for cause in causes)


def _config_applied(chat: list[Message], statement: Statement) -> bool:
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


def _message_statements(chat: list[Message], index: int) -> list[Statement]:
    message = chat[index]
    whole = message.prose
    assistant = message.role == "assistant"
    context = SentenceContext(
        restates=assistant and bool(ACK_START.search(whole)) and echoes_user(chat, index),
        confirmed=assistant and (confirmed_after(chat, index) or confirmed_before(chat, index)),
        # "不对 600 太狠了，定 800" turned down the old value, which this message no longer holds
        rejected=assistant and rejected_after(chat, index) and not message.updated,
        reply=user_reply(chat, index),
        has_name=bool(NAME.search(whole)),
        name=single_name(whole),
        echoed=echoed_ids(chat, index),
        chosen=message.chosen,
        asked_to_note=assistant and asked_to_note(chat, index),
        explicit_ack=assistant and (explicit_ack(chat, index) or echoes_item(chat, index)),
        accepted=assistant and message.accepted,
        applied=assistant and applied_next(chat, index),
        acknowledged=not assistant and acknowledged(chat, index),
        confirmed_fact=assistant and confirmed_fact(chat, index),
        handed=message.handed,
        corrected=not assistant and correction_accepted(chat, index),
        said_quantities=acknowledged_quantities(chat, index) if assistant else frozenset(),
        summary=assistant and confirmed_before(chat, index),
        answers_user=assistant and index > 0 and chat[index - 1].role == "user",
        announces=not assistant and announces_facts(chat, index),
        taken=not assistant and takes_fact(chat, index),
        adopted=frozenset() if assistant else adopted_ids(chat, index),
    )
    if context.acknowledged:
        context.ack_words = ack_words(chat[index + 1].prose)
    context.restates = context.restates or context.explicit_ack
    if context.explicit_ack:
        said = chat[index - 1]
        context.said_words = (
            frozenset(w.casefold() for w in WORD.findall(said.prose)) | said.ids | cjk_bigrams(said.prose)
        )
    minor = bool(LEX.MINOR.search(whole))
    carried: set[str] = set()
    result: list[Statement] = []
    part: int | None = None
    part_minor = False
    for label, sentence in message.items:
        if context.corrected and not result:
            sentence = CORRECTION_LEAD.sub("", sentence, count=1)  # the correction, not a denial
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
            prior=message.recalled or signals.says_known(sentence) or bool(LEX.UNCHANGED.search(sentence)),
            restates=context.restates,
            machine=is_machine_line(sentence),
            acknowledged=context.acknowledged,
        )
        statement.noted = label is None and (
            NoteKind.NOTE in carried or bool(LEX.NOTE.search(sentence)) or context.explicit_ack
        )
        statement.score = _score(statement, context, carried, label)
        if (
            LEX.PRIOR.search(sentence)
            and not statement.ids
            and not statement.kinds
            and len(statement.bullet) < 40
        ):
            statement.score = 0.0  # "it's already in today's notes" points elsewhere; says nothing itself
        if NoteKind.OWNER in statement.kinds:
            statement.bullet = _resolve_pronoun(statement.bullet, context.name)
        if _marker_only(statement) or _is_lead_in(sentence):
            # "There it is." / "修法：" — the marker speaks for the sentences that follow.
            carried |= statement.kinds & set(CARRIED)
            statement.score = 0.0
        else:
            carried |= statement.kinds & {NoteKind.NOTE}
        # An acknowledgement repeating the user's rule records it ("alerts on build failure go to …").
        statement.symptom = _symptom_only(statement) and not context.explicit_ack
        statement.part = part if message.listed else None
        # A numbered plan before the work is one procedure; a numbered recap after "works now" lists its facts.
        statement.step = assistant and bool(label and label.isdigit()) and not context.summary
        if part_minor if message.listed else minor:
            statement.score *= rules.MINOR_SHARE.weight
        if assistant and deferred_later(chat, index, statement.ids):
            statement.score = max(0.0, statement.score + rules.DEFERRED.weight)
        if result and _bare_confirm_question(sentence) and _said_yes(context.reply):
            result[-1].score += rules.CONFIRMED_BEFORE.weight
        if result and not assistant and _keeps_what_was_said(statement):
            # "found it. TP409218773. keep that": the user marks the value just given as one to keep
            result[-1].score += rules.NOTE_MARKER.weight  # as if it had said "remember: …" itself
            result[-1].kinds.add(NoteKind.NOTE)
            statement.score = 0.0
        result.append(statement)
    return result


def _marker_score(statement: Statement, context: SentenceContext, carried: set[str]) -> float:
    """What the explicit markers say; also records the statement's kinds."""
    text = statement.text
    kinds = statement.kinds
    score = 0.0
    if LEX.NOTE.search(text):
        kinds.add(NoteKind.NOTE)
        score += rules.NOTE_MARKER.weight
    elif NoteKind.NOTE in carried or context.asked_to_note:
        score += rules.CARRIED_NOTE.weight
    if LEX.FUTURE.search(text):
        kinds.add(NoteKind.FUTURE)
        score += rules.STANDING_MARKER.weight
    if LEX.OWNER.search(text) and context.has_name:
        kinds.add(NoteKind.OWNER)
        score += rules.OWNER_MARKER.weight
    # A preference is the user's (or the user's, repeated back): an assistant's "不用管" is not one.
    if (
        LEX.PREFERENCE.search(text)
        and NoteKind.FUTURE in kinds
        and (statement.role == "user" or context.restates)
    ):
        kinds.add(NoteKind.PREFERENCE)
        score += rules.PREFERENCE_MARKER.weight
    if LEX.ROOT_CAUSE.search(text) or NoteKind.ROOT_CAUSE in carried:
        kinds.add(NoteKind.ROOT_CAUSE)
        score += rules.ROOT_CAUSE_MARKER.weight + (
            rules.ROOT_CAUSE_CONFIRMED.weight if context.confirmed else 0.0
        )
    if LEX.FIX.search(text) or NoteKind.FIX in carried:
        kinds.add(NoteKind.FIX)
        score += rules.FIX_MARKER.weight + (rules.FIX_CONFIRMED.weight if context.confirmed else 0.0)
    if (
        context.applied
        and statement.ids
        and not kinds & {NoteKind.FIX, NoteKind.ROOT_CAUSE}
        and not context.restates  # "好的，每天 1500 字、周日休息" — "设了": the user's own rule, not a fix
    ):
        kinds.add(NoteKind.FIX)  # an instruction the user then applied and saw work is the fix
        score += rules.APPLIED_INSTRUCTION.weight
    if (LEX.DONE.search(text) or NoteKind.CHANGE in carried) and statement.role == "assistant":
        kinds.add(NoteKind.CHANGE)
        score += rules.CHANGE_MARKER.weight + (rules.CHANGE_CONFIRMED.weight if context.confirmed else 0.0)
    return score


_EXPLAINS = frozenset(
    {
        NoteKind.NOTE,
        NoteKind.FUTURE,
        NoteKind.ROOT_CAUSE,
        NoteKind.FIX,
        NoteKind.OWNER,
        NoteKind.PREFERENCE,
        NoteKind.CHANGE,
        NoteKind.DECISION,
    }
)


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


def _keeps_what_was_said(statement: Statement) -> bool:
    """ "keep that" / "记住这个" alone as a sentence: it points back at the sentence before it."""
    return (
        not statement.ids
        and len(statement.bullet) <= MARKER_ONLY_CHARS
        and bool(LEX.KEEP_THAT.search(statement.bullet))
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


def _said_yes(reply: Message | None) -> bool:
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
PERSON = re.compile(r"(?<=[^.!?:：\s]\s)[A-Z][a-z]{2,}(?![A-Za-z])|[" + HAN + r"]{2,3}(?=负责)")
PERSON_PRONOUN = re.compile(
    r"(?<![A-Za-z])(?:him|her|them)(?![A-Za-z])|找[他她]|[他她]的|归[他她]", re.IGNORECASE
)
_PRONOUN = re.compile(r"^(?:she|he|they)\s+(?=\w)|^(?:她|他)(?=[" + HAN + r"])", re.IGNORECASE)
_VALUE = re.compile(r"\d+(?:[:.]\d+)?|(?<=[^.!?] )[A-Z][a-z]+")


_TWO_WORD_CHARS = re.compile(r"[\w" + HAN + r"]{2}")


def _score(statement: Statement, context: SentenceContext, carried: set[str], label: str | None) -> float:
    text = statement.text
    score = _marker_score(statement, context, carried)
    if len(statement.bullet) < 6 or not _TWO_WORD_CHARS.search(statement.bullet):
        return 0.0
    if LEX.CHITCHAT.search(text) or LEX.DEFERRAL.search(text):
        return _dismissed(statement)
    if LEX.ONE_OFF.search(text) and NoteKind.FUTURE not in statement.kinds and not LEX.RECURRING.search(text):
        return _dismissed(
            statement
        )  # "Added: dentist Thursday 3 Dec, 15:00" — an appointment, however acknowledged
    if (
        LEX.STATUS.search(text)
        and not statement.kinds & {NoteKind.FUTURE, NoteKind.NOTE}
        and not context.handed
        and not quantities(text)
        & context.said_quantities  # "好的，抽成 18%": a rate handed over and taken down
    ):
        return _dismissed(statement)  # "72% done" is a status; "at most 10% after 23:00, always" is a rule
    if LEX.RULED_OUT.search(text) or LEX.RECOMMENDS_ITEM.search(statement.bullet):
        return _dismissed(statement)
    if context.announces:
        return _dismissed(statement)  # "帮我记一下医生说的": points at the facts the user hands over next
    if statement.role == "assistant" and not statement.ids and LEX.PROMISE.search(statement.bullet):
        return _dismissed(
            statement
        )  # "这个我记下来，以后你要请假我提醒你": the assistant's own task, not a fact to keep
    if (
        statement.role == "user"
        and LEX.REQUEST.search(statement.bullet)
        and NoteKind.FUTURE not in statement.kinds
    ):
        return _dismissed(statement)
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
        score += rules.KNOWN_BEFORE.weight
    ids = len(statement.ids)
    score += min(
        rules.IDENTIFIERS_MAX.weight, 0.6 * ids + 0.4 * sum(1 for i in statement.ids if LONG_ID.fullmatch(i))
    )
    if context.restates and (
        ids or statement.kinds & {NoteKind.FUTURE, NoteKind.OWNER} or context.explicit_ack
    ):
        score += rules.RESTATED_WITH_IDS.weight if ids or context.explicit_ack else rules.RESTATED.weight
    repeated = quantities(text) & context.said_quantities
    if repeated and not context.explicit_ack:
        score += rules.RESTATED_VALUES.weight + rules.RESTATED_VALUE.weight * min(2, len(repeated))
    if context.explicit_ack and (keywords(statement) | cjk_bigrams(statement.bullet)) & context.said_words:
        score += rules.USERS_OWN_WORDS.weight
    if context.accepted and (ids or statement.kinds & {NoteKind.FIX, NoteKind.CHANGE}):
        score += rules.ACCEPTED_PROPOSAL.weight if ids else rules.ACCEPTED_CHANGE.weight  # the decision
        if ids and not statement.kinds & (INCIDENT | STANDING):
            statement.kinds.add(NoteKind.DECISION)
    if confirmed_question:
        score += rules.CONFIRMED_QUESTION.weight
    if context.summary and ids >= SUMMARY_MIN_IDS and _NOW_STATE.search(text) and not LEX.HEDGE.search(text):
        score += rules.CONFIRMED_SUMMARY.weight
    elif context.answers_user and _wraps_up(statement):
        score += rules.WRAP_UP.weight + (rules.WRAP_UP_CONFIRMED.weight if context.summary else 0.0)
    if statement.role == "user" and ids and DEFINITION.search(text):
        score += rules.USER_DEFINITION.weight
    if statement.role == "user" and ids and context.echoed & statement.ids:
        score += rules.PICKED_UP.weight
    elif (
        context.acknowledged
        and statement.kinds & {NoteKind.FUTURE, NoteKind.NOTE, NoteKind.OWNER, NoteKind.PREFERENCE}
        and (context.ack_words is None or text_words(statement.bullet) & context.ack_words)
    ):
        score += rules.RECORDED.weight
    if context.corrected and _VALUE.search(statement.bullet):
        score += rules.CORRECTED_VALUE.weight
    if context.taken and not context.handed and not statement.prior and _asserts_value(statement):
        score += rules.HANDED_FACT.weight + rules.HANDED_VALUE.weight * min(
            3,
            len(_VALUE.findall(statement.bullet))
            + len(_CODE.findall(statement.bullet))  # a code or a price is two values
            + len(_PRICE.findall(statement.bullet)),
        )
    if _names_something(context.adopted & statement.ids) and not statement.kinds & INCIDENT:
        score += rules.ADOPTED_OWN_WORDS.weight
    if context.handed:
        score += rules.HANDED_ITEM.weight + rules.HANDED_VALUE.weight * min(
            3, len(_VALUE.findall(statement.bullet))
        )
    if context.confirmed_fact and statement.ids & (context.reply.ids if context.reply else frozenset()):
        score += rules.CONFIRMED_FACT.weight
    if label and context.chosen:
        score += rules.CHOSEN_ITEM.weight if label.casefold() == context.chosen else -rules.CHOSEN_ITEM.weight
    if LEX.HEDGE.search(text) and not context.accepted:
        score += rules.HEDGED.weight
    if LEX.NOT_CHOSEN.search(text):
        score += rules.NOT_CHOSEN.weight
    if LEX.PROBE.search(statement.bullet) and NoteKind.NOTE not in statement.kinds:
        score += rules.PROBE.weight  # "let's remember: …" is a marker, not a probe
    if context.rejected:
        score += rules.REJECTED.weight
    return max(score, 0.0)


# A measure, not a name: "12.4 GB", "220 MB/s", "45s" — how a run went, not where something is.
_MEASURE_ID = re.compile(r"-?\d+(?:\.\d+)?\s?(?:[kmgt]i?b(?:/s)?|[kmg]|ms|s|%)", re.IGNORECASE)


def _names_something(ids: frozenset[str]) -> bool:
    """An identifier that names a thing — a host, a path, an address, an account, a version, an IP, a long
    id — not a count or a measure ("导进去了 2381 笔", "未读变成 1391", "220 MB/s"): a status reports those."""
    return any(
        LONG_ID.fullmatch(i) or (not i.lstrip("-").isdigit() and not _MEASURE_ID.fullmatch(i)) for i in ids
    )


# A code written in letters and digits ("EK4419023", "K7QW2M9"): a passport, a booking, a serial.
_CODE = re.compile(r"(?<![\w.])(?=[A-Za-z0-9]*[A-Za-z])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{6,}(?![\w.])")


# A count ("导进去了 2381 笔", "1391 条未读", "420 rows"): how many there were, which a status reports.
_COUNTED = re.compile(
    r"\d[\d,.]*\s?(?:[笔条个次件张份行封]|(?:rows?|records?|items?|entries|files?|messages?|times)\b)",
    re.IGNORECASE,
)


# An amount of money: "£450", "¥5200", "450 元", "$1,950".
_PRICE = re.compile(r"[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:元|块|欧|美元|英镑|dollars|euros|pounds)")


def _asserts_value(statement: Statement) -> bool:
    """A fact handed over states what a note keeps: an identifier that names a thing, a code, an amount or
    time of two digits or more, ("Maurten 100", "£450", "新的是 EK4419023").
    A bare count or measure of how a run went is a status, not a value (see :func:`_names_something`)."""
    if _names_something(statement.ids) or _CODE.search(statement.bullet):
        return True
    return any(not _MEASURE_ID.fullmatch(q) for q in quantities(_COUNTED.sub(" ", statement.bullet)))


def _dismissed(statement: Statement) -> float:
    """The sentence says something no note keeps (chit-chat, a status, a one-off …): it scores nothing."""
    statement.dismissed = True
    return 0.0


_WRAP_UP_HEAD = 30  # characters of a sentence in which "So:" / "所以：" opens a summary


def _wraps_up(statement: Statement) -> bool:
    """ "So: `proxy-body-size: "50m"` on the billing-api Ingress …", "Confirmed: max 4 GPUs per user",
    "So going forward: Mullvad … unticked": the assistant answering the user with what now holds —
    a summary lead, and a value or a name in it, no hedge."""
    text = statement.text
    return (
        statement.role == "assistant"
        and bool(LEX.WRAP_UP.search(text[:_WRAP_UP_HEAD]))
        and bool(statement.ids or quantities(text) or NAME.search(text[_WRAP_UP_HEAD // 2 :]))
        and not LEX.HEDGE.search(text)
    )


def _clip(text: str) -> str:
    """A long bullet ends at its last clause boundary (";", "；", "。") within the limit; one with
    none stays whole. Never a cut marked "…": a note holds whole clauses (DESIGN §7)."""
    if len(text) <= MAX_BULLET_CHARS:
        return text
    cut = text[:MAX_BULLET_CHARS]
    boundary = max(cut.rfind(mark) for mark in ("；", "。", "; ", ". "))
    return cut[: boundary + 1].rstrip(" ;；") if boundary > MAX_BULLET_CHARS // 2 else text


def _subject_terms(statement: Statement) -> frozenset[str]:
    return _subject_terms_of(statement.bullet, statement.ids)


@text_cache
def _subject_terms_of(bullet: str, ids: frozenset[str]) -> frozenset[str]:
    terms = set(_keywords_of(bullet, ids))
    for identifier in ids:
        terms.update(w.casefold() for w in WORD.findall(identifier))
    return frozenset(terms - EN_COMMON_WORDS)


def shares_subject(a: Statement, b: Statement) -> bool:
    if _subject_terms(a) & _subject_terms(b):
        return True
    return len(cjk_bigrams(a.bullet) & cjk_bigrams(b.bullet)) >= 2


def keywords(statement: Statement) -> frozenset[str]:
    return _keywords_of(statement.bullet, statement.ids)


@text_cache  # grouping asks about each statement once per note it is compared with
def _keywords_of(bullet: str, ids: frozenset[str]) -> frozenset[str]:
    words = {w.casefold() for w in WORD.findall(bullet)}
    return frozenset(words - EN_COMMON_WORDS) | ids
