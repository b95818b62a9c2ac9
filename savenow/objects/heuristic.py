"""The offline object extractor: deterministic rules over a finished conversation.

It reads only what the user wrote (the assistant's "Noted" saves nothing) and keeps
statements that outlive the day:

* ``self`` — a sentence in the first person that matches a key of the fixed vocabulary
  (one cue table per key, en + zh) and, for preferences and styles, says it is a standing
  rule ("from now on", "以后", "whenever", "never … without", an imperative about replies,
  or the key spelled out after a colon: "commit messages: lowercase"). A later statement
  replaces the earlier ones, and a correction keeps only the clauses from the new value's
  cue on ("15 分钟不够，统一提前半小时吧"): only the final value counts. One clause can state
  several identity facts ("I run a studio in Kraków": occupation and city).
* ``relationship`` — a stored person named, named another way (王姨 for 王阿姨, Dan or Xander
  for a full name), by a kinship form (我妈 / 老妈 / "my mum" for 妈妈 / Mom), or by the
  relation stored for them ("my husband", 带儿子), or referred to by a pronoun right before
  a durable cue ("她不吃辣", "she moves in on …"), with a durable cue (a role change, a
  schedule, an allergy or illness, "never"); the fact starts at its durable clause (passing
  clauses before it stay out). A new person only with a role: "my supplier is …", "X, she's
  my business partner", "we hired a designer, X", "我有个合伙人叫…", or a short name form
  (小吴) with a duty (对接, 负责). Another person's preference goes here, never to self.
* ``topic`` — a stored topic mentioned with a decision or status cue (paused, archived,
  "calling it", back on), plus the user's answers to the assistant's follow-up questions and
  lasting changes to a named setting or tool later in the same thread ("开了 QSV"); a
  superseded value ("was March, now April") stays out. A new topic only when the user names
  a new project (or calls it the big thing they are on).
* ``saved`` — an explicit "remember this" / "记住" / an imperative "remember …"; titled by
  what the user calls it ("记住这个手冲参数") or by its telling clause; a stable fact about
  the user goes to its self object instead, a fact whose subject is a person to that person.

One-off details (times, today/tomorrow, reminders, errands, payments), passing remarks and
things the user calls unimportant or asks not to record stay out. 宁缺毋滥.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..models import ChatMessage
from ..text.cjk import HAN, han_ngrams
from ..text.normalize import has_cjk, normalize
from .extract import Candidate, Proposed
from .model import SELF_KEYS, MemoryObject, near_name, norm_name
from .store import Stored

_I = re.IGNORECASE


def _en(*words: str) -> str:
    """English words not inside a longer Latin word (``\\b`` fails next to Chinese)."""
    return "(?<![A-Za-z])(?:" + "|".join(words) + ")(?![A-Za-z])"


def _rx(*parts: str, flags: int = _I) -> re.Pattern[str]:
    return re.compile("|".join(parts), flags)


# -- lexicons: kinds of language, never the facts of one chat --------------------------------

STANDING = _rx(
    _en("from now on", "going forward", "in (?:the )?future", "for the future", "always", "never", "every time",
        "whenever", "by default", "stop", "keep it", "keep your", "keep (?:the )?(?:answers|replies|messages)",
        "at most", "max", "no more than", "skip the", "avoid", "no more", "no need to", "i prefer", "i'd rather",
        "please use",
        "please don't", "please keep", "make sure", "i'd prefer", "i like", "i want", "i hate", "i learn",
        "i don't", "don't", "do not", "rule"),
    r"(?:下周|下个月|下月|明年|月底|年后)[^，。]{0,3}(?:开始|起)", _en("starting (?:next|from|in)", "from next (?:week|month|year)"),
    # an imperative about how the assistant answers ("please reply in English", "be more casual", "no emoji")
    r"^\s*(?:(?:please|pls|and|so|also|oh)\s+)*(?:no|reply|answer|respond|write|talk|speak|be|use|keep|give|put)\s",
    "以后|今后|往后|一直|永远|总是|每次|默认|都用|都按|别|(?<!要)不要|记着|记住|我喜欢|我习惯|我讨厌|改成|还是|就行|不吃|不能|"
    "尽量|统一|一律|麻烦|请用|都给我|给我用|最多|不超过|以内|少用|不用",
)  # fmt: skip
ADDITIVE = _rx(r"^\s*(?:also|and|plus|oh and|another thing|还有|另外|而且|再加上|顺便)", flags=_I)
CORRECTION = _rx(
    _en("actually", "instead", "scratch that", "change (?:that|it) to", "on second thought", "rather", "no wait",
        "let's do", "go back to", "switch back",
        "make (?:that|it)",
        "let's go back", "go back to"),
    "改成|算了|还是|不对|换成|重新说|更正|太死了|改一下|纠正|换回|改回",
)  # fmt: skip
ONE_OFF = _rx(
    _en("today", "tonight", "tomorrow", "yesterday", "this (?:morning|afternoon|evening|weekend|week)",
        r"next (?:week|monday|tuesday|wednesday|thursday|friday|saturday|sunday)",
        r"\d{1,2}(?::\d\d)?\s?(?:am|pm)", "remind me", "right now", "later today", "this year"),
    r"\d{1,2}:\d\d|今天|今晚|明天|后天|昨天|这周|本周|周末|下周|提醒我|刚才|一会儿|\d+ ?点|早上|中午|晚上想",
)  # fmt: skip
TOPIC_FOLLOW_CUE = _rx(
    _en(
        "budget",
        "deadline",
        "decided",
        "the plan",
        "open question",
        "not sure yet",
        "aiming",
        "goal",
        "target",
    ),
    "预算|截止|定了|决定|方案|还没想好|待定|目标",
)
JOKE = _rx(_en("lol", "lmao", "haha+", "hehe", "jk", "kidding"), "哈哈|呵呵|笑死|😂|🤣|😆")
HARD_ONE_OFF = _rx(_en(r"\d{1,2}(?::\d\d)?\s?(?:am|pm)", "remind me", "eta"), r"\d{1,2}:\d\d|提醒我|\d+ ?点")
ASK = _rx(
    _en("what", "how much", "how many", "when does", "which", "where", "can you", "could you"),
    "多少|几点|怎么|什么时候|哪里|哪个|为什么|吗|呢$|帮我|给我",
)
ASK_WORD = _rx(  # a question, not a request ("帮我…" only drops its own clause)
    _en("what", "how much", "how many", "when does", "which", "where"),
    "多少|几点|怎么|什么时候|哪里|哪个|为什么|吗|呢$",
)
ACK = re.compile(
    r"^\s*(?:sure|ok(?:ay)?|yes|yep|yeah|no|cool|thanks?|thank you|perfect|nice|great|好的?|可以|对|嗯|行|收到)\W*$",
    _I,
)
DISMISS = _rx(
    _en("less important", "not important", "doesn't matter", "does not matter", "not worth",
        "don't (?:save|record|note|remember)", "no need to (?:save|note|remember)", "never mind", "unimportant"),
    "无所谓|不重要|不用记|别记|先别记|不用管|没关系",
)  # fmt: skip
DECLINE = _rx(r"^\s*(?:先别|不用|别|不要|算了|no\b|nope|not yet|don't|no need|先不)", flags=_I)
RECORD_OFFER = _rx(_en("add (?:that|this|it)", "note (?:that|this|it)", "save (?:that|this|it)", "record",
                       "notes"), "记到|记下|记一下|记录|存一下")  # fmt: skip
REMEMBER = _rx(
    _en("remember (?:this|that|it)", "please remember", "remember for me", "save this", "note this down",
        "keep (?:this|that) in mind", "don't forget (?:this|that)", "make a note", "write (?:this|that) down",
        "don't let me forget", "for future reference", "note (?:this|that)(?: down)?", "save (?:that|it) for me"),
    "帮我记住|记住|帮我记一下|记一下|记下来|备忘一下|帮我记着|帮我存一下|存一下|记下|备注一下|别让我忘了",
    # "oh and remember the garage code is 4471": the imperative, not "remember to …" or "I remember when …"
    r"(?:^|[,.;:!]\s*|(?<![A-Za-z])(?:oh|and|also|please|pls|btw|ok|just)\s+)remember(?!\s+(?:to|when|how|if)\b)(?![A-Za-z])",
)  # fmt: skip
RECALL_QUESTION = _rx(r"(?:do|did|can|could) you (?:still )?remember", r"还记得|记得吗|记不记得", flags=_I)
THIRD_PARTY = _rx(
    r"(?<![A-Za-z])(?:my|our) (?:wife|husband|partner|son|daughter|kids?|children|mum|mom|dad|mother|father|sister|"
    r"brother|boss|friend|colleague|cat|dog)(?![A-Za-z])",
    r"(?:^|[^自])(?:老婆|老公|女儿|儿子|孩子|我妈|我爸|婆婆|公公|岳母|老板|同事|朋友|室友)(?:说|喜欢|不吃|对|过敏|要|想|也)",
)
QUESTION = re.compile(r"[?？]|吗\s*$|吗[，。]|呢\s*$")
SWITCH = _rx(
    _en(
        "also",
        "btw",
        "by the way",
        "oh",
        "another thing",
        "anyway",
        "unrelated",
        "off topic",
        "different question",
    ),
    "另外|对了|还有个事|顺便|还有|题外话|换个话题|说个别的",
)

PERSON_DURABLE = _rx(
    _en("moving to", "moved to", "joins", "joined", "is joining", "takes over", "took over", "is now", "is our",
        "is my", "stays", "remains", "contact for", "escalation", "owns", "in charge of", "responsible for",
        "works (?:at|for|as)", "lives in", "allergic", "allergy", "prefers", "hates", "loves", "never", "always",
        "doesn't (?:eat|like|drink)", "can't eat", "can't have", "cannot have", "can't drink", "from (?:january|february|march|april|may|june|july|august|"
        "september|october|november|december|next month)", "every (?:week|day|month|monday|tuesday|wednesday|"
        "thursday|friday|saturday|sunday)", "birthday", "ahead", "in advance", "lead time", "retired", "promoted",
        "engaged", "married", "divorced", "pregnant", "started (?:at|a|her|his|their|school|work)", "new job",
        "got a job", "graduated", "is studying", "is learning", "goes to", "now at", "now in", "switched", "changed jobs",
        "likes", "doesn't like", "does not like", "can't stand", "favou?rite", "works", "lives", "usually",
        "is vegetarian", "is vegan", "hates", "reports to", "handles", "will handle", "from now on", "going forward",
        "no longer", "anymore", "any more", "moves (?:in|to)", "moving (?:in|to)", "diagnosed", "diabet(?:es|ic)",
        "blood pressure", "leads", "will lead", "is leading", "manages", "starting (?:next|from|in)",
        "from next (?:week|month|year)", "won't fly", "doesn't fly", "can't fly", "only takes"),
    "调去|调到|搬到|升职|现在是|负责|过敏|不吃|不喝|不喜欢|讨厌|喜欢|永远|从来|一直|以后|每周|每天|每月|改成|入职|"
    "离职|换工作|生日|住在|提前|退休|结婚|订婚|怀孕|接手|接替|开始|换了|考上|毕业|在读|上学|上班|工作|报了|爱吃|爱喝|"
    "不爱|最爱|受不了|怕|不能|只吃|只喝|习惯|平时|总是|经常|每次|不再|现在在|现在做|当了|成了|转岗|搬去|回国|出国|"
    "去[^，。]{0,6}(?:读|工作|上班|上学)|读 ?(?:MBA|研|博|书|大学)|预产期|生了|"
    "(?:调|去|到)[^，。]{0,8}(?:office|办公室|分公司|总部|分部|分店)|确诊|查出|诊断|糖尿病|高血压|心脏病|不坐|只坐|坐不了|晕车|晕机|结婚|搬回|搬进|住进",
)  # fmt: skip
PERSON_VERB = _rx(
    _en("is", "was", "takes", "took", "joined", "joins", "stays", "remains", "moved", "moving", "is moving",
        "wrote", "owns", "prefers", "hates", "likes", "loves", "works", "lives", "says", "said", "needs"),
)  # fmt: skip
ROLE_WORDS = {
    "supplier": "supplier", "vendor": "supplier", "boss": "boss", "manager": "manager", "colleague": "colleague",
    "coworker": "colleague", "sre": "colleague", "engineer": "colleague", "developer": "colleague",
    "team": "colleague", "friend": "friend", "wife": "partner", "husband": "partner", "partner": "partner",
    "son": "family", "daughter": "family", "mum": "family", "mom": "family", "dad": "family", "mother": "family",
    "father": "family", "sister": "family", "brother": "family", "client": "client", "customer": "client",
    "landlord": "landlord", "doctor": "doctor", "teacher": "teacher", "tutor": "teacher",
    "neighbour": "neighbour", "neighbor": "neighbour", "roommate": "roommate", "flatmate": "roommate",
    "cousin": "family", "aunt": "family", "uncle": "family", "niece": "family", "nephew": "family",
    "grandson": "family", "granddaughter": "family", "mentor": "mentor", "领导": "boss", "上司": "boss",
    "导师": "mentor", "邻居": "neighbour", "房东": "landlord",
    "同事": "colleague", "老板": "boss", "朋友": "friend", "老婆": "partner", "老公": "partner", "女儿": "family",
    "儿子": "family", "妈妈": "family", "爸爸": "family", "合伙人": "business partner", "客户": "client",
    "供应商": "supplier", "室友": "roommate", "同学": "classmate", "老师": "teacher",
}  # fmt: skip
_ROLES_ZH_PEOPLE = "同事|朋友|老板|合伙人|客户|供应商|室友|同学|老师|实习生|助理|设计师|会计|律师|阿姨|保姆|教练|导师|领导|主管"
NEW_PERSON_ZH = re.compile(
    r"我的?(同事|朋友|老板|老婆|老公|女儿|儿子|妈妈|爸爸|合伙人|客户|供应商|室友|同学|老师)"
    r"(?:叫|是|，)?\s*([A-Z][a-z]+)(?![A-Za-z])"
    rf"|(?:我|我们)(?:的|有个|有一个|[^，。]{{0,6}}新来了?(?:一)?个)?({_ROLES_ZH_PEOPLE})(?:叫|名叫|是)([{HAN}]{{2,3}}|[A-Z][a-z]+)"
)
_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟"
    "谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
NEW_PERSON_ZH_SURNAME = re.compile(
    r"我的?(同事|朋友|老板|合伙人|客户|供应商|室友|同学|老师|领导|上司|导师|邻居|房东|表妹|表姐|表哥|表弟|堂弟|堂妹|"
    r"舅舅|姑姑|阿姨|叔叔|侄子|侄女|外甥|外甥女)"
    rf"((?:小|老|阿)[{_SURNAMES}]|[{_SURNAMES}](?:总|哥|姐|老师|工|经理|阿姨|叔)|[{_SURNAMES}][{HAN}]{{1,2}}(?=[，,。\s说是也在要会]))"
)
# 小吴 / 老周 / 阿强-style short forms standing alone (not 小程序: a boundary must follow), introduced by a duty.
NEW_PERSON_ZH_DUTY = re.compile(
    rf"((?:小|老|阿)[{_SURNAMES}])(?=$|[，,。！!？?\s]|[说是也在会来负责对接管跟和])"
)
DUTY_ZH = re.compile("对接|负责|联系人|接手|接替|跟进|手下|助理|新来的|接管")
KIN_ZH = {
    "我妈": "妈妈", "妈妈": "妈妈", "我爸": "爸爸", "爸爸": "爸爸", "外婆": "外婆", "奶奶": "奶奶", "爷爷": "爷爷",
    "外公": "外公", "姥姥": "姥姥", "姥爷": "姥爷", "婆婆": "婆婆", "公公": "公公", "岳母": "岳母", "岳父": "岳父",
    "老婆": "老婆", "老公": "老公", "女儿": "女儿", "儿子": "儿子", "哥哥": "哥哥", "姐姐": "姐姐", "弟弟": "弟弟",
    "妹妹": "妹妹", "我哥": "哥哥", "我姐": "姐姐", "我弟": "弟弟", "我妹": "妹妹",
}  # fmt: skip
KIN_ZH.update(
    {"老妈": "妈妈", "老爸": "爸爸", "我妈妈": "妈妈", "我爸爸": "爸爸", "母亲": "妈妈", "父亲": "爸爸"}
)
KIN_EN = {
    "mom": "mother", "mum": "mother", "mother": "mother", "mama": "mother", "dad": "father", "father": "father",
    "papa": "father", "grandma": "grandmother", "granny": "grandmother", "nan": "grandmother", "nana": "grandmother",
    "grandmother": "grandmother", "grandpa": "grandfather", "grandad": "grandfather", "granddad": "grandfather",
    "grandfather": "grandfather",
}  # fmt: skip
# "她不吃辣", "she moves in on …": a third-person pronoun right before a durable cue is a fact about that person.
PRONOUN_SUBJECT = re.compile(r"(?<![A-Za-z])(?:[Hh]e|[Ss]he)(?:'s|'ll)?\s+|[他她](?!们)")
KIN_ZH_START = re.compile(r"^\s*(?:我的?)?(" + "|".join(sorted(KIN_ZH, key=len, reverse=True)) + r")")
KIN_DURABLE = _rx(
    _en("allergic"), "过敏|不吃|不能吃|不喝|吃素|忌口|血压|糖尿病|生日|退休|搬到|住在|喜欢|讨厌|受不了|怕"
)
_PERSON_ROLES_EN = (
    "supplier|vendor|boss|manager|colleague|coworker|friend|wife|husband|partner|son|daughter|mum|mom|dad|mother|"
    "father|sister|brother|client|landlord|doctor|teacher|tutor|accountant|lawyer|neighbou?r|roommate|flatmate|"
    "cousin|aunt|uncle|niece|nephew|grandson|granddaughter|mentor|designer|developer|engineer|intern|assistant|"
    "co-?founder|nanny|babysitter|coach|trainer|agent|contractor|bookkeeper|editor|producer|recruiter|therapist"
)
NEW_PERSON_EN_APPOSITIVE = re.compile(
    r"(?<![A-Za-z'])([A-Z][a-z]{2,})(?:,| is| \()\s*(?:(?:she|he|they)(?:'s| is| are) |who(?:'s| is) )?"
    rf"(?:my|our) (?:new |[a-z]+ )?({_PERSON_ROLES_EN}|lead|report)"
)
NEW_PERSON_EN = re.compile(
    r"(?:^|[\s,(])(?:[Mm]y|[Oo]ur|(?:hired|got|have|has|brought in|onboarded) (?:a|an))\s+(?:[a-z]+\s+){0,2}"
    rf"({_PERSON_ROLES_EN})\s*(?:is\s+|,\s*|called\s+|named\s+)?([A-Z][a-z]+)"
)
NAME_STOP = {
    "i", "i'm", "im", "ok", "okay", "hi", "hey", "thanks", "yes", "no", "the", "a", "and", "but", "so", "also",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march",
    "april", "may", "june", "july", "august", "september", "october", "november", "december", "english",
    "chinese", "eur", "usd", "slack", "dms", "dm", "ci", "prod", "sql", "api", "it", "that", "this", "we",
    "you", "he", "she", "they", "my", "our", "what", "how", "can", "could", "good", "morning", "heads",
    "cool", "sure", "great", "nice", "perfect", "later", "oh", "ugh", "btw", "lol", "done",
}  # fmt: skip

TOPIC_DECISION = _rx(
    _en("decided", "going with", "go with", "we'll use", "will use", "switch(?:ed|ing)? to", "settled on",
        "chose", "picked", "back on", "the (?:real )?fix", "going forward", "from now on", "the plan is",
        "root cause", "turns out", "because", "we're using", "is on hold", "going to use", "gonna use", "we'll go",
        "launched", "shipped", "released", "finished", "deadline", "next step", "blocked on", "waiting (?:for|on)",
        "moved to", "switching", "chose", "picked", "agreed", "confirmed", "done", "works now", "fixed by",
        "the answer is", "we need", "must", "budget", "target", "raising", "lowering", "changing",
        "from (?:january|february|march|april|may|june|july|august|september|october|november|december|next)",
        "starting (?:next|in|from)", "aiming for", "goal is", "pushed (?:back|to)", "postponed", "delayed to",
        "brought forward"),
    "决定|定了|定为|就用|改用|改成|选了|确定|以后|专心|原因|是因为|是按|结论|方案|归档|关了|停了|定下来|上线|发布|完成|"
    "搞定|下一步|卡在|推迟|延期|延到|提前到|改到|等[^，。]{0,6}(?:回复|审批|结果)|用了|换成|选|预算|目标|截止|deadline|先做|后做|不做|只做|必须",
)  # fmt: skip
STATUS = {
    "archived": _rx(_en("shut (?:it )?down", "closed (?:it|down|for good)", "archive", "archived", "abandon(?:ed)?",
                        "give up", "gave up", "killed it", "for good", "dropping it", "wrapped up", "done with it", "is dead",
                        "retired it", "sunset", "closing (?:the|it|down|my)", "shutting (?:it|down|the)",
                        "close (?:it|the [\\w ]{1,20}) down", "not doing .{0,20} anymore", "calling it(?: quits)?(?: on)?",
                        "no point (?:in )?(?:continuing|going on|carrying on)", "not worth continuing",
                        "stop(?:ping)? working on", "done with (?:it|this|that|the)"),
                    "关了|关掉|归档|不做了|放弃|彻底停|永久关闭|不搞了|黄了|结束了|完结|没必要(?:继续|再做)|到此为止|不再做了"),
    "paused": _rx(_en("pause", "paused", "pausing", "on hold", "shelve", "shelved", "shelving", "put (?:it|that|this) aside",
                      "on ice", "on the back burner", "take a break from", "parking"),
                  "先停|停了|暂停|搁置|放一放|先放着|等[^，。]{0,8}再(?:弄|做|说|看|搞)|先不搞|缓一缓|停一停"),
    "active": _rx(_en("back on", "resum(?:e|ed|ing)", "restart(?:ed|ing)? (?:it|the)", "pick(?:ing)? (?:it|this|that) (?:back )?up",
                      "picking up .{0,30} again", "active again", "on again", "revive", "revived", "back to work on",
                      "getting back to", "starting .{0,20} again", "started .{0,30} again",
                      "is (?:officially )?back(?! to)", "it's back"),
                  "重新开始|重新启动|恢复|又开始|继续做|继续搞|重启|捡起来|又要做|重新捡"),
}  # fmt: skip
MONEY = _rx(_en("paid", "pay", "deposit", "invoice", "refund"), r"[$€£¥]|付|定金|元|块钱|退款|发票")
CHANGED = _rx(  # words that make a restated name or number a new fact
    _en("no longer", "not", "isn't", "wasn't", "left", "quit", "moved", "moving", "changed", "switched", "new",
        "anymore", "instead", "now", "former", "ex"),
    "不再|不是|没有|离职|辞职|换|改|搬|调|新|现在|以前|之前|原来|已经不",
)  # fmt: skip
CHANGE_MADE = _rx(  # the user changed a setting or a tool for good (checked together with a named thing)
    _en("enabled", "turned on", r"switched (?:on|(?:[\w-]+ ){0,3}(?:to|over to))", "installed", "added", "set up",
        "upgraded to", r"migrated (?:[\w-]+ ){0,3}to", r"moved (?:[\w-]+ ){0,3}to", "disabled", "turned off",
        "replaced .{1,30} with"),
    "^\\s*(?:开了|加了|装了)|打开了|启用了?|换成|改成|改用|升级到|迁移到|迁到|切到|切换到|关闭了|禁用了?",
)  # fmt: skip
OPEN_QUESTION = _rx(
    _en("open question", "not sure yet", "haven't decided", "undecided", "need to decide", "still deciding",
        " vs "),
    "还没想好|待定|要不要|还没定|没想好|还在纠结",
)  # fmt: skip
NEW_TOPIC = _rx(
    _en("new (?:side )?project", "started (?:a|working on)", "working on a new", "big thing (?:right now )?is",
        "new repo", "kicked off", "starting a new", "i'm starting", "i'm building", "building a", "planning a",
        "side project", "new venture", "new initiative", "main thing", "(?:i'm|i am|we're) (?:currently |mostly |now )?working on",
        "my (?:main|current|big) project"),
    "最大的事|手上最[^，。]{0,4}的(?:事|活)|主要在忙|在忙一个|开了个新|新开了?个|新项目|在做一个|搞了个|新建了?一个|启动了?一个|在搞一个|打算做一个|准备做一个|新坑|开坑|立项",
)  # fmt: skip
TOPIC_GENERIC = {"project", "plan", "app", "the", "a", "of", "and", "final", "new", "my", "项目", "计划"}

_ROLES_EN = (
    "student|engineer|developer|programmer|designer|teacher|nurse|doctor|lawyer|analyst|manager|freelancer|"
    "consultant|researcher|scientist|writer|chef|accountant|founder|photographer|architect|pharmacist|dentist|"
    "translator|journalist|editor|barista|vet|therapist|musician|artist|illustrator|pm|sre|devops|marketer|"
    "recruiter|professor|lecturer|postdoc|intern|owner|baker|tutor|pilot|driver|farmer|mechanic|electrician"
)
_ROLES_ZH = (
    "学生|工程师|老师|教师|医生|设计师|分析师|程序员|经理|护士|律师|会计|研究生|博士|产品经理|运营|销售|翻译|编辑|记者|"
    "摄影师|厨师|药剂师|建筑师|自由职业|店主|老板娘|创业|实习生|教授|主播|博主|司机"
)
_TIMED_KEYS = ("city", "timezone", "work_hours", "quiet_hours", "birthday")  # times are their values
CLOCK_OR_DAY = _rx(
    _en(r"\d{1,2}(?::\d\d)?\s?(?:am|pm)", "today", "tonight", "tomorrow"),
    r"\d{1,2}:\d\d|\d+ ?点|今天|明天|今晚",
)
SELF_RULES: dict[str, tuple[re.Pattern[str], bool]] = {
    # key: (pattern, needs a standing cue)
    "name": (re.compile(r"(?<![A-Za-z])(?:I'm|I am|[Mm]y name is|[Mm]y name's|[Tt]his is)\s+[A-Z][a-z]+(?![a-z])"
                        r"|我叫[" + HAN + r"]{1,3}|我的名字|我姓[" + HAN + r"]"
                        r"|^\s*我是(?:[小阿老][" + HAN + r"]|[王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟][" + HAN + r"]{1,2})(?=[，,。！!\s]|$)"), False),
    "nickname": (_rx(r"(?:^|[,.;!]\s*|\b(?:please|pls|you can|you may|just|do|can you)\s+)call me(?![A-Za-z])",
                     _en("address me as"),
                     "(?:^|[，,。；！]|你|请|可以|就)(?:叫|喊|称呼)我[" + HAN + "A-Za-z]{1,4}"
                     "|(?:叫|喊|称呼)我[" + HAN + "A-Za-z]{1,4}(?:就行|就好|吧|就可以)"), False),
    "city": (_rx(r"(?<![A-Za-z])(?:studio|shop|store|practice|clinic|bakery|caf[eé]|restaurant|salon|workshop) "
                 r"(?:is )?(?:in|based in) (?-i:[A-Z])",
                 "(?:店|工作室|公司|诊所)(?:开)?在[" + HAN + "]{2,3}(?:市|[，,。 ]|$)",
                 "我在[" + HAN + "]{2,3}(?:市)?(?:开|经营)了?[^，。]{0,8}(?:店|公司|工作室|诊所)",
                 _en("i live in", "i'm based in", "i am based in", "i've moved to", "we moved to", "moved to",
                     "living in", "i'm in [A-Z][a-z]+ now", "our home in"),
                 "我住在|我家在|搬到|搬过来|定居|搬家到|我现在住|人在[" + HAN + "]{2,4}(?:工作|生活)|常住"), False),
    "timezone": (_rx(r"(?<![A-Za-z])[A-Z][a-z]+/[A-Z][A-Za-z_]+", r"(?:UTC|GMT)\s?[+-]\s?\d{1,2}", _en("time ?zone"),
                     r"(?:I'm|I am|we're) on (?:[A-Z][a-z]+ )?(?:time|PST|PDT|EST|EDT|CET|CEST|BST|JST)",
                     r"(?:use|in|on) (?:PST|PDT|EST|EDT|CST|CET|CEST|BST|JST|KST|IST|AEST|AEDT|SGT|HKT)(?![A-Za-z])",
                     "时区|东八区|北京时间|[按用][^，。]{0,6}时间", flags=0), False),
    "occupation": (_rx(_en("i run (?:a|an|my) (?:[\\w&'-]+ ){0,3}(?:business|shop|company|store|studio|bakery|cafe|café|"
                           "restaurant|agency|startup|clinic|practice|brand|label|farm|firm)",
                           "i work (?:as|at|for|in)", f"i'm an? (?:[a-z-]+ ){{0,2}}(?:{_ROLES_EN})s?",
                           f"i am an? (?:[a-z-]+ ){{0,2}}(?:{_ROLES_EN})s?", "my job", "i study", "i'm studying",
                           "i teach", "i'm doing (?:a|my) (?:phd|masters?|degree)"),
                       f"我是[^，。]{{0,12}}(?:{_ROLES_ZH})", f"我(?:在[^，。]{{1,8}})?(?:做|当)[^，。]{{0,8}}(?:{_ROLES_ZH})", "我在[^，。]{1,12}(?:工作|上班|实习|读书|读研|读博)",
                       "我是做[^，。]{1,10}的", "我(?:在|读)[^，。]{0,8}(?:大学|研究生|博士|大[一二三四]|研[一二三])",
                       "我(?:在[^，。]{1,6})?(?:开|经营)了?[^，。]{0,10}(?:店|公司|工作室)", "我的工作是", "我做[^，。]{1,8}(?:工作|行业)"), False),
    "birthday": (_rx(_en("my birthday", "i was born", "born on"), "我的?生日"), False),
    "code_style": (_rx(_en("commit messages?", "conventional commits", "code style", "naming conventions?",
                           "type hints", "docstrings", "indentation", "snake_case", "camelcase", "tabs", "semicolons",
                           "linter", "formatter"), "提交信息|代码风格|命名规范|缩进|注释|commit"), True),
    "language_preference": (_rx(r"(?:reply|replies|answer|respond|write|talk|speak|text)\w*[^.]{0,30}(?:English|Chinese|"
                                r"Mandarin|Cantonese|Spanish|French|German|Japanese|Korean)",
                                "(?:用|回复|回答|说|跟我说|和我聊)[^，。]{0,6}(?:中文|英文|英语|日语|粤语|普通话|繁体|简体)",
                                "(?:中文|英文|英语)回复", _en("technical terms", "in english", "in chinese"),
                                r"(?:use|keep|prefer|switch to|stick (?:to|with)|back to) (?:English|Chinese|Mandarin|"
                                r"Cantonese|Spanish|French|German|Japanese|Korean)",
                                r"(?:English|Chinese|Mandarin|Cantonese|Spanish|French|German|Japanese|Korean) is "
                                r"(?:better|fine|easier)"), True),
    "diet": (_rx(_en("vegetarian", "vegan", "pescatarian", "halal", "kosher", "allergic", "gluten", "lactose",
                     "don't eat", "do not eat", "can't eat", "i avoid", "i can't have", "don't drink", "no alcohol",
                     "no (?:pork|beef|meat|dairy|nuts|seafood|spicy)"),
                 "不吃|吃素|忌口|过敏|不能吃|素食|不喝酒|戒糖|乳糖不耐|不碰|[不能少微特怕]辣|吃辣"), False),
    "units": (_rx(_en("EUR", "USD", "GBP", "CNY", "RMB", "JPY", "CAD", "AUD", "HKD", "SGD", "CHF", "VAT", "metric",
                      "imperial", "celsius", "fahrenheit", "date format", "24-hour", "miles", "kilometres",
                      "kilometers", "km", "pounds", "kg", "kilos", "currency", "dd/mm", "yyyy-mm-dd", "mm/dd"),
                  "含税|不含税|公制|英制|摄氏|华氏|人民币|美元|欧元|港币|日元|日期格式|24 ?小时制|币种|公里|公斤|计价|金额"), True),
    "travel": (_rx(_en("aisle seats?", "window seats?", "red-eye", "direct flights?", "layovers?", "business class",
                       "economy class", "airlines?", "flights?", "trains?", "hotels?", "seats?", "hostels?", "airbnbs?"),
                   "靠窗|靠过道|直飞|转机|经济舱|商务舱|高铁|卧铺|航空公司|酒店|红眼航班|民宿|座位"), True),
    "quiet_hours": (_rx(_en("don't (?:message|text|ping|disturb|call)", "never (?:message|text|ping|call) me",
                            "no (?:messages|pings|notifications) (?:after|before|on)", "quiet hours", "do not disturb",
                            "leave me alone (?:after|on|during)"),
                        "别[^，。]{0,8}(?:发[^，。]{0,8}消息|打扰|找我|提醒我)|免打扰|不要在[^，。]{0,8}(?:发|打扰|找)|"
                        "[0-9一二三四五六七八九十]+ ?点(?:以后|之后|后|前|以前)[^，。]{0,4}(?:别|不要)"), True),
    "reminders": (_rx(r"remind(?:ers?)? (?:me )?[^.]{0,30}(?:before|ahead|in advance|early|the day before)",
                      _en("reminders? should"), r"(?:\d+|an?|one|two|half an?) (?:minutes?|mins?|hours?|days?) "
                      r"(?:before|ahead|in advance|early)", "提前[^，。]{0,8}提醒|提醒[^，。]{0,8}提前|提醒我的时候",
                      "提前 ?[0-9一二两三四五六七八九十半]+ ?(?:个)?(?:分钟|小时|钟头|天)"), False),
    "reply_length": (_rx(r"(?:reply|replies|answer|answers|response|responses|message|messages)[^.]{0,40}(?:short|long|"
                         r"concise|brief|sentences?|words|characters|paragraphs?|lines?)",
                         _en("conclusion first", "tl;?dr", "bottom line first", "too long", "keep it short",
                             "keep it brief", "shorter", "get to the point", "one-liners?"),
                         "(?:回复|回答|答复|消息)[^，。]{0,8}(?:太长|太短|长|短|简洁|简短|啰嗦)", "句话(?:以内|之内)", r"\d+ ?字",
                         "字数", "先[^，。]{0,6}结论|结论先|别太长|短一点|简短点|说重点"), True),
    "emoji_use": (_rx(_en("emojis?", "emoticons?", "smileys?"), "表情|颜文字"), True),
    "tone": (_rx(_en("formal", "casual", "jargon", "sarcasm", "humou?r", "blunt", "polite", "plain english",
                     "sugarcoat", "straight", "direct with me", "friendly", "professional"),
                 "正式|口语化|客气|客套|委婉|幽默|语气|官腔|啰嗦|废话|直接[点些]|直接一点|说人话|别绕"), True),
    "formatting": (_rx(_en("tables?", "bullet points?", "bullets", "code blocks?", "fenced", "markdown", "headings",
                           "numbered lists?", "bold"), "表格|列表|代码块|分点|加粗|markdown|编号"), True),
    "work_hours": (_rx(r"I (?:usually |normally |mostly )?work (?:from|between|until|till|\d)",
                       _en("working hours", "office hours", "night shifts?", "early shifts?", "i work nights",
                           "i work weekends", "i'm (?:usually )?online", "i start work", "my hours", r"i (?:start|finish|stop|clock off) (?:work )?at \d",
                           r"i'm (?:done|off) (?:by|at) \d"),
                       "上班时间|工作时间|我[^，。]{0,6}(?:点|晚上|白天|早上)[^，。]{0,6}(?:上班|工作|写代码|开工|下班)|"
                       "我一般[^，。]{0,8}(?:上班|工作|下班)", "在家办公|居家办公|远程办公|坐班|去公司|到公司上班",
                       _en("work from home", "working from home", "wfh", "in the office on", "remote on",
                           "(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?) (?:to|through|-) "
                           "(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)")), False),
    "tools": (_rx(r"(?<![A-Za-z])I (?:switched|moved|changed) (?:over )?to", r"(?<![A-Za-z])I(?:'m| am) (?:now )?using",
                  r"(?<![A-Za-z])I (?:mainly |mostly |only )?use", _en("my editor", "my ide", "switched from", "i'm on (?:a )?mac(?:os|book)?",
                  "i'm on linux", "i'm on ubuntu", "i'm on windows", "my laptop is", "i code in", "i write (?:mostly )?in"),
                  r"我[^，。A-Za-z]{0,4}?(?:换|改用|换成|换到|用的是|一直用|主要用|平时用)(?:了|成|到)?\s*[A-Za-z]", "主力机|我的电脑是"), False),
    "confirmation": (_rx(_en("without (?:asking|checking with|telling) me", "ask me (?:first|before)",
                             "check with me", "my (?:explicit )?(?:ok|okay|approval|permission|go-ahead)",
                             "confirm with me", "before you (?:send|delete|run|deploy|book|buy|pay)"),
                         "先问我|问过我|经过我|我同意|征得|先跟我确认|别擅自|不要擅自|我确认之前|先确认",
                         "先[^，。]{0,4}(?:让|等|跟|和|找)我[^，。]{0,2}(?:确认|同意|点头|批准)|(?:让|等|经)我(?:确认|同意)(?:后|之后|再|了再)"), False),
    "study_method": (_rx(_en("i learn (?:much )?(?:better|best|more)", "learn better", "study best", "quiz me",
                             "flashcards?", "when i'm learning", "when i study"),
                         "我学[^，。]{0,6}(?:更快|更好)|学习方法|先[^，。]{0,6}(?:例子|例题)|学东西的时候|我学习"), False),
}  # fmt: skip
FIRST_PERSON = _rx(
    _en("i", "i'm", "i've", "i'd", "me", "my", "we", "our", "us", "you", "your"), "我|你|给我|帮我"
)
THIRD_PERSON_START = re.compile(r"^\s*(?:他|她|他们|[Hh]e\b|[Ss]he\b|[Tt]hey\b)")
REQUEST_CLAUSE = _rx(
    r"(?:^|\s)(?:帮我|给我|替我|你帮|你推荐|推荐个)", r"^\s*(?:can you|could you|please|pls)\b", flags=_I
)
REQUEST = _rx(
    r"^\s*(?:帮我(?!记)|给我(?:写|查|找|算|订|做|发|看|翻译)|can you|could you|please (?:draft|write|check|find|look|tell|calculate))",
    flags=_I,
)
_SALIENT = re.compile(
    r"[A-Za-z]+/[A-Za-z_]+|(?:UTC|GMT)\s?[+-]\s?\d+|\d+(?:[.,:/-]\d+)+|[A-Za-z]*\d+[A-Za-z]+\w*|"
    r"(?<![A-Za-z])[A-Z][A-Za-z]+(?:[-_][A-Za-z0-9]+)*|[a-z]+[-_][a-z0-9]+|\d+"
)
_SALIENT_STOP = {"the", "i", "i'm", "ok", "user", "lives", "wants", "prefers", "the user"}
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;\n])|(?<=[.])\s+(?=[A-Za-z" + HAN + r"])")
_CLAUSE_END = re.compile(r"(?<=，)\s*|(?<=,)(?!\d{3}(?!\d))\s*")  # 38,000 is one number, not two clauses
_FENCED = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_LEADING = re.compile(
    r"^\s*(?:另外说一下|另外|对了|顺便确认下|顺便|还有个事|还有|哦对|说个我自己的|"
    r"(?:ohh?|so|also|btw|fyi|and|ok|heads up|for the future|add|(?:[a-z]+ ){0,2}[a-z]+ ?:)(?![A-Za-z]))\s*[,，:：]?\s*",
    _I,
)


def salient_tokens(text: str) -> list[str]:
    """Identifiers, numbers and proper words a value must keep (America/Toronto, UTC+8, 14B, Leeds)."""
    found = []
    for match in _SALIENT.finditer(text):
        token = match.group(0).strip()
        if token.casefold() in _SALIENT_STOP or len(token) < 2:
            continue
        found.append(token)
    return found


def sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]


def clauses(sentence: str) -> list[str]:
    return [part.strip() for part in _CLAUSE_END.split(sentence) if part and part.strip()]


def _clean(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = _LEADING.sub("", text, count=1)
    return text.strip(" ，,。.；;：:!！")


# One pass over the sentence first: most sentences speak to no key at all (a superset, case-insensitive).
_SELF_GATE = re.compile("|".join(f"(?:{pattern.pattern})" for pattern, _ in SELF_RULES.values()), _I)


def _self_hits(sentence: str, allowed: Callable[[str], bool]) -> list[tuple[str, str]]:
    """The vocabulary keys a sentence speaks to, each with its part of the sentence: one key per
    clause run ("我一般晚上十点以后才写代码，早上别给我发消息" → work_hours, quiet_hours)."""
    if not _SELF_GATE.search(sentence):
        return []
    parts = [
        p
        for p in re.split(r"(?<=[，,;；])\s*|\s+(?=(?:so|but|because|and then)\s)", sentence)
        if p and p.strip()
    ]
    first: dict[str, int] = {}
    for key, (pattern, _) in SELF_RULES.items():
        if not pattern.search(sentence) or not allowed(key):
            continue
        at = next((i for i, part in enumerate(parts) if pattern.search(part)), -1)
        first.setdefault(key, at)
    categories = {SELF_KEYS[key] for key in first}
    one_category = len(categories) == 1 and categories != {"identity"}  # identity keys are separate facts
    if len(first) <= 1 or one_category or any(at < 0 for at in first.values()):
        return [(key, sentence) for key in list(first)[:1]]
    starts: dict[int, list[str]] = {}
    for key, at in first.items():
        keys = starts.setdefault(at, [])
        # A clause two keys share goes to the one listed first, except that one clause can state
        # several identity facts ("I run a studio in Kraków": occupation and city).
        if not keys or all(SELF_KEYS[k] == "identity" for k in (*keys, key)):
            keys.append(key)
    order = sorted(starts)
    joiner = "" if has_cjk(sentence) else " "
    bounds = [*order, len(parts)]
    runs = [joiner.join(parts[at : bounds[n + 1]]).rstrip("，, ") for n, at in enumerate(order)]
    return [(key, run) for at, run in zip(order, runs, strict=True) for key in starts[at]]


REPLACEMENT = _rx(
    _en("instead", "make (?:that|it)", "change (?:that|it) to", "rather", "let's do", "switch to"),
    "还是|改成|换成|改用|改为",
)
WAS = _rx(_en("was", "were", "used to be", "originally", "had been"), "原来|本来|之前是|原定|原计划")
NOW = _rx(
    _en("now", "moved to", "pushed (?:back )?to", "changed to"), "现在|改成|改到|推迟到|提前到|延到|挪到"
)


def _drop_superseded(text: str) -> str:
    """ "the deadline was March, now it's April 30": only the new value is kept."""
    parts = clauses(text)
    for index, part in enumerate(parts):
        if index and NOW.search(part) and any(WAS.search(p) for p in parts[:index]):
            return ("" if has_cjk(text) else " ").join(parts[index:])
    return text


def _from_replacement(value: str) -> str:
    """A correction keeps only the new value: "算了表格看不清，还是用分点列表" → "还是用分点列表"."""
    parts = clauses(value)
    for index, part in enumerate(parts):
        if index and REPLACEMENT.search(part):
            rest = parts[index:]
            return "".join(rest) if has_cjk(value) else " ".join(rest)
    return value


def _from_cue(value: str, pattern: re.Pattern[str]) -> str:
    parts = clauses(value)
    at = next((i for i, part in enumerate(parts) if pattern.search(part)), 0)
    return ("" if has_cjk(value) else " ").join(parts[at:]).rstrip("，, ") if at else value


def _spells_out(pattern: re.Pattern[str], sentence: str) -> bool:
    """ "commit messages: lowercase, imperative" / "回复格式：先结论": the key, a colon, then its rule."""
    return any(re.match(r"\s*[:：]\s*\S", sentence[m.end() :]) for m in pattern.finditer(sentence))


def _drop_one_offs(sentence: str) -> str:
    """The sentence without its one-off clauses (a time, today, a reminder)."""
    return _drop_clauses(sentence, ONE_OFF)


def _drop_clauses(sentence: str, rx: re.Pattern[str]) -> str:
    keep = [c for c in clauses(sentence) if not rx.search(c) or STANDING.search(c)]
    return "".join(keep).rstrip("，,") if has_cjk(sentence) else " ".join(keep).rstrip(",")


@dataclass
class _Msg:
    index: int
    role: str
    text: str
    at: str | None
    dismissed: bool = False

    @property
    def user(self) -> bool:
        return self.role == "user"


@dataclass
class _Person:
    name: str
    stored: Stored | None
    variant: str | None = None
    relation: str | None = None
    facts: list[str] = field(default_factory=list)
    at: str | None = None
    order: int = 0


@dataclass
class _TopicNote:
    topic: Stored
    conclusions: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    status: str | None = None
    at: str | None = None


class OfflineObjectExtractor:
    """Deterministic, offline; about a millisecond for a 70-message chat."""

    name = "offline"

    def propose(self, messages: Sequence[ChatMessage], stored: Sequence[Stored]) -> Proposed:
        return Proposed(candidates=self.candidates(messages, stored), extractor=self.name)

    def candidates(self, messages: Sequence[ChatMessage], stored: Sequence[Stored]) -> list[Candidate]:
        msgs = self._messages(messages)
        people = _PeopleFinder(stored)
        candidates: list[Candidate] = []
        candidates += self._saved(msgs, people)
        candidates += self._self(msgs, people, _TopicFinder(stored))
        if any(c.obj.type == "self" for c in candidates):  # a stable fact about the user is not a saved note
            self_texts = [norm_name(c.obj.summary) for c in candidates if c.obj.type == "self"]
            candidates = [c for c in candidates if c.obj.type != "saved" or
                          not any(t and (t in norm_name(c.obj.summary) or norm_name(c.obj.summary) in t) for t in self_texts)]  # fmt: skip
        candidates += self._people(msgs, people)
        candidates += _without_self_rules(self._topics(msgs, stored), candidates)
        candidates += self._restated(msgs, stored, candidates)
        return candidates

    # -- messages --------------------------------------------------------------------------------

    def _messages(self, messages: Sequence[ChatMessage]) -> list[_Msg]:
        msgs = [
            _Msg(index=i, role=m.role, text=_FENCED.sub(" ", m.text).strip(), at=m.timestamp)
            for i, m in enumerate(messages)
            if m.role in ("user", "assistant")
        ]
        for pos, msg in enumerate(msgs):
            if msg.user and DISMISS.search(msg.text) and not REMEMBER.search(msg.text):
                msg.dismissed = DISMISS.search(msg.text) is not None
        # "要我把这个记下来吗？" — "先别": the statement before the offer is not to be kept.
        for pos in range(2, len(msgs)):
            answer, offer, said = msgs[pos], msgs[pos - 1], msgs[pos - 2]
            if (answer.user and not offer.user and said.user and QUESTION.search(offer.text)
                    and RECORD_OFFER.search(offer.text) and DECLINE.search(answer.text)):  # fmt: skip
                said.dismissed = True
        return msgs

    def _follow_ups(
        self, msgs: list[_Msg], pos: int, *, after_ack: re.Pattern[str] | None = None
    ) -> list[_Msg]:
        """The user's answers to the assistant's follow-up questions right after msgs[pos]; with
        ``after_ack``, also a message after a short acknowledgement that carries such a cue."""
        found: list[_Msg] = []
        cursor = pos + 1
        while cursor < len(msgs):
            msg = msgs[cursor]
            if msg.user:
                prev = msgs[cursor - 1]
                continues = not prev.user and bool(
                    QUESTION.search(prev.text.splitlines()[-1] if prev.text else "")
                )
                continues = continues or (prev.user and prev in (msgs[pos], *found) and len(found) < 3)
                acked = not prev.user and len(prev.text) <= 25 and after_ack is not None
                continues = continues or (
                    acked and after_ack is not None and bool(after_ack.search(msg.text))
                )
                if not continues or QUESTION.search(msg.text) or SWITCH.match(msg.text) or msg.dismissed:
                    break
                found.append(msg)
            cursor += 1
            if len(found) >= 4:
                break
        return found

    # -- saved -------------------------------------------------------------------------------------

    def _saved(self, msgs: list[_Msg], people: _PeopleFinder) -> list[Candidate]:
        out = []
        for pos, msg in enumerate(msgs):
            if not msg.user or msg.dismissed:
                continue
            match = REMEMBER.search(msg.text)
            if not match or RECALL_QUESTION.search(msg.text):
                continue
            cue_sentence = next((s for s in sentences(msg.text) if REMEMBER.search(s)), msg.text)
            kind_word = _kind_word(cue_sentence)
            source = pos
            cue = REMEMBER.search(cue_sentence)
            lead = _clean(cue_sentence[: cue.start()]) if cue else ""
            tail = cue_sentence[cue.end() :] if cue else ""
            if tail.strip().endswith((":", "：")) or not tail.strip(" ：:，,"):
                tail = msg.text[match.end() :]  # "remember this:" — the note follows
            content = re.sub(r"^(?:that|this)\s+", "", _clean(tail.lstrip(" ：:，,")), flags=_I)
            subject = _cue_noun(tail)
            if _refers_back(tail) and not re.match(r"\s*[:：]\s*\S", tail):  # "remember this: …" points ahead
                if len(norm_name(lead)) >= 8:  # "he's allergic to shellfish, remember that"
                    content = lead
                else:
                    before = [i for i in range(pos) if msgs[i].user and not msgs[i].dismissed]
                    if not before:
                        continue
                    source = before[-1]
                    content = _clean(msgs[source].text)
            if people.starts_with_person(content) or THIRD_PERSON_START.search(content):
                continue  # a fact about a person belongs to their relationship object (an arrangement
                # that only involves people — who collects the money — is still a note)
            if len(norm_name(content)) < 6:
                continue
            if all(ONE_OFF.search(c) for c in clauses(content)):
                continue  # "remember, the dentist is at 3pm tomorrow" is a reminder, not a note
            extra = [_clean(m.text) for m in self._follow_ups(msgs, pos)[:2] if not ACK.match(m.text)]
            window = " ".join([content, *(m.text for m in msgs[max(0, source - 1) : source] if not m.user)])
            obj = MemoryObject(type="saved", saved_kind="text_note", title=subject or _title(content, kind_word, window),
                               summary=content, detail="；".join(extra) if has_cjk(content) else " ".join(extra) or None)  # fmt: skip
            obj.detail = obj.detail or None
            out.append(
                Candidate(
                    obj=obj, priority=9, reason="explicit request to remember", remember=True, at=msg.at
                )
            )
        return out

    # -- self ---------------------------------------------------------------------------------------

    def _self(self, msgs: list[_Msg], people: _PeopleFinder, topics: _TopicFinder) -> list[Candidate]:
        values: dict[str, list[tuple[str, str | None]]] = {}
        said_in: dict[str, int] = {}
        for msg in msgs:
            if not msg.user or msg.dismissed:
                continue
            for sentence in sentences(msg.text):
                if (
                    REQUEST.search(sentence)
                    or THIRD_PERSON_START.search(sentence)
                    or DISMISS.search(sentence)
                ):
                    continue
                if (
                    people.names_in(sentence)
                    or people.new_person(sentence)
                    or THIRD_PARTY.search(sentence)
                    or _pronoun_fact_at(sentence) >= 0
                ):
                    continue  # someone else's preference is theirs, never the user's
                standing = bool(STANDING.search(sentence))
                correcting = bool(CORRECTION.search(sentence))

                def allowed(
                    key: str,
                    sentence: str = sentence,
                    standing: bool = standing,
                    correcting: bool = correcting,
                ) -> bool:
                    return (
                        standing
                        or not SELF_RULES[key][1]
                        or (correcting and bool(values.get(key)))
                        or _spells_out(SELF_RULES[key][0], sentence)
                    )

                about_topic = topics.find(sentence) is not None
                for key, part in _self_hits(sentence, allowed):
                    if (
                        key in ("units", "travel", "diet")
                        and not FIRST_PERSON.search(sentence)
                        and not values.get(key)
                        and not standing  # a standing rule needs no "I" either
                    ):
                        continue  # (a follow-up to the user's own statement in this chat needs no "I")
                    if about_topic and SELF_KEYS[key] != "identity" and key != "confirmation":
                        continue  # "标题不超过 20 字" about a project is the project's rule, not the user's style
                    # (what to ask before acting is always the user's rule for the assistant)
                    if key == "reminders":
                        if CLOCK_OR_DAY.search(part):
                            continue  # "remind me 10 minutes before the 3pm call" is a reminder, not a rule
                    elif (
                        ONE_OFF.search(sentence) and not STANDING.search(sentence) and key not in _TIMED_KEYS
                    ):
                        continue
                    value = _clean(_drop_clauses(part, CLOCK_OR_DAY if key == "reminders" else ONE_OFF))
                    if len(norm_name(value)) < 3:
                        continue
                    replacing = bool(values.get(key)) and said_in.get(key) != msg.index
                    if CORRECTION.search(sentence) or CORRECTION.search(msg.text[:12]):
                        values[key] = []
                        value = _from_replacement(value)
                    elif replacing and not ADDITIVE.match(sentence):
                        values[key] = []  # said again later: only the final value counts
                    if (
                        replacing
                    ):  # "15 分钟不够，统一提前半小时吧": what comes before the new rule rejects the old one
                        value = _from_cue(value, SELF_RULES[key][0])
                    values.setdefault(key, [])
                    said_in[key] = msg.index
                    if value not in [v for v, _ in values[key]]:
                        values[key].append((value, msg.at))
        out = []
        for key, items in values.items():
            if not items:
                continue
            joined = (
                "；".join(v for v, _ in items) if has_cjk(items[0][0]) else "; ".join(v for v, _ in items)
            )
            priority = 6 if SELF_KEYS[key] == "identity" else 5
            out.append(Candidate(obj=MemoryObject(type="self", category=SELF_KEYS[key], key=key, summary=joined),
                                 priority=priority, reason=f"the user's {key.replace('_', ' ')}", at=items[-1][1]))  # fmt: skip
        return out

    # -- relationship ------------------------------------------------------------------------------

    def _people(self, msgs: list[_Msg], people: _PeopleFinder) -> list[Candidate]:
        found: dict[str, _Person] = {}
        last: _Person | None = None
        for msg in msgs:
            if not msg.user:
                named = people.names_in(msg.text)
                if named:
                    last = found.get(named[-1][0]) or _Person(
                        name=named[-1][0], stored=named[-1][1], variant=named[-1][2]
                    )
                    found.setdefault(last.name, last)
                continue
            if msg.dismissed:
                continue
            unassigned: list[str] = []  # this message's sentences about no one yet
            for sentence in sentences(msg.text):
                if DISMISS.search(sentence):
                    continue
                named = people.names_in(sentence)
                new = people.new_person(sentence)
                person: _Person | None = None
                if named:
                    name, stored, variant = named[0]
                    person = found.setdefault(
                        name, _Person(name=name, stored=stored, variant=variant, order=len(found))
                    )
                elif new is not None:
                    name, relation = new
                    person = found.setdefault(
                        name, _Person(name=name, stored=None, relation=relation, order=len(found))
                    )
                    person.relation = person.relation or relation
                    intro = _clean(sentence)
                    passing = ONE_OFF.search(sentence) or JOKE.search(sentence) or ASK.search(sentence)
                    if not passing and intro not in person.facts:
                        person.facts.append(intro)
                        person.at = msg.at
                elif last is not None and (
                    THIRD_PERSON_START.search(sentence)
                    or re.search(r"^\s*对，?\s*(他|她)", sentence)
                    or _pronoun_fact_at(sentence) >= 0
                ):
                    person = last
                if person is None:
                    if not (QUESTION.search(sentence) or ONE_OFF.search(sentence) or JOKE.search(sentence)):
                        unassigned.append(sentence)
                    continue
                last = person
                fact = self._person_fact(sentence, person)
                if fact and not named and new is None and unassigned:
                    # "Willowbrook, the assisted living place. she moves in on January 12": the answer's
                    # sentences before the pronoun are about the same person.
                    fact = " ".join([*(_clean(u) for u in unassigned), fact])
                unassigned = []
                if fact:
                    person.facts.append(fact)
                    person.at = msg.at
                if named:  # "老赵调去重庆了，以后对接找他手下的小吴": a new person in a later clause
                    self._later_new_person(sentence, person, people, found, msg)
        out = []
        for person in found.values():
            if not person.facts:
                continue
            if person.stored is None and not person.relation:
                continue
            summary = person.stored.obj.summary if person.stored else person.facts[0]
            obj = MemoryObject(type="relationship", name=person.stored.obj.name if person.stored else person.name,
                               relation=person.stored.obj.relation if person.stored else person.relation,
                               summary=summary, facts=list(dict.fromkeys(person.facts)))  # fmt: skip
            priority = 7 if person.stored else 5.5  # a person outlasts a style preference
            out.append(Candidate(obj=obj, priority=priority - person.order * 0.01, reason="a durable fact about a person",
                                 at=person.at, variant=person.variant))  # fmt: skip
        return out

    def _later_new_person(
        self, sentence: str, first: _Person, people: _PeopleFinder, found: dict[str, _Person], msg: _Msg
    ) -> None:
        parts = clauses(sentence)
        for n, part in enumerate(parts[1:], start=1):
            if people.names_in(part):
                continue
            new = people.new_person(part)
            if new is None or new[0] == first.name or ONE_OFF.search(part) or JOKE.search(part):
                continue
            name, relation = new
            person = found.setdefault(
                name, _Person(name=name, stored=None, relation=relation, order=len(found))
            )
            person.relation = person.relation or relation
            fact = _clean(part)
            if fact not in person.facts:
                person.facts.append(fact)
                person.at = msg.at
            return

    def _person_fact(self, sentence: str, person: _Person) -> str | None:
        if (
            REQUEST.search(sentence)
            or QUESTION.search(sentence)
            or JOKE.search(sentence)
            or ASK_WORD.search(sentence)
        ):
            return None  # questions, requests and jokes are not facts about a person
        # Clauses that are one-off, or a request to the assistant ("帮我留意下票"), are not about the person.
        kept = [c for c in clauses(sentence) if not (ONE_OFF.search(c) and not STANDING.search(c))
                and not REQUEST_CLAUSE.search(c) and not ASK.search(c)]  # fmt: skip
        start = next((i for i, c in enumerate(kept) if PERSON_DURABLE.search(c)), None)
        if start is None:
            return None
        joiner = "" if has_cjk(sentence) else " "
        text = joiner.join(kept).rstrip("，,")
        if re.search(r"^\s*(?:他|她)?说", text) and not PERSON_DURABLE.search(text.split("说", 1)[-1]):
            return None
        # Passing clauses before the first durable one ("she's ok, just bruised, but …") stay out; so does
        # a lead-in before "她不吃辣" inside that clause.
        head = kept[start]
        at = _pronoun_fact_at(head)
        if at > 0 and not any(n and n in head[:at] for n in (person.name, person.variant)):
            head = head[at:]
        text = _clean(joiner.join([head, *kept[start + 1 :]]).rstrip("，,"))
        return text if len(norm_name(text)) >= 4 else None

    # -- topics --------------------------------------------------------------------------------------

    def _topics(self, msgs: list[_Msg], stored: Sequence[Stored]) -> list[Candidate]:
        finder = _TopicFinder(stored)
        topics = finder.topics
        notes: dict[str, _TopicNote] = {}
        used: set[int] = set()
        for pos, msg in enumerate(msgs):
            if not msg.user or msg.dismissed:
                continue
            for sentence in sentences(msg.text):
                topic = finder.find(sentence)
                if topic is None:
                    continue
                status = next((s for s, rx in STATUS.items() if rx.search(sentence)), None)
                if not (TOPIC_DECISION.search(sentence) or status or OPEN_QUESTION.search(sentence)):
                    continue
                note = notes.setdefault(topic.id, _TopicNote(topic))
                # The message's own sentences about this topic (or about nothing else, unless another
                # topic's follow-up already took the message), then the answers to the assistant's questions.
                whole = [
                    s
                    for s in sentences(msg.text)
                    if finder.find(s) == topic or (finder.find(s) is None and msg.index not in used)
                ]
                follow_ups = self._follow_ups(msgs, pos, after_ack=TOPIC_FOLLOW_CUE)
                follow = [s for m in follow_ups if m.index not in used for s in sentences(m.text)
                          if finder.find(s) in (None, topic)]  # fmt: skip
                used.update(m.index for m in follow_ups)
                status = status or _confirmed_status(msgs, follow_ups)
                for part in [*whole, *follow]:
                    status = status or next((s for s, rx in STATUS.items() if rx.search(part)), None)
                    # A side remark in the same message loses its one-off clauses (today, this week …);
                    # the topic's own sentence and the answers to the assistant lose only times and reminders.
                    side = part in whole and part != sentence
                    # "the deadline was March, now it's April 30": the superseded value stays out
                    text = _clean(_drop_superseded(_drop_clauses(part, ONE_OFF if side else HARD_ONE_OFF)))
                    if len(norm_name(text)) < 4 or DISMISS.search(part) or ACK.match(text):
                        continue
                    bucket = note.questions if OPEN_QUESTION.search(part) else note.conclusions
                    if text not in bucket:
                        bucket.append(text)
                note.status = status or note.status
                note.at = msg.at
                break
        self._thread_changes(msgs, finder, notes)
        out = []
        for note in notes.values():
            stored_topic = note.topic.obj
            obj = MemoryObject(
                type="topic",
                name=stored_topic.name,
                summary=stored_topic.summary,
                status=note.status or ("active" if stored_topic.status in ("paused", "archived") else None),
                recent_conclusions=note.conclusions,
                open_questions=note.questions,
            )
            out.append(
                Candidate(obj=obj, priority=8, reason="the conversation moved this topic on", at=note.at)
            )
        out += self._new_topics(msgs, topics)
        return out

    def _thread_changes(self, msgs: list[_Msg], finder: _TopicFinder, notes: dict[str, _TopicNote]) -> None:
        """ "NAS 挂了" … "开了 QSV": after the user brings up a stored topic, a lasting change they made to a
        named thing (a setting, a tool, a flag) in the same thread is the topic's conclusion."""
        topic: Stored | None = None
        for msg in msgs:
            if not msg.user:
                continue
            mentioned = next((t for t in map(finder.find, sentences(msg.text)) if t is not None), None)
            if mentioned is not None:
                topic = mentioned
                continue
            if topic is None or msg.dismissed or SWITCH.match(msg.text) or QUESTION.search(msg.text):
                topic = None if msg.dismissed or SWITCH.match(msg.text) else topic
                continue
            for sentence in sentences(msg.text):
                kept = [c for c in clauses(sentence) if not ONE_OFF.search(c)]
                # a setting or a tool with a name, never a payment
                if not any(CHANGE_MADE.search(c) and salient_tokens(c) and not MONEY.search(c) for c in kept):
                    continue
                text = _clean(("" if has_cjk(sentence) else " ").join(kept))
                note = notes.setdefault(topic.id, _TopicNote(topic))
                if text and text not in note.conclusions:
                    note.conclusions.append(text)
                    note.at = msg.at

    def _new_topics(self, msgs: list[_Msg], topics: list[Stored]) -> list[Candidate]:
        out = []
        for pos, msg in enumerate(msgs):
            if not msg.user or msg.dismissed or not NEW_TOPIC.search(msg.text):
                continue
            name = _project_name(msg.text)
            if not name or any(norm_name(name) == norm_name(t.obj.name or "") for t in topics):
                continue
            parts = [s for s in sentences(msg.text)]
            follow = self._follow_ups(msgs, pos)
            texts = [_clean(_drop_clauses(s, HARD_ONE_OFF)) for s in parts]
            texts += [_clean(_drop_clauses(s, HARD_ONE_OFF)) for m in follow for s in sentences(m.text)]
            texts = [t for t in texts if len(norm_name(t)) >= 3 and not ACK.match(t)]
            questions = [t for t in texts if OPEN_QUESTION.search(t)]
            facts = [t for t in texts if t not in questions]
            joiner = "；" if has_cjk(msg.text) else "; "
            summary = joiner.join(facts) or name
            obj = MemoryObject(
                type="topic", name=name, status="active", summary=summary, open_questions=questions
            )
            out.append(Candidate(obj=obj, priority=6.5, reason=NEW_TOPIC_REASON, at=msg.at))
        return out

    # -- skips: restated, already stored ------------------------------------------------------------

    def _restated(
        self, msgs: list[_Msg], stored: Sequence[Stored], candidates: list[Candidate]
    ) -> list[Candidate]:
        user_text = normalize(" ".join(m.text for m in msgs if m.user))
        user_pairs = han_ngrams(user_text)
        taken = {(c.obj.type, norm_name(c.obj.label)) for c in candidates}
        out = []
        for item in stored:
            if item.obj.type not in ("self", "saved") or (item.obj.type, norm_name(item.obj.label)) in taken:
                continue
            tokens = [
                t for t in salient_tokens(f"{item.obj.summary} {item.obj.detail or ''}") if not t.isdigit()
            ]
            if tokens:
                restated = any(_word_in(normalize(t), user_text) for t in tokens)
            else:  # Chinese without identifiers: most of the stored value's character pairs said again
                pairs = han_ngrams(norm_name(item.obj.summary).replace("用户", " "))
                hits = len(pairs & user_pairs)
                restated = hits >= 3 and hits * 2 >= len(pairs)
            if restated:
                out.append(
                    Candidate(obj=MemoryObject(**item.obj.__dict__), reason="restated, already stored")
                )
        return out


