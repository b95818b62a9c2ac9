"""A note's bullets in the form a person keeps: the fact on its own, not the chat line (DESIGN §7).

Applied last, to the bullets an entry will show (scoring and grouping read the sentences as
said). Three jobs, each general to how people and assistants talk, in English and Chinese:

* **Lead-ins** — what opens a chat line but belongs to the conversation: an
  acknowledgement, an apology, a discovery or "here it is" announcement before a colon
  ("There it is:", "That's the rule:", "原因找到了：", "规则就是：", "抱歉，"). A label a
  note would keep ("Fix:", "根因：") stays; "确认根因：" keeps only its label.
* **Relative dates** — "yesterday", "昨天" become the date they meant (the message's own
  date); week-level ones ("last week", "上周") that no single date can replace are dropped.
* **Asides** — a clause around the fact that only comments on it ("你最近 emoji 有点多",
  "看着很乱", "that's church and then brunch with my mom") goes when the fact stands without
  it: no value, no rule marker, and a comment word or a first person in it. Addressing the
  assistant ("以后你先给结论", "帮我", "发给你") becomes the rule itself ("以后先给结论").
* **Clipping** — never: a bullet is the whole sentence (:func:`statements` no longer cuts
  with "…").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from datetime import date, datetime, timedelta
from itertools import pairwise

from ...text.cjk import HAN, has_cjk, is_cjk
from ...text.identifiers import values
from ...vocabulary import NoteKind
from .clauses import clean_zh_statement
from .later_values import without_withdrawn
from .words import fact_terms

__all__ = ["message_date", "once_each", "owner_voice", "tidy_bullet"]

# Announcements that open a line before its content; a colon, comma or dash ends them.
_EN_LEAD = (
    r"there it is|there we go|here it is|here's the thing|that's it|that's (?:the|your|our) "
    r"(?:rule|cause|culprit|problem|issue|fix|one|answer|reason)|the rule is|make that the rule|found it"
    r"|found the (?:cause|culprit|problem|issue|bug)|bingo|nailed it|odd|weird|interesting|aha|sorry|apologies"
    r"|my bad|actually|anyway|in short|long story short|good catch|good news|as expected|makes sense"
    r"|that explains it|that matches|you're right|right|so|well|will do|then|that's the catch|here's the catch"
    r"|the catch is|one more for you|one more|noted|got it|saved|added|updated|recorded|done deal|done|confirmed"
    r"|i'll note that|(?:a|one|the) (?:simple |small |quick |golden |general )?rule(?: of thumb)?"
    r"|no|yes|yeah|yep|nope|ok|okay|sure|alright|great|perfect|cool"  # a reply word before the fact
    r"|thinking about it|on reflection|come to think of it|having thought about it"  # a second thought's lead
    r"|annoying,? but fine|fine|fair enough|good idea|great idea|sounds good|works for me"  # a verdict on it
)
_ZH_LEAD = (
    r"原因找到了|找到原因了|问题找到了|找到问题了|找到了|就是这个|那就对了|这就对了|这就是原因|规则就是|结论就是|规矩就是"
    r"|就这么定了?|就这么办|那就这样|那就这么定|定了|抱歉|不好意思|对不起|小提醒|提醒一下|顺便记一下|顺便说一下|顺便|说实话|其实|果然|原来如此|你说得对|确实|懂了|搞定了?"
    r"|我看了一下|我查了一下|我从[^，。：:]{0,16}看到的是|还是同一个问题|同一个问题|这条值得记下来|值得记下来|还有一个事|还有件事"
    r"|还有一件事|改一下|更新一下|更正一下|补充一下|已更新|更新|已记录|已添加|改"
    r"|决定了|要的?|对的?|是的|没错|嗯+"  # the reply to the assistant's question before the fact ("要，电信宽带账号 …")
    r"|[一二两三四五六七八九十\d]+\s*条(?=\s*[:：])"  # "三条：" counts the rules that follow
    r"|(?:那就|这就|这下)?(?:对得上了?|对上了)|好主意|这么干|就这么干|有道理|问了|问过了|查了|查过了"  # a verdict or a report on asking
    r"|很好|太好了|好极了|完美|漂亮"  # praise before the fact
)
_LEAD = re.compile(
    rf"^\s*(?:(?:{_EN_LEAD})\s*(?:[:,—–]|\s-\s)|(?:{_ZH_LEAD})\s*[:：，,—]|(?:顺便|另外)?(?:记一下|提醒一下)\s)\s*",
    re.IGNORECASE,
)
# Corrections, hesitations and bookkeeping that open a chat line: "更正：", "改为：", "Wait,",
# "Saved:", "刚记下：", "收到～", "One more thing:", "第四个，". What follows is the fact itself
# (the correction's new value, the thing saved); the marker belongs to the conversation.
_ZH_MARK = (
    r"更正|纠正|修正|改正|改为|改成|改|不对|等等|等一下|稍等|哦不|刚记下|已记下|记下了?|记好了|收到了?|好的?|确认"
    r"|补充|看|第\s*[一二三四五六七八九十\d]+\s*[个条点件步]"
    r"|(?:补进|记到|记进|加到|写进)[^：:，,。]{0,20}?(?:记录|笔记|备忘录?)里?"  # "补进 matrix 的记录里："
)
_EN_MARK = (
    r"wait|actually|correction|hmm+|oops|scratch that|on second thought|saved|added|noted|recorded|updated"
    r"|confirmed|one more thing|for the record|to be clear(?: what we decided)?|just to confirm|to confirm"
    r"|deal|i'll note(?: that)?|let me note(?: that)?|noting that|(?:so,? )?(?:going forward|from now on)(?=:)"
    r"|so|(?:please )?(?:note|remember|save|record) (?:this|that)(?: down)?(?: for me)?"  # a request to the assistant
)
# An emoji or a symbol a chat line opens with ("👌 So going forward: …") says nothing in a note.
_SYMBOL_LEAD = re.compile(r"^[\s\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+(?=\S)")
_MARK = re.compile(
    rf"^\s*(?:(?:{_ZH_MARK})\s*(?:[:：，,!！]|[~～]+)|(?:{_EN_MARK})(?![\w'])\s*(?:[:,—–!]|\s-\s|(?=\s[a-z])))\s*",
    re.IGNORECASE,
)

# "确认根因：" / "Confirmed root cause:" — the label is worth keeping, the chat's "confirmed" is not.
_CONFIRMED_LABEL = re.compile(
    r"^\s*(?:确认|已确认)(根因|原因)\s*[:：]|^\s*confirmed (root cause|cause)\s*:", re.IGNORECASE
)

# "根因是：" / "The cause is:" — a label said as a sentence; the note keeps the label ("根因：").
_SPOKEN_LABEL = re.compile(
    r"^\s*(根因|原因|结论|修法|做法)\s*(?:就)?是\s*[:：]\s*|^\s*the (root cause|cause|fix) (?:is|was)\s*:\s*",
    re.IGNORECASE,
)


def _spoken_label(match: re.Match[str]) -> str:
    label = match.group(1) or match.group(2)
    return f"{label}：" if match.group(1) else f"{label[:1].upper()}{label[1:]}: "


# "Remember to open 6543 in …", "Don't forget to …": the reminder is the chat's, the note says what to do.
_EN_REMEMBER_TO = re.compile(
    r"^(?:remember|don't forget|do not forget|make sure) to\s+(?=[a-z])", re.IGNORECASE
)


# "以前 line-length 是 88 现在改 100 了": a change told as then-and-now states the change itself,
# "line-length 从 88 改为 100。" (the old value named as replaced, never as current).
_ZH_THEN_AND_NOW = re.compile(
    r"^(?:以前|之前|原来)\s*(?P<what>[^，,。：:\s是][^，,。：:是]{0,29}?)\s*是\s*(?P<old>[^\s，,。是]+)\s*[，,]?\s*"
    r"现在(?:改成|改为|换成|改|是)\s*(?P<new>[^\s，,。][^，,。]*?)\s*了?\s*[。.]?$"
)


def _then_and_now(bullet: str) -> str:
    match = _ZH_THEN_AND_NOW.match(bullet)
    if match is None:
        return bullet
    said = ""
    for piece in (match["what"], "从", match["old"], "改为", match["new"]):
        # a space only beside a Latin word or a value: between two Chinese words it is a spoken comma
        said += "" if not said or (is_cjk(said[-1]) and is_cjk(piece[0])) else " "
        said += piece
    return said + "。"


# "Then set …", "And keep …": a line that opened with a joining word goes on from the chat's last
# line; the note states the step on its own.
_EN_JOINER = re.compile(r"^(?:and then|then|and|also|plus)\s+(?=[a-z`])", re.IGNORECASE)


def _without_joiner(bullet: str) -> str:
    rest = _EN_JOINER.sub("", bullet, count=1)
    if rest == bullet or len(rest) < 12:
        return bullet
    return rest[:1].upper() + rest[1:]


_DAY_WORDS = {
    "today": 0, "tonight": 0, "this morning": 0, "yesterday": -1, "tomorrow": 1,
    "今天": 0, "今晚": 0, "今早": 0, "昨天": -1, "昨晚": -1, "前天": -2, "明天": 1, "后天": 2,
}  # fmt: skip
_DAY = re.compile(
    r"(?<![\w'])(?:today|tonight|this morning|yesterday|tomorrow)(?!['\w])|今天|今晚|今早|昨天|昨晚|前天|明天|后天",
    re.IGNORECASE,
)
# Week-level words no single date replaces: dropped with the space or particle that joins them.
_WEEK = re.compile(
    r"(?<![\w'])(?:last|this|next) (?:week|month)(?!['\w])\s*|(?:上|这|本|下)(?:周|个?星期|个?月)(?![一二三四五六日天末的])"
)


def message_date(timestamp: object) -> date | None:
    """The calendar day of a message's timestamp (ISO text or epoch ms), if it has one."""
    if isinstance(timestamp, (int, float)) and timestamp > 0:
        return datetime.fromtimestamp(timestamp / 1000).date()
    if isinstance(timestamp, str) and timestamp:
        try:
            return datetime.fromisoformat(timestamp).date()
        except ValueError:
            return None
    return None


