"""Later values: a value the chat changes or withdraws is never saved in its old form.

People change a value in the middle of a chat ("药房现在是 6152，6140 已经停用了", "8:30 is too dark …
moving it to 9:00", "不对 600 太狠了，定 800 吧", "Updated: … $110/month (was $95)"). Two things follow,
both structural (what the chat says later), not keyed on any topic:

* **Substitution** — a *change* names an earlier value again beside a new value of the same shape
  (a time, a phone-like number, an amount) in a message that says it changes something. The
  statements said before the change hold the new value instead of the old one, so the fact said
  once ("meet at the Old Mill car park at 8:30") is kept with the value that stands.
* **Withdrawn clauses** — a clause that only says what no longer holds ("旧的 6140 作废",
  "(was $95)", "Saffron Table 不用了", "old number … retired") is not part of the note: the bullet
  keeps its other clauses (:func:`without_withdrawn`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...text.identifiers import INLINE_CODE, identifiers
from ...vocabulary import NoteKind
from .chat import ACK_START, rejected_after
from .rules import MEASURE_CORRECTION_REACH
from .signals import LEX

if TYPE_CHECKING:
    from .chat import Message
    from .statements import Statement

# A value as people write it: a phone-like group of digits ("+65 9123 4408", "139 1766 2084"),
# a time of day ("9:00"), an amount ("$110", "1,800", "6152"). Two digits or more.
_VALUE = re.compile(
    r"(?<![\w.:+/-])(?:\+?\d{2,4}(?: \d{3,4}){1,3}|\d{1,2}:\d{2}|[$€£¥]?\d{1,3}(?:,\d{3})+|[$€£¥]?\d{2,}(?:\.\d+)?)"
    r"(?![\d:,]\d|[A-Za-z\d])"  # never the head of a longer number or of "200m"
)

# Words that say a value changes: "changed", "moving it to", "now", "改成", "换成", "不对", "新的是".
_CHANGE = re.compile(
    r"(?<![A-Za-z])(?:chang(?:e|ed|ing)|mov(?:e|ed|ing)(?: it)? to|now|instead|actually|updated?|"
    r"new (?:one|number|value|address|time|price|rate)|no longer|switch(?:ed)? to|bump(?:ed)? to|"
    r"raised? to|lowered? to|make (?:it|that)|correction|scratch that|was wrong)(?![A-Za-z])"
    r"|改成|改为|改到|换成|换了|调到|调成|挪到|定成|定\s*\d|不对|新的|新号码|现在是|现在|停用|作废|不用了|更新|更正|其实是",
    re.IGNORECASE,
)

# A value marked as the old one: "旧的 6140", "原来那个 137", "(was $95)", "changed from 6379".
_OLD_BEFORE = re.compile(
    r"(?:旧的|原来的?那?个?|之前的?那?个?|以前的?|老的)\s*$"
    r"|(?<![A-Za-z])(?:was|previously|formerly|used to be|changed from|moved from|up from|down from|old)\s*$",
    re.IGNORECASE,
)
# … or followed by its withdrawal: "6140 已经停用了", "+65 9123 4408 不用了".
_WITHDRAWN = re.compile(
    r"已?经?(?:停用|作废|不用了|不要了|废弃|弃用|取消了|不再用)"
    r"|(?<![A-Za-z])(?:no longer (?:used|valid|in use|works?)|retired|deprecated|scrapped|dropped|not used any ?more)"
    r"(?![A-Za-z])",
    re.IGNORECASE,
)
_OLD_LOOKBACK = 8  # characters before a value in which "旧的" / "was" marks it as the old one


@dataclass(frozen=True)
class Change:
    """At message ``at`` the chat replaced ``old`` by ``new`` (``new`` is None when it only withdrew it)."""

    at: int
    old: str
    new: str | None


def chat_values(text: str) -> list[str]:
    return [m.group(0) for m in _VALUE.finditer(text)]


def _value_at(text: str, value: str) -> int:
    """Where ``value`` stands in ``text`` as a whole value (600 is not inside 1600 or 18:30's 8:30), or -1."""
    pattern = _pattern_of(value)
    return next((m.start() for m in pattern.finditer(text) if m.group(0) == value), -1)


def _replace_value(text: str, old: str, new: str) -> str:
    pattern = _pattern_of(old)
    return pattern.sub(lambda m: new if m.group(0) == old else m.group(0), text)


def _pattern_of(value: str) -> re.Pattern[str]:
    """The shape ``value`` is found by: a measure, a value, or (a reassigned setting) its own text."""
    if _MEASURE.fullmatch(value):
        return _MEASURE
    if _VALUE.fullmatch(value) or not _ASSIGNMENT.fullmatch(value):
        return _VALUE
    return re.compile(r"(?<![\w.-])" + re.escape(value) + r"(?![\w.])")


# A measure: a number with its unit ("20mg", "10 mg", "3 km", "45 秒"). A correction that gives one
# replaces the one of the same unit said just before. Not a share ("30%"): a deposit and a tax are two.
_MEASURE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s?(mg|mcg|µg|ml|kg|km|cm|mm|gb|mb|tb|g|l|m|元|块|刀|公里|分钟|小时|秒|次|片|粒)(?![A-Za-z])",
    re.IGNORECASE,
)
# A user message opening by correcting what it said: "sorry, 10mg", "actually 3 km", "不对，是 2 片".
_CORRECTION = re.compile(
    # not "actually": "actually, VAT is 13% on top" adds a fact, it corrects none
    r"^\W*(?:哦|噢|啊|呃)?\s*(?:不对|说错了|错了|更正|sorry|oops|correction|my (?:bad|mistake))(?![A-Za-z])",
    re.IGNORECASE,
)


