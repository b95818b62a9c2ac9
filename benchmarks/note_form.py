"""Note form: how many of the notes a preview would write do not read like notes (issue 12).

    python benchmarks/note_form.py                       # the shared cases
    python benchmarks/note_form.py --cases a.jsonl --cases b.jsonl --show

A written note (add or merge, after the comparer) is counted as badly formed when

* a bullet opens with chat filler: an acknowledgement, an apology, a discovery or
  "here it is" lead-in ("There it is:", "原因找到了：", "规则就是：", "抱歉"),
* a bullet holds an ellipsis ("…", "...") the chat did not have at that place,
* its title holds a pronoun ("her", "他", "你") or is, or ends in, an empty label
  ("notes", "要点", a bare "Owner"), or
* it repeats another written note of the same preview (a shared bullet, or two
  bullets that are nearly the same text).

Those four are issue 12's measure (``issue12=``). The rubric a blind reader applies
(``../shared/eval/NOTES.md``) names more, and the checker counts them too (``all=``):

* ``label``: a title that is a subject plus a colon kind label ("容器 宿主机：要点",
  "X: rule"), the form the reader rejects;
* ``fragment``: a title that reads as a cut chat line: an instruction ("Add an alert
  rule"), a modal or verb marker ("以后排查 结论", "应该…"), a dangling last word ("… and",
  "…的");
* ``contradicts``: a title word the bullets only ever negate ("发邮件" over "不发邮件");
* ``spoken``: a Chinese bullet as typed in chat: a discourse opener ("那", "也就是说",
  "然后"), a sentence-final particle ("吧", "呢", "哈"), or a space used as a comma between
  two Chinese words;
* ``deixis``: "you / 你" or a "我" narrating the chat ("我把…", "我先…") that only makes
  sense inside the chat ("我爸", "我们", a person's "I always want …" are fine);
* ``reldate``: a relative date ("上周", "昨天", "tomorrow", "last week");
* ``bfragment``: a bullet that is a fragment: opens with "(" or a joining word ("and",
  "then", "或者"), or ends with ":" / "，";
* ``dup``: the same fact twice inside one note (two bullets nearly the same text).

Closer to the rubric (issue 12, items 3 and 4; ``all=`` counts them too):

* ``generic``: a title that is only a kind word or a vague word ("rebuild", "Saved", "规则",
  "X rule" where X is "thing", "step", "days"), or one lowercase English word;
* ``clause``: a title that is a sentence rather than a noun phrase: it holds a date or time, a
  value with its unit ("18%", "5mg", "10 袋"), a verb or adverb of a clause ("is", "now", "说",
  "新增", "调去"), is the whole first bullet, or is cut inside a word ("房贷利率现|在");
* ``lang``: an English title over Chinese bullets (a name such as "Hyper Backup" or an identifier
  such as "vps-hk" is neither language) or a Chinese title over English bullets;
* ``opener``: a bullet opening with a correction, hesitation or bookkeeping marker ("更正：",
  "改：", "Wait,", "Actually", "Saved:", "刚记下：", "One more thing:");
* ``person``: second-person or demonstrative chat deixis in a bullet ("you", "方便你转给妈妈",
  "这个 slot", "上面那条"), or a "我" narrating the chat; the owner's own "I" / "me" in their
  note is their voice ("Rent: me 40%");
* ``overlap``: two bullets of one note sharing most of their words (the user's rule and its
  restatement);
* ``stale``: a bullet stating a value the same note calls replaced ("旧的 6140", "was 09:40").

The word lists are general discourse words of English and Chinese, not words of any
case. Prints the shares per kind, in all and per language of the case (goal ≤ 5%);
``--show`` lists the notes with their problems.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_common import DEFAULT_CASES, load_cases, run_in_process

from savenow.extract.heuristic import HeuristicExtractor
from savenow.text.normalize import bullet_key, similarity

# Openers a person never writes at the top of a note: they belong to the conversation.
_EN_FILLER = (
    r"ok(?:ay)?|sure|yes|yeah|yep|yup|no|nope|right|alright|all right|got it|noted|understood|done|great|perfect"
    r"|good|nice|cool|hmm+|oh|ah|aha|odd|weird|interesting|sorry|apologies|my bad|thanks|thank you|well"
    r"|so|anyway|actually|btw|by the way|i see|makes sense|as expected|of course"
    r"|there it is|there we go|here it is|here's the thing|that's it|that's the (?:rule|one|fix|cause|problem|issue)"
    r"|that explains it|that matches|found it|found the (?:cause|problem|issue|culprit)|bingo|nailed it"
    r"|good (?:news|catch|call|point)|you're right|fair enough"
)
_ZH_FILLER = (
    r"好的?|好吧|收到|明白了?|了解了?|嗯+|哦|噢|对的?|行|可以|没问题|抱歉|不好意思|对不起|谢谢|奇怪|有意思|果然"
    r"|原因找到了|找到原因了|找到了|找到问题了|问题找到了|就是这个|那就对了|这就对了|这就是原因|规则就是|结论就是"
    r"|小提醒|提醒一下|顺便记一下|顺便说一下|顺便|另外|话说|其实|说实话|我看了一下|我查了一下|你说得对|确实|懂了|原来如此|搞定了?"
)
# A filler word is followed by a pause (a comma, a colon, a dash); a filler phrase of three
# Chinese characters or more ("顺便记一下", "原因找到了") is filler however it goes on.
FILLER = re.compile(
    rf"^\s*(?:(?:{_EN_FILLER})(?![\w'])|(?:{_ZH_FILLER}))\s*(?:[,，.。!！:：;；—–~]|\s-\s|$)"
    rf"|^\s*(?:{'|'.join(w for w in _ZH_FILLER.split('|') if len(w) >= 3 and w.isalpha())})",
    re.IGNORECASE,
)
_EN_PRONOUN = re.compile(
    r"(?<![\w'])(?:he|she|her|hers|him|his|they|them|their|it|its|this|that|these|those|you|your|i|me|my|we|us|our)(?![\w'-])",
    re.IGNORECASE,
)
_ZH_PRONOUN = re.compile(r"[他她它你您我咱](?:们)?|这个|那个|这些|那些|这样|那样")
_EMPTY_LABEL = re.compile(
    r"(?:^|[:：\s])(?:notes?|points?|misc|details?|info|stuff|要点|笔记|备注|杂项|信息|内容|相关)\s*$"
    r"|^\s*(?:owner|rule|fix|setup|change|decision|preference|负责人|规则|修复|配置|变更|决定|偏好)\s*$",
    re.IGNORECASE,
)
_ELLIPSIS = re.compile(r"…|\.\.\.")
REPEAT_SIMILARITY = 0.85

# The kind labels a title may end in after a colon ("X：规则", "X: root cause and fix").
_KIND_LABEL = re.compile(
    r"[:：]\s*(?:root cause(?: and fix)?|fix|rule|rules|setup|change|decision|preference|notes?|summary"
    r"|根因(?:与修复)?|修复|规则|配置|变更|决定|偏好|要点|总结|结论)\s*$",
    re.IGNORECASE,
)
_EN_INSTRUCTION = re.compile(
    r"^(?:add|set|use|run|keep|make|put|send|check|restart|install|remove|delete|create|move|change|update"
    r"|enable|disable|avoid|never|always|don't|do|ask|call|book|pay|take|give|let|try|open|close|write"
    r"|start|stop|switch|copy|edit|replace|get|tell|announce|post|notify|ping|drop|skip|please)\b",
    re.IGNORECASE,
)
_ZH_CHAT_MARKER = re.compile(r"^(?:以后|今后|记得|应该|把|先|帮|别|不要)|应该|可以|需要|记一下|一下")
_DANGLING = re.compile(
    r"(?<![\w'])(?:and|or|the|a|an|of|to|for|with|in|on|at|from|but)\s*$|[的了在和与把被]\s*$", re.IGNORECASE
)
_TITLE_NEGATION = (
    r"(?:不要|不再|不用|禁止|不|别|勿|没有|无需|(?<![\w'])(?:no|not|never|don't|without)\s+(?:[a-z]+\s+)?)"
)

_ZH_OPENER = re.compile(
    r"^\s*(?:那(?![边里个些天时样么种位次])|那就|也就是说|就是说|然后|所以|等下|对了|话说|反正)"
)
_ZH_PARTICLE_END = re.compile(r"(?:吧|呢|嘛|啦|哈+|呗|啊|呀|对吧|是吧)\s*[。！？!?]?\s*$")
_HAN = "\u4e00-\u9fff"
_SPOKEN_SPACE = re.compile(rf"[{_HAN}]\s+[{_HAN}]")
# The chat's "you" (the assistant or the user addressed), and an "我" that narrates the chat
# ("我把…改了", "我先检查", "我都会注意"); "我爸", "我们", a person's own "I always want…" are fine.
_ZH_CHAT_PERSON = re.compile(r"你|您|我(?:都|也|就|先|再|会|把|来|去|查|看|记|帮|刚|已经|只)")
_EN_CHAT_PERSON = re.compile(r"(?<![\w'])(?:you|you're|you've|you'll|your)(?![\w'])", re.IGNORECASE)
_RELATIVE_DATE = re.compile(
    r"上周|下周|本周|这周|上个?月|下个?月|昨天|昨晚|今天|今晚|明天|后天|前天|上次|刚才|刚刚"
    r"|(?<![\w'])(?:yesterday|tomorrow|tonight|today|last (?:week|month|night)|next (?:week|month))(?![\w'])",
    re.IGNORECASE,
)
_FRAGMENT_START = re.compile(r"^\s*(?:\(|（|(?:and|or|then|but|so)\s|或者|然后|还有|以及)", re.IGNORECASE)
_FRAGMENT_END = re.compile(r"[:：，,、]\s*$")
DUP_SIMILARITY = 0.8


def filler_bullet(bullet: str) -> bool:
    return FILLER.match(bullet) is not None


def new_ellipsis(bullet: str, chat: str) -> bool:
    """An ellipsis whose few characters before it never stand before an ellipsis in the chat."""
    for match in _ELLIPSIS.finditer(bullet):
        before = bullet[max(0, match.start() - 6) : match.start()]
        if f"{before}{match.group(0)}" not in chat:
            return True
    return False


def bad_title(title: str) -> bool:
    return bool(_EN_PRONOUN.search(title) or _ZH_PRONOUN.search(title) or _EMPTY_LABEL.search(title))


def label_title(title: str) -> bool:
    return _KIND_LABEL.search(title) is not None


def fragment_title(title: str) -> bool:
    subject = _KIND_LABEL.sub("", title).strip()
    return bool(
        _EN_INSTRUCTION.match(subject) or _ZH_CHAT_MARKER.search(subject) or _DANGLING.search(subject)
    )


def contradicting_title(title: str, bullets: list[str]) -> bool:
    """A word of the title that every bullet mentioning it negates."""
    text = " ".join(bullets).casefold()
    subject = _KIND_LABEL.sub("", title).casefold()
    words = set(re.findall(r"[a-z][a-z0-9_.-]{2,}", subject))
    words |= {run[i : i + 2] for run in re.findall(rf"[{_HAN}]{{2,}}", subject) for i in range(len(run) - 1)}
    for word in words:
        uses = [m.start() for m in re.finditer(re.escape(word), text)]
        if uses and all(
            re.search(_TITLE_NEGATION + r"[\u4e00-\u9fff]{0,2}$", text[max(0, at - 12) : at]) for at in uses
        ):
            return True
    return False


def spoken_bullet(bullet: str) -> bool:
    code_free = re.sub(r"`[^`]*`", "`", bullet)
    return bool(
        _ZH_OPENER.match(code_free) or _ZH_PARTICLE_END.search(code_free) or _SPOKEN_SPACE.search(code_free)
    )


def deictic_bullet(bullet: str) -> bool:
    code_free = re.sub(r"`[^`]*`", "`", bullet)
    return bool(_ZH_CHAT_PERSON.search(code_free) or _EN_CHAT_PERSON.search(code_free))


def relative_date(bullet: str) -> bool:
    return _RELATIVE_DATE.search(re.sub(r"`[^`]*`", "`", bullet)) is not None


def fragment_bullet(bullet: str) -> bool:
    return bool(_FRAGMENT_START.match(bullet) or _FRAGMENT_END.search(bullet))


def duplicated_inside(bullets: list[str]) -> bool:
    return any(similarity(a, b) >= DUP_SIMILARITY for i, a in enumerate(bullets) for b in bullets[i + 1 :])


def repeats(bullets: list[str], others: list[list[str]]) -> bool:
    keys = {bullet_key(b) for b in bullets}
    for other in others:
        if keys & {bullet_key(b) for b in other}:
            return True
        if any(similarity(a, b) >= REPEAT_SIMILARITY for a in bullets for b in other):
            return True
    return False


def form_problems(entries: list[dict], chat: str) -> list[tuple[dict, list[str]]]:
    """Each written entry with the names of the form problems it has."""
    written = [e for e in entries if e.get("action") in ("add", "merge")]
    result = []
    for number, entry in enumerate(written):
        bullets = list(entry.get("bullets") or [])
        problems = []
        if any(filler_bullet(b) for b in bullets):
            problems.append("filler")
        if any(new_ellipsis(b, chat) for b in bullets):
            problems.append("ellipsis")
        if entry.get("action") == "add" and bad_title(entry.get("title") or ""):
            problems.append("title")  # a merge's title is not written: its bullets go under the target
        if repeats(bullets, [list(e.get("bullets") or []) for e in written[:number]]):
            problems.append("repeat")
        problems.extend(rubric_problems(entry, bullets))
        result.append((entry, problems))
    return result


ISSUE12_KINDS = ("filler", "ellipsis", "title", "repeat")
RUBRIC_KINDS = ("label", "fragment", "contradicts", "spoken", "deixis", "reldate", "bfragment", "dup")
STRICT_KINDS = ("generic", "clause", "lang", "opener", "person", "overlap", "stale")


def rubric_problems(entry: dict, bullets: list[str]) -> list[str]:
    """The further patterns NOTES.md names; a merge's title is not written, so only its bullets count."""
    title = entry.get("title") or ""
    problems = []
    if entry.get("action") == "add":
        if label_title(title):
            problems.append("label")
        if fragment_title(title):
            problems.append("fragment")
        if contradicting_title(title, bullets):
            problems.append("contradicts")
    checks = (
        ("spoken", spoken_bullet),
        ("deixis", deictic_bullet),
        ("reldate", relative_date),
        ("bfragment", fragment_bullet),
    )
    problems.extend(name for name, check in checks if any(check(b) for b in bullets))
    if duplicated_inside(bullets):
        problems.append("dup")
    return problems + strict_problems(entry, bullets)


