"""Chinese chat sentences as note statements: the clause cleaner (issue 12, bullets).

A user types a rule the way one talks — "那以后回我先一句话给结论 需要细节我再问吧" — and a
note states it — "以后回复先一句话给结论，需要细节再问。". The cleaner works clause by
clause and only with general features of spoken Chinese, never with a case's words:

* **Clauses**: punctuation ends a clause, and so does a space between two Chinese
  characters (chat uses the space as a comma: "…给结论 需要细节…").
* **Discourse openers** ("那", "那就", "所以", "也就是说", "然后", "等下", "对了") go from a
  clause's start; **sentence-final particles** ("吧", "啊", "呢", "嘛", "哈") and the
  "…就行 / 就好" that closes a spoken request go from its end.
* **Chat-only clauses** go when the fact stands without them: a filler on its own ("好的",
  "收到了", "行"), a remark about saving ("记一下", "这个我记下来"), or a first-person
  remark with no value and no rule word in it ("我差点忘了", "我自己会贴", "上次我发邮件拖了一周").
* **First person to statement**: what the user says to the assistant about the assistant's
  replies ("回我" → "回复", "别给我中文的" → "别给中文的", "需要细节我再问" → "需要细节再问").
* **Reported speech**: the source stays, the saying goes: "徐姐说了 以后只认微信" → "徐姐：只认微信"
  (the speaker's 以后, a leading "OK" / "好的" and the speaker's own 我们 go with the wrapper); a
  pronoun speaker ("他说退房验完就转") names no one, so only what was said is kept, unless the
  clause before reports asking a named person ("已经 ping Dana 了，她说…" → "Dana：…").

Values, identifiers and rule words ("以后", "别", "只", "统一") are never removed: a clause
holding one is kept, and a sentence the cleaner would empty is returned as it was.
"""

from __future__ import annotations

import re

from ...text.cjk import HAN, has_cjk

__all__ = ["clean_zh_statement", "zh_clauses"]

# A space between two Chinese characters is a spoken comma; so is ordinary punctuation.
# ASCII punctuation ends a clause only before a space, the end or a Chinese character:
# "(?i)" and "a,b" inside a value are no clause ends.
# "编号 MB330106882 以后开药拿这个": a spoken space before 以后 starts a clause after a value too,
# and before 已经改了 / 已经换了 ("PRINTER_URL=… 已经改了": the report that a value was changed is a
# clause of its own). Not before 已经关了 / 删了 / 装了: there the verb is the fact ("SMB1 已经关了").
_CLAUSE_END = re.compile(
    rf"[，；。！？]+|[,;!?]+(?=\s|$|[{HAN}])|(?<=[{HAN}])\s+(?=[{HAN}])|(?<=[A-Za-z0-9`])\s+(?=以后|今后|已经[改换](?:好|完)?了\s*[。！]?$)"
    r"|(?<=[A-Za-z0-9`])\s+(?=(?:他|她)们?说)"  # "押金 3000 他说退房验完就转": the report is a clause of its own
)
# Never split inside a code span or a quotation: "「描述包含 美团」" is one value.
_CODE_SPAN = re.compile(r"`[^`]*`|「[^」]*」|“[^”]*”|\"[^\"]*\"|（[^）]*）|\([^)]*\)")

