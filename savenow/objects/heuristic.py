"""The offline object extractor: deterministic rules over a finished conversation.

It reads only what the user wrote (the assistant's "Noted" saves nothing) and keeps
statements that outlive the day:

* ``self`` — a sentence in the first person that matches a key of the fixed vocabulary
  (one cue table per key, en + zh) and, for preferences and styles, says it is a standing
  rule ("from now on", "以后", "whenever", "never … without", an imperative about replies,
  or the key spelled out after a colon: "commit messages: lowercase"). A later statement
  replaces the earlier ones, and a correction keeps only the clauses from the new value's
  cue on ("15 分钟不够，统一提前半小时吧"): only the final value counts. A later message that
  names no key still changes the value just given: a correction ("make that 9pm") or the answer
  to the assistant's value question ("how many days before?" — "3 days"). One clause can state
  several identity facts ("I run a studio in Kraków": occupation and city).
* ``relationship`` — a stored person named, named another way (王姨 for 王阿姨, Dan or Xander
  for a full name), by a kinship form (我妈 / 老妈 / "my mum" for 妈妈 / Mom), or by the
  relation stored for them ("my husband", 带儿子), or referred to by a pronoun right before
  a durable cue ("她不吃辣", "she moves in on …"), with a durable cue (a role change, a
  schedule, an allergy or illness, "never"); the fact starts at its durable clause (passing
  clauses before it stay out). A new person only with a role: "my supplier is …", "X, she's
  my business partner", "we hired a designer, X", "我有个合伙人叫…", or a short name form
  (小吴) with a duty (对接, 负责). Another person's preference goes here, never to self.
* ``topic`` — a stored topic's thread, from the user's message about it (or their "yes" to the
  assistant's "is this about <topic>?") until a switch of subject, a new project or a person:
  after a decision or status cue (paused, archived, "calling it", back on) the user's answers to
  the assistant's follow-ups; otherwise only sentences that decide, change a named setting
  ("开了 QSV") or, answering "how many / which …?", carry a value. Questions, jokes, payments and
  today/tomorrow/clock clauses stay out; a superseded value ("was March, now April", or a
  correction right after it) stays out. A new topic only when the user names a new project
  (or calls it the big thing they are on).
* ``saved`` — an explicit "remember this" / "记住" / an imperative "remember …"; titled by
  what the user calls it ("记住这个手冲参数") or by its telling clause; a stable fact about
  the user goes to its self object instead, a fact whose subject is a person to that person.

One-off details (times, today/tomorrow, reminders, errands, payments), passing remarks and
things the user calls unimportant or asks not to record stay out. 宁缺毋滥.

Who says what decides where it goes: a sentence in the first person about a vocabulary key is the
user's; a third-person one, or one naming a person (or a name their stored summary says they go by),
is that person's, and their lasting preference or condition stays a fact even beside a day or a
clock; a rule about how the assistant treats the user is never a topic's conclusion; the user's answer
to the assistant's question about a topic is the topic's, about a person just spoken of the person's,
about the user the user's; a group deciding ("we decided", 我们决定) speaks for a project, not for the
user's style; a sentence answering a stored open question is that topic's, named or not. Under the cap of five, a stored person and a
topic come first, then identity facts, a new person with a duty for the user, rules the user laid
down, and last a person mentioned in passing or a bare habit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..models import ChatMessage
from ..text.cjk import HAN, han_ngrams
from ..text.normalize import has_cjk, normalize
from ..text.patterns import en_words as _en
from ..text.stopwords import EN_KEYWORD_STOPWORDS
from .extract import Candidate, Proposed
from .folding import folded_view
from .model import SELF_KEYS, MemoryObject, near_name, norm_name
from .store import Stored
from .wording import CHANGED, RESTATE, SAME_AGAIN, SAME_IN_REPLY, UNCHANGED, contains_stored, salient_tokens
from .wording import pattern as _rx

_I = re.IGNORECASE

# -- lexicons: kinds of language, never the facts of one chat --------------------------------

STANDING = _rx(
    _en("from now on", "going forward", "in (?:the )?future", "for the future", "always", "never", "every time",
        "whenever", "by default", "stop", "keep it", "keep your", "keep (?:the )?(?:answers|replies|messages)",
        "at most", "max", "no more than", "skip the", "avoid", "no more", "no need to", "i prefer", "i'd rather",
        "please use",
        "please don't", "please keep", "make sure", "i'd prefer", "i like", "i want", "i hate", "i learn",
        "i don't", "don't", "do not", "rule"),
    r"(?:下周|下个月|下月|明年|月底|年后)[^，。]{0,3}(?:开始|起)", _en("starting (?:next|from|in)", "from next (?:week|month|year)"),
    # a rule that starts on a date and holds after it ("from the 15th … nothing before 3pm")
    _en(r"from (?:the )?\d{1,2}(?:st|nd|rd|th)", "from then on"), r"从 ?\d{1,2} ?[号日](?:开始|起)",
    # an imperative about how the assistant answers ("please reply in English", "be more casual", "no emoji")
    r"^\s*(?:(?:please|pls|and|so|also|oh)\s+)*(?:no|reply|answer|respond|write|talk|speak|be|use|keep|give|put)\s",
    # an order to follow each time ("先贴代码 再解释", "命令都放代码块里")
    r"(?:^|\s)先[^，。\s]{1,8}\s*(?:再|然后)|都(?:放|写|发|加)(?![了好完])[^，。]{0,6}(?:里|在|成|到)", r"(?<![A-Za-z])first,? (?:and )?then(?![A-Za-z])",
    "以后|今后|往后|一直|永远|总是|每次|默认|都用|都按|别|(?<!要)不要|记着|记住|我喜欢|我习惯|我讨厌|改成|还是|就行|不吃|不能|"
    "尽量|统一|一律|麻烦|请用|都给我|给我用|最多|不超过|以内|少用|不用",
)  # fmt: skip
ADDITIVE = _rx(r"^\s*(?:also|and|plus|oh and|another thing|还有|另外|而且|再加上|顺便)", flags=_I)
CORRECTION = _rx(
    _en("actually", "instead", "scratch that", "scrap that", "change (?:that|it) to", "on second thought", "rather", "no wait",
        "let's do", "go back to", "switch back",
        "make (?:that|it)",
        "let's go back", "go back to"),
    "改成|算了|还是|不对|换成|重新说|更正|太死了|改一下|纠正|换回|改回|想了(?:下|想|一下)",
)  # fmt: skip
ONE_OFF = _rx(
    _en("today", "tonight", "tomorrow", "yesterday", "this (?:morning|afternoon|evening|weekend|week)",
        r"next (?:week|monday|tuesday|wednesday|thursday|friday|saturday|sunday)",
        r"\d{1,2}(?::\d\d)?\s?(?:am|pm)", "remind me", "right now", "later today", "this year"),
    r"\d{1,2}:\d\d|今天|今晚|明天|后天|昨天|昨晚|前天|这周|本周|周末|下周|提醒我|刚才|刚刚|一会儿|\d+ ?点|早上|中午|晚上想",
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
# "#57 说表格对不齐", "order #2291 shipped": a ticket, issue or order number names one incident, not a conclusion.
HARD_ONE_OFF = _rx(
    _en(r"\d{1,2}(?::\d\d)?\s?(?:am|pm)", "remind me", "eta"),
    r"\d{1,2}:\d\d|提醒我|\d+ ?点",
    r"(?<![\w&])#\d{2,}",
    # how many are left today ("还有 12 包", "剩 3 箱", "only 4 left", "6 in stock"): a count that changes daily
    r"(?:还有|还剩|剩下?|库存)\s?\d+\s?[包个件瓶箱盒袋张台份]|(?<![\w.])\d+ (?:\w+ )?(?:left|remaining|in stock)(?![A-Za-z])",
)
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

# What someone eats or must avoid, for good: a diet, an intolerance, a condition ("coeliac", "吃素").
_DIET_EN = ("vegan", "vegetarian", "pescatarian", "coeliac", "celiac", "gluten[- ]free", "can't (?:do|have) gluten",
            "lactose", "intolerant", "halal", "kosher", "teetotal")  # fmt: skip
_DIET_ZH = "吃素|素食|乳糖不耐|麸质|忌口|清真"
PERSON_DURABLE = _rx(
    _en("moving to", "moved to", "joins", "joined", "is joining", "takes over", "took over", "is now", "is our",
        "is my", "stays", "remains", "contact for", "escalation", "owns", "in charge of", "responsible for",
        "works (?:at|for|as)", "lives in", "allergic", "allergy", "prefers", "hates", "loves", "never", "always",
        "doesn't (?:eat|like|drink)", "can't eat", "can't have", "cannot have", "can't drink", "from (?:january|february|march|april|may|june|july|august|"
        "september|october|november|december|next month)", "every (?:week|day|month|monday|tuesday|wednesday|"
        "thursday|friday|saturday|sunday)", "birthday", "ahead", "in advance", "lead time", "retired", "promoted",
        "engaged", "married", "divorced", "pregnant", "started (?:at|a|her|his|their|school|work)", "new job",
        "got (?:a|the|her|his|their) (?:new )?job", "graduated", "is studying", "is learning", "goes to", "now at", "now in", "switched", "changed jobs",
        "likes", "doesn't like", "does not like", "can't stand", "favou?rite", "works", "lives", "usually",
        "is vegetarian", "is vegan", "hates", "reports to", "handles", "will handle", "from now on", "going forward",
        "no longer", "anymore", "any more", "moves (?:in|to)", "moving (?:in|to)", "diagnosed", "diabet(?:es|ic)",
        "blood pressure", "leads", "will lead", "is leading", "manages", "starting (?:next|from|in)",
        "from next (?:week|month|year)", "won't fly", "doesn't fly", "can't fly", "only takes",
        "only (?:uses|answers|reads|replies)", "don't bother with", "reach (?:him|her|them) (?:on|by|via)",
        "raised (?:the |his |her |their )?(?:price|rate|fee)s?", "now charges", *_DIET_EN,
        # a changed way to reach them ("he's got a new number", "her email is now …")
        "new (?:number|phone(?: number)?|mobile|email|address)", "(?:number|email|address) is now",
        "changed (?:his|her|their) (?:number|email|address)"),
    # what the person insists on or needs ("阿哲一定要靠窗", "she wants to record on Tuesdays"), a job offer
    _en("wants to", "needs to", "insists on", "has to have"), "一定要|非要|必须|最晚|最早|offer|续约|续租|"
    "调去|调到|搬到|升职|现在是|负责|过敏|不吃|不喝|不喜欢|讨厌|喜欢|永远|从来|一直|以后|每周|每天|每月|改成|入职|"
    "离职|换工作|生日|大寿|寿辰|住在|提前|退休|结婚|订婚|怀孕|接手|接替|开始|换了|考上|毕业|在读|上学|上班|工作|报了|爱吃|爱喝|"
    "不爱|最爱|受不了|怕|不能|只吃|只喝|习惯|平时|总是|经常|每次|不再|现在在|现在做|当了|成了|转岗|搬去|回国|出国|"
    "去[^，。]{0,6}(?:读|工作|上班|上学)|读 ?(?:MBA|研|博|书|大学)|预产期|生了|"
    "(?:调|去|到)[^，。]{0,8}(?:office|办公室|分公司|总部|分部|分店)|新号码|新手机号|换号|换了号|新电话|新地址|新邮箱|涨到|降到|涨价|降价|要求|只用|确诊|查出|诊断|糖尿病|高血压|心脏病|不坐|只坐|坐不了|晕车|晕机|结婚|搬回|搬进|住进|"
    + _DIET_ZH,
)  # fmt: skip
# What a person is like for good (a preference, a condition, a channel): such a clause stays a fact even
# when it carries a day or a clock ("确诊她是牛奶蛋白过敏" said 前天, "hates slack pings after 6pm").
PERSON_LASTING = _rx(
    _en("allergic", "allergy", "diagnosed", "prefers", "hates", "loves", "likes", "can't stand", "never", "always",
        "only (?:uses|answers|reads|replies|takes|eats|drinks)", "doesn't (?:eat|like|drink|use)", *_DIET_EN),
    "过敏|确诊|诊断|查出|不吃|不喝|不喜欢|讨厌|喜欢|受不了|只用|只吃|只喝|从来|永远|" + _DIET_ZH,
)  # fmt: skip
# "Dana is vegan", "Omar's allergic to nuts", "Lena can't eat gluten": a named person's own diet or condition
# (not "Dishoom is vegan-friendly": a place's menu).
_PERSON_TRAIT = re.compile(
    r"(?:is|'s)\s+(?:(?:strictly|now|also|still|severely|very)\s+)?(?:vegan|vegetarian|pescatarian|coeliac|celiac|"
    r"diabetic|lactose[- ]intolerant|allergic)(?![-\w])"
    r"|(?:can't|cannot|doesn't|does not) (?:eat|have|do|drink) (?:any )?(?:gluten|dairy|nuts|meat|pork|fish|alcohol)",
    _I,
)
# For a while only ("这段时间不能吃辣", "no sugar for now"): not what a person is like. Narrower than
# TEMPORARY: "started school this week" says when a lasting thing began.
FOR_A_WHILE = _rx(
    _en("for now", "for the time being", "temporarily", "for a (?:week|few days|couple of weeks|while)",
        "just to see", r"for (?:\d+|two|three|four|five|ten) (?:more )?(?:days|weeks)"),
    "暂时|这段时间|这阵子|这几天|先试试|(?:连续|持续|先)[^，。]{0,3}[0-9一二两三四五六七八九十]+ ?(?:天|周|个星期)",
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
_ROLES_ZH_PEOPLE = (
    "同事|朋友|老板|合伙人|客户|供应商|室友|同学|老师|实习生|助理|设计师|会计|律师|阿姨|保姆|教练|导师|领导|主管|"
    "房东|租客|房客|邻居|医生|师傅|经纪人|编辑"
)
NEW_PERSON_ZH = re.compile(
    r"我的?(同事|朋友|老板|老婆|老公|女儿|儿子|妈妈|爸爸|合伙人|客户|供应商|室友|同学|老师)"
    r"(?:叫|是|，)?\s*([A-Z][a-z]+)(?![A-Za-z])"
    rf"|(?:我|我们)(?:的|有个|有一个|[^，。]{{0,6}}新来了?(?:一)?个)?({_ROLES_ZH_PEOPLE})(?:叫|名叫|是)([{HAN}]{{2,3}}|[A-Z][a-z]+)"
)
# "客户叫 Frau Hoffmann，她要求…": a role word naming someone at the start of a clause, without 我的
NEW_PERSON_ZH_CALLED = re.compile(
    rf"(?:^|[，,。\s])(?:这个|那个|新的?|新来的)?({_ROLES_ZH_PEOPLE})(?:叫|名叫|名字叫)\s*"
    rf"((?:Herr|Frau|Mr\.?|Mrs\.?|Ms\.?|Dr\.?)\s?[A-Z][a-z]+|[A-Z][a-z]{{2,}}|[{HAN}]{{2,3}}(?=[，,。\s]|$))"
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
# What someone does for the user: a new person with a duty is someone they deal with, not a passing mention.
PERSON_DUTY = _rx(
    _en("handles", "in charge of", "responsible for", "owns", "manages", "takes care of", "looks after", "supplies",
        "comes from", "does (?:our|my|the) (?:books|accounts|bookings|invoicing|payroll)"),
    "负责|对接|打理|经手|管着|供货|跟进",
)  # fmt: skip
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
    "co-?founder|nanny|babysitter|coach|trainer|agent|contractor|bookkeeper|editor|producer|recruiter|therapist|"
    "supervisor|advisor|adviser|professor"
)
NEW_PERSON_EN_APPOSITIVE = re.compile(
    r"(?<![A-Za-z'])([A-Z][a-z]{2,})(?:,| is| \()\s*(?:(?:she|he|they)(?:'s| is| are) |who(?:'s| is) )?"
    rf"(?:my|our) (?:new |[a-z]+ )?({_PERSON_ROLES_EN}|lead|report)"
)
NEW_PERSON_EN = re.compile(
    # "my supervisor is Dr. Halvorsen"; chat drops the "my" at a message's start ("partner is Priya, …")
    r"(?:(?:^|[\s,(])(?:[Mm]y|[Oo]ur|(?:hired|got|have|has|brought in|onboarded) (?:a|an))\s+(?:[a-z]+\s+){0,2}|^\s*)"
    rf"({_PERSON_ROLES_EN})\s*(?:is\s+|,\s*|called\s+|named\s+)?((?:(?:Dr|Prof|Mr|Mrs|Ms)\.?\s)?[A-Z][a-z]+)"
)
# A person named with where they work ("from Priya at Northmill", "with Dana from Brightline"): someone
# the user deals with, when a durable cue about them follows.
NEW_PERSON_AFFILIATED = re.compile(
    r"(?<![A-Za-z])(?:from|with|to|by) ([A-Z][a-z]{2,}) (?:at|from) (?:[A-Z][\w&'-]+)(?![a-z])"
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
    _en("decided", "going with", "go with", "went with", "we'll use", "will use", "switch(?:ed|ing)? to", "settled on",
        "chose", "picked", "back on", "the (?:real )?fix", "going forward", "from now on", "the plan is",
        "root cause", "turns out", "because", r"(?:planning|plan) to (?:ship|release|launch|publish|cut|tag)", "we're using", "is on hold", "going to use", "gonna use", "we'll go",
        "launched", "shipped", "released", "finished", "deadline", "next step", "blocked on", "waiting (?:for|on)",
        "moved to", "switching", "chose", "picked", "agreed", "confirmed", "done", "works now", "fixed by",
        "the answer is", "we need", "must", "budget", "target", "raising", "lowering", "changing",
        "from (?:january|february|march|april|may|june|july|august|september|october|november|december|next)",
        "starting (?:next|in|from)", "aiming for", "goal is", "pushed (?:back|to)", "postponed", "delayed to",
        "brought forward", "final (?:call|decision|answer)", "stays on", "we'll keep", "keeping"),
    "决定|定了|定为|就用|改用|改成|选了|确定|以后|专心|原因|是因为|是按|结论|方案|归档|最终|复盘|关了|停了|定下来|上线|发布|完成|"
    "搞定|下一步|卡在|推迟|延期|延到|提前到|改到|等[^，。]{0,6}(?:回复|审批|结果)|用了|换成|选|预算|目标|截止|deadline|先做|后做|不做|只做|必须|就定|就按|"
    # "那礼盒就 110": settling on a value; "打算 12 月发 v0.4.0": a plan with a date or a version
    r"^\s*那[^，。]{0,8}就 ?\d|(?:打算|计划)[^，。]{0,10}\d",
)  # fmt: skip
STATUS = {
    "archived": _rx(_en("shut (?:it )?down", "closed (?:it|down|for good)", "archive", "archived", "abandon(?:ed)?",
                        "give up", "gave up", "killed it", "for good", "dropping it", "wrapped up", "done with it", "is dead",
                        "retired it", "sunset", "closing (?:the|it|down|my)", "shutting (?:it|down|the)",
                        "close (?:it|the [\\w ]{1,20}) down", "not doing .{0,20} anymore", "calling it(?: quits)?(?: on)?",
                        "no point (?:in )?(?:continuing|going on|carrying on)", "not worth continuing",
                        "stop(?:ping)? working on", "done with (?:it|this|that|the)",
                        "close (?:that|this|the) project", "(?:that|this|the) project(?:'s| is) (?:done|over|finished)"),
                    "关了|关掉|归档|不做了|放弃|彻底停|永久关闭|不搞了|黄了|结束了|完结|没必要(?:继续|再做)|到此为止|不再做了"),
    "paused": _rx(_en("pause", "paused", "pausing", "on hold", "shelve", "shelved", "shelving", "put (?:it|that|this) aside",
                      "on ice", "on the back burner", "take a break from", "parking"),
                  "先停|停了|暂停|搁置|放一放|先放着|等[^，。]{0,8}再(?:弄|做|说|看|搞)|先不搞|缓一缓|停一停"),
    "active": _rx(_en("back on", "resum(?:e|ed|ing)", "restart(?:ed|ing)? (?:it|the)", "pick(?:ing)? (?:it|this|that) (?:back )?up",
                      "picking up .{0,30} again", "active again", "on again", "revive", "revived", "back to work on",
                      "getting back to", "starting .{0,20} again", "started .{0,30} again",
                      "is (?:officially )?back(?! to)", "it's back"),
                  "重新开始|重新启动|重新(?:搞|做|弄|开|播)起来|恢复|又开始|继续做|继续搞|重启|捡起来|又要做|重新捡|重新开工|又要开始|又要搞|又开工"),
}  # fmt: skip
MONEY = _rx(
    _en("paid", "pay", "deposit", "invoice", "refund"),
    r"[$€£¥]|付了|付款|支付|付钱|(?<!交)付定金|定金|订金|\d\s*元|块钱|退款|发票",
)
# a hyphenated, dotted or slashed name: pay-prod, bill-vm-03, backup_2026-11-08.sql, /ops/runbook (a word
# after the joiner: a version "v3.8.2" is a release said during an incident, "e.g." is no name)
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*?[-_./][A-Za-z]{2,}")


def _pays(text: str) -> bool:
    """A payment or an invoice, not a word inside an identifier (namespace "pay-prod" is no payment)."""
    return bool(MONEY.search(_IDENTIFIER.sub(" ", text)))


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
        "my (?:main|current|big) project", "next (?:big )?(?:thing|project) is",
        "(?:big|main|current) (?:project|thing) (?:right now |now |at the moment )?is"),
    r"开(?:个|一个)(?:新的?)?[^，。\s会聊谈]{0,3}(?:计划|项目|专栏|系列)|最大的事|手上最[^，。]{0,4}的(?:事|活)|主要在忙|在忙一个|开了个新|新开了?个|新项目|在做一个|搞了个|新建了?一个|启动了?一个|在搞一个|打算做一个|准备做一个|新坑|开坑|立项",
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
# A job named by its kind of word ("a marine biologist", "a paediatrician"), not an attitude
# ("an optimist", "a perfectionist") nor a plain word ending so ("a list", "a twist").
_JOB_BY_ENDING = (
    r"(?!(?:optim|pessim|perfection|real|minimal|ideal|fatal|natural|alarm|extrem)ists?(?![a-z]))"
    r"[a-z]{3,}(?:ologist|ician|ographer|ist)"
)
# "she's a nurse in Cork", "他是牙医": what a person does for a living is a fact about them.
_PERSON_JOB = re.compile(
    rf"(?:(?<![A-Za-z])is|'s) an? (?:[a-z-]+ )?(?:{_ROLES_EN}|{_JOB_BY_ENDING})s?(?![a-z])"
    rf"|[他她]是(?:一名|一个|个)?[^，。\s]{{0,6}}(?:{_ROLES_ZH})",
    _I,
)
_TIMED_KEYS = ("city", "timezone", "work_hours", "quiet_hours", "birthday")  # times are their values
CLOCK_OR_DAY = _rx(
    _en(r"\d{1,2}(?::\d\d)?\s?(?:am|pm)", "today", "tonight", "tomorrow"),
    r"\d{1,2}:\d\d|\d+ ?点|今天|明天|今晚",
)
# Where the user lives, said with a verb of living or a district ("我住在…", "I live in…", "在成都 高新区").
_CITY_SAID = _rx(
    r"(?<![A-Za-z])(?:studio|shop|store|practice|clinic|bakery|caf[eé]|restaurant|salon|workshop) "
    r"(?:is )?(?:in|based in) (?-i:[A-Z])",
    "(?:店|工作室|公司|诊所)(?:开)?在[" + HAN + "]{2,3}(?:市|[，,。 ]|$)",
    "我在[" + HAN + "]{2,3}(?:市)?(?:开|经营)了?[^，。]{0,8}(?:店|公司|工作室|诊所)",
    _en(
        "i live in",
        "i'm based in",
        "i am based in",
        "i've moved to",
        "we moved to",
        "i moved to",
        "i (?:just|recently) moved to",
        "just moved to",
        "living in",
        "i'm in [A-Z][a-z]+ now",
        "our home in",
    ),
    # "我在宁波，天气默认按宁波来": a place the user says they are in and names again in the message
    "我在([" + HAN + r"]{2,3})[，,\s][^。]*(?:按|以|用)\1(?:来|为准|的)?",
    # chat drops the "I" at a message's start ("live in Galway", "based in Porto these days")
    r"^\s*(?:now\s+)?(?:live|based) in (?-i:[A-Z])",
    # "在成都 高新区", "我现在在杭州，滨江区": the user placing themselves in a city and its district
    "^\\s*(?:我)?(?:现在|目前)?(?:人|住)?在\\s?["
    + HAN
    + "]{2,4}(?:市)?[\\s，,]*["
    + HAN
    + "]{0,4}(?:区|县)(?=[\\s，,。]|$)",
    r"我住在|我住(?![的了过])\s?(?:[A-Z]|["
    + HAN
    + r"]{1,6}(?:区|市|县|镇|村|路|街|小区|附近))|(?:^|[，,\s])住(?:在)?\s*(?:[A-Z][a-z]|["
    + HAN
    + "]{2}市)|我家在|我[^，。的]{0,6}(?:搬到|搬过来|搬家到)|(?:^|[，,\\s])(?:刚|已经|最近|正式|终于|总算|上个?月|去年)?(?:搬到|搬过来|搬家到)|定居|我现在住|人在["
    + HAN
    + "]{2,4}(?:工作|生活)|常住",
)
# "在西安", "…，在成都，…": a clause that is only a place; a city only in an introduction the assistant
# echoes (checked in _self: "在开会" is no place).
_BARE_PLACE = re.compile(
    r"(?:^|[，,])\s*(?:我)?(?:住)?在\s?(?P<place>[" + HAN + "]{2,3})(?:市)?\\s*(?=[，,。]|$)"
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
    "city": (_rx(_CITY_SAID.pattern, _BARE_PLACE.pattern), False),
    "timezone": (_rx(r"(?<![A-Za-z])(?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific)/[A-Z][A-Za-z_]+",
                     # the user placing themselves on a clock ("I'm in Warsaw, so CET"; "I mean Warsaw time")
                     r"(?:I'm|I am|we're|we are) in [A-Z][a-z]+,? (?:so )?(?:PST|PDT|EST|EDT|CET|CEST|BST|JST|KST|AEST|SGT|HKT)",
                     r"(?:I mean|my times? (?:are|is)|all my times|times are) [^.]{0,12}[A-Z][a-z]+ time(?![A-Za-z])", r"(?:UTC|GMT)\s?[+-]\s?\d{1,2}", _en("time ?zone"),
                     r"(?:I'm|I am|we're) on (?:[A-Z][a-z]+ )?(?:time|PST|PDT|EST|EDT|CET|CEST|BST|JST)",
                     r"(?:use|in|on) (?:PST|PDT|EST|EDT|CST|CET|CEST|BST|JST|KST|IST|AEST|AEDT|SGT|HKT)(?![A-Za-z])",
                     "时区|东八区|北京时间|[按用][^，。]{0,6}时间",
                     # "按 Pacific time", "用 Berlin time": a zone's name in a Chinese sentence
                     r"[按用]\s?[A-Z][A-Za-z]+ time(?![A-Za-z])", flags=0), False),
    "occupation": (_rx(_en("i run (?:a|an|my) (?:[\\w&'-]+ ){0,3}(?:business|shop|company|store|studio|bakery|cafe|café|"
                           "restaurant|agency|startup|clinic|practice|brand|label|farm|firm)",
                           "i work (?:as|at|for|in)", f"i'm an? (?:[a-z-]+ ){{0,2}}(?:{_ROLES_EN})s?",
                           f"i am an? (?:[a-z-]+ ){{0,2}}(?:{_ROLES_EN})s?", "my job", "i study", "i'm studying",
                           # a job named by its kind of word ("a marine biologist", "a paediatrician")
                           rf"(?:i'm|i am) an? (?:[a-z-]+ ){{0,2}}{_JOB_BY_ENDING}(?![a-z])",
                           "i teach", "i'm doing (?:a|my) (?:phd|masters?|degree)", "i'm retired", "i retired", "retired (?:from|as|last)",
                           r"(?:doing|studying|in) (?:a |my )?(?:bachelor|master|phd|msc|bsc|ma|ba)'?s?", "(?:my )?new job", "got a job",
                           "(?:i|i've|i have) (?:just )?joined", "i own (?:a|an|my)",
                           "(?:i'm|i am) (?:starting|joining) (?:at|a new)"),
                       r"(?<![A-Za-z])i (?:run|own) (?-i:[A-Z])",
                       "入职|新工作|跳槽到|换工作|拿到了?[^，。]{0,8}offer", "我[^，。]{0,12}退休(?!金|工资|年龄|手续|证)",
                       "教了[^，。]{0,6}年",
                       # "在 RWTH Aachen 读 Maschinenbau 的 master": a programme at a school
                       "在[^，。]{1,20}读[^，。]{0,20}(?:master|bachelor|phd|硕士|本科|博士|研究生|研|大学)|读[^，。]{0,16}(?:master|bachelor|phd|硕士|本科|博士)",
                       f"(?:^|[，,])\\s*(?:做|当)[^，。]{{0,8}}(?:{_ROLES_ZH})",
                       f"我是[^，。]{{0,12}}(?:{_ROLES_ZH})", f"我(?:在[^，。]{{1,8}})?(?:做|当)[^，。]{{0,8}}(?:{_ROLES_ZH})", "我在[^，。]{1,12}(?:工作|上班|实习|读书|读研|读博)",
                       "我是做[^，。]{1,10}的",
                       # "在南京，做前端开发": a field of work, said without the "我" an introduction drops
                       "(?:^|[，,])\\s*(?:我)?(?:做|搞)[^，。\\s]{1,6}(?:开发|研发|设计)(?=[，,。\\s]|$)", "^\\s*(?:我)?做[^，。\\s]{1,8}的(?=[\\s，,。]|$)",
                       "(?:^|[\\s，,])(?:我)?在一家[^，。]{0,16}(?:公司|工作室|医院|学校|银行|事务所|店)", "我(?:在|读)[^，。]{0,8}(?:大学|研究生|博士|大[一二三四]|研[一二三])",
                       "我(?:在[^，。]{1,6})?(?:开|经营)了?[^，。]{0,10}(?:店|公司|工作室|诊所)",
                       # "…，开了家口腔诊所": the clause after the user's name or city drops the "我"
                       "(?:^|[，,])\\s*(?:开|经营)了(?:一?家|个)[^，。]{0,10}(?:店|公司|工作室|诊所)", "我的工作是", "我做[^，。]{1,8}(?:工作|行业)"), False),
    "birthday": (_rx(_en("my birthday", "i was born", "born on"), "我的?生日"), False),
    "code_style": (_rx(_en("commit messages?", "commits", "conventional commits", "code style", "naming conventions?",
                           "type hints", "docstrings", "indentation", "snake_case", "camelcase", "tabs", "semicolons",
                           "linter", "formatter"), "提交信息|代码风格|命名规范|缩进|注释|commit"), True),
    "language_preference": (_rx(r"(?:reply|replies|answer|respond|write|talk|speak|text)\w*[^.]{0,30}(?:English|Chinese|"
                                r"Mandarin|Cantonese|Spanish|French|German|Japanese|Korean)",
                                "(?:用|回复|回答|说|跟我说|和我聊)[^，。]{0,6}(?:中文|英文|英语|日语|粤语|普通话|繁体|简体)",
                                "(?:中文|英文|英语)回复", "中英|双语|别翻译|不要翻译|不用翻译",
                                _en("technical terms", "in english", "in chinese", "don't translate", "do not translate"),
                                r"(?:use|keep|prefer|switch to|stick (?:to|with)|back to) (?:English|Chinese|Mandarin|"
                                r"Cantonese|Spanish|French|German|Japanese|Korean)",
                                r"(?:English|Chinese|Mandarin|Cantonese|Spanish|French|German|Japanese|Korean) is "
                                r"(?:better|fine|easier)",
                                r"(?:English|Chinese|Mandarin|Cantonese|Spanish|French|German|Japanese|Korean) "
                                r"(?:replies|answers|messages)"), True),
    "diet": (_rx(_en("vegetarian", "vegan", "pescatarian", "halal", "kosher", "allergic", "gluten", "lactose",
                     "don't eat", "do not eat", "can't eat", "i avoid", "i can't have", "don't drink", "no alcohol",
                     "no (?:pork|beef|meat|dairy|nuts|seafood|spicy)"),
                 "不吃|吃素|忌口|过敏|不能吃|素食|不喝酒|戒糖|乳糖不耐|不碰|[不能少微特怕]辣|吃辣"), False),
    "units": (_rx(_en("EUR", "USD", "GBP", "CNY", "RMB", "JPY", "CAD", "AUD", "HKD", "SGD", "CHF", "VAT", "metric",
                      "imperial", "celsius", "fahrenheit", "date format", "24-hour", "miles", "kilometres",
                      "kilometers", "km", "pounds", "kg", "kilos", "currency", "dd/mm", "yyyy-mm-dd", "mm/dd",
                      "ISO(?: ?8601)?(?! ?\\d)(?: dates?| format)?"),
                  "含税|不含税|公制|英制|摄氏|华氏|人民币|美元|欧元|港币|日元|日期格式|24 ?小时制|币种|公里|公斤|计价|金额"), True),
    "travel": (_rx(_en("aisles?(?: seats?)?", "window seats?", "red-eye", "direct flights?", "layovers?", "business class",
                       "economy class", "airlines?", "flights?", "trains?", "hotels?", "seats?", "hostels?", "airbnbs?"),
                   "靠窗|靠过道|直飞|转机|经济舱|商务舱|高铁|卧铺|航空公司|酒店|红眼航班|民宿|座位"), True),
    "quiet_hours": (_rx(_en("don't (?:message|text|ping|disturb|call)", "never (?:message|text|ping|call) me",
                            "no (?:messages|pings|notifications) (?:after|before|on)", "quiet hours", "do not disturb",
                            "leave me alone (?:after|on|during)", "don't (?:bother|disturb) me"),
                        r"(?<![A-Za-z])(?:anything|nothing|no (?:messages?|pings?)) (?:after|before) \d",
                        "别[^，。]{0,14}(?:发[^，。]{0,6}消息|打扰|找我|提醒我)|免打扰|不要在[^，。]{0,12}(?:发|打扰|找)|"
                        "(?:[0-9一二三四五六七八九十]+ ?点|\\d{1,2}:\\d\\d) ?(?:以后|之后|后|前|以前)[^，。]{0,6}(?:别|不要)"), True),
    "reminders": (_rx(r"remind(?:ers?)? (?:me )?[^.]{0,30}(?:before|ahead|in advance|early|the day before)",
                      _en("reminders? should"), r"(?:\d+|an?|one|two|half an?) (?:minutes?|mins?|hours?|days?) "
                      r"(?:before|ahead|in advance|early)", "提前[^，。]{0,8}提醒|提醒[^，。]{0,8}提前|提醒我的时候",
                      "提前 ?[0-9一二两三四五六七八九十半]+ ?(?:个)?(?:分钟|小时|钟头|天)",
                      "(?:以后|每次|每个?月|每周|每年)[^，。]{0,12}(?:之|以)?前[^，。]{0,2}提醒"), False),
    "reply_length": (_rx(r"(?:reply|replies|answer|answers|response|responses|message|messages)[^.]{0,40}(?:short|long|"
                         r"concise|brief|sentences?|words|characters|paragraphs?|lines?)",
                         _en("conclusion first", "tl;?dr", "bottom line first", "too long", "keep it short",
                             "keep it brief", "shorter", "get to the point", "one-liners?"),
                         "(?:回复|回答|答复|消息)[^，。]{0,8}(?:太长|太短|长|短|简洁|简短|啰嗦)", "句话(?:以内|之内|就好|就行|就够)", "最多[^，。]{0,4}句",
                         r"(?:\d+|one|two|three|four|five) (?:sentences|lines) (?:max|at most|tops)", r"\d+ ?字",
                         "字数", "先[^，。]{0,6}结论|结论先|别太长|短一点|简短点|说重点",
                         "[0-9一二两三四五六七八九十]+ ?行(?:以内|之内)"), True),
    "emoji_use": (_rx(_en("emojis?", "emoticons?", "smileys?"), "表情|颜文字"), True),
    "tone": (_rx(_en("formal", "casual", "jargon", "sarcasm", "humou?r", "blunt", "polite", "plain english",
                     "sugarcoat", "straight", "direct with me", "friendly", "professional"),
                 "正式|口语化|客气|客套|委婉|幽默|语气|官腔|啰嗦|废话|直接[点些]|直接一点|说人话|别绕"), True),
    "formatting": (_rx(_en("tables?", "bullet (?:points?|lists?)", "bullets", "code blocks?", "fenced", "markdown", "headings",
                           "numbered lists?", "bold", "code first", "paste the code",
                           "commands? (?:on (?:its|their) own line|in (?:a )?code)"),
                       "表格|列表|代码块|分点|加粗|markdown|编号|先贴代码|代码(?:放|贴)(?:在|到)|命令(?:单独|放)"), True),
    "work_hours": (_rx(r"I (?:usually |normally |mostly )?work (?:from|between|until|till|\d)",
                       _en("working hours", "office hours", "night shifts?", "early shifts?", "i work nights",
                           "i work weekends", "i'm (?:usually )?online", "i start work", "my hours"),
                       r"(?<![A-Za-z])(?:i (?:start|finish|stop|clock off) (?:work )?at|i'm (?:done|off) (?:by|at)) \d",
                       "上班时间|工作时间|我[^，。]{0,6}(?:点|晚上|白天|早上)[^，。]{0,8}(?:上班|工作|写代码|写|开工|下班|干活)|"
                       "我一般[^，。]{0,8}(?:上班|工作|下班)", "在家办公|居家办公|远程办公|坐班|去公司|到公司上班",
                       _en("work from home", "working from home", "wfh", "in the office on", "remote on",
                           "(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?) (?:to|through|-) "
                           "(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)")), False),
    "tools": (_rx(r"(?<![A-Za-z])I (?:switched|moved|changed) (?:over )?to", r"(?<![A-Za-z])I(?:'m| am) (?:now )?using",
                  r"(?<![A-Za-z])I (?:mainly |mostly |only )?use", _en("my editor", "my ide", "switched from", "i'm on (?:a )?mac(?:os|book)?",
                  "i'm on linux", "i'm on ubuntu", "i'm on windows", "my laptop is", "i code in", "i write (?:mostly )?in"),
                  r"我[^，。A-Za-z]{0,4}?(?:换|改用|换成|换到|用的是|一直用|主要用|平时用)(?:了|成|到)?\s*[A-Za-z]", "^\\s*(?:平时|平常|日常|一般|主要)(?:都|就)?用\\s*[A-Za-z]", "主力机|我的电脑是", "从\\s*[A-Za-z][^，。]{0,20}(?:换|切|改|迁)(?:到|成|用)\\s*[A-Za-z]", "编辑器(?:是|用|换成)|技术栈(?:是|用)|(?:系统|电脑)(?:是|用)?\\s*(?:Windows|macOS|Linux|Ubuntu|Mac)",
                  _en("my (?:stack|setup) is", "(?:editor|ide) is"), "我[^，。]{0,4}用的是[^，。A-Za-z]{0,8}[A-Za-z]"), False),
    "confirmation": (_rx(_en("without (?:asking|checking with|telling) me", "ask me (?:first|before)",
                             "check with me", "my (?:explicit )?(?:ok|okay|approval|permission|go-ahead)",
                             "confirm with me", "before you (?:send|delete|run|deploy|book|buy|pay)"),
                         "先问我|问过我|经过我|我同意|征得|先跟我确认|别擅自|不要擅自|我确认之前|先确认",
                         "先[^，。]{0,4}(?:让|等|跟|和|找)我[^，。]{0,2}(?:确认|同意|点头|批准)|(?:让|等|经)我(?:确认|同意)(?:后|之后|再|了再)"), False),
    "study_method": (_rx(_en("i learn (?:much )?(?:better|best|more)", "learn better", "study best", "quiz me",
                             r"(?:remember|memori[sz]e|retain) (?:\w+ ){0,6}best", "sticks best", "works best for me",
                             "flashcards?", "when i'm learning", "when i study", "i learn by",
                             "(?:examples|exercises|practice|problems) first", "(?:show|give) me an? (?:example|photo|picture|demo)[^.]{0,20} first",
                             "explain (?:things|stuff) to me"),
                         "我学[^，。]{0,6}(?:更快|更好)|(?:背|记|学)[^，。]{0,16}(?:记得最牢|最牢|最有效|效果最好)|学习方法|先[^，。]{0,8}(?:例子|示例|例题|做题|练习)|(?:给我|跟我|教我)(?:讲|教|解释)?[^，。]{0,4}的时候|学东西的时候|我学习|再看讲解"), False),
}  # fmt: skip
# A Chinese sentence the user opens on a habit word has dropped its subject, the speaker: "平时用 VS Code",
# "一般早上写代码" (someone else would be named first: "他平时用…", "Kestrel 一般…").
HABIT_OPENING = re.compile(r"^\s*(?:平时|平常|日常|一般|通常)(?:都|就|也)?")
FIRST_PERSON = _rx(
    _en("i", "i'm", "i've", "i'd", "me", "my", "we", "our", "us", "you", "your"), "我|你|给我|帮我"
)
THIRD_PERSON_START = re.compile(r"^\s*(?:他|她|他们|[Hh]e\b|[Ss]he\b|[Tt]hey\b)")
# "有个家长每次都问能不能调座位", "someone on the team always asks for a window seat": someone, not the user
# ("one of my rules: …" is the user's own: only a noun for people makes "one of the …" someone else)
SOMEONE_START = _rx(
    r"^\s*(?:someone|somebody|one of (?:the|my|our) (?:[a-z]+ )?(?:kids|children|friends|colleagues|coworkers|"
    r"clients|customers|students|parents|guests|neighbou?rs|team(?:mates)?|staff|interns|reports|users|members|"
    r"players|roommates|flatmates|cousins|sisters|brothers|sons|daughters)|"
    r"a (?:parent|client|customer|guest|colleague|student))\b",
    "^\\s*(?:有个|有位|有一个|有一位|有人|某个|某位)",
)
# "Jesse 不吃猪肉，他家是穆斯林", "Bartek hates early calls, never book him": a clause that opens on a name, in a
# sentence that goes on to speak of him or her, is that person's, even when the name is one the rules do not know
NAMED_SUBJECT = re.compile(
    r"^\s*(?!(?:English|Chinese|Mandarin|Emoji|Markdown|Metric|This|That|It|Everything|Nothing|Each|Every)\b)"
    r"[A-Z][a-z]+(?:\s*(?=[" + HAN + r"])|\s+(?:hates|loves|likes|prefers|wants|needs|doesn't|does not|can't|"
    r"cannot|won't|isn't|is|never|always|only|eats|drinks|gets|works|lives|has|hasn't)\b)"
)
OTHER_PRONOUN = _rx(
    _en("he", "she", "him", "her", "his", "hers", "they", "them", "their"), "(?<!其)他|她"
)  # 其他 is "other"
# "a one-off client", "估计就这一次": a person the user expects to deal with once, said where they come in
# (one-time / 一次性 / never again only of the order or the person: "one-time gloves" is no such thing)
_ONCE_WHAT = r"(?:client|customer|buyer|order|job|deal|booking|gig|project|contract|sale|purchase)s?"
ONE_TIME = _rx(
    _en(f"one-off(?: {_ONCE_WHAT})?", f"one-time {_ONCE_WHAT}", "just this once", "only this once",
        r"never (?:see|hear from|work with|deal with|book|hire|use) (?:him|her|them) again"),
    "就这一次|只此一次|就这一回|只合作一次|一锤子买卖|一次性(?:的)?(?:订单|生意|买卖|合作|客户|单子)",
)  # fmt: skip
REQUEST_CLAUSE = _rx(
    r"(?:^|\s)(?:帮我|给我|替我|你帮|你推荐|推荐个)", r"^\s*(?:can you|could you|please|pls)\b", flags=_I
)
REQUEST = _rx(
    r"^\s*(?:帮我(?!记)|给我(?:写|查|找|算|订|做|发|看|翻译)|can you|could you|please (?:draft|write|check|find|look|tell|calculate))",
    flags=_I,
)
# a title's or an abbreviation's dot ("Dr. Halvorsen", "incl. VAT", "e.g. this") ends no sentence
_SENTENCE_END = re.compile(
    r"(?<=[。！？!?；;\n])|(?<=[.])(?<!Dr\.)(?<!Mr\.)(?<!Ms\.)(?<!Mrs\.)(?<!Prof\.)"
    r"(?<!incl\.)(?<!excl\.)(?<!approx\.)(?<!e\.g\.)(?<!i\.e\.)(?<!vs\.)\s+(?=[A-Za-z" + HAN + r"])"
)
_CLAUSE_END = re.compile(r"(?<=，)\s*|(?<=,)(?!\d{3}(?!\d))\s*")  # 38,000 is one number, not two clauses
_FENCED = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_LEADING = re.compile(
    r"^\s*(?:另外说一下|另外|对了|顺便确认下|顺便|还有个事|还有|哦对|说个我自己的|跟你说(?:下|一下|个事)?|嗯+|哦+|噢|诶|欸|emm+|算了|"
    r"这样吧|这样(?=[\s，,])|好吧|那就(?=[\s，,])|"  # "这样吧 正文里别用…": how the user lands on a rule, not the rule
    r"(?:ohh?|so|also|btw|fyi|and|ok|okay|hm+|um+|uh|yep|yeah|well|actually|heads up|for the future|add|"
    r"(?:can|could|would) you(?: please)?|please|pls|"
    r"(?:[a-z]+ ){0,2}[a-z]+ ?:)(?![A-Za-z]))\s*[,，:：]?\s*",
    _I,
)


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


def _someone_elses_rule(sentence: str) -> bool:
    """Whether a clause that holds a rule's words has someone else for its subject ("someone on the team always
    wants a window seat", "有个家长每次都要靠窗", "她过敏"). A pronoun elsewhere in the sentence leaves the user's
    rule theirs: "no tables please, they look awful on my phone", "以后别用 emoji，他们说看着不专业"."""
    for clause in clauses(sentence):
        if not _SELF_GATE.search(clause):
            continue
        opening = _clean(clause)
        if (
            THIRD_PERSON_START.search(opening)
            or SOMEONE_START.search(opening)
            or _pronoun_fact_at(clause) >= 0
        ):
            return True
        if NAMED_SUBJECT.search(opening) and OTHER_PRONOUN.search(sentence):
            return True
    return False


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
    # one style said in several words stays one object ("keep it short and plain"), unless each key has a
    # clause of its own ("十行以内吧，命令单独放代码块"); identity keys are separate facts
    own_clauses = len(set(first.values())) == len(first) and not any(
        at >= 0 and SELF_RULES[other][0].search(parts[at])  # "代码块不算字数" is still about the length
        for key, at in first.items()
        for other, other_at in first.items()
        if other != key and 0 <= other_at < at
    )
    one_category = len(categories) == 1 and categories != {"identity"} and not own_clauses
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


# "别用表格了", "no more tables": the old value withdrawn, in the words of the correction
_WITHDRAWN = _rx(r"(?<![A-Za-z])(?:no more|stop using|not|don't use|no)\s", "(?:别|不要|不用)[^，。]{1,10}了")


def _without_withdrawn(value: str, key: str) -> str:
    """ "还是别用表格了，用分点列表，每点一行": a correction that withdraws the old value and then gives the new
    one keeps the new one only (the old one's words are what it replaces)."""
    spans = _piece_spans(value)
    pieces = [value[a:b] for a, b in spans]
    rule = SELF_RULES[key][0]
    for n, piece in enumerate(pieces[:-1]):
        if _WITHDRAWN.search(piece) and any(
            rule.search(p) and not _WITHDRAWN.search(p) for p in pieces[n + 1 :]
        ):
            return _clean(value[spans[n + 1][0] :])
    return value


def _from_cue(value: str, pattern: re.Pattern[str]) -> str:
    parts = clauses(value)
    at = next((i for i, part in enumerate(parts) if pattern.search(part)), 0)
    return ("" if has_cjk(value) else " ").join(parts[at:]).rstrip("，, ") if at else value


def _spells_out(pattern: re.Pattern[str], sentence: str) -> bool:
    """ "commit messages: lowercase, imperative" / "回复格式：先结论": the key, a colon, then its rule."""
    return any(re.match(r"\s*[:：]\s*\S", sentence[m.end() :]) for m in pattern.finditer(sentence))


def _drop_untimed(sentence: str) -> str:
    """For keys whose values are times ("anything after 8pm"): drop the one-off clauses that carry no time
    ("周末去哪玩好"), and every clause for today or tomorrow."""
    keep = [c for c in clauses(sentence) if not ONE_OFF_DAY.search(c)
            and (not ONE_OFF.search(c) or STANDING.search(c) or re.search(r"\d", c))]  # fmt: skip
    return "".join(keep).rstrip("，,") if has_cjk(sentence) else " ".join(keep).rstrip(",")


def _drop_clauses(sentence: str, rx: re.Pattern[str]) -> str:
    keep = [c for c in clauses(sentence) if not rx.search(c) or STANDING.search(c)]
    return "".join(keep).rstrip("，,") if has_cjk(sentence) else " ".join(keep).rstrip(",")


# Temporary arrangements are not standing preferences ("no dairy this month, just to see").
TEMPORARY = _rx(
    _en("this month", "for now", "for the time being", "just to see", "trying (?:out )?(?:no|to|a|out)",
        "on a diet", "trying to lose weight",
        "temporarily", "for a (?:week|few days|couple of weeks)", "this week"),
    "这个月|这周|暂时|先试试|试一下|试试看|最近在试|这段时间|"
    # a diet to lose weight is a phase, not what the user eats ("最近在减脂 晚饭不吃")
    "在减肥|在减脂|在节食|在控糖",
)  # fmt: skip
# Words that make a rule outlast the day it is said in.
LASTING = _rx(
    _en("from now on", "going forward", "always", "never", "every time", "whenever", "by default", "in future",
        "in the future"),
    "以后|今后|往后|每次|一直|永远|默认|总是|一律|统一",
)  # fmt: skip
# "I never know which train to take", "总是记不住": the standing word is about the user's memory, not a rule.
UNSURE = _rx(
    r"(?<![A-Za-z])(?:never|always|don't|do not|can't|cannot) (?:know|remember|understand|figure out|get|forget)(?![A-Za-z])",
    "(?:总是|老是|从来|永远|一直)(?:记不住|搞不清|不知道|想不起来|分不清)",
)
ONE_OFF_DAY = _rx(
    _en(
        "today",
        "tonight",
        "tomorrow",
        "yesterday",
        "this (?:morning|afternoon|evening)",
        r"\w+ ago",
        "right now",
    ),
    "今天|今晚|明天|昨天|昨晚|前天|后天|刚才|刚刚|到时候",
)
# A message that opens by replacing what was just said ("make that 9pm", "no, 3 days", "不对，…").
_CORRECTION_START = _rx(
    r"^\s*(?:(?:hm+|um+|oh|ah|wait|sorry)[,.]?\s+)*(?:make (?:that|it)|change (?:that|it) to|actually|no,|nope,|"
    r"scratch that|on second thought|rather|correction)\s*[:,]?\s*",
    r"^\s*(?:嗯|呃|啊)?\s*(?:算了|不对|不是|改成|改一下|更正|还是|换成)[，, ]*",
)
_VALUE = re.compile(
    r"\d+(?:[.:]\d+)?\s?(?:am|pm|点半?|分钟|小时|天|周|个月|days?|hours?|minutes?|mins?|weeks?|%|k|元|块)?"
    r"|[零一二两三四五六七八九十半]+\s?(?:点半?|分钟|小时|天|周|个月)",
    _I,
)
_LASTING_IDENTITY = ("occupation", "name", "nickname")  # "my new job at X starts Monday": still the job

# Why the user wants a rule, said after it ("别加 emoji 了 看着幼稚", "no calls before 8, I'm usually asleep"):
# a reason or the user's own state, which is no part of the rule.
_REASON = _rx(
    r"^(?:because|since|cause|cos|as i|so that|so i|otherwise|i'm|i am|i've|i was|i get|i read|i find|my eyes)\b",
    r"^(?:因为|所以|方便|免得|省得|不然|否则|看着|看得|我想|我在|我要|我眼睛|我是)",
)
# A Chinese chat separates its clauses with spaces as often as with commas.
_PIECE_BREAK = re.compile(r"\s*(?:[，;；]|,(?!\d{3}(?!\d)))\s*|(?<=\S)\s+(?=[" + HAN + r"])|(?<=[.!])\s+")


def _piece_spans(text: str) -> list[tuple[int, int]]:
    breaks = list(_PIECE_BREAK.finditer(text))
    starts = [0, *(m.end() for m in breaks)]
    ends = [*(m.start() for m in breaks), len(text)]
    return list(zip(starts, ends, strict=True))


def _without_pieces(text: str, rx: re.Pattern[str]) -> str:
    """``text`` without its pieces (clauses, or a Chinese chat's space-separated runs) that match ``rx``."""
    spans = _piece_spans(text)
    kept: list[str] = []
    for n, (a, b) in enumerate(spans):
        if not rx.search(text[a:b]):
            separator = text[spans[n - 1][1] : a] if kept else ""  # the break before this piece
            kept.append(separator + text[a:b])
    return "".join(kept).strip(" ，,;；")


def _without_reason(value: str, key: str) -> str:
    """The rule without the reason given after it: after the last piece that states the rule (it names the
    key, says it is standing or carries a value), the first reason and what follows it are cut."""
    rule = SELF_RULES[key][0]
    spans = _piece_spans(value)
    ends = [b for _, b in spans]
    pieces = [value[a:b] for a, b in spans]
    core = [i for i, p in enumerate(pieces) if rule.search(p) or STANDING.search(p) or re.search(r"\d", p)]
    if not core:
        return value
    for i in range(core[-1] + 1, len(pieces)):
        if _REASON.search(pieces[i].strip()):
            return value[: ends[i - 1]].rstrip(" ，,;；.")
    return value


# "从 Helix 换到 Zed", "switched from Vim to Helix": the value left behind is no part of the new one.
_FROM_OLD = _rx(
    r"\b(switched|switching|moved|moving|changed|changing|went) from [^,.;]{1,24}? (?=to )",
    r"从\s?[^，。；\s]{1,16}\s?(?=(?:换到|换成|改到|改成|改用|转到|切到|切换到))",
)
# the words that make a piece part of the rule, not the complaint before it ("表格在手机上看着挤", "too long")
_RULE_WORD = _rx(STANDING.pattern, "我要|我想要|给我|请")
# what the user dislikes about the answers so far ("表格在手机上看着全挤在一起", "too long, hard to read")
_COMPLAINT = _rx(
    _en("too", "hard to read", "annoying", "ugh", "walls? of text", "cluttered", "messy", "tiring"),
    "太|挤|累|烦|看不清|看不过来|乱|头疼|受不了",
)
# the words that open a rule for the time after today ("以后别给我表格了", "from now on, …")
_RULE_OPENER = _rx(
    _en("from now on", "going forward", "in (?:the )?future"), "以后|今后|往后|从现在起|从今以后"
)


def _without_old_value(value: str) -> str:
    return _FROM_OLD.sub(lambda m: f"{m.group(1)} " if m.group(1) else "", value)


def _from_lasting_cue(value: str, key: str) -> str:
    """ "哎 表格在手机上看着全挤在一起 以后别给我表格了": the rule starts at the word that opens it; a
    complaint before it that lays down nothing itself is what led to the rule, no part of it. Keys whose values are
    times keep everything ("晚上 22:30 以后": there 以后 is "after")."""
    if key in _TIMED_KEYS or key == "reminders":
        return value
    spans = _piece_spans(value)
    for n, (a, b) in enumerate(spans[1:], start=1):
        before = value[: spans[n - 1][1]]
        if (
            _RULE_OPENER.match(value[a:b])
            and _COMPLAINT.search(before)
            and not _RULE_WORD.search(before)
            and not _spells_out(SELF_RULES[key][0], before)
            and not re.search(r"[\d点时分天]\s*$", before)
        ):
            return value[a:]
    return value


# A question without its question mark ("为什么 DE 的数字少了一截", "how do I write a window function").
ASKS = _rx(
    r"^\s*(?:为什么|为啥|怎么|如何|是不是|能不能|有没有|可不可以)|(?:吗|么)\s*$",
    r"^\s*(?:how|why|what|which|where|who|can|could|should|do|does|did|is|are)\s+(?:i|we|you|it|the|this|that|there|a)\b",
    r"^\s*(?:how|what|where|who|which)['’]s\s",  # "what's 250g of X if …": a question without its mark
)
# The assistant asks for a value or a choice ("how many days before?", "aisle or window?", "提前几天？"),
# not a yes/no or how-was-it question.
VALUE_ASK = _rx(
    _en("how many", "how much", "how long", "how early", "how far", "how often", "what time", "which", "what (?:should|do|would)",
        r"[a-z]+ or [a-z]+\?"),
    "几|多少|多久|多长|多早|哪个|哪些|哪种|哪家|哪天|什么时候|还是[^？?]{1,12}[？?]",
)  # fmt: skip


# "是 15 不是 12", "不是 12，是 15", "15, not 12", "not 12 but 15": the new value and the one it replaces.
_PAIR_NEW_FIRST = re.compile(
    r"(\d+(?:[.,]\d+)*)\s*[，,]?\s*(?:而)?(?:不是|not)\s+(\d+(?:[.,]\d+)*)(?![\d])", _I
)
_PAIR_OLD_FIRST = re.compile(
    r"(?:不是|(?<![A-Za-z])not)\s*(\d+(?:[.,]\d+)*)\s*[，,]?\s*(?:而是|是|but|it's|it is)\s*(\d+(?:[.,]\d+)*)",
    _I,
)


_NOTE_PRONOUN = _rx(_en("he", "him", "his", "she", "her", "hers"), "他|她")


def _with_referent(detail: str | None, content: str, name: str | None) -> str | None:
    """ "I water his plot on the first and third weekends": a note is read later, out of the chat, so a
    "he"/"她" in it is named — the stored person the user spoke of just before (his = Tom Haskins)."""
    pronoun = _NOTE_PRONOUN.search(content)
    if not pronoun or not name or norm_name(name) in norm_name(content):
        return detail
    said = f"{pronoun.group(0)} = {name}"
    return f"{detail}；{said}" if detail and has_cjk(detail) else f"{detail}; {said}" if detail else said


def _replacement_pair(text: str) -> tuple[str, str] | None:
    """(new, old) when a message replaces one value with another, else None."""
    match = _PAIR_OLD_FIRST.search(text)
    if match:
        return match.group(2), match.group(1)
    match = _PAIR_NEW_FIRST.search(text)
    if match:
        return match.group(1), match.group(2)
    return None


_WHAT = _rx(_en("what", "which"), "什么|哪")


def _last_question(text: str) -> str:
    asked = [s for s in sentences(text) if QUESTION.search(s)]
    return asked[-1] if asked else ""


_ACK_LEAD = _rx(
    r"^\s*(?:yes|yep|yeah|right|sure|ok(?:ay)?|correct|exactly|good|great|fine|agreed)\b[\s,.!:;]*",
    r"^\s*(?:对|行|好的?|是的|没错|可以|嗯嗯?|对的)(?=[\s，,。！!、]|$)[\s，,。！!、]*",
)


# "还差 6 学分", "40 张": a number with its unit is a value; so is a recurring slot ("每周二周五晚上").
_QUANTITY = re.compile(r"\d+(?:[.,]\d+)?\s?(?:[" + HAN + r"]|%)")
_SCHEDULE = _rx(
    _en(r"every (?:day|week|month|weekday|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day)", "weekly", "daily",
        "monthly"),
    "每(?:周|天|月|个月|星期|年)",
)  # fmt: skip


def _names_identifier(clause: str) -> bool:
    """ "namespace 是 pay-prod", "the bucket is logs-eu-2": a clause that gives a thing's identifier (a
    hyphenated, dotted or slashed name) outlasts the day it was said on ("迁到 k8s 了 这周" is the when, the
    namespace stays). Plain numbers and capitalised words are not enough: a train or an order number is an
    errand's."""
    return bool(_IDENTIFIER.search(clause))


def _topic_conclusion(sentence: str, mode: str) -> str | None:
    """What a sentence in a topic's thread concludes, or None. An answer to the assistant's follow-up
    may be any statement; a mention, or a reply to "how many / which …?", must decide or carry a value
    (an identifier, a number); a later message must decide or change something. A clause for today,
    tomorrow or a clock time ("明天寄") makes the sentence a one-off unless another clause decides;
    other one-off clauses are dropped; superseded values ("was March, now April") stay out."""
    parts = clauses(sentence)
    if any(HARD_ONE_OFF.search(c) or ONE_OFF_DAY.search(c) for c in parts) and not any(
        _decides(c) or _names_identifier(c)
        for c in parts
        if not (HARD_ONE_OFF.search(c) or ONE_OFF_DAY.search(c))
    ):
        return None
    lasting = [c for c in parts if not (HARD_ONE_OFF.search(c) or ONE_OFF_DAY.search(c))]
    if mode != "answer":
        lasting = [c for c in lasting if not ONE_OFF.search(c) or STANDING.search(c) or _names_identifier(c)]
    joiner = "" if has_cjk(sentence) else " "
    kept = joiner.join(lasting).rstrip("，, ")
    valued = bool(salient_tokens(kept) or _QUANTITY.search(kept) or _SCHEDULE.search(kept)) and not _pays(
        kept
    )
    if not kept or ACK.match(kept) or JOKE.search(kept):
        return None
    if _pays(_drop_superseded(kept)) and not TOPIC_FOLLOW_CUE.search(kept):
        return None  # a payment (a deposit paid, a card used) is an errand; a budget is a decision
    if mode == "later" and not (_decides(kept) or _names_identifier(kept)):
        return None
    if mode in ("mention", "value") and not (_decides(kept) or valued):
        return None
    text = _clean(_ACK_LEAD.sub("", _clean(_drop_superseded(kept))))
    return text if len(norm_name(text)) >= (6 if mode == "answer" and not valued else 4) else None


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _same_setting_new_value(old: str, new: str) -> bool:
    """ "那礼盒就定 108 吧" … "那礼盒就 110 不凑整了", "the rate is 40 an hour" … "the rate is 45 then": one value
    each, a different one, said of the same thing (the words before the number are mostly the same). The
    later one holds; the earlier is superseded."""
    a, b = _NUMBER.findall(old), _NUMBER.findall(new)
    if len(a) != 1 or len(b) != 1 or a == b:
        return False
    lead_a, lead_b = normalize(old.split(a[0], 1)[0]), normalize(new.split(b[0], 1)[0])
    if has_cjk(lead_a) and has_cjk(lead_b):
        lead_a, lead_b = norm_name(lead_a), norm_name(lead_b)
        pa, pb = han_ngrams(lead_a), han_ngrams(lead_b)
        return len(pa & pb) >= 2 and 2 * len(pa & pb) >= min(len(pa), len(pb))
    # the same content words before the number ("the rate is" … "the rate is"), not "budget for ads" …
    # "budget for design"
    wa = {w for w in re.findall(r"[a-z]{3,}", lead_a) if w not in _QUESTION_STOP}
    wb = {w for w in re.findall(r"[a-z]{3,}", lead_b) if w not in _QUESTION_STOP}
    return bool(wa) and wa == wb


def _restates_self(sentence: str, self_texts: list[str]) -> bool:
    """ "我还是在人民医院门诊药房哈" / "I'm still on Unity 6": the user says a stored fact about themself again
    (a shared identifier, or most of a Chinese value's character pairs); it belongs to no topic."""
    if not FIRST_PERSON.search(sentence):
        return False
    words = {normalize(t) for t in salient_tokens(sentence) if not t.isdigit()}
    pairs = han_ngrams(norm_name(sentence))
    for text in self_texts:
        if words & {normalize(t) for t in salient_tokens(text) if not t.isdigit()}:
            return True
        if len(pairs & han_ngrams(norm_name(text).replace("用户", " "))) >= 4:
            return True
    return False


_ASKS_ABOUT_USER = _rx(_en("you", "your", "you're", "yourself"), "你|您")


def _answers_about_a_thing(msgs: list[_Msg], pos: int, topics: _TopicFinder) -> bool:
    """u: "the sync rewrite: we decided on a queue" — a: "Which one?" — u: "I'm using Redis for it now": the
    answer to a question about a stored topic the user just spoke of, not about the user (no "you"), is
    that topic's, so a tool or a style named in it is not the user's own."""
    if pos < 2 or msgs[pos - 1].user or not msgs[pos - 2].user or topics.find(msgs[pos - 2].text) is None:
        return False
    asked = _last_question(msgs[pos - 1].text)
    return bool(asked) and not _ASKS_ABOUT_USER.search(asked) and bool(VALUE_ASK.search(asked))


def _own_rule(sentence: str) -> bool:
    """A rule for how the assistant treats the user (replies, reminders, quiet hours, what to ask first),
    said in the first person or as a correction of a standing rule ("改成提前一周提醒"): the user's self
    object, whatever thread it falls in. Tools, hours and identity facts can be a project's decision
    ("I'm using Redis for the cache now"), so they stay with the topic unless restated."""
    hits = [key for key, _ in _self_hits(sentence, lambda key: True) if _about_the_assistant(key)]
    if not hits or _group_decision(sentence):
        return False
    return bool(
        FIRST_PERSON.search(sentence) or STANDING.search(sentence) or _CORRECTION_START.match(sentence)
    )


_GROUP_SUBJECT = _rx(
    _en("we", "we've", "we're", "we'll", "the team", "our team", "everyone"), "我们|咱们|大家|团队"
)
_SINGULAR_ME = _rx(_en("i", "i'm", "i've", "i'd", "me", "my"), "我(?!们)")
_GROUP_DECIDES = _rx(
    _en("decided", "agreed", "settled on", "voted", "chose"), "决定|商量|同意|定了|约定|统一"
)


def _group_decision(sentence: str) -> bool:
    """ "we decided every fct_ model is incremental", "我们决定…": what a group settled on is the project's,
    not how the user wants replies (unless the user speaks for themself too)."""
    return bool(
        _GROUP_SUBJECT.search(sentence)
        and _GROUP_DECIDES.search(sentence)
        and not _SINGULAR_ME.search(sentence)
    )


# How a user settles a rule they came back to: "这样吧 …", "ok: …", or a limit ("at most one", "只在…", "except").
_SETTLES = _rx(
    r"^\s*(?:这样吧|这样|那就|好吧|算了|(?:ok(?:ay)?|so|fine|then|alright)\s*[:,])",
    _en("only", "at most", "except", "unless", "but", "instead"),
    "最多|只在|只用|除了|但是|但|可以放|改成",
)


def _about_the_assistant(key: str) -> bool:
    return SELF_KEYS[key] in ("preference", "communication_style") or key == "confirmation"


def _decides_more(text: str, people: _PeopleFinder) -> bool:
    """ "另外数据库最终选了 PostgreSQL": after "also", a decision with an identifier and no person in it
    goes on with the same topic."""
    return (
        _decides(text)
        and bool(salient_tokens(text))
        and not people.names_in(text)
        and _pronoun_fact_at(text) < 0
        and not _SELF_GATE.search(text)  # "还有，以后都用英文回复我" is the user's own rule
    )


def _decides(text: str) -> bool:
    return bool(
        TOPIC_DECISION.search(text)
        or CHANGE_MADE.search(text)
        or CORRECTION.search(text)
        or any(rx.search(text) for rx in STATUS.values())
    )


def _answers_value_question(msgs: list[_Msg], pos: int, said_at: int, *, any_question: bool = False) -> bool:
    """msgs[pos] answers the assistant's "how many / which …?" (with ``any_question``, any question: "是全职吗？")
    asked right after the user's msgs[said_at]."""
    prev = msgs[pos - 1] if pos else None
    asked = _last_question(prev.text) if prev is not None and not prev.user else ""
    return (
        bool(asked)
        and (any_question or VALUE_ASK.search(asked) is not None)
        and said_at == _prev_user_index(msgs, pos)
    )


def _previous_statement(msgs: list[_Msg], pos: int) -> _Msg | None:
    """The user's message just before msgs[pos], with at most the assistant's one reply between — a reply
    that asks nothing: after "要我帮你排点什么吗？", "不用管" declines the offer, it takes nothing back."""
    if pos and msgs[pos - 1].user:
        return msgs[pos - 1]
    if pos < 2 or not msgs[pos - 2].user or QUESTION.search(msgs[pos - 1].text):
        return None
    return msgs[pos - 2]


# Words a withdrawal and the statement it withdraws share without naming the same thing.
_SHARED_STOP = frozenset(
    {"这个", "那个", "就这", "不用", "一下", "我这", "that", "this", "just", "about", "don't"}
)


_WITHDRAW_STOP = _SHARED_STOP | EN_KEYWORD_STOPWORDS


def _withdraws(dismissal: str, said: str) -> bool:
    """u: "对了 我最近在减脂 晚上不吃主食…" — a: "…" — u: "算了 我这个减脂就这两周 不用管": a dismissal that names
    what the user just said (a shared word) takes that statement back; it was never to be kept."""
    pairs = (han_ngrams(norm_name(dismissal)) & han_ngrams(norm_name(said))) - _SHARED_STOP
    if pairs:
        return True
    words = {w for w in re.findall(r"[a-z]{4,}", normalize(dismissal)) if w not in _WITHDRAW_STOP}
    return bool(words & set(re.findall(r"[a-z]{4,}", normalize(said))))


def _user_turns_between(msgs: list[_Msg], start: int, end: int) -> int:
    return sum(1 for m in msgs if m.user and start < m.index < end)


def _prev_user_index(msgs: list[_Msg], pos: int) -> int:
    return next((msgs[i].index for i in range(pos - 1, -1, -1) if msgs[i].user), -1)


def _corrects_person_fact(person: _Person, msg: _Msg, people: _PeopleFinder) -> bool:
    """ "Nina comes on Tuesdays now" … "actually Thursdays": a correction that names no one, right after a
    fact about a person, replaces that fact's value (or the fact); True when the message was used."""
    if (
        not person.facts
        or person.fact_in < 0
        or msg.index - person.fact_in > 2
        or not _CORRECTION_START.match(msg.text)
        or people.names_in(msg.text)
        or QUESTION.search(msg.text)
    ):
        return False
    new = _substitute_value(person.facts[-1], msg.text) or _substitute_word(person.facts[-1], msg.text)
    if new is None:
        return False
    person.facts[-1] = new
    person.fact_in = msg.index
    person.at = msg.at
    return True


_DAY_WORD = re.compile(
    r"(?<![A-Za-z])(?:mon|tues|wednes|thurs|fri|satur|sun)days?(?![A-Za-z])|周[一二三四五六日天]|星期[一二三四五六日天]",
    _I,
)


def _substitute_word(old: str, correction: str) -> str | None:
    """ "comes on Tuesdays" + "actually Thursdays" → "comes on Thursdays": one weekday for another."""
    before, after = list(_DAY_WORD.finditer(old)), list(_DAY_WORD.finditer(correction))
    if len(before) != 1 or len(after) != 1:
        return None
    return old[: before[0].start()] + after[0].group(0) + old[before[0].end() :]


def _corrected_value(old: str, correction: str) -> str | None:
    """ "提前 30 分钟" + "等下 30 分钟太晚了 改成 1 小时" / "hm, 10 is too early, make it 11": a correction
    word mid-message, and after it exactly one new value — that value replaces the old one's. What comes
    before the cue restates the rejected value, so only the part after the last cue counts."""
    cues = list(CORRECTION.finditer(correction))
    if not cues:
        return None
    return _substitute_value(old, correction[cues[-1].end() :])


def _substitute_value(old: str, correction: str) -> str | None:
    """ "don't ping me after 10pm" + "make that 9pm" → "don't ping me after 9pm": when the old value and the
    correction each carry exactly one value (a time, an amount, a duration), the new one replaces the old."""
    before, after = list(_VALUE.finditer(old)), list(_VALUE.finditer(correction))
    if len(before) != 1 or len(after) != 1:
        return None
    return old[: before[0].start()] + after[0].group(0) + old[before[0].end() :]


@dataclass
class _Msg:
    index: int
    role: str
    text: str
    at: str | None
    dismissed: bool = False
    noted: bool = False  # part of a note the user asked to remember: not also a person's fact
    saved: bool = False  # asked to remember (or corrects what was): the saved note, not a topic's conclusion

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
    fact_in: int = -1  # the message the last fact came from
    introduced: str = ""  # the user's sentence that brought them in


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
        folded_messages, folded_stored, restorer = folded_view(messages, stored)  # the rules read Simplified
        candidates = self.candidates(folded_messages, folded_stored)
        for candidate in candidates:
            candidate.obj = restorer.restore(candidate.obj)
            candidate.variant = restorer.text(candidate.variant) if candidate.variant else candidate.variant
        return Proposed(candidates=candidates, extractor=self.name)

    def candidates(self, messages: Sequence[ChatMessage], stored: Sequence[Stored]) -> list[Candidate]:
        msgs = self._messages(messages)
        people = _PeopleFinder(stored)
        candidates: list[Candidate] = []
        candidates += self._saved(msgs, people)
        stored_self = {s.obj.key or "": s.obj.summary for s in stored if s.obj.type == "self"}
        finder = _TopicFinder(stored)  # built once: its pairs of topics grow with the square of their number
        restated_keys: set[str] = set()
        candidates += self._self(msgs, people, finder, stored_self, restated_keys)
        if any(c.obj.type == "self" for c in candidates):  # a stable fact about the user is not a saved note
            candidates = _saved_or_self(candidates)
        candidates += self._people(msgs, people)
        candidates += _without_self_rules(self._topics(msgs, stored, finder, people), candidates)
        candidates += self._restated(msgs, stored, candidates, restated_keys)
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
                said = _previous_statement(msgs, pos)
                if said is not None and _withdraws(msg.text, said.text):
                    said.dismissed = True
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
            if (
                tail.strip().endswith((":", "："))
                or not tail.strip(" ：:，,")
                or re.match(r"\s*[:：]", tail)
                or _LABEL_COLON.match(
                    tail
                )  # "帮我记住这个规则：…；…": the label's colon opens the whole note
            ):
                # "remember this:" / "记住：…" — the note is all that follows the cue, to the message's end
                start = msg.text.find(cue_sentence)
                tail = msg.text[start + cue.end() :] if cue and start >= 0 else msg.text[match.end() :]
            content = re.sub(r"^(?:that|this)\s+", "", _clean(tail.lstrip(" ：:，,")), flags=_I)
            subject = _cue_noun(tail)
            points_back = _refers_back(tail) and not re.match(r"\s*[:：]\s*\S", tail)
            earlier = msg.text[: msg.text.find(cue_sentence)] if cue_sentence in msg.text else ""
            if cue and _BACK_CUE.search(cue.group(0)) and not lead and len(norm_name(earlier)) >= 8:
                # "I drive tuesdays, … remember that, I always mix it up": "that" is what the message said
                # before; what follows the cue is why
                lead, points_back, subject = _clean(earlier), True, None
            if points_back:  # "remember this: …" points ahead
                asked = msgs[pos - 1] if pos and not msgs[pos - 1].user else None
                if (
                    len(norm_name(_ACK_LEAD.sub("", lead))) >= 8
                ):  # "he's allergic to shellfish, remember that"
                    content = lead
                elif asked is not None and YES.match(msg.text) and QUESTION.search(asked.text):
                    # a: "So no meetings before 10, right?" — u: "yeah always, remember that": the note is
                    # what the assistant put to the user, not the reply
                    content = _statement_of(asked.text)
                    source = pos - 1
                else:
                    before = [i for i in range(pos) if msgs[i].user and not msgs[i].dismissed]
                    if not before:
                        continue
                    source = before[-1]
                    content = _clean(msgs[source].text)
                    if len(before) >= 2 and _answers_question(msgs, source, before[-2]):
                        # "包了一个季度，3 号场" answered the assistant's question about the message before
                        # it: the note is that message with its answer
                        source = before[-2]
                        joiner = "；" if has_cjk(content) else "; "
                        content = joiner.join([_clean(msgs[source].text), content])
            if people.starts_with_person(content) or THIRD_PERSON_START.search(content):
                continue  # a fact about a person belongs to their relationship object (an arrangement
                # that only involves people — who collects the money — is still a note)
            if len(norm_name(content)) < 6:
                continue
            if all(HARD_ONE_OFF.search(c) or ONE_OFF_DAY.search(c) for c in clauses(content)):
                continue  # "remember, the dentist is at 3pm tomorrow" is a reminder, not a note
            content = self._corrected_note(msgs, pos, content)
            msg.saved = True
            extra = [_clean(m.text) for m in self._follow_ups(msgs, pos)[:2] if not ACK.match(m.text)]
            window = " ".join([content, *(m.text for m in msgs[max(0, source - 1) : source] if not m.user)])
            title = (
                _with_own_head(subject, content)
                if subject
                else _lead_subject(lead, _title(content, kind_word, window), points_back)
            )
            obj = MemoryObject(type="saved", saved_kind="text_note", title=title,
                               summary=content, detail="；".join(extra) if has_cjk(content) else " ".join(extra) or None)  # fmt: skip
            named = self._last_named(msgs, pos, people) if _NOTE_PRONOUN.search(content) else None
            obj.detail = _with_referent(obj.detail, content, named) or None
            if points_back:
                for i in range(source, pos + 1):  # the messages the note is made of are not also facts
                    msgs[i].noted = True
            out.append(
                Candidate(
                    obj=obj, priority=9, reason="explicit request to remember", remember=True, at=msg.at
                )
            )
        return out

    def _last_named(self, msgs: list[_Msg], pos: int, people: _PeopleFinder) -> str | None:
        """The stored person the user named last, in this message or their three before it."""
        for msg in reversed([m for m in msgs[: pos + 1] if m.user][-4:]):
            named = people.names_in(msg.text)
            if named:
                return named[-1][0]
        return None

    def _corrected_note(self, msgs: list[_Msg], pos: int, content: str) -> str:
        """ "记住：零售价 = 成本 × 2.5 + 包装费 12" … "不对，包装费是 15 不是 12": a correction that names the old and
        the new value, within the user's next three messages, fixes the note (only the final value counts)."""
        later = [m for m in msgs[pos + 1 :] if m.user][:3]
        for msg in later:
            pair = _replacement_pair(msg.text)
            if pair is None:
                continue
            new, old = pair
            spot = re.search(rf"(?<![\d.,]){re.escape(old)}(?![\d]|[.,]\d)", content)
            if spot:
                content = content[: spot.start()] + new + content[spot.end() :]
                msg.saved = True
        return content

    # -- self ---------------------------------------------------------------------------------------

    def _self_follow_up(
        self,
        msgs: list[_Msg],
        pos: int,
        values: dict[str, list[tuple[str, str | None]]],
        said_in: dict[str, int],
        mentioned_in: dict[str, int],
    ) -> bool:
        """A user message that names no key but changes or completes the value the user gave a moment
        ago: "make that 9pm" (a correction) or "3 days" (the answer to the assistant's "how many days
        before?"). The value stated last gets the new wording; True when the message was used."""
        msg = msgs[pos]
        recent = [
            k for k, at in said_in.items() if values.get(k) and _user_turns_between(msgs, at, msg.index) <= 2
        ]
        if QUESTION.search(msg.text) or ONE_OFF_DAY.search(msg.text):
            return False
        # u: "以后别用 emoji" … u: "完全没 emoji 又有点冷冰冰的" — u: "这样吧 正文里别用 结尾可以放一个": the user came back
        # to a rule given earlier (named its key, set no rule); their next rule, naming no key, replaces it
        reopened = [k for k, at in mentioned_in.items() if values.get(k) and at > said_in.get(k, -1)
                    and at == _prev_user_index(msgs, pos)]  # fmt: skip
        if (
            reopened
            and STANDING.search(msg.text)
            and _SETTLES.search(msg.text)
            and len(norm_name(msg.text)) >= 4
        ):
            key = reopened[-1]
            values[key] = [(_clean(_CORRECTION_START.sub("", msg.text)), msg.at)]
            said_in[key] = msg.index
            return True
        if not recent:
            return False
        # of keys said in one message ("在成都，做自由翻译"), the answer completes the one said last
        key = max(reversed(recent), key=lambda k: said_in[k])
        old = values[key][-1][0]
        if CORRECTION.match(msg.text) or _CORRECTION_START.match(msg.text):
            value = (
                _substitute_value(old, msg.text)
                or _substitute_word(old, msg.text)
                or _clean(_from_cue(msg.text, CORRECTION))
            )
            value = _clean(_CORRECTION_START.sub("", value))
            if len(norm_name(value)) < 2:
                return False
            values[key] = [(value, msg.at)]
        elif (
            # "Is it remote?" — "yes, remote, from March" completes the identity fact ("还行，航班延误了" does not)
            _answers_value_question(msgs, pos, said_in[key], any_question=SELF_KEYS[key] == "identity" and
                                    YES.match(msg.text) is not None)
            and len(msg.text) <= 40
        ):  # fmt: skip
            answer = _clean(YES.sub("", msg.text, count=1))
            if len(norm_name(answer)) < 2 or ACK.match(msg.text):
                return False
            joined = f"{old}：{answer}" if has_cjk(old) else f"{old}: {answer}"
            values[key][-1] = (joined, msg.at)
        elif len(msg.text) <= 40 and (corrected := _corrected_value(old, msg.text)):
            values[key] = [(corrected, msg.at)]
        else:
            return False
        said_in[key] = msg.index
        return True

    def _answers_about_self(self, msgs: list[_Msg], pos: int, said_in: dict[str, int]) -> bool:
        """u: "做前端的 在一家 SaaS 公司" — a: "主要用什么技术栈？" — u: "Vue 3 + TypeScript": the answer to the
        assistant's question right after the user spoke about themself is about the user too (no "I")."""
        if pos < 2 or msgs[pos - 1].user or not msgs[pos - 2].user:
            return False
        asked = _last_question(msgs[pos - 1].text)
        return (
            bool(VALUE_ASK.search(asked) or _WHAT.search(asked))  # asks for a value, not "Sourdough focused?"
            and msgs[pos - 2].index in said_in.values()
            and not _GROUP_SUBJECT.search(asked)
        )

    def _self(
        self,
        msgs: list[_Msg],
        people: _PeopleFinder,
        topics: _TopicFinder,
        stored_self: dict[str, str],
        restated: set[str],
    ) -> list[Candidate]:
        """The user's own facts and rules; the stored keys the user only said again go into ``restated``."""
        values: dict[str, list[tuple[str, str | None]]] = {}
        said_in: dict[str, int] = {}
        mentioned_in: dict[str, int] = {}  # the last user message naming a key (a rule or not)
        asked_for: set[str] = set()
        corrected: dict[str, int] = {}  # key -> the user message (position) that corrected it
        for pos, msg in enumerate(msgs):
            if not msg.user or msg.dismissed:
                continue
            going_on = _continued_correction(msgs, pos, corrected)
            named_keys = (
                [k for k, (rx, _) in SELF_RULES.items() if rx.search(msg.text)]
                if _SELF_GATE.search(msg.text)
                else []
            )
            asked = _asked_key(msgs, pos)
            if asked and asked not in values and asked not in stored_self and _plain_answer(msg.text, people):
                # "做什么工作呀？" — "建筑设计 在一个设计院": the answer is the value, whatever its words
                values[asked] = [(_clean(msg.text), msg.at)]
                said_in[asked] = mentioned_in[asked] = msg.index
                asked_for.add(asked)
                continue
            if not named_keys and going_on and values.get(going_on) and _goes_on_with_rule(msg, people):
                # "hmm actually drop the scopes" — "just `type: subject`, max 60 chars": the correction goes on
                _add_to_rule(values, going_on, _clean(msg.text), msg.at)
                said_in[going_on] = msg.index
                continue
            if not named_keys and self._self_follow_up(msgs, pos, values, said_in, mentioned_in):
                if CORRECTION.search(
                    msg.text[:16]
                ):  # "hmm actually drop the scopes" corrects the rule just given
                    corrected.update({k: pos for k, at in said_in.items() if at == msg.index})
                continue
            echoed = None if named_keys else _echoed_key(msgs, pos, values, said_in, mentioned_in, people)
            if echoed is not None:
                # u: "完全不要 emoji 吧" … u: "其实一个也行 结尾放一个可以" — a: "明白：最多在结尾放一个 emoji"
                _go_on_with(msgs, pos, echoed, values, said_in, mentioned_in, corrected)
                continue
            # u: "英文回复看技术问题有点累" (the key again, no rule) — u: "这样吧 技术问题用中文…": the user settles the
            # rule they came back to; it replaces the old one without a standing word
            reopened = {
                k for k in named_keys if values.get(k) and _reopens(msgs, pos, k, said_in, mentioned_in)
            }
            mentioned_before = dict(mentioned_in)
            for key in named_keys:
                mentioned_in[key] = msg.index
            said_before = ""
            for sentence in sentences(msg.text):
                earlier, said_before = said_before, sentence
                if _continues_someone_else(msgs, pos, earlier, sentence):
                    continue  # "she's moving to Lisbon. got a job at …": still about her
                if (
                    (
                        REQUEST.search(sentence) and not STANDING.search(sentence)
                    )  # "can you … from now on" is a rule
                    or THIRD_PERSON_START.search(sentence)
                    or _someone_elses_rule(sentence)
                    or DISMISS.search(sentence)
                    or QUESTION.search(sentence)
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
                    reopened: set[str] = reopened,
                    going_on: str | None = going_on,
                ) -> bool:
                    return (
                        standing
                        or not SELF_RULES[key][1]
                        or (correcting and bool(values.get(key)))
                        or key == going_on  # "多行的才用 code block", right after the user corrected it
                        or _spells_out(SELF_RULES[key][0], sentence)
                        or (key in reopened and _SETTLES.match(sentence) is not None)
                    )

                about_topic = topics.find(sentence) is not None or _answers_about_a_thing(msgs, pos, topics)
                # a link is a reference, never a preference ("1kM-…" in a URL is no unit)
                hits = _self_hits(_LINK.sub(" ", sentence), allowed)
                for key, part in hits:
                    identity = SELF_KEYS[key] == "identity"
                    if (
                        key == "city"
                        and not _CITY_SAID.search(part)
                        and not _introduced_place(msgs, pos, part, values, hits)
                    ):
                        continue
                    if (
                        not identity
                        and not FIRST_PERSON.search(sentence)
                        and not HABIT_OPENING.match(sentence)
                        and not values.get(key)
                        and not standing  # a standing rule needs no "I" either
                        and not _spells_out(SELF_RULES[key][0], sentence)
                        and not self._answers_about_self(msgs, pos, said_in)
                    ):
                        continue  # (a follow-up to the user's own statement in this chat needs no "I")
                    if not identity and (
                        OPEN_QUESTION.search(part)
                        or TEMPORARY.search(sentence)
                        or UNSURE.search(sentence)
                        or (ONE_OFF_DAY.search(sentence) and not LASTING.search(sentence))
                    ):  # "today please keep it short, I'm in a rush" is for today
                        continue  # "whether to do a night shift", "no dairy this month, just to see"
                    correcting = bool(values.get(key)) and bool(
                        CORRECTION.search(sentence) or CORRECTION.search(msg.text[:12])
                    )
                    if key in stored_self and (
                        _says_again(sentence, stored_self[key])
                        or _same_as_stored(msgs, pos, sentence, stored_self[key])
                    ):
                        restated.add(key)
                        continue  # "还是老样子 靠窗座位": the stored value said again is a skip, not an update
                    if not identity and _group_decision(sentence):
                        continue  # "我们决定 fct_ 开头的都用 incremental": the team's decision, not the user's style
                    if about_topic and SELF_KEYS[key] != "identity" and key != "confirmation":
                        continue  # "标题不超过 20 字" about a project is the project's rule, not the user's style
                    # (what to ask before acting is always the user's rule for the assistant)
                    if key == "reminders":
                        if CLOCK_OR_DAY.search(part) and not correcting:
                            continue  # "remind me 10 minutes before the 3pm call" is a reminder, not a rule
                        # (but "还是当天早上 7 点提醒吧" corrects the rule set a moment ago: the time is the rule)
                    elif (
                        ONE_OFF.search(sentence)
                        and not STANDING.search(sentence)
                        and key not in _TIMED_KEYS
                        and key not in _LASTING_IDENTITY
                    ):
                        continue
                    value = _clean(
                        part
                        if key in _LASTING_IDENTITY  # "我下周一去字节入职了": the date goes with the fact
                        else _drop_clauses(part, CLOCK_OR_DAY)
                        if key == "reminders"
                        else _drop_untimed(part)
                        if key in _TIMED_KEYS  # times are their values
                        else _drop_clauses(part, ONE_OFF)
                    )
                    if key == "reminders" and correcting:
                        value = _clean(part)
                    if len(norm_name(value)) < 3:
                        continue
                    if key == "occupation" and not _says_what_job(value):
                        continue  # "the new job eats my evenings": a job mentioned, not what it is
                    replacing = bool(values.get(key)) and said_in.get(key) != msg.index
                    if replacing and not correcting and _answers_value_question(msgs, pos, said_in[key],
                                                                                 any_question=identity):  # fmt: skip
                        # (an identity fact asked about — "新工作在 X" — "是全职吗？" — "对 全职…入职" — is completed too)
                        # "以后交房租前提醒我" — "提前几天？" — "提前三天吧": the answer completes the rule
                        old = values[key][-1][0]
                        answer = _clean(_ACK_LEAD.sub("", value)) or _clean(value)
                        values[key][-1] = (f"{old}：{answer}" if has_cjk(old) else f"{old}: {answer}", msg.at)
                        said_in[key] = msg.index
                        continue
                    if CORRECTION.search(sentence) or CORRECTION.search(msg.text[:12]):
                        values[key] = []
                        value = _without_withdrawn(_from_replacement(value), key)
                        corrected[key] = pos
                    elif key == going_on:
                        pass  # the correction goes on: its parts are one rule
                    elif replacing and not ADDITIVE.match(sentence):
                        values[key] = []  # said again later: only the final value counts
                    if (
                        replacing
                    ):  # "15 分钟不够，统一提前半小时吧": what comes before the new rule rejects the old one
                        value = _from_cue(value, SELF_RULES[key][0])
                    values.setdefault(key, [])
                    if self._answers_about_self(msgs, pos, said_in):
                        asked_for.add(key)  # asked for and given: as deliberate as a rule under the cap
                    said_in[key] = msg.index
                    value = _clean(_CORRECTION_START.sub("", value) if correcting else value)
                    if not identity:
                        value = _from_lasting_cue(_without_old_value(_without_reason(value, key)), key)
                    if value not in [v for v, _ in values[key]]:
                        values[key].append((value, msg.at))
            if named_keys and not any(said_in.get(k) == msg.index for k in values):
                # u: "列表可以 但每条一行" names the key but sets no rule of its own; the reply takes it on as one
                echoed = _echoed_key(msgs, pos, values, said_in, mentioned_before, people)
                if echoed in named_keys and echoed not in restated:
                    _go_on_with(msgs, pos, echoed, values, said_in, mentioned_before, corrected)
        # "我叫许嘉文 叫我嘉文就行", "I'm Theodore, call me Theo": a nickname said with the name is part of the
        # name's object, not a second one
        if values.get("nickname") and values.get("name") and said_in.get("nickname") == said_in.get("name"):
            name_text = values["name"][-1][0]
            extra = [v for v, _ in values.pop("nickname") if v not in name_text]
            if extra:
                joiner = "，" if has_cjk(name_text) else ", "
                values["name"][-1] = (joiner.join([name_text, *extra]), values["name"][-1][1])
        out = []
        for key, items in values.items():
            if not items:
                continue
            joined = (
                "；".join(v for v, _ in items) if has_cjk(items[0][0]) else "; ".join(v for v, _ in items)
            )
            # Under the cap of five, a rule the user laid down (it passed the standing-rule gate, or says
            # always / 以后 / every time) outlasts a person mentioned in passing; a bare habit ("I start
            # at 4am", said as a reason) does not.
            ruled = SELF_RULES[key][1] or LASTING.search(joined) is not None or key in asked_for
            # what the user eats or must avoid is a fact about them, as stable as who they are
            priority = 6 if SELF_KEYS[key] == "identity" else 5.8 if key == "diet" else 5.6 if ruled else 5
            out.append(Candidate(obj=MemoryObject(type="self", category=SELF_KEYS[key], key=key, summary=joined),
                                 priority=priority, reason=f"the user's {key.replace('_', ' ')}", at=items[-1][1]))  # fmt: skip
        return out

    # -- relationship ------------------------------------------------------------------------------

    def _people(self, msgs: list[_Msg], people: _PeopleFinder) -> list[Candidate]:
        found: dict[str, _Person] = {}
        last: _Person | None = None
        last_said_in = -1  # the user message that last spoke about ``last``
        for pos, msg in enumerate(msgs):
            if not msg.user:
                named = people.names_in(msg.text)
                if named:
                    last = found.get(named[-1][0]) or _Person(
                        name=named[-1][0], stored=named[-1][1], variant=named[-1][2]
                    )
                    found.setdefault(last.name, last)
                continue
            if msg.dismissed or msg.noted:  # a note the user asked to keep is a saved object, not a fact
                continue
            if last is not None and _corrects_person_fact(last, msg, people):
                continue
            unassigned: list[str] = []  # this message's sentences about no one yet
            offered = msgs[pos - 1].text if pos and not msgs[pos - 1].user else ""
            said_before = ""
            for sentence in sentences(msg.text):
                earlier, said_before = said_before, sentence
                if DISMISS.search(sentence) or _picks_offer(sentence, offered):
                    continue
                named = people.names_in(sentence)
                new = people.new_person(sentence)
                person: _Person | None = None
                if named:
                    name, stored, variant = named[0]
                    person = found.setdefault(
                        name, _Person(name=name, stored=stored, variant=variant, order=len(found))
                    )
                    person.introduced = person.introduced or sentence
                elif new is not None:
                    name, relation = new
                    person = found.setdefault(
                        name, _Person(name=name, stored=None, relation=relation, order=len(found))
                    )
                    person.introduced = person.introduced or sentence
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
                    or _continues_someone_else(msgs, pos, earlier, sentence)  # "… got a job at X"
                ):
                    person = last
                elif (
                    last is not None
                    and last_said_in >= 0
                    and not msg.saved
                    and _answers_question(msgs, pos, last_said_in)
                    and (answer := _person_answer(sentence)) is not None
                    and (last.fact_in == msgs[last_said_in].index or PERSON_DURABLE.search(answer))
                ):
                    # u: "priya got the job!!" — a: "The one in Leeds?" — u: "yes, ward manager at St James's, Leeds":
                    # the answer to the assistant's question about the person's news is about them (a name
                    # alone after a passing mention — "Tom's back" — "Where from?" — "Lisbon" — is not)
                    last.facts.append(answer)
                    last.at, last.fact_in, last_said_in = msg.at, msg.index, pos
                    continue
                if person is None:
                    passing = QUESTION.search(sentence) or ONE_OFF.search(sentence) or JOKE.search(sentence)
                    if not passing and not _is_ack(sentence):  # "是他。" confirms who, it is no fact
                        unassigned.append(sentence)
                    continue
                last = person
                last_said_in = pos
                fact = self._person_fact(sentence, person)
                if fact and not named and new is None and unassigned:
                    # "Willowbrook, the assisted living place. she moves in on January 12": the answer's
                    # sentences before the pronoun are about the same person.
                    fact = " ".join([*(_clean(u) for u in unassigned), fact])
                unassigned = []
                if fact:
                    person.facts.append(fact)
                    person.at = msg.at
                    person.fact_in = msg.index
                if named:  # "老赵调去重庆了，以后对接找他手下的小吴": a new person in a later clause
                    self._later_new_person(sentence, person, people, found, msg)
        out = []
        for person in found.values():
            if not person.facts:
                continue
            if person.stored is None and not person.relation:
                continue
            if person.stored is None and ONE_TIME.search(person.introduced):
                continue  # someone the user deals with once is no one to remember
            summary = person.stored.obj.summary if person.stored else person.facts[0]
            obj = MemoryObject(type="relationship", name=person.stored.obj.name if person.stored else person.name,
                               relation=person.stored.obj.relation if person.stored else person.relation,
                               summary=summary, facts=list(dict.fromkeys(person.facts)))  # fmt: skip
            # a stored person outlasts a style preference; a new one who does something for the user (handles
            # bookings, supplies the flour) outlasts a rule too, one mentioned in passing does not
            working = person.relation == "contact" or PERSON_DUTY.search(" ".join(person.facts)) is not None
            # "my sister Aoife … she's a nurse in Cork": someone the user says who they are outlasts a rule
            # too, a taste said in passing ("she loves pistachio") does not
            known = _PERSON_JOB.search(" ".join(person.facts)) is not None
            priority = 7 if person.stored else 5.7 if working or known else 5.5
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
            person.introduced = person.introduced or part
            fact = _clean(part)
            if fact not in person.facts:
                person.facts.append(fact)
                person.at = msg.at
            return

    def _person_fact(self, sentence: str, person: _Person) -> str | None:
        if QUESTION.search(sentence) and not REQUEST.search(sentence):
            # "Geoff is vegetarian, is the tearoom any good for him?": the statement before the question is a
            # fact; the question is not
            sentence = _statement_before_question(sentence)
        if REQUEST.search(sentence) or QUESTION.search(sentence) or ASK_WORD.search(sentence) or not sentence:
            return None  # questions and requests are not facts about a person
        if JOKE.search(
            sentence
        ):  # "she's a nurse in Cork, very bossy haha": the joke's piece goes, the fact stays;
            # a laugh on its own ("他不爱看电影 哈哈") makes the whole sentence a passing remark
            if any(not norm_name(JOKE.sub("", sentence[a:b])) for a, b in _piece_spans(sentence)):
                return None
            sentence = _without_pieces(sentence, JOKE)
            if not sentence:
                return None
        # Clauses that are one-off, or a request to the assistant ("帮我留意下票"), are not about the person.
        if FOR_A_WHILE.search(sentence):
            return None  # "坐月子这段时间不能吃辣": for a while, not what the person is like
        kept = [c for c in clauses(sentence)
                if not (ONE_OFF.search(c) and not STANDING.search(c) and not _lasting_change(c))
                and not REQUEST_CLAUSE.search(c) and not ASK.search(c)]  # fmt: skip
        start = next(
            (i for i, c in enumerate(kept) if PERSON_DURABLE.search(c) or _PERSON_JOB.search(c)), None
        )
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

    def _topics(
        self,
        msgs: list[_Msg],
        stored: Sequence[Stored],
        finder: _TopicFinder,
        people: _PeopleFinder | None = None,
    ) -> list[Candidate]:
        """A stored topic's thread: from the user's message about it (or their "yes" to the assistant's
        "is this about <topic>?") through the user's later messages, until they switch subject, start
        a new project or name another topic. Its conclusions are the sentences that decide, change or
        state a value; chit-chat, questions, one-off plans and superseded values stay out."""
        topics = finder.topics
        people = people or _PeopleFinder(stored)
        self_texts = [f"{s.obj.summary} {s.obj.detail or ''}" for s in stored if s.obj.type == "self"]
        notes_kept = [s.obj for s in stored if s.obj.type == "saved"]
        notes: dict[str, _TopicNote] = {}
        thread: _TopicNote | None = None
        answers: set[int] = set()  # the user's answers to the assistant's follow-ups on the mention
        for pos, msg in enumerate(msgs):
            if not msg.user:
                continue
            if msg.dismissed:
                thread = None
                continue
            if msg.saved:
                continue  # what the user asked to remember is a saved note, not also a conclusion
            found = [(s, finder.find(s)) for s in sentences(msg.text)]
            named = [t for _, t in found if t is not None]
            confirmed = None if named or thread else self._confirmed_topic(msgs, pos, finder)
            opened = None
            if confirmed is not None:  # the message the assistant asked about opened the thread
                thread = notes.setdefault(confirmed.id, _TopicNote(confirmed))
                decided = any(_decides(s) for s in sentences(msgs[pos - 2].text))
                opened = "answer" if decided else "value"
                answers = self._answers(msgs, pos) if decided else set()
                for sentence in sentences(msgs[pos - 2].text):
                    self._topic_sentence(thread, sentence, opened)
            elif not named and thread is not None and _all_work_on(people.names_in(msg.text), thread.topic):
                continue  # "Felix 说他以后只能周末看 PR": a person of the project's own (their stored text names it)
                # is their news; the project's thread goes on after it
            elif (
                not named
                and thread is not None
                and (
                    (SWITCH.match(msg.text) and not _decides_more(msg.text, people))
                    or NEW_TOPIC.search(msg.text)
                    or people.starts_with_person(msg.text)
                    or (people.names_in(msg.text) and not _decides_more(msg.text, people))
                )
            ):
                thread = None  # another subject: a switch, a new project, a person
            if thread is None and not named:
                continue
            asked = pos > 0 and not msgs[pos - 1].user and QUESTION.search(msgs[pos - 1].text) is not None
            value_asked = asked and VALUE_ASK.search(_last_question(msgs[pos - 1].text)) is not None
            if asked and not named and thread is not None:
                # a: "正式版现在的目标上线时间是？" — u: "还是 2027 年 6 月": the answer is about the topic asked about
                asked_about = finder.find(_last_question(msgs[pos - 1].text))
                if asked_about is not None and asked_about is not thread.topic:
                    thread = notes.setdefault(asked_about.id, _TopicNote(asked_about))
            mode = opened or ("answer" if msg.index in answers else "value" if value_asked else "later")
            if thread is None:  # sentences before the first mention are about the topic it names
                thread = notes.setdefault(named[0].id, _TopicNote(named[0]))
                decided = any(_decides(s) for s, t in found if t is named[0])
                mode = "answer" if decided else "value"
            for sentence, topic in found:
                if topic is not None:
                    if topic is not thread.topic:
                        thread = notes.setdefault(topic.id, _TopicNote(topic))
                    # a sentence that decides about the topic opens the rest of the message and the
                    # user's answers to the assistant's follow-up questions
                    if _decides(sentence):
                        answers = self._answers(msgs, pos)
                    answering = mode == "answer" and topic is thread.topic
                    mode = "answer" if _decides(sentence) or mode == "answer" else "value"
                    # an answer to the assistant's follow-up stays one when it names the topic again
                    self._topic_sentence(thread, sentence, "answer" if answering else "mention")
                elif not _restates_self(sentence, self_texts) and not any(
                    _names_note(sentence, n) for n in notes_kept
                ):
                    self._topic_sentence(
                        thread, sentence, mode
                    )  # a stored note named again is the note's skip
            thread.status = thread.status or (_confirmed_status(msgs, [msg]) if asked else None)
            thread.at = msg.at
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

    def _answers(self, msgs: list[_Msg], pos: int) -> set[int]:
        return {m.index for m in self._follow_ups(msgs, pos, after_ack=TOPIC_FOLLOW_CUE)}

    def _confirmed_topic(self, msgs: list[_Msg], pos: int, finder: _TopicFinder) -> Stored | None:
        """u: "论文又要开始搞了" — a: "是那篇城市热岛的毕业论文吗？" — u: "对": the topic the user confirmed."""
        if pos < 2 or msgs[pos - 1].user or not msgs[pos - 2].user or not YES.match(msgs[pos].text):
            return None
        asked = _last_question(msgs[pos - 1].text)
        return finder.find_loose(asked) if asked else None

    def _topic_sentence(self, note: _TopicNote, sentence: str, mode: str) -> None:
        status = next((s for s, rx in STATUS.items() if rx.search(sentence)), None)
        if status and (note.status is None or _CORRECTION_START.match(sentence)):
            note.status = status  # the first status said stands, unless the user corrects it
        if (
            DISMISS.search(sentence)
            or JOKE.search(sentence)
            or REQUEST.search(sentence)
            or THIRD_PERSON_START.search(sentence)
            or _pronoun_fact_at(sentence)
            >= 0  # "oh and he's got a new number": the person's fact, not the topic's
        ):
            return
        if OPEN_QUESTION.search(sentence):
            question = _clean(_ACK_LEAD.sub("", _clean(sentence)))
            if len(norm_name(question)) >= 4 and question not in note.questions:
                note.questions.append(question)
            return
        if QUESTION.search(sentence) or ASKS.search(sentence):
            return
        if mode != "mention" and _own_rule(sentence):
            return  # "我还是用 Unity 6" / "以后这种事都提前一天提醒我": the user's self object, not the topic's
        text = _topic_conclusion(sentence, mode)
        if text is None:
            return
        if (
            _CORRECTION_START.match(sentence)
            and not UNCHANGED.search(sentence)
            and note.conclusions
            and _VALUE.search(text)
            and _VALUE.search(note.conclusions[-1])
        ):
            note.conclusions.pop()  # "actually make it April 30": the value just stated is superseded
        note.conclusions = [c for c in note.conclusions if not _same_setting_new_value(c, text)]
        if text not in note.conclusions:
            note.conclusions.append(text)

    def _new_topics(self, msgs: list[_Msg], topics: list[Stored]) -> list[Candidate]:
        out = []
        for pos, msg in enumerate(msgs):
            if not msg.user or msg.dismissed or not NEW_TOPIC.search(msg.text):
                continue
            follow = self._follow_ups(msgs, pos)
            # "开个学习计划" — a: "有名字吗？" — u: "就叫 SQL 补课 吧": the name given in the answer
            name = (
                _project_name(msg.text, loose=False)
                or next((n for m in follow[:1] if (n := _named(m.text)) is not None), None)
                or _project_name(msg.text)
            )
            if not name or any(norm_name(name) == norm_name(t.obj.name or "") for t in topics):
                continue
            parts = [s for s in sentences(msg.text)]
            texts = [_clean(_drop_clauses(s, HARD_ONE_OFF)) for s in parts]
            # answers to the assistant's questions about it count when they decide or carry a value
            # ("target is end of Q1", "billing-api first"), not "later, lunch now"
            texts += [t for m in follow for s in sentences(m.text)
                      if not QUESTION.search(s) and (t := _topic_conclusion(s, "value")) is not None]  # fmt: skip
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
        self, msgs: list[_Msg], stored: Sequence[Stored], candidates: list[Candidate], self_keys: set[str]
    ) -> list[Candidate]:
        # "the vet's number" restates "Vets": a possessive is the same word
        said = " ".join(m.text for m in msgs if m.user)
        user_text = normalize(re.sub(r"['’]s(?![A-Za-z])", "s", said))
        user_pairs = han_ngrams(user_text)
        taken = {(c.obj.type, norm_name(c.obj.label)) for c in candidates}
        unchanged = [m.text for m in msgs if m.user and _marks_unchanged(m.text)]
        out = []
        for item in stored:
            if item.obj.type not in ("self", "saved") or (item.obj.type, norm_name(item.obj.label)) in taken:
                continue
            tokens = [
                t for t in salient_tokens(f"{item.obj.summary} {item.obj.detail or ''}") if not t.isdigit()
            ]
            # "Europe/Lisbon" is said as "Lisbon time": a zone's city names it
            tokens += [
                t.rsplit("/", 1)[1].replace("_", " ") for t in tokens if "/" in t and not t[0].isdigit()
            ]
            if tokens:
                restated = any(_word_in(normalize(t), user_text) for t in tokens)
            elif not has_cjk(item.obj.summary):  # "still vegetarian, as usual" for "vegetarian"
                restated = contains_stored(user_text, item.obj.summary)
            else:  # Chinese without identifiers: most of the stored value's character pairs said again
                pairs = han_ngrams(norm_name(item.obj.summary).replace("用户", " "))
                hits = len(pairs & user_pairs)
                restated = hits >= 3 and hits * 2 >= len(pairs)
            restated = restated or any(_repeats_stored(text, item.obj.summary) for text in unchanged)
            restated = restated or _names_note(said, item.obj)
            restated = restated or (item.obj.type == "self" and item.obj.key in self_keys)
            if restated:
                out.append(
                    Candidate(obj=MemoryObject(**item.obj.__dict__), reason="restated, already stored")
                )
        return out


