"""Signals the offline extractor reads from chat text, in English and Chinese.

Everything here is a pure function of one piece of text: sentence splitting,
questions, bullets, and the marker lexicons (rules, root causes, owners,
preferences, confirmations, chit-chat …). The lexicons describe *kinds* of
language, never facts of a particular chat. Their words live in one file per
language (:mod:`.lexicon_en`, :mod:`.lexicon_zh`); :class:`Lexicon` joins them,
English first, and keeps the few single patterns that mix both languages.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache, wraps
from typing import ParamSpec, TypeVar

from ...text.alternation import compile_alternation
from ...text.cjk import HAN, cjk_ratio, has_cjk
from ...text.identifiers import INLINE_CODE as _INLINE_CODE
from ...text.normalize import compact, compact_similarity
from ...text.sentences import is_question
from . import lexicon_en as en
from . import lexicon_zh as zh
from .cache import text_cache
from .machine import is_machine_line

__all__ = [
    "LEX",
    "Lexicon",
    "clean_bullet",
    "code_blocks",
    "conversation_language",
    "is_question",
    "prose",
    "sentences",
]


P = ParamSpec("P")
R = TypeVar("R")


def _any(*parts: str) -> Lexeme:
    """A case-insensitive marker pattern of alternatives, compiled only when first searched."""
    return Lexeme("|".join(parts), re.IGNORECASE, parts)


class Lexeme:
    """A marker pattern of the lexicon, matched case-insensitively — quickly.

    Why not the IGNORECASE pattern itself: CPython's regex engine skips an alternative on
    its first letter only when matching case-sensitively, and a lexicon is a long list of
    alternatives tried at every position of a sentence. So a pattern whose letters are all
    lowercase is matched case-sensitively against the lowercased sentence, which gives the
    same answer about twice as fast. A sentence with a cased letter outside ASCII (É, ſ, K)
    lowercases irregularly and goes to the IGNORECASE pattern, as does a pattern with an
    uppercase letter. Each lexeme remembers its answers for the last texts it searched (per process,
    bounded): a sentence is searched once per lexeme, however often a chat is previewed.

    Each form is compiled when first needed, not at import: compiling costs more than a
    whole extraction's searches (a ``[HAN]`` class under IGNORECASE alone takes milliseconds),
    and most chats never need the IGNORECASE form at all.
    """

    __slots__ = (
        "_ascii",
        "_empty_for_ascii",
        "_flags",
        "_halves",
        "_lowercase",
        "_non_ascii",
        "_regex",
        "_source",
        "search",
        "sub",
    )

    search: Callable[[str], re.Match[str] | None]
    sub: Callable[..., str]

    def __init__(
        self, regex: re.Pattern[str] | str, flags: int = 0, parts: tuple[str, ...] | None = None
    ) -> None:
        """``regex`` compiled, or its source with ``flags`` (and the alternatives it joins)."""
        if isinstance(regex, re.Pattern):
            self._regex: re.Pattern[str] | None = regex
            self._source, self._flags = regex.pattern, regex.flags
        else:
            self._regex = None
            self._source, self._flags = regex, flags | re.UNICODE
        caseless = bool(self._flags & re.IGNORECASE) and _lowercase_only(self._source)
        self._lowercase: re.Pattern[str] | str | None = self._source if caseless else None
        # For ASCII text (most English sentences), only the alternatives that can match ASCII text:
        # one that starts with a Chinese word ("以后", "还是(?:不行|…)") cannot.
        ascii_parts = [part for part in parts or () if not _needs_non_ascii(part)]
        self._ascii: re.Pattern[str] | str | None = (
            "|".join(ascii_parts) if caseless and parts is not None else None
        )
        self._empty_for_ascii = caseless and parts is not None and not ascii_parts
        # The other alternatives, which only text with a Chinese character can match: text that has
        # one is searched with both halves, so no pattern of all the alternatives is compiled for it
        # (that compile, the lexicon's longest, is what a first preview pays; see _search_halves).
        other_parts = [part for part in parts or () if _needs_non_ascii(part)]
        self._non_ascii: re.Pattern[str] | str | None = (
            "|".join(other_parts) if caseless and parts is not None and other_parts else None
        )
        self._halves: tuple[re.Pattern[str] | None, re.Pattern[str] | None] | None = None  # _search_halves
        # the C-level LRU answers a remembered text without a Python call; thread-safe and bounded
        self.search = lru_cache(maxsize=_REMEMBERED)(self._search_text)
        self.sub = lru_cache(maxsize=_REMEMBERED)(self._sub)  # the same: a pure function of its arguments

    @property
    def regex(self) -> re.Pattern[str]:
        """The plain IGNORECASE pattern (compiled on first use)."""
        if self._regex is None:
            self._regex = re.compile(self._source, self._flags)
        return self._regex

    def _search_text(self, text: str) -> re.Match[str] | None:
        """Like ``re.Pattern.search``; a match found on the lowercased text has the same span
        (its groups are lowercase, and every caller case-folds them). Remembered per process
        (``search``): a pure function of the text, asked again about every sentence of a chat
        that is previewed again, or whose last messages overlap the last preview's."""
        if self._lowercase is None:
            return self.regex.search(text)
        if text.isascii():  # most sentences: lowercased in C, no memo needed (the same as _lowercase)
            if self._ascii is None:
                return self._lowercased_pattern().search(text.lower())
            if self._empty_for_ascii:
                return None
            ascii_form = self._ascii
            if isinstance(ascii_form, str):
                ascii_form = self._ascii_pattern()
            return ascii_form.search(text.lower())
        # text with a non-ASCII character: lowercased through the chat's memo
        lowered = _lowercased(text, _CHAT.get())
        if lowered is None:
            return self.regex.search(text)
        if self._ascii is not None:
            return self._search_halves(lowered)
        return self._lowercased_pattern().search(lowered)

    def _search_halves(self, lowered: str) -> re.Match[str] | None:
        """The whole pattern's search, from its two halves: the leftmost match of either, which is
        the whole pattern's (at that position no alternative of the other half matches). When both
        match at one position, the order of the alternatives decides, so the whole pattern does."""
        halves = self._halves
        if halves is None:
            halves = self._halves = self._halves_plan()
        first, second = halves
        if second is None:
            assert first is not None
            return first.search(lowered)
        other = second.search(lowered)
        if first is None:
            return other
        found = first.search(lowered)
        if found is None or other is None:
            return other if found is None else found
        if found.start() != other.start():
            return found if found.start() < other.start() else other
        return self._lowercased_pattern().search(lowered)

    def _halves_plan(self) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
        """What :meth:`_search_halves` searches with, settled (and compiled) on its first call:
        (one pattern, None) when one search is the whole answer, else (the ASCII half or None, the
        other half)."""
        if self._non_ascii is None:  # every alternative can match ASCII text: that half is the whole
            return self._ascii_pattern(), None
        if isinstance(self._non_ascii, str):
            self._non_ascii = compile_alternation(self._non_ascii, self._flags & ~re.IGNORECASE)
        ascii_half = None if self._empty_for_ascii else self._ascii_pattern()
        if self._non_ascii.groups or (ascii_half is not None and ascii_half.groups):
            return self._lowercased_pattern(), None  # groups numbered as in the whole
        return ascii_half, self._non_ascii

    def _ascii_pattern(self) -> re.Pattern[str]:
        if isinstance(self._ascii, str):
            self._ascii = compile_alternation(self._ascii, self._flags & ~re.IGNORECASE)
        assert self._ascii is not None
        return self._ascii

    def _lowercased_pattern(self) -> re.Pattern[str]:
        if isinstance(self._lowercase, str):
            self._lowercase = compile_alternation(self._lowercase, self._flags & ~re.IGNORECASE)
        assert self._lowercase is not None
        return self._lowercase

    def _sub(self, repl: str, text: str, count: int = 0) -> str:
        """Like ``re.Pattern.sub`` (``sub``, remembered per process like ``search``). Deleting matches
        (the lexicon's only use) goes through the lowercased text too: its matches have the same
        spans, so the same slices go."""
        lowered = _lowercased(text, _CHAT.get()) if self._lowercase is not None and not repl else None
        if lowered is None:
            return self.regex.sub(repl, text, count)
        kept: list[str] = []
        position = 0
        for number, match in enumerate(self._lowercased_pattern().finditer(lowered)):
            if count and number >= count:
                break
            kept.append(text[position : match.start()])
            position = match.end()
        kept.append(text[position:])
        return "".join(kept)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.regex.finditer(text)

    @property
    def pattern(self) -> str:
        return self._source