def _without_self_rules(topics: list[Candidate], found: list[Candidate]) -> list[Candidate]:
    """A rule the user set for the assistant ("先让我确认再重启") is their self object, not also a topic's
    conclusion; a topic left with nothing new and no status change is dropped."""
    rules = [norm_name(c.obj.summary) for c in found if c.obj.type == "self"]
    out = []
    for cand in topics:
        obj = cand.obj
        obj.recent_conclusions = [
            c for c in obj.recent_conclusions if not any(r and r in norm_name(c) for r in rules)
        ]
        if cand.reason == NEW_TOPIC_REASON or obj.recent_conclusions or obj.open_questions or obj.status:
            out.append(cand)
    return out


NEW_TOPIC_REASON = "a new project the user named"


class _PeopleFinder:
    """Names of stored people (and other forms of them) in a piece of text; new people with a role."""

    def __init__(self, stored: Sequence[Stored]) -> None:
        self.people = [s for s in stored if s.obj.type == "relationship"]
        self._last_hits: list[tuple[int, str, Stored | None, str | None]] = []
        roles: dict[str, list[str]] = {}
        for person in self.people:
            if person.obj.relation:
                roles.setdefault(normalize(person.obj.relation), []).append(person.id)
        self.by_role = {
            ids[0] for ids in roles.values() if len(ids) == 1
        }  # a role only one stored person has
        self.topic_words = {
            norm_name(w) for s in stored if s.obj.type == "topic" for w in (s.obj.name or "").split()
        }

    def names_in(self, text: str) -> list[tuple[str, Stored | None, str | None]]:
        """(stored name, stored object, the variant used or None), in order of appearance."""
        hits: list[tuple[int, str, Stored | None, str | None]] = []
        folded = text.casefold()
        for person in self.people:
            kin = _kin_at(text, person.obj.name or "")
            if kin < 0 and person.id in self.by_role:
                kin = _role_at(text, person.obj.relation or "")
            if kin >= 0:  # 我妈 / 老妈 for 妈妈, "my mum" for Mom, "my husband" for the one stored as husband
                hits.append((kin, person.obj.name or "", person, None))
                continue
            for name in [person.obj.name or "", *person.obj.aliases]:
                at = folded.find(name.casefold()) if name else -1
                if at >= 0 and _is_word_at(text, at, len(name)):
                    hits.append((at, person.obj.name or "", person, None))
                    break
            else:
                variant = self._variant(text, person.obj.name or "")
                if variant:
                    hits.append((text.find(variant), person.obj.name or "", person, variant))
        hits.sort(key=lambda h: h[0])
        self._last_hits = hits
        return [(name, stored, variant) for _, name, stored, variant in hits]

    def starts_with_person(self, text: str) -> bool:
        """The text is about a person: it opens with a stored person's name (or another form of it)."""
        self.names_in(text)
        lead = len(text) - len(text.lstrip())
        return any(at - lead <= 1 for at, *_ in self._last_hits)

    def _variant(self, text: str, name: str) -> str | None:
        if has_cjk(name):
            for size in range(max(2, len(name) - 2), len(name) + 3):
                for start in range(len(text) - size + 1):
                    piece = text[start : start + size]
                    if name[0] in piece[:2] and has_cjk(piece) and piece != name and near_name(piece, name):
                        return piece
            return None
        first = normalize(name).split()[0] if normalize(name).split() else ""
        for match in re.finditer(r"(?<![A-Za-z])[A-Z][a-z]{2,}(?![A-Za-z])", text):
            word = match.group(0)
            if near_name(word, name):
                return word
            if _pet_form(word.casefold(), first):
                return word
            clipped = word.casefold()  # "Xander" for Alexander: a short form from the end of the name
            if (
                len(clipped) >= 4
                and first != clipped
                and first.endswith(clipped)
                and len(first) - len(clipped) <= 4
            ):
                return word
        return None

    def new_person(self, sentence: str) -> tuple[str, str] | None:
        match = NEW_PERSON_EN.search(sentence)
        if match and match.group(2).casefold() not in NAME_STOP:
            return match.group(2), ROLE_WORDS.get(match.group(1).casefold(), match.group(1).casefold())
        match = NEW_PERSON_EN_APPOSITIVE.search(sentence)
        if match and match.group(1).casefold() not in NAME_STOP:
            return match.group(1), ROLE_WORDS.get(match.group(2).casefold(), match.group(2).casefold())
        match = NEW_PERSON_ZH_DUTY.search(sentence)
        if match and DUTY_ZH.search(sentence) and not any(near_name(match.group(1), p.obj.name or "") or
                                                          match.group(1) == p.obj.name for p in self.people):  # fmt: skip
            return match.group(1), "contact"  # "以后对接找小吴": a person named by a short form, with a duty
        match = NEW_PERSON_ZH_SURNAME.search(sentence)
        if match:
            return match.group(2), ROLE_WORDS.get(match.group(1), "contact")
        kin = KIN_ZH_START.search(sentence)
        if kin and KIN_DURABLE.search(sentence[kin.end() :]):
            return KIN_ZH[kin.group(1)], "family"
        match = NEW_PERSON_ZH.search(sentence)
        if match:
            role, name = (
                (match.group(1), match.group(2)) if match.group(2) else (match.group(3), match.group(4))
            )
            return name, ROLE_WORDS.get(role, role)
        for match in re.finditer(r"(?<![A-Za-z'])([A-Z][a-z]{2,})\s+(\w+)", sentence):
            name, verb = match.group(1), match.group(2)
            if name.casefold() in NAME_STOP or norm_name(name) in self.topic_words:
                continue
            if not PERSON_VERB.fullmatch(verb) and not sentence[match.start(2) :].startswith(
                ("is ", "takes ", "is moving")
            ):
                continue
            rest = sentence[match.end(1) :]
            if not PERSON_DURABLE.search(rest):
                continue
            roles = [ROLE_WORDS[w] for w in re.findall(r"[A-Za-z]+", rest.casefold()) if w in ROLE_WORDS]
            duty = re.search(
                _en("takes over", "took over", "rota", "on-call", "owns", "in charge", "contact"), rest, _I
            )
            if roles or duty:
                return name, roles[0] if roles else "colleague"
        return None