# A request to the assistant as a sentence of its own ("Can you note that?", "Please remember this."):
# the conversation asking to keep the fact, not the fact.
_EN_KEEP_REQUEST = re.compile(
    r"(?:^|(?<=[.!?])\s+)(?:(?:can|could|would) you |please |pls )?(?:also )?(?:note|remember|save|record|keep)"
    r" (?:this|that|it)(?: down| in mind)?(?: for me)?(?:,? please)?\s*[.!?]*\s*$",
    re.IGNORECASE,
)
# What the fact spares the speaker ("…, so I don't have to leave early"): their plan, not the fact.
_EN_SPARED = re.compile(
    r",?\s+so (?:that )?(?:I|we) (?:don't|won't|do not|will not|no longer) (?:have|need) to [^.;!?]*(?=[.;!?]|$)",
    re.IGNORECASE,
)


# A sentence that asks the assistant to do something ("convert the whole thing please", "Can you
# check it?"): the conversation's request, not the fact around it.
_EN_ASK = re.compile(
    r"(?:^|(?<=[.!?])\s+)(?:(?:can|could|would) you|please|pls)\b[^.!?]*[.!?]*\s*$"
    r"|(?:^|(?<=[.!?])\s+)[^.!?`]*\b(?:please|pls|thanks|thank you)\s*[.!?]*\s*$",
    re.IGNORECASE,
)
# "Note it only applies to …", "Note that …": the reminder is the chat's; the note states the fact.
_EN_NOTE_THAT = re.compile(
    r"^(?:note|remember|keep in mind)(?: that)?\s+(?=(?:it|this|these|they|the|there)\b)", re.IGNORECASE
)


