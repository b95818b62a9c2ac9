"""English marker words of the offline extractor's lexicon, one tuple of alternatives per marker.

The markers describe *kinds* of language (a rule, a root cause, an owner, chit-chat …), never the
facts of a chat; :mod:`.signals` joins each tuple with its Chinese twin (:mod:`.lexicon_zh`) into
one pattern, English first. English words are matched with letter lookarounds rather than
``\\b``: in Python's Unicode regexes a Chinese character is a word character, so ``\\bemoji\\b``
would not match inside ``用emoji了``.
"""

from __future__ import annotations

from ...text.patterns import en_words as words

# "remember (this)", never in "I don't remember that", "you never remember": the same guard in
# NOTE and in KEEP_THAT.
_REMEMBER = "(?<!i )(?<!i still )(?<!you )(?<!never )(?<!don't )(?<!can't )remember"

# Someone says "this is worth keeping".
NOTE = (
    words(
        "for the notes?",
        "for the record",
        "worth remembering",
        _REMEMBER + "(?: this| that)?(?! (?:reading|seeing|when|that time|how))",
        "rule of thumb",
        "note to self",
        "i'll note(?: (?:that|it|this|down))?",
        "i will note",
        "noting (?:that|down)",
        "keep in mind",
        "takeaway",
        "tl;dr",
        "lesson learned",
        "(?:the )?rule is",
        "rules?(?=\\s*:)",
        "to summari[sz]e",
        "in summary",
        "summary",
    ),
)


# Standing rules and preferences: "from now on", "以后", "always/never".
FUTURE = (
    words(
        "from now on",
        "going forward",
        "in (?:the )?future",
        "from here on",
        "always",
        "never",
        "must(?: not)?",
        "do not ever",
        "don't ever",
        "any(?:thing|one|time)(?: that)? (?:over|above|with)",
        "whenever",
        "every time",
        "by default",
        "default(?:s)? to",
        "only (?:ever|allowed|accepts?|goes|go)",
        "no more",
        "i (?:always )?prefer",
        "i always (?:want|like|take|book|sit)",
    ),
)


ROOT_CAUSE = (
    words(
        "root cause",
        "the cause",
        "caused by",
        "that's it",
        "there it is",
        "that's the problem",
        "the culprit",
        "turns out",
        "the reason (?:is|was)",
        "because",
        "found it",
        "same (?:problem|issue|root cause|bug)",
        "cause[:：]",
    ),
)


FIX = (
    words(
        "fix(?:ed)?",
        "the fix",
        "solution",
        "workaround",
        "resolved by",
        "change(?:d)? (?:it )?to",
        "set it to",
    ),
)


OWNER = (
    words(
        "owns",
        "owner of",
        "in charge of",
        "responsible for",
        "maintains",
        "took over",
        "takes care of",
        "goes? through (?:him|her|them)",
        "ask (?:him|her|them)",
        "is the owner",
    ),
)


PREFERENCE = (
    words(
        "prefer(?:ence|s)?",
        "reply",
        "replies",
        "respond",
        "answers? in",
        "don't use",
        "no emoji",
        "style",
    ),
)


# Someone refers to what is already saved.
PRIOR = (
    words(
        "already in (?:today's |the |your )?notes",
        "in today's notes",
        "according to (?:today's |the |your )?notes",
        "we saved",
        "saved earlier",
        "what we said",
        "as agreed",
        "as noted",
        "as before",
        "we noted",
        "matches what we",
        "already noted",
        "already saved",
        "as saved",
        "(?:is |that's |it's )?still the rule",
        "still (?:matters|applies|holds|stands)",
        "(?:same )?as always",
        "as it always (?:has been|was)",
        "(?:your|the|today's) notes (?:already )?(?:say|have|list|show)",
        "(?:as|like) (?:it is |it's )?in (?:your|the) notes",
    ),
)


# The sentence says its own fact stands as before: "TP1358 on the 16th, unchanged".
UNCHANGED = (words("unchanged", "(?:hasn't|has not|didn't|did not) change", "still the same"),)


# The user says it works now.
CONFIRM = (
    words(
        "works?",
        "worked",
        "working",
        "fixed",
        "answers again",
        "went through",
        "all good",
        "perfect",
        "success(?:ful)?",
        "nice",
        "great",
        "awesome",
        "green",
        "it's back",
        "back up",
        "that did it",
        "solved",
        "caught up",
        "instant(?:ly)?",
        "loads? (?:fine|now)",
        "(?:is |are )?gone",
        "back to normal",
        "looks good",
        r"(?:test|connection|check)\w*(?: \w+)? (?:is |was )?ok\b",
    ),
)