def strict_problems(entry: dict, bullets: list[str]) -> list[str]:
    """The rubric's further rejections (issue 12 items 3 and 4)."""
    title = entry.get("title") or ""
    problems = []
    if entry.get("action") == "add":
        if generic_title(title):
            problems.append("generic")
        if clause_title(title, bullets):
            problems.append("clause")
        if language_mismatch(title, bullets):
            problems.append("lang")
    checks = (("opener", opener_bullet), ("person", person_bullet))
    problems.extend(name for name, check in checks if any(check(b) for b in bullets))
    if overlapping_bullets(bullets):
        problems.append("overlap")
    if stale_value(bullets):
        problems.append("stale")
    return problems


# ----------------------------------------------------------------- stricter rubric checks

# Words that name only the kind of a note, or nothing at all: a title of these alone says no subject.
_KIND_WORD = (
    r"rules?|fix(?:es)?|issues?|problems?|setup|config(?:uration)?|changes?|decisions?|preferences?|notes?"
    r"|saved|added|noted|recorded|updates?|updated|corrections?|rebuild|owner|schedule|address|port|version"
    r"|contact|price|time|plan|summary|todo|misc|info|details?|reminders?|steps?|order"
    r"|规则|修复|问题|配置|变更|决定|偏好|笔记|要点|备注|更正|重建|负责人|时间|地址|端口|版本|联系方式|费用"
    r"|提醒|记录|安排|说明|事项|情况|备份"
)
# Vague words that cannot be the subject in front of a kind word ("Thing rule", "Days rule").
_VAGUE = (
    r"thing|things|anything|something|everything|nothing|stuff|step|item|part|way|one|case|point|bit|days?"
    r"|group|new|old|other|same|simple|this|that|it|all|each|every|some|first|last|next|main|default"
    r"|东西|事情|事|其他|其它|新|旧|这个|那个|所有|每个|默认"
)
_GENERIC_TITLE = re.compile(rf"^\s*(?:(?:{_VAGUE})\s*)?(?:{_KIND_WORD})?\s*$", re.IGNORECASE)
_MONTH = r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december"
_TITLE_DATE = re.compile(
    rf"\d{{4}}-\d{{1,2}}-\d{{1,2}}|(?<!\d)\d{{1,2}}:\d{{2}}|\d+\s*月\s*\d+\s*[日号]|(?<![\w])(?:{_MONTH})\.?(?:\s+\d|$)"
    rf"|\d{{1,2}}\s+(?:{_MONTH})\b|周[一二三四五六日天]|星期[一二三四五六日天]",
    re.IGNORECASE,
)
_TITLE_VALUE = re.compile(
    r"\d[\d.,]*\s*(?:%|mg|g|kg|km|ml|gb|mb|tb|h|min|元|块|袋|天|小时|分钟|次|个|条|本|把|节|期|岁)(?![a-z])"
    r"|[¥￥$€£]\s*\d|[一两二三四五六七八九十几]+\s*[次遍]",
    re.IGNORECASE,
)
_EN_CLAUSE_WORD = re.compile(
    r"(?<![\w'-])(?:is|are|was|were|be|been|has|have|had|get|gets|got|goes|went|will|would|should|must|can"
    r"|could|says|said|now|only|ever|moved|changed|expires|lands|needs)(?![\w'-])",
    re.IGNORECASE,
)
_ZH_CLAUSE_WORD = re.compile(
    r"说$|说[:：]|调去|调到|改成|改为|改到|换成|新增|增加|记下|提前|推迟|取消了|踩|作废|停用|不再|至少|最多|已经|刚"
    r"|[，。；！？~～]"
)
# Common two-character words a title must not be cut inside ("房贷利率现|在").
_ZH_SPLIT_WORDS = frozenset(
    [
        "现在",
        "时候",
        "已经",
        "以后",
        "以前",
        "之前",
        "之后",
        "然后",
        "可以",
        "应该",
        "需要",
        "一下",
        "一直",
        "只是",
        "还是",
        "就是",
        "都是",
        "不是",
        "因为",
        "所以",
        "如果",
        "但是",
        "只有",
        "没有",
        "还有",
        "目前",
        "今后",
        "每次",
        "每个",
        "一律",
        "统一",
        "必须",
    ]
)
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
# A plain lowercase English word; an identifier ("vps-hk", "ledger-etl") is in no language.
_PLAIN_WORD = re.compile(r"(?<![\w.@/-])[a-z]{2,}(?![\w.@/-])")


