"""Titles a person would write: the note's subject and what kind of note it is.

"网关 token：根因与修复", "Staging 8443: setup", "Owner of billing-service",
"Deploy rules" — a short noun phrase in the conversation's language, not a
truncated sentence. The subject is one or two terms *of the note itself*
(identifiers, words, Chinese phrases) that the conversation keeps using, with
a bonus for those in its opening problem, so a title never brings in a word the
note does not hold. The kind comes from the note's kinds. Titles stay short and
are never cut inside a value.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence

from ...text.cjk import HAN, han_runs, has_cjk, is_cjk
from ...text.stopwords import EN_TITLE_STOPWORDS, ZH_EDGE_HAN, ZH_FUNCTION_HAN, ZH_TITLE_STOPWORDS
from ...vocabulary import NoteKind
from . import signals
from .cache import text_cache

__all__ = ["KIND_LABEL", "TitleContext", "heading_subject", "note_language", "note_title", "title_faults"]

TITLE_MAX = 40
SECOND_TERM_MIN = 3.0  # a second subject term must recur in the chat (or open it), not appear once
OPENING_MESSAGES = 3
ZH_TERM_BONUS = 1.5  # a Chinese chat names its subject in Chinese ("网关") more than in pasted identifiers  # the user's first messages state the problem the chat is about
_LATIN = re.compile(r"[A-Za-z#@][A-Za-z0-9_.#@/-]*[A-Za-z0-9]")


_KIND = {
    "incident": {"en": "root cause and fix", "zh": "根因与修复"},
    NoteKind.ROOT_CAUSE: {"en": "root cause", "zh": "根因"},
    NoteKind.FIX: {"en": "fix", "zh": "修复"},
    NoteKind.CHANGE: {"en": "change", "zh": "变更"},
    "rule": {"en": "rule", "zh": "规则"},
    NoteKind.PREFERENCE: {"en": "preference", "zh": "偏好"},
    NoteKind.DECISION: {"en": "decision", "zh": "决定"},
    "setup": {"en": "setup", "zh": "配置"},
    NoteKind.NOTE: {"en": "notes", "zh": "要点"},
}


_LABELS = sorted({label for labels in _KIND.values() for label in labels.values()}, key=len, reverse=True)
# "Prepared statement: root cause and fix", "网关 token：根因与修复": the label savenow put after the subject.
KIND_LABEL = re.compile(
    r"\s*[:：]\s*(?:" + "|".join(re.escape(label) for label in _LABELS) + r")\s*$", re.IGNORECASE
)


def heading_subject(title: str) -> str:
    """A heading without the kind label savenow writes after its subject: what the section is about.
    A heading that is only a label, or none, stays as it is."""
    subject = KIND_LABEL.sub("", title)
    return subject if subject.strip() else title


# "帮我记下面粉供应商的事": a request to the assistant around the subject it names.
_ZH_REQUEST = re.compile(
    r"^(?:在吗|早|嗨|hi|hey)?[\s，,]*(?:帮我|麻烦|请|来)?\s*(?:记下|记一下|记住|看下|看一下|看看|弄下|弄一下|理一下|整理下|整理一下|查下|查一下|说下|说一下)?\s*",
    re.IGNORECASE,
)
_ZH_MATTER = re.compile(r"(?:的事情?|的问题|这件事|那件事)$")


def _word_char(char: str) -> bool:
    """What ``\\w`` matches (in a str pattern): a letter or digit of any script, or "_"."""
    return char.isalnum() or char == "_"


def _whole_word_uses(term: str, text: str, stop_at: int = 0) -> int:
    """= ``len(re.findall(r"(?<!\\w)TERM(?!\\w)", text))`` (up to ``stop_at`` when given), without
    compiling a pattern per term and scanning the text with it: str.find is the C loop."""
    count, start, size = 0, 0, len(term)
    while (at := text.find(term, start)) >= 0:
        end = at + size
        if not (at and _word_char(text[at - 1])) and not (end < len(text) and _word_char(text[end])):
            count += 1
            if count == stop_at:
                break
            start = end
        else:
            start = at + 1
    return count


class TitleContext:
    """What the whole conversation says about terms: how often each is used, and in the opening."""

    def __init__(self, user_texts: Sequence[str], all_texts: Sequence[str]) -> None:
        self.chat = " ".join(signals.prose(t) for t in all_texts).casefold()
        self.opening = " ".join(signals.prose(t) for t in user_texts[:OPENING_MESSAGES]).casefold()
        self.first_user_texts = list(user_texts[:OPENING_MESSAGES])
        self.raw = " \n ".join(all_texts)

    def names(self, word: str) -> bool:
        """The chat writes ``word`` as a proper name: capitalized inside a sentence ("set up
        Immich on …"), in capitals ("NAS"), or inside a code span; a common word ("Rent is split …",
        "the rent") is capitalized only where a sentence starts."""
        if not word.isalpha() or word.isupper() or not word[1:].islower():
            return True  # "NAS", "ESPHome", "pm2": a name or an identifier
        mid_sentence = re.compile(
            r"(?<=[\w,;)\]'’] )" + re.escape(word[:1].upper() + word[1:]) + r"(?![\w'-])"
        )
        in_code = re.compile(r"`[^`\n]*(?<![\w-])" + re.escape(word) + r"(?![\w-])[^`\n]*`", re.IGNORECASE)
        return bool(mid_sentence.search(self.raw) or in_code.search(self.raw))

    @property
    def opening_topic(self) -> str:
        """What the user's first message is about ("小满的舞蹈课改时间了" → 小满的舞蹈课), when the
        conversation keeps saying it: the subject of last resort for a note that names none."""
        for text in self.first_user_texts:
            request = _ZH_REQUEST.sub("", signals.prose(text).strip())
            topic = _ZH_MATTER.sub("", _topic(request))
            if topic and self.recurs(topic):
                return topic
        return ""

    def recurs(self, phrase: str) -> bool:
        """The conversation says the phrase more than once: a name it keeps using, not the
        opening words of one sentence ("删掉 unit", "Cap concurrency")."""
        folded = phrase.casefold()
        if self.chat.count(folded) >= 2:
            return True
        # Said in other orders ("胡桃木勺 MY-0321"): every word of it recurs.
        words = [w for w in re.split(r"\s+|的", folded) if w]
        return len(words) > 1 and all(self.chat.count(w) >= 2 for w in words)

    def weight(self, term: str) -> float:
        folded = term.casefold()
        return min(self.uses(folded), 5) + (3.0 if self._said(folded, self.opening) else 0.0)

    def uses(self, folded: str) -> int:
        """How often the chat says a term; a Latin word only as a whole word ("list" is not said by
        "whitelist", "port" not by "support"), a Chinese one wherever it stands (no spaces)."""
        if not folded[:1].isascii() or not folded[-1:].isascii():
            return self.chat.count(folded)
        return _whole_word_uses(folded, self.chat)

    @staticmethod
    def _said(folded: str, text: str) -> bool:
        if not folded[:1].isascii() or not folded[-1:].isascii():
            return folded in text
        return _whole_word_uses(folded, text, stop_at=1) > 0


def note_title(
    bullets: Sequence[str],
    kinds: set[str],
    ids: Iterable[str],
    language: str,
    context: TitleContext,
    avoid: Iterable[str] = (),
) -> str:
    """The subject in natural words: the phrase the note opens with ("游泳班", "Eccentric heel
    drops"), or the note's key term, followed by what about it the note records when its values
    say so ("Redis 端口", "Pi-hole address"), never by a kind label ("… rule", "…规则"). Owners read
    "Owner of <object>"; a rule on the form of the assistant's replies is "回复风格偏好" /
    "Reply style". Never a colon label, a pronoun or an instruction.

    A title that fails :func:`title_faults` (an empty kind word, a clause, the other language,
    cut inside a word) is repaired where a noun phrase is left ("Noor's birthday 19 March" →
    "Noor's birthday", "房贷利率现" → "房贷利率"), else made from the note's terms instead of
    its opening words; when neither passes, the first title stands.

    A word that names no subject alone — a weekday, a unit, a reply, a common word the chat never
    writes as a name — gives way to the note's terms or the chat's opening topic; a field word
    alone ("价格", "目标", "Alerts") is said of what it belongs to (:func:`_qualified`)."""
    ids = set(ids)
    title = _chosen_title(bullets, kinds, ids, language, context, set(avoid))
    return _qualified(_named_kind(title, bullets, language), bullets, ids, language, context)


# A bare identifier: one token with a digit or a joining mark ("NJ-88Q2TL", "u398812", "v2.4.0").
_BARE_IDENTIFIER = re.compile(r"(?=[\w.:/@#+-]*[\d_./:@#-])[\w.:/@#+-]+")
_ZH_KIND_BEFORE = re.compile(rf"([{HAN}]{{2,10}})\s*[：:]?$")
_EN_KIND_BEFORE = re.compile(r"((?:[A-Za-z][\w&'-]*\s+){0,2}[A-Za-z][\w&'-]*)\s*[:：]?$")
_COPULA_AFTER = re.compile(r"(?:\s*是|\s+(?:is|are|was|were))$", re.IGNORECASE)  # "X is ID", "X是ID"


def _named_kind(title: str, bullets: Sequence[str], language: str) -> str:
    """An identifier alone names nothing a reader knows ("NJ-88Q2TL", "ZT-5530918"): the words the
    note says it with, right before it, name what it is ("中通的月结账号 ZT-5530918" → "中通月结账号",
    "Ticket ref NJ-88Q2TL" → "Ticket ref"). Without such words the identifier stands."""
    bare = title.strip()
    if not _BARE_IDENTIFIER.fullmatch(bare) or bare.isdigit():
        return title
    for bullet in bullets:
        at = bullet.casefold().find(bare.casefold())
        if at <= 0 or _inside_code(bullet, at):
            continue  # "systemctl restart tidewatch-worker": a command's words name no kind
        if not (bullet[at - 1].isspace() or bullet[at - 1] == "：" or is_cjk(bullet[at - 1])):
            continue  # "YYYY-MM-DD", "github-claw:linyu/…": the same token goes on before it
        before = _COPULA_AFTER.sub("", bullet[:at].rstrip())  # "The booking code is QX7-22": the code
        kind = _zh_kind_before(before) if language == "zh" else ""
        kind = kind or _en_kind_before(before)
        if kind and not title_faults(kind, bullets, language):
            return kind
    return title


def _zh_kind_before(before: str) -> str:
    match = _ZH_KIND_BEFORE.search(before)
    if match is None:
        return ""
    run = match.group(1).replace("的", "")  # "中通的月结账号" is 中通 月结账号
    # the words after the last verb or preposition: "备份存到保单号" names 保单号, not 备份
    kind = re.split(r"[用到在是把给和与及或从叫为改换设]", run)[-1]
    if (
        len(kind) < 3
        or set(kind) & _ZH_NOT_IN_A_KIND
        or _PRONOUN_HAN.search(kind)  # "那个规则来源限制 srv-1": the chat pointing, no kind
        or _zh_action(kind)
        or _ZH_CLAUSE.search(kind)
        or _ZH_WHEN_OR_HOW_MANY.match(kind)
    ):
        return ""
    return kind


# Function characters that never sit inside a noun phrase naming a kind of identifier ("容器里会以",
# "还有一个" are the sentence around it); place words such as 中 / 上 do ("中通月结账号").
_ZH_NOT_IN_A_KIND = ZH_FUNCTION_HAN - frozenset("中上下前后")


def _en_kind_before(before: str) -> str:
    match = _EN_KIND_BEFORE.search(before)
    if match is None:
        return ""
    words = match.group(1).split()
    while words and (words[0].casefold() in EN_TITLE_STOPWORDS or _EN_IMPERATIVE.fullmatch(words[0])):
        words.pop(0)  # "Use Ticket ref", "the contract number": the noun phrase only
    if not words:
        return ""
    last = words[-1]
    if (
        last.casefold() in EN_TITLE_STOPWORDS
        or _EN_CLAUSE.fullmatch(last)
        or (last.islower() and re.search(r"(?:ed|ies|es)$", last) and not last.endswith("ses"))
        or sum(len(w) for w in words) < 5
        or (len(words) == 1 and not _capitalized_inside(words[0], before))
        or last.casefold().endswith("ing")
    ):
        return ""  # "carries", "is", "on": a verb or a preposition, not what the identifier is
    return _capitalized(" ".join(words))


def _inside_code(text: str, at: int) -> bool:
    return text[:at].count("`") % 2 == 1


def _capitalized_inside(word: str, text: str) -> bool:
    """One word names a kind only as a name: capitalized inside the sentence ("via Ally"), not
    the sentence's first word ("Hostname …") nor a plain word ("ref")."""
    return word[:1].isupper() and re.search(r"\S\s+" + re.escape(word) + r"(?![\w'-])", text) is not None


def _chosen_title(
    bullets: Sequence[str],
    kinds: set[str],
    ids: set[str],
    language: str,
    context: TitleContext,
    avoid: set[str],
) -> str:
    first = _title(bullets, kinds, ids, language, context, avoid)
    if not title_faults(first, bullets, language):
        if not _bare_word(first, context):
            return first
        phrase = _instead_of_word(first, bullets, language)
        if phrase != first or not (_names_nothing(first) or _said_as_verb(first, bullets)):
            return phrase
        # A weekday, a unit or a reply alone names nothing ("Wednesdays", "合理"): the note's other
        # terms, else the subject the conversation opened with; the word only when there is neither.
        # (A common word keeps its place: its note's other terms are as often a nearby word.)
        instead = _title(bullets, kinds, ids, language, context, avoid | {first.casefold()}, from_terms=True)
        for candidate in (instead, context.opening_topic):
            if (
                candidate
                and candidate.casefold() != first.casefold()
                and not _names_nothing(candidate)
                and not title_faults(candidate, bullets, language)
            ):
                return _capitalized(candidate) if language == "en" else candidate
        return first
    repaired = _repaired(first, bullets)
    if _PLAIN_WORD.fullmatch(first) and language == "zh":
        # "biber" over a Chinese note: the Chinese word the note says it with ("biber 的缓存" →
        # "biber 缓存"), else a plain noun ("compose 配置").
        # Only a setup's "配置" says what the note is ("compose 配置"); "规则" / "修复" / "问题" / "偏好"
        # after a name are the kind labels a reader drops ("thuthesis 规则" → "thuthesis").
        part_of = _phrase_around(first, bullets, language)  # "worker" of `tidewatch-worker`
        if part_of and not title_faults(part_of, bullets, language):
            return part_of
        kind = _kind(kinds)
        noun = _zh_word_after(first, bullets, context) or ("配置" if kind in ("setup", NoteKind.NOTE) else "")
        if not noun:
            return first  # a name is in no language ("coturn", "ledgerbot"): it stands alone
        repaired = _joined(first, noun, language)
    if repaired and not title_faults(repaired, bullets, language):
        return repaired
    vague = {w.casefold() for w in _WORD_LATIN.findall(first)}  # "Days rule": "days" is no subject
    for candidate in (
        _title(bullets, kinds, ids, language, context, avoid, from_terms=True),
        _title(bullets, kinds, ids, language, context, avoid | vague, from_terms=True),
    ):
        if candidate and not title_faults(candidate, bullets, language):
            return candidate
    chosen = repaired or first
    if _KIND_WORDS.match(chosen.strip()) and bullets and _kind(kinds) in (NoteKind.NOTE, "setup"):
        # "配置" over "每天 1500 字、周日休息。": a plain fact has no kind to name, so the bare kind word
        # is an empty label; a short bullet says the fact itself. (A rule keeps "规则" rather than a
        # title made of its times.)
        short = bullets[0].strip().rstrip("。.!！")
        if 0 < len(short) <= _BULLET_AS_TITLE and not _DEICTIC.search(short):
            return short
    return chosen


_BULLET_AS_TITLE = 24  # characters: a bullet this short can stand as its own title

# Words that are never a subject on their own, in any case: a reply, a unit.
_NEVER_ALONE = re.compile(
    r"yes|no|ok|okay|sure|yeah|yep|nope|thanks|done|fine|right|mg|ml|g|kg|km|cm|mm|h|hr|min|sec|gb|mb|tb|kb"
    r"|好的?|对|行|是|不|嗯|可以|合理|没问题|收到|谢谢",
    re.IGNORECASE,
)
_IDENTIFIER = re.compile(r"[\w.:/@*-]*[\w*]")


def _bare_word(title: str, context: TitleContext) -> bool:
    """A single word a reader cannot keep as a heading: a reply or a unit, a weekday or month, or
    a common English word the chat never writes as a name. Identifiers ("vps-hk", "pm2"), acronyms
    ("NAS") and names ("Immich", "Caddy") stand alone."""
    bare = title.strip()
    if _NEVER_ALONE.fullmatch(bare):
        return True
    if not re.fullmatch(r"[A-Za-z]+", bare):
        return False
    if _WHEN_WORD.fullmatch(bare) or _WEEKDAY_SHORT.fullmatch(bare):
        return True
    return not context.names(bare)


def _qualified(
    title: str, bullets: Sequence[str], ids: set[str], language: str, context: TitleContext
) -> str:
    """A field word alone ("价格", "目标", "老师", "Alerts", "Partition") names no subject: it is
    said of what the note says it belongs to, the name right before it ("Ridgeway 面粉的价格" →
    "Ridgeway 面粉价格", "the gpu partition" → "Gpu partition"). Without one the word stands: a
    guessed owner ("Splitwise tablet") is worse than a plain word."""
    field = title.strip()
    if not _FIELD_WORD.fullmatch(field):
        return title
    owner = _owner_before(field, bullets, context)
    if not owner:
        return title
    noun = field if language == "zh" or not field[:1].isupper() else field[:1].lower() + field[1:]
    qualified = _joined(owner, noun, language)
    if title_faults(qualified, bullets, language) or _negated(" ".join(bullets), owner):
        return title  # "not physical pin positions" is no "Physical pin"
    return qualified


def _owner_before(field: str, bullets: Sequence[str], context: TitleContext) -> str:
    """The name a note puts right before a field word, with at most 的 / 's / a space between: a
    name the chat uses again, not a verb, a number or a function word."""
    # (?-i:…): Chinese has no case, and a case-insensitive Han class costs ~3 ms more to compile, per call
    pattern = re.compile(
        rf"([A-Za-z][\w.-]*[A-Za-z0-9]|(?-i:[{HAN}]){{2,6}})(?:\s*的\s*|'s\s+|\s+|)(?={re.escape(field)})",
        re.IGNORECASE,
    )
    for bullet in bullets:
        for match in pattern.finditer(bullet):
            owner = match.group(1)
            if is_cjk(owner[0]):
                # the last word of the Chinese run: "统一用书库" names 书库
                owner = next(
                    (
                        owner[i:]
                        for i in range(len(owner) - 1)
                        if context.chat.count(owner[i:]) >= 2
                        and not _zh_action(owner[i:])
                        and not set(owner[i:]) & ZH_FUNCTION_HAN
                    ),
                    "",
                )
            if (
                owner
                and len(owner) >= 2
                and owner.casefold() not in EN_TITLE_STOPWORDS
                and not _EN_TOPIC_STOP.fullmatch(owner)
                and not _EN_IMPERATIVE.fullmatch(owner)
                and not _DEICTIC.search(owner)
                and not _FIELD_WORD.fullmatch(owner)
                and not _ZH_PREDICATE.search(owner)
                and not _ZH_WHEN_OR_HOW_MANY.match(owner)
                and context.uses(owner.casefold()) >= 2
            ):
                return owner
    return ""


def _names_nothing(word: str) -> bool:
    """A reply, a unit, a weekday or a month: never a subject in any note."""
    return bool(_NEVER_ALONE.fullmatch(word) or _WHEN_WORD.fullmatch(word) or _WEEKDAY_SHORT.fullmatch(word))


_WEEKDAY_SHORT = re.compile(r"mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun", re.IGNORECASE)

# What says the next word is a verb: a subject pronoun, a modal or "to" before it ("It says 88 mcg",
# "I can't lose the whaler stuff"), or, opening a sentence, an -ing form before an article or a
# possessive ("Moving the send to Thursday").
_EN_VERB_BEFORE = frozenset(
    (
        "i", "it", "we", "you", "he", "she", "they", "this", "that", "can", "can't", "cannot", "could",
        "will", "won't", "would", "should", "must", "may", "might", "do", "don't", "does", "doesn't",
        "did", "didn't", "to",
    )
)  # fmt: skip
# … of which these also stand before a name ("moved CI to GitHub Actions", "Flight to Lisbon", "that
# Lisbon trip", "it Gitea"): there only a lower-case word after them is a verb.
_EN_ALSO_BEFORE_A_NAME = frozenset(("to", "this", "that", "it"))
_EN_OBJECT_AFTER = frozenset(
    ("the", "a", "an", "my", "our", "your", "his", "her", "their", "it", "this", "that", "them")
)
_EN_TOKEN = re.compile(r"[A-Za-z][A-Za-z']*|[^\sA-Za-z]+")  # a number or a mark between words is a token


@text_cache
def _en_tokens(text: str) -> tuple[str, ...]:
    return tuple(_EN_TOKEN.findall(text))


def _said_as_verb(word: str, bullets: Sequence[str]) -> bool:
    """The note uses the one word of its title as a verb: a heading names a thing, never what
    someone does ("Says", "Lose", "Moving"). A scan of the words, no pattern per word."""
    folded = word.casefold()
    if not word.isascii() or not word.isalpha():
        return False
    for bullet in bullets:
        tokens = _en_tokens(bullet)
        for i, token in enumerate(tokens):
            if token.casefold() != folded:
                continue
            before = tokens[i - 1].casefold() if i > 0 else ""
            if before in _EN_VERB_BEFORE and (token[:1].islower() or before not in _EN_ALSO_BEFORE_A_NAME):
                return True
            opening = i == 0 or token[:1].isupper()  # where bullets are joined, a capital opens one
            if (
                folded.endswith("ing")
                and opening
                and i + 1 < len(tokens)
                and tokens[i + 1].casefold() in _EN_OBJECT_AFTER
            ):
                return True
    return False


# Words that name a field of something, not a thing of its own: what it is the price, the target,
# the teacher, the alerts of. General language of both languages, not words of a case.
_FIELD_WORD = re.compile(
    r"目标|价格|单价|费率|费用|价钱|地址|端口|版本|配置|设置|许可证?|授权|时间|日程|密码|账号|账户|路径|目录|文件|脚本"
    r"|项目|仓库|老师|医生|团队|客户|告警|日志|任务|节点|服务|备份|提醒|规则|策略|权限|额度|上限|门槛"
    r"|(?i:rates?|prices?|fees?|licen[cs]es?|targets?|address|ports?|versions?|config|settings?|schedule|passwords?"
    r"|accounts?|paths?|folders?|files?|scripts?|projects?|repos?|teachers?|doctors?|team|clients?|alerts?|logs?"
    r"|jobs?|tasks?|nodes?|services?|backups?|reminders?|rules?|polic(?:y|ies)|permissions?|limits?|thresholds?"
    r"|partitions?|pins?|builds?|invoices?|secrets?|plugins?|cameras?|tablets?|rotas?)"
)


def _instead_of_word(word: str, bullets: Sequence[str], language: str) -> str:
    """One common word ("Aisle", "Deps", "worker") names no subject: the identifier it is part of
    ("tidewatch-worker"), else the noun phrase it makes in the bullet ("Aisle seat", "Python deps");
    the word when there is neither. (A title from the note's other terms was tried here: as often a
    nearby word as the subject — "Splitwise group" over a rent split — so it is not.)"""
    phrase = _phrase_around(word, bullets, language)
    if phrase and not title_faults(phrase, bullets, language):
        return phrase
    return word


def _phrase_around(word: str, bullets: Sequence[str], language: str) -> str:
    """The identifier ``word`` is a part of ("worker" in `tidewatch-worker`), else, in an English
    note, the two-word noun phrase it makes with the word after or before it ("aisle seat",
    "Python deps")."""
    said = re.escape(word) + "|" + re.escape(word[:1].lower() + word[1:])  # "RCLONE_CONFIG" is not rclone's
    part = re.compile(r"(?:^|[-_.:@])(?:" + said + r")(?:$|[-_.:@])")
    for bullet in bullets:
        for token in _IDENTIFIER.findall(bullet):
            if (
                token.casefold() != word.casefold()
                and part.search(token)
                and "/" not in token  # a path names where a thing lives, not the thing ("/etc/rclone/…")
                and len(token) <= TITLE_MAX
            ):
                return token.strip(".:")
    if language == "zh" or not re.fullmatch(r"[A-Za-z]+", word):
        return ""

    def noun(candidate: str) -> bool:
        return bool(
            re.fullmatch(r"[A-Za-z]{3,}", candidate)
            and candidate.casefold() not in EN_TITLE_STOPWORDS
            and not _EN_TOPIC_STOP.fullmatch(candidate)
            and not _EN_CLAUSE.fullmatch(candidate)
            and not _EN_IMPERATIVE.fullmatch(candidate)
            and not _EN_QUANTIFIER.match(candidate + " ")
            and not candidate.casefold().endswith("ly")
            and candidate.casefold()
            not in ("plus", "minus", "only", "also", "too", "again", "net", "per", "vs")
            and not _VAGUE_WORD.fullmatch(candidate)  # "whaler stuff": a vague word names nothing more
        )

    pattern = re.compile(
        r"(?:([A-Za-z]+)\s+)?(?<![\w'-])" + re.escape(word) + r"(?![\w'-])(?:\s+([A-Za-z]+))?", re.IGNORECASE
    )
    for bullet in bullets:
        for match in pattern.finditer(bullet):
            before, after = match.group(1) or "", match.group(2) or ""
            said = match.group(0)[len(before) :].strip().split()[0]
            if after and noun(after) and after[:1].islower():
                return _capitalized(f"{said} {after}")
            if before and noun(before) and not _WHEN_WORD.fullmatch(word):
                return _capitalized(f"{before} {said}")
    return ""


def _zh_word_after(word: str, bullets: Sequence[str], context: TitleContext) -> str:
    """The Chinese word a note says right after a Latin word, with at most 的 between ("biber 的缓存
    坏了" → "缓存"), when the chat keeps using it and it is a noun, not a verb, a time or a clause."""
    pattern = re.compile(
        r"(?<![\w.-])" + re.escape(word) + rf"\s*的?\s*((?-i:[{HAN}]){{2,4}})", re.IGNORECASE
    )
    for bullet in bullets:
        for match in pattern.finditer(bullet):
            run = match.group(1)
            for length in range(len(run), 1, -1):
                piece = run[:length]
                if (
                    context.chat.count(piece) >= 2
                    and not _ZH_PREDICATE.search(piece)
                    and not _zh_action(piece)
                    and not _ZH_CLAUSE.search(piece)
                    and not _ZH_WHEN_OR_HOW_MANY.match(piece)
                    and not set(piece) & ZH_FUNCTION_HAN
                    and piece[:2] not in ZH_TITLE_STOPWORDS
                ):
                    return piece
    return ""


def _title(
    bullets: Sequence[str],
    kinds: set[str],
    ids: set[str],
    language: str,
    context: TitleContext,
    avoid: set[str],
    from_terms: bool = False,
) -> str:
    text = " ".join(bullets)
    kind = _kind(kinds)
    avoided = {a.casefold() for a in avoid}
    if NoteKind.OWNER in kinds:
        owned = _owned(text)
        subject = _numbered_name(owned, context) or _subject(text, set(ids), language, context, avoided)
        if not subject:
            return "负责人" if language == "zh" else "Owner"
        if language == "zh":
            return _joined(subject, "负责人", language)  # "举报负责人", "etl 负责人": no space inside Chinese
        return f"Owner of {subject}"
    if kind in (NoteKind.PREFERENCE, "rule", NoteKind.NOTE) and about_replies(text):
        return "回复风格偏好" if language == "zh" else "Reply style"
    topic = (
        ""
        if from_terms
        else next((t for t in (_topic(b) for b in bullets[:2]) if t and context.recurs(t)), "")
    )
    if kind in (NoteKind.NOTE, "setup") and not topic and bullets and not from_terms:
        # A plain fact names its subject itself ("Groceries: Ocado …", "Rent is split …", "Oat flat white, …").
        topic = _lead_subject(bullets[0]) or (_first_clause(bullets[0]) if kind == NoteKind.NOTE else "")
    subject = topic or _subject(text, set(ids), language, context, avoided)
    if not subject:
        lead = (_first_clause(bullets[0]) if bullets and not from_terms else "") or context.opening_topic
        return (
            lead
            or _KIND_NOUN[kind][language]
            or _opening_term(language, context, avoided)
            or ("笔记" if language == "zh" else "Note")
        )
    # A plain fact's subject says it; a rule's values are its conditions ("每天最多 2 条" is no
    # schedule), so neither takes a facet.
    facet = _facet(text, language) if kind not in _RULE_KINDS and kind != NoteKind.NOTE else ""
    if facet and not _names_facet(subject, facet) and _short(subject):
        return _joined(subject, facet, language)
    # No kind label after the subject ("Fenwick invoices rule", "db-3 fix", "门慢规则"): a reader
    # keeps the subject and reads the kind from the bullet. A subject that names nothing on its own
    # ("Last time") fails :func:`title_faults` and is rebuilt from the note's terms; a kind word
    # after it would only hide that.
    if language == "zh" or _in_code(subject, text):
        return subject  # `gpu`, `ffmpeg` in code are names, kept as written ("Gpu" is no word)
    return _capitalized(subject)


def _opening_term(language: str, context: TitleContext, avoid: set[str]) -> str:
    """The term the user's opening messages are most about ("钢琴课" over "每节 220 元。"): a subject
    of last resort, before an empty "笔记"."""
    opening = " ".join(signals.prose(t) for t in context.first_user_texts)
    avoided = set(avoid)
    for _ in range(3):  # a field or role word ("老师", "价格") is no subject alone: the next term
        term = _subject(opening, set(), language, context, avoided).split(" ")[0] if opening.strip() else ""
        if not term or not _FIELD_WORD.fullmatch(term):
            break
        avoided.add(term.casefold())
    return term if term and not _names_nothing(term) and not _EMPTY_TITLE.match(term) else ""


def _in_code(subject: str, text: str) -> bool:
    """The subject is written inside a code span of the note (`gpu`, `render`)."""
    return any(subject.casefold() == span.strip().casefold() for span in re.findall(r"`([^`]*)`", text))


_RULE_KINDS = frozenset({"rule", NoteKind.PREFERENCE, NoteKind.DECISION})


# What kind of note it is, as a noun a person puts after the subject ("备份规则", "Deploy rule");
# none for a plain note, whose subject says it all.
_KIND_NOUN = {
    "incident": {"en": "issue", "zh": "问题"},
    NoteKind.ROOT_CAUSE: {"en": "issue", "zh": "问题"},
    NoteKind.FIX: {"en": "fix", "zh": "修复"},
    NoteKind.CHANGE: {"en": "change", "zh": "变更"},
    "rule": {"en": "rule", "zh": "规则"},
    NoteKind.PREFERENCE: {"en": "preference", "zh": "偏好"},
    NoteKind.DECISION: {"en": "decision", "zh": "决定"},
    "setup": {"en": "setup", "zh": "配置"},
    NoteKind.NOTE: {"en": "", "zh": ""},
}


def _joined(subject: str, noun: str, language: str) -> str:
    """ "游泳班" + "时间" → "游泳班时间"; "Redis" + "端口" → "Redis 端口"; "Pi-hole" + "address"."""
    if language == "zh" and noun[:1] and is_cjk(noun[0]):
        glue = "" if is_cjk(subject[-1]) else " "
        return f"{subject}{glue}{noun}"
    return f"{_capitalized(subject)} {noun}"


def _names_facet(subject: str, facet: str) -> bool:
    folded = subject.casefold()
    return facet.casefold() in folded or any(word in folded for word in _FACET_SYNONYMS.get(facet, ()))


def _short(subject: str) -> bool:
    """A one-word subject takes a facet ("Redis 端口"); a phrase already says what it is about."""
    return len(subject.split()) <= 1 and sum(map(is_cjk, subject)) <= 5


# --------------------------------------------------------------------------- facets

# What about the subject a note records, read from its values; the first that applies wins
# (a port beats the host it is on). General vocabulary of values, in both languages.
_FACETS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"端口|\bports?\b|\blistens? on \d", re.IGNORECASE), "端口", "port"),
    (
        re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])|地址|\baddress\b|\bIP\b", re.IGNORECASE),
        "地址",
        "address",
    ),
    (re.compile(r"版本|\bversion\b|(?<![\w.])v\d+(?:\.\d+)+", re.IGNORECASE), "版本", "version"),
    (
        re.compile(r"\d\s*(?:mg|毫克|ml|毫升)\b|\d\s*(?:mg|ml)(?![a-z])|剂量|\bdose\b", re.IGNORECASE),
        "用量",
        "dose",
    ),
    (
        re.compile(
            r"\+\d{1,3}[\s-]?\d{2,4}[\s-]?\d{3,4}[\s-]?\d{0,4}(?!\d)|(?<!\d)1[3-9]\d{9}(?!\d)"
            r"|微信|WhatsApp|电话|手机|邮箱|\bemail\b|\bphone\b",
            re.IGNORECASE,
        ),
        "联系方式",
        "contact",
    ),
    (re.compile(r"截止|\bdeadline\b|\bdue\b", re.IGNORECASE), "截止日期", "deadline"),
    (
        re.compile(r"\d\s*元|[¥￥$€£]\s*\d|单价|价格|总价|\bprice\b|\bcosts?\b|\bfee\b", re.IGNORECASE),
        "费用",
        "price",
    ),
    (
        re.compile(
            r"每(?:周|天|日)|每月\s*\d{1,2}\s*[号日]|周[一二三四五六日天]|星期[一二三四五六日天]|(?<!\d)\d{1,2}:\d{2}(?!\d)"
            r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:daily|weekly|nightly)\b",
            re.IGNORECASE,
        ),
        "时间",
        "schedule",
    ),
)
_CODE_SPAN = re.compile(r"`[^`]*`")
_FACET_SYNONYMS = {
    "地址": ("ip", "host", "主机"),
    "address": ("ip", "host"),
    "联系方式": ("微信", "电话", "whatsapp", "email", "联系"),
    "contact": ("phone", "email", "whatsapp"),
    "时间": ("周", "天", "点", "日程", "时刻"),
    "schedule": ("day", "time", "weekly", "daily"),
    "费用": ("价", "费", "钱", "元"),
    "price": ("cost", "fee", "rate"),
    "用量": ("mg", "剂"),
}