# A rule for how the user treats others ("以后给客户报价一律按含税价", "quotes to clients always include VAT").
_FOR_OTHERS = _rx(
    _en("to (?:clients|customers|students|guests)", "for (?:clients|customers|students|guests)"),
    "给(?:客户|顾客|学生|客人|他们|她们)",
)


# "总价 = 字数 / 1000 × 千字单价", "price = cost x 2.5 + shipping": a formula, whatever words it uses (an "x"
# or "/" counts only between spaces or digits: "= https://…" and "= Max" are no formulas)
_FORMULA = re.compile(r"[=＝]\s*[^=，,。]{0,40}?(?:[×*÷+]|\s[x/]\s|\d\s*/\s*\d)\s*[\w(（]")


def _saved_or_self(candidates: list[Candidate]) -> list[Candidate]:
    """A note the user asked to remember that is also a self value is one or the other: a stable fact about
    the user is their self object; a rule for how they treat others (clients, customers) stays a note, and
    so does a formula ("字数" in it is no reply length)."""

    def same(a: Candidate, b: Candidate) -> bool:
        x, y = norm_name(a.obj.summary), norm_name(b.obj.summary)
        return bool(x and y) and (x in y or y in x)

    notes = [c for c in candidates if c.obj.type == "saved"]
    selves = [c for c in candidates if c.obj.type == "self"]
    dropped: set[int] = set()
    for note in notes:
        twins = [s for s in selves if same(note, s)]
        if not twins:
            continue
        if (_FOR_OTHERS.search(note.obj.summary) or _FORMULA.search(note.obj.summary)) and all(
            SELF_KEYS[s.obj.key or ""] != "identity" for s in twins
        ):
            dropped.update(id(s) for s in twins)
        else:
            dropped.add(id(note))
    return [c for c in candidates if id(c) not in dropped]