def _without_requests(bullet: str) -> str:
    kept = _EN_SPARED.sub("", _EN_KEEP_REQUEST.sub("", bullet)).strip()
    if not has_cjk(kept):
        asked = _EN_ASK.sub("", kept).strip()
        if len(asked) >= 12 and asked != kept:
            kept = asked  # the request goes when a statement is left
        reminded = _EN_REMEMBER_TO.sub("", kept)
        if reminded != kept and len(reminded) >= 12:
            kept = reminded[:1].upper() + reminded[1:]
        noted = _EN_NOTE_THAT.sub("", kept)
        if noted != kept and len(noted) >= 12:
            kept = noted[:1].upper() + noted[1:]
    return kept or bullet


def tidy_bullet(text: str, day: date | None = None, role: str = "user", chat: str = "") -> str:
    """``text`` without the chat's lead-ins, its relative dates resolved against ``day`` (or dropped);
    "" for a line that states nothing (a table's header row). A line the assistant said speaks of
    the owner in the owner's voice (:func:`owner_voice`). An identifier that opens the line is
    written as ``chat`` writes it ("v1.8.1", "db-lax-1", not "V1.8.1")."""
    tidy = _tidy(text, day, role)
    if chat and _bare_value(tidy):
        said = _said_with_context(tidy, chat)
        if said:
            tidy = _tidy(said, day, "user")
    return _as_written(tidy, chat)


# "TN-2448。", "TP409218773.", "510300 和 513500。": values with no word saying what they are — most
# often the assistant echoing what the user had just said in full.
_BARE_JOINERS = re.compile(r"(?<![\w])(?:and|or|和|或|及|与|、)(?![\w])", re.IGNORECASE)


def _bare_value(bullet: str) -> bool:
    rest = re.sub(r"`[^`]*`", " ", bullet)
    rest = _BARE_JOINERS.sub(" ", rest)
    words = [w for w in re.split(r"[\s,，;；:：。.!！?？()（）]+", rest) if w]
    return (
        bool(words)
        and len(words) <= 3
        and all(re.search(r"\d|[_@#]|[A-Za-z]+-[A-Za-z0-9]", w) for w in words)
    )


_ASKED_OR_GUESSED = re.compile(
    r"[?？]\s*$|我猜|可能是|也许|是不是|(?<![\w'])(?:i guess|maybe|perhaps|probably|might be)(?![\w'])",
    re.IGNORECASE,
)


def _said_with_context(bullet: str, chat: str) -> str:
    """The chat's own sentence that says the bullet's values with words around them ("硒鼓型号 TN-2448
    下次淘宝直接买", "TAP Miles&Go: TP409218773"): the shortest one that holds them all and is no
    bare value itself."""
    wanted = [v for v in values(bullet)] or [
        w.strip(".") for w in re.findall(r"[\w@#.-]*[\d_@#][\w@#.-]*", bullet)
    ]
    if not wanted:
        return ""
    sentences = (
        s.strip()
        for line in chat.split("\n")
        for s in re.split(r"(?<=[。！？!?])|(?<=[.])\s+", line)
        if s.strip()
    )
    fitting = [
        s
        for s in sentences
        if all(w.casefold() in s.casefold() for w in wanted)
        and not _bare_value(_tidy(s, None, "user"))
        and len(s) <= 160
        and not _ASKED_OR_GUESSED.search(s)  # a question or a guess states no fact
    ]
    return min(fitting, key=len) if fitting else ""


def _tidy(text: str, day: date | None, role: str) -> str:
    bullet = text.strip()
    if _TABLE_HEADER.match(bullet):
        return ""  # a table's header row or rule line says nothing on its own
    for _ in range(3):
        before = bullet
        bullet = _LEAD.sub("", bullet)
        bullet = _without_mark(bullet)
        bullet = _CONFIRMED_LABEL.sub(lambda m: _label(m), bullet)
        bullet = _SPOKEN_LABEL.sub(_spoken_label, bullet, count=1)
        if bullet == before:
            break
    bullet = _en_reported(_without_requests(_without_chat_lead(_BARE_COLON.sub("", bullet))))
    bullet = _without_mark(clean_zh_statement(bullet))  # spoken Chinese as a statement (:mod:`.clauses`)
    bullet = _SPOKEN_COPULA.sub("：", bullet)
    bullet = _without_joiner(_then_and_now(bullet))
    bullet = without_withdrawn(bullet)  # "旧的 6140 作废", "(was $95)": what no longer holds
    bullet = _dates(unflattened_config(bullet), day)
    bullet = _without_asides(_ADDRESS.sub(_unaddress, bullet))
    bullet = _en_second_person(_without_from_now_on(bullet))
    if role == "assistant":
        bullet = owner_voice(bullet)
    if not bullet:
        return text.strip()
    first_word = bullet.split(" ", 1)[0]
    if (
        bullet is not text
        and not re.search(r"[\d_./:@-]", first_word)  # "nas-01", "down/outage" keep their case
        and bullet[:1].isascii()
        and bullet[:1].islower()
        and text.strip()[:1].isupper()
    ):
        bullet = bullet[:1].upper() + bullet[1:]  # the sentence now starts where the lead-in ended
    return bullet


# An identifier: a word with a digit or a joining mark in it ("v1.8.1", "db-lax-1", "requires-python");
# "down/outage" is two words.
_OPENING_IDENTIFIER = re.compile(r"^([A-Z][a-z0-9]*(?:[-_.:@][A-Za-z0-9]+|\d[\w]*)+)(?=['’\s:,.;)]|$)")


def _as_written(bullet: str, chat: str) -> str:
    """A sentence's first letter is made a capital upstream; an identifier that opens the line keeps
    the case the chat writes it in ("V1.8.1 → b77d03f" is "v1.8.1 → b77d03f"), a name the chat
    capitalizes ("Pi-hole", "Nas-01" if so written) stays."""
    match = _OPENING_IDENTIFIER.match(bullet)
    if not chat or match is None:
        return bullet
    word = match.group(1)
    lower = word[:1].lower() + word[1:]

    def said(form: str) -> bool:
        return re.search(r"(?<![\w.-])" + re.escape(form) + r"(?![\w-])", chat) is not None

    if said(lower) and not said(word):
        return lower + bullet[len(word) :]
    return bullet