# Openers that belong to the conversation, not to the fact. "那" only as a conjunction:
# "那边 / 那个 / 那天" are demonstratives and stay.
_OPENER = re.compile(
    r"^(?:也就是说|就是说|换句话说|那就是|那就|那么|所以说|所以|然后|而且|还有就是|还有(?:一|个|一个|件|一件)事(?:情)?|"
    r"还有(?![一二两三四五六七八九十几\d多少])|就是(?![的说这那])|另外|对了|等下|等等|"
    r"定了|最终(?![版稿价值结果方案报告])|就(?![是的业医诊近餐绪读职任地算像要会能可])|"  # "定了 TTL 48 小时", "就用 A"
    r"算了|但是|不过|可是|大体上|基本上|(?<![\w])是(?=\s)|"  # "是 pm2 里残留了…": a spoken "it is"
    r"(?:建议|推荐)(?:你|您)?(?=[^，。；\s]{2})(?![的是])|"  # the assistant's advice states the fix itself
    r"(?:你|您)?可以(?=改用|改成|换成|用|把|先|直接)|"  # "可以改用 X": so does a suggestion taken
    r"这样的话|这样一来|这样(?=每|就|以后|下次|才|\s)|"
    r"第[一二三四五六七八九十\d]+(?:[个条点])?是(?=\S)|"  # "第三是换班必须…": counting the rules as said
    r"其实|反正|总之|总之就是|顺便说一下|顺便确认一下|顺便确认下|确认一下|确认下|顺便|话说|说实话|我想想|嗯+|哦+|噢|诶|欸|"
    r"(?:好的?|行|收到了?|明白了?|OK|ok|Ok)(?=\s)|"
    r"那(?![边里个些天时会样么种位次份件条])"
    r")\s*"
)
# Particles that close a spoken sentence; "的吧" / "了吧" keep their 的 / 了 for the meaning.
# "不是跑着 AdGuard 嘛" asks "isn't it?": without 嘛 it would say the opposite.
_RHETORICAL = re.compile(r"不是|难道|没有")
_FINAL_PARTICLE = re.compile(r"(?<=\S)\s*(?:对吧|是吧|对不对|是不是|吧|啊|呀|呢|嘛|啦|哈+|呗|哦|噢)+\s*$")
# "…就行 / 就好 / 就可以了": the close of a request; the request itself stays.
_REQUEST_CLOSE = re.compile(r"(?<=\S)\s*(?:就行了?|就好了?|就可以了?|即可)\s*$")

# A clause that is a filler on its own: an acknowledgement, a pause, a "noted".
_FILLER_CLAUSE = re.compile(
    r"^(?:好的?|好吧|好嘞|行|行吧|可以|收到了?|明白了?|了解了?|懂了|嗯+|哦+|对的?|是的|没错|要的?|没问题|OK|ok|okay"
    r"|等下|等等|我看看|我想想|这样啊|原来如此|记一下|记下来?|帮我记一下|记住了?"
    r"|(?:已经?)?(?:加|改|删|装|配|设|换|调|开|关|弄|搞|做|建|跑)(?:好|完)?了|搞定了?|弄好了?|你知道的|你懂的)$",
    re.IGNORECASE,
)
# A remark about saving or reminding, not the fact: "记一下医生说的", "这个我记下来".
_SAVING_REMARK = re.compile(r"记一下|记下来|记住|记着|记好|备注一下|存一下|提醒你|我提醒")
# What the fact spares the speaker ("这样就不用提前走了"): their plan, not the fact.
_SPARED = re.compile(r"就(?:不用|不必|用不着|省得)|也就不用")
# A remark on the fact rather than the fact: "看着很乱", "有点多", "太麻烦了".
_COMMENT = re.compile(rf"有点[多少乱烦慢]|太[{HAN}]{{0,4}}了|看着|哈哈|烦死|累死|差点|我觉得|懒得")
_FIRST_PERSON = re.compile(r"我(?![爸妈们家司])")
# Why the speaker wants it, for their own convenience: "方便我转给妈妈" (the assistant's "方便你…").
# The fact stands without it; a clause with a value stays (above). Only convenience: "不然我会过敏",
# "免得我又吐" carry a consequence, "最近经常失眠" a symptom, "到时候你提醒我吃" a request — facts.
_SPEAKERS_REASON = re.compile(r"^(?:方便|好让)[^，。；]{0,4}?(?:我(?![爸妈们家司])|你|您)")
# The speaker as the clause's subject ("我差点忘了", "我自己会贴", "上次我发邮件…"): a remark
# about the chat; "需要细节我再问" keeps its condition and only loses the 我.
_SPEAKER_SUBJECT = re.compile(r"^(?:是|就是|上次|之前|刚才|刚刚)?我(?![爸妈们家司])")
# A proper name in Latin letters ("Firefly", "AdGuard") is content, like a value.
_NAME = re.compile(r"(?<![A-Za-z])[A-Z][a-z]+(?:[A-Z][a-z]*)*(?![A-Za-z])")
# What makes a clause carry the fact: a number, a code span, an identifier, a handle.
_VALUE = re.compile(r"\d|`|[A-Za-z]+[_./:@-][A-Za-z0-9]|@\w|[A-Z]{2,}")
_RULE_WORD = re.compile(
    r"以后|今后|别|不要|不用|必须|一律|统一|只|不再|禁止|默认|每|改成|改为|换成|提前|推迟"
)