def find_refuted(chat: Sequence[Message]) -> list[Change]:
    """ "我猜你之前连不上可能是因为防火墙没放行 873 端口？" — "不是，rsync 走 ssh 根本不用 873，…": a value the
    assistant named in a guess that the user's next message turns down, naming it again, is a disproven
    hypothesis: it is withdrawn (no new value), and the clauses naming it leave every bullet."""
    changes: list[Change] = []
    for index, message in enumerate(chat):
        if index == 0 or message.role != "user" or message.is_paste or not _REFUSAL.search(message.prose):
            continue
        guess = chat[index - 1]
        if guess.role != "assistant" or guess.is_paste:
            continue
        guessed = {
            value
            for _, sentence in guess.items
            if LEX.HEDGE.search(sentence)
            for value in chat_values(sentence)
        }
        changes.extend(
            Change(index, value, None) for value in sorted(guessed) if value in chat_values(message.prose)
        )
    return changes


# The user turns the assistant's guess down: "不是，…", "不对，…", "no, …", "nope", "not that".
# Not "不是吧" / "no doubt" / "no problem": surprise and agreement open like a refusal.
_REFUSAL = re.compile(
    r"^\W*(?:不是(?![吧说啊呀])|不对|并不是|no(?!\s+(?:doubt|problem|worries|way\b))|nope|not (?:that|it))(?![A-Za-z])",
    re.IGNORECASE,
)


def find_corrections(chat: Sequence[Message]) -> list[Change]:
    """ "new one, atorvastatin 20mg at night" — "Got it: atorvastatin 20mg" — "sorry, 10mg. I misread
    the box": a user message that opens by correcting (or an acknowledgement that does: "好的，更正为 62
    元/块") and gives one measure replaces the one measure of that unit said in the few messages before,
    though it does not name the old one."""
    changes: list[Change] = []
    for index, message in enumerate(chat):
        if message.is_paste or not _corrects(message):
            continue
        given = list(_MEASURE.finditer(message.prose))
        if len(given) != 1:
            continue
        amount, unit = given[0].group(1), given[0].group(2).casefold()
        if message.role == "assistant" and not _backed_by_user(chat, index, amount, unit):
            continue
        for before in reversed(chat[max(0, index - MEASURE_CORRECTION_REACH) : index]):
            # the latest message naming a measure of that unit is the one corrected
            earlier = [
                m.group(0)
                for m in _MEASURE.finditer("" if before.is_paste else before.prose)
                if m.group(2).casefold() == unit and m.group(1) != amount
            ]
            if earlier:
                if len(set(earlier)) == 1:
                    changes.append(Change(index, earlier[0], given[0].group(0)))
                break
    return changes


# A setting given a value: `listen_port = 6432`, `OnCalendar=*-*-* 03:00:00`, "改成 repo1-retention-full=4".
# In code (a line of a block, an inline span) the value runs to the end; in prose it is one token.
_ASSIGNMENT = re.compile(r"(?<![\w.-])([A-Za-z_][\w.-]*[\w])( ?= ?)(\S[^\n`]*)")
_PROSE_VALUE_END = re.compile(r"[\s,;，。；、）)'\"]")
# Words that settle on a value ("最终 …=6", "final", "instead") besides the change words.
_SETTLES = re.compile(
    r"最终|最后定|(?<![A-Za-z])(?:final(?:ly)?|instead|let's go with)(?![A-Za-z])", re.IGNORECASE
)