class _TopicFinder:
    """Which stored topic a sentence is about, if any."""

    def __init__(self, stored: Sequence[Stored]) -> None:
        self.topics = [s for s in stored if s.obj.type == "topic"]
        self.tokens = {s.id: _topic_tokens(s.obj.name or "") for s in self.topics}
        self.shared: dict[str, int] = {}
        for toks in self.tokens.values():
            for tok in set(toks):
                self.shared[tok] = self.shared.get(tok, 0) + 1

    def find(self, sentence: str) -> Stored | None:
        return _mentioned_topic(sentence, self.topics, self.tokens, self.shared) if self.topics else None


YES = _rx(
    r"^\s*(?:yes|yep|yeah|sure|ok(?:ay)?|please do|do it|go ahead|correct|right|可以|好的?|对|行|嗯|是的|没错)",
    flags=_I,
)


def _confirmed_status(msgs: list[_Msg], follow_ups: list[_Msg]) -> str | None:
    """ "Shall I mark it archived?" — "yes": the status the user agreed to."""
    for msg in follow_ups:
        at = next((i for i, m in enumerate(msgs) if m is msg), 0)
        asked = msgs[at - 1] if at else None
        if asked is not None and not asked.user and YES.match(msg.text):
            status = next((s for s, rx in STATUS.items() if rx.search(asked.text)), None)
            if status:
                return status
    return None