def _plain(text: str) -> str:
    return re.sub(r"[`*\s]+", " ", text).strip(" .。;；:：,，").casefold()


def generic_title(title: str) -> bool:
    """Only a kind word or a vague word, or one lowercase English word ("deep", "compose")."""
    bare = title.strip()
    if _GENERIC_TITLE.match(bare):
        return True
    return bool(re.fullmatch(r"[a-z]+", bare))


def clause_title(title: str, bullets: list[str]) -> bool:
    """A sentence, not a noun phrase: a date or value in it, a clause's verb, the whole first bullet,
    or cut inside a word of the bullet it was taken from."""
    if _TITLE_DATE.search(title) or _TITLE_VALUE.search(title):
        return True
    if not has_han(title) and _EN_CLAUSE_WORD.search(title):
        return True
    if _ZH_CLAUSE_WORD.search(title):
        return True
    if bullets and _plain(title) == _plain(bullets[0]):
        return True
    return _cut_inside_word(title, bullets)


def has_han(text: str) -> bool:
    return re.search(rf"[{_HAN}]", text) is not None


def _cut_inside_word(title: str, bullets: list[str]) -> bool:
    if not title or not re.match(rf"[{_HAN}]", title[-1]):
        return False
    for bullet in bullets:
        at = bullet.find(title)
        while at >= 0:
            after = bullet[at + len(title) : at + len(title) + 1]
            if after and title[-1] + after in _ZH_SPLIT_WORDS:
                return True
            at = bullet.find(title, at + 1)
    return False