# A facet that says more than another: a port is on an address, a dose has its times.
_SUBSUMES = {"port": {"address"}, "dose": {"schedule"}, "deadline": {"schedule"}}


def _facet(text: str, language: str) -> str:
    """The one thing the note's values are about; none when they are about several (a class's
    time, place and teacher's phone make no one facet)."""
    # A schedule is said in words ("每周二", "daily at 03:00"); inside a command or a config line
    # ("--keep-daily 7", "OnCalendar=…") a day word is an option's name, not when the thing happens.
    prose = _CODE_SPAN.sub(" ", text)
    found = [(zh, en) for pattern, zh, en in _FACETS if pattern.search(prose if en == "schedule" else text)]
    names = {en for _, en in found}
    kept = [(zh, en) for zh, en in found if not any(en in _SUBSUMES.get(other, ()) for other in names)]
    if len(kept) != 1:
        return ""
    zh, en = kept[0]
    return zh if language == "zh" else en


# The assistant's own replies as the subject of a rule: their language, length, format, emoji.
_REPLIES = re.compile(
    r"回复|回答|回我|答复|emoji|表情|长篇|先给结论|给结论|结论先|啰嗦|简短|"
    r"(?<![\w'])(?:repl(?:y|ies)|answers?|respond|responses?|emojis?|bullet points|tl;dr)(?![\w'])",
    re.IGNORECASE,
)
# A summary is a reply's form only when it is the assistant's ("when I ask you to summarise…",
# "给我总结…"): "周报总结发到群里" is a rule about a report, not about how the assistant answers.
_SUMMARY = re.compile(r"总结|(?<![\w'])(?:summari[sz]e|summary|summaries)(?![\w'])", re.IGNORECASE)
_TO_THE_ASSISTANT = re.compile(r"你|给我|跟我|回我|(?<![\w'])(?:you|me)(?![\w'])", re.IGNORECASE)
_REPLY_OBJECT = re.compile(r"(?<![\w'])(?:emails?|messages? to|邮件|评论)(?![\w'])", re.IGNORECASE)