@dataclass
class ChatMemo:
    """What one extraction remembers about its chat's sentences: the same sentence is lowercased
    for many lexemes, and placement compares each note with the same bullets again and again.
    One per :func:`chat_memo` block, so worker threads extracting different chats share none of it;
    what is a pure function of a text is remembered per process and shared by every chat
    (:class:`Lexeme` keeps a lexeme's answers, :func:`.cache.text_cache` the functions' ones)."""

    lowered: dict[str, str | None] = field(default_factory=dict)
    compacted: dict[str, str] = field(default_factory=dict)
    results: dict[Callable[..., object], dict[tuple[object, ...], object]] = field(default_factory=dict)


# The memo of the extraction running in this thread (or task); None outside one: nothing is kept.
_CHAT: ContextVar[ChatMemo | None] = ContextVar("savenow_chat_memo", default=None)


@contextmanager
def chat_memo() -> Iterator[ChatMemo]:
    """Remember sentence lookups for one chat, in this thread only, until the block ends."""
    memo = ChatMemo()
    token = _CHAT.set(memo)
    try:
        yield memo
    finally:
        _CHAT.reset(token)


_MEMO_LIMIT = 4096  # sentences remembered per chat; a chat of 180 messages has about 600
_REMEMBERED = 1024  # texts whose search a lexeme remembers (a chat's sentences and messages: about 800)
_UNSEEN = object()  # not in a memo yet (None is a remembered answer)
_ASCII_RUN = re.compile(r"[\x00-\x7f]+")
_RANGE_BOTH_CASES = re.compile(r"A-Za-z")
_ESCAPE = re.compile(r"\\.")