def _assignments(message: Message) -> list[tuple[str, str]]:
    """The settings a message assigns, as (setting, "setting=value" as written)."""
    found: list[tuple[str, str]] = []
    code = [line for block in _code_of(message.text) for line in block.splitlines()]
    for line in code:
        match = _ASSIGNMENT.match(line.strip())
        if match:
            found.append((match.group(1), match.group(0).rstrip(" ;,")))
    # the prose and its inline code spans are read on one string: an offset means the same in both
    spans = [span.span() for span in INLINE_CODE.finditer(message.prose)]
    for match in _ASSIGNMENT.finditer(message.prose):
        value = _PROSE_VALUE_END.split(match.group(3), maxsplit=1)[0]
        if value and not any(start < match.start() < end for start, end in spans):
            found.append((match.group(1), match.group(1) + match.group(2) + value))
    return found


def _code_of(text: str) -> list[str]:
    blocks = re.findall(r"```[^\n]*\n(.*?)```", text, flags=re.DOTALL)
    return blocks + re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", " ", text, flags=re.DOTALL))


def find_reassigned(chat: Sequence[Message]) -> list[Change]:
    """ "`listen_port = 6432`" … "6543" — "Updated: `listen_port = 6543`": a setting the chat assigns again,
    to another value, in a turn that says it changes or settles ("make it 03:30", "还是 6 吧" — "最终
    repo1-retention-full=6"), replaces its earlier value. Only the differing value is the change when it
    is a plain value (6432 → 6543, so "yes 6432" reads 6543 too); otherwise the whole assignment is.
    The assistant's new value counts only as the answer to the user asking for it, never as its own
    offer ("If 6432 ever clashes you could use `listen_port = 6543`", "如果以后冲突，可以改成 …") or one
    the user turns down."""
    changes: list[Change] = []
    latest: dict[str, str] = {}  # setting → its assignment as last written
    for index, message in enumerate(chat):
        assigned = _assignments(message)
        if not assigned:
            continue  # most messages set nothing: their turn is never read
        start = _turn_start(chat, index)
        turn = " ".join(m.prose for m in chat[start : index + 1] if not m.is_paste)
        says_change = bool(_CHANGE.search(turn) or _SETTLES.search(turn))
        for setting, written in assigned:
            before = latest.get(setting)
            if _proposed(chat, index, before, written, setting):
                continue  # a value the assistant proposed, not the one that stands
            latest[setting] = written
            if before is None or _value_part(before) == _value_part(written) or not says_change:
                continue
            old_tokens, new_tokens = _tokens_only_in(before, written), _tokens_only_in(written, before)
            if len(old_tokens) == 1 and len(new_tokens) == 1 and chat_values(old_tokens[0]) == old_tokens:
                changes.append(Change(index, old_tokens[0], new_tokens[0]))
            else:
                changes.append(Change(index, before, written))
    return changes


# A value put as a possibility, not a decision: "if it clashes", "you could use", "如果以后冲突，可以改成".
_HYPOTHETICAL = re.compile(
    r"(?<![A-Za-z])(?:if|could|might|in case|whenever|should you)(?![A-Za-z])|如果|要是|假如|万一|可以改|可以换|可以用",
    re.IGNORECASE,
)


def _proposed(chat: Sequence[Message], index: int, before: str | None, written: str, setting: str) -> bool:
    """The assistant gives ``setting`` another value as its own offer, unasked, or turned down."""
    message = chat[index]
    if message.role != "assistant" or before is None or _value_part(before) == _value_part(written):
        return False
    return _offered(message, setting) or not _asked_for(chat, index, before, written)


def _offered(message: Message, setting: str) -> bool:
    """The sentence assigning ``setting`` (for a block, the words leading into it) offers or supposes it.
    Advice after a block ("If it still fails, …") is no offer of the value in it."""
    lead = re.split(r"[.。!！?？\n]\s*(?=\S)", message.text.split("```", 1)[0].strip())[-1]
    said = [sentence for _, sentence in message.items if setting in sentence] or [lead]
    return any(_HYPOTHETICAL.search(sentence) or LEX.OFFER.search(sentence) for sentence in said)