def about_replies(text: str) -> bool:
    """A rule about how the assistant answers ("以后回复先给结论", "No more emojis"): the reply
    words stand in its first clause ("密码私聊发，不在群里回复" is a rule about passwords)."""
    first = re.split(r"[，,;；。.:：]", _EN_OPENER.sub("", text).strip(), maxsplit=1)[0]
    if _REPLY_OBJECT.search(text):
        return False
    return bool(_REPLIES.search(first)) or bool(_SUMMARY.search(first) and _TO_THE_ASSISTANT.search(first))


# --------------------------------------------------------------------------- topics

# Where a Chinese statement's subject ends: a verb, an adverb, a preposition, a value after a
# space. Single characters that also begin common nouns are excluded by what follows them
# ("会议", "用户", "要点").
_ZH_PREDICATE = re.compile(
    r"是|在(?!线)|从|改(?!动)|换|用(?!户|量|法|药|品)|每|只|不|没|要(?!点|求)|会(?!议|员|计)|能(?!力|源)|可(?!乐)|需|必|统一|一律"
    r"|由|归|跑|放|装|开(?!发|关|头)|已|都|也|就|先|再|给|把|被|有(?!效|限)|到|去|来|说|让|请|别|按|对(?!象|接)|比|往|向|跟|→|->"
    r"|的话|成功|失败|完成|前|后|时|里|上(?!海)|下(?!载|午)"
)
_ZH_TOPIC_LEAD = re.compile(r"^(?:以后|今后|从现在起|从今天起|平时|一般|默认|每次|所有的?|记得|注意)\s*")
_PRONOUN_HAN = re.compile(r"[我你您他她它咱]|这个|那个|这些|那些|这里|那里|这样|那样|这么|那么")
_EN_TOPIC_STOP = re.compile(
    r"(?<![\w'-])(?:is|are|was|were|be|been|has|have|had|now|moved|moves|runs|uses?|used|goes|go|went|lives?|sits?"
    r"|listens?|points?|needs?|should|must|will|can|could|would|may|shrunk|shrank|changed|became|got|gets|takes?"
    r"|on|at|in|to|from|for|with|by|until|via|of|under|over|after|before|since|per|max|min|maximum|minimum"
    r"|and|or|but|because|so|then|when|if|as|than|instead)(?![\w'-])",
    re.IGNORECASE,
)
# A bullet that opens with a verb tells someone what to do: its first words are no subject.
_EN_IMPERATIVE = re.compile(
    r"^(?:add|set|use|run|keep|make|put|send|check|restart|install|remove|delete|create|move|change|update"
    r"|enable|disable|avoid|never|always|don't|do|ask|call|book|pay|take|give|let|try|see|open|close|write"
    r"|read|start|stop|switch|pin|copy|edit|replace|go|get|bring|tell|no|just|please|remember|announce|post"
    r"|notify|ping|mention|schedule|reply|answer|respond|include|drop|skip|leave|back|rotate|renew|deploy|push"
    r"|tag|log|note|save|store|mark|forward|cc|email|text|message|send)\b",
    re.IGNORECASE,
)
_EN_DATE_LEAD = re.compile(
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d|^\d", re.IGNORECASE
)