def _lowercase_only(source: str) -> bool:
    """No uppercase letter in the pattern outside an escape (\\W, \\S) or an [A-Za-z] range."""
    rest = _ESCAPE.sub("", _RANGE_BOTH_CASES.sub("", source))
    return not any("A" <= char <= "Z" for char in rest)


def _needs_non_ascii(part: str) -> bool:
    """An alternative that starts with a required non-ASCII character ("以后", "还是(?:不行|一样)"):
    it cannot match ASCII text. Anything less plain ("(?<![一二])下午", "好?") counts as able to."""
    return (
        len(part) > 0
        and not part[0].isascii()
        and part[1:2] not in ("?", "*", "{")
        and "\\" not in part
        and "|" not in _top_level(part)
    )


def _top_level(part: str) -> str:
    """The part with its parenthesized groups removed (where a top-level "|" would show)."""
    depth, kept = 0, []
    for char in part:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif depth == 0:
            kept.append(char)
    return "".join(kept)


def lowercased(text: str) -> str | None:
    """The text lowercased, or None where an IGNORECASE match of it is no plain match of that
    (see :func:`_lowercased`); remembered within this thread's :func:`chat_memo` block."""
    return _lowercased(text, _CHAT.get())


def _lowercased(text: str, chat: ChatMemo | None) -> str | None:
    """The text lowercased, or None when a non-ASCII letter in it has case (lowercasing it may
    change the length or fold it onto an ASCII letter the way IGNORECASE does not)."""
    if chat is None:
        return _lowercase(text)
    known = chat.lowered.get(text, _UNSEEN)
    if known is not _UNSEEN:
        return known  # type: ignore[return-value]
    if len(chat.lowered) >= _MEMO_LIMIT:
        chat.lowered.clear()
    lowered = chat.lowered[text] = _lowercase(text)
    return lowered


def _lowercase(text: str) -> str | None:
    lowered: str | None = text.lower()
    if not text.isascii():
        rest = _ASCII_RUN.sub("", text)
        if (rest.lower() != rest or rest.upper() != rest) and not all(map(_folds_plainly, rest)):
            lowered = None
    return lowered