def _names_note(said: str, obj: MemoryObject) -> bool:
    """ "路由器后台密码规则还是那个", "the wifi note still holds": the user names a stored note by its title."""
    title = norm_name(obj.title or "") if obj.type == "saved" else ""
    return len(title) >= 4 and title in norm_name(said)


def _all_work_on(named: list[tuple[str, Stored | None, str | None]], topic: Stored) -> bool:
    """Every person named is stored with the topic's name in their summary or facts ("lumen-cli 的另一个
    maintainer"): they belong to that project."""
    name = norm_name(topic.obj.name or "")
    if not named or not name:
        return False
    return all(
        stored is not None
        and name in norm_name(" ".join([stored.obj.summary, stored.obj.detail or "", *stored.obj.facts]))
        for _, stored, _ in named
    )


# The assistant asking for one of the user's identity facts ("做什么工作呀？", "where are you based?").
_ASKS_FOR: dict[str, re.Pattern[str]] = {
    "occupation": _rx(
        _en(r"what do you do(?: for (?:a living|work))?", r"what(?:'s| is) your (?:job|work|line of work)",
            "where do you work", "what (?:kind of )?work do you"),
        "做什么工作|什么工作|做哪行|哪个行业|干什么的|做什么的|从事什么|在哪(?:里|儿)?(?:上班|工作)|在哪高就",
    ),
    "city": _rx(
        _en("where do you live", "where are you based", "which city", "where(?:'s| is) home"),
        "住(?:在)?哪|哪个城市|在哪(?:里|儿)?(?:住|生活)",  # not 哪里人: where one is from
    ),
}  # fmt: skip