# The user talking about the assistant's replies: "回我" is "回复", "给我 / 跟我" go.
_ABOUT_REPLIES = (
    (re.compile(rf"(?:回复|回)我(?=[{HAN}A-Za-z\s])"), "回复"),
    (re.compile(rf"(?<![发交寄递])(?<=给)我(?=[{HAN}A-Za-z\s])"), ""),
    (re.compile(rf"(?<=[{HAN}])(?:跟|帮)我(?=[{HAN}A-Za-z\s])"), ""),
    (re.compile(rf"(?<=[{HAN}])一下(?=[：:]|$)"), ""),  # "作者名统一一下：" states "作者名统一："
    (
        re.compile(rf"(?<=[{HAN}])\s*(?:记一下|记下来?|记住)\s+(?=[A-Za-z0-9`])"),
        " ",
    ),  # "硒鼓型号记一下 TN-2448"
    (re.compile(r"我把(?=\S)"), ""),  # "我把所有 cron job 的目标都改成…" → "所有 cron job 的目标都改成…"
    (re.compile(r"我(?=再|自己|来|会|都|也|先|去|查|看|对比|检查|只会)"), ""),  # the assistant narrating
)
# "<speaker>说(了)<content>": the speaker is short and names someone else.
_REPORTED = re.compile(
    rf"^([{HAN}A-Za-z0-9 .·]{{1,12}}?)\s*说(?:了|过)?\s*[:：]?\s*(?=\S)(?![的过话法明]|一下|下\b)"
)


# In a Chinese sentence a comma or semicolon is the full-width one.
_SEPARATOR = {",": "，", ";": "；", "!": "！", "?": "？"}


def zh_clauses(text: str) -> list[str]:
    """The clauses of a Chinese chat sentence, without their separators."""
    return [c for c, _ in _split(text)]


def _split(text: str) -> list[tuple[str, str]]:
    """(clause, separator after it) pairs; a spoken space becomes a comma."""
    pieces: list[tuple[str, str]] = []
    at = 0
    code = [span.span() for span in _CODE_SPAN.finditer(text)]
    for match in _CLAUSE_END.finditer(text):
        if any(start < match.start() < end for start, end in code):
            continue  # never inside a code span
        clause = text[at : match.start()].strip()
        separator = match.group(0)
        if clause:
            pieces.append((clause, _SEPARATOR.get(separator.strip(), separator.strip() or "，")))
        at = match.end()
    if text[at:].strip():
        pieces.append((text[at:].strip(), ""))
    return pieces


def _strip_edges(clause: str) -> str:
    for _ in range(3):
        before = clause
        clause = _OPENER.sub("", clause)
        if not _RHETORICAL.search(clause):
            clause = _FINAL_PARTICLE.sub("", clause)
        clause = _REQUEST_CLOSE.sub("", clause).strip()
        if clause == before:
            break
    return clause


def _chat_only(clause: str) -> bool:
    """A clause that belongs to the conversation: it goes when the others state the fact."""
    if _FILLER_CLAUSE.match(clause):
        return True
    if _VALUE.search(clause) or _NAME.search(clause) or "：" in clause:
        return False  # a value, a name, or a label with its content is the fact
    if _SAVING_REMARK.search(clause) or _POINTS_BACK.search(clause) or _SPEAKERS_REASON.search(clause):
        return True
    if _RULE_WORD.search(clause):
        return False
    # "由你手动轮换" says who does it: the chat's "you" alone never makes a clause chat-only.
    return bool(_SPEAKER_SUBJECT.search(clause) or _COMMENT.search(clause))


# A clause that only points back at the fact said before it ("以后都用这个", "这个不变", "以后都按
# 这个来"): without a value of its own it says nothing a note reader could follow.
_POINTS_BACK = re.compile(
    r"^(?:大体|基本|大致|就)?(?:照着|照此|照这个|按这个|照样)(?:来|做|办|弄)$|"  # "大体照着来": follow what was said
    r"(?:这个|那个|这样|这些|这条|这么办|这么来|这么做)(?:来|为准|吧|了)?$|^(?:这个|这样|这些|这条)[不没也都就还]?[^，。]{0,3}$|^这次也?(?:一样|是这样|照旧)$"
)
# "以后" / "今后" opening a clause is when the chat said it, not part of the rule: a note states
# "回复不用 emoji", not "以后回复不用 emoji". Kept before 是 / 的 ("以后是每周四…" needs it), and
# "X 以后" ("连上以后") is "after X", never at a clause's start.
_FROM_NOW_ON = re.compile(r"^(?:从今以后|从现在起|从今天起|今后|以后|往后)\s*(?:[，,]\s*)?(?=[^\s是的，,。])")