_SPECIAL_FOLDS: frozenset[str] | None
try:  # the characters IGNORECASE folds together beyond their plain lower case ("ſ" with "s", "ς" with "σ")
    _EXTRA_CASES: dict[int, tuple[int, ...]] = importlib.import_module("re._casefix")._EXTRA_CASES
    _SPECIAL_FOLDS = frozenset(chr(code) for key, extra in _EXTRA_CASES.items() for code in (key, *extra))
except (ImportError, AttributeError):  # pragma: no cover - another ``re``: every cased letter is special
    _SPECIAL_FOLDS = None


@lru_cache(maxsize=1024)
def _folds_plainly(char: str) -> bool:
    """An IGNORECASE match of this character is a plain match of its lower case: it lowercases to one
    character that is no ASCII letter ("É" → "é", "Ö" → "ö"; not "İ", "K" (Kelvin), "ſ", "Σ"), and no other
    character folds onto it. Uncased characters (Han, digits, punctuation) fold plainly too."""
    if char.isascii() or (char.lower() == char and char.upper() == char):
        return True
    lower = char.lower()
    return (
        _SPECIAL_FOLDS is not None
        and len(lower) == 1
        and not lower.isascii()
        and char not in _SPECIAL_FOLDS
        and lower not in _SPECIAL_FOLDS
    )