def _pet_form(word: str, first: str) -> bool:
    """ "jenny" for "jennifer", "katie" for "katherine", "danny" for "daniel": a stem plus -y/-ie."""
    stem = re.sub(r"(?:ie|y)$", "", word)
    if stem == word or len(stem) < 3 or first == word:
        return False
    if len(stem) >= 4 and stem[-1] == stem[-2] and not first.startswith(stem):
        stem = stem[:-1]
    return first.startswith(stem) and len(first) > len(stem)


def _kin_at(text: str, name: str) -> int:
    """Where ``text`` names the kin ``name`` is (妈妈 ← 我妈 / 老妈; Mom ← my mum), or -1."""
    canon = KIN_ZH.get(name) or KIN_EN.get(normalize(name))
    if not canon:
        return -1
    if has_cjk(name):
        spots = [text.find(form) for form, c in KIN_ZH.items() if c == canon and form in text]
        return min(spots, default=-1)
    match = re.search(r"(?<![A-Za-z])(?:my|our) (" + "|".join(k for k, c in KIN_EN.items() if c == canon) + r")(?![A-Za-z])",
                      text, _I)  # fmt: skip
    return match.start() if match else -1


_FAMILY_ZH = frozenset({"女朋友", "男朋友", "对象", "爱人", "孩子", "宝宝", "孙子", "孙女", "外孙", "外孙女"})