# "千万别贴出来": the emphasis is the chat's; the note says "别贴出来".
_EMPHASIS = re.compile(r"千万(?=别|不要|不能|记得|要)|根本(?=不|没|用不着)")


# "这个报错常见原因是…", "这类 BME280 模块地址是 0x76": the demonstrative points into the chat; the
# note says "报错常见原因是…". Not before a verb or a person ("这个我记下来" is a remark, "这个是…").
_POINTING_LEAD = re.compile(rf"^(?:这个|这类|这种)\s*(?=[A-Za-z{HAN}])(?![是就我你他她也都不没要会])")


def _stated_rule(clause: str, first: bool = True) -> str:
    """The clause as a note states it. A later clause's demonstrative points back inside the
    sentence ("放在 `static/covers/`，这个前缀…"): the written "该" says that."""
    pointed = _POINTING_LEAD.sub("" if first else "该", clause)
    rest = _FROM_NOW_ON.sub("", _EMPHASIS.sub("", pointed))
    return rest if len(rest) >= 2 else clause


def _reported(clause: str) -> tuple[str, str] | None:
    """ "王老师说只收 PDF" → ("王老师", "只收 PDF"); "她说 OK" → ("她", "OK"); None when the clause
    reports no one else's words (a speaker that is "我" / "你", "可以这样说", "点菜前可以说")."""
    match = _REPORTED.match(clause)
    if match is None:
        return None
    speaker = _speaker_name(match.group(1))
    if not _speaker_like(speaker):
        return None
    said = clause[match.end() :].strip()
    return speaker, "" if said in ("了", "过") else said  # "徐姐说了": the words come in the next clause


def _speaker_name(said_by: str) -> str:
    """ "徐姐昨天" → "徐姐" (when it was said is the chat's), "老周那边" → "老周" (the side is the person)."""
    return re.sub(r"(?<=\S)(?:那边|这边)$", "", _SPOKEN_WHEN.sub("", said_by).strip()).strip()


# A pronoun says who only in the chat: "他说退房验完就转" keeps what was said, without the wrapper.
_PRONOUN_SPEAKER = re.compile(r"^(?:他|她|它|对方)们?$")
# "已经 ping Dana 了", "问了房东": the report of asking someone, before what they answered. The
# answer is the fact; the person asked is its source when the answer's speaker is a pronoun.
_ASKED_REPORT = re.compile(
    rf"^(?:我|yes|ok|好的?)?\s*(?:已经|刚才?|刚刚|也)?\s*(?:ping|问|问过|打电话给|打给|发消息给|微信|联系|找)(?:了|过)?\s*"
    rf"(?P<who>[{HAN}A-Za-z][{HAN}A-Za-z .·]{{0,10}}?)\s*(?:了|过|一下)?$",
    re.IGNORECASE,
)


def _with_speakers(kept: list[tuple[str, str]]) -> list[tuple[str | None, str, str]]:
    """(speaker, clause, separator): speaker is None for a clause nobody is reported to say, "" for
    words whose speaker is only a pronoun. A speaker clause on its own ("徐姐说了", "她说 OK")
    joins the clause it introduces."""
    joined: list[tuple[str | None, str, str]] = []
    waiting: str | None = None  # a speaker whose words are in the next clause
    for clause, sep in kept:
        reported = _reported(clause)
        speaker, said = reported if reported else (_speaker_only(clause) or None, "")
        if speaker is not None and _PRONOUN_SPEAKER.match(speaker):
            asked = _ASKED_REPORT.match(joined[-1][1]) if joined and joined[-1][0] is None else None
            if asked and _speaker_like(asked["who"].strip()):
                joined.pop()  # the asking is the chat's; who answered is the source
                speaker = asked["who"].strip()
            else:
                speaker = ""
        if speaker is not None and (not said or _FILLER_CLAUSE.match(said)):
            waiting = speaker  # "她说 OK，手动 push …": the OK is no fact, the words come next
            continue
        if waiting is not None and speaker is None:
            speaker, said, waiting = waiting, clause, None
        joined.append((speaker, said if speaker is not None else clause, sep))
    if waiting is not None:
        return [(None, c, s) for c, s in kept]  # a speaker with nothing after it: left as said
    return joined


# Inside what someone said: their "OK" / "好的" before it and their own 我们 ("王师傅说我们用的是
# 全合成 0W-20") are the speaker talking, not the fact.
_QUOTE_OPENING = re.compile(r"^(?:(?:好的?|行|OK|ok|Ok|okay)\s*[,，]?\s*)?(?:我们(?=[用是都会要只在给]))?")