# What a lead-in before a colon says when it only speaks of the chat: a person or a demonstrative
# ("That matches what we saved earlier:", "这条笔记里已经有了：", "我查到的是：") and nothing a note
# keeps — no value, no name, no label word.
_CHAT_LEAD = re.compile(r"^\s*([^:：`]{2,60}?)\s*[:：]\s*(?=\S)")
_CHAT_PERSON = re.compile(
    r"(?<![\w'])(?:that|this|it|we|you|i|i'm|i've|what|these|those)(?![\w'])|[这那][个条些样么边里次种]|你|我",
    re.IGNORECASE,
)
_LABEL_WORD = re.compile(
    r"根因|原因|修法|修复|规则|结论|步骤|注意|cause|fix|rule|step|note|warning|caveat|symptom|why|how",
    re.IGNORECASE,
)
_SCOPE_WORD = re.compile(
    r"所有|每个|每次|都|一律|(?<![\w'])(?:all|every|each|always|never|any)(?![\w'])", re.IGNORECASE
)
_NAME_OR_VALUE = re.compile(r"\d|[A-Za-z]+[_./:@-][A-Za-z0-9]|@\w|(?<![A-Za-z])[A-Z][a-z]+[A-Z]?|[A-Z]{2,}")


def _without_chat_lead(bullet: str) -> str:
    """The line without a lead-in that only speaks of the chat, when prose follows it (a bare command
    after "I need to create it on the primary first:" needs its lead-in to say where)."""
    match = _CHAT_LEAD.match(bullet)
    if match is None:
        return bullet
    lead, rest = match.group(1), bullet[match.end() :]
    if (
        not _CHAT_PERSON.search(lead)
        or _LABEL_WORD.search(lead)
        or _SCOPE_WORD.search(lead)  # "所有 pipeline 都这么写：", "every new node does this:" scope the rule
        or _NAME_OR_VALUE.search(re.sub(r"^(?:That|This|It|What|These|Those|We|You|I)\b", "", lead))
        or len(re.sub(r"`[^`]*`|[\W_]", "", rest)) < 4  # a bare command or value needs its lead-in
        or len(rest.strip()) < 12
    ):
        return bullet
    return rest[:1].upper() + rest[1:] if rest[:1].islower() and bullet[:1].isupper() else rest


# A line left opening with a bare colon (its lead-in went upstream) states what follows it.
_BARE_COLON = re.compile(r"^\s*[:：]\s*(?=\S{2})")

# "Dana said: OK, manual pushes go through her", "Tan's nurse said from now on book follow-ups on
# WhatsApp": who said it stays as the source, the saying, their "OK" and their "from now on" go
# ("Tan's nurse: book follow-ups on WhatsApp"). A pronoun names no one a note reader knows: the
# words stand alone, or take the name of the person the line before it reports asking ("I pinged
# Dana, she said …" → "Dana: …").
_EN_PERSON = (
    r"(?:Dr\.?\s+|Mr\.?\s+|Mrs\.?\s+|Ms\.?\s+)?(?!(?:It|This|That|These|Those|There|Then|The|What|Which|Who)\b)[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)?(?:['’]s\s+[a-z]+)?"
    r"|(?:[Tt]he|[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\s+(?:[a-z]+\s+)?(?:nurse|doctor|dentist|vet|landlord|landlady|teacher|coach"
    r"|boss|manager|accountant|mechanic|agent|plumber|owner|client|editor|clinic|school|office|support|bank"
    r"|team|lead|admin|receptionist|pharmacist|contractor|supplier|tutor|lawyer)"
)
_EN_REPORTED = re.compile(
    rf"^(?:(?:I|[Ww]e)\s+(?:already\s+|just\s+)?(?:pinged|asked|called|emailed|messaged|texted|checked with)\s+"
    rf"(?P<asked>{_EN_PERSON})[^,;.]*?[,;]\s*(?:and\s+)?)?"
    rf"(?P<who>{_EN_PERSON}|[Hh]e|[Ss]he|[Tt]hey)\s+(?:said|says)(?:\s+that)?\s*[:,]?\s*"
    r"(?i:(?:ok(?:ay)?|yes|yeah|sure|fine)\s*[,:]\s*)?(?i:from now on|going forward|in future)?\s*[,:]?\s*(?P<what>\S.{3,})$"
)
_EN_PRONOUN = re.compile(r"^(?:he|she|they)$", re.IGNORECASE)


def _en_reported(bullet: str) -> str:
    match = _EN_REPORTED.match(bullet)
    if match is None or has_cjk(bullet):
        return bullet
    who, what = match["who"], match["what"].strip()
    if _EN_PRONOUN.match(who):
        who = match["asked"] or ""
    elif match["asked"]:
        return bullet  # asked one person, another answered: the line says both
    if not who:
        return what[:1].upper() + what[1:]
    return f"{who[:1].upper()}{who[1:]}: {what}"


# "周三就是：奶奶接", "runner-03 这边就是：tag gpu": the spoken "X is: …" states "X：…".
_SPOKEN_COPULA = re.compile(rf"(?<=[{HAN}A-Za-z0-9`）)])\s*(?:这边|那边|这里|那里)?\s*就是\s*[:：]\s*")


def _without_mark(bullet: str) -> str:
    """The line without its correction or bookkeeping marker, when something is left to state."""
    bullet = _SYMBOL_LEAD.sub("", bullet)
    rest = _MARK.sub("", re.sub(r"^so,?\s+(?=\S)", "", bullet, flags=re.IGNORECASE), count=1)
    return rest if rest != bullet and len(rest.strip("`'\" ")) >= 4 else bullet


# "From now on", "going forward": when the chat said the rule, not part of it. The note states
# "Send Fenwick invoices to …", "报销的都记 REIMB" (the Chinese 以后 goes in :mod:`.clauses`).
_EN_FROM_NOW_ON = re.compile(
    r"^(?:(?:and|so|also|ok(?:ay)?)[,]?\s+)?(?:from now on|going forward|in (?:the )?future|from today)\s*[,:]?\s*(?=\S)"
    r"|,?\s+(?:from now on|going forward|in (?:the )?future)(?=\s*(?:[.!;]|$))|\s+(?:from now on|going forward)(?=,)"
    r"|(?<=[,;])\s*(?:from now on|going forward)\s*,?(?=\s)",
    re.IGNORECASE,
)