def _asked_key(msgs: list[_Msg], pos: int) -> str | None:
    """The identity key the assistant's question right before msgs[pos] asks the user for ("她做什么工作？"
    asks about someone else)."""
    asked = _assistant_question(msgs, pos)
    if not asked or _THIRD_PERSON_WORD.search(asked):
        return None
    return next((key for key, rx in _ASKS_FOR.items() if rx.search(asked)), None)


def _assistant_question(msgs: list[_Msg], pos: int) -> str:
    prev = msgs[pos - 1] if pos else None
    return _last_question(prev.text) if prev is not None and not prev.user else ""


_THIRD_PERSON_WORD = _rx(r"(?<![A-Za-z])(?:he|she|his|her|him|they|their|them)(?![A-Za-z'])", "他|她")
# "got a job at …", "明年 7 月入职": a clause that drops its subject keeps the one before it
_NO_SUBJECT = _rx(
    r"^\s*(?:got|moved|moving|started|starting|works?|working|lives?|living|is|was|has|had)(?![A-Za-z])",
    r"^\s*(?:对|是的?|嗯)?[，,\s]*(?!我)[^，。]{0,8}(?:入职|上班|工作|搬|调)",
)


_JOB_MENTION = _rx(_en("(?:my |the )?new job", "job change"), "新工作|换工作|换了工作")
_JOB_NAMED = _rx(
    rf"(?<![A-Za-z])(?:at|for|with|as|in) |(?<![A-Za-z])(?:{_ROLES_EN}|{_JOB_BY_ENDING})s?(?![a-z])",
    rf"在|去|进|到|做|当|{_ROLES_ZH}",
)