def _quote_opening(said: str) -> str:
    rest = _QUOTE_OPENING.sub("", said, count=1).strip()
    return rest if len(rest) >= 2 else said


def _about_replies(clause: str) -> str:
    for pattern, replacement in _ABOUT_REPLIES:
        clause = pattern.sub(replacement, clause)
    return clause


def clean_zh_statement(text: str) -> str:
    """``text`` as a note states it; a sentence that is not Chinese, or that the cleaner would
    empty, comes back unchanged."""
    original = text.strip()
    if not has_cjk(original):
        return original
    # What the fact spares the speaker is read before its "这样就" goes with the other openers.
    pieces = [
        (_strip_edges(c), sep)
        for c, sep in _split(original)
        if not (_SPARED.search(c) and not _VALUE.search(c))
    ]
    # "记下甜甜芒果过敏", "好的，你也记一下：周三奶奶接": the request to keep what the sentence then
    # states, in its first clause after the fillers (a later "记一下医生说的" points elsewhere and
    # goes as a remark).
    opening = next((i for i, (c, _) in enumerate(pieces) if c and not _chat_only(c)), None)
    if opening is not None:
        clause, sep = pieces[opening]
        stated = _KEEP_REQUEST.sub("", clause, count=1)
        pieces[opening] = (stated if len(stated) >= 2 else clause, sep)
    kept = [(c, sep) for c, sep in pieces if c and not _chat_only(c)]
    if not kept:
        return original
    joined = _with_speakers(kept)
    statement = ""
    for number, (speaker, clause, sep) in enumerate(joined):
        said = _about_replies(
            _stated_rule(_quote_opening(clause) if speaker is not None else clause, number == 0)
        )
        statement += f"{speaker}：{said}" if speaker else said
        if number < len(joined) - 1 or sep in _SENTENCE_END:
            statement += sep  # between clauses as said; at the end only a full stop or mark
    statement = re.sub(r"\s*：\s*", "：", statement).strip(" ，,")
    # "大体照着来，但 2 号机上…" without its first clause: a statement never opens with a "but".
    statement = re.sub(r"^(?:但是?|不过|可是)\s*(?=\S.)", "", statement)
    if not statement:
        return original
    if (
        statement != original
        and not statement.endswith(_SENTENCE_END)
        and (
            re.search(rf"[{HAN}]$", statement) or original.endswith(_SENTENCE_END)  # "…17:30，这样就不用…。"
        )
    ):
        statement += "。"
    return statement


_SENTENCE_END = ("。", "！", "？", "!", "?", ".")
_KEEP_REQUEST = re.compile(
    r"^(?:你也|你|也|帮我|麻烦你?)?(?:记下来?|记一下|记住|记着|记好)\s*(?:[：:]\s*|(?=\S{2}))"
)
_SPEAKER_ONLY = re.compile(rf"([{HAN}A-Za-z0-9 .·]{{1,12}}?)\s*说(?:了|过)?")


# When someone said it belongs to the chat, not to the rule: "徐姐昨天说了" → "徐姐说".
_SPOKEN_WHEN = re.compile(r"今天|昨天|前天|今早|昨晚|刚才|刚刚|上次|之前|早上|晚上")


def _speaker_like(speaker: str) -> bool:
    """Someone who can say a rule: short, not 我 / 你, not a phrase with a place or an adverb in it
    ("周末在家庭群里先说先用" has no speaker)."""
    return bool(
        speaker
        and len(speaker) <= 12
        and not _FIRST_PERSON.search(speaker)
        and "你" not in speaker
        and not _VALUE.fullmatch(speaker)
        and not re.search(
            r"[在里先就都也再要会把被从到上可能该得想只不没前时是发打问回咱]|这样|这么|怎|我们|大家", speaker
        )
        and not _NOT_A_SPEAKER.search(speaker)
    )


# "跟仓库说", "他最近老说", "简单说", "据说": telling someone, saying often, a way of putting it —
# no one's words follow.
_NOT_A_SPEAKER = re.compile(r"^(?:跟|和|对|给|向)|[老总常还又]$|^(?:简单|总的|换句话|比如|据|听|一般)$")


def _speaker_only(clause: str) -> str:
    """The speaker of a clause that is only "<someone>说了", when someone else than 我 / 你."""
    match = _SPEAKER_ONLY.fullmatch(clause)
    speaker = _speaker_name(match.group(1)) if match else ""
    return speaker if _speaker_like(speaker) else ""