def _without_from_now_on(bullet: str) -> str:
    pieces = re.split(r"(`[^`]*`)", bullet)  # never inside a code span
    stated = "".join(p if p.startswith("`") else _EN_FROM_NOW_ON.sub("", p) for p in pieces).strip()
    if len(stated) < 4 or stated == bullet:
        return bullet
    return stated[:1].upper() + stated[1:] if stated[:1].islower() and bullet[:1].isupper() else stated


# The assistant telling the user what they have: "You have Mosquitto on hab-01" states
# "Mosquitto on hab-01"; "your public IP" is "the public IP" in a note the owner reads later.
_YOU_HAVE = re.compile(r"^you (?:already |now )?(?:have|use|run|keep) (?=\S)", re.IGNORECASE)
_YOUR = re.compile(r"(?<![\w'`])your(?= [a-z])", re.IGNORECASE)


def _en_second_person(bullet: str) -> str:
    if has_cjk(bullet):
        return bullet
    stated = _YOU_HAVE.sub("", bullet)
    if stated != bullet:
        stated = stated[:1].upper() + stated[1:]
    pieces = re.split(r"(`[^`]*`)", stated)  # never inside a code span
    return "".join(
        p if p.startswith("`") else _YOUR.sub(lambda m: "The" if m.group(0)[0].isupper() else "the", p)
        for p in pieces
    )


# The assistant's "I" narrates the chat ("我提醒你", "I'll check"): such a line is left as it is.
_ZH_ASSISTANT_SELF = re.compile(r"我(?![爸妈们家司])")
_EN_ASSISTANT_SELF = re.compile(r"(?<![\w'])(?:I|I'm|I've|I'll|I'd|me|my)(?![\w'])")
_EN_YOU_SUBJECT = re.compile(
    r"(^|[,;:(—–] |\b(?:that|which|who|when|if|since|because|until|unless|and|but|so|where|once|after|before) )"
    r"(you(?=\s+(?!to\b)[a-z])|you're|you've|you'll|you'd)(?![\w'])"
    r"|(\b[a-z]+ )(you)(?= [a-z]+[^e]ed\b)",  # "the pattern you added" (not "you need")
    re.IGNORECASE,
)
_EN_YOU_OBJECT = re.compile(
    r"(\b(?:to|for|with|by|from|at|about|of|tell|ask|give|send|remind|ping|show|let|asks|asking) )you(?![\w'])",
    re.IGNORECASE,
)
_EN_SUBJECT_FORMS = {"you": "I", "you're": "I'm", "you've": "I've", "you'll": "I'll", "you'd": "I'd"}


def owner_voice(bullet: str) -> str:
    """What the assistant told the owner, as the owner's own note: its "你" is "我" ("乐乐周三放学、
    你去接" → "我去接", "由你手动轮换" → "由我手动轮换"), its "you" is "I" / "me" ("the pattern you
    added" → "the pattern I added"). A line where the assistant also speaks of itself stays: its
    "I" and "you" are two people and the note cannot say both."""
    pieces = re.split(r"(`[^`]*`)", bullet)
    prose = "".join(p for p in pieces if not p.startswith("`"))
    if has_cjk(prose):
        if _ZH_ASSISTANT_SELF.search(prose) or "您" in prose:
            return bullet
        return "".join(
            p if p.startswith("`") else p.replace("你们", "我们").replace("你", "我") for p in pieces
        )
    if _EN_ASSISTANT_SELF.search(prose) or not re.search(r"(?i)\byou", prose):
        return bullet

    def voiced(piece: str) -> str:
        piece = _EN_YOU_SUBJECT.sub(
            lambda m: (
                (m.group(1) or m.group(3) or "") + _EN_SUBJECT_FORMS[(m.group(2) or m.group(4)).casefold()]
            ),
            piece,
        )
        return _EN_YOU_OBJECT.sub(lambda m: m.group(1) + "me", piece)

    return "".join(p if p.startswith("`") else voiced(p) for p in pieces)


# "| 酒店 | 日期 | 确认号 |", "|---|---|": a table row with no value in it.
_TABLE_HEADER = re.compile(r"^\|(?:[^|\d`]*\|)+\s*$")


def _label(match: re.Match[str]) -> str:
    zh, en = match.group(1), match.group(2)
    return f"{zh}：" if zh else f"{en[:1].upper()}{en[1:]}: "


# The assistant addressed inside a rule: "以后你先…", "你帮我…", "帮我…", "发给你" / "发你".
_ADDRESS = re.compile(
    rf"(?<=以后)你(?=[{HAN}])|(?<=[{HAN}])你(?=先|直接|都|别|不要|再)|(?:你)?帮我(?=[{HAN}])|(?<=发)给?你(?=[，。,；;]|$)"
)


def _unaddress(match: re.Match[str]) -> str:
    return ""