def _asked_for(chat: Sequence[Message], index: int, before: str, written: str) -> bool:
    """The assistant's reassignment answers the user's turn just before asking for the change (naming
    the new value, or saying it changes / settles), and the user does not then turn it down."""
    start = _turn_start(chat, index)
    asked = " ".join(m.prose for m in chat[start:index] if m.role == "user" and not m.is_paste)
    if not asked or rejected_after(list(chat), index):
        return False
    new_tokens = _tokens_only_in(written, before)
    names_new = any(re.search(r"(?<![\w.])" + re.escape(token) + r"(?![\w.])", asked) for token in new_tokens)
    return names_new or bool(_CHANGE.search(asked) or _SETTLES.search(asked))


def _tokens_only_in(assignment: str, other: str) -> list[str]:
    """The words of ``assignment``'s value that ``other``'s value lacks (what a reassignment changed)."""
    theirs = _value_part(other).split()
    return [t for t in _value_part(assignment).split() if t not in theirs]


def _value_part(assignment: str) -> str:
    match = _ASSIGNMENT.match(assignment)
    return match.group(3).strip() if match else assignment


def _corrects(message: Message) -> bool:
    """The user opens by correcting ("sorry, 10mg"), or the assistant's acknowledgement does with the
    word itself ("好的，更正为 62 元/块", "OK, correction: 2.5mg") — it takes down a value that replaces
    the one it wrote before. "Sorry to hear …" / "sorry for the wait" / "不对的地方请指出" correct nothing."""
    if message.role == "user":
        return bool(_CORRECTION.search(message.prose))
    opener = ACK_START.match(message.prose)
    rest = message.prose[opener.end() :] if opener else message.prose
    return bool(_EXPLICIT_CORRECTION.match(rest))


# The assistant's own correction says so: "correction:", "更正为".
_EXPLICIT_CORRECTION = re.compile(r"^\W*(?:更正|correction)(?![A-Za-z])", re.IGNORECASE)


def _backed_by_user(chat: Sequence[Message], index: int, amount: str, unit: str) -> bool:
    """An assistant's corrected measure stands on the user's message just before: it names that measure,
    or no measure of that unit at all ("half of what she had"); never one the user just said otherwise."""
    said = next((m for m in reversed(chat[:index]) if m.role == "user" and not m.is_paste), None)
    if said is None:
        return False
    theirs = [m for m in _MEASURE.finditer(said.prose) if m.group(2).casefold() == unit]
    return not theirs or any(m.group(1) == amount for m in theirs)


def _shape(value: str) -> str:
    digits = sum(c.isdigit() for c in value)
    if ":" in value:
        return "time"
    if digits >= 7:
        return "phone"
    return "amount"


def _marked_old(text: str, value: str) -> bool:
    at = _value_at(text, value)
    if at < 0:
        return False
    before = text[max(0, at - _OLD_LOOKBACK) : at]
    after = text[at + len(value) : at + len(value) + 8]
    return bool(_OLD_BEFORE.search(before) or _WITHDRAWN.match(after.lstrip()))


def find_changes(chat: Sequence[Message]) -> list[Change]:
    """Each value the chat names again, beside a new one of the same shape, in a message that says
    it changes something (or marks it old): the old value and the one that replaces it."""
    changes: list[Change] = []
    first_named: dict[str, int] = {}  # each value → the first message naming it
    for index, message in enumerate(chat):
        if not message.is_paste:
            for value in chat_values(message.prose):
                first_named.setdefault(value, index)
    for index, message in enumerate(chat):
        if message.is_paste or not _CHANGE.search(message.prose):
            continue
        start = _turn_start(chat, index)
        span = " ".join(m.prose for m in chat[start : index + 1] if not m.is_paste)
        before = {value for value, first in first_named.items() if first < start}  # named before the turn
        said = chat_values(span)
        olds = [v for v in dict.fromkeys(said) if v in before and _is_old(span, v, said, before)]
        if not olds:
            continue
        fresh = [v for v in dict.fromkeys(said) if v not in before]
        for old in olds:
            same = [v for v in fresh if _shape(v) == _shape(old) and v != old]
            changes.append(Change(index, old, same[0] if len(same) == 1 else None))
    return changes