def _role_at(text: str, relation: str) -> int:
    """Where ``text`` refers to someone by the relation stored for them ("my husband", "我老公"), or -1."""
    if not relation:
        return -1
    if has_cjk(relation):  # a family word alone is enough in Chinese ("带儿子去吃饭"); other roles need 我
        bare = relation in KIN_ZH or relation in _FAMILY_ZH
        match = re.search(("" if bare else "我的?") + re.escape(relation), text)
    else:
        match = re.search(r"(?<![A-Za-z])(?:my|our) " + re.escape(relation) + r"(?![A-Za-z])", text, _I)
    return match.start() if match else -1


def _pronoun_fact_at(text: str) -> int:
    """Where a clause of ``text`` says something durable about "him"/"her" (他/她 right before the cue), or -1."""
    for match in PRONOUN_SUBJECT.finditer(text):
        cue = PERSON_DURABLE.search(text, match.end(), match.end() + 16)
        if (
            cue
            and cue.start() - match.end() <= 6
            and not re.search(r"[，,。.;；]", text[match.end() : cue.start()])
        ):
            return match.start()
    return -1


def _is_word_at(text: str, at: int, size: int) -> bool:
    before = text[at - 1] if at > 0 else " "
    after = text[at + size] if at + size < len(text) else " "
    return not (before.isascii() and before.isalpha()) and not (after.isascii() and after.isalpha())