def _says_what_job(value: str) -> bool:
    """An occupation value says what the work is (an employer, a role, a field); "新工作稳定下来了 想把 X
    捡起来" only mentions that there is a new job."""
    if not _JOB_MENTION.search(value):
        return True
    rest = _JOB_MENTION.sub(" ", value)
    return bool(_JOB_NAMED.search(rest) or [t for t in salient_tokens(rest) if not t.isdigit()])


def _continues_someone_else(msgs: list[_Msg], pos: int, earlier: str, sentence: str) -> bool:
    """A sentence with no subject of its own that goes on about another person: the sentence before it in
    the message opens on "she"/"他", or it answers the assistant's question about him or her ("恭喜她！是明年
    入职吗？" — "对，明年 7 月入职")."""
    if FIRST_PERSON.search(sentence) or QUESTION.search(sentence) or not _NO_SUBJECT.search(sentence):
        return False  # ("is the cake ready?" asks; it tells nothing about her)
    if earlier:
        return THIRD_PERSON_START.search(earlier) is not None or _pronoun_fact_at(earlier) >= 0
    prev = msgs[pos - 1] if pos else None
    return (
        bool(_assistant_question(msgs, pos))
        and prev is not None
        and bool(_THIRD_PERSON_WORD.search(prev.text))
    )


