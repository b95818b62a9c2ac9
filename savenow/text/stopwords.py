"""Stopwords, per language: the words that never carry a note's subject.

Each list is named by the job it does; they differ because the jobs differ (a title may not
start with "fixed", a heading word like "notes" names no topic, a capitalized "The" is no
person). English first, then Chinese. Lexicons of *markers* (rules, root causes, owners …)
are not stopwords: they live with the offline extractor (``savenow.extract.heuristic``).
"""

from __future__ import annotations


def _words(words: str) -> frozenset[str]:
    return frozenset(words.split())


# ------------------------------------------------------------------------------------------- English

# Capitalized words that start a sentence but name no person (owner notes look for a name).
EN_NOT_NAMES: frozenset[str] = frozenset(
    {"The", "This", "That", "Then", "And", "But", "She", "They", "API", "Fix", "Yes", "Got"}
)

# Words of four letters or more that say nothing about a note's subject (grouping, restatements).
EN_COMMON_WORDS: frozenset[str] = frozenset(
    [
        "this",
        "that",
        "with",
        "from",
        "have",
        "will",
        "what",
        "when",
        "then",
        "than",
        "they",
        "them",
        "there",
        "their",
        "your",
        "just",
        "also",
        "only",
        "into",
        "over",
        "some",
        "more",
        "most",
        "much",
        "very",
        "like",
        "make",
        "sure",
        "should",
        "would",
        "could",
        "does",
        "done",
        "here",
        "were",
        "been",
        "being",
        "about",
        "after",
        "before",
        "every",
        "each",
        "other",
        "same",
        "still",
        "need",
        "needs",
        "want",
        "know",
        "think",
        "good",
        "right",
    ]
)

# Articles, prepositions and pronouns ignored when a saved bullet is compared with what was said.
EN_SMALL_WORDS: frozenset[str] = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "on",
        "in",
        "at",
        "to",
        "is",
        "are",
        "be",
        "it",
        "we",
        "i",
        "so",
        "for",
    ]
    + ["as", "by", "up", "not", "no"]
)

# Words that never name a note's subject in its title: function words and the markers themselves.
EN_TITLE_STOPWORDS: frozenset[str] = _words(
    """the a an and or for with from into onto on in at to of is are was were be been it its this that these those
    there here then than via use uses used using now new old any all each every one two some our your their my we you
    they he she not no yes but so if when after before only also just still again always never must should would could
    can will may might has have had did does done get got set let make like need needs want about over under per via
    today tomorrow yesterday tonight morning evening ok okay right good great fine works work working fixed noted got
    root cause fix rule rules note notes from now future going forward remember record summary found confirmed run
    during until since between within without across through while where what which who how why more less most
    least too very much many few out off by as etc both either neither same other another such into onto upon
    owns owner owned take took takes care charge responsible maintains prefer preference reply replies"""
)

# Heading words that name no topic ("Setup notes", "Open questions").
EN_HEADING_FILLER: frozenset[str] = frozenset(
    {"the", "and", "for", "with", "setup", "notes", "misc", "open", "questions", "todo", "on", "of"}
)

# Words of five letters or more too common to tie a chat to a section's topic.
EN_LONG_COMMON_WORDS: frozenset[str] = frozenset(
    [
        "about",
        "after",
        "again",
        "always",
        "before",
        "being",
        "below",
        "between",
        "every",
        "found",
        "never",
        "other",
        "their",
        "there",
        "these",
        "those",
        "through",
        "under",
        "where",
        "which",
        "while",
        "would",
        "should",
        "could",
        "still",
        "until",
        "using",
        "never",
        "merged",
    ]
)

# Words too common to tie a memory section to the chat (LLM prompt: which sections to send whole).
EN_KEYWORD_STOPWORDS: frozenset[str] = frozenset(
    (
        "about", "after", "also", "been", "before", "because", "could", "does", "from", "have", "into",
        "just", "like", "make", "more", "most", "only", "over", "should", "some", "such", "than", "that",
        "their", "them", "then", "there", "these", "they", "this", "those", "under", "were", "what", "when",
        "where", "which", "while", "will", "with", "would", "your",
    )
)  # fmt: skip


# ------------------------------------------------------------------------------------------- Chinese

# Han characters that make a bigram grammar rather than a subject.
ZH_FUNCTION_HAN: frozenset[str] = frozenset(
    "的了是在和就都也要把被不没这那个们我你他她它吗呢吧啊之与或而及时后前里上下中会能说让给对用还再又先已很更最有为从到"
)

# Particles and pronouns never begin or end a word ("会议" may start with 会, "不吃" is not a subject).
ZH_EDGE_HAN: frozenset[str] = frozenset(
    "的了是在和就都也把被不没这那个们我你他她它吗呢吧啊之与或而及很更最有从到给对"
)

# Verbs and markers that say what happened, not what it happened to (never a title's subject).
ZH_TITLE_STOPWORDS: frozenset[str] = _words(
    "重启 更新 修复 根因 原因 问题 以后 必须 确认 一起 同步 找到 记住 规则 总结 修法 改成 然后 已经 现在 今天 明天 "
    "负责 接手 偏好 回复 每次 所有 任何 应该 可以 需要 如果 因为 所以 之前 出现 正常 成功 失败 报错"
)

# Han characters that make a Chinese bigram grammar rather than a term of a fact (restated facts).
ZH_FACT_TERM_HAN: frozenset[str] = frozenset("的了是在和就都也把被不没这那个们我你他她它吗呢吧啊之与或而及很")