def _topic(bullet: str) -> str:
    """The noun phrase a statement opens with, when it is a name and not a pronoun, a
    kind label, an instruction or a value: "游泳班每周六 9:00" → "游泳班",
    "Eccentric heel drops 3×15 per leg" → "Eccentric heel drops"."""
    if bullet.lstrip().startswith("`"):
        return ""  # a command or a value opens it: no name of a subject
    text = _ASIDE_LEAD.sub("", bullet).replace("`", "").strip()
    label = re.match(r"^\s*([^:：，,。；;]{1,16}?)\s*[:：]\s*(?=\S)", text)
    if label and re.search(r"说$|\bsaid$|\bsays$", label.group(1).strip()):
        text = text[label.end() :]  # "王老师说：…": who said it is not what it is about
    elif label and not _KIND_WORDS.match(label.group(1).strip()):
        text = label.group(1)  # "抬头：…", "Host: …": the label is what the line is about
    if has_cjk(text):
        return _zh_topic(text)
    return _en_topic(text)


# The verb of "固定在", "部署到", "迁到" after an identifier: only these put a thing somewhere; other
# words there are a noun of the name ("Node 20 镜像在 Harbor 上" is about the image).
_ZH_PLACED_AFTER_A_NAME = re.compile(r"(?<=[\d+_.-])\s+(?:放|存|装|挂|固定|部署|搬|迁|移|设|定)$")