def _topic_tokens(name: str) -> list[str]:
    return [t for t in re.findall(r"[A-Za-z0-9]+|[" + HAN + r"]+", name.casefold())]


def _mentioned_topic(
    sentence: str, topics: list[Stored], tokens: dict[str, list[str]], shared: dict[str, int]
) -> Stored | None:
    folded = normalize(sentence)
    compact = folded.replace(" ", "")
    best: tuple[float, Stored] | None = None
    for topic in topics:
        name = norm_name(topic.obj.name or "")
        if name and name in compact:
            score = 10.0
        else:
            toks = tokens[topic.id]
            words = set(re.findall(r"[a-z0-9]+", folded))
            present = [t for t in toks if (t in words if t.isascii() else _cjk_in(t, compact))]
            distinctive = [t for t in present if shared.get(t, 0) == 1 and t not in TOPIC_GENERIC
                           and (len(t) >= 4 or _acronym_in(t, topic.obj.name or "", sentence) if t.isascii() else True)]  # fmt: skip
            score = 0.0
            if distinctive:
                score = 2.0 + len(distinctive)
            elif len(present) >= 2 and len(present) * 2 >= len(toks):
                score = 1.0 + len(present)
        if score and (best is None or score > best[0]):
            best = (score, topic)
    return best[1] if best else None