def _is_old(span: str, value: str, said: list[str], before: set[str]) -> bool:
    """An earlier value is the old one when the span marks it so, or names it once beside exactly one
    new value of the same shape that a change word introduces ("600 太狠了 … 定 800", "8:30 is too
    dark … moving it to 9:00"). "避开 03:00 … 放到 05:00" names both without replacing one by the other."""
    if _marked_old(span, value):
        return True
    fresh = [v for v in dict.fromkeys(said) if v not in before and _shape(v) == _shape(value)]
    if len(fresh) != 1 or said.count(value) != 1:
        return False
    at = _value_at(span, fresh[0])
    return bool(_CHANGE.search(span[max(0, at - _CHANGE_REACH) : at + len(fresh[0])]))


_CHANGE_REACH = 14  # characters before the new value in which the change word stands ("moving it to 9:00")


def _turn_start(chat: Sequence[Message], index: int) -> int:
    """The first message of the exchange ``index`` ends: the user's messages just before it."""
    start = index
    while start > 0 and chat[start - 1].role == "user":
        start -= 1
    return start


def rewrite_before_changes(chat: Sequence[Message], changes: Sequence[Change]) -> None:
    """The messages said before a change name the value that replaced the old one, so every later
    step (scoring, grouping, comparing) reads the chat as it stands. Each such message is marked
    ``updated``: a correction after it no longer means its value was replaced."""
    for change in changes:
        if change.new is None:
            continue
        for message in chat[: _turn_start(chat, change.at)]:
            if message.is_paste or _value_at(message.prose, change.old) < 0:
                continue
            message.text = _replace_value(message.text, change.old, change.new)
            message.prose = _replace_value(message.prose, change.old, change.new)
            message.items = [
                (label, _replace_value(text, change.old, change.new)) for label, text in message.items
            ]
            message.ids = frozenset(identifiers(message.prose))
            message.updated = True


def drop_old_values(chat: Sequence[Message], scored: Sequence[Statement], changes: Sequence[Change]) -> None:
    """A statement at or after a change that still names the old value keeps only its other clauses
    ("药房现在是 6152，6140 已经停用了" → "药房现在是 6152"); one that only said it scores nothing."""
    for change in changes:
        start = _turn_start(chat, change.at)
        for statement in scored:
            if statement.message < start and change.new is not None:
                continue  # rewritten already, or a narrative of what happened then
            if _value_at(statement.bullet, change.old) < 0 or statement.kinds & _NARRATIVE:
                continue
            kept = without_value(statement.bullet, change.old)
            if kept is None:
                statement.score = 0.0
                statement.dismissed = True
            else:
                statement.bullet = kept


# A root cause tells what happened with the value of its time, not the value now in force.
_NARRATIVE = frozenset({NoteKind.ROOT_CAUSE})

_CLAUSE_END = "，,；;。()（）"


def _clause_bounds(text: str, at: int, end: int) -> tuple[int, int]:
    left = max(text.rfind(mark, 0, at) for mark in _CLAUSE_END)
    rights = [p for p in (text.find(mark, end) for mark in _CLAUSE_END) if p >= 0]
    return left + 1, (min(rights) if rights else len(text))


def without_value(bullet: str, value: str) -> str | None:
    """``bullet`` without the clause that names ``value``; None when nothing else is left."""
    at = _value_at(bullet, value)
    if at < 0:
        return bullet
    start, end = _clause_bounds(bullet, at, at + len(value))
    return _cut(bullet, start, end)


def _cut(bullet: str, start: int, end: int) -> str | None:
    if start > 0 and bullet[start - 1] in "(（" and end < len(bullet) and bullet[end] in ")）":
        start, end = start - 1, end + 1  # "(was $95)" goes with its brackets
    elif start > 0:
        start -= 1  # the mark that opened the clause
    elif end < len(bullet):
        end += 1  # … or, for the first clause, the one that closed it
    rest = (bullet[:start] + bullet[end:]).strip()
    if _bracket_depths(rest) != _bracket_depths(bullet):
        return bullet  # the clause runs across a bracket: cutting it would leave one open, keep it whole
    rest = re.sub(r"\s+([，,；;。.])", r"\1", rest)
    rest = re.sub(r"[，,；;]+(?=[。.]?$)", "", rest).strip()
    rest = re.sub(r"^[，,；;:：\s]+", "", rest)
    if len(re.sub(r"[\W_]+", "", rest)) < 4:
        return None
    if bullet.rstrip().endswith(("。", ".")) and not rest.endswith(("。", ".", "!", "?", "！", "？")):
        rest += bullet.rstrip()[-1]
    return rest