def _zh_topic(text: str) -> str:
    text = _ZH_TOPIC_LEAD.sub("", text)
    end = len(text)
    for boundary in (
        re.search(r"[，,。；;：:（(！!？?|]|\s/\s", text),
        _en_value_start(text),  # a value after a space: "游泳班每周六 9:00" (but "Task 2 先练…" names Task 2)
        _ZH_PREDICATE.search(text),
    ):
        if boundary is not None:
            end = min(end, boundary.start())
    topic = _ZH_TRAILING_WHEN.sub("", text[:end].strip()).removesuffix("的").strip()
    if end < len(text) and text[end] in "在到成为":
        # "群晖 DS224+ 固定在 …": after an identifier, the word before 在 / 到 is the predicate's verb
        # ("GPU 预约在飞书表格" names 预约: after a plain name it may be a noun)
        topic = _ZH_PLACED_AFTER_A_NAME.sub("", topic)
    # "Task 2", "VM 210", "Node 20 镜像": a numbered thing, or a noun of one
    numbered = re.fullmatch(rf"[A-Z][A-Za-z]+ \d{{1,4}}(?:\s*[{HAN}]{{1,4}})?", topic)
    if _ZH_NOT_A_NAME.search(topic) or (_LOOSE_VALUE.search(topic) and not numbered) or _zh_action(topic):
        return ""
    if (
        sum(map(is_cjk, topic)) < 2
        and len(topic) < 3
        or len(topic) > 24
        or _PRONOUN_HAN.search(topic)
        or _KIND_WORDS.match(topic)
        or topic[:1].isdigit()
        or topic in ZH_TITLE_STOPWORDS
        or not any(is_cjk(c) for c in topic)
        and len(topic.split()) > 3
    ):
        return ""
    return topic


# "and from now on every prod deploy …": the subject starts after the chat's joints and "every".
_EN_OPENER = re.compile(
    r"^(?:(?:and|so|also|but|then|ok(?:ay)?|right)[,]?\s+)*(?:(?:from now on|going forward|in future|in the future"
    r"|for the record|fyi|btw|note that|remember that|keep in mind that|one more for you|one more)[,:]?\s*)?"
    r"(?:(?:my|our|your)\s+(?:own\s+)?)?",
    re.IGNORECASE,
)
_EN_QUANTIFIER = re.compile(r"^(?:every|all|each|any|both|our|the)\s+", re.IGNORECASE)
# The verb an instruction opens with, and the words that may stand before it ("never", "always").
_EN_INSTRUCTION = re.compile(
    r"^(?:(?:never|always|don't|do not|please|just)\s+)?([a-z]+)\s+(?=\S)", re.IGNORECASE
)
_EN_CONTRACTION = re.compile(r"^(?:it|that|there|here|this|what|i|we|you|they|he|she)'", re.IGNORECASE)


# Verbs of doing that open an instruction, not a name ("删掉 unit 里…", "排计划", "新建项目").
_ZH_ACTION_LEAD = re.compile(
    r"^(?:删掉|删除|删|添加|加上|加|改成|改为|修改|改|换成|换|安装|装|排|补进|补|迁到|迁|新建|建|设置|设|打开|关掉|关闭"
    r"|拷|复制|跑|写|发|检查|确认|记|查|看|找|拿|试|建议|检测|注意|避免|保留|去掉|提前|推迟|指定|选用|选择|使用|用(?!户|量|药|法))"
)


def _zh_action(topic: str) -> bool:
    """An action, not a name: opens with a verb of doing, or ends in one lone character after a
    space ("Python repo 迁")."""
    if re.fullmatch(rf"[A-Z0-9]{{1,3}}\s[{HAN}]", topic):
        return False  # "B 组", "A 栋": a lettered thing, named by its letter
    return bool(_ZH_ACTION_LEAD.match(topic) or re.search(rf"\s[{HAN}]$", topic))


# When something happens is no part of its name: "乐乐周三 15:30 放学" is about 乐乐.
_ZH_TRAILING_WHEN = re.compile(
    r"(?:每?(?:周|星期)[一二三四五六日天末]|[今明昨]天|[早晚]上|[上下中]午|凌晨)+$"
)


def _en_value_start(text: str) -> re.Match[str] | None:
    """Where the values start: a number after a space, except one right after a capitalized first
    word, which names a thing ("Priority 2", "Task 2", "VM 210")."""
    for match in re.finditer(r"\s\d", text):
        before = text[: match.start()].split()
        if (
            len(before) == 1
            and before[0][:1].isupper()
            and re.match(r"\s\d{1,4}(?=\s|$)", text[match.start() :])
        ):
            continue
        return match
    return None


# What a name never holds: a conjunction or list mark, a demonstrative or ordinal, a modal, a dash.
_ZH_NOT_A_NAME = re.compile(
    r"或者|或是|还是|以及|、|——|-{2}|这类|那类|这种|那种|第[一二三四五六七八九十\d]|应该|得|\"|“|”"
)
# A loose value (a number of its own, an amount) is what a note says about its subject, not the subject.
_LOOSE_VALUE = re.compile(r"(?:^|\s)[-+]?\d[\d.,]*(?:\s|$)|[¥￥$€£]\s*\d")
# Words that end an English subject's phrase: adverbs and verbs in -ed / -s that the stop list misses.
_EN_NOT_LAST = re.compile(r"(?:only|also|too|again|ed|expires|fails|breaks|stays)$", re.IGNORECASE)


def _en_topic(text: str) -> str:
    text = _EN_OPENER.sub("", text)
    instruction = _EN_INSTRUCTION.match(text)
    if instruction and _EN_IMPERATIVE.match(instruction.group(1)):
        # "Announce every prod deploy in #releases": what it is about is the verb's object.
        text = text[instruction.end() :]
    if (
        _EN_IMPERATIVE.match(text)
        or _EN_DATE_LEAD.match(text)
        or _DEICTIC.match(text)
        or _EN_CONTRACTION.match(text)
    ):
        return ""
    text = _EN_QUANTIFIER.sub("", _EN_ARTICLE.sub("", text))
    end = len(text)
    for boundary in (
        re.search(r"[,;:()!?—–→]|\.(?=\s|$)|\s-\s|\s[A-Za-z]+\d", text),
        _en_value_start(text),
        _EN_TOPIC_STOP.search(text),
    ):
        if boundary is not None:
            end = min(end, boundary.start())
    topic = text[:end].strip()
    while topic and _EN_NOT_LAST.search(topic.split()[-1]) and len(topic.split()) > 1:
        topic = topic.rsplit(" ", 1)[0]  # "Immich only" → "Immich"
    words = topic.split()
    if (
        _LOOSE_VALUE.search(topic)
        or (words and _EN_NOT_LAST.search(words[-1]))
        or not words
        or len(words) > 4
        or _DEICTIC.search(topic)
        or _KIND_WORDS.match(topic)
        or all(w.casefold() in EN_TITLE_STOPWORDS for w in words)
        or len(topic) < 3
    ):
        return ""
    return topic


def _capitalized(subject: str) -> str:
    first = subject.split(" ", 1)[0]
    if first.isalpha() and first.islower():
        return (
            subject[:1].upper() + subject[1:]
        )  # a plain word starts the title; an identifier keeps its case
    return subject


# Words that make a phrase a chat line rather than a subject: pronouns, "here", deixis (both languages).
_DEICTIC = re.compile(
    r"(?<![\w'])(?:i|me|my|we|us|our|you|your|he|him|his|she|her|they|them|their|it|its|this|that|these|those"
    r"|here|there|today|tomorrow|yesterday)(?![\w'])|[我你您他她它咱]|这个|那个|这些|那些|这里|那里",
    re.IGNORECASE,
)
_KIND_WORDS = re.compile(
    r"^(?:fix|cause|root cause|rule|note|notes|summary|update|change|decision|setup|tl;dr|修复|修法|根因|原因|规则|"
    r"要点|总结|结论|变更|决定|配置|备注)$",
    re.IGNORECASE,
)
_LABEL_COLON = re.compile(r"^\s*([^:：`]{2,28}?)\s*[:：]\s*\S")
_EN_COPULA = re.compile(
    r"^\s*((?:[A-Za-z][\w'.+-]*\s+){0,3}?[A-Za-z][\w'.+-]*)\s+(?:is|are|lives|live|runs|run|sits|goes|go|stays|uses)\s",
)
_ZH_COPULA = re.compile(
    r"^\s*([" + HAN + r"A-Za-z0-9_.\-` ]{2,14}?)\s*(?:是|在|放在|跑在|存在|用的是|统一用)"
)
_EN_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


# A phrase that says what to do or what someone will do is a chat line, not a subject.
_NOT_SUBJECT = re.compile(
    r"[,，、]|\d$|^[\d一二两三四五六七八九十几]|^(?:按|用|请|记得)|应该|先|要|把|就|可以|需要|会|别|不|"
    r"(?<![\w'])(?:will|should|would|could|can|do|does|did|done|let's|please|make|need|so|and|but|or)(?![\w'])",
    re.IGNORECASE,
)
_ASIDE_LEAD = re.compile(
    r"^\s*(?:for the record|fyi|btw|note that|remember that|keep in mind that)[,:]?\s+", re.IGNORECASE
)