class Lexicon:
    """The marker patterns, grouped by what they say about a sentence."""

    # Someone says "this is worth keeping".
    NOTE = _any(*en.NOTE, *zh.NOTE)
    # Standing rules and preferences: "from now on", "以后", "always/never".
    FUTURE = _any(*en.FUTURE, *zh.FUTURE)
    ROOT_CAUSE = _any(*en.ROOT_CAUSE, *zh.ROOT_CAUSE)
    FIX = _any(*en.FIX, *zh.FIX)
    OWNER = _any(*en.OWNER, *zh.OWNER)
    PREFERENCE = _any(*en.PREFERENCE, *zh.PREFERENCE)
    # Someone refers to what is already saved.
    PRIOR = _any(*en.PRIOR, *zh.PRIOR)
    UNCHANGED = _any(*en.UNCHANGED, *zh.UNCHANGED)
    # The user says it works now.
    CONFIRM = _any(*en.CONFIRM, *zh.CONFIRM)
    # The assistant sums up what now holds ("So: …", "Confirmed: …", "所以：…").
    WRAP_UP = _any(*en.WRAP_UP, *zh.WRAP_UP)
    REJECT = _any(*en.REJECT, *zh.REJECT)
    # The assistant rules something out or corrects itself.
    RULED_OUT = _any(*en.RULED_OUT, *zh.RULED_OUT)
    HEDGE = _any(*en.HEDGE, *zh.HEDGE)
    CHITCHAT = _any(*en.CHITCHAT, *zh.CHITCHAT)
    DEFERRAL = _any(*en.DEFERRAL, *zh.DEFERRAL)
    STATUS = _any(*en.STATUS, *zh.STATUS)
    # A report of a problem: an error code, a crash, a restart loop, "still 502", "又在疯狂重启".
    SYMPTOM = _any(*en.SYMPTOM, *zh.SYMPTOM)
    # What turns a problem report into an explanation: a condition or a cause ("fails when …", "因为 …").
    CAUSAL = _any(*en.CAUSAL, *zh.CAUSAL)
    MINOR = _any(*en.MINOR, *zh.MINOR)
    ANOTHER_ITEM = _any(*en.ANOTHER_ITEM, *zh.ANOTHER_ITEM)
    # The assistant offers or proposes ("要不要我…？", "Do you want me to …?"): no request for facts.
    OFFER = _any(*en.OFFER, *zh.OFFER)
    # The user gives up an idea as it is told ("本来想…", "I was going to …"); and "不用记" / "don't note it".
    WITHDRAWN = _any(*en.WITHDRAWN, *zh.WITHDRAWN)
    NOT_TO_NOTE = _any(*en.NOT_TO_NOTE, *zh.NOT_TO_NOTE)
    TENTATIVE = _any(*en.TENTATIVE, *zh.TENTATIVE)
    # The assistant opens the conversation ("What's up?", "今天弄点啥？"): it asks for no fact.
    OPENER = _any(*en.OPENER, *zh.OPENER)
    PROMISE = _any(*en.PROMISE, *zh.PROMISE)
    KEEP_THAT = _any(*en.KEEP_THAT, *zh.KEEP_THAT)
    # Diagnostics the assistant asks the user to run: steps, not facts.
    PROBE = re.compile(
        r"^(?:先|再)?(?:看|看看|看一下|看下|查|检查|确认一?下|试|跑|grep)|^(?:let's|let us|can you|could you|check|run|try"
        r"|look at|first,? )",
        re.IGNORECASE,
    )
    # The user asks the assistant to do something, anywhere in a message ("For the notes, can you …",
    # "另外那几个电话你帮我记一下").
    ASK_ASSISTANT = _any(*en.ASK_ASSISTANT, *zh.ASK_ASSISTANT)
    # The user asks for something to be done now: a task, not a fact (unless it sets a standing rule).
    # Words that ask only at a message's start stay here: "请"/"麻烦" inside one are "申请", "很麻烦".
    REQUEST = re.compile(
        "^(?:"
        + "|".join((*en.ASK_ASSISTANT, *zh.ASK_ASSISTANT))
        + r"|help me|帮忙|请|麻烦|能不能|能否|可以帮)|我想(?:让)?你|你(?:帮我|给我)",
        re.IGNORECASE,
    )
    ACK_PREFIX = re.compile(
        r"^(?:(?:ok(?:ay)?|good|great|nice|right|yes|yep|yeah|sure|done|got it|noted|understood|perfect|cool|"
        r"alright|so|also|btw|oh|and|hmm|hey|hi|hello|嘿|哈喽|好的?|好吧|收到|明白了?|了解|记下了?|记住了|对|嗯|行|哦|是的|没错|对了|话说|另外|还有)"
        r"[\s,，.。!！:：—\-–]+)+",
        re.IGNORECASE,
    )
    NOTE_LEAD = re.compile(
        r"^(?:(?:let's|let us|please|also|and|so)\s+){0,2}(?:for the notes?|for the record|worth remembering|rule of thumb(?: from now on)?|note to self|"
        r"keep in mind|remember|takeaway|summary|tl;dr|记住|记一下|备忘|总结(?:一下)?|结论|要点)[^:：]{0,12}[:：]\s*",
        re.IGNORECASE,
    )
    # The assistant reports a change it made ("Done", 改好了): a configuration that now holds.
    DONE = _any(*en.DONE, *zh.DONE)
    NOT_CHOSEN = _any(*en.NOT_CHOSEN, *zh.NOT_CHOSEN)
    HOLD = _any(*en.HOLD, *zh.HOLD)
    # "option 1", "a.", "那就改 2": the user picks one item of a list the assistant offered.
    CHOICE = re.compile(
        r"(?:option|方案|选项?|那就(?:改|用|选)?|就(?:改|用|选)|go with|let's do)\s*\(?([0-9a-z])\)?(?![0-9a-z])"
        r"|^\s*\(?([0-9a-z])\)?(?:[.)。,，]|\s*$)",
        re.IGNORECASE,
    )
    # "建议 2，…" / "I'd go with option 2": points at a list item, says no fact itself.
    RECOMMENDS_ITEM = re.compile(
        r"^\s*(?:建议|推荐|选|I'd (?:go with|pick|recommend|choose)|I recommend|recommend(?:ed)?|go with)\s*"
        r"(?:option|方案|选项)?\s*\(?[0-9a-z]\)?(?![0-9a-z])\s*(?:[，,。.;；:：—\-]|$)",
        re.IGNORECASE,
    )
    # The user accepts what the assistant proposed: its proposals become the decision.
    AGREE = re.compile(
        r"^\s*(?:agree[d.,!]?|sounds good|let's do (?:it|that|this)|(?:ok(?:ay)?|yes|yeah|sure)[,.]? (?:do (?:it|that)|go ahead)"
        r"|do it|go ahead|go with (?:it|that)|makes sense|同意|就这么(?:办|做|改|定|拆|来)|就按(?:这个|你说的)"
        r"|按你说的|那就这样|有道理|可以[，,]?\s*就这么)",
        re.IGNORECASE,
    )
    # The user reports having applied a change ("both set to 1380", "改了 reload 了").
    APPLIED = _any(*en.APPLIED, *zh.APPLIED)
    # An acknowledgement with a colon: what follows restates what the user just said. Acknowledgement
    # words may come two or three in a row before the colon ("好的，明白了：", "OK, noted:").
    EXPLICIT_ACK = re.compile(
        r"^\s*(?:(?:ok(?:ay)?|sure|好的?|嗯|行|收到|明白了?)[，,!！]?\s*){0,2}"
        r"(?:got it|noted(?: as [\w ]{1,20})?|understood|will do|ok(?:ay)?|sure|added|saved|记下了?|记住了?|收到|好的?"
        r"|明白了?|了解了?|没问题|已记下|已记录|已添加|加上了)\s*[:：]",
        re.IGNORECASE,
    )
    # A fix meant to last, not to get through today.
    PERMANENT = _any(*en.PERMANENT, *zh.PERMANENT)
    # The user picks an option by its name: "ok acme.sh then", "go with restic", "就用 restic 吧".
    NAMED_CHOICE = re.compile(
        r"^\s*(?:(?:ok(?:ay)?|fine|alright|sure|yes|yeah)[,.]?\s+)?(?:let's\s+|we'll\s+)?(?:go with|use|pick|take)\s+"
        r"(?!it\b|that\b|this\b|option\b)([A-Za-z][\w.\-/]+)"
        r"|^\s*(?:ok(?:ay)?|fine|alright|sure)[,.]?\s+([A-Za-z][\w.\-/]+)\s+(?:then|it is)\b"
        r"|^\s*([A-Za-z][\w.\-/]+)\s+it is\b"
        r"|(?:^|[，,\s])(?:那就|就|还是|那)(?:用|选)\s*([A-Za-z][\w.\-/]+|["
        + HAN
        + r"]{2,6}?)\s*(?:吧|了|好了|。|$)",
        re.IGNORECASE,
    )
    # The user asks about an alternative: "what about certbot?", "那 rclone 呢？".
    ALTERNATIVE = re.compile(
        r"(?:what about|how about|why not|and|or)\s+([A-Za-z][\w.\-/]+)[^?？]*[?？]"
        r"|^\s*(?:那|用)?\s*([A-Za-z][\w.\-/]+|[" + HAN + r"]{2,6})\s*(?:呢|怎么样|行不行|可以吗)",
        re.IGNORECASE,
    )
    # A preference or routing value in the user's words: where things go, when, which one, not which other.
    ROUTING = _any(*en.ROUTING, *zh.ROUTING)
    # The assistant says it recorded what the user just said ("好的，记下了这条规则", "Noted.", "Will remember").
    RECORDED = _any(*en.RECORDED, *zh.RECORDED)
    # A one-off: a specific near day or date ("this Thursday", "Thursday 3 Dec", 这周四, 后天) or an
    # order / ticket number ("Order #F-2291", 订单号). An appointment or errand, not a standing fact.
    ONE_OFF = _any(*en.ONE_OFF, *zh.ONE_OFF)
    # It recurs: a start date of a weekly lesson ("下周四开始，每周四 17:30") is not a one-off.
    RECURRING = _any(*en.RECURRING, *zh.RECURRING)
    CONFIRM_QUESTION = re.compile(
        r"(?:对吗|对不对|是吗|right|correct|is that right)\s*[?？]\s*$", re.IGNORECASE
    )
    YES = re.compile(r"^\s*(?:对|是|是的|没错|yes|yep|yeah|correct|right|exactly|嗯)", re.IGNORECASE)


