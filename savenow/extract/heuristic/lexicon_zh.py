"""Chinese marker words of the offline extractor's lexicon, one tuple of alternatives per marker.

The twin of :mod:`.lexicon_en` (same names, same order of markers). A few markers end with
language-neutral patterns (numbers, percentages); they stay here, after the Chinese words, to
keep their place in the alternation.
"""

from __future__ import annotations

from ...text.cjk import HAN

# Someone says "this is worth keeping".
NOTE = (
    "记住",
    "记一下",
    "记下",
    "备忘",
    "规则(?:就)?是",
    "惯例",
    "规则[:：]",
    "约定",
    "规定",
    "总结",
    "结论是",
    "要点",
)


# Standing rules and preferences: "from now on", "以后", "always/never".
FUTURE = (
    "以后",
    "今后",
    "往后",
    "从现在起",
    "从今天起",
    "一律",
    "统一",
    "必须",
    "禁止",
    "绝不",
    "千万别",
    "不要再",
    "别再",
    "只认",
    "只能",
    "只允许",
    "不允许",
    "不准",
    "我习惯",
    "别给我",
    "只用",
    "只留给",
    r"默认(?![的]?\s*[A-Za-z`])",
    "每次",
    "任何",
)


ROOT_CAUSE = (
    "根因",
    "原因是",
    "原因[:：]",
    "原因找到",
    "找到原因",
    "就是这个",
    "问题在于",
    "问题出在",
    "确认了",
    "确定了",
    "就是因为",
    "罪魁",
    "之所以",
    "同一个问题",
    "同样的问题",
)


FIX = (
    "修法",
    "修复",
    "解决",
    "改成",
    "改为",
    "换成",
    "改用",
    "写死",
    "应该写成",
    "应改为",
)


OWNER = (
    "负责",
    "接手",
    "归(?=\\s*[A-Za-z" + HAN + "])",
    "找他",
    "找她",
    "对接人",
    "管理员是",
)


PREFERENCE = (
    "偏好",
    "回复",
    "回答",
    "别用",
    "不要用",
    "不用",
    "先给",
    "风格",
)


# Someone refers to what is already saved.
PRIOR = (
    "之前的约定",
    "之前定",
    "之前记",
    "之前说",
    "按之前",
    "上次定",
    "早就定",
    "已经记",
    "记过",
    "之前约好",
    "之前的规矩",
    "之前定好",
    "照旧",
    "还是老规矩",
    "一直(?:都)?是这样",
    "一直这样",
    "一直都这样",
    "笔记里(?:也|已经)?(?:是|有|写|记)",  # "你笔记里也是这么写的": the notes already say it
    "(?:笔记|记录)里也",
)


# The sentence says its own fact stands as before: "MOQ 还是一色 200 没变".
UNCHANGED = ("没变", "不变", "没动")


# The user says it works now.
CONFIRM = (
    "正常了",
    "好了",
    "可以了",
    "成功",
    "起来了",
    "绿了",
    "能看到",
    "解决了",
    "搞定",
    "通了",
    "没问题了",
    "恢复了",
    "能用了",
    "稳定了",
    "追上了",
    "没了",
    "消失了",
    "亮了",
    "正常",
    "✅",
    "🎉",
)


REJECT = (
    "还是(?:不行|一样|报|失败|不通)",
    "没用",
    "不行",
    "不对",
    "没变化",
    "又来了",
)


# The assistant rules something out or corrects itself.
RULED_OUT = (
    "判断不对",
    "判断错了",  # "…，我刚才判断错了": the assistant takes its guess back
    "猜错了",
    "理解错了",
    "不是(?:[^，。,]{0,8})(?:问题|原因)",
    "没关系",
    "排除",
    "那不是",
    "不是防火墙",
    "无关",
    "不影响",
)


HEDGE = (
    "可能",
    "也许",
    "怀疑",
    "猜",
    "试试",
    "先试",
    "大概",
    "或许",
    "是不是",
    "会不会",
    "要不",
    "有没有",
    "建议",
)


CHITCHAT = (
    "哈哈",
    "谢谢",
    "谢了",
    "辛苦",
    # … but "早晚饭后" / "睡前一片" say when a routine happens (a dose, a chore), not that someone eats
    "吃饭(?![前后])",
    "午饭(?![前后])",
    "晚饭(?![前后])",
    "午觉",
    "睡(?!前)",
    "早安",
    "晚安",
    "午安",
    "下班",
    "开会",
    "不客气",
    "😄",
    "😂",
    "👍",
    "😩",
    "👀",
    "😕",
    "🙏",
)


DEFERRAL = (
    "明天",
    "明早",
    "今晚",
    "(?<![一二三四五六日天末])下午",
    "晚点",
    "回头",
    "改天",
    "过两天",
    "再说",
    "下次",
    "先不",
    "等.{1,8}再",
    "提醒我",
    "我来",
    "我去",
    "今天先",
    "先这样",
    "还没想好",
    "临时",
    "先手动",
    "这次先",
    "暂时",
    "先凑合",
)


STATUS = (
    "还在(?:跑|装|下)",
    "部署中",
    "已删除",
    "已发",
    "跑完了",
    "用时",
    "目前",
    "进度",
    "已改成",
    r"\d+\s*m\s*\d+\s*s",
    r"\d+\s*分\s*\d+\s*秒",
    r"(?<![\w.])\d+\s?ms(?![A-Za-z])",
    r"(?<![\w/:.=])\d+/\d+(?![\w/.:])\s*(?:chunks|个)?",
    # a share done ("72%"), not a rate ("1.5% per month", "3% 每年"): a rate is a term that holds
    r"\d+(?:\.\d+)?%(?!\s*(?:per\s|an?\s+(?:month|year|week|day)|/\s*(?:month|year|mo|yr|月|年)|每|一个?月|一年|年化))",
)