def _han_share(text: str) -> float:
    prose = re.sub(r"`[^`]*`", " ", text)
    han = len(re.findall(rf"[{_HAN}]", prose))
    latin = sum(len(w) for w in _LATIN_WORD.findall(prose)) / 3  # a word weighs about a character
    return han / (han + latin) if han + latin else 0.0


def language_mismatch(title: str, bullets: list[str]) -> bool:
    """An English title (a lowercase word in it: not only names) over Chinese bullets, or the reverse."""
    share = _han_share(" ".join(bullets))
    if not has_han(title):
        return share >= 0.5 and _PLAIN_WORD.search(title) is not None
    prose = re.sub(r"`[^`]*`", " ", " ".join(bullets))
    return share == 0.0 and len(_PLAIN_WORD.findall(prose)) >= 2 and len(re.findall(rf"[{_HAN}]", title)) >= 2


_OPENER = re.compile(
    r"^\s*(?:(?:更正|纠正|修正|改正|改为|改成|改|不对|等等|等一下|稍等|哦不|算了|刚记下|已记下|记下了?|记好了|收到|好的?|确认"
    r"|第[一二三四五六七八九十\d]+[个条点]?|还有|补充)\s*[:：，,~～—!！]"
    r"|(?:wait|actually|correction|hmm+|um+|uh+|oops|scratch that|on second thought|saved|added|noted|recorded"
    r"|updated|done|confirmed|one more thing|for the record|to be clear[^:,]*|just to confirm|also|plus|deal"
    r"|i'll note|let me note|so going forward|[\u2600-\u27bf\U0001f000-\U0001faff])"
    r"(?![\w'])\s*[:,—–!-]?)",
    re.IGNORECASE,
)
# A demonstrative that opens a bullet or a clause points into the chat ("这个 slot 留给…"); one
# inside a clause ("继承了这个值") refers back within the sentence.
_DEMONSTRATIVE = re.compile(
    r"(?:^|[，,。；;：:]\s*)(?:这个|那个|这条|那条|这块|那块|这次)|上面|下面|刚才|(?<![\w'])(?:this one|that one|the above|as above)(?![\w'])",
    re.IGNORECASE,
)