REJECT = (
    words(
        "still (?:fails|failing|broken|the same|doesn't|not|no)",
        "no luck",
        "didn't help",
        "not it",
        "same error",
        "no change",
    ),
)


# The assistant rules something out or corrects itself.
RULED_OUT = (
    words(
        "isn't it",
        "is not it",
        "not it either",
        "wasn't it",
        "was wrong",
        "isn't the (?:problem|cause)",
        "so it isn't",
        "so that's not",
        "not the problem",
        "no need to",
        "ruled out",
    ),
)


HEDGE = (
    words(
        "maybe",
        "might",
        "perhaps",
        "probably",
        "possibly",
        "my (?:first )?guess",
        "i suspect",
        "could be",
        "i think",
        "let's try",
        "try",
        "i'd",
        "options?",
    ),
)


CHITCHAT = (
    words(
        "lol",
        "haha+",
        "thanks?",
        "thx",
        "ty",
        "brb",
        "coffee",
        "lunch",
        "dinner",
        "breakfast",
        "wtf",
        "good (?:morning|night)",
        "enjoy",
        "cheers",
        "anytime",
        "nice",
        "cool",
        "yay",
        "oops",
    ),
)


DEFERRAL = (
    words(
        "later",
        "tonight",
        "tomorrow",
        "this (?:afternoon|evening|weekend)",
        "next week",
        "not (?:now|today)",
        "for now",
        "right now",
        "just this once",
        "one-off",
        "temporar(?:y|ily)",
        "for the time being",
        "stopgap",
        "after (?:lunch|standup|the meeting)",
        "remind me",
        "i'll(?! (?:note|remember|keep (?:that|it|this) in mind|record))",
        "i will(?! (?:note|remember|record))",
        "let me",
        "i'll (?:ping|tell|ask|look|check)",
    ),
)


STATUS = (
    words(
        "still running",
        "running now",
        "in progress",
        "deploying",
        "message_id",
        'sent "',
        "deleted",
        "re-ran",
        "ran at",
        "done:",
        "took \\d",
        "so far",
    ),
)


# A report of a problem: an error code, a crash, a restart loop, "still 502", "又在疯狂重启".
SYMPTOM = (
    r"(?<![\w.:/$€£¥-])[45]\d\d(?![\w.:/-]|\s?(?:元|块|欧|dollars|euros|pounds))",  # an HTTP status, not an amount
    words(
        "errors?",
        "crash(?:es|ed|ing)?",
        "keeps? (?:crashing|restarting|failing|dying|timing out)",
        "restart(?:s|ed|ing)?",
        "fail(?:s|ed|ing|ure)?",
        "broken",
        "(?:is|are|went|goes) down",
        "time[sd]? ?out",
        "timing out",
        "not working",
        "(?:doesn't|does not|won't|can't|cannot) (?:work|start|load|connect|reach|open|find)",
        "refused",
        "denied",
        "forbidden",
        "unauthorized",
        "oom(?:-?killed)?",
        "hangs?",
        "hanging",
        "stuck",
        "died",
        "dies",
        "dying",
        "flapping",
        "exit(?:ed)? (?:code|status)",
    ),
)


# What turns a problem report into an explanation: a condition or a cause ("fails when …", "因为 …").
CAUSAL = (
    words("when", "whenever", "because", "due to", "since", "if", "unless", "after", "once", "so", "means"),
)


MINOR = (words("not important", "minor", "unimportant", "doesn't matter"),)

# The assistant promising a service of its own ("I'll remind you"): its task, not the user's fact.
PROMISE = (
    words(
        "i'll (?:remind|ping|tell|nudge|alert) you",
        "i will (?:remind|ping|tell|nudge|alert) you",
        "i can remind you",
        "let me remind you",
    ),
)

# A short "keep that" / "save this" after a value in the same message: keep what was just said.
KEEP_THAT = (
    words(
        "keep (?:that|this|it)(?! in mind)",
        "save (?:that|this|it)",
        _REMEMBER + " (?:that|this)",
        "note (?:that|this)(?: down)?",
    ),
)

# The user asks the assistant to do something ("can you …", "please …"), anywhere in a sentence.
ASK_ASSISTANT = (words("please", "pls", "can you", "could you", "would you"),)

# A question asking for one more item ("Any new exercises?", "Anything else?"), not a detail of this one.
ANOTHER_ITEM = (
    words(
        "anything else",
        "any other",
        "any more",
        "any new",
        "anything more",
        "another one",
        "what else",
        "others?",
    ),
)


# The assistant reports a change it made ("Done", 改好了): a configuration that now holds.
DONE = (words("done", "updated", "configured", "set up", "created", "now (?:runs|points|uses|goes)"),)