def _plain_answer(text: str, people: _PeopleFinder) -> bool:
    """A short statement about the speaker: no question, no other person, no one-off day."""
    return (
        len(text) <= 60
        and len(norm_name(text)) >= 2
        and not QUESTION.search(text)
        and not THIRD_PERSON_START.search(text)
        and not THIRD_PARTY.search(text)
        and not people.names_in(text)
        and not people.new_person(text)
        and not ONE_OFF_DAY.search(text)
        and not ACK.match(text)
    )


def _introduced_place(
    msgs: list[_Msg],
    pos: int,
    part: str,
    values: dict[str, list[tuple[str, str | None]]],
    hits: list[tuple[str, str]],
) -> bool:
    """ "在西安" is the user's city when they are introducing themselves (their name is said) and either
    the assistant's reply names the place again ("西安好地方") or the same sentence gives another fact of
    who they are ("在成都，做自由翻译"); "在开会" is a doing, not a place."""
    found = _BARE_PLACE.search(part)
    if found is None or not values.get("name"):
        return False
    reply = msgs[pos + 1].text if pos + 1 < len(msgs) and not msgs[pos + 1].user else ""
    beside = any(key != "city" and SELF_KEYS[key] == "identity" for key, _ in hits)
    return beside or found.group("place") in reply