def compacted(text: str) -> str:
    """:func:`savenow.text.normalize.compact`, remembered for the chat (see :class:`ChatMemo`)."""
    chat = _CHAT.get()
    if chat is None:
        return compact(text)
    try:
        return chat.compacted[text]
    except KeyError:
        pass
    if len(chat.compacted) >= _MEMO_LIMIT:
        chat.compacted.clear()
    result = chat.compacted[text] = compact(text)
    return result


def alike(a: str, b: str) -> float:
    """:func:`savenow.text.normalize.similarity` through :func:`compacted`."""
    return compact_similarity(compacted(a), compacted(b))


def per_chat(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` remembered for the chat (see :class:`ChatMemo`): for pure functions of
    strings (and other hashable values) whose answer is never changed by the caller
    (a frozenset, a tuple, a number), asked about the same sentences again and again."""

    @wraps(function)
    def remembered(*args: P.args, **kwargs: P.kwargs) -> R:
        chat = _CHAT.get()
        if chat is None or kwargs:
            return function(*args, **kwargs)
        memo = chat.results.get(function)
        if memo is None:
            memo = chat.results[function] = {}
        try:
            return memo[args]  # type: ignore[return-value]
        except KeyError:
            pass
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        result = memo[args] = function(*args, **kwargs)
        return result

    return remembered


for _name, _value in list(vars(Lexicon).items()):
    if isinstance(_value, re.Pattern):
        setattr(Lexicon, _name, Lexeme(_value))

LEX = Lexicon

# "其他照旧" / "everything else as always": the known part is the rest, not what was just said.
_REST_BEFORE_PRIOR = re.compile(
    r"(?:其他|其余|别的|剩下的?|(?<![A-Za-z])(?:everything|anything|all) else|the rest|(?<![A-Za-z])others?)[^。！？.!?\n]{0,8}$",
    re.IGNORECASE,
)


def says_known(text: str) -> bool:
    """The text says its fact is already saved or agreed — not just that the *rest* stays as it was."""
    found = LEX.PRIOR.search(text)
    return found is not None and not _REST_BEFORE_PRIOR.search(text[: found.start()])


# --------------------------------------------------------------------------- text shape

_FENCE = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_LIST_MARK = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)、]|[a-z][.)])\s+")
# Sentence ends: CJK terminators always; Latin ones only before whitespace (keeps nginx.conf intact).
# "；" / ";" join the clauses of one statement ("记下：A；B"): a restatement stays whole.
_SENTENCE_END = re.compile(r"(?<=[。！？])|(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bvs\.)(?<=[.!?])(?=\s)")


def code_blocks(text: str) -> list[str]:
    return [block.strip() for block in _FENCE.findall(text)]


@text_cache
def prose(text: str) -> str:
    """The message without fenced code blocks (pasted logs, configs, commands)."""
    return _FENCE.sub("\n", text)


def sentences(text: str) -> list[str]:
    """Split prose into sentences; list items are sentences of their own; inline code stays whole."""
    return [sentence for _, sentence in sentence_items(text)]


_PROTECTED = re.compile(r"\x00(\d+)\x00")  # an inline code span set aside while a line is split
_LIST_LABEL = re.compile(r"^\s*(?:(\d{1,2}|[a-z])[.)、]|\(([a-z0-9])\)|[-*•])\s+")
_SHORT_CODE_LINE = 100
_FIX_CODE_LINE = 160
_FIX_BLOCK_LINES = 6
_FIX_LEAD_CHARS = 30


def sentence_items(text: str) -> list[tuple[str | None, str]]:
    """Sentences with the label of the list item they start ("1", "a"), if any.

    A short code block right after a sentence ending in a colon ("修法：" + one
    config line) is the sentence's object, so it is appended as inline code.
    """
    return list(_sentence_items(text))


@text_cache
def _sentence_items(text: str) -> tuple[tuple[str | None, str], ...]:
    spans: list[str] = []

    def protect(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return f"\x00{len(spans) - 1}\x00"

    result: list[tuple[str | None, str]] = []
    for chunk, is_code in _chunks(text):
        if is_code:
            _attach_code(result, chunk)
            continue
        for line in chunk.splitlines():
            line = _INLINE_CODE.sub(protect, line)
            match = _LIST_LABEL.match(line)
            label = (match.group(1) or match.group(2)) if match else None
            line = line[match.end() :] if match else line
            for number, piece in enumerate(_SENTENCE_END.split(line.strip())):
                if "\x00" in piece:
                    piece = _PROTECTED.sub(lambda m: spans[int(m.group(1))], piece)
                piece = piece.strip()
                if piece:
                    result.append((label if number == 0 else None, piece))
    return tuple(result)


def _chunks(text: str) -> list[tuple[str, bool]]:
    """Alternating prose and fenced-code chunks, in order."""
    chunks: list[tuple[str, bool]] = []
    position = 0
    for match in _FENCE.finditer(text):
        chunks.append((text[position : match.start()], False))
        chunks.append((match.group(1), True))
        position = match.end()
    chunks.append((text[position:], False))
    return chunks


_EVIDENCE_LEAD = re.compile(
    r"(?<![A-Za-z])(?:error|errors|output|log|logs|says|said|shows|showed|returns|returned|prints|printed|got|get|"
    r"gives|gave|result)(?![A-Za-z])\W*$|(?:报错|错误|输出|日志|结果|显示|返回|提示)[^，。,]{0,6}[:：]\s*$",
    re.IGNORECASE,
)


def _attach_code(result: list[tuple[str | None, str]], block: str) -> None:
    lines = [
        line.strip()
        for line in block.splitlines()
        if line.strip() and not re.fullmatch(r"\[[^\]{}]+\]|#.*|//.*", line.strip())  # [Service], not [{…}]
    ]
    # A fix lead-in ("修法：", "应该写成：", "Fix:") may introduce a short snippet; anything else one or two lines.
    # (only a bare lead-in: a long sentence before the block already says the fix in words).
    # A file named in inline code ("Fix in `/etc/x.yaml`:") only says where the snippet goes: still bare.
    bare_fix_lead = (
        bool(result)
        and len(_INLINE_CODE.sub("", result[-1][1])) <= _FIX_LEAD_CHARS
        and bool(LEX.FIX.search(result[-1][1]))
    )
    limit = _FIX_BLOCK_LINES if bare_fix_lead else 2
    if not result or not result[-1][1].endswith((":", "：")) or not 1 <= len(lines) <= limit:
        return
    if _EVIDENCE_LEAD.search(result[-1][1]):
        return  # "报错：" / "I get:" introduces what a program printed, not a fix
    # A sentence that says it is the fix ("Fix: switch to …, which is this rule:") may carry one longer line.
    longest = _FIX_CODE_LINE if LEX.FIX.search(result[-1][1]) and len(lines) == 1 else _SHORT_CODE_LINE
    if any(len(line) > longest or "`" in line or is_machine_line(line) for line in lines):
        return  # "报错：" + a log line is evidence, not the object of a fix
    label, sentence = result[-1]
    result[-1] = (label, sentence + " " + "; ".join(f"`{line}`" for line in lines))


# --------------------------------------------------------------------------- cleaning

_TRAILING_PUNCT = re.compile(r"[\s,，;；:：—\-–]+$")


@text_cache
def clean_bullet(sentence: str) -> str:
    """A sentence as a note bullet: without acknowledgements, note lead-ins or a dangling colon."""
    text = " ".join(sentence.split())
    for _ in range(3):
        before = text
        text = LEX.ACK_PREFIX.sub("", text)
        text = LEX.NOTE_LEAD.sub("", text)
        if text == before:
            break
    text = _TRAILING_PUNCT.sub("", text)
    if text.endswith(("。", ".")) is False and has_cjk(text):
        text = text.rstrip("，,")
    if has_cjk(text) or not text[:1].isascii() or text.startswith("`"):
        return text  # "etl 的事…" stays as written; only English sentences get a capital
    if _IDENTIFIER_CHAR.search(text.split(" ", 1)[0]):
        return text  # "subs@raman-lit.co.uk", "study_motion": an identifier is kept exactly
    return text[:1].upper() + text[1:]


_IDENTIFIER_CHAR = re.compile(r"[\d_./:@-]")


def conversation_language(texts: Iterable[str]) -> str:
    """ "zh" when the user's side is mostly Chinese, else "en"."""
    joined = "".join(prose(t) for t in texts)
    return "zh" if cjk_ratio(joined) >= 0.15 else "en"