def _lead_subject(bullet: str) -> str:
    """The subject a plain fact opens with: a short label before its colon, or the words before
    "is / runs / 是 / 在" — when they are a name, not a pronoun, a kind label or an instruction."""
    bullet = _ASIDE_LEAD.sub("", bullet)
    for pattern in (_LABEL_COLON, _EN_COPULA, _ZH_COPULA):
        match = pattern.match(bullet)
        if match is None:
            continue
        subject = _EN_ARTICLE.sub("", match.group(1).replace("`", "").strip())
        words = subject.split()
        if (
            subject
            and not _DEICTIC.search(subject)
            and not _NOT_SUBJECT.search(subject)
            and not set(subject) & ZH_FUNCTION_HAN  # "staging 上应用监听的" is half a sentence
            and not _KIND_WORDS.match(subject)
            and len(words) <= 4
            and not (len(words) == 1 and subject.casefold() in EN_TITLE_STOPWORDS)
        ):
            return subject
    return ""


def _first_clause(bullet: str) -> str:
    """The bullet's first clause, when short and free of pronouns: "Oat flat white, extra shot" → "Oat flat white"."""
    clause = re.split(r"[,，;；。:：(（—]|\s-\s", bullet, maxsplit=1)[0].replace("`", "").strip().strip(" .")
    if (
        not clause
        or _zh_action(clause)
        or _ZH_WHEN_OR_HOW_MANY.match(clause)
        or _DEICTIC.search(clause)
        or _NOT_SUBJECT.search(clause)
        or _KIND_WORDS.match(clause)
        or len(clause) > 24
        or len(clause.split()) > 4
    ):
        return ""
    return clause


# "Alice owns billing-svc", "limit increases go through Priya", "举报由周宁负责", "周宁负责举报", "etl 归 Kenji".
_EN_OWNED = re.compile(
    r"\b(?:owns|maintains|is responsible for|is in charge of|looks after|handles|runs)\s+(?:the\s+)?"
    r"([\w`.\-/ ]{2,40}?)(?=\s+(?:for|and billing|in|on|at|with)\b|[,;.:(]|$)",
    re.IGNORECASE,
)
_ZH_OWNED = re.compile(
    r"([" + HAN + r"A-Za-z0-9_.\-`]{2,12})\s*(?:由|归)\s*[" + HAN + r"A-Za-z]{1,12}?\s*(?:负责|管|维护)?"
    r"|[" + HAN + r"A-Za-z]{2,4}\s*负责\s*([" + HAN + r"A-Za-z0-9_.\-`]{2,12})"
)


def _owned(text: str) -> str:
    """What the owner note says someone owns, when it says so plainly (never a pronoun)."""
    for match in (*_EN_OWNED.finditer(text), *_ZH_OWNED.finditer(text)):
        owned = next((g for g in match.groups() if g), "").replace("`", "").strip()
        owned = re.sub(r"^(?:的|了)", "", owned)
        if owned and not _DEICTIC.search(owned) and len(owned.split()) <= 4:
            return owned
    return ""


def _numbered_name(subject: str, context: TitleContext) -> str:
    """A bare number the chat uses for a name it said in full ("Priyanka owns 01" after
    `kiln-stg-01`): the one identifier of the chat that ends in it; else the subject as it is."""
    if not re.fullmatch(r"\d+", subject):
        return subject
    names = set(re.findall(r"(?<![\w.-])[A-Za-z][\w.-]*[-_]" + subject + r"(?![\w-])", context.raw))
    return names.pop() if len(names) == 1 else subject


def _kind(kinds: set[str]) -> str:
    if {NoteKind.ROOT_CAUSE, NoteKind.FIX} <= kinds:
        return "incident"
    for kind in (NoteKind.ROOT_CAUSE, NoteKind.FIX, NoteKind.PREFERENCE):
        if kind in kinds:
            return kind
    if NoteKind.FUTURE in kinds:
        return "rule"
    if NoteKind.CHANGE in kinds:
        return NoteKind.CHANGE
    if NoteKind.DECISION in kinds:
        return NoteKind.DECISION
    if "setup" in kinds:
        return "setup"
    return NoteKind.NOTE


def _subject(text: str, ids: set[str], language: str, context: TitleContext, avoid: set[str]) -> str:
    """One or two of the note's terms, in the order the note uses them."""
    folded = text.casefold()
    candidates: dict[str, float] = {}
    for match in _LATIN.finditer(text):
        term = match.group(0).strip("./-")
        key = term.casefold()
        if (
            len(key) < 3
            or key in EN_TITLE_STOPWORDS
            or _MONTH_NAME.fullmatch(key)  # "Dec" dates the note, it is not its subject
            or key in avoid
            or len(term) > 28
            or key.isdigit()
            and len(key) < 4
            or term.isalpha()
            and term.islower()
            and _unit_of_a_number(term, text)
            or _in_a_path(match, text)
            or _said_as_verb(term, [text])  # "Replacing the 35 1.8": what someone does is no subject
        ):
            continue
        bonus = 2.0 if key in ids else 0.0
        candidates[term] = max(candidates.get(term, 0.0), context.weight(term) + bonus)
    for run in han_runs(text, 2):
        for i in range(len(run) - 1):
            gram = run[i : i + 2]
            if (
                gram[0] in ZH_FUNCTION_HAN
                or gram[1] in ZH_FUNCTION_HAN
                or gram in avoid
                or gram in ZH_TITLE_STOPWORDS
                or _ZH_WHEN_OR_HOW_MANY.match(gram)
            ):
                continue
            if context.chat.count(gram) < 2:
                continue
            term = _with_number(_whole_term(run, i, context), text)
            if (
                _after_number(term, text)
                or _ZH_WHEN_IN_TERM.search(term)
                or term[-1] in _ZH_NUMERALS
                or _zh_action(term)
                or _ZH_CLAUSE.search(term)  # "至少提前" is half a clause, not a name
                or _ZH_ADVERB_LEAD.match(term)  # "只允许": an adverb and its verb
            ):
                continue
            weight = context.weight(term) + (ZH_TERM_BONUS if language == "zh" else 0.0)
            candidates[term] = max(candidates.get(term, 0.0), weight)
    # A term the note negates ("不发邮件", "no Slack") would make the title say the opposite.
    candidates = {t: w for t, w in candidates.items() if not _negated(text, t)}
    if not candidates:
        return _first_term(text)
    ranked = sorted(candidates.items(), key=lambda item: (-item[1], folded.find(item[0].casefold())))
    chosen = [ranked[0][0]]
    for term, weight in ranked[1:]:
        if len(chosen) == 2 or weight < max(SECOND_TERM_MIN, 0.5 * ranked[0][1]):
            break
        key = term.casefold()
        if any(key in c.casefold() or c.casefold() in key or _overlaps(text, c, term) for c in chosen):
            continue
        if len(" ".join([*chosen, term])) > TITLE_MAX - 12:
            continue
        phrase = _adjacent(folded, chosen[0].casefold(), key)
        if not phrase:
            continue  # two terms make a title only as the phrase the note says ("gateway token")
        chosen.append(term)
        if not phrase.startswith(chosen[0].casefold()):
            chosen.reverse()
        return " ".join(chosen) if " " in phrase or not is_cjk(phrase[0]) else "".join(chosen)
    # In the order the conversation brought them up: "网关 token", the subject before its detail.
    # English keeps the note's own word order ("Staging app"); Chinese follows the order the
    # conversation brought the terms up ("网关 token": the subject before its detail).
    if language == "zh":
        chosen.sort(key=lambda term: (_first_use(context.chat, term), folded.find(term.casefold())))
    else:
        chosen.sort(key=lambda term: folded.find(term.casefold()))
    return " ".join(chosen)


def _in_a_path(match: re.Match[str], text: str) -> bool:
    """The term is a piece of a path ("opt/erp/venv/bin/python" of "/opt/erp/venv/bin/python",
    "srv/actions-runner"): a path names where a thing lives, not the thing, and cut at its first
    slash it is no identifier the note holds either. "CI/CD", "TCP/IP" are words."""
    term = match.group(0)
    return "/" in term and (text[match.start() - 1 : match.start()] in ("/", "~") or term.count("/") >= 2)


# Times and counts are no subject: "周四", "每月", "早上", "一袋", "三楼".
_ZH_WHEN_OR_HOW_MANY = re.compile(
    r"[一二两三四五六七八九十几每某各半]|[上下本这]?(?:周|星期|月底|月初)|[今明昨前后当]天|[早晚]上|[上下中]午|凌晨|傍晚"
)


_ZH_NUMERALS = frozenset("一二两三四五六七八九十百千万几")
_ZH_WHEN_IN_TERM = re.compile(
    r"每|第|周[一二三四五六日天末]|星期|[今明昨前后当]天|[早晚]上|[上下中]午|凌晨|傍晚|月底|月初"
)


def _adjacent(folded: str, first: str, second: str) -> str:
    """The phrase the note says the two terms as, in its order, at most a space apart; "" when
    it never does ("sudo xcode-select" holds no phrase "sudo xcode")."""
    for a, b in ((first, second), (second, first)):
        for glue in ("", " ", "的"):
            # A Latin word is whole (no word character, "." or "-" on its outer side); Chinese has no spaces.
            if _find_whole(folded, a + glue + b, a[0].isascii(), b[-1].isascii()):
                return f"{a} {b}" if glue == " " or not (is_cjk(a[-1]) and is_cjk(b[0])) else a + glue + b
    return ""


def _name_char(char: str) -> bool:
    """What ``[\\w.-]`` matches: a character a name or identifier goes on with."""
    return _word_char(char) or char in ".-"