# The user stops the plan on a value just named: "wait, 8443 is the admin port".
HOLD = (words("wait", "hold on", "hang on", "not so fast"),)


NOT_CHOSEN = (words("not recommended", "not worth", "too much work", "overkill"),)


# The user reports having applied a change ("both set to 1380", "改了 reload 了").
APPLIED = (
    words(
        "set (?:it |both |them )?to",
        "changed",
        "applied",
        "updated",
        "did (?:it|that)",
        "done",
        "migrated",
    ),
)


# A fix meant to last, not to get through today.
PERMANENT = (words("permanent(?:ly)?", "for good", "long[- ]term", "proper fix", "real fix"),)


# A preference or routing value in the user's words: where things go, when, which one, not which other.
ROUTING = (
    words(
        "should (?:go|be sent|land|come)",
        "send (?:it|them|those|these|\\w+ alerts?)? ?to",
        "go(?:es)? to",
        "instead of",
        "rather than",
        "not (?:to |in |on |at |into )?(?:my|the)",
        "only (?:to|in|on|via)",
        "at least",
        "no later than",
        "in advance",
        "(?:hours?|minutes?|days?) (?:before|ahead|early)",
    ),
)


# The assistant says it recorded what the user just said ("好的，记下了这条规则", "Noted.", "Will remember").
RECORDED = (
    words(
        "noted",
        "(?:i'll|i will|will) (?:remember|keep (?:that|it) in mind)",
        "added(?: (?:it|that|this))?(?: to (?:the |today's |my )?(?:notes|memory|list))?",
        "saved(?: (?:it|that|this))?",
        "(?:it's|that's) (?:in|on) (?:the |my )?(?:notes|list|memory)",
    ),
)


# A one-off: a specific near day or date ("this Thursday", "Thursday 3 Dec", 这周四, 后天) or an
# order / ticket number ("Order #F-2291", 订单号). An appointment or errand, not a standing fact.
ONE_OFF = (
    words(
        "(?:this|next) (?:mon|tues|wednes|thurs|fri|satur|sun)day",
        "(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,? \\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*",
        "(?:order|ticket|booking|confirmation|tracking)(?: no\\.?| number)? ?#\\s?[a-z0-9-]{3,}",
        "(?:support |service )?ticket(?: no\\.?| number| ref(?:erence)?)?:? [a-z]*-?\\d[a-z0-9-]{2,}",  # "ticket RC-77120"
        "the day after tomorrow",
    ),
)


# It recurs: a start date of a weekly lesson ("下周四开始，每周四 17:30") is not a one-off.
RECURRING = (
    words(
        "every",
        "each",
        "weekly",
        "daily",
        "monthly",
        "yearly",
        "annual(?:ly)?",
        "birthdays?",
        "anniversary",
    ),
)


# The assistant sums up what now holds, once the user said it works or chose: "So: …", "So going
# forward: …", "Confirmed: …", "Done deal: …", "To recap, …".
WRAP_UP = (
    words(
        "so(?=\\s*[:—–-])",
        "so going forward",
        "so from now on",
        "so the (?:rule|setup|fix|plan) is",
        "to (?:sum up|recap)",
        "in short",
        "bottom line",
        "confirmed(?=\\s*:)",
        "done deal",
        "final(?:ly)?(?=\\s*:)",
        "i'll note(?: (?:that|it|this|down))?",
    ),
)


# The assistant offers to do something or proposes an option ("Do you want me to …?", "Shall I …?"):
# a proposal, not a request for the user's facts.
OFFER = (
    words(
        "do you want",
        "want me to",
        "would you like",
        "shall i",
        "should i",
        "shall we",
        "how about",
        "what about",
    ),
)

# The user gives up an idea while telling it ("I was going to …", "originally …", "never mind").
WITHDRAWN = (
    words(
        "was going to",
        "were going to",
        "originally",
        "at first i",
        "never mind",
        "scrap that",
        "changed my mind",
    ),
)

# The user says not to keep it ("no need to note", "don't save that").
NOT_TO_NOTE = (
    words(
        "no need to (?:note|save|record|remember)",
        "(?:don't|do not|no need to) (?:note|save|record|write)(?: (?:it|that|this))?(?: down)?",
        "not worth (?:noting|saving)",
    ),
)

# The user's value is a first try, not a decision ("to start with", "as a test").
TENTATIVE = (words("to start with", "for a start", "as a test", "let's say", "tentatively"),)

# The assistant opens the conversation or asks what it is about ("What's up?", "How did it go?").
OPENER = (
    words(
        "what's up",
        "what is up",
        "how can i help",
        "what can i do for you",
        "what's going on",
        "what happened",
        "how (?:did|was|is|are) (?:it|the|your|things)",
    ),
)