_CLAUSE = re.compile(r"(?<=[，,])\s*|(?<=[.!?。！？])\s+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_VALUE = re.compile(r"\d|`|[A-Za-z]+[_./:-][A-Za-z0-9]|@\w")
_RULE_MARK = re.compile(
    r"以后|今后|别|不要|必须|一律|统一|只|不再|禁止|默认|always|never|only|must|don't|do not|from now on|no\b",
    re.IGNORECASE,
)
_COMMENT = re.compile(
    rf"有点[多少乱烦]|太[{HAN}]{{0,4}}了|看着|哈哈|老记不住|累死|烦死|我觉得"
    r"|(?<![\w'])(?:i|me|my|mine)(?![\w'])|\b(?:lol|haha)\b",
    re.IGNORECASE,
)


def _aside(clause: str) -> bool:
    return bool(_COMMENT.search(clause)) and not _VALUE.search(clause) and not _RULE_MARK.search(clause)


def _without_asides(text: str) -> str:
    """The bullet without leading or trailing clauses that only comment on the fact."""
    chinese = has_cjk(text)
    splitter = _CLAUSE if chinese else _SENTENCE  # an English comma joins too much to cut at
    cuts = [0, *(m.end() for m in splitter.finditer(text) if 0 < m.end() < len(text)), len(text)]
    clauses = [text[a:b] for a, b in pairwise(cuts) if text[a:b].strip()]
    if len(clauses) < 2:
        return text
    first, last = 0, len(clauses)
    while chinese and last - first > 1 and _aside(clauses[first]):
        first += 1
    while last - first > 1 and _aside(clauses[last - 1]):
        last -= 1
    if (first, last) == (0, len(clauses)):
        return text
    kept = re.sub(r"[，,;；\s]+$", "", "".join(clauses[first:last]).strip())
    if kept and is_cjk(kept[-1]):
        kept += "。"
    return kept


_EN_PREPOSITION = re.compile(r"(?:\b(?:on|since|until|till|by|from|before|after|of|for)\s+)$", re.IGNORECASE)


def _day_text(match: re.Match[str], day: date, text: str) -> str:
    """The date a day word meant; an English one reads "on 2026-05-14" where no preposition stands."""
    resolved = (day + timedelta(days=_DAY_WORDS[match.group(0).casefold()])).isoformat()
    if match.group(0)[:1].isascii() and not _EN_PREPOSITION.search(text[: match.start()]):
        return f"on {resolved}"
    return resolved


# A weekday counted from the message's week ("下周四", "这周五", "next Monday", "from Monday"), a week
# or month something starts from ("从下周起", "from next month"), a span from the message's day
# ("三个月以后", "in two weeks"): each is one date, the note says it.
_ZH_WEEKDAYS = "一二三四五六日"
_EN_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAY = re.compile(r"(上|这|本|下)(?:周|个?星期)([一二三四五六日天])")
_ZH_WEEK_START = re.compile(r"(这|本|下)(?:周|个?星期)(?=起|开始)|(这|本|下)个?月(?=起|开始)")
_EN_WEEKDAY = re.compile(
    r"(?<![\w'])(?:(next|this|last)|(from|starting|until|till|by))\s+("
    + "|".join(_EN_WEEKDAYS)
    + r")(?![\w'])",
    re.IGNORECASE,
)
_EN_WEEK_START = re.compile(r"(?<![\w'])(from|starting)\s+next\s+(week|month)(?![\w'])", re.IGNORECASE)
_ZH_COUNT = {
    "一": 1,
    "两": 2,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}
_ZH_SPAN = re.compile(
    # not "第三周后" (a week of a plan), "前两天" (the past), "后端" (a backend): only a span from now
    r"(?<![每隔第前近头\d一二两三四五六七八九十])(?<![每隔第前近头]\s)(\d{1,2}|[一两二三四五六七八九十])\s*(个月|周|个?星期|天)"
    r"(?:以后|之后|后(?![端台面续来]))"
)
_EN_COUNT = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10}
_EN_SPAN = re.compile(
    r"(?<![\w'])in\s+(\d{1,2}|one|a|two|three|four|five|six|ten)\s+(days?|weeks?|months?)(?![\w'])"
    r"(?!\s*(?:or|to|-|–)\s*(?:\d|one|two|three|four|five|six|ten|a\b))",  # "in a day or two" is no date
    re.IGNORECASE,
)


def _plus_months(day: date, months: int) -> date:
    year, month = divmod(day.month - 1 + months, 12)
    target_year, target_month = day.year + year, month + 1
    for last in (31, 30, 29, 28):
        try:
            return date(target_year, target_month, min(day.day, last))
        except ValueError:
            continue
    return day


def _span_date(day: date, count: int, unit: str) -> date:
    unit = unit.casefold()
    if unit.startswith(("个月", "month")):
        return _plus_months(day, count)
    if unit.startswith(("周", "星期", "个星期", "week")):
        return day + timedelta(weeks=count)
    return day + timedelta(days=count)


def _counted_dates(text: str, day: date) -> str:
    """The weekdays, week starts and spans counted from ``day`` as the dates they are."""
    monday = day - timedelta(days=day.weekday())
    shift = {"上": -7, "这": 0, "本": 0, "下": 7}

    def zh_weekday(m: re.Match[str]) -> str:
        index = _ZH_WEEKDAYS.index("日" if m.group(2) == "天" else m.group(2))
        return (monday + timedelta(days=shift[m.group(1)] + index)).isoformat()

    def zh_start(m: re.Match[str]) -> str:
        if m.group(1):
            return (monday + timedelta(days=shift[m.group(1)])).isoformat() + " "
        first = _plus_months(day.replace(day=1), 1 if m.group(2) == "下" else 0)
        return first.isoformat() + " "

    def en_weekday(m: re.Match[str]) -> str:
        index = _EN_WEEKDAYS.index(m.group(3).casefold())
        if m.group(1):
            relative = m.group(1).casefold()
            offset = {"last": -7, "this": 0, "next": 7}[relative]
            return f"on {(monday + timedelta(days=offset + index)).isoformat()}"
        ahead = (index - day.weekday()) % 7 or 7  # the next such day after the message's
        return f"{m.group(2)} {(day + timedelta(days=ahead)).isoformat()}"

    def en_start(m: re.Match[str]) -> str:
        if m.group(2).casefold() == "week":
            start = monday + timedelta(days=7)
        else:
            start = _plus_months(day.replace(day=1), 1)
        return f"{m.group(1)} {start.isoformat()}"

    def zh_span(m: re.Match[str]) -> str:
        count = int(m.group(1)) if m.group(1).isdigit() else _ZH_COUNT[m.group(1)]
        return _span_date(day, count, m.group(2)).isoformat()

    def en_span(m: re.Match[str]) -> str:
        number = m.group(1).casefold()
        count = int(number) if number.isdigit() else _EN_COUNT[number]
        return f"on {_span_date(day, count, m.group(2)).isoformat()}"

    pieces = re.split(r"(`[^`]*`)", text)  # never inside a code span
    for index, piece in enumerate(pieces):
        if piece.startswith("`"):
            continue
        piece = _ZH_WEEKDAY.sub(zh_weekday, piece)
        piece = _ZH_WEEK_START.sub(zh_start, piece)
        piece = _ZH_SPAN.sub(zh_span, piece)
        piece = _EN_WEEK_START.sub(en_start, piece)
        piece = _EN_WEEKDAY.sub(en_weekday, piece)
        pieces[index] = _EN_SPAN.sub(en_span, piece)
    return re.sub(rf"(?<=[{HAN}])(?=\d{{4}}-\d{{2}}-\d{{2}})", " ", "".join(pieces))


def _dates(text: str, day: date | None) -> str:
    if day is not None:
        text = _counted_dates(text, day)
        text = _DAY.sub(lambda m: _day_text(m, day, text), text)
        # "2026-05-14 换了" reads better with a space before Chinese text after a date
        text = re.sub(r"(\d{4}-\d{2}-\d{2})(?=[^\W\d_])", r"\1 ", text)
    text, dropped = _WEEK.subn("", text)
    if dropped:
        text = re.sub(
            r"\s+([,.;:!?，。；：！？])(?=\s|$)", r"\1", text
        )  # "etl-pipeline ." once the week word is gone
    if has_cjk(text):
        return text.strip()
    # Runs of spaces collapse outside code spans only: a pasted line keeps its indentation.
    pieces = re.split(r"(`[^`]*`)", text)
    return "".join(p if p.startswith("`") else re.sub(r"\s+", " ", p) for p in pieces).strip()


# --------------------------------------------------------------------------- flattened config

# A pasted YAML block arrives as one line of its lines joined by "；" ("`compactor:`; `retention_enabled:
# true`", "frontend:；port: 8485"): the parent key lost its children. The note says the block in YAML's
# flow form on one line — "`compactor: {working_directory: /var/lib/loki, retention_enabled: true}`",
# "`nftables_hooks: [input, forward]`" — so what belongs to what stays readable.
_CONFIG_SEGMENT = r"(?:`[^`\n]+`|-\s+[^;；`\s][^;；`]*|[A-Za-z_][\w.-]*:(?:\s+[^;；`]+)?)"
_CONFIG_RUN = re.compile(rf"{_CONFIG_SEGMENT}(?:\s*[;；]\s*{_CONFIG_SEGMENT})+")
_PARENT_KEY = re.compile(r"^([A-Za-z_][\w.-]*):$")
_KEY_VALUE = re.compile(r"^([A-Za-z_][\w.-]*):\s+(\S.*)$")


def unflattened_config(bullet: str) -> str:
    """``bullet`` with each run of flattened YAML lines under a parent key written in flow form."""
    return _CONFIG_RUN.sub(_nested, bullet)


def _nested(match: re.Match[str]) -> str:
    raw = match.group(0)
    segments = [p.strip() for p in re.split(r"\s*[;；]\s*", raw) if p.strip()]
    quoted = all(p.startswith("`") for p in segments)
    lines = [p.strip("`").strip() for p in segments]
    if not any(_PARENT_KEY.match(line) for line in lines[:-1]):
        return raw  # no parent key with children: plain settings side by side
    out: list[str] = []
    parent: str | None = None
    items: list[list[str]] = []  # a list's items, each its "k: v" lines or one scalar
    mapping: list[str] = []

    def close() -> None:
        nonlocal parent, items, mapping
        if parent is None:
            return
        if items:
            rendered = ", ".join(i[0] if len(i) == 1 else "{" + ", ".join(i) + "}" for i in items)
            out.append(f"{parent}: [{rendered}]")
        elif mapping:
            out.append(f"{parent}: {{{', '.join(mapping)}}}")
        else:
            out.append(f"{parent}:")
        parent, items, mapping = None, [], []

    for line in lines:
        key = _PARENT_KEY.match(line)
        if key and not (items and parent):
            close()
            parent = key.group(1)
            continue
        if parent is None:
            out.append(line)
        elif line.startswith("-"):
            items.append([line[1:].strip()])
        elif items and _KEY_VALUE.match(line):
            items[-1].append(line)
        elif _KEY_VALUE.match(line) or key:
            mapping.append(line)
        else:
            out.append(line)
    close()
    if quoted:
        return (
            "；".join(f"`{line}`" for line in out) if "；" in raw else "; ".join(f"`{line}`" for line in out)
        )
    return "；".join(out) if "；" in raw else "; ".join(out)


# --------------------------------------------------------------------------- one fact once

RESTATED_SHARE = 0.6  # of the smaller bullet's terms that the other one holds too
RESTATED_MIN_TERMS = 3
SAME_VALUES_SHARE = 0.4  # of the smaller bullet's terms, when both hold the same values
SAME_VALUES_MIN_TERMS = 4
_INCIDENT_KINDS = frozenset({NoteKind.ROOT_CAUSE, NoteKind.FIX})
# A rule or a choice may be said in two words ("Use tabs", "No running"): never a remark.
_RULE_KINDS = frozenset({NoteKind.FUTURE, NoteKind.PREFERENCE, NoteKind.DECISION})
# What makes one wording of a fact more of a chat line than another: the chat's persons, a
# spoken imperative, a closing particle, "from now on" in English inside a Chinese line.
_CHAT_MARKS = re.compile(
    r"你|您|我(?![爸妈们家司])|千万|别|不要|[了吧呢啊嘛](?=[。！!.]?$)|(?i:from now on)|(?<![\w'])(?:you|your|me|my|I|please|don't)(?![\w'])"
)


# Words that narrow or negate what a bullet says: "No peanuts" beside "Bring peanuts for the party"
# is a second fact about peanuts, not the same one said shorter.
_RESTRICTING_WORD = re.compile(
    r"\b(?:no|not|never|don't|dont|without|except|only|skip|avoid)\b", re.IGNORECASE
)


def _restricts_the_other(first: str, second: str) -> bool:
    """Whether one of the two bullets holds a negating or narrowing word the other lacks."""
    said = [{w.lower() for w in _RESTRICTING_WORD.findall(b)} for b in (first, second)]
    return said[0] != said[1]


def once_each(bullets: list[str], kinds: Sequence[AbstractSet[str]]) -> list[str]:
    """The bullets without a second wording of a fact another bullet already states: the user's
    rule and the assistant's restatement of it ("以后回复里别用 emoji 了。" / "以后回复不用 emoji。")
    share most of their terms, and the one whose values the other holds and that reads more like
    chat goes. A cause and its fix share terms too, and both stay.

    A sentence cut after a title's abbreviation is one bullet again ("Draft to Prof." + "Okafor by
    15 January."), and a bullet that states nothing on its own — a short remark with no value or
    name ("My bad", "Reading it again", "Middle act.", a lone "Dr.") — goes while another stays."""
    bullets, kinds = _rejoined(bullets, kinds)
    said = [not (_says_nothing(b) and not k & _RULE_KINDS) for b, k in zip(bullets, kinds, strict=True)]
    if any(said) and not all(said):
        kinds = [k for k, keep in zip(kinds, said, strict=True) if keep]
        bullets = [b for b, keep in zip(bullets, said, strict=True) if keep]
    dropped: set[int] = set()
    terms = [fact_terms(b) for b in bullets]  # the terms scoring uses
    pairs = [(a, b) for a in range(len(bullets)) for b in range(a + 1, len(bullets))]
    for i, j in pairs:
        if i in dropped or j in dropped or (kinds[i] | kinds[j]) & _INCIDENT_KINDS:
            continue
        small = min(len(terms[i]), len(terms[j]))
        shared = len(terms[i] & terms[j])
        # A short wording held whole by the other ("回复不用 emoji。" in "回复里别用 emoji 了。") is the
        # same fact even with two terms; otherwise three shared terms at least.
        # A fragment of three words or fewer held whole ("On the 15th" under "Paydays: 15th and
        # last day of the month.") says the other bullet's fact again, even with one term.
        fragment = min(len(bullets[i].split()), len(bullets[j].split())) <= 3 and not has_cjk(
            bullets[i] + bullets[j]
        )
        fragment = fragment and not _restricts_the_other(bullets[i], bullets[j])
        contained = (small >= 2 or (small == 1 and fragment)) and shared == small
        # Two wordings with the same values ("早报每天最多 2 条少数派…" / "早报里少数派最多放 2 条…")
        # are one fact at a lower share of words: the user said it, the assistant said it back.
        same_values = bool(values(bullets[i])) and values(bullets[i]) == values(bullets[j])
        reworded = same_values and shared >= SAME_VALUES_MIN_TERMS and shared / small >= SAME_VALUES_SHARE
        if not (contained or reworded) and (small < RESTATED_MIN_TERMS or shared / small < RESTATED_SHARE):
            continue
        loser = _chattier(bullets, i, j)
        keeper = j if loser == i else i
        if values(bullets[loser]) <= values(bullets[keeper]) and _written_values_in(
            bullets[loser], bullets[keeper]
        ):
            dropped.add(loser)
    return [b for k, b in enumerate(bullets) if k not in dropped]


# A number as written, with the letter or character glued to it: "25号", "3x30s", "v2".
_WRITTEN_NUMBER = re.compile(r"\d(?:[\d.,:/-]*\d)?[^\W\d_]?")  # "03:00," is 03:00, "7." is 7


def _written_values_in(loser: str, keeper: str) -> bool:
    """Every number the dropped wording writes is written so in the kept one too: "每月25号" is not
    lost for "每月 25 号" (identifiers and values are kept exactly as said)."""
    kept = keeper.casefold()
    return all(number.casefold() in kept for number in _WRITTEN_NUMBER.findall(loser))


# "Dr.", "Prof.": a title's abbreviation ends no sentence; the sentence splitter cut the name off it.
# (not St. or Mt.: "40 Baker St." ends a sentence as often as "St. Mary's" goes on)
_TITLE_ABBREVIATION = re.compile(r"(?<![\w.])(?:Dr|Prof|Mr|Mrs|Ms|Mx|Sr|Jr|Rev|Capt|Gen|Lt|Sgt)\.$")


def _rejoined(
    bullets: list[str], kinds: Sequence[AbstractSet[str]]
) -> tuple[list[str], list[AbstractSet[str]]]:
    """A bullet ending in a title's abbreviation and the capitalized bullet after it as one sentence."""
    out: list[str] = []
    out_kinds: list[AbstractSet[str]] = []
    for bullet, kind in zip(bullets, kinds, strict=True):
        if out and _TITLE_ABBREVIATION.search(out[-1]) and bullet[:1].isupper():
            out[-1] = f"{out[-1]} {bullet}"
            out_kinds[-1] = out_kinds[-1] | kind
            continue
        out.append(bullet)
        out_kinds.append(kind)
    return out, out_kinds


# What a speaker says about their own reading or mistake, or an acknowledgement: never a fact.
# Only these go; a short line of content words ("Allergic to penicillin.", "Works nights.") stays.
_REMARK = re.compile(
    r"^(?:my (?:bad|mistake)|never ?mind|(?:reading|looking at) it again|on second thought|fair enough|"
    r"makes sense|sounds good|got it|no worries|all good|(?:ok(?:ay)?|sure|right|thanks?|cool|nice))[.!]*$",
    re.IGNORECASE,
)


def _says_nothing(bullet: str) -> bool:
    """A lone title abbreviation ("Dr."), or an English remark about the chat itself ("My bad",
    "Reading it again", "Sounds good"): the chat's own words, not a fact. Chinese lines are judged
    by the clause cleaner (:mod:`.clauses`), never here."""
    text = bullet.strip().rstrip(".!。！")
    if _TITLE_ABBREVIATION.search(bullet.strip()) and len(text.split()) == 1:
        return True
    return bool(_REMARK.match(text))


def _chattier(bullets: list[str], i: int, j: int) -> int:
    """The one of two wordings that reads more like chat; of two alike, the shorter (it says less)."""
    marks = [len(_CHAT_MARKS.findall(re.sub(r"`[^`]*`", "", bullets[k]))) for k in (i, j)]
    if marks[0] != marks[1]:
        return i if marks[0] > marks[1] else j
    return i if len(bullets[i]) < len(bullets[j]) else j