def opener_bullet(bullet: str) -> bool:
    return _OPENER.match(bullet) is not None


def person_bullet(bullet: str) -> bool:
    """Chat deixis: the chat's "you", a narrating "I"/"我", a demonstrative pointing into the chat."""
    code_free = re.sub(r"`[^`]*`", "`", bullet)
    return deictic_bullet(bullet) or _DEMONSTRATIVE.search(code_free) is not None


_EN_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "and",
        "or",
        "is",
        "are",
        "be",
        "it",
        "that",
        "this",
        "from",
        "by",
        "as",
        "then",
        "so",
        "not",
        "no",
    ]
)


def _tokens(text: str) -> set[str]:
    folded = text.casefold()
    words = {w.strip(".:,;") for w in re.findall(r"[a-z0-9][a-z0-9_.:/@-]*", folded)}
    words = {w for w in words if w and w not in _EN_STOP}
    for run in re.findall(rf"[{_HAN}]{{2,}}", folded):
        words |= {run[i : i + 2] for i in range(len(run) - 1)}
    return words


OVERLAP_SHARE = 0.6


def overlapping_bullets(bullets: list[str]) -> bool:
    """Two bullets sharing most of the smaller one's words: one fact said twice."""
    sets = [_tokens(b) for b in bullets]
    for i, a in enumerate(sets):
        for b in sets[i + 1 :]:
            small = min(len(a), len(b))
            if small >= 3 and len(a & b) / small >= OVERLAP_SHARE:
                return True
    return False