def _bracket_depths(text: str) -> tuple[int, int]:
    return text.count("(") - text.count(")"), text.count("（") - text.count("）")


def without_withdrawn(bullet: str) -> str:
    """ "药房现在是 6152，旧的 6140 作废。" → "药房现在是 6152。"; "Swim club $110/month (was $95)." →
    "Swim club $110/month."; "…，+65 6322 9017；Saffron Table 不用了。" → "…，+65 6322 9017。"
    A clause that only says what no longer holds goes, when the bullet says something else; so does the
    old value of a change said in one breath ("优甲乐从 75 微克减到 62.5 微克" → "优甲乐减到 62.5 微克")."""
    bullet = without_old_of_change(bullet)
    for _ in range(3):
        cut = _withdrawn_clause(bullet)
        if cut is None:
            return bullet
        rest = _cut(bullet, *cut)
        if rest is None:
            return bullet
        bullet = rest
    return bullet


def _withdrawn_clause(bullet: str) -> tuple[int, int] | None:
    for match in _WITHDRAWN.finditer(bullet):
        start, end = _clause_bounds(bullet, match.start(), match.end())
        if _CHANGE_NEW.search(bullet[start:end]):
            continue  # "旧的停用，以后打 152…" in one clause: the new value is in it
        return start, end
    for match in _VALUE.finditer(bullet):
        if _OLD_BEFORE.search(bullet[max(0, match.start() - _OLD_LOOKBACK) : match.start()]):
            start, end = _clause_bounds(bullet, match.start(), match.end())
            if len(chat_values(bullet[start:end])) == 1:
                return start, end
    return None


# A clause that also gives the value now in force is not only a withdrawal.
_CHANGE_NEW = re.compile(
    r"现在|新的?|改成|改为|换成|以后|(?<![A-Za-z])(?:now|new|instead)(?![A-Za-z])", re.IGNORECASE
)


# "从 75 微克减到 62.5", "从 88 改成 100": the old value of a change and its unit, before the verb of change.
_FROM_OLD_ZH = re.compile(
    r"从\s*[$€£¥]?\d[\d.,:]*\s?[^\s\d，。,；;、]{0,3}?\s*"
    r"(?=(?:改|减|涨|调|升|降|增|加|换|提|变|挪|延|推|缩)[^\s，。,；;]{0,2}?(?:到|成|为|至)\s*[$€£¥]?\d)"
)
# "raised the limit from 88 to 100", "moved it from 8:30 to 9:00": a change verb, then "from X to Y".
_FROM_OLD_EN = re.compile(
    r"(?<![A-Za-z])((?:[a-z]+ed|[a-z]+ing|went|goes|go|up|down)(?:\s+[\w-]+){0,2}?)"
    r"\s+from\s+[$€£¥]?\d[\d.,:]*\s?[A-Za-z%]{0,6}\s+(?=to\s+[$€£¥]?\d)",
    re.IGNORECASE,
)


# "以前 line-length 是 88 现在改 100 了", "the limit was 88, now 100": the old value said just before "now".
_BEFORE_NOW_ZH = re.compile(
    r"(?:以前|之前|原来)(?!的)\s*([^，。,；;\d]{0,20}?)\s*(?:是|为|用)?\s*[$€£¥]?\d[\d.,:]*\s?[^\s\d，。,；;]{0,3}?\s*[，,]?\s*"
    r"(?=现在)"
)
_BEFORE_NOW_EN = re.compile(
    r"\s+(?:was|used to be)\s+[$€£¥]?\d[\d.,:]*\s?[A-Za-z%]{0,6}\s*[,;]?\s+(?=now\s)", re.IGNORECASE
)


def without_old_of_change(bullet: str) -> str:
    """A change said in one sentence keeps its new value only: "从 88 改成 100" → "改成 100",
    "raised it from $95 to $110" → "raised it to $110". A range ("open from 9 to 5", "从 1 月到 3 月")
    has no verb of change and stays."""
    if "`" in bullet:
        return bullet  # never inside code
    bullet = _FROM_OLD_ZH.sub("", bullet)
    bullet = _BEFORE_NOW_ZH.sub(lambda m: m.group(1).strip() + " " if m.group(1).strip() else "", bullet)
    bullet = _BEFORE_NOW_EN.sub(" ", bullet)
    return _FROM_OLD_EN.sub(lambda m: m.group(1) + " ", bullet)