def _goes_on_with_rule(msg: _Msg, people: _PeopleFinder) -> bool:
    """A short plain statement, not a new subject: no acknowledgement, one-off, other person, switch or note
    to keep ("今天又忘带伞", "also new sponsor…" start something else)."""
    text = msg.text
    return (
        _plain_answer(text, people)
        and not _ACK_LEAD.match(
            text
        )  # "ok now. the tokenizer test…": an acknowledgement closes the correction
        and not ONE_OFF.search(text)
        and not SWITCH.match(text)
        and not REMEMBER.search(text)
        and not msg.saved
        and len(sentences(text)) <= 2
    )


# The user changes their mind ("其实一个也行", "actually one is fine"): the new rule replaces the old.
_SECOND_THOUGHT = _rx(CORRECTION.pattern, "其实|想了想")

# The assistant's reply opens by taking something on ("明白：…", "Got it: …"), not by asking or answering.
_TAKES_ON = _rx(
    r"^\s*(?:got it|understood|noted|ok(?:ay)?|sure|will do|of course)\b",
    r"^\s*(?:明白|好的|好|收到|了解|没问题|可以)(?=[\s，,：:。！!]|$)",
)


def _echoed_key(
    msgs: list[_Msg],
    pos: int,
    values: dict[str, list[tuple[str, str | None]]],
    said_in: dict[str, int],
    mentioned_in: dict[str, int],
    people: _PeopleFinder,
) -> str | None:
    """The style or preference key a keyless user message goes on with, read from the assistant's reply:
    the user set the rule (or came back to it) within their last three messages, and the reply takes the
    message on in the rule's own words ("其实一个也行 结尾放一个可以" — "明白：最多在结尾放一个 emoji")."""
    msg = msgs[pos]
    if pos + 1 >= len(msgs) or msgs[pos + 1].user:
        return None
    reply = msgs[pos + 1].text
    if (
        not _TAKES_ON.match(reply)
        or len(norm_name(_clean(msg.text))) < 4
        or not _plain_answer(msg.text, people)  # (no question, one-off day or acknowledgement)
        or REMEMBER.search(msg.text)
    ):
        return None
    echoed = [
        key
        for key, items in values.items()
        if items
        and SELF_KEYS[key] != "identity"
        and SELF_RULES[key][0].search(reply)
        and _user_turns_between(msgs, max(said_in.get(key, -1), mentioned_in.get(key, -1)), msg.index) <= 3
    ]
    return max(echoed, key=lambda k: max(said_in.get(k, -1), mentioned_in.get(k, -1))) if echoed else None


def _go_on_with(
    msgs: list[_Msg],
    pos: int,
    key: str,
    values: dict[str, list[tuple[str, str | None]]],
    said_in: dict[str, int],
    mentioned_in: dict[str, int],
    corrected: dict[str, int],
) -> None:
    """The user's message changes the rule (a change of mind, or the rule reopened just before) or goes on
    with it."""
    msg = msgs[pos]
    value = _clean(_CORRECTION_START.sub("", msg.text)).lstrip("….")
    if _SECOND_THOUGHT.search(msg.text[:16]) or _reopens(msgs, pos, key, said_in, mentioned_in):
        values[key] = [(value, msg.at)]
        corrected[key] = pos
    else:
        _add_to_rule(values, key, value, msg.at)
    said_in[key] = msg.index


def _add_to_rule(
    values: dict[str, list[tuple[str, str | None]]], key: str, text: str, at: str | None
) -> None:
    """The key's last value goes on with ``text`` (one rule, said over two messages)."""
    old = values[key][-1][0]
    joiner = "；" if has_cjk(old) else "; "
    values[key][-1] = (f"{old}{joiner}{text}", at)


def _reopens(
    msgs: list[_Msg], pos: int, key: str, said_in: dict[str, int], mentioned_in: dict[str, int]
) -> bool:
    """The user's message just before named the key again without a rule ("刚才那个 emoji 的事我想了下"):
    the rule that follows replaces the old one."""
    return mentioned_in.get(key, -1) > said_in.get(key, -1) and mentioned_in.get(key) == _prev_user_index(
        msgs, pos
    )


def _continued_correction(msgs: list[_Msg], pos: int, corrected: dict[str, int]) -> str | None:
    """The key the user corrected in their message just before msgs[pos] (at most the assistant's reply
    between): this message goes on with the new rule."""
    last = _prev_user_index(msgs, pos)
    return next((key for key, at in corrected.items() if msgs[at].index == last), None)


def _same_as_stored(msgs: list[_Msg], pos: int, sentence: str, stored: str) -> bool:
    """A stored self value said again, not changed: the user marks it as the same ("keep answers short
    like usual", "时区一样"), or the assistant's reply says it holds ("一直是这么叫的") or repeats the
    stored value ("好的，00:00–07:30 不发消息")."""
    if QUESTION.search(sentence):
        return False
    marked = bool(SAME_AGAIN.search(sentence) or UNCHANGED.search(sentence))
    rest = UNCHANGED.sub(" ", SAME_AGAIN.sub(" ", sentence))  # "跟之前一样" names the past to say it holds
    if CHANGED.search(rest):
        return False
    if marked and not LASTING.search(rest):
        return True  # (not "以后技术问题用英文，其他的照旧中文": a new rule beside the old one)
    reply = msgs[pos + 1].text if pos + 1 < len(msgs) and not msgs[pos + 1].user else ""
    if not reply or CHANGED.search(reply):
        return False
    if SAME_IN_REPLY.search(reply):
        return True
    tokens = [normalize(t) for t in salient_tokens(stored) if any(ch.isdigit() for ch in t)]
    return bool(tokens) and all(t in normalize(reply) for t in tokens)


def _says_again(text: str, stored: str) -> bool:
    """ "quiet coach as always" for "always books a quiet coach", "还是老规矩 小写开头" for "…英文小写开头": the user
    marks a value as unchanged and says two of the stored value's words (or character pairs) again."""
    return _marks_unchanged(text) and _repeats_stored(text, stored)


def _marks_unchanged(text: str) -> bool:
    """The text says a value stays as it was ("as always", "还是老规矩"), without asking or setting a new rule."""
    if not RESTATE.search(text) or QUESTION.search(text):
        return False
    rest = RESTATE.sub(" ", text)
    # "以后技术问题用英文，其他的照旧中文" sets a new rule beside the old one
    return not (LASTING.search(rest) or CHANGED.search(rest))


def _repeats_stored(text: str, stored: str) -> bool:
    """Two of the stored value's words (or character pairs) said again in the text."""
    said, kept = normalize(text), normalize(stored)
    words = {w for w in re.findall(r"[a-z]{4,}", kept) if w not in ("user", "always", "still")}
    if sum(_word_in(w, said) for w in words) >= 2:
        return True
    return len(han_ngrams(norm_name(stored).replace("用户", " ")) & han_ngrams(norm_name(text))) >= 2


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
        # the same sentence is asked about by the self, people and topic rules: look once
        self._hits_of: dict[str, list[tuple[int, str, Stored | None, str | None]]] = {}
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
        # "用户的妻子" / "The user's wife": the kin the stored summary names, when only one person has it
        kins: dict[str, list[str]] = {}
        for person in self.people:
            kin = _summary_kin(person.obj.summary)
            if kin:
                kins.setdefault(kin, []).append(person.id)
        self.by_kin = {ids[0]: kin for kin, ids in kins.items() if len(ids) == 1}
        # "用户的妻子，大家叫她丽丽": a name the stored text says the person goes by
        self.called = {p.id: _called_names(f"{p.obj.summary} {p.obj.detail or ''}") for p in self.people}

    def names_in(self, text: str) -> list[tuple[str, Stored | None, str | None]]:
        """(stored name, stored object, the variant used or None), in order of appearance."""
        cached = self._hits_of.get(text)
        if cached is None:
            cached = self._hits_of[text] = self._find_names(text)
        self._last_hits = cached
        return [(name, stored, variant) for _, name, stored, variant in cached]

    def _find_names(self, text: str) -> list[tuple[int, str, Stored | None, str | None]]:
        hits: list[tuple[int, str, Stored | None, str | None]] = []
        folded = text.casefold()
        for person in self.people:
            kin = _kin_at(text, person.obj.name or "")
            if kin < 0 and person.id in self.by_role:
                kin = _role_at(text, person.obj.relation or "")
            if kin < 0 and person.id in self.by_kin:
                kin = _kin_word_at(text, self.by_kin[person.id])
            if kin >= 0:  # 我妈 / 老妈 for 妈妈, "my mum" for Mom, "my husband" for the one stored as husband
                hits.append((kin, person.obj.name or "", person, None))
                continue
            for name in [person.obj.name or "", *person.obj.aliases]:
                at = folded.find(name.casefold()) if name else -1
                if at >= 0 and _is_word_at(text, at, len(name)):
                    hits.append((at, person.obj.name or "", person, None))
                    break
            else:
                called = next((n for n in self.called.get(person.id, []) if n in text), None)
                variant = called or self._variant(text, person.obj.name or "")
                if variant:
                    hits.append((text.find(variant), person.obj.name or "", person, variant))
        hits.sort(key=lambda h: h[0])
        return hits

    def starts_with_person(self, text: str) -> bool:
        """The text is about a person: it opens with a stored person's name (or another form of it)."""
        self.names_in(text)
        lead = len(text) - len(text.lstrip())
        return any(at - lead <= 1 for at, *_ in self._last_hits)

    def _variant(self, text: str, name: str) -> str | None:
        if has_cjk(name):
            given = _given_name(name)
            if (
                given
                and any(  # 李雨桐 is not 周雨桐: a surname of their own makes another person
                    at == 0
                    or text[at - 1] == name[0]
                    or text[at - 1] not in _SURNAMES
                    or text[max(0, at - 2) : at] in _WORDS_ENDING_IN_A_SURNAME
                    for at in (m.start() for m in re.finditer(re.escape(given), text))
                )
            ):
                return given  # 雨桐 for 周雨桐: the given name alone is how family and friends say it
            for size in range(max(2, len(name) - 2), len(name) + 3):
                for start in range(len(text) - size + 1):
                    piece = text[start : start + size]
                    if name[0] in piece[:2] and has_cjk(piece) and piece != name and near_name(piece, name):
                        return piece
            return None
        first = normalize(name).split()[0] if normalize(name).split() else ""
        for match in re.finditer(r"(?<![A-Za-z])[A-Za-z][a-z]{2,}(?![A-Za-z])", text):
            word = match.group(0)
            if word[0].islower() and not _LOWER_NAME_CONTEXT.match(text, match.end()):
                continue  # chat is often lowercase ("ben's taking over"), but a lowercase word is a name
                # only where a subject stands: before 's, "and I", or a verb
            if _other_surname(text, match.end(), name):
                continue  # "Daniel Park" is not "Daniel Ho": a surname of their own makes another person
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
        match = NEW_PERSON_AFFILIATED.search(sentence)
        if (
            match
            and match.group(1).casefold() not in NAME_STOP
            and PERSON_DURABLE.search(sentence[match.end() :])
        ):
            return match.group(
                1
            ), "contact"  # "my flour comes from Priya at Northmill, she only answers email"
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
        match = NEW_PERSON_ZH_CALLED.search(sentence)
        if match and match.group(2).casefold() not in NAME_STOP:
            return match.group(2), ROLE_WORDS.get(match.group(1), match.group(1))
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
            if _PERSON_TRAIT.match(sentence, match.start(2)):
                return name, "contact"  # "Dana is vegan, strictly": a person's diet or condition is theirs
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
        # the other topics' names, where a Chinese name part must not be only a part of theirs
        self.others = {
            s.id: " ".join(norm_name(t.obj.name or "") for t in self.topics if t is not s)
            for s in self.topics
        }
        self.questions = [(s, [_Asked.of(q) for q in s.obj.open_questions]) for s in self.topics]

    def find(self, sentence: str) -> Stored | None:
        if not self.topics:
            return None
        return _mentioned_topic(
            sentence, self.topics, self.tokens, self.shared, self.others
        ) or self._answered(sentence)

    def _answered(self, sentence: str) -> Stored | None:
        """A sentence that answers one stored topic's open question ("Mermaid 那个决定了 不支持" for "要不要支持
        Mermaid", "min order for cafés is 2kg" for "Minimum order size?") is about that topic, named or not."""
        if QUESTION.search(sentence) or ASKS.search(sentence):
            return None  # asking again answers nothing
        hits = [t for t, asked in self.questions if any(_answers(sentence, q) for q in asked)]
        return hits[0] if len(hits) == 1 else None

    def find_loose(self, text: str) -> Stored | None:
        """The assistant's paraphrase of a stored Chinese name ("城市热岛的毕业论文" for 城市热岛毕业论文):
        most of the name's character pairs, in a question that asks which topic the user means."""
        found = self.find(text)
        if found is not None:
            return found
        pairs = han_ngrams(norm_name(text))
        best = max(
            ((len(han_ngrams(norm_name(t.obj.name or "")) & pairs) / max(1, len(han_ngrams(norm_name(t.obj.name or "")))), t)
             for t in self.topics if len(han_ngrams(norm_name(t.obj.name or ""))) >= 3),
            key=lambda item: item[0], default=(0.0, None),
        )  # fmt: skip
        return best[1] if best[0] >= 0.7 else None


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


_LOWER_NAME_CONTEXT = re.compile(
    r"['’]s\s|\s+and (?:i|me)\b|\s+(?:is|was|has|had|says|said|will|can|can't|won't|does|doesn't|did|didn't|"
    r"takes|took|wants|asked|told|thinks|likes|hates|moved|joined|started|got|came|comes)\b"
)


_NEXT_WORD = re.compile(r" ([A-Z][a-z]+)(?![A-Za-z'])")


def _other_surname(text: str, end: int, name: str) -> bool:
    """The first name at ``text[:end]`` is followed by a surname that is not the stored person's."""
    match = _NEXT_WORD.match(text, end)
    if not match or match.group(1).casefold() in NAME_STOP:
        return False
    words = normalize(name).split()
    return len(words) >= 2 and match.group(1).casefold() != words[-1]


# Words whose last character is also a surname: "关于雨桐" is about 雨桐, not a 于雨桐.
_WORDS_ENDING_IN_A_SURNAME = frozenset(
    {"关于", "对于", "由于", "至于", "等于", "属于", "一向", "方向", "走向", "提高"}
)


def _given_name(name: str) -> str | None:
    """周雨桐 → 雨桐: a three-character Chinese name with a common surname; its last two characters."""
    return name[1:] if len(name) == 3 and has_cjk(name) and name[0] in _SURNAMES else None


def _pet_form(word: str, first: str) -> bool:
    """ "jenny" for "jennifer", "katie" for "katherine", "danny" for "daniel": a stem plus -y/-ie."""
    stem = re.sub(r"(?:ie|y)$", "", word)
    if stem == word or len(stem) < 3 or first == word:
        return False
    if near_name(stem, first):  # "billy" → "bill", a known short form of "william"
        return True
    if len(stem) >= 4 and stem[-1] == stem[-2] and not first.startswith(stem):
        stem = stem[:-1]
    if near_name(stem, first):  # "lizzie" → "liz", a known short form of "elizabeth"
        return True
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


# a clause that asks, though it has no mark of its own ("is the tearoom any good", "是不是还在")
_ASKING_CLAUSE = _rx(
    r"^\s*(?:is|are|does|do|did|can|could|will|would|should|has|have|was|were|any)\s",
    "^\\s*(?:是不是|有没有|能不能|要不要)|吗|呢",
)


def _statement_before_question(sentence: str) -> str:
    """The clauses before the first one that asks, when each states something; else ""."""
    parts = clauses(sentence)
    kept: list[str] = []
    for part in parts:
        if QUESTION.search(part) or _ASKING_CLAUSE.search(part) or ASKS.search(part):
            break
        kept.append(part)
    if not kept or len(kept) == len(parts):
        return ""
    return ("" if has_cjk(sentence) else " ").join(kept).rstrip("，, ")


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


# The same kin said in different words (妻子 / 老婆 / 媳妇 / my wife): general language, one group a line.
_KIN_FORMS = {
    "wife": ("妻子", "老婆", "媳妇", "太太", "爱人", "wife"),
    "husband": ("丈夫", "老公", "先生", "爱人", "husband"),
    "daughter": ("女儿", "闺女", "daughter"),
    "son": ("儿子", "son"),
    "mother": ("母亲", "妈妈", "老妈", "我妈", "mum", "mom", "mother"),
    "father": ("父亲", "爸爸", "老爸", "我爸", "dad", "father"),
    "sister": ("姐姐", "妹妹", "sister"),
    "brother": ("哥哥", "弟弟", "brother"),
}
_SUMMARY_KIN = re.compile(
    r"(?:用户的|user's|my)\s*(?:(?:younger|older|little|big|elder)\s+)?([" + HAN + r"]{2}|[a-z]+)", _I
)