def _word_in(token: str, text: str) -> bool:
    """``token`` in ``text``, not as part of a longer Latin word ("arch" is not in "archive")."""
    before = "(?<![a-z])" if token[:1].isalpha() else ""
    after = "(?![a-z])" if token[-1:].isalpha() else ""
    return re.search(before + re.escape(token) + after, text) is not None


def _acronym_in(token: str, name: str, sentence: str) -> bool:
    """A short name part written in capitals in both the topic's name and the sentence (NAS, not "nas")."""
    upper = token.upper()
    if len(token) < 2 or not re.search(rf"(?<![A-Za-z]){upper}(?![A-Za-z])", name):
        return False
    return re.search(rf"(?<![A-Za-z]){upper}(?![A-Za-z])", sentence) is not None


def _cjk_in(token: str, compact: str) -> bool:
    """A Chinese name part, or most of it (记账 for 家庭记账, 订单服务 for 订单服务拆分)."""
    if len(token) <= 3:
        return token in compact
    size = max(2, len(token) - 2)
    return any(token[i : i + size] in compact for i in range(len(token) - size + 1))


_NAME_AFTER = re.compile(
    r"(?:called|named|叫做?|名字是|名叫|名为|project[:：]|项目[:：])\s*[「“\"']?"
    r"([A-Za-z0-9][\w.\-]*(?: [A-Z][\w\-]*)*|[" + HAN + r"]{2,8})"
)
_QUOTED = re.compile(r"[「“\"']([^」”\"']{2,40})[」”\"']")
_TITLE_CASE = re.compile(
    r"\bthe ([A-Z][\w\-]*(?: (?:[A-Z][\w\-]*|\d+[A-Za-z]?)){0,3}(?: [a-z]{3,}(?=\s*[:：,，.;—]))?)"
)  # a head noun that closes the phrase is part of the name