_VALUE_TOKEN = r"[\w.:/+-]*\d[\w.:/+-]*"
_REPLACED = re.compile(
    rf"(?:旧的?|原来的?|以前的?|之前的?|从)\s*`?({_VALUE_TOKEN})"
    rf"|(?<![\w'])(?:was|from|old|instead of|replacing|no longer)\s+`?({_VALUE_TOKEN})"
    rf"|`?({_VALUE_TOKEN})`?\s*(?:作废|停用|不用了|废弃|is dead|no longer)",
    re.IGNORECASE,
)


def stale_value(bullets: list[str]) -> bool:
    """A value one bullet calls replaced that another bullet of the note states as it is."""
    replaced = {
        next(g for g in m.groups() if g).strip(".,").casefold()
        for b in bullets
        for m in _REPLACED.finditer(b)
    }
    replaced = {v for v in replaced if len(v) >= 2}
    for value in replaced:
        for bullet in bullets:
            folded = bullet.casefold()
            if value in folded and not any(
                next(g for g in m.groups() if g).strip(".,").casefold() == value
                for m in _REPLACED.finditer(bullet)
            ):
                return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", action="append", help="a cases.jsonl file (repeatable)")
    parser.add_argument("--show", action="store_true", help="list the badly formed notes")
    args = parser.parse_args(argv)
    extractor = HeuristicExtractor()
    counts = dict.fromkeys((*ISSUE12_KINDS, *RUBRIC_KINDS, *STRICT_KINDS), 0)
    by_language: dict[str, list[int]] = {}  # language -> [notes, issue-12 bad, any bad]
    for path in args.cases or [str(DEFAULT_CASES)]:
        for case in load_cases(path):
            chat = "\n".join(m["text"] for m in case["transcript"])
            entries = run_in_process(case, extractor.extract)
            tally = by_language.setdefault(case.get("lang") or "?", [0, 0, 0])
            for entry, problems in form_problems(entries, chat):
                tally[0] += 1
                tally[1] += any(p in ISSUE12_KINDS for p in problems)
                tally[2] += bool(problems)
                for problem in problems:
                    counts[problem] += 1
                if problems and args.show:
                    print(
                        f"{case['id']}: {','.join(problems)}: {entry['title']} | {' / '.join(entry['bullets'])}"
                    )
    total = sum(t[0] for t in by_language.values())

    def share(n: int, of: int = 0) -> str:
        of = of or total
        return f"{n / of:.1%}" if of else "n/a"

    issue12 = sum(t[1] for t in by_language.values())
    bad = sum(t[2] for t in by_language.values())
    print(
        f"notes={total}  badly formed={issue12} ({share(issue12)})  "
        + "  ".join(f"{name}={counts[name]} ({share(counts[name])})" for name in ISSUE12_KINDS)
    )
    print(
        f"rubric: any problem={bad} ({share(bad)})  "
        + "  ".join(f"{name}={counts[name]} ({share(counts[name])})" for name in RUBRIC_KINDS)
    )
    print("strict: " + "  ".join(f"{name}={counts[name]} ({share(counts[name])})" for name in STRICT_KINDS))
    print(
        "by language: "
        + "  ".join(
            f"{lang}: notes={n} issue12={share(i, n)} all={share(a, n)}"
            for lang, (n, i, a) in sorted(by_language.items())
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