def _find_whole(text: str, phrase: str, whole_start: bool, whole_end: bool) -> bool:
    """= ``re.search(r"(?<![\\w.-])" + re.escape(phrase) + r"(?![\\w.-])", text)`` (each side only when
    asked), as a str.find loop: no pattern compiled per phrase."""
    at = text.find(phrase)
    while at >= 0:
        end = at + len(phrase)
        if not (whole_start and at and _name_char(text[at - 1])) and not (
            whole_end and end < len(text) and _name_char(text[end])
        ):
            return True
        at = text.find(phrase, at + 1)
    return False


def _starts(text: str, term: str) -> list[int]:
    """= ``[m.start() for m in re.finditer(re.escape(term), text)]`` for a non-empty term: where it
    stands, not overlapping, found by str.find."""
    starts, at = [], text.find(term)
    while at >= 0:
        starts.append(at)
        at = text.find(term, at + len(term))
    return starts


_NEGATION = re.compile(
    r"(?:(?:不要|不再|不用|禁止|不|别|勿|没有|无需)[" + HAN + r"]{0,2}"
    r"|(?<![\w'])(?:no|not|never|don't|do not|without|instead of)\s+(?:[a-z]+\s+)?)$",
    re.IGNORECASE,
)


def _negated(text: str, term: str) -> bool:
    """Every use of ``term`` in the note follows a negation: the note says it does NOT hold."""
    folded, key = text.casefold(), term.casefold()
    starts = _starts(folded, key) if key else []
    return bool(starts) and all(_NEGATION.search(folded[max(0, at - 12) : at]) for at in starts)


def _first_use(chat: str, term: str) -> int:
    position = chat.find(term.casefold())
    return position if position >= 0 else len(chat)


WHOLE_TERM_MAX = 4


def _whole_term(run: str, start: int, context: TitleContext) -> str:
    """The longest piece of the Chinese run around a bigram that the chat uses exactly as often:
    "林老" is always part of "林老师", so the title says 林老师, never "老师 林老"."""
    gram = run[start : start + 2]
    count = context.chat.count(gram)
    best = gram
    for length in range(3, WHOLE_TERM_MAX + 1):
        for begin in range(max(0, start + 2 - length), min(start, len(run) - length) + 1):
            piece = run[begin : begin + length]
            if (
                set(piece) & ZH_EDGE_HAN
                or set(piece[1:-1]) & ZH_FUNCTION_HAN
                or piece[0] in _ZH_NEVER_FIRST
                or len(piece) <= len(best)
            ):
                # a particle inside is two words: "系统里提交" holds 里 between them (a leading 下 in "下厨房" is a name's)
                continue
            if (
                context.chat.count(piece) == count
                and not _cuts_stop_word(run, begin, length)
                and not _edged_by_stop_word(piece)
            ):
                best = piece
    return best


# Localizers end a place phrase ("系统里", "群内") and never begin a name.
_ZH_NEVER_FIRST = frozenset("里内")


def _overlaps(text: str, first: str, second: str) -> bool:
    """Two terms cut from one longer word ("吃香" / "香菜"): the text runs them together."""
    a, b = first.casefold(), second.casefold()
    folded = text.casefold()
    return any(a.endswith(b[:k]) and a + b[k:] in folded for k in range(1, min(len(a), len(b)))) or any(
        b.endswith(a[:k]) and b + a[k:] in folded for k in range(1, min(len(a), len(b)))
    )


def _first_term(text: str) -> str:
    """A title is never a bare kind label: without a recurring term, the note's first identifier
    or Chinese word stands in."""
    for match in _LATIN.finditer(text):
        term = match.group(0).strip("./-")
        if len(term) >= 3 and term.casefold() not in EN_TITLE_STOPWORDS and len(term) <= 28:
            return term
    for run in han_runs(text, 2):
        pieces = [p for p in re.split(f"[{''.join(sorted(ZH_FUNCTION_HAN))}]", run) if len(p) >= 2]
        for piece in pieces:
            term = piece.rstrip("".join(_ZH_NUMERALS))
            if len(term) > WHOLE_TERM_MAX or _zh_action(term):
                continue  # never cut a word to fit ("检测到运"), never a verb
            if (
                len(term) >= 2
                and not _after_number(term, text)
                and piece[:2] not in ZH_TITLE_STOPWORDS
                and not _ZH_WHEN_IN_TERM.search(term)
                and not _ZH_WHEN_OR_HOW_MANY.match(term)
            ):
                return term
    return ""


def _with_number(term: str, text: str) -> str:
    """ "沪深" of "沪深300", "一号" of "一号楼": a Chinese term the note always writes with the
    number or letters right after it is that whole name."""
    tails, at = set(), text.find(term) if term else -1
    while at >= 0:  # each use and the ASCII letters and digits after it, uses not overlapping
        end = at + len(term)
        while end < len(text) and text[end] in _ASCII_ALNUM:
            end += 1
        tails.add(text[at + len(term) : end])
        at = text.find(term, end)
    if len(tails) == 1 and (tail := tails.pop()) and len(tail) <= 6:
        return term + tail
    return term


_ASCII_ALNUM = frozenset(string.ascii_letters + string.digits)  # a set: "" is never in it
_COUNT_BEFORE = re.compile(
    r"(?<![\d.,])\d{1,3}(?:\.\d{1,2})? ?$"
)  # "2 号机", "62.5 微克": a count right before a term
# "88 mcg", "51871/udp", "3x30s": a Latin word the note only writes right after a number is its unit.
_AMOUNT_BEFORE = re.compile(r"\d(?:[\d.,]*\d)?\s?/?$")


def _unit_of_a_number(term: str, text: str) -> bool:
    """A Latin word the note only ever says right after a number ("88 mcg", "51871/udp") is the
    unit or protocol of a value, never the note's subject ("Mcg", "Udp")."""
    starts = _starts(text, term)
    return bool(starts) and all(_AMOUNT_BEFORE.search(text[max(0, at - 12) : at]) for at in starts)


def _after_number(term: str, text: str) -> bool:
    """A Chinese term the note only ever says right after a number ("2 号机", "6 天一循环") is the
    measure word of a count, cut from it: no name of a subject."""
    if not term or not is_cjk(term[0]):
        return False
    starts = _starts(text, term)
    return bool(starts) and all(_COUNT_BEFORE.search(text[max(0, at - 8) : at]) for at in starts)


def _edged_by_stop_word(piece: str) -> bool:
    """ "以后排查" starts with the marker 以后: the term is 排查, the marker is no part of it."""
    return any(piece != word and piece.startswith(word) for word in ZH_TITLE_STOPWORDS)


def _cuts_stop_word(run: str, begin: int, length: int) -> bool:
    """ "管理页以" takes half of 以后: a term never ends or starts inside a marker word."""
    end = begin + length
    for word in ZH_TITLE_STOPWORDS:
        at = run.find(word)
        while at >= 0:
            if at < begin < at + len(word) or at < end < at + len(word):
                return True
            at = run.find(word, at + 1)
    return False


# --------------------------------------------------------------------------- title faults

# Words that only name a kind of note, or nothing: a title of these alone names no subject.
_KIND_ONLY = (
    r"rules?|fix(?:es)?|issues?|problems?|setup|config|changes?|decisions?|preferences?|notes?|saved|added"
    r"|noted|recorded|updates?|updated|corrections?|rebuild|owner|schedule|address|port|version|contact"
    r"|price|time|plan|summary|reminders?|steps?|order|规则|修复|问题|配置|变更|决定|偏好|笔记|要点|备注|更正"
    r"|重建|负责人|时间|地址|端口|版本|联系方式|费用|提醒|记录|安排|说明|事项|情况"
)
# Vague words that name no subject before a kind word ("Thing rule", "Days rule", "其他规则").
_VAGUE_WORDS = (
    r"thing|things|anything|something|everything|nothing|stuff|step|item|part|way|one|case|point|bit|days?"
    r"|group|new|old|other|same|simple|all|each|every|some|first|last|next|main|default"
    r"|东西|事情|事|其他|其它|新|旧|所有|每个|默认"
    r"|其余|剩下|剩余|大约|大概|左右|差不多"  # "其余 15:45", "大约 100 位": the rest, roughly — of what?
)
_VAGUE_WORD = re.compile(_VAGUE_WORDS, re.IGNORECASE)
_MONTH_NAME = re.compile(
    r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august"
    r"|september|october|november|december",
    re.IGNORECASE,
)
_WHEN_WORD = re.compile(
    rf"(?:{_MONTH_NAME.pattern})|(?:mon|tues|wednes|thurs|fri|satur|sun)days?", re.IGNORECASE
)
_WHEN_THEN_BOUNDARY = re.compile(rf"(?i:{_WHEN_WORD.pattern})\b")  # a month or weekday, whole
_EMPTY_TITLE = re.compile(rf"^\s*(?:(?:{_VAGUE_WORDS})\s*)?(?:{_KIND_ONLY})?\s*$", re.IGNORECASE)
_MONTHS = (
    r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august"
    r"|september|october|november|december"
)
# When and how much belong in the bullet: a date, a time, an amount with its unit.
_WHEN_OR_AMOUNT = re.compile(
    rf"\d{{4}}-\d{{1,2}}-\d{{1,2}}|(?<!\d)\d{{1,2}}:\d{{2}}|\d+\s*月\s*\d+\s*[日号]"
    rf"|(?<![\w])(?:{_MONTHS})\.?\s+\d|\d{{1,2}}\s+(?:{_MONTHS})(?![\w])|周[一二三四五六日天]|星期[一二三四五六日天]"
    r"|\d[\d.,]*\s*(?:%|mg|g|kg|km|ml|gb|mb|tb|h|min|元|块|袋|天|小时|分钟|次|个|条|本|把|节|期|岁)(?![a-z])"
    r"|[¥￥$€£]\s*\d|[一两二三四五六七八九十几]+\s*[次遍]|每(?:天|日|周|月|年)|[早晚]上|[上下中]午|凌晨",
    re.IGNORECASE,
)
# A clause's verbs and adverbs: a title holding one is a sentence ("Order is", "Vzdump backups now").
_EN_CLAUSE = re.compile(
    r"(?<![\w'-])(?:is|are|was|were|be|been|has|have|had|get|gets|got|goes|went|will|would|should|must|can"
    r"|could|says|said|now|only|ever|moved|changed|expires|lands|needs"
    r"|mandatory|required|optional|forbidden|allowed|compulsory)(?![\w'-])"  # "Mudguards mandatory"
    r"|'s\s+(?:off|out|away|back|closed|open|done|gone|free|busy|sick)$"  # "Dario's off": "'s" is "is"
    # a verb and its object: a word, then an article or a possessive ("Bought a new lens", "Add an
    # alert rule", "Moving the send"); a noun phrase has none after its first word
    r"|^[A-Za-z]+\s+(?:a|an|the|my|our|your|his|her|their)\s",
    re.IGNORECASE,
)
_ZH_CLAUSE = re.compile(
    r"说$|说[:：]|调去|调到|改成|改为|改到|换成|新增|增加|记下|提前|推迟|踩|作废|停用|不再|至少|最多|已经|刚|[，。；！？~～]"
    r"|走(?![廊势访路])"  # "欧元收款走 Wise": routing through something is the predicate
    r"|很|非常|为准|继续"  # "葡萄牙菜海鲜很多", "以 100 为准", "backup-1 继续备数据库": a predicate
    r"|(?<=[" + HAN + r"])了$"  # "付了": a done verb, not a name
    # "一节 260 元", "两次": a numeral and a measure word (not 三星, 三亚, 一加: names that open on a numeral)
    r"|^[一两二三四五六七八九十几每半][个次遍回节课天周月年岁位名本张只条件台份块瓶盒包支把层间趟场顿]$"
)
# A Chinese title opening with an adverb or a negation is a predicate cut from a sentence ("只允许",
# "不发私聊", "已经办了"), not a name; the few nouns that begin so ("只读", "不锈钢", "别名") stay.
_ZH_ADVERB_LEAD = re.compile(
    r"^(?:全部|所有|每个|只(?!读)|不(?!锈|动产)|别(?!名|墅|针)|没(?!药)|也|已|仍|均|才|是(?!否))"
)
# Common two-character words no title may end inside ("房贷利率现" cut from "房贷利率现在是…").
_ZH_COMMON_WORDS = frozenset(
    (
        "现在", "时候", "已经", "以后", "以前", "之前", "之后", "然后", "可以", "应该", "需要", "一下", "一直",
        "只是", "还是", "就是", "都是", "不是", "因为", "所以", "如果", "但是", "只有", "没有", "还有", "目前",
        "今后", "每次", "每个", "一律", "统一", "必须",
    )
)  # fmt: skip
_WORD_LATIN = re.compile(r"[A-Za-z][A-Za-z'-]*")
# A plain English word, not an identifier ("vps-hk", "ledger-etl", "fsn-web-1" are names in any language).
_PLAIN_WORD = re.compile(r"(?<![\w.@/:-])[a-z]{2,}(?![\w.@/:-])")


