"""The offline summary: deterministic, identifier-first, bounded, merged section by section (DESIGN §13).

What a person resuming the work needs, in this order of importance:

1. identifiers, verbatim (paths, hosts, IPs, ports, ids, env vars, versions,
   amounts with units, people and their roles) — dropped last;
2. files read and modified, from tool calls, cumulative;
3. requests, decisions (final values only), open items, unresolved errors,
   people, stable preferences — each a sentence as it was said;
4. other facts that carry an identifier (context).

Left out: chit-chat, acknowledgements, guesses put as questions, the
assistant's own questions and explanations without an identifier, tool output,
and values the chat later abandoned (a value named next to "作废 / 改成 /
instead of / dropped …" disappears from every line of the summary).

Bounded by ``max_tokens`` (and by ``ratio`` × the tokens of what it stands
for, so a summary is always much smaller than the conversation): the lowest
tier goes first, oldest line first; the identifier line goes last.

Incremental: the previous summary is parsed back into its sections and the new
lines are merged in, section by section; nothing is ever nested.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise
from typing import Protocol

from ..text.alternation import quick_start
from ..text.changes import states_a_change
from ..text.cjk import HAN
from ..text.identifiers import CURRENCY_CODE, INLINE_CODE, identifiers, written_values
from ..text.normalize import compact_similarity
from ..text.patterns import en_words
from ..text.script import ScriptRestorer, fold_traditional
from ..text.stopwords import EN_COMMON_WORDS, EN_NOT_NAMES
from ..text.tokens import count_cjk, estimate_tokens
from .changes import setting_key, settings_changed, settings_rewritten
from .chatsignals import CHITCHAT, DEFERRAL, RULED_OUT, Lexeme, chat_memo, is_question, sentences
from .model import SessionMessage
from .screen import Screened
from .withdrawn import apply_take_backs, cancel_withdrawn, may_withdraw, takes_back, without_take_back


class Summarizer(Protocol):
    """Turns the previous summary plus the removed messages into the next summary."""

    name: str

    def summarize(
        self, previous: str | None, removed: Sequence[SessionMessage], *, max_tokens: int
    ) -> str: ...


# --------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class Section:
    key: str
    en: str
    zh: str
    tier: int  # trimming drops the highest tier first


# Short headings: a summary of a short chat has a budget of a few hundred tokens, and every
# heading is paid for in each of them.
SECTIONS = (
    Section("identifiers", "Identifiers", "标识符", 0),
    Section("requests", "Requests", "请求", 2),
    Section("decisions", "Decisions", "决定", 2),
    Section("open", "Open items", "待办", 2),
    Section("errors", "Errors", "错误", 2),
    Section("people", "People", "人物", 2),
    Section("preferences", "Preferences", "偏好", 2),
    Section("files", "Files", "文件", 1),
    Section("context", "Facts", "事实", 3),
)
_BY_KEY = {s.key: s for s in SECTIONS}
TITLE = "## Session summary · 会话摘要"
_COVERS = re.compile(r"^_(\d+) messages(?: · 条消息)?,? · ~(\d+) tokens_$")
_HEADING = re.compile(r"^### (.+?) · (.+)$")


def _heading(section: Section) -> str:
    return f"### {section.en} · {section.zh}"


# The longer headings of summaries written before 0.2.1 are still read back.
_OLD_HEADINGS = {
    "### Requests · 用户请求": "requests",
    "### Decisions (final values) · 决定（最终值）": "decisions",
    "### Unresolved errors · 未解决的错误": "errors",
}
_HEADING_KEYS = {**_OLD_HEADINGS, **{_heading(s): s.key for s in SECTIONS}}


# --------------------------------------------------------------------------- lexicons (kinds of language)


def _words(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts), re.IGNORECASE)


REQUEST = _words(
    en_words(
        "please|can you|could you|would you|help me|i want|i'd like|i need|we need|make sure|set up|write me"
        "|let's|go ahead|set it|add (?:a|an|the)|send me|remind me"
    ),
    "帮我|帮忙|请你|麻烦|能不能|可不可以|给我|我想|想要|我要|要求|你记|记一下|写一个|写个|弄一下|看看|加上|顺便",
    # a prohibition that opens a clause is an instruction: "no, don't change the DAG again today", "先别重启"
    r"(?:^|[,.;:，。；：]\s*|\bno\s+)(?:please\s+)?(?:don't|do not|never)\s+[a-z]{3,}|(?:^|[，。；：,])\s*(?:先)?(?:别|不要)["
    + HAN
    + "]",
)
DECISION = _words(
    en_words(
        "decided|decision|go with|we'll use|use (?:the|a)|switch(?:ed)? to|chang(?:e|ed) (?:it )?to|mov(?:e|ed) (?:it )?to"
        "|pinn?(?:ed)?|final(?:ly)?|settled|stick with|stay with|keep (?:the|it)|instead|from now on|set to|is now|are now|now runs"
        "|skip(?:ping)? (?:the|it|that)|book (?:it|that|this)|make it|bump(?:ed)?"
        # leaving a thing as it is decides too: "leave CI_DB_NAME for now", "don't touch billing code"
        "|leave (?:it|them|that|this)|leave [\\w.-]+ (?:as is|alone|for now|in place|untouched)|don't touch|keep it as is"
        "|myself"  # who does what: "I'll send it myself tonight"
    ),
    "决定|就用|就按|就这样|就它|定了|定为|改成|改为|换成|改到|挪到|调到|改走|改用|改成|设为|设成|确定|选|就[用订走定]|以后(?:都|就|统一|一律|改|不|别|也|所有|任何)|最终|统一|保持|继续用|不换"
    "|留着|保留|不动了|照旧|还是用|还是按|维持|先不动|先别动|不动它|保持不变"
    "|我自己",  # who does what: "homebrew 那边我自己更新", "瓷砖我自己去看"  # keeping what is there is a decision too: "那算了，铝扣板留着"
)
OPEN = _words(
    en_words(
        "todo|to do|next|later|tomorrow|tonight|next week|this weekend|weekend|pending|follow up|not yet|still (?:need|have|open)"
        "|remind|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|the \\d+)|before|after|will|need to|haven't|hasn't|open"
    ),
    "待办|还没|还要|回头|明天|后天|下周|周末|稍后|之后|以后再|记得|未完成|没做|要做|得去|需要|准备|打算|计划|等|前要|之前|提醒|记下",
)
ERROR = _words(
    en_words(
        "error|errors|failed|failing|fails|fatal|exception|traceback|denied|refused|timed? ?out|no space|unresolved|broken|crash(?:es|ed)?|flaky"
    ),
    r"报错|失败|错误|异常|拒绝|超时|挂了|不通|报锁|满了|告警|起不来|找不到|连不上|掉线|崩了|(?:http|status|code|退出码|错误码)\s*[:：]?\s*\d{1,3}|\b[45]\d\d:",
)
PERSON = _words(
    en_words(
        "wife|husband|mum|mom|dad|friend|boss|colleague|coworker|contractor|designer|accountant|reviewer|customer|client"
        "|supplier|neighbou?r|baker|owner|manager|admin|teacher|doctor|driver|roommate|partner|cousin|brother|sister"
    ),
    "老婆|太太|老公|丈夫|妈|爸|婆婆|公公|阿姨|叔|师傅|朋友|室友|同事|老板|客户|供应商|会计|财务|客服|表弟|表哥|表妹|表姐|同学|邻居|司机|设计师|负责",
)
# More roles at work, at home, at school (general vocabulary). Words like 物业, 儿子, owns are
# about people only next to a name: "房东王阿姨", "Priya owns ingestion", not "问了物业".
ROLE = _words(
    en_words(
        "landlord|landlady|tenant|advisor|adviser|supervisor|tutor|professor|mentor|lawyer|solicitor|realtor|plumber"
        "|electrician|mechanic|builder|vet|dentist|nurse|nanny|babysitter|planner|caterer|florist|photographer|officiant"
        "|best man|maid of hono(?:u)?r|bridesmaid|fianc[ée]e?|in-laws?|son|daughter|kids?|grandma|grandpa|aunt|uncle"
        "|niece|nephew|maintainer|codeowner|owns|in charge of|intern|engineer|developer|founder|investor|vendor|courier"
        "|cleaner|coach|tech lead|team lead|product manager|on-?call"
    ),
    "导师|教授|师兄|师姐|师弟|师妹|学长|学姐|房东|租客|中介|物业|工长|工头|律师|医生|护士|保姆|经理|主管|主任|总监|组长"
    "|对接|联系人|评审|审稿人|审核员|合伙人|股东|投资人|助理|秘书|实习生|儿子|女儿|孩子|姐姐|哥哥|弟弟|妹妹|爷爷|奶奶"
    "|外公|外婆|姥姥|姥爷|舅舅|姑姑|岳母|岳父|伴郎|伴娘|司仪|摄影师|厨师|教练|兽医|产品经理|运维",
)
PREFERENCE = _words(
    en_words(
        "always|never|prefer|preference|don't (?:want|like|use)|do not|rule|every time|from now on|i like|i hate|style"
        "|max(?:imum)? \\d+|at most|no more than"  # a limit the user sets: "max 2 activities per day"
        "|as usual|as always|like always|per usual"  # a habit named as one: "conventional commits as usual"
    ),
    "以后(?:都|就|每|凡|一律|不|别|要|改|统一|也|所有|任何)|凡是|每次|总是|一律|不要|(?<![特区告分类性级识个派])别(?![人的处墅])"
    "|喜欢|不喜欢|不吃|习惯|规矩|偏好|只要|不想|最多|不超过|老规矩|照例|照常|跟以前一样|和以前一样|跟平时一样|和平时一样"
    "|都用|一律用|全部用|全都用",  # a rule for every one of a kind: "脚本里注释都用中文写"
    # a clause banning a named thing is a rule: "no 'tapestry', no 'poignant'", "agreed, no SMB1"
    # (the thing quoted or spelled with a digit: "no worries", "no rush" ban nothing)
    r"(?:^|[,.;:]\s+)no\s+(?:['\"‘“][\w -]+['\"’”]|[A-Za-z]+\d[\w.-]*)",
)
ABANDON = _words(
    en_words(
        "dropped|abandon(?:ed)?|scrap(?:ped)?|no longer|instead of|rather than|not going with|obsolete|superseded"
        "|not worth(?: it)?|no point|pointless|won't work|doesn't work for|forget (?:the|that|about)|scratch (?:that|the)|never mind"
        # someone declines a value: "he doesn't want 20m", "we don't want the 9:00 slot"
        "|(?:doesn't|don't|does not|do not|didn't|did not) want"
    ),
    "作废|不要了|放弃|算了|取消|不用了|弃用|废弃|不再|而不是|别用|不做了|不搞了|不弄了|不考虑|否掉|pass 掉"
    "|不行|没意义|没必要|不划算|不值得|行不通|不合适",
)
# A date or an amount moved: "开工推到 12月15号", "pushed the launch to Dec 5", "设备费砍到 8万".
_ZH_RESCHEDULE = "推到|推迟到|延到|延后到|延期到|提前到|改期到|砍到|压到|缩到|调整为|调整到|定在"
RESCHEDULE = _words(
    en_words(
        "push(?:ed|ing)? (?:it |back |out )?to|postpon(?:e|ed|ing) (?:it )?to|delay(?:ed|ing)? (?:it )?to|reschedul(?:e|ed|ing) (?:it )?(?:to|for)"
    ),
    _ZH_RESCHEDULE,
)
# The value a chat ends on: "最终定 12月5号", "最终总预算 8.8万", "final answer: 12 people".
FINAL = _words(en_words("final(?:ly)?|in the end|settled on"), "最终|最后定|最后改")
CHANGE_TO = _words(
    en_words(
        # not "instead": its value comes before it ("6 instead") or after "of" (an abandon marker)
        "chang(?:e|ed|ing) (?:it |that |this )?to|switch(?:ed|ing)? to|mov(?:e|ed|ing) (?:it )?to|replac(?:e|ed) (?:it )?with|now"
        "|make it|(?:bump|rais|increas|lower|reduc|cut)(?:e|ed|ing|s)?(?: [\\w-]+){0,3} to"
    ),
    "改成|改为|换成|改到|挪到|调到|改走|改用|改成|换到|提到|涨到|降到|减到|加到|升到|→|->",
    RESCHEDULE.pattern,
)
DECISION = re.compile(f"{DECISION.pattern}|{RESCHEDULE.pattern}", re.IGNORECASE)
GUESS = _words(
    en_words(
        "maybe|might|perhaps|probably|possibly|could it be|i guess|i suspect|my guess|should be fine|i think|i bet|first thought"
        "|pretty sure|i reckon|could be|sounds like|seems like|my money's on|i wonder if|wonder if"
    ),
    "会不会|是不是|可能|也许|估计|怀疑|猜|大概|或许|难道|第一反应|感觉是|应该是|好像|八成|多半|没准|搞不好|说不定",
)
ACK = re.compile(
    r"^(?:ok(?:ay)?|k|yes|yep|yeah|sure|great|good|fine|done|right|cool|nice|perfect|got it|sounds good|thanks?(?: you)?"
    r"|好的?|行|嗯+|对|可以|是的|没问题|收到|明白|了解|好了|懂了|跑吧|加吧|搞定|谢谢|ok ?的)[\s!！。.,，~～]*$",
    re.IGNORECASE,
)
GREETING = _words(
    en_words(
        "hi|hello|hey|hi again|good (?:morning|afternoon|evening|night)|have a (?:good|nice|great) \\w+|see you|bye|"
        "night|morning|evening|welcome back|you're welcome|no worries|np|you saved|you're a star|amazing|awesome"
        "|g'day|gday|howdy|chat later|talk (?:to you )?later|ttyl|gotta go"
        "|that's it for today|calling it a day|done for (?:today|the day)|signing off"
    ),
    "早上好|中午好|下午好|晚上好|早安|午安|晚安|周末愉快|愉快|快乐|拜拜|回头见|欢迎回来|辛苦了|太好了|太棒了|厉害|回头聊|先撤了|先下了"
    "|今天就这样|今天先这样|今天先到这|先到这里|收工|下线了",  # signing off: "今天就这样吧，眼睛要瞎了"
)
_GREETING_LEAD = re.compile(r"^\s*(?:" + GREETING.pattern + r")[\s!！。.,，~～]+", re.IGNORECASE)
_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_EN_DATE = re.compile(rf"(?<![A-Za-z]){_MONTH}\.? \d{{1,2}}(?:st|nd|rd|th)?(?!\d)")
_EN_DAY_FIRST = re.compile(
    rf"(?<![\w.:/-])\d{{1,2}}(?:st|nd|rd|th)? {_MONTH}(?![A-Za-z])"
)  # 27 Nov, 5th December
_EN_DAY_FIRST_LOWER = re.compile(
    rf"(?<![\w.:/-])\d{{1,2}}(?:st|nd|rd|th)? {_MONTH.lower()}(?![A-Za-z])"
)  # as typed in a chat: "off on the 22nd dec till 2nd jan"
# Values the summary needs on top of the toolkit's (:func:`written_values`), each tried only when a
# cheap test says the text may hold one: a plain literal search the pattern's own match needs
# (the patterns open with a lookbehind, which makes `re` try them at every character: each is
# behind a lookahead on its first characters too, see :func:`savenow.text.alternation.quick_start`).
# (They belong beside the others in savenow/text/identifiers.py.)
_SUMMARY_VALUES: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (quick_start(hint), quick_start(pattern))
    for hint, pattern in (
        (  # a date as written: 12月15号, 2027年3月, 3月20日 (one value, not 15号)
            re.compile("[月年]"),
            # as typed with spaces too ("12 月 18 号": one date, not "18 号" alone)
            re.compile(r"(?<!\d)(?:\d{4} ?年 ?)?\d{1,2} ?月(?: ?\d{1,2} ?[日号])?|(?<!\d)\d{4}年"),
        ),
        (  # a step of a schedule: day 7, week 2, phase 3
            re.compile(r"(?:day|Day|week|Week|month|Month|phase|Phase|step|Step|round|Round) \d"),
            re.compile(
                r"(?<![A-Za-z])(?:[Dd]ay|[Ww]eek|[Mm]onth|[Pp]hase|[Ss]tep|[Rr]ound) \d{1,3}(?![\d.,]?\d)"
            ),
        ),
        (  # a day of the month: "on the 26th", "by the 3rd"
            re.compile(r"\d(?:st|nd|rd|th)"),
            re.compile(r"(?<![\w.])\d{1,2}(?:st|nd|rd|th)(?![A-Za-z])"),
        ),
        (  # January 9, Dec 18th; 27 Nov, 5th December (the day first, as much of the world writes it)
            re.compile("Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"),
            re.compile(_EN_DATE.pattern + "|" + _EN_DAY_FIRST.pattern),
        ),
        (  # …and as typed in a chat, the month in lower case: "off on the 22nd dec till 2nd jan"
            re.compile(" (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"),
            _EN_DAY_FIRST_LOWER,
        ),
        (  # a version in three parts (release 0.5.0, nginx 1.25.3, 2.0.0-rc.1): the toolkit lists only v-prefixed ones
            re.compile(r"\.\d+\.\d"),
            re.compile(r"(?<![\w.-])\d{1,4}\.\d{1,4}\.\d{1,6}(?:-[A-Za-z][\w.]*)?(?![\w-]|\.\d)"),
        ),
        (  # a phone number in groups is one value, not its groups: +65 9123 7781, 139 1766 2084, (212) 555-0199
            # …and a landline with its area code, 021-64370045, 0571-8788 1234
            re.compile(r"\+\d| \d{4}[ -]\d{4}|-\d{3}-\d{4}|\) ?\d{3}-\d{4}|\d-\d{7}|\d-\d{4} \d{4}"),
            re.compile(
                r"(?<![\w+.-])(?:\+\d{1,3}[ -]?(?:\(\d{1,4}\)[ -]?)?\d{2,4}(?:[ -]\d{3,6}){1,3}"
                r"|0\d{2,3}-\d{7,8}|0\d{2,3}-\d{4} \d{4}"
                r"|1[3-9]\d[ -]\d{4}[ -]\d{4}|(?:\(\d{3}\) ?|\d{3}[ -])\d{3}-\d{4})(?![\w-])"
            ),
        ),
        (  # an ISO date: due 2027-02-20 (one value, not the year; a log's timestamp 2026-11-26T02:14 is none)
            re.compile(r"\d-\d\d-\d"),
            re.compile(r"(?<![\w.:-])\d{4}-\d{2}-\d{2}(?![\w:-]|\.\d)"),
        ),
        (  # a name in camelCase of three parts or more, as code and error codes spell it: errSecInternalComponent
            # (not a piece of a longer token: a Gradle task `:app:minifyReleaseWithR8` is listed whole or not at all)
            re.compile(r"[a-z][A-Z][a-z0-9]+[A-Z]"),
            re.compile(r"(?<![\w./:-])[a-z]{2,}(?:[A-Z][a-z0-9]+){2,}(?![\w/:])"),
        ),
        (  # a release tag in capitals with a dated or numbered tail: RELEASE.2025-09-07T16-13-09Z
            re.compile(r"[A-Z]{3}[.-]\d"),
            re.compile(r"(?<![\w.-])[A-Z]{3,}[.-]\d[\w.:-]*[\dA-Z](?![\w-])"),
        ),
        (  # a number in scientific notation: a learning rate 2e-4, a tolerance 1e-6
            re.compile(r"\d[eE][-+]\d"),
            re.compile(r"(?<![\w.])\d(?:\.\d+)?[eE][-+]\d{1,3}(?![\w.])"),
        ),
    )
)


# A measure with its unit (the toolkit's values carry money, sizes and durations): 25 kg, 50cm, 1 米,
# 3 公斤. Single letters (g, L, W) are left out: "5g network", "size L". The unit is looked for first
# (a pattern opening with a digit is tried at every character), then the number right before it.
_UNIT = re.compile(
    r"(?:kg|mg|lbs?|oz|km|cm|mm|mi|ft|ml|mL|kWh|kW|mAh|Ah|GHz|MHz|kHz|Hz|dBm|dB|°C|°F|℃"
    r"|公斤|千克|公里|千米|厘米|毫米|毫升|斤|克|米|升|瓦|伏)(?![A-Za-z])"
)
_NUMBER_BEFORE_UNIT = quick_start(re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?$"))


def _measures(text: str) -> list[str]:
    found = []
    for unit in _UNIT.finditer(text):
        number = _NUMBER_BEFORE_UNIT.search(text, max(0, unit.start() - 12), unit.start())
        if number:
            found.append(text[number.start() : unit.end()])
    return found


def _values(text: str) -> list[str]:
    """The values in ``text`` as written: the toolkit's, plus dates, schedule steps, measures, versions,
    phone numbers."""
    found = written_values(text) + _measures(text)
    for hint, pattern in _SUMMARY_VALUES:
        if hint.search(text):
            found += [m.group(0) for m in pattern.finditer(text)]
    return found


MAX_LINE_CHARS = 260
SHORT_LINE_CHARS = 120


# --------------------------------------------------------------------------- statements


@dataclass
class Line:
    """One line of the summary: a sentence as said, in a section, with its identifiers."""

    section: str
    text: str
    order: int  # older lines have smaller numbers (previous summaries first)
    ids: frozenset[str] = frozenset()
    weight: float = 1.0  # a tool's short output counts half: it confirms, it rarely decides
    role: str = ""  # who said it, for lines of this round ("" when read back from a summary)
    turn: int = -1  # the user turn it belongs to: a user message and the replies after it
    takes_back: bool = False  # it opens a user's message that takes back what was just said

    @property
    def tier(self) -> int:
        return _BY_KEY[self.section].tier


# The hundred or so most common Chinese surnames (single characters), for names with a title.
ZH_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
_ZH_NAME = quick_start(
    re.compile(
        r"(?:[老小阿]["
        + HAN
        + r"]|["
        + HAN
        + r"](?:阿姨|师傅|姐姐|哥哥|叔叔|老师|总|姐|哥))(?=[\s，,。！？、：:的说也和跟给让要在是会来去发帮有]|$)"
        "|老妈|老爸|婆婆|公公|老婆|老公|太太|丈夫|表弟|表哥|表妹|表姐"
        # a common surname with a title: 刘教授, 李医生, 王经理 (the surname list keeps out 看医生, 找律师)
        "|[" + ZH_SURNAMES + "](?:教授|医生|大夫|经理|律师|主任|博士|老板|先生|女士|师兄|师姐|同学|主管|总监)"
    )
)
# A full name, a common surname and two characters standing alone ("导师，陈立平，他…"): only in
# a sentence that names a role, where a lone three-character run is rarely anything else.
_ZH_FULL_NAME = quick_start(
    re.compile(
        r"(?:(?<=^)|(?<=[\s，,。：:、（(「“{是叫找问和跟给由请]))["
        + ZH_SURNAMES
        + "]["
        + HAN
        + r"]{2}(?=[\s，,。！？、：:）)」”}]|$)"
        # a two-character name only right after 是 / 叫: "HR 是林芳，…"
        + r"|(?<=[是叫])["
        + ZH_SURNAMES
        + "]["
        + HAN
        + r"](?=[\s，,。！？、：:）)」”}]|$)"
    )
)
_ZH_NOT_NAMES = frozenset(
    [
        "小时",
        "小区",
        "小心",
        "小姐",
        "小票",
        "小孩",
        "小吃",
        "小米",
        "小说",
        "小事",
        "小组",
        "小数",
        "小猫",
        "小狗",
        "小店",
        "小的",
        "小号",
        "小写",
        "小于",
        "小型",
        "小包",
        "小盒",
        "小额",
        "老板",
        "老人",
        "老家",
        "老是",
        "老版",
        "老的",
        "老师",
        "老式",
        "老化",
        "老旧",
        "老样",
        "老实",
        "老用",
        "老款",
        "老规",
        "老毛",
        "老问",
        "老地",
        "老样",
        "阿里",
        "阿拉",
        "小伙",
        "小批",
        "小改",
        "小问",
    ]
)
_EN_NAME = quick_start(
    re.compile(
        r"(?:\b(?:Mrs|Mr|Ms|Dr) (?P<t>[A-Z][a-z]{2,}))"
        r"|(?<![A-Za-z])(?P<s>[A-Z][a-z]{2,})(?=(?:'s|’s)?\s+(?:asked|said|says|wants|wanted|thinks|told|tells|is doing|will do|"
        r"hasn't|doesn't|gets|needs|can't|offered|agreed|prefers|likes|hates|reviews|reviewed|sent|owns|runs|hosts|"
        r"loves|is obsessed|is allergic|is vegetarian|is vegan|just told|"
        r"rang|called|emailed|texted|messaged|replied|confirmed|mentioned|suggested|recommended|"
        # who they are with: "Marcus from Bean There rang"
        r"from (?:[A-Z][\w'’&.-]* ){1,4}(?:rang|called|emailed|texted|messaged|said|says|asked|wants|wrote)|"
        r"is (?:my|our|the|a|your))|,? (?:my|our|the|a|your) (?:friend|wife|husband|accountant|designer|reviewer|boss|colleague)"
        r"|(?:'s|’s) (?:wife|husband|sister|brother|mum|mom|dad|son|daughter|kids?|partner|cousin|friend|boss)\b"
        r"| \(\d{1,2}\))"  # a name with an age: "Layla (9)"
        r"|\b(?:friend|wife|husband|accountant|designer|reviewer|boss|colleague|baker|customer|client|neighbou?r|contractor"
        r"|cousin|ask|tell|told|with) (?P<r>[A-Z][a-z]{2,})"
    )
)
_EN_NOT_NAMES_LIST = (
    "The",
    "This",
    "That",
    "Then",
    "There",
    "They",
    "What",
    "When",
    "Where",
    "Which",
    "While",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Christmas",
    "Also",
    "Just",
    "Next",
    "Okay",
)
_EN_NOT_NAMES = frozenset(_EN_NOT_NAMES_LIST)


def people_names(text: str) -> list[str]:
    """Names of people as written: 老陈, 王阿姨, 阿杰, Jamal, Mrs Okafor → Okafor."""
    names: dict[str, None] = {}
    if _HAN.search(text):
        for match in _ZH_NAME.finditer(text):
            if match.group(0) not in _ZH_NOT_NAMES:
                names[match.group(0)] = None
        full_names = [m.group(0) for m in _ZH_FULL_NAME.finditer(text)]
        if full_names and (_fast(PERSON).search(text) or _fast(ROLE).search(text)):
            names.update(dict.fromkeys(full_names))
    capital = _EN_NAME_WORD.search(text) is not None  # every English name below is such a word
    for match in _EN_NAME.finditer(text) if capital else ():
        name = match.group("t") or match.group("s") or match.group("r")
        if name and name not in _EN_NOT_NAMES:
            names[name] = None
    # "Nadia from finance handles the invoices", "the plumber is called Ivo": in a sentence about
    # a role, a capitalized word that is no common word is the person's name
    capitalized = _answered_names(text) if capital else []
    if capitalized and _names_a_role(text):
        names.update(dict.fromkeys(capitalized))
    return list(names)


def _names_a_role(text: str) -> bool:
    return bool(_fast(PERSON).search(text) or _fast(ROLE).search(text) or _EN_ROLE_VERB.search(text))


# What a person does at work: "Nadia from finance", "Keiko handles the release", "loop in Keiko".
_EN_ROLE_VERB = quick_start(
    re.compile(
        r"[A-Z][a-z]{2,} (?:from|at|in) [a-z]|[A-Z][a-z]{2,} (?:handles|manages|runs|owns|leads|does|looks after|is in charge)"
        r"|(?:called|named|loop in|cc|ping|ask|email|text|call) [A-Z][a-z]{2,}"
    )
)


def verbatim_ids(text: str, names: list[str] | None = None) -> list[str]:
    """Identifiers and values in ``text`` as written (original case), longest first.

    Parts of a longer identifier (``0419`` of ``CRB-0419``) are not listed again.
    """
    found: dict[str, None] = {}
    folded = text.casefold()
    same_length = len(folded) == len(text)
    for key in identifiers(text):
        at = folded.find(key)
        if at >= 0 and same_length:
            value = text[at : at + len(key)]
            if _strong(value) or f"`{value}`" in text:
                found[value] = None
    for value in _values(text):
        found[value.strip().rstrip(",.;:，。")] = None
    for match in INLINE_CODE.finditer(text):
        found[match.group(1).strip()] = None
    for name in people_names(text) if names is None else names:
        found[name] = None
        _names_seen().add(name)
    for noun in proper_nouns(text):
        found[noun] = None
    ordered = sorted((v for v in found if len(v) >= 2), key=lambda v: (-len(v), v))
    result: list[str] = []
    for value in ordered:
        if not any(value in longer for longer in result):
            result.append(value)
    return result


_EN_NAME_WORD = re.compile(r"[A-Z][a-z]{2,}")
_EN_PROPER = quick_start(
    re.compile(r"(?<![\w'’-])[A-Z][\w’'&.-]*(?: (?:(?:of|de|la|du|the) )?[A-Z][\w’'&.-]*){1,4}")
)
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n)\W*$")
_NOT_PROPER = (
    frozenset(w.casefold() for w in (*EN_NOT_NAMES, *_EN_NOT_NAMES_LIST))
    | EN_COMMON_WORDS
    | frozenset(
        [
            "for",
            "in",
            "on",
            "at",
            "to",
            "by",
            "of",
            "if",
            "so",
            "ok",
            "hi",
            "yes",
            "no",
            "and",
            "or",
            "but",
            "it",
            "we",
            "i",
            "my",
            "our",
            "your",
            "his",
            "her",
            "its",
            "a",
            "an",
            "as",
            "or",
        ]
    )
)
# A place or business named by its kind: 巷子深火锅, 成都博物馆, 鹤鸣茶社 (the name is the run before the kind).
_ZH_PLACE_KIND = re.compile(
    "酒店|饭店|宾馆|民宿|餐厅|饭馆|火锅|烧烤|茶社|茶馆|咖啡馆|博物馆|美术馆|图书馆|公园|医院|诊所|学校|小学|中学|大学"
    "|商场|广场|超市|机场|车站|景区|寺"
)
_ZH_NAME_STOP = frozenset(
    "的一家个了是在去到和跟住订约那这边旁附近推荐位间我你他她们也就还先再把被给让从离回来过说刚找问对"
    "吃喝怕想要看"  # what one does at a place ends its name: "今晚吃火锅", "就怕吃医院的饭" name none
    "下者属入"  # the tail of a word before the name: 看下, 或者, 附属, 转入 ("看下瑞金医院" names 瑞金医院)
)


# "Out Wed", "Back Sun", "Mum Dad": a day, a month or a relative is no part of a name.
_CALENDAR_AND_KIN = frozenset(w.casefold() for w in _EN_NOT_NAMES_LIST if w[0].isupper()) | frozenset(
    [
        "mon",
        "tue",
        "tues",
        "wed",
        "thu",
        "thur",
        "thurs",
        "fri",
        "sat",
        "sun",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "mum",
        "mom",
        "dad",
    ]
)


def proper_nouns(text: str) -> list[str]:
    """Names of places, businesses and products as written: "Hotel Gran Feel Tennoji", "Tokyo
    DisneySea" (two or more capitalized words; a sentence's first word only when it is no common
    word), "巷子深火锅", "成都博物馆" (two to five characters before a kind of place)."""
    nouns: list[str] = []
    headers = _table_headers(text)
    for match in _EN_PROPER.finditer(text):
        if any(start <= match.start() < end for start, end in headers):
            continue
        words = match.group(0).rstrip(".'’-").split(" ")
        if _SENTENCE_START.search(text[: match.start()]) and (
            words[0].casefold() in _NOT_PROPER or words[0].endswith(("ing", "ed"))
        ):
            words = words[1:]
        while words and (words[0].casefold() in _NOT_PROPER or words[0] in _LOG_LEVELS):
            words = words[1:]
        while words and words[-1] == "I":  # "Shall I send it?": the pronoun names nothing
            words = words[:-1]
        if len(words) >= 2 and not any(w.casefold().rstrip(".") in _CALENDAR_AND_KIN for w in words):
            nouns.append(_with_house_number(text, match.start(), " ".join(words)))
    if _HAN.search(text):
        for match in _ZH_PLACE_KIND.finditer(text):
            start = _zh_name_start(text, match.start())
            if match.start() - start >= 2:
                nouns.append(text[start : match.end()])
        for match in _ZH_STREET_NUMBER.finditer(text):
            start = _zh_name_start(text, match.start())
            if match.start() - start >= 1:
                nouns.append(text[start : match.end()])
        nouns += [m.group(0) for m in _ZH_BUILDING.finditer(text)]
    return nouns


# A log line's level is no part of a name: "WARN Delivery failed", "E ProcessGroupNCCL.cpp:1234".
_LOG_LEVELS = frozenset(
    [
        "E",
        "W",
        "F",
        "D",
        "TRACE",
        "DEBUG",
        "INFO",
        "NOTICE",
        "WARN",
        "WARNING",
        "ERR",
        "ERROR",
        "CRIT",
        "CRITICAL",
        "FATAL",
    ]
)
_COLUMNS = re.compile(r" {2,}|\t")


def _table_headers(text: str) -> list[tuple[int, int]]:
    """Spans of the header rows of a table a command printed ("Filesystem  Size  Used Avail Use%",
    "  PID TTY          TIME CMD"): columns apart by runs of spaces, no digit, above a row of
    columns with figures. Its words are column names, not names of anything a person needs."""
    if "  " not in text and "\t" not in text:
        return []
    spans = []
    at = 0
    rows = text.split("\n")
    for row, below in zip(rows, [*rows[1:], ""]):
        if _is_columns(row) and not _DIGIT.search(row) and _is_columns(below) and _DIGIT.search(below):
            spans.append((at, at + len(row)))
        at += len(row) + 1
    return spans


def _is_columns(row: str) -> bool:
    return len(_COLUMNS.split(row.strip())) >= 2


# An address: "27 Bath Street" (the number before a street's name is part of it), 星湖街 328 号,
# 住院部 8 号楼. The street's kind says the number is a house number, not a time or a count.
_STREET_KIND = frozenset(
    [
        "street",
        "st",
        "road",
        "rd",
        "avenue",
        "ave",
        "lane",
        "ln",
        "drive",
        "dr",
        "way",
        "place",
        "pl",
        "square",
        "sq",
        "crescent",
        "court",
        "terrace",
        "close",
        "gardens",
        "row",
        "walk",
        "boulevard",
        "blvd",
    ]
)
_HOUSE_NUMBER = quick_start(re.compile(r"(?<![\w.,:/£$€¥-])\d{1,4}[A-Za-z]? $"))
_ZH_STREET_NUMBER = re.compile(r"(?:大道|街|路|巷|弄) ?\d{1,5} ?号(?!楼)")
_ZH_BUILDING = re.compile(r"(?<![\d.])\d{1,4} ?(?:号楼|栋|幢)")


def _with_house_number(text: str, start: int, noun: str) -> str:
    if noun.rsplit(" ", 1)[-1].casefold().rstrip(".") not in _STREET_KIND or not text.startswith(noun, start):
        return noun
    number = _HOUSE_NUMBER.search(text, max(0, start - 6), start)
    return text[number.start() : start] + noun if number else noun


def _zh_name_start(text: str, end: int) -> int:
    """Where a Chinese name ending at ``end`` starts: up to five characters back, stopping at a
    character that ends the words before it (的, 在, 去, 附属's 属…)."""
    start = end
    while (
        start > 0 and start > end - 5 and _HAN.match(text[start - 1]) and text[start - 1] not in _ZH_NAME_STOP
    ):
        start -= 1
    return start


# English words this summary saw used as a person's name (a capitalized word is strong only then).
# Per summarize() call, so a summary never depends on what the process summarized before.
_NAMES: ContextVar[set[str] | None] = ContextVar("savenow_compaction_names", default=None)


def _names_seen() -> set[str]:
    names = _NAMES.get()
    if names is None:
        names = set()
        _NAMES.set(names)
    return names


_STRONG = re.compile(r"\d|[/@:#_]|\.[A-Za-z]|^[A-Z][A-Z0-9]+$|[a-z][A-Z]|^[A-Z]{2,}")


def _strong(value: str) -> bool:
    """An identifier a person could not guess: digits, a path, a key, an address, CamelCase, CAPS,
    or a name of three or more hyphenated parts (``zhou-family-bak``; not ``pre-order``)."""
    return _strong_shape(value) or (_name_word(value) and value in _names_seen())


@lru_cache(maxsize=8192)
def _strong_shape(value: str) -> bool:
    """:func:`_strong` except for the names this summary saw: the same for a value every time it is
    asked (and a summary asks about each identifier many times)."""
    return (
        bool(_STRONG.search(value))
        or value.count("-") >= 2
        or bool(_ZH_NAME.fullmatch(value))
        or _is_proper(value)
    )


@lru_cache(maxsize=8192)
def _name_word(value: str) -> bool:
    """A capitalized word that could be a person's name (strong once the chat used it as one)."""
    return bool(_EN_NAME_WORD.fullmatch(value)) and value not in _EN_NOT_NAMES


_PROPER_SHAPE = re.compile(r"[A-Z][\w’'&.-]*(?: (?:(?:of|de|la|du|the) )?[A-Z][\w’'&.-]*)+")


def _is_proper(value: str) -> bool:
    """A name of a place, business or product (see :func:`proper_nouns`)."""
    return bool(_PROPER_SHAPE.fullmatch(value)) or (
        len(value) <= 9 and bool(_ZH_PLACE_KIND.search(value)) and bool(_HAN.fullmatch(value[0]))
    )


def _about_someone(text: str) -> bool:
    """The sentence's subject, in its first words, is a person this chat named."""
    head = " ".join(text.split()[:3])
    if not _NAME_CHAR.search(head):
        return False  # every name this chat named has a capital or a Han character (see people_names)
    return any(name in head and _name_at_word_start(name).search(head) for name in _names_seen())


_NAME_CHAR = re.compile("[A-Z" + HAN + "]")


@lru_cache(maxsize=1024)
def _name_at_word_start(name: str) -> re.Pattern[str]:
    # compiled once per name: patterns built on the fly would crowd the `re` module's cache
    # (512 entries) and make every other inline pattern compile again
    return re.compile(rf"(?<![\w]){re.escape(name)}(?![a-z])")


_LEXEMES: dict[int, Screened] = {}


def _fast(lexicon: re.Pattern[str] | Lexeme) -> Lexeme | Screened:
    """The lexicon as a :class:`Lexeme` (the same answers, searched case-sensitively on the
    lowercased sentence, about twice as fast as an IGNORECASE pattern), screened first for the
    words every match contains (:mod:`.screen`)."""
    if isinstance(lexicon, Lexeme):
        return lexicon
    fast = _LEXEMES.get(id(lexicon))
    if fast is None:
        fast = _LEXEMES[id(lexicon)] = Screened(lexicon)
    return fast


class _Marks:
    """Which lexicons a sentence matches, each searched at most once (the noise test and the
    section test ask about the same few)."""

    __slots__ = ("_found", "_question", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._found: dict[int, bool] = {}
        self._question: bool | None = None

    def __call__(self, lexicon: re.Pattern[str] | Lexeme) -> bool:
        key = id(lexicon)
        hit = self._found.get(key)
        if hit is None:
            fast = _LEXEMES.get(key) or _fast(lexicon)
            hit = self._found[key] = fast.search(self.text) is not None
        return hit

    @property
    def question(self) -> bool:
        if self._question is None:
            self._question = is_question(self.text)
        return self._question


def _kind(text: str, role: str, has_ids: bool, marks: _Marks | None = None) -> str | None:
    """The section a sentence belongs to, or None to leave it out."""
    has = marks or _Marks(text)
    if has.question:  # a question asks; it has not decided, preferred or failed anything yet
        if role == "user":
            return "requests" if has_ids or has(REQUEST) else None
        return "context" if has_ids else None
    # the cheap tests of role and identifiers go first: a lexicon is searched only when it can decide
    if (has_ids or role == "user") and has(ERROR):
        return "errors"
    if role == "user" and has(PREFERENCE):
        return "preferences"
    if has(OPEN) and (has_ids or role == "user" or has(DEFERRAL)):
        return "open"
    if has(DECISION):
        return "decisions"
    if has(PERSON) and (has_ids or role == "user" or has(_NAME)):
        return "people"
    if has(ROLE) and (has(_NAME) or people_names(text)):
        return "people"
    if role == "user" and _about_someone(text):
        return "people"  # "Omar is vegetarian", "Sami gets carsick": what a named person is like
    if role == "user" and has(REQUEST):
        return "requests"
    if has_ids:
        return "context"
    if role == "user" and len(text) >= 12:
        return "requests"
    return None


_MARKED = re.compile("|".join(p.pattern for p in (DECISION, OPEN, ERROR, PREFERENCE, ABANDON)), re.IGNORECASE)
_NAME = re.compile(
    r"(?<![A-Za-z])[A-Z][a-z]{2,}(?![A-Za-z])|[老小阿]["
    + HAN
    + r"]|["
    + HAN
    + r"](?:阿姨|师傅|姐|哥|总|老师)"
)


# A question that offers a cause ("那是路由器转发没弄对？", "is it the DNS?"): a guess, not a request.
_CAUSE_QUESTION = _words(
    # …or doubts a value the chat already has: "actually wait, was it $2,000?"
    en_words("is it (?:the|a|because)|because of|due to|caused by|was it|wasn't it|did (?:i|we|you) say"),
    "^(?:那|这)?是因为|^(?:那|这)是|难道",
)
# An interjection that opens a remark ("oh god it's 6:30", "no way, …我会疯的", "外面好冷啊"): chatter.
_INTERJECTION_LEAD = re.compile(
    r"^\W*(?:oh (?:god|no|man|boy|dear)|omg|wow|ugh|damn|yikes|jeez|no way|天哪|天啊|我去|妈呀|我的天|卧槽|唉|哎呀)(?![A-Za-z])"
    "|^[^，,。!！?？]{0,8}(?:好冷|好热|好累|好困|好饿|好烦)啊",
    re.IGNORECASE,
)
_LAUGH_TAIL = quick_start(
    re.compile(r"(?<![A-Za-z])(?:lol|lmao|haha(?:ha)*|hehe)\W*$|(?:哈哈+|嘿嘿|笑死)\W*$", re.IGNORECASE)
)
_LAUGH_LEAD = re.compile(
    r"^\W*(?:ha(?:ha)*|he(?:he)+|lol|lmao|rofl|哈哈+|嘿嘿|呵呵|笑死|2333+)(?![A-Za-z])", re.IGNORECASE
)


@lru_cache(maxsize=8192)
def _hard_id(value: str) -> bool:
    """An identifier that makes a sentence a fact on its own: not a name, not a bare count or time.
    (A word of a name's shape is never one, so the names seen do not matter: remembered.)"""
    return (
        _strong_shape(value)
        and not _PLAIN_QUANTITY.match(value)
        and not _EN_NAME_WORD.fullmatch(value)
        and not _ZH_NAME.fullmatch(value)
    )


def _noise(text: str, role: str, has_ids: bool, ids: Sequence[str] = (), marks: _Marks | None = None) -> bool:
    stripped = text.strip()
    has = marks if marks is not None and marks.text == stripped else _Marks(stripped)
    if ACK.match(stripped):
        return True
    if (_LAUGH_LEAD.match(stripped) or _LAUGH_TAIL.search(stripped)) and not any(_hard_id(v) for v in ids):
        return True  # "Ha, Godzilla needs a holiday too", "哈哈 … 3 万张猫的照片": a joke, whatever it names
    if _INTERJECTION_LEAD.match(stripped) and not any(_hard_id(v) for v in ids) and not has(_MARKED):
        return True
    if not has_ids and (has(CHITCHAT) or has(GREETING)):
        chitchat = _fast(CHITCHAT).search(stripped) or _fast(GREETING).search(stripped)
        if len(stripped) < 60 or (chitchat is not None and chitchat.start() == 0):
            return True  # "哈哈…", "haha Tom just sent me a meme about …"
    if has.question and (has(GUESS) or has(_CAUSE_QUESTION)):
        return True  # a guess put as a question: later confirmed or dropped, never a fact yet
    if _GUESS_LEAD.match(stripped):
        return (
            True  # "My guess is … instead of guessing", "我猜是…改成…": a guess first, whatever words follow
        )
    if role == "user" and not has(DECISION) and has(GUESS):
        return True  # "probably just a loose cable": a theory, not a fact
    if role == "assistant" and has.question and not has_ids:
        return True
    if role == "assistant" and not has(DECISION) and has(GUESS):
        return True
    if not has(DECISION) and has(RULED_OUT) and _rules_out(stripped):  # DECISION is often known already
        return True
    if not has_ids and _substance(stripped) < 12 and not (has(DECISION) or has(PREFERENCE)):
        return True  # "ok next.", "yes please, short", "先这样"
    return not has_ids and len(stripped) < 8


# A sentence that opens by calling itself a guess is one, whatever decision words it goes on to use.
_GUESS_LEAD = re.compile(
    r"^\W*(?:(?:so |and |but )?(?:my (?:guess|hunch|bet)|i bet|i suspect|my money's on|first thought)(?![A-Za-z])"
    r"|我猜|我怀疑|我估计|第一反应|我的猜测)",
    re.IGNORECASE,
)


# 排除 is "rule out" and "exclude": before a name ("排除 build-01", "排除掉 `@eaDir`") it is an
# action on that thing, not a cause ruled out.
_EXCLUDES = re.compile(r"排除(?:掉|了)?\s*[`A-Za-z0-9/@#~.]")


def _rules_out(text: str) -> bool:
    """The sentence rules a cause out (its RULED_OUT marker is no "exclude X")."""
    if "排除" not in text:
        return True
    return _fast(RULED_OUT).search(_EXCLUDES.sub(" ", text).casefold()) is not None


def _substance(text: str) -> int:
    """About how many letters of content a sentence has: a Han character counts for three."""
    cjk = 0 if text.isascii() else len(_HAN.findall(text))
    alnum = len(text) - len(text.translate(_WITHOUT_ALNUM))  # counted without a list of characters
    return 3 * cjk + alnum - (3 if not cjk and len(text.split()) <= 3 else 0) * 4


_WITHOUT_ALNUM = dict.fromkeys(map(ord, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"))


_HAN = re.compile(r"[" + HAN + r"]")


_CLIP_CLAUSE = re.compile(r"(?<=[，,;；:：])\s*|(?<=\.)\s+")


def _clip(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > SHORT_LINE_CHARS:
        clauses = [c.strip() for c in _CLIP_CLAUSE.split(text) if c.strip()]
        useful = [
            c for c in clauses if _values(c) or INLINE_CODE.search(c) or identifiers(c) or _MARKED.search(c)
        ]
        if useful and len(useful) < len(clauses):
            text = " ".join(useful)
    if len(text) <= MAX_LINE_CHARS:
        return text
    cut = max(text.rfind(mark, 0, MAX_LINE_CHARS) for mark in ("，", ",", "；", ";", "。", " "))
    return text[: cut if cut > MAX_LINE_CHARS // 2 else MAX_LINE_CHARS].rstrip(" ,，;；")


Change = tuple[str, str, float]  # (key, setting as written, order): what a tool call set, and when


def statements(
    messages: Sequence[SessionMessage], start_order: int
) -> tuple[list[Line], dict[str, str], list[Change], list[Line]]:
    """The candidate lines of ``messages``, the files their tool calls touched, the settings they
    changed, and the sentences left out that withdraw something (:mod:`.withdrawn`)."""
    lines: list[Line] = []
    withdrawing: list[Line] = []  # sentences left out that still withdraw something
    files: dict[str, str] = {}
    changes: list[Change] = []
    order = start_order
    turn = 0
    question = ""  # the question the assistant's last message ended on
    offered = False  # and whether that message offered to do something
    # A long session says the same things again and again ("ok, do it", a reply's template
    # sentence): each distinct text is read once. What a text yields depends on the names seen
    # so far (a set that only grows), so the number of names seen is part of the key.
    readings: dict[tuple[str, int], tuple[list[str], list[str], list[str]]] = {}
    kinds: dict[tuple[str, str, tuple[str, ...], bool, int], str | None] = {}
    clipped: dict[str, str] = {}
    shown: dict[str, str] = {}  # path → the content a read showed or a write gave it
    reading_path = ""
    proposals: list[int] = []  # the lines of the last assistant message (what a decline may turn down)
    for message in messages:
        if message.role == "system":
            continue
        asked, question = question, ""
        was_offered, offered = offered, False
        if message.role == "user":
            turn += 1
            if proposals and _DECLINE_LEAD.match(message.content):
                lines = _without_declined(lines, proposals)  # "…on load_bq? I can override it." → "no, don't"
            proposals = []
            answer = _answer_line(asked, message.content, order + 1, turn, was_offered)
            if answer is not None:
                order += 1
                lines.append(answer)
                continue
        if message.role == "tool":
            if reading_path:  # what the file held before the chat rewrites it
                shown[reading_path] = message.content
                reading_path = ""
            # A short result confirms something (a commit id, a created resource): its identifiers count.
            if message.content.count("\n") < 3 and len(message.content) < 400:
                ids = verbatim_ids(message.content)
                if ids:
                    order += 1
                    lines.append(Line("context", _clip(message.content), order, frozenset(ids), weight=0.3))
            continue
        if message.is_tool_call:
            for key, text in _tool_files(message.tool_name or "", message.tool_input or "", files):
                changes.append((key, text, order + 0.5))
            for key, text in _rewritten(message, shown):
                _note_setting(files, key, text)
                changes.append((key, text, order + 0.5))
            reading_path = _read_path(message)
        if not message.content.strip():
            continue
        reading_key = (message.content, len(_names_seen()))
        reading = readings.get(reading_key)
        if reading is None:
            found_names = people_names(message.content)
            message_ids = verbatim_ids(
                message.content, found_names
            )  # once per message; sentences pick their own
            reading = readings[reading_key] = (found_names, message_ids, sentences(message.content))
        found_names, message_ids, said = reading
        names = set(found_names)
        if message.role == "assistant":  # the question it ends on (an aside may follow it)
            question = next((q for q in reversed(said[-2:]) if is_question(q)), "")
            offered = bool(question) and _fast(OFFER).search(message.content) is not None
        # "scratch that, …" takes back what was just said; after a question it declines the offer
        opener = message.role == "user" and not asked and takes_back(message.content)
        for position, sentence in enumerate(said):
            first_opener = opener and position == 0
            text = clipped.get(sentence) or clipped.setdefault(
                sentence, _clip(_GREETING_LEAD.sub("", sentence))
            )
            ids = [v for v in message_ids if v in text]
            kind_key = (text, message.role, tuple(ids), any(v not in names for v in ids), len(_names_seen()))
            if kind_key in kinds:
                kind = kinds[kind_key]
            else:
                kind = kinds[kind_key] = _sentence_kind(text, message.role, message_ids, names)
            # A user's sentence with no marker of a request ("炖好了，馒头一直在厨房门口蹲着") is
            # narration far more often than a request: it lands in requests, but is worth less.
            plain = kind == "requests" and not _fast(REQUEST).search(text) and not ids
            if plain and message.role == "user" and _gives_a_count(text):
                kind, plain = "decisions", False  # "update: 16 guests now" sets a value, it is no narration
            if kind is None or (plain and _substance(text) < 30):
                if (
                    may_withdraw(text) or first_opener
                ):  # "宽窄巷子那家不考虑了" is no line, but it takes the option back
                    order += 1
                    withdrawing.append(
                        Line("context", text, order, frozenset(ids), 0.0, message.role, turn, first_opener)
                    )
                continue
            order += 1
            text = _strip_ack_lead(text) or text
            if first_opener:  # "刚才说的不算，桶是 …": what follows the opening words is the line
                text = without_take_back(text) or text
            if message.role == "assistant":
                proposals.append(order)  # whether it proposes is asked only if the user declines
            lines.append(
                Line(
                    kind,
                    text,
                    order,
                    frozenset(ids),
                    PLAIN_WEIGHT if plain else 1.0,
                    message.role,
                    turn,
                    first_opener,
                )
            )
    if files:
        known = "\n".join(files)
        lines = [
            line
            for line in lines
            if not (
                line.section == "context"
                and line.ids
                and line.weight < 1
                and all(v in known or _PLAIN_QUANTITY.match(v) for v in line.ids)
            )
        ]  # a tool's "wrote 331 bytes to ~/x.txt" says no more than the file list (a user's plain line is no echo)
    if any(line.weight == PLAIN_WEIGHT and line.role == "user" for line in lines):
        lines = _one_offs_weigh_less(lines, messages)
    return _drop_restatements(lines), _tidy_files(files), changes, withdrawing


PLAIN_WEIGHT = 0.6
ONE_OFF_WEIGHT = 0.3


def _without_declined(lines: list[Line], proposals: Sequence[int]) -> list[Line]:
    """The assistant's proposals and questions the user's next message turns down ("Simplest: add
    `on_failure_callback=None` on load_bq? … I can override it." → "no, don't change the DAG again
    today"): what was offered did not happen; the user's words say what does."""
    declined = set(proposals)
    kept = []
    for line in lines:
        if line.order not in declined or not (is_question(line.text) or _fast(OFFER).search(line.text)):
            kept.append(line)
            continue
        before = _before_offer(line.text)  # "按规矩要 7:30 前私信，要不要我明早提醒你？": the rule stays
        if before:
            kept.append(replace(line, text=before, ids=frozenset(v for v in line.ids if v in before)))
    return kept


_OFFER_CLAUSE = re.compile(r"[，,;；:：]\s*")


def _before_offer(text: str) -> str:
    """The clauses of ``text`` before the one that offers ("I can …", "要不要我 …"), when they say
    something of their own; "" otherwise (a proposal put as a question goes whole)."""
    offer = _fast(OFFER).search(text)
    if offer is None:
        return ""
    cut = max((m.start() for m in _OFFER_CLAUSE.finditer(text, 0, offer.start())), default=0)
    before = text[:cut].strip(" ,，;；:：")
    return before if _substance(before) >= 12 else ""


def _one_offs_weigh_less(lines: list[Line], messages: Sequence[SessionMessage]) -> list[Line]:
    """A user's plain remark (no request marker, no identifier) whose words nobody takes up after
    the reply to it ("最近在看《漫长的季节》", "the starter is bubbling like crazy today btw") is
    one-off chatter far more often than a fact: it weighs half, so it is the first to give way.
    A remark the chat comes back to ("and the dockerfile still uses poetry") keeps its weight."""
    last_turn: dict[str, int] = {}
    turn = 0
    for message in messages:
        if message.role == "user":
            turn += 1
        if message.role in ("user", "assistant"):
            for term in _remark_terms(message.content):
                last_turn[term] = turn
    return [
        replace(line, weight=ONE_OFF_WEIGHT)
        if line.weight == PLAIN_WEIGHT
        and line.role == "user"
        and not any(last_turn.get(term, 0) > line.turn for term in _remark_terms(line.text))
        else line
        for line in lines
    ]


def _remark_terms(text: str) -> set[str]:
    """Pairs of Han characters and Latin words of four letters or more that are no common word."""
    folded = text.casefold()
    terms = {run[i : i + 2] for run in _HAN_RUN.findall(folded) for i in range(len(run) - 1)}
    terms.update(w for w in _LATIN_WORD.findall(folded) if w not in EN_COMMON_WORDS)
    return terms


_HAN_RUN = re.compile("[" + HAN + "]{2,}")
_LATIN_WORD = re.compile(r"[a-z][a-z0-9_.-]{3,}")


MAX_ANSWER_CHARS = 60
# A reply that opens as an answer does: "没有身份证，带户口本", "要的，你帮我写一段", "no, the blue one".
# A reply that turns an offer down ("I can backfill them. Run it tonight?" → "not tonight"): the offer
# is no plan, and the reply (and the assistant's next message) says what is. A question about a fact
# ("孩子有身份证吗？" → "没有身份证，带户口本") keeps its answer.
_DECLINE_LEAD = re.compile(
    r"^\W*(?:no|nope|nah|not|don't|never)(?![A-Za-z'])|^\W*(?:不|别|没有|没)(?![错过久少同])", re.IGNORECASE
)
OFFER = _words(
    en_words("i can|i could|want me to|should i|shall i|do you want|would you like|let me|i'll"),
    "要不要|需要我|要我|我可以|我来|我帮你|是否需要|我先",
)
_ANSWER_LEAD = re.compile(
    r"^\W*(?:yes|yeah|yep|no|nope|sure|not|对|是|不是|没有|有|要|不要|不用|可以|不行|行|用|不)", re.IGNORECASE
)


def _answer_line(question: str, reply: str, order: int, turn: int, offered: bool = False) -> Line | None:
    """A short reply to the assistant's question, with the question it answers: "Maybe the rings go
    with the maid of honor? → yes, Marisol." ("yes, Marisol." alone says nothing). A bare "ok",
    a question back or a joke is no answer worth keeping."""
    reply = " ".join(reply.split())
    if not question or not reply or len(reply) > MAX_ANSWER_CHARS or is_question(reply):
        return None
    if (
        ACK.match(reply)
        or (offered and _DECLINE_LEAD.match(reply))  # "I can… Run it tonight? → not tonight": no such plan
        or _LAUGH_LEAD.match(reply)
        or _fast(CHITCHAT).search(reply)
        or _fast(GREETING).search(reply)
    ):
        return None
    asked = _clip(_strip_ack_lead(question) or question)
    if len(asked) > SHORT_LINE_CHARS:
        return None
    own_names = people_names(reply)
    own_ids = verbatim_ids(reply, own_names)
    said = sentences(reply)
    if any(_sentence_kind(t, "user", own_ids, set(own_names)) for t in said):
        return None  # it says enough on its own ("she lives next door" after "yes, Priyanka." does not)
    named = bool(own_names or _answered_names(reply) or any(_hard_id(v) for v in own_ids))
    if not named and (_substance(reply) < 6 or not _ANSWER_LEAD.match(reply)):
        return None  # "要": the assistant's next message says what was agreed; "推荐一下" answers nothing
    text = f"{asked} → {reply}"
    # a capitalized word that is no common word, in a short answer, is what was asked for: a name
    names = list(dict.fromkeys([*people_names(text), *_answered_names(reply)]))
    ids = verbatim_ids(text, names)
    statement = asked.rstrip("?？ ")
    kind = next(
        (
            k
            for k in (_kind(reply, "user", bool(ids)), _kind(statement, "user", bool(ids)))
            if k not in (None, "requests")
        ),
        "requests",
    )
    return Line(kind, text, order, frozenset(ids), 0.6 if kind == "requests" else 1.0, "user", turn)


def _answered_names(reply: str) -> list[str]:
    words = _EN_NAME_WORD.findall(reply)
    if not words:
        return []
    # a capitalized word that also stands alone somewhere (not only inside "McDonald" or "JohnSmith")
    alone = set(_EN_NAME_WORD_ALONE.findall(reply))
    return [
        word
        for word in words
        if word in alone and word.casefold() not in _NOT_PROPER and word.casefold() not in _CALENDAR_AND_KIN
    ]


_EN_NAME_WORD_ALONE = re.compile(r"(?<![A-Za-z])[A-Z][a-z]{2,}(?![A-Za-z])")


def _sentence_kind(text: str, role: str, message_ids: Sequence[str], names: set[str]) -> str | None:
    """The section a sentence goes to, or None when it is noise or says nothing worth keeping."""
    ids = [v for v in message_ids if v in text]
    marks = _Marks(text)
    kind = _kind(
        text, role, bool(ids), marks
    )  # first: most sentences have no section, and that is cheap to see
    if kind is None or _noise(text, role, any(v not in names for v in ids), ids, marks):
        return None  # a name alone does not make "haha Tom sent me a meme" a fact
    return kind


# "好的，明白了：…", "Noted: …", "Got it —": an acknowledgement that opens a sentence says nothing.
_ACK_LEAD = re.compile(
    r"^(?:(?:好的?|行|嗯+|对|可以|是的|没问题|收到|明白了?|了解|懂了|记下了?|记住了|已记下|已记|记好了|ok(?:ay)?|sure"
    r"|got it|noted|understood|will do|done|great|perfect|right|yes|yep)(?![A-Za-z])(?:[\s!！。.,，:：—–]|-(?![-\w]))+)+",
    # a dash is a separator only on its own: "OK，--batch-size 32" keeps its option
    re.IGNORECASE,
)


def _strip_ack_lead(text: str) -> str:
    return _ACK_LEAD.sub("", text, count=1).strip()


_TERM_WORD = re.compile(r"[a-z0-9][a-z0-9._/-]*")


@lru_cache(maxsize=4096)
def _terms(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """A sentence's content as single characters and pairs of Han characters plus its Latin words.

    Remembered: each open item is compared with every later "done" line, each confirmation with
    its turn's user lines."""
    folded = text.casefold()
    han = _HAN.findall(folded)
    words = frozenset(_TERM_WORD.findall(folded))
    pairs = frozenset(a + b for a, b in pairwise(han)) | words
    return frozenset(han) | words, pairs


def _covered(line: Line, by: Sequence[Line]) -> float:
    """How much of ``line`` the lines ``by`` already say (0–1), by characters and by pairs."""
    single, pairs = _terms(line.text)
    if not single:
        return 0.0
    other_single: set[str] = set()
    other_pairs: set[str] = set()
    for other in by:
        s, p = _terms(other.text)
        other_single |= s
        other_pairs |= p
    one = len(single & other_single) / len(single)
    two = len(pairs & other_pairs) / len(pairs) if pairs else one
    return (one + two) / 2


RESTATED = 0.6


def _drop_restatements(lines: list[Line]) -> list[Line]:
    """An assistant's confirmation that only repeats what the user just said ("好的，小叶负责设计出图，
    老周是工长管施工。" after "设计师小叶出图，工长是老周…") goes: the user's own words stay, as
    said. A confirmation that adds a value the user did not give stays."""
    by_turn: dict[int, list[Line]] = {}
    for line in lines:
        if line.role == "user":
            by_turn.setdefault(line.turn, []).append(line)
    kept = []
    for line in lines:
        said = by_turn.get(line.turn, [])
        if (
            line.role == "assistant"
            and said
            and line.ids <= frozenset().union(*(u.ids for u in said))
            and _covered(line, said) >= RESTATED
        ):
            continue
        kept.append(line)
    return kept


# The machine a command runs against: ssh [opts] [user@]host, psql -h host, --host=host.
_HOST_ARG = re.compile(
    r"(?:\bssh\s+(?:-[A-Za-z]+\s+(?:\S+\s+)?)*|\s-h\s+|--host[=\s]+)(?:[\w.-]+@)?(?P<host>[A-Za-z0-9][\w.-]*[A-Za-z0-9])"
)


_HOST_MARK = re.compile(r"[\d.-]")


def tool_hosts(messages: Sequence[SessionMessage], start_order: int) -> list[tuple[str, int]]:
    """Hosts the shell commands ran against, for the identifier line (a host often appears only
    in a command: ``psql -h wh-db-02 …``). Each host once, with the order of its first call."""
    found: dict[str, int] = {}
    for index, message in enumerate(messages):
        if message.tool_name not in ("bash", "shell", "exec", "sh") or not message.tool_input:
            continue
        for match in _HOST_ARG.finditer(message.tool_input):
            host = match.group("host")
            if _HOST_MARK.search(host) and not host.startswith("-"):
                found.setdefault(host, start_order + index)
    return list(found.items())


_FENCED = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
# a path, a camelCase key (each looked for only where its cheap sign is: a slash, a capital after a letter)
_CODE_PATH = re.compile(r"(?<![\w./~-])~?/[\w.@-]+(?:/[\w.@-]+)+(?![\w/])")
_CAMEL_SIGN = re.compile(r"[a-z][A-Z]")
_CODE_CAMEL = re.compile(r"(?<![\w./~-])[a-z]+(?:[A-Z][a-z0-9]+)+(?![\w/])")
MAX_CODE_IDS = 3
MAX_CODE_LINES = 12


def code_ids(messages: Sequence[SessionMessage], start_order: int) -> list[tuple[str, int]]:
    """Paths and camelCase keys of the short code an assistant proposes ("加一个 deploy hook：" and a
    block that writes /etc/letsencrypt/renewal-hooks/deploy/reload-nginx.sh, a lifecycle rule with
    ``daysFromHidingToDeleting``), for the identifier line: the sentence before the block keeps only
    its words. Not what a user pastes (logs, output), not what the prose names already."""
    found: dict[str, int] = {}
    read: dict[str, list[list[str]]] = {}  # a long session repeats its messages: each text once
    for index, message in enumerate(messages):
        if message.role != "assistant" or "```" not in message.content:
            continue
        blocks = read.get(message.content)
        if blocks is None:
            blocks = read[message.content] = _code_keys(message.content)
        for keys in blocks:
            for value in [v for v in keys if v not in found][:MAX_CODE_IDS]:
                found[value] = start_order + index
    return list(found.items())


def _code_keys(content: str) -> list[list[str]]:
    """Per short code block of ``content``, its paths and camelCase keys its prose does not name."""
    prose = _FENCED.sub(" ", content)
    result = []
    for block in _FENCED.findall(content):
        if block.count("\n") >= MAX_CODE_LINES:
            continue
        keys = _CODE_PATH.findall(block) if "/" in block else []
        if _CAMEL_SIGN.search(block):
            keys += _CODE_CAMEL.findall(block)
        result.append([v for v in dict.fromkeys(keys) if v not in prose])
    return result


# A name a command works on: a repository (owner/name), a branch (fix/x-y), a namespace path.
_TARGET = re.compile(r"^[A-Za-z][\w.-]*(?:/[\w.-]+)+$")
_TOKEN_SPLIT = re.compile(r"[\s'\"`=;|&()<>]+")


def tool_targets(messages: Sequence[SessionMessage], start_order: int) -> list[tuple[str, int]]:
    """Names that two or more shell commands work on (``gh … -R acme/api``, ``git checkout -b
    fix/db`` then ``git push origin fix/db``), for the identifier line: what a command keeps coming
    back to is what the work is about, and the chat often never writes it in prose. Files are
    listed under Files; URLs and flags are no names."""
    seen: dict[str, set[int]] = {}
    first: dict[str, int] = {}
    for index, message in enumerate(messages):
        if message.tool_name not in ("bash", "shell", "exec", "sh") or not message.tool_input:
            continue
        for token in _TOKEN_SPLIT.split(message.tool_input):
            token = token.rstrip(".,:")
            if len(token) < 5 or "://" in token or not _TARGET.match(token) or _FILE_SUFFIX.search(token):
                continue
            seen.setdefault(token, set()).add(index)
            first.setdefault(token, start_order + index)
    return [(token, first[token]) for token, calls in seen.items() if len(calls) >= 2]


def _tidy_files(files: dict[str, str]) -> dict[str, str]:
    """Without folders and without a bare name a full path already names."""
    tidy: dict[str, str] = {}
    for path, how in files.items():
        if how in (SET, _WRITTEN):
            tidy[path] = "modified" if how == _WRITTEN else how
            continue
        if "." not in path.rsplit("/", 1)[-1]:
            continue
        if "/" not in path and any(other.endswith("/" + path) for other in files):
            continue
        tidy[path] = how
    return tidy


_PATH = re.compile(
    r"(?<![\w:/])(?:~|\.{1,2})?/[^\s'\"`;|&<>()]+|(?<![\w/.~-])[\w.-]+(?:/[\w.-]+)*\.[A-Za-z]\w{0,5}(?![\w/])"
)
_WRITES = quick_start(
    re.compile(
        r"\bsed\s+-i|\btee\b|(?<![0-9&2])>>?\s*[~/.\w]|\bmv\b|\bcp\b|\brm\b|\bchmod\b|\bchown\b|\btouch\b|\bmkdir\b|\binstall\b|\bln\s+-s"
    )
)


_READ_TOOLS = ("read_file", "read", "view", "cat")
# whole-file writes only (edits and patches are not the file's text): what the chat showed can be compared
_WRITE_TOOLS = ("write_file", "write", "create_file")


def _read_path(message: SessionMessage) -> str:
    """The path a read call reads (its result, the next message, is the file's content)."""
    if (message.tool_name or "").lower() not in _READ_TOOLS:
        return ""
    lines = (message.tool_input or "").strip().splitlines()
    return lines[0].strip() if lines else ""


def _rewritten(message: SessionMessage, shown: dict[str, str]) -> list[tuple[str, str]]:
    """The settings a whole-file write changed in a file the chat showed before (see
    :func:`.changes.settings_rewritten`); remembers the new content."""
    if (message.tool_name or "").lower() not in _WRITE_TOOLS:
        return []
    path, _, body = (message.tool_input or "").partition("\n")
    path = path.strip()
    before = shown.get(path)
    shown[path] = body
    return settings_rewritten(before, body) if before is not None else []


def _tool_files(name: str, value: str, files: dict[str, str]) -> list[tuple[str, str]]:
    """Notes the files a tool call read or wrote; returns the settings its command line changed."""
    lowered = name.lower()
    if lowered in _READ_TOOLS:
        _note_file(files, value.strip().splitlines()[0] if value.strip() else "", "read")
        return []
    if lowered in ("write_file", "write", "edit", "edit_file", "apply_patch", "create_file"):
        _note_file(files, value.strip().splitlines()[0] if value.strip() else "", "modified")
        return []
    if lowered in ("web_fetch", "fetch", "browse"):
        return []
    command = value.splitlines()[0] if lowered not in ("bash", "shell", "exec", "sh") else value
    changes = settings_changed(command)
    for key, text in changes:
        _note_setting(files, key, text)
    for target in _REDIRECT_TARGET.findall(command):
        if _looks_like_file(target):
            files[target] = _WRITTEN  # written through tee or >: a file even without a suffix
    paths = [p.rstrip(".,:") for p in _PATH.findall(command)]
    paths = [p for p in paths if _looks_like_file(p)]
    if not paths:
        return changes
    writes = _WRITES.search(command) is not None
    for index, path in enumerate(paths):
        _note_file(files, path, "modified" if writes and index == len(paths) - 1 else "read")
    return changes


_FILE_SUFFIX = re.compile(
    r"\.(?:conf|py|js|mjs|ts|tsx|json5?|ya?ml|toml|md|sh|txt|csv|tsv|xlsx?|docx?|pdf|ini|cfg|sql|log|env|service"
    r"|timer|html?|css|lock|xml|rs|go|java|rb|php|c|h|cpp|db|sqlite|bak|tar|gz|zip|png|jpe?g)$",
    re.IGNORECASE,
)


def _looks_like_file(path: str) -> bool:
    if "://" in path or path.startswith(("//", "-")) or len(path) < 4:
        return False
    if "/" not in path and not _FILE_SUFFIX.search(path):
        return False  # "invoice.paid", "--created.gte": dotted words, not files
    if path.startswith(("/dev/null", "/proc/", "/sys/")):
        return False
    tail = path.rsplit("/", 1)[-1]
    return "." in tail or path.count("/") >= 2


_REDIRECT_TARGET = quick_start(re.compile(r"(?:\btee(?:\s+-a)?|(?<![0-9&2>])>>?)\s*([~/][^\s'\"`;|&<>()]+)"))
_WRITTEN = "modified!"  # a file the command surely wrote: kept by _tidy_files even without a suffix
SET = "set"  # files[text] = SET: a setting a command changed (``concurrent = 6``), not a path


def _note_setting(files: dict[str, str], key: str, text: str) -> None:
    """A setting replaces an earlier one of the same key, and moves to the end (the newest)."""
    for old in [t for t, how in files.items() if how == SET and setting_key(t) == key]:
        del files[old]
    files[text] = SET


def _note_file(files: dict[str, str], path: str, how: str) -> None:
    path = path.strip().strip("'\"`")
    if not path or len(path) > 200 or " " in path:
        return
    if files.get(path) not in ("modified", _WRITTEN):
        files[path] = how


# --------------------------------------------------------------------------- abandoned values


_AFTER_MARKERS = (
    "instead of",
    "rather than",
    "而不是",
    "别用",
    "不再",
    *(f"{neg} want" for neg in ("doesn't", "don't", "does not", "do not", "didn't", "did not")),
)
# "not worth it / 不划算 / 不行": a judgement on a value (a setting, a time, a price), never on where things live
_SOFT_MARKERS = _words(
    en_words("not worth(?: it)?|no point|pointless|won't work|doesn't work for"),
    "不行|没意义|没必要|不划算|不值得|行不通|不合适",
)
_PLACE = re.compile(r"/|@|^\d{1,3}(?:\.\d{1,3}){3}|^[\w-]+(?:\.[\w-]+)+$")


def abandoned_values(lines: Sequence[Line]) -> dict[str, float]:
    """Values the chat dropped: value → the order of the line that dropped it.

    Within a clause (split at every comma): a value right before "作废 / 放弃 / 不做了 / dropped …"
    (or in the clause before, when the marker opens its own clause: "199减20太薄了，不做了"), a value
    after "instead of / 而不是", and before "改成 / → / switch to" a value of the same shape as the
    one after it ("8080 改成 8443"; not "ROOT_URL 改成带端口的"). A judgement ("03:30 不行",
    "zstd-9 不划算") drops settings and times, never a path or a host. A value the line names
    again after the marker stays ("每天 4 点没必要，改成每周日 4 点"). Across lines: a change of
    the same value to something else ("from $89 to $95" … "from $89 to $99") drops the first
    target, and a new value for a named thing drops the thing's older values (see
    :func:`_superseded_by_subject`).
    """
    dropped: dict[str, float] = {}
    targets: dict[str, str] = {}  # "from A to B": A → B, the latest
    previous: Line | None = None
    for line in lines:
        previous, line_before = line, previous
        if not line.ids:
            continue
        values = sorted(line.ids, key=len, reverse=True)

        def ids_in(part: str, values: list[str] = values) -> list[str]:
            return [v for v in values if v in part]  # the line's own identifiers, no second regex pass

        for source, target in (
            _transitions(line.text, values) if ("from" in line.text.casefold() or "从" in line.text) else ()
        ):
            earlier = targets.get(source)
            if earlier is not None and earlier != target and earlier not in line.text:
                dropped.setdefault(earlier, line.order)
            targets[source] = target
        for compared in _COMPARED.finditer(line.text) if (" than " in line.text or "比" in line.text) else ():
            other = compared.group("x") or compared.group("y") or ""
            for value in ids_in(other):
                if _hard_id(value) and not _PLACE.search(value) and value not in line.text[compared.end() :]:
                    dropped.setdefault(value, line.order)  # "比 2 号那班 CA1406 便宜": the option not taken
        # A marker found in a clause is found in its line too (the markers' only context tests are
        # "no Latin letter before / after", and a clause is cut at punctuation): a marker the line
        # lacks is not looked for clause by clause.
        abandon_in_line = _fast(ABANDON).search(line.text) is not None
        change_in_line = _fast(CHANGE_TO).search(line.text) is not None
        contrast_in_line = _CONTRAST_HINT.search(line.text) is not None
        if contrast_in_line:
            for value in _set_against(line, values, line_before):
                if _may_go(value):
                    dropped.setdefault(value, line.order)
        if not abandon_in_line and not change_in_line:
            continue
        clauses = [c for c in _CLAUSE.split(line.text) if c.strip()]
        at = 0
        for index, clause in enumerate(clauses):
            at = line.text.find(clause, at)
            later = line.text[at + len(clause) :]
            old: list[str] = []
            # the span of the original clause; the text lowercased
            abandon = _fast(ABANDON).search(clause) if abandon_in_line else None
            if abandon and abandon.group(0).lower() in _AFTER_MARKERS:
                old = ids_in(clause[abandon.end() :])
            elif abandon:
                old = ids_in(clause[: abandon.start()])
                rest = (clause[: abandon.start()] + clause[abandon.end() :]).strip()
                if not old and index > 0 and len(rest) <= 6:  # "…，不做了": the marker is the whole clause
                    old = ids_in(clauses[index - 1])
                if _SOFT_MARKERS.fullmatch(abandon.group(0)):
                    old = [v for v in old if not _PLACE.search(v)]
                old = [v for v in old if v not in later and v not in clause[abandon.end() :]]
            change = _fast(CHANGE_TO).search(clause) if change_in_line else None
            if change:
                new = ids_in(clause[change.end() :])
                before = ids_in(clause[: change.start()])
                if not before and index > 0 and len(clause[: change.start()].strip()) <= 4:
                    # "23:30 有时候我们还在对账，改成凌晨 1 点 15 吧": the change opens its clause, so
                    # what it changes is in the clause before
                    before = [v for v in ids_in(clauses[index - 1]) if v not in later]
                old += [
                    value
                    for value in before
                    if value not in new and any(_same_shape(value, other) for other in new)
                ]
            for value in old:
                if _may_go(value):
                    dropped.setdefault(value, line.order)
    for value, order in _superseded_by_subject(lines).items():
        dropped.setdefault(value, order)
    for value, order in _recounted(lines).items():
        dropped.setdefault(value, order)
    for value, order in _left_as_is(lines).items():
        dropped.setdefault(value, order)
    for value, order in _retyped(lines).items():
        dropped.setdefault(value, order)
    return dropped


# A typo owned up to: "oops, typo", "i typed … gmial", "打错了", "写错了".
TYPO = _words(
    en_words("typo|typos|typed|mistyped|misspel+ed|misspelt|spelling"), "打错|写错|拼错|输错|笔误|手滑"
)


def _one_typo_apart(a: str, b: str, swap_only: bool) -> bool:
    """Two spellings of one identifier: two neighbouring letters swapped ("gmial" / "gmail"), or,
    when someone owns up to a typo, one letter changed, added or left out. Digits never: worker-1
    and worker-2 are two machines."""
    if a == b or min(len(a), len(b)) < 6 or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        if (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        ):
            return a[diff[0]].isalpha() and a[diff[1]].isalpha()
        return not swap_only and len(diff) == 1 and a[diff[0]].isalpha() and b[diff[0]].isalpha()
    if swap_only:
        return False
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    at = next((i for i, (x, y) in enumerate(zip(short, long_)) if x != y), len(short))
    return long_[at].isalpha() and short[at:] == long_[at + 1 :]


def _retyped(lines: Sequence[Line]) -> dict[str, int]:
    """An identifier spelled again one typo apart, later: the earlier spelling was the mistake
    ("hannah.wells@gmial.com" … "hannah.wells@gmail.com")."""
    dropped: dict[str, int] = {}
    seen: list[str] = []
    by_letters: dict[tuple[int, str], list[str]] = {}  # a swap keeps the length and the letters
    for line in lines:
        owned_up = _fast(TYPO).search(line.text) is not None
        for value in line.ids:
            # every earlier spelling when someone owns up to a typo (rare), else only the anagrams
            candidates = seen if owned_up else by_letters.get(_letters_key(value), ())
            for old in candidates:
                if old not in line.ids and _one_typo_apart(old, value, swap_only=not owned_up):
                    dropped.setdefault(old, line.order)
        for value in line.ids:
            same_letters = by_letters.setdefault(_letters_key(value), [])
            if value not in same_letters:
                same_letters.append(value)
                seen.append(value)
    return dropped


@lru_cache(maxsize=4096)
def _letters_key(value: str) -> tuple[int, str]:
    return len(value), "".join(sorted(value))


# A setting left as it is: "wal_keep_size 不动了", "wal_keep_size 保持 1GB", "leave wal_keep_size alone",
# "keep max_conn at 800", "pool_size stays at 40". The key is written like one (a Latin token with _ . or -,
# or a word in code quotes), so "leave it" or "保持联系" name no setting.
_KEY = r"`?(?P<key>[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)+)`?"
_LEFT_AS_IS = re.compile(
    _KEY + r"\s*(?:就|也|先|还是)?\s*(?:不动了?|保持(?:不变|不动|原样|原来的)?|不变|不改了?|维持)"
    r"|(?<![A-Za-z])(?:leave|keep)\s+(?:the\s+)?"
    + _KEY.replace("key", "key2")
    + r"\s+(?:alone|as is|unchanged|untouched|at\s)"
    r"|" + _KEY.replace("key", "key3") + r"\s+(?:stays|remains|stay)(?![A-Za-z])",
    re.IGNORECASE,
)
_PROPOSED = r"\s*(?:改成|改为|改到|调到|调成|调大到|提到|提高到|加到|设为|设成|设到|→|->|to)\s*(?P<value>[^\s,，。;；、)）]+)"


@lru_cache(maxsize=256)
def _proposed_change(key: str) -> re.Pattern[str]:
    """``key`` then a change to a value: "wal_keep_size 改成 4GB", "raise wal_keep_size to 4GB"."""
    return re.compile(r"(?<![\w.-])" + re.escape(key) + _PROPOSED, re.IGNORECASE)


def _left_as_is(lines: Sequence[Line]) -> dict[str, int]:
    """A setting the chat leaves as it is cancels the changes proposed for it earlier: their values go
    ("建议把 wal_keep_size 改成 4GB" … "wal_keep_size 不动了" drops 4GB)."""
    dropped: dict[str, int] = {}
    for index, line in enumerate(lines):
        for match in _LEFT_AS_IS.finditer(line.text) if _LEFT_HINT.search(line.text) else ():
            key = match.group("key") or match.group("key2") or match.group("key3")
            for earlier in lines[:index]:
                if key.casefold() not in _folded(earlier.text):
                    continue
                for proposed in _proposed_change(key).finditer(earlier.text):
                    value = proposed.group("value").rstrip(".:!?")
                    if value in earlier.ids and value not in line.text:
                        dropped.setdefault(value, line.order)
    return dropped


_LEFT_HINT = quick_start(re.compile(r"不动|保持|不变|不改|维持|leave|keep|stays|remains|stay", re.IGNORECASE))


# A count of something: "5 workers", "14 guests", "30 days", "14 个人", "5 个 worker", "30 天". Counts are
# no identifiers (they are not listed), but a count the chat changes is a value that can go stale.
_COUNT = re.compile(
    r"(?<![\w.,:/$£€¥-])(?P<n>\d{1,4})\s?(?:(?P<en>[a-z][a-z-]{2,})(?![\w-])"
    r"|(?P<cl>个人|位|名|人)|(?:个|台|套)\s?(?P<zn>[A-Za-z][\w-]{2,}))"
)  # Chinese: people (14 个人, 16 位) and things named in Latin (5 个 worker); 天 / 次 / 分钟 count too many things
_NOT_COUNTED = frozenset(
    [
        "and",
        "the",
        "for",
        "more",
        "less",
        "times",
        "percent",
        "per",
        "instead",
        "each",
        "total",
        "from",
        "with",
        "then",
        "but",
        "not",
        "now",
        "are",
        "was",
        "its",
    ]
)
# "make it 6 instead of 5", "6 个，不要 5 个", "rather than 5": the count given up.
_COUNT_GIVEN_UP = re.compile(
    r"(?:instead of|rather than|not|而不是|不要|不是)\s?(?P<n>\d{1,4})(?![\d.,:])", re.IGNORECASE
)
# A line that gives a new count: "16 guests now", "make it 6", "现在是 16 个人", "改成 6 个".
_RECOUNT = _words(
    en_words("now|make it|instead|update(?:d)?|actually|change(?:d)? (?:it )?to|bump(?:ed)?|raise|lower"),
    "现在是|现在改|现在要|改成|改为|变成|更新|调到|加到|减到|增加到|减少到|换成",
)


def _counts(text: str) -> list[tuple[str, str, str]]:
    """(number, what is counted, the count as written) in ``text``."""
    found = []
    for match in _COUNT.finditer(text) if _DIGIT.search(text) else ():
        noun = (match.group("en") or match.group("zn") or match.group("cl") or "").casefold()
        if match.group("cl") in ("个人", "人"):
            noun = "人"
        noun = noun[:-1] if noun.endswith("s") and len(noun) > 3 else noun
        if noun and noun not in _NOT_COUNTED:
            found.append((match.group("n"), noun, match.group(0).strip()))
    return found


def _gives_a_count(text: str) -> bool:
    return bool(_counts(text)) and _fast(_RECOUNT).search(text) is not None


def _recounted(lines: Sequence[Line]) -> dict[str, int]:
    """Counts a later line changed: a new count of the same thing ("update: 16 guests now" after
    "14 guests") or a count given up ("make it 6 instead of 5" after "5 workers") drops the earlier
    count, and so the lines that give it."""
    dropped: dict[str, int] = {}
    seen: list[tuple[str, str, str]] = []  # every count so far, oldest first
    for line in lines:
        counts = _counts(line.text)
        if line.role == "user" and _fast(_RECOUNT).search(line.text):  # the user sets a count; reports do not
            given_up = {m.group("n") for m in _COUNT_GIVEN_UP.finditer(line.text)}
            kept = {n for n, _, _ in counts} - given_up
            nouns = {noun for n, noun, _ in counts if n not in given_up}
            for n, noun, text in seen:
                if noun in nouns and n not in kept and text not in line.text:
                    dropped.setdefault(text, line.order)  # "16 guests now" after "14 guests"
            for n in given_up - kept:  # "make it 6 instead of 5": the nearest earlier count of 5
                nearest = next(
                    (c for c in reversed(seen) if c[0] == n and (not nouns or c[1] in nouns)), None
                )
                if nearest is not None:
                    dropped.setdefault(nearest[2], line.order)
        seen += counts
    return dropped


# A clause that sets a value against the one before it: "…on 6433, not 6432", "…是 19:30，不是 19:00".
def _may_go(value: str) -> bool:
    """A value a marker may drop: not a bare small number ("8", "3.5"), which names too many things."""
    return not _PLAIN_QUANTITY.match(value) or _has_unit(value) or len(_NON_DIGITS.sub("", value)) >= 3


# The marker opens a clause (after a comma, a full stop, an opening bracket: "1950. not 2100", "改成
# 05:15（不是 05:30）") or follows the new value straight on ("pool at 12% not 10%").
_CONTRAST = re.compile(
    r"(?P<open>^|[,，;；(（]|\.(?=\s)|\s)\s*(?:not(?![A-Za-z])|rather than|而不是|不是|而非)\s*(?=\S)",
    re.IGNORECASE,
)
_CONTRAST_HINT = quick_start(re.compile(r"not|rather than|而不是|不是|而非", re.IGNORECASE))
_CONTRAST_END = re.compile(r"[,，;；)）。!！?？]|\.(?=\s|$)")
_CONTRAST_START = re.compile(r".*(?:[,，;；(（。!！?？]|\.(?=\s))", re.DOTALL)


def _set_against(line: Line, values: list[str], previous: Line | None) -> list[str]:
    """ "pool on 6433, not 6432", "改到 19:30，不是 19:00", "1950. not 2100", "12% not 10%": the value set
    against the one before it, when someone decides it (the user, a decision, or a line that states a
    change, :func:`states_a_change`). A finding such as "runs at 7:30, not 23:30" corrects a belief,
    and the intended 23:30 still stands. A line that opens on the marker ("1950." "not 2100.") is set
    against the sentence said just before it (``previous``, the same speaker's)."""
    if not (line.section == "decisions" or line.role == "user" or states_a_change(line.text)):
        return []
    old: list[str] = []
    for match in _CONTRAST.finditer(line.text):
        head = line.text[: match.start("open")]
        start = _CONTRAST_START.match(head)
        before_text = head[start.end() :] if start else head
        before_values = values
        if match.start() == 0:
            if previous is None or previous.role != line.role or previous.turn != line.turn:
                continue
            before_text, before_values = previous.text, sorted(previous.ids, key=len, reverse=True)
        elif match.group("open").isspace() and not any(before_text.rstrip().endswith(v) for v in values):
            continue  # "do not need …": "not" right after a word, no value set against another
        end = _CONTRAST_END.search(line.text, match.end())
        after_text = line.text[match.end() : end.start() if end else len(line.text)]
        if match.group("open").isspace() and not any(after_text.startswith(v) for v in values):
            continue  # "512MB 不是因为索引要 256MB": a reason, not the value set against it
        later = line.text[end.end() :] if end else ""
        before = [v for v in before_values if v in before_text]
        old += [
            v
            for v in values
            if v in after_text
            and v not in later
            and v not in before_text
            and any(_same_shape(v, b) for b in before if b != v)
        ]
    return old


_ASSIGNED = re.compile(r"^(?P<key>[A-Za-z_][\w.-]*)\s?=\s?\S|^(?P<option>--[a-z][\w-]*)[ =][\w.:/@+-]+$")


def _reassigned(lines: Sequence[Line], changes: Sequence[Change]) -> dict[str, float]:
    """Settings a later line or command set again to another value: the earlier go
    ("RCT_NEW_ARCH_ENABLED=0" in a message, then ``RCT_NEW_ARCH_ENABLED=1 pod install``; "--batch-size 64",
    then "--batch-size 32"; "配送费写的是 DELIVERY_FEE = 8" once a rewrite of the file set it to 6).
    An earlier line's text counts too, where it spells the assignment out (its identifier may be the
    key alone)."""
    events: list[tuple[float, str, str]] = [(order, key, text) for key, text, order in changes]
    for line in lines:
        for value in line.ids:
            match = _ASSIGNED.match(value)
            if match:
                events.append((line.order, (match.group("key") or match.group("option")).casefold(), value))
    latest: dict[str, tuple[float, str]] = {}
    for order, key, text in sorted(events, key=lambda e: e[0]):
        latest[key] = (order, text)
    dropped: dict[str, float] = {}
    for order, key, text in events:
        last_order, last_text = latest[key]
        if order < last_order and _another_value(_setting_value(text), _setting_value(last_text)):
            dropped.setdefault(text, last_order)
    for key, (last_order, last_text) in latest.items():
        for line in lines:
            if line.order >= last_order or key not in _folded(line.text):
                continue
            for match in _spelled_assignment(key).finditer(line.text):
                if _another_value(_setting_value(match.group(0)), _setting_value(last_text)):
                    dropped.setdefault(match.group(0), last_order)
    return dropped


def _another_value(old: str, new: str) -> bool:
    """Two values of a setting, not one written whole and cut short ("CRON_MIN=3" is "CRON_MIN=3,23,43"
    read up to a comma, "--chown=1026:" is "--chown=1026:100")."""
    if not old or not new or old == new:
        return False
    short, long_ = sorted((old, new), key=len)
    cut_short = long_.startswith(short) and (not short[-1].isalnum() or not long_[len(short)].isalnum())
    return not cut_short  # CACHE_TTL=30 and CACHE_TTL=300 are two values


@lru_cache(maxsize=1024)
def _spelled_assignment(key: str) -> re.Pattern[str]:
    """``key = value`` / ``key: value`` / ``--key value`` as a line writes it out."""
    op = r"(?:\s|=)" if key.startswith("--") else r"\s?[=:]\s?"
    return re.compile(r"(?<![\w.-])" + re.escape(key) + op + r"[^\s,，;；。、)）`'\"]+", re.IGNORECASE)


def _setting_value(text: str) -> str:
    if text.startswith("--"):  # "--batch-size 64", "--jobs=3"
        return _SPACES.sub("", _OPTION_NAME.sub("", text, count=1)).lstrip("=").casefold()
    return _SPACES.sub("", _SETTING_OP.split(text, 1)[-1]).casefold()


_OPTION_NAME = re.compile(r"^--[\w-]+")
_SETTING_OP = re.compile(r"=|:(?!//)")


_SPACES = re.compile(r"\s+")
_NON_DIGITS = re.compile(r"\D")
_DIGIT = re.compile(r"\d")
_DIGITS = re.compile(r"\d+")


# The option a choice is compared against, and so did not take: "cheaper than X", "比 X 便宜".
_COMPARED = re.compile(
    r"(?<![A-Za-z])(?:cheaper|better|faster|quicker|shorter|simpler|safer|nicer|closer) than (?P<x>[^,.;!?]{1,40})"
    r"|比(?!较|如|例|赛|特|方|起|分|重|率)(?P<y>[^，。,；;！？]{1,20}?)(?:还|更)?(?:便宜|贵|快|好|省|划算|方便|近|稳|合适)",
    re.IGNORECASE,
)
_FROM_TO = re.compile(
    r"(?<![A-Za-z])from\s+(?P<a>.{1,40}?)\s+to\s+(?P<b>.{1,40})|从\s*(?P<c>.{1,30}?)\s*(?:改成|改为|改到|调到|提到|涨到|降到|到)\s*(?P<d>.{1,30})",
    re.IGNORECASE,
)


def _transitions(text: str, values: list[str]) -> list[tuple[str, str]]:
    """The "from A to B" / "从 A 改成 B" changes a line states, A and B both identifiers."""
    found = []
    for match in _FROM_TO.finditer(text):
        source, target = match.group("a") or match.group("c"), match.group("b") or match.group("d")
        a = next((v for v in values if source.strip().startswith(v) or source.strip() == v), None)
        b = next((v for v in values if target.startswith(v)), None)
        if a and b and a != b:
            found.append((a, b))
    return found


_ZH_SET_VERBS = "改成|改为|改到|调到|提到|涨到|降到|减到|加到|升到|定为|设为|" + _ZH_RESCHEDULE
_SET_VALUE = re.compile(
    r"(?P<subject>(?:[A-Za-z][\w-]*\s+){1,3}?)(?:is now|are now|now|(?:bump|rais|increas|lower|reduc|cut|chang|mov|set|push|postpon|delay)(?:e|ed|ing|s)?"
    r"(?P<object>(?:\s+[\w-]+){0,3})\s+to)\s+(?P<value>\S.*)"
    r"|(?P<zh>["
    + HAN
    + r"]{2,4}|[A-Za-z][\w-]*(?: [A-Za-z][\w-]*)?) ?[也就又再还都]? ?(?:"
    + _ZH_SET_VERBS
    + r")(?P<zvalue>.+)",
    re.IGNORECASE,
)
# The value before "now", or after "make the …": "butter is 25 kg now", "make the butter 25kg then".
_SET_VALUE_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])make\s+(?:the\s+)?|(?<![\w-]))(?P<subject2>(?:[A-Za-z][\w-]*\s+){1,3}?)(?:(?:is|are)\s+)?"
    r"(?P<value2>[£$€¥]?\d[\d,.]*\s?[^\W\d_]{0,4})(?=\s+(?:now|then|instead)\b)",
    re.IGNORECASE,
)
_SET_HINT = quick_start(
    re.compile(
        r"now|bump|rais|increas|lower|reduc|cut|chang|mov|set|push|postpon|delay|" + _ZH_SET_VERBS,
        re.IGNORECASE,
    )
)
_SUBJECT_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "it",
        "this",
        "that",
        "total",
        "our",
        "my",
        "your",
        "their",
        "its",
        "let's",
        "lets",
        "we",
        "i",
        "so",
        "and",
        "then",
    ]
)


def _superseded_by_subject(lines: Sequence[Line]) -> dict[str, int]:
    """A new value for a named thing ("bump the total budget to 14,500", "预算提到 1.5 万")
    drops the values of the same kind that earlier lines gave that thing ("budget … CAD 14,000")."""
    dropped: dict[str, int] = {}
    for index, line in enumerate(lines):
        change = _set_value(line)
        if change is None:
            continue
        if change.zh and _HAN.match(change.zh):
            subjects = [change.zh[-2:]]
        elif change.zh:
            subjects = [w for w in change.zh.casefold().split() if w not in _SUBJECT_STOP and len(w) >= 4]
        else:
            subjects = [w for w in change.words.casefold().split() if w not in _SUBJECT_STOP and len(w) >= 4]
        if _fast(RESCHEDULE).search(line.text):  # "12月8号 那周他另一个工地收尾，开工推到 12月15号"
            before = line.text[: change.at]
            for value in line.ids:
                if value in before and value not in change.rest and _same_amount_kind(value, change.new):
                    dropped.setdefault(value, line.order)
        if not subjects:
            continue
        _drop_earlier_values(lines[:index], subjects, change.new, line, dropped)
    for index, line in enumerate(lines):
        _drop_final_values(lines[:index], line, dropped)
    return dropped


@dataclass(frozen=True)
class _SetValue:
    """A change of a value a line states: the thing's words, the new value, where it is written."""

    zh: str  # the thing, as the Chinese pattern read it ("" for the English ones)
    words: str  # the thing, as the English patterns read it
    new: str
    rest: str  # the text from the new value on
    at: int  # where ``rest`` starts


def _set_value(line: Line) -> _SetValue | None:
    """The change of a value ``line`` states ("budget … to 14,500", "butter is 25 kg now", "预算提到 1.5 万")."""
    if not line.ids or not _fast(_SET_HINT).search(line.text):
        return None
    for pattern in (_SET_VALUE, _SET_VALUE_BEFORE):
        match = pattern.search(line.text)
        if not match:
            continue
        found = {k: v for k, v in match.groupdict().items() if v}
        group = next((g for g in ("value", "value2", "zvalue") if g in found), "")
        rest = found.get(group, "").strip()
        new = [v for v in line.ids if rest.startswith(v) or rest.lstrip("~≈约").startswith(v)]
        if new and _DIGIT.search(new[0]):
            words = f"{found.get('subject') or found.get('subject2') or ''} {found.get('object', '')}"
            return _SetValue(found.get("zh", ""), words, new[0], rest, match.start(group))
    return None


def _drop_earlier_values(
    earlier: Sequence[Line], subjects: Sequence[str], new: str, line: Line, dropped: dict[str, int]
) -> None:
    """Values of ``new``'s kind that earlier lines gave one of ``subjects``, in the same clause
    ("学校内部截止 1月15日，省里系统是 3月20日": only 1月15日 is the deadline that moved)."""
    for old in earlier:
        folded = _folded(old.text)
        for subject in subjects:
            if subject in folded:
                break
        else:
            continue
        clauses = [c for c in _VALUE_CLAUSE.split(folded) if any(subject in c for subject in subjects)]
        for value in old.ids:
            if (
                not _mention(value).search(line.text)
                and _same_amount_kind(value, new)
                and any(value.casefold() in c for c in clauses)
            ):
                dropped.setdefault(value, line.order)


@lru_cache(maxsize=4096)
def _folded(text: str) -> str:
    return text.casefold()  # each earlier line is folded once, not once per later line that sets a value


_FINAL_SUBJECT = re.compile(
    r"^\s*(?:定|是|为|定为|改为|:|：)?\s*(?P<subject>[" + HAN + r"]{2,4})\s*(?:是|为|定为|:|：)?\s*\S"
)


def _drop_final_values(earlier: Sequence[Line], line: Line, dropped: dict[str, int]) -> None:
    """ "12月3号 还是太赶，最终定 12月5号", "最终总预算 8.8万": the value a line ends on drops the
    values of its kind the line gives up, and those earlier lines gave the same subject."""
    final = _fast(FINAL).search(line.text) if line.ids else None
    if not final:
        return
    after = line.text[final.end() :]
    new = [v for v in line.ids if v in after and _DIGIT.search(v)]
    if not new:
        return
    first = min(new, key=after.find)
    before = line.text[: final.start()]
    for value in line.ids:
        if value in before and value not in after and _same_amount_kind(value, first):
            dropped.setdefault(value, line.order)
    subject = _FINAL_SUBJECT.match(after)
    if subject and subject.end("subject") <= after.find(first):
        _drop_earlier_values(earlier, [subject.group("subject")[-2:]], first, line, dropped)


_MONEY_MARK = quick_start(re.compile(CURRENCY_CODE + r"|[£$¥€]|yen|dollars?|euros?|円|元|块", re.IGNORECASE))


def _is_en_date(value: str) -> bool:
    return bool(
        _EN_DATE.fullmatch(value) or _EN_DAY_FIRST.fullmatch(value) or _EN_DAY_FIRST_LOWER.fullmatch(value)
    )


# A date in Chinese (12月18号, 12 月 22 日) and a clock time in either notation (23:30, 凌晨 1 点 15, 8 点半).
_ZH_DATE = quick_start(re.compile(r"(?:\d{4} ?年 ?)?\d{1,2} ?月 ?\d{1,2} ?[日号]"))
_CLOCK = re.compile(r"\d{1,2}(?::\d{2}| ?点(?:半| ?\d{1,2} ?分?)?)")


def _same_amount_kind(a: str, b: str) -> bool:
    """Two values of one kind once currency marks are set aside: 'CAD 14,000' and '14,500'."""
    if (_is_en_date(a) and _is_en_date(b)) or (_ZH_DATE.fullmatch(a) and _ZH_DATE.fullmatch(b)):
        return True  # Dec 18 and Dec 20; 12 月 18 号 and 12 月 22 日
    a_core, b_core = (
        _MONEY_MARK.sub("", a).replace(" ", ""),
        _MONEY_MARK.sub("", b).replace(" ", ""),
    )  # 20kg, 25 kg
    if not (_AMOUNT_CORE.fullmatch(a_core) and _AMOUNT_CORE.fullmatch(b_core)):
        return False
    return _DIGITS.sub("0", a_core) == _DIGITS.sub("0", b_core)


_AMOUNT_CORE = re.compile(r"[\d,.]+\s?\S{0,4}")


_CLAUSE = re.compile(r"[，,、；;。!！?？]")
_VALUE_CLAUSE = re.compile(r"[，、；;。!！?？]|,(?!\d{3})")  # 14,000 is one value, not two clauses


def _same_shape(a: str, b: str) -> bool:
    """Two values of one kind: both carry digits and share their non-digit frame, or a 3-character prefix,
    or both are clock times (however written: "23:30 … 改成凌晨 1 点 15")."""
    if _CLOCK.fullmatch(a) and _CLOCK.fullmatch(b):
        return True
    if a[:3].casefold() == b[:3].casefold() and len(a) >= 3:
        return True
    frame_a, frame_b = _DIGITS.sub("0", a), _DIGITS.sub("0", b)
    return bool(_DIGIT.search(a) and _DIGIT.search(b)) and (frame_a == frame_b or len(a) == len(b))


def _has_unit(value: str) -> bool:
    return bool(_WITH_UNIT.search(value))


_WITH_UNIT = re.compile(r"\d\s?[^\d\s.,:]")


@lru_cache(maxsize=1024)
def _mention(value: str) -> re.Pattern[str]:
    """``value`` as a whole token: ``CACHE_TTL=30`` is not in ``CACHE_TTL=300``."""
    head = r"(?<![A-Za-z0-9_.-])" if _WORD_CHAR.match(value) else ""
    tail = r"(?![A-Za-z0-9_])" if _WORD_CHAR_END.search(value) else ""
    measure = _MEASURE.fullmatch(value)
    if measure:  # an amount is the same written with or without a space: "20 kg" is "20kg"
        return re.compile(head + re.escape(measure.group(1)) + r"\s?" + re.escape(measure.group(2)) + tail)
    return re.compile(head + re.escape(value) + tail)


def _may_mention(text: str, value: str) -> bool:
    """A cheap test before :func:`_mention`: ``value`` as written, or its number for a measure."""
    return value in text or (" " in value and value.split(" ", 1)[0] in text)


_MEASURE = re.compile(r"([£$€¥]?\d[\d,.]*)\s?([A-Za-z°℃]{1,4}|[" + HAN + r"]{1,2})")


_WORD_CHAR = re.compile(r"[A-Za-z0-9_]")
_WORD_CHAR_END = re.compile(r"[A-Za-z0-9_]$")


def _strip_abandoned(
    lines: list[Line], dropped: dict[str, float]
) -> tuple[list[Line], list[tuple[str, int]]]:
    """Lines without the dropped values: a line naming one goes, unless it also names the new value.

    The other identifiers of a line that goes (the cron file next to the abandoned 03:30) are
    returned with the line's order, for the identifier line.
    """
    loose: list[tuple[str, int]] = []
    if not dropped:
        return lines, loose
    result = []
    patterns = {v: _mention(v) for v in dropped}
    for line in lines:
        hit = [v for v in dropped if _may_mention(line.text, v) and patterns[v].search(line.text)]
        if not hit:
            result.append(line)
            continue
        remaining = [i for i in line.ids if not any(patterns[v].search(i) for v in hit)]
        if line.order >= min(dropped[v] for v in hit) and remaining:
            text = line.text
            for value in hit:
                text = patterns[value].sub("旧值/old", text)
            result.append(Line(line.section, text, line.order, frozenset(remaining)))
        else:
            loose += [
                (with_role(line.text, v), line.order)
                for v in sorted(remaining)
                if not any(v in gone for gone in dropped)
            ]
    return result, loose


def with_role(text: str, name: str) -> str:
    """``name`` with the role ``text`` gives it right beside it ("PM 周姐", "Ravi, our accountant"), so a
    person outlives the line that introduced them (it went for a stale value)."""
    if name not in _names_seen():
        return name
    before, after = _role_patterns()
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if not (_is_letter(text[at - 1 : at]) or _is_letter(text[end : end + 1])):
            lead = before.search(text[max(0, at - 24) : at])
            if lead:
                return (lead.group(0) + name).strip(" ,，")
            tail = after.match(text[end : end + 32])
            if tail:
                return (name + tail.group(0)).strip(" ,，")
        at = text.find(name, at + 1)
    return name


def _person_with_role(value: str) -> bool:
    """ "accountant Ravi", "PM 周姐" (see :func:`with_role`): a person and what they do."""
    before, after = _role_patterns()
    for name in _names_seen():
        if name == value or name not in value:
            continue
        if value.endswith(name):
            lead = before.search(value[: -len(name)])
            if lead and lead.start() == 0:
                return True
        if value.startswith(name):
            tail = after.match(value[len(name) :])
            if tail and tail.end() == len(value) - len(name):
                return True
    return False


def _is_letter(char: str) -> bool:
    return bool(char) and char.isascii() and char.isalpha()


@lru_cache(maxsize=1)
def _role_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A role right before a name, and right after one (compiled once, when first needed)."""
    role = rf"(?:[A-Z]{{2,4}}|{ROLE.pattern}|{PERSON.pattern})"
    return (
        re.compile(rf"(?:{role})\s?$"),
        re.compile(rf"\s?(?:[,，(（]\s?|是|is |, our |, the |, my )?(?:our |the |my |我们的)?(?:{role})"),
    )


# --------------------------------------------------------------------------- parse / render


@dataclass
class ParsedSummary:
    lines: list[Line] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    messages: int = 0
    tokens: int = 0


# A line the previous summary kept was already chosen once against its whole round; a new line
# of the same worth per token does not push it out (facts must survive re-compaction).
SURVIVOR_WEIGHT = 1.15


def parse_summary(text: str | None) -> ParsedSummary:
    """Our own summary read back into sections; a foreign summary (the seed's) becomes facts."""
    parsed = ParsedSummary()
    if not text:
        return parsed
    section: str | None = None
    order = 0
    own = text.lstrip().startswith(TITLE)
    for raw in text.splitlines():
        line = raw.rstrip()
        covers = _COVERS.match(line)
        if covers:
            parsed.messages, parsed.tokens = int(covers.group(1)), int(covers.group(2))
            continue
        if line in _HEADING_KEYS:
            section = _HEADING_KEYS[line]
            continue
        if not line.startswith("- ") and not (not own and line.strip()):
            continue
        body = line[2:].strip() if line.startswith("- ") else line.strip()
        if section == "identifiers":
            parsed.ids.extend(v for v in INLINE_CODE.findall(body))
            continue
        if section == "files":
            how, _, rest = body.partition(": ")
            for path in INLINE_CODE.findall(rest):
                if how.startswith("set"):
                    _note_setting(parsed.files, setting_key(path), path)
                else:
                    _note_file(parsed.files, path, "modified" if how.startswith("modified") else "read")
            continue
        order += 1
        ids = verbatim_ids(body)
        if own and section:
            parsed.lines.append(Line(section, body, order, frozenset(ids), SURVIVOR_WEIGHT))
        elif ids and not body.startswith(("#", "Previously compacted", "Newly compacted")):
            parsed.lines.append(Line("context", body, order, frozenset(ids)))
    return parsed


def _render(lines: list[Line], ids: list[str], files: dict[str, str], messages: int, tokens: int) -> str:
    out = [TITLE, f"_{messages} messages · ~{tokens} tokens_"]
    if ids:
        out += ["", _heading(_BY_KEY["identifiers"]), "- " + " · ".join(f"`{v}`" for v in ids)]
    for section in SECTIONS:
        if section.key == "identifiers":
            continue
        if section.key == "files":
            modified = [p for p, how in files.items() if how == "modified"]
            read = [p for p, how in files.items() if how == "read"]
            changed = [p for p, how in files.items() if how == SET]
            if modified or read or changed:
                out += ["", _heading(section)]
                if modified:
                    out.append("- modified 修改: " + " · ".join(f"`{p}`" for p in modified))
                if read:
                    out.append("- read 读取: " + " · ".join(f"`{p}`" for p in read))
                if changed:
                    out.append("- set 设置: " + " · ".join(f"`{p}`" for p in changed))
            continue
        body = [line for line in lines if line.section == section.key]
        if body:
            out += [
                "",
                _heading(section),
                *(f"- {line.text}" for line in sorted(body, key=lambda x: x.order)),
            ]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- the offline summarizer


def _restored(summary: str, restorer: ScriptRestorer) -> str:
    """The summary's lines in the session's characters; its headings stay as the format writes them
    (``parse_summary`` finds the sections of the next round by them)."""
    return "\n".join(
        line if line.startswith(("#", "_")) else restorer.text(line) for line in summary.split("\n")
    )


def _read_folded(message: SessionMessage) -> SessionMessage:
    """The message as the rules read it; a tool call's input is machine text (a path, a command) and
    stays as written."""
    return replace(message, content=fold_traditional(message.content))


class OfflineSummarizer:
    """Deterministic, no network. ``ratio`` bounds a summary by the size of what it stands for."""

    name = "offline"

    def __init__(self, ratio: float = 0.24, floor_tokens: int = 100) -> None:
        self.ratio = ratio
        self.floor_tokens = floor_tokens

    def summarize(self, previous: str | None, removed: Sequence[SessionMessage], *, max_tokens: int) -> str:
        # The rules' word lists are Simplified: they read a Traditional session folded (text/script.py),
        # and the summary goes back into the characters the session wrote.
        restorer = ScriptRestorer([previous or "", *(m.text() for m in removed)])
        if restorer:
            previous = fold_traditional(previous) if previous else previous
            removed = [_read_folded(m) for m in removed]
        token = _NAMES.set(set())
        try:
            with chat_memo():  # each sentence lowercased once, searched once per lexicon
                summary = self._summarize(previous, removed, max_tokens)
        finally:
            _NAMES.reset(token)
        return _restored(summary, restorer) if restorer else summary

    def _summarize(self, previous: str | None, removed: Sequence[SessionMessage], max_tokens: int) -> str:
        before = parse_summary(previous)
        start = len(before.lines) + 1000 * (
            before.messages + 1
        )  # this round's lines order after the kept ones
        new_lines, new_files, changes, withdrawing = statements(removed, start_order=start)
        messages = before.messages + len(removed)
        tokens = before.tokens + sum(estimate_tokens(m.text()) for m in removed)
        budget = min(max_tokens, max(self.floor_tokens, int(tokens * self.ratio)))

        new_lines = apply_take_backs(new_lines, withdrawing)
        lines = _drop_closed_items(_dedupe([*before.lines, *new_lines]))
        old_settings = [(setting_key(t), t, 0.0) for t, how in before.files.items() if how == SET]
        dropped = abandoned_values(lines)  # read on the lines as said, before withdrawals cut them
        for value, at in _reassigned(lines, [*old_settings, *changes]).items():
            dropped.setdefault(value, at)
        lines, withdrawn_loose = cancel_withdrawn(lines, withdrawing)
        lines, loose = _strip_abandoned(lines, dropped)
        loose += withdrawn_loose
        loose += tool_hosts(removed, start_order=start)
        loose += tool_targets(removed, start_order=start)
        loose += code_ids(removed, start_order=start)
        files = dict(before.files)
        for path, how in new_files.items():
            if how == SET:
                _note_setting(files, setting_key(path), path)
            else:
                _note_file(files, path, how)
        files = {path: how for path, how in files.items() if not (how == SET and path in dropped)}
        return _fit(lines, before.ids, files, dropped, messages, tokens, budget, loose)


# A later line says an item is done: "待办「约王阿姨签字」完成", "booked it, done", "补 BM25 这个待办算完成了".
DONE = _words(
    en_words("done|finished|completed|fixed|resolved|sorted|paid|sent|submitted|merged|booked"),
    "完成|搞定|做完|弄完|弄好|改好|签了|交了|已交|已付|付了|发了|已发|订好|办好|已经好了",
)
CLOSED = 0.5


def _drop_closed_items(lines: list[Line]) -> list[Line]:
    """An open item a later line reports done goes: the summary lists what is still open."""
    opened = [line.order for line in lines if line.section == "open"]
    if not opened:
        return lines
    first_open = min(opened)  # only a line after an open item can close it
    closing = [
        line
        for line in lines
        if line.order > first_open and _fast(DONE).search(line.text) and not is_question(line.text)
    ]
    if not closing:
        return lines
    return [
        line
        for line in lines
        if not (
            line.section == "open"
            and any(
                done.order > line.order
                and _covered(line, [done]) >= CLOSED
                and all(v in done.text for v in _specifics(line))  # the same order, host, person
                for done in closing
            )
        )
    ]


def _specifics(line: Line) -> list[str]:
    """What tells one item from another of its kind: strong identifiers and names."""
    return [v for v in line.ids if _strong(v)] + _answered_names(line.text)


_NOT_WORD = re.compile(r"[\W_]+")


def _dedupe(lines: list[Line]) -> list[Line]:
    """One line per normalized text; a line whose identifiers a later line all repeats, in much the
    same words, gives way to that later line (the restatement is usually the confirmed version)."""
    seen: dict[str, Line] = {}
    for line in lines:
        key = _NOT_WORD.sub("", line.text.casefold())
        if key in seen:
            continue  # the older wording stays; both say the same
        seen[key] = line
    unique = list(seen.values())
    result = []
    for index, line in enumerate(unique):
        strong = {v for v in line.ids if _strong(v)}
        if strong and any(
            strong <= later.ids and compact_similarity(line.text, later.text) >= 0.5
            for later in unique[index + 1 : index + 12]
        ):
            continue
        result.append(line)
    return result


def _fit(
    lines: list[Line],
    old_ids: list[str],
    files: dict[str, str],
    dropped: dict[str, float],
    messages: int,
    tokens: int,
    budget: int,
    loose: Sequence[tuple[str, int]] = (),
) -> str:
    """Keep the lines worth most per token (the newest first among equals) while the summary fits ``budget``.

    Lines are chosen greedily, best first, and a line that does not fit is passed over for
    smaller ones after it, so the budget is filled. An identifier whose lines are all left
    out goes to the identifier line; when even that is too long, files go (oldest first),
    then identifiers (oldest first). So the identifiers go last.
    """
    candidates: dict[str, int] = {}  # identifier -> the order of the oldest place it came from
    offered: set[str] = set()  # casefolded: "12 December" and "12 december" are one value, listed once

    def offer(value: str, order: int) -> None:
        listed_before = order < 0  # on the previous summary's identifier line: listable then, listable now
        folded = value.casefold()
        if folded in offered or value in files or _home_form_listed(value, files):
            return
        if not listed_before and not _listable(value):
            return
        if any(value in gone for gone in dropped):
            return
        candidates[value] = order
        offered.add(folded)

    for value in old_ids:
        offer(value, -1)
    for value, order in loose:
        offer(value, order)
    for line in sorted(lines, key=lambda x: x.order):
        for value in sorted(line.ids):
            offer(value, line.order)

    holders: dict[str, int] = {}
    chosen: list[Line] = []
    sections: set[str] = set()
    # Costs in fractional tokens (the estimate rounds only once, over the whole text).
    id_cost = {value: _raw_tokens(f"`{value}` · ") for value in candidates}
    cost = _raw_tokens(_render([], [], files, messages, tokens)) + sum(id_cost.values())
    cost += _raw_tokens(_heading(_BY_KEY["identifiers"]) + "\n\n- ") if candidates else 0
    worth = {id(line): _value(line) for line in lines}  # sorted by twice
    for line in sorted(lines, key=lambda x: (-worth[id(x)], -x.order)):
        freed = sum(id_cost.get(v, 0) for v in line.ids if not holders.get(v))
        extra = _raw_tokens(f"- {line.text}\n")
        if line.section not in sections:
            extra += _raw_tokens(f"\n{_heading(_BY_KEY[line.section])}\n")
        if cost + extra - freed > budget - 1:
            continue
        cost += extra - freed
        chosen.append(line)
        sections.add(line.section)
        for value in line.ids:
            holders[value] = holders.get(value, 0) + 1
    orphans = {v: order for v, order in candidates.items() if not holders.get(v)}
    victims = iter(sorted(chosen, key=lambda x: (worth[id(x)], x.order)))
    remaining = {id(line): line for line in sorted(chosen, key=lambda x: x.order)}

    def drop_lines(excess: int) -> bool:
        freed = 0.0
        for victim in victims:
            del remaining[id(victim)]
            freed += estimate_tokens(victim.text) + 2
            for value in sorted(victim.ids):
                holders[value] -= 1
                if not holders[value] and value in candidates:
                    orphans[value] = candidates[value]
                    freed -= id_cost[value] + 1
            if freed >= excess:
                return True
        return freed > 0

    def render() -> str:
        ids = [v for v, _ in sorted(orphans.items(), key=lambda item: item[1])]
        return _render(list(remaining.values()), ids, files, messages, tokens)

    text = render()
    excess = estimate_tokens(text) - budget
    while excess > 0:
        if drop_lines(excess):
            pass
        elif files:
            freed, count = 0, 0
            for path in files:
                freed += estimate_tokens(path) + 3
                count += 1
                if freed >= excess:
                    break
            files = dict(list(files.items())[count:])
        elif orphans:
            freed, count = 0, 0
            ordered = sorted(orphans.items(), key=lambda item: item[1])
            for value, _ in ordered:
                freed += estimate_tokens(value) + 3
                count += 1
                if freed >= excess:
                    break
            orphans = dict(ordered[count:])
        else:
            break
        text = render()
        excess = estimate_tokens(text) - budget
    return text


def _raw_tokens(text: str) -> float:
    """The token estimate before rounding, so the costs of the parts add up to the whole's."""
    cjk = count_cjk(text)
    return cjk + (len(text) - cjk) / 4


_KIND_WEIGHT = {
    "decisions": 4,
    "open": 4,
    "errors": 4,
    "preferences": 7,
    "people": 4,
    "requests": 4,
    "context": 0,
}


def _value(line: Line) -> float:
    """Worth per token: identifiers first, then the kind of statement (scaled by how much the
    line says, so a short "ok next." is worth little); short lines win over long ones."""
    # a bare time or count ("6 点", "20 GB") says less than an id, a path or a name
    strong = sum(0.5 if _PLAIN_QUANTITY.match(v) else 1 for v in line.ids if _strong(v))
    said = min(1.0, _substance(line.text) / 40)
    worth = 3 * min(strong, 4) + (_KIND_WEIGHT.get(line.section, 0) + 1) * said
    return line.weight * worth / (estimate_tokens(line.text) + 8)


_PLAIN_QUANTITY = re.compile(r"^\d[\d,.]*\s?(?:[" + HAN + r"]{1,2}|[hmsd]|ms)?$|^\d{1,2}:\d{2}$")


def _listable(value: str) -> bool:
    """An identifier worth listing on its own: not a bare time, duration or small count."""
    if _PLAIN_QUANTITY.match(value):
        digits = _NON_DIGITS.sub("", value)
        # order numbers, phone numbers, chat ids; "41,233" (a count, written for reading) is no id
        return len(digits) >= 5 and "," not in value
    if _HAN_SLASH.search(value):
        return False
    return _strong(value) or _person_with_role(value)


# Between Chinese words a slash means "or" (元/天, 抗凝/抗血小板药): no path, no identifier.
_HAN_SLASH = re.compile("[" + HAN + "]/[" + HAN + "]")


def _home_form_listed(value: str, files: dict[str, str]) -> bool:
    """``~/shop/price-list.md`` when the file list has ``/home/declan/shop/price-list.md``."""
    return value.startswith("~/") and any(path.endswith(value[1:]) for path in files)


def _files_cost(files: dict[str, str]) -> int:
    return sum(estimate_tokens(path) + 2 for path in files) + (12 if files else 0)