_IDENTIFIER_NAME = re.compile(
    r"(?<![\w/.-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+|[A-Z][a-z]+[A-Z][A-Za-z]+)(?![\w/.-])"
)


def _project_name(text: str) -> str | None:
    for rx in (_NAME_AFTER, _QUOTED, _TITLE_CASE, _IDENTIFIER_NAME):
        match = rx.search(text)
        if match:
            name = match.group(1).strip(" ,.，。")
            if name and name.casefold() not in NAME_STOP:
                return name
    return None


_KIND_WORDS = (("rule", "Rule"), ("formula", "Formula"), ("code", "Code"), ("address", "Address"),
               ("规则", "规则"), ("公式", "公式"), ("地址", "地址"), ("密码", "密码"))  # fmt: skip
_TERM = re.compile(r"(?<![A-Za-z])[A-Za-z]+-[A-Za-z0-9]+(?![A-Za-z])")


_TAIL_CUT = re.compile(r"[，,。.!！;；]|(?<![A-Za-z])(?:for|so|because|when|please)(?![A-Za-z])", _I)
_TAIL_FILLER = _rx(_en("this", "that", "it", "these", "those", "rule", "formula", "one", "thing", "number", "me",
                       "for me"), "这个|这条|这些|那个|上面的?|刚才的?|一下|规则|公式|数字?|吧|啊")  # fmt: skip


def _refers_back(tail: str) -> bool:
    """ "remember this rule for me", "记下这个数，明年对比": the note is what was said before."""
    head = _TAIL_CUT.split(tail.lstrip(" ：:，,"), maxsplit=1)[0]
    return len(norm_name(_TAIL_FILLER.sub("", head))) < 4


_CUE_NOUN = re.compile(
    r"^\s*(?:这个|这条|这些|这套|那个|this|that|these)\s*([^，,。.!！:：;；\s](?:[^，,。.!！:：;；]{0,14}?[^，,。.!！:：;；\s])?)"
    r"(?=\s*(?:[，,。.!！:：;；]|$|for\b|so\b|because\b|please\b))",
    _I,
)


_PURPOSE = _rx(r"^\s*(?:for|when|if)\s", r"^\s*(?:对于|关于|如果).|的话\s*$")


def _cue_noun(tail: str) -> str | None:
    """ "记住这个手冲参数" → 手冲参数: what the user calls the note is its title (not a bare "rule")."""
    match = _CUE_NOUN.match(tail)
    if not match:
        return None
    noun = match.group(1).strip()
    if len(norm_name(_TAIL_FILLER.sub("", noun))) < 2 or FIRST_PERSON.search(noun):
        return None
    return noun


def _kind_word(sentence: str) -> str | None:
    folded = sentence.casefold()
    return next((label for word, label in _KIND_WORDS if word in folded), None)


def _short(text: str, limit: int) -> str:
    """At most ``limit`` characters, cut at a word boundary in Latin text."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if not has_cjk(cut) and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ，,")


def _title(content: str, kind: str | None, window: str) -> str:
    """A short title naming the note's subject, in the note's own words."""
    content = re.sub(
        r"^(?:so )?(?:the )?(?:rule|formula|thing|trick)s? (?:is|are)\s*[:：]?\s*", "", content, flags=_I
    )
    head = re.split(r"\s*(?:=|：|:|是|\bis\b)\s*", content, maxsplit=1)[0]
    head = re.sub(r"^(?:以后|今后|往后|这个|这条|so|the|this|ohh?)\s*", "", head, flags=_I).strip(" ，,。.")
    generic = (
        not head
        or len(norm_name(head)) < 2
        or re.fullmatch(r"(?:so )?(?:the )?(?:rule|formula|thing)( is)?", head, _I)
    )
    terms: dict[str, int] = {}
    for match in _TERM.finditer(window):
        terms[match.group(0)] = terms.get(match.group(0), 0) + 1
    term = max(terms, key=lambda t: (terms[t], -window.find(t)), default=None) if terms else None
    if generic or len(head) > (24 if has_cjk(head) else 48):
        parts = clauses(content) if content else [""]
        telling = next((p for p in parts if re.search(r"\d", p)), None)  # 份子钱每人 1000, 64-bit pHash …
        telling = telling or next((p for p in parts if salient_tokens(p)), parts[0])
        head = _short(telling.rstrip(" ，,"), 40)
        if telling is not parts[0] and _PURPOSE.match(parts[0]) and len(parts[0]) <= 30:
            head = f"{_clean(parts[0])}: {head}"  # "for near-duplicate photos: 64-bit pHash …"
    if kind and term and term.casefold() not in content.casefold() and not any(c.isdigit() for c in term):
        return f"{kind} ({term}): {head}"[:80]
    return head[:80]