def _summary_kin(summary: str) -> str | None:
    """The kin a stored person's summary opens with ("用户的妻子…", "The user's younger sister" → sister)."""
    for match in _SUMMARY_KIN.finditer(summary[:40]):
        word = match.group(1).casefold()
        for kin, forms in _KIN_FORMS.items():
            if word in forms:
                return kin
    return None


def _kin_word_at(text: str, kin: str) -> int:
    """Where the user names that kin of theirs (我老婆, 我媳妇, "my wife"), or -1."""
    spots = []
    for form in _KIN_FORMS[kin]:
        if form.isascii():
            match = re.search(r"(?<![A-Za-z])(?:my|our) (?:[a-z]+ )?" + form + r"(?![A-Za-z])", text, _I)
        else:
            match = re.search(("" if form.startswith(("我", "老")) else "我的?") + form, text)
        if match:
            spots.append(match.start())
    return min(spots, default=-1)


_CALLED = re.compile(
    r"(?:叫她|叫他|称呼她|称呼他|小名|昵称|外号|也叫)(?:是|叫)?\s*([" + HAN + r"]{2,3}|[A-Z][a-z]+)"
    r"|(?<![A-Za-z])(?:called|goes by|nicknamed|aka|known as)\s+[\"“']?([A-Z][a-z]+)",
)


def _called_names(text: str) -> list[str]:
    """The names a stored person's summary says they go by ("大家叫她丽丽", "goes by Sasha")."""
    return [m.group(1) or m.group(2) for m in _CALLED.finditer(text)]


_AHEAD = _rx(_en("tomorrow", "tonight", "later", r"next \w+"), "明天|今晚|后天|下周|待会|一会儿")


def _lasting_change(clause: str) -> bool:
    """A clause about a person that outlives the day it names: a preference or condition ("hates pings
    after 6pm"), or a change that already happened ("started at the new school this week"), not a plan
    for later or an appointment at a clock time."""
    if PERSON_LASTING.search(clause):
        return True
    return (
        bool(PERSON_DURABLE.search(clause)) and not HARD_ONE_OFF.search(clause) and not _AHEAD.search(clause)
    )


_SOMEONE_ELSE = re.compile(
    rf"(?<![A-Za-z])(?:her|his|their)\s+(?:[a-z]+\s+)?(?:{_PERSON_ROLES_EN}|boyfriend|girlfriend|fianc[eé]e?|kids?|children)"
    rf"(?![A-Za-z])|[他她]的?(?:{_ROLES_ZH_PEOPLE}|男朋友|女朋友|对象|老公|老婆|孩子|儿子|女儿)",
    _I,
)


_PICK = _rx(
    r"^\s*(?:那|就|嗯)?\s*([^，,。！!？?\s]{2,8}?)(?:吧|好了|就行)(?=[\s，,。!！]|$)",
    r"^\s*(?:ok(?:ay)?|yeah|yes|sure)?[,\s]*(?:let's (?:do|go with|book|get)|go with|book)\s+(?:the\s+)?([\w'&-]{3,20}(?:\s[\w'&-]+)?)",
    r"^\s*(?:ok(?:ay)?|yeah|yes|sure)?[,\s]*(?:the\s+)?([\w'&-]{3,20}) (?:then|it is|please)\b",
)


def _picks_offer(sentence: str, offered: str) -> bool:
    """ "大牌档吧 他爱吃盐水鸭", "Dishoom then, she loves curry": the user picks one of the options the assistant
    just offered; what they add about a person is the reason for a one-off choice, not a fact to keep."""
    match = _PICK.match(sentence)
    picked = next((g for g in match.groups() if g), "") if match else ""
    return bool(picked and offered and normalize(picked) in normalize(offered))


def _person_answer(sentence: str) -> str | None:
    """What an answer about a person adds: a durable clause or a proper name or number (where they work,
    their new role), never a one-off, a payment, a joke or a question."""
    text = _clean(_ACK_LEAD.sub("", sentence))
    if (
        len(norm_name(text)) < 4
        or QUESTION.search(text)
        or ASKS.search(text)
        or JOKE.search(text)
        or _pays(text)
        or ONE_OFF.search(text)
        or HARD_ONE_OFF.search(text)
        or FIRST_PERSON.search(text)  # "I'll help her move" is the user's plan
        or _SOMEONE_ELSE.search(text)  # "her boyfriend Callum eats anything" is about him
        or FOR_A_WHILE.search(text)  # "25mg twice a day, for 10 days" is a course, not what they are like
    ):
        return None
    return text if PERSON_DURABLE.search(text) or salient_tokens(text) else None


def _is_ack(sentence: str) -> bool:
    """A short yes / "that's him" ("是他", "yes that's her"): confirms, adds nothing."""
    rest = _ACK_LEAD.sub("", sentence)
    return (
        bool(ACK.match(sentence))
        or len(norm_name(re.sub(r"[是他她对的就]|that'?s|him|her|it", "", rest))) <= 1
    )


def _is_word_at(text: str, at: int, size: int) -> bool:
    before = text[at - 1] if at > 0 else " "
    after = text[at + size] if at + size < len(text) else " "
    return not (before.isascii() and before.isalpha()) and not (after.isascii() and after.isalpha())


def _topic_tokens(name: str) -> list[str]:
    return [t for t in re.findall(r"[A-Za-z0-9]+|[" + HAN + r"]+", name.casefold())]


def _mentioned_topic(
    sentence: str,
    topics: list[Stored],
    tokens: dict[str, list[str]],
    shared: dict[str, int],
    others_of: dict[str, str],
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
            others = others_of[topic.id]
            present = [t for t in toks if (t in words if t.isascii() else _cjk_in(t, compact, others))]
            distinctive = [t for t in present if shared.get(t, 0) == 1 and t not in TOPIC_GENERIC
                           and (len(t) >= 4 or _acronym_in(t, topic.obj.name or "", sentence) or _short_head(t, toks)
                                if t.isascii() else True)]  # fmt: skip
            score = 0.0
            if distinctive:
                score = 2.0 + len(distinctive)
            elif len(present) >= 2 and len(present) * 2 >= len(toks):
                score = 1.0 + len(present)
        if score and (best is None or score > best[0]):
            best = (score, topic)
    return best[1] if best else None


_QUESTION_STOP = frozenset({
    "the", "and", "for", "with", "what", "which", "when", "where", "how", "should", "would", "could", "will", "can",
    "does", "did", "not", "yet", "any", "size", "whether", "from", "into", "about",
})  # fmt: skip


@dataclass(frozen=True)
class _Asked:
    """What :func:`_answers` looks for of one open question, read off it once."""

    names: list[str]  # its identifiers, normalized
    words: set[str]  # its content words
    pairs: frozenset[str]  # its Chinese character pairs

    @classmethod
    def of(cls, question: str) -> _Asked:
        names = [normalize(t) for t in salient_tokens(question) if not t.isdigit() and len(t) >= 3]
        words = {w for w in re.findall(r"[a-z]{3,}", normalize(question)) if w not in _QUESTION_STOP}
        return cls(names, words, han_ngrams(norm_name(question)))


def _answers(sentence: str, question: _Asked) -> bool:
    """``sentence`` (no question: the caller tests that) takes up ``question``: it shares the question's
    identifier (Mermaid, v2), two of its content words (a shortened word counts: "min" for "minimum"), or
    three of its Chinese character pairs (two, when that is half the question's)."""
    folded = normalize(sentence)
    if any(_word_in(t, folded) for t in question.names):
        return True
    said = {w for w in re.findall(r"[a-z]{3,}", folded) if w not in _QUESTION_STOP}
    shared = {a for a in question.words if any(a.startswith(w) or w.startswith(a) for w in said)}
    if len(shared) >= 2:
        return True
    shared_pairs = len(question.pairs & han_ngrams(norm_name(sentence)))
    # one three-character word (服务器) is not enough in a long question; most of a short one is
    return shared_pairs >= 3 or (shared_pairs >= 2 and 2 * shared_pairs >= len(question.pairs))


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


def _cjk_in(token: str, compact: str, others: str = "") -> bool:
    """A Chinese name part, or most of it (记账 for 家庭记账, 订单服务 for 订单服务拆分); of a long run-together
    name (栖光小红书账号) three characters no other topic's name has are enough (小红书那个号)."""
    if len(token) <= 3:
        return token in compact
    size = max(2, len(token) - 2) if len(token) <= 6 else 3
    return any(
        token[i : i + size] in compact and token[i : i + size] not in others
        for i in range(len(token) - size + 1)
    )


# Short words that often head a project's name without naming it ("big move", "new site").
_COMMON_SHORT = frozenset({
    "the", "new", "big", "old", "app", "web", "all", "one", "two", "top", "bad", "low", "raw", "hot", "our", "my",
    "his", "her", "its", "day", "set",
})  # fmt: skip


def _short_head(token: str, tokens: list[str]) -> bool:
    """ "dbt" of "dbt migration": a three-letter first word of a longer name is the name's own word."""
    return len(token) == 3 and len(tokens) >= 2 and tokens[0] == token and token not in _COMMON_SHORT


_NAME_AFTER = re.compile(
    r"(?:called|named|叫做?|名字是|名叫|名为|project[:：]|项目[:：])\s*[「“\"']?"
    # "就叫 SQL 补课 吧": a Latin name may go on in Chinese
    r"([A-Za-z0-9][\w.\-]*(?: [A-Z][\w\-]*| [" + HAN + r"]{2,6}(?=\s|$|[，。,.吧]))*|[" + HAN + r"]{2,8})"
)
_QUOTED = re.compile(r"[「“\"']([^」”\"']{2,40})[」”\"']")
_TITLE_CASE = re.compile(
    r"\bthe ([A-Z][\w\-]*(?: (?:[A-Z][\w\-]*|\d+[A-Za-z]?)){0,3}(?: [a-z]{3,}(?=\s*[:：,，.;—]))?)"
)  # a head noun that closes the phrase is part of the name


_IDENTIFIER_NAME = re.compile(
    r"(?<![\w/.-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+|[A-Z][a-z]+[A-Z][A-Za-z]+)(?![\w/.-])"
)


# "the big project right now is Halden wholesale." / "next thing is the vault-rollout, …": the name the
# user gives after "project is", up to the end of the clause.
_NAME_IS = re.compile(
    r"(?:project|thing)(?: right now| now| at the moment)? is (?:the |a |an |my |our )?"
    r"([A-Za-z][\w.-]*(?: [\w.-]+){0,2}?)(?=\s*[.,;:!?，。；：]|$)"
)


def _named(text: str) -> str | None:
    """The name a message gives with "called / 叫 …" ("就叫 SQL 补课 吧", "call it Larkspur")."""
    match = _NAME_AFTER.search(text) or re.search(
        r"(?<![A-Za-z])(?:call|name) it ([A-Z][\w.\-]*(?: [A-Z][\w\-]*)*)", text
    )
    name = match.group(1).strip(" ,.，。") if match else ""
    return name if name and name.casefold() not in NAME_STOP else None


def _project_name(text: str, *, loose: bool = True) -> str | None:
    """The name the user gives a project; ``loose`` also takes a capitalised phrase or a hyphenated word."""
    for rx in (_NAME_AFTER, _QUOTED, _NAME_IS, *((_TITLE_CASE, _IDENTIFIER_NAME) if loose else ())):
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


# "这个规则：", "the rule:": a short label and its colon right after the cue
_LABEL_COLON = re.compile(r"\s*[^，,。.!！?？:：;；]{1,12}[:：]\s*\S")
# a cue whose own last word points back at what was just said ("remember that", "note that down")
_BACK_CUE = re.compile(r"(?<![A-Za-z])(?:that|it)(?: down)?\s*$", re.IGNORECASE)


def _refers_back(tail: str) -> bool:
    """ "remember this rule for me", "记下这个数，明年对比": the note is what was said before."""
    head = _TAIL_CUT.split(tail.lstrip(" ：:，,"), maxsplit=1)[0]
    return len(norm_name(_EMPTY_LABEL.sub("", _TAIL_FILLER.sub("", head)))) < 4  # "this arrangement" too


_CUE_NOUN = re.compile(
    r"^\s*(?:这个|这条|这些|这套|那个|this|that|these)\s*([^，,。.!！:：;；\s](?:[^，,。.!！:：;；]{0,14}?[^，,。.!！:：;；\s])?)"
    r"(?=\s*(?:[，,。.!！:：;；]|$|for\b|so\b|because\b|please\b))",
    _I,
)


_PURPOSE = _rx(r"^\s*(?:for|when|if)\s", r"^\s*(?:对于|关于|如果).|的话\s*$")


# Nouns that only say what kind of thing a note is ("记住这个安排", "remember this rule"): no title.
_EMPTY_LABEL = _rx(
    _en("rule", "rules", "thing", "things", "one", "info", "information", "stuff", "note", "detail", "details",
        "arrangement", "plan", "setup", "number", "fact"),
    "安排|规则|事|事情|东西|信息|内容|情况|这些|一点|设置",
)  # fmt: skip


_PERSON_WORD = re.compile(r"我|你|(?<![A-Za-z])(?:I|I'm|I've|we|you|my|our)(?![A-Za-z])", _I)


def _lead_subject(lead: str, title: str, points_back: bool) -> str:
    """ "礼盒定价我想了个公式 你帮我记住：零售价 = …" → "礼盒定价：零售价": the subject the user names before the
    remember cue (up to their first "I"/"you") leads the title, when the note itself follows the cue."""
    parts = _PERSON_WORD.split(lead, maxsplit=1) if lead else []
    if len(parts) == 1 and not points_back:
        parts = [parts[0], ""]  # "老房子的燃气户号帮我记住 …": the whole lead names what is kept
    if points_back or len(parts) < 2 or re.search(r"[，,。.;；:：]", parts[0]):
        # no "I"/"you" after it, or a clause break: no subject named ("还有个工作的，帮我存一下")
        return title
    subject = _clean(parts[0])
    size = len(norm_name(subject))
    if (
        not 2 <= size <= 12
        or re.search(r"\d|^(?:一?个|another|one)", subject, _I)
        or norm_name(subject) in norm_name(title)
    ):
        return title
    return f"{subject}：{title}" if has_cjk(subject + title) else f"{subject}: {title}"


def _with_own_head(noun: str, content: str) -> str:
    """ "记住这个公式：报价 = 成本 × 1.35" → "公式：报价": a note called by its kind keeps the subject its own
    text names before "=" or a colon (a short one, not already in the noun)."""
    body = re.sub(
        r"^\s*(?:这个|这条|这些|这套|那个|this|that|these)?\s*" + re.escape(noun) + r"\s*[:：]?\s*",
        "",
        content,
        flags=_I,
    )
    head = re.split(r"\s*(?:=|：|:)\s*", body, maxsplit=1)
    if len(head) < 2 or not 2 <= len(norm_name(head[0])) <= 12 or norm_name(head[0]) in norm_name(noun):
        return noun
    return f"{noun}：{head[0]}" if has_cjk(noun + head[0]) else f"{noun}: {head[0]}"


def _cue_noun(tail: str) -> str | None:
    """ "记住这个手冲参数" → 手冲参数: what the user calls the note is its title (not a bare "rule")."""
    match = _CUE_NOUN.match(tail)
    if not match:
        return None
    noun = match.group(1).strip()
    if len(norm_name(_TAIL_FILLER.sub("", noun))) < 2 or FIRST_PERSON.search(noun):
        return None
    if _EMPTY_LABEL.fullmatch(noun.strip()):
        return None
    return noun


def _answers_question(msgs: list[_Msg], answer: int, subject: int) -> bool:
    """msgs[answer] replies to the assistant's question about msgs[subject] (u, a: "…?", u)."""
    between = msgs[subject + 1 : answer]
    return len(between) == 1 and not between[0].user and QUESTION.search(between[0].text) is not None


_TAG_QUESTION = _rx(
    r"[,，]?\s*(?:right|correct|ok(?:ay)?|yes|is that right|shall i|should i)\s*[?？]\s*$",
    r"[,，]?\s*(?:对吧|对吗|是吗|好吗|可以吗|行吗|吧)\s*[?？]\s*$",
)


_OFFER_LEAD = _rx(
    r"^\s*(?:should i|shall i|do you want me to|want me to|would you like me to)\s+",
    r"^\s*(?:要不要|要我|需要我|我是不是)",
)


def _statement_of(text: str) -> str:
    """The assistant's proposal as a statement: "Sure. Should I always put the summary table first?" →
    "always put the summary table first" (acknowledgements, the offer and the tag question dropped)."""
    parts = [_OFFER_LEAD.sub("", _TAG_QUESTION.sub("", s)) for s in sentences(text) if not ACK.match(s)]
    parts = [p.rstrip("?？ ") for p in parts if p.strip()]
    return _clean(" ".join(parts) if not has_cjk(text) else "".join(parts))


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


_LINK = re.compile(r"https?://\S*")


def _without_cut_link(head: str) -> str:
    """A title names the link ("on-call runbook 的地址"); it never ends in half a URL."""
    bare = _LINK.sub("", head).strip(" :：,，-—")
    return bare if len(norm_name(bare)) >= 4 else head


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
        # "这个规则：一线城市住宿上限 550", "这个公式：报价 = …": a bare label or kind is titled by what follows
        or _EMPTY_LABEL.fullmatch(head) is not None
        or (kind is not None and norm_name(head) == norm_name(kind))
    )
    terms: dict[str, int] = {}
    for match in _TERM.finditer(window):
        terms[match.group(0)] = terms.get(match.group(0), 0) + 1
    term = max(terms, key=lambda t: (terms[t], -window.find(t)), default=None) if terms else None
    if generic or len(head) > (24 if has_cjk(head) else 48):
        parts = clauses(content) if content else [""]
        telling = next((p for p in parts if re.search(r"\d", p)), None)  # 份子钱每人 1000, 64-bit pHash …
        telling = telling or next((p for p in parts if salient_tokens(p)), parts[0])
        head = _short(telling.rstrip(" ，,"), 40 if has_cjk(telling) else 60)
        if telling is not parts[0] and len(parts[0]) <= 30 and not re.search(r"\d", parts[0]):
            # the note's subject leads: "for near-duplicate photos: 64-bit pHash …", "new cleaner: £45 per flat"
            lead = re.sub(r"^(?:the|my|our|这个|那个)\s*", "", _clean(parts[0]), flags=_I)
            head = f"{lead}: {head}"
    head = _without_cut_link(head)
    if kind and term and term.casefold() not in content.casefold() and not any(c.isdigit() for c in term):
        return f"{kind} ({term}): {head}"[:80]
    return head[:80]