def note_language(bullets: Sequence[str], conversation: str) -> str:
    """The note's own language: Chinese bullets take a Chinese title, English ones an English
    title, whatever the rest of the chat is in; a note of both follows the conversation."""
    prose = re.sub(r"`[^`]*`", " ", " ".join(bullets))
    share = _han_share(prose)
    if share >= 0.5:
        return "zh"
    if share == 0.0 and len(_PLAIN_WORD.findall(prose)) >= 2:  # a line of code alone is in no language
        return "en"
    return conversation


def _han_share(text: str) -> float:
    prose = re.sub(r"`[^`]*`", " ", text)
    han = sum(map(is_cjk, prose))
    latin = sum(len(w) for w in _WORD_LATIN.findall(prose)) / 3  # an English word weighs about a character
    return han / (han + latin) if han + latin else 0.0


def title_faults(title: str, bullets: Sequence[str], language: str) -> list[str]:
    """What makes a reader reject the title: "empty" (a kind word or a vague word alone, or one
    lowercase English word), "clause" (a date, an amount, a clause's verb, the whole first bullet),
    "cut" (ends inside a word of its bullet), "language" (English over a Chinese note or the reverse)."""
    faults = []
    bare = title.strip()
    if _EMPTY_TITLE.match(bare) or (re.fullmatch(r"[a-z]+", bare) and language != "zh"):
        faults.append("empty")  # "compose" over a Chinese note is a name; the kind noun is added there
    if (
        _WHEN_OR_AMOUNT.search(bare)
        or (not has_cjk(bare) and _EN_CLAUSE.search(bare))
        or _ZH_CLAUSE.search(bare)
        or _ZH_ADVERB_LEAD.match(bare)
    ):
        faults.append("clause")
    lead = re.match(rf"[{HAN}]{{2}}", bare)
    if (
        _cut_inside(bare, bullets)
        or (lead is not None and _after_number(lead.group(0), " ".join(bullets)))
        or re.search(r"[&+/]$|\s(?:and|or|of|&)$|[和与及或]$", bare)
    ):
        faults.append("cut")  # "Smith&" / "X and": a name cut where it goes on
    if re.match(r"^-|.*\s--?\w|.*=", bare):
        faults.append("command")  # "-p gpu-a40 --gres=gpu" is a command line, not a subject
    share = _han_share(" ".join(bullets))
    if not has_cjk(bare):
        if share >= 0.5 and _PLAIN_WORD.search(bare):
            faults.append("language")
    elif share == 0.0 and sum(map(is_cjk, bare)) >= 2:
        faults.append("language")
    return faults


def _cut_inside(title: str, bullets: Sequence[str]) -> bool:
    """The title stops inside a word of its bullet: "房贷利率现|在", or "Smart| Recycle" (a
    capitalized name goes on)."""
    if title and title[-1].isalpha() and title[-1].isascii():
        return any(_name_goes_on(title, b) for b in bullets) or any(
            word.casefold() not in EN_TITLE_STOPWORDS and not _EN_IMPERATIVE.fullmatch(word)
            for b in bullets
            for word in _names_before(title, b)
        )  # "Send Fenwick invoices": an instruction's verb is no part of the name it is about
    if not title or not is_cjk(title[-1]):
        return False
    for bullet in bullets:
        at = bullet.find(title)
        while at >= 0:
            following = bullet[at + len(title) : at + len(title) + 1]
            if following and title[-1] + following in _ZH_COMMON_WORDS:
                return True
            at = bullet.find(title, at + 1)
    return False


def _name_goes_on(title: str, text: str) -> bool:
    """= ``re.search(re.escape(title) + r" (?!(?i:WHEN)\\b)[A-Z][a-z]", text)``: a capitalized word
    that is no month or weekday follows the title ("Smart Recycle")."""
    at = text.find(title + " ")
    while at >= 0:
        word = at + len(title) + 1
        if (
            text[word : word + 1] in _ASCII_UPPER
            and text[word + 1 : word + 2] in _ASCII_LOWER
            and not _WHEN_THEN_BOUNDARY.match(text, word)
        ):
            return True
        at = text.find(title + " ", at + 1)
    return False


def _names_before(title: str, text: str) -> list[str]:
    """= the first groups of ``re.finditer(r"(?<![\\w'])([A-Z][a-z]+) " + re.escape(title) +
    r"(?![\\w'-])", text)``: each capitalized word right before a whole use of the title."""
    words, taken, at = [], 0, text.find(" " + title)
    while at >= 0:
        end = at + 1 + len(title)
        start = at
        while start and text[start - 1] in _ASCII_LOWER:
            start -= 1
        start -= 1  # the capital the lower-case letters follow
        if (
            start >= taken
            and start < at - 1
            and text[start] in _ASCII_UPPER
            and not (start and (_word_char(text[start - 1]) or text[start - 1] == "'"))
            and not (end < len(text) and (_word_char(text[end]) or text[end] in "'-"))
        ):
            words.append(text[start:at])
            taken = end  # matches never overlap
        at = text.find(" " + title, at + 1)
    return words


_ASCII_UPPER = frozenset(string.ascii_uppercase)
_ASCII_LOWER = frozenset(string.ascii_lowercase)


def _whole_name(title: str, bullets: Sequence[str]) -> str:
    """The capitalized name a title was cut from, with the capitalized words on either side."""
    pattern = re.compile(r"((?:[A-Z][\w'-]* )*)" + re.escape(title) + r"((?: [A-Z][\w'-]*)*)")
    for bullet in bullets:
        match = pattern.search(bullet)
        if match and (match.group(1) or match.group(2)):
            words = match.group(0).split()
            while words and words[0].casefold() in EN_TITLE_STOPWORDS:
                words.pop(0)  # "No force-unlock": a sentence's first word is no part of the name
            while len(words) > 1 and _WHEN_WORD.fullmatch(words[-1]):
                words.pop()  # "… winter Sunday": when it happens is no part of the name
            return " ".join(words)
    return title


def _repaired(title: str, bullets: Sequence[str]) -> str:
    """The noun phrase left when the title's clause part goes: what follows its first date or
    amount, a clause's trailing verbs or adverbs, a character cut from a longer word."""
    repaired = title.strip()
    value = _WHEN_OR_AMOUNT.search(repaired)
    if value is not None:
        repaired = repaired[: value.start()]
    zh_clause = _ZH_CLAUSE.search(repaired)
    if zh_clause is not None:
        repaired = repaired[: zh_clause.start()]
    words = repaired.split()
    while (
        words
        and not has_cjk(words[-1])
        and (_EN_CLAUSE.fullmatch(words[-1]) or _EN_TOPIC_STOP.fullmatch(words[-1]))
    ):
        words.pop()
    repaired = " ".join(words)
    if repaired and is_cjk(repaired[-1]) and _cut_inside(repaired, bullets):
        repaired = repaired[:-1]
    elif repaired and repaired[-1].isascii() and _cut_inside(repaired, bullets):
        repaired = _whole_name(repaired, bullets)  # "Wheelers winter" → "Fenwick Wheelers winter"
    repaired = _ZH_TOPIC_LEAD.sub("", repaired).strip(" ，,:：;；-—")
    repaired = re.sub(r"^(?:所有|每个|全部)\s*", "", repaired).removesuffix("的").strip()
    if sum(map(is_cjk, repaired)) < 2 and len(_WORD_LATIN.findall(repaired)) == 0:
        return ""
    return repaired if repaired != title.strip() else ""