# A report of a problem: an error code, a crash, a restart loop, "still 502", "又在疯狂重启".
SYMPTOM = (
    "报错",
    "重启",
    "崩",
    "挂了",
    "挂掉",
    "宕",
    "打不开",
    "超时",
    "失败",
    "连不上",
    "访问不了",
    "拒绝",
    "卡住",
    "卡死",
    "出错",
    "异常",
    "没反应",
    "不工作",
    "起不来",
)


# What turns a problem report into an explanation: a condition or a cause ("fails when …", "因为 …").
CAUSAL = (
    "因为",
    "由于",
    "导致",
    "所以",
    "只要",
    "一旦",
    "的话",
    "时候",
    "之后",
    "就会",
)


MINOR = (
    "不重要",
    "无所谓",
    "不关键",
    "次要",
)

# The assistant promising a service of its own ("我提醒你"): its task, not the user's fact.
PROMISE = ("我(?:会|来|就|再|都)?(?:提醒|通知|叫)你", "到时(?:候)?(?:我)?(?:提醒|通知)你")

# A short "记住这个" / "存一下" after a value in the same message: keep what was just said.
KEEP_THAT = ("记住这个", "记一下这个", "这个记一下", "这个记下", "存一下", "记下来")

# The user asks the assistant to do something ("帮我…", "麻烦你…"), anywhere in a sentence.
ASK_ASSISTANT = ("帮我", "你帮", "给我", "请你", "麻烦你")

# A question asking for one more item ("还有别的吗？", "其他呢？"), not a detail of this one.
ANOTHER_ITEM = (
    "还有别的",
    "还有其他",
    "还有其它",
    "还有什么",
    "还有吗",
    "其他呢",
    "其它呢",
    "别的呢",
    "另外还有",
    "再加",
)


# The assistant reports a change it made ("Done", 改好了): a configuration that now holds.
DONE = (
    "改好了",
    "已改好",
    "建好了",
    "已建好",
    "已更新",
    "配置好了",
    "已提",
    "加好了",
    "已加",
)


# The user stops the plan on a value just named: "等下，6381 是 sentinel 在用的".
HOLD = ("等下", "等等", "等一下", "慢着", "先别")


NOT_CHOSEN = (
    "不推荐",
    "不建议",
    "没必要",
)


# The user reports having applied a change ("both set to 1380", "改了 reload 了").
APPLIED = (
    "改了",
    "改好",
    "设了",
    "设成",
    "加了",
    "换了",
    "换好",
    "都改",
    "配好",
    "迁过去",
    "起好了",
    "改完",
    "弄好了",
    "装好了",
)


# A fix meant to last, not to get through today.
PERMANENT = (
    "永久",
    "长期",
    "根治",
    "彻底",
)


# A preference or routing value in the user's words: where things go, when, which one, not which other.
ROUTING = (
    "发给",
    "发到",
    "发我",
    "转给",
    "提前",
    "推迟",
    "而不是",
    "不是",
    "改到",
    "放到",
    "放在",
    "留给",
    "例外",
    "只发",
    "别发",
    "不要发",
)


# The assistant says it recorded what the user just said ("好的，记下了这条规则", "Noted.", "Will remember").
RECORDED = (
    "记下",
    "记住了",
    "记好了",
    "已记录",
    "记录好了",
    "会记住",
    "记到",
    "加到(?:笔记|备忘|记忆)",
)


# A one-off: a specific near day or date ("this Thursday", "Thursday 3 Dec", 这周四, 后天) or an
# order / ticket number ("Order #F-2291", 订单号). An appointment or errand, not a standing fact.
ONE_OFF = (
    "后天",
    "这周[一二三四五六日天]",
    "本周[一二三四五六日天]",
    "下周[一二三四五六日天]",
    "订单号",
    "工单号",
    "取件码",
)


# It recurs: a start date of a weekly lesson ("下周四开始，每周四 17:30") is not a one-off.
RECURRING = (
    "每",
    "生日",
    "纪念日",
)


# The assistant sums up what now holds, once the user said it works or chose: "所以：…", "总结一下：…",
# "结论：…", "也就是说，…", "最终：…", "确认：…".
WRAP_UP = (
    "所以[:：，,]",
    "总结(?:一下)?[:：，,]",
    "结论[:：]",
    "也就是说",
    "最终[:：]",
    "(?:^|(?<=[，,。\\s]))确认[:：]",  # "确认：…", not the label of "根因确认："
    "定下来[:：]",
)


# The assistant offers to do something or proposes an option ("要不要我…？", "需要我…吗？").
OFFER = ("要不要", "需不需要", "需要我", "要我", "我帮你", "我来帮你", "用不用")

# The user gives up an idea while telling it ("本来想…", "原本打算…", "算了").
WITHDRAWN = ("本来想", "本来打算", "原本想", "原本打算", "原来想", "算了")

# The user says not to keep it ("不用记", "别记").
NOT_TO_NOTE = ("不用记", "别记", "不必记", "不要记", "无需记")

# The user's value is a first try, not a decision ("先放 … 吧", "暂时").
TENTATIVE = ("先[^，。,；;]{0,24}吧", "暂时", "暂定")

# The assistant opens the conversation or asks what it is about ("今天弄点啥？", "怎么了？").
OPENER = (
    "(?:今天|今儿)?(?:弄|做|干|搞|聊)点?(?:啥|什么)",
    "怎么了",
    "什么事",
    "过得怎么样",
    "怎么样了",
    "卡在哪",
    "有什么(?:可以|能)帮",
    "发生了什么",
)
