"""Identifier patterns: the distinctive tokens of technical chat text.

Paths, URLs, hosts, env vars, dotted keys, versions, sizes, kebab/snake/Camel names, IPs, long
numbers and inline code spans are what make a note findable and two sentences "about the same
thing". :func:`identifiers` is what the offline extractor matches on; :func:`identifier_tokens`
is the looser, whitespace-token view the LLM prompt uses to decide which pasted blocks matter.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .alternation import compile_alternation as _fast  # re.compile, with the same matches found faster
from .alternation import quick_start

__all__ = [
    "CURRENCY_CODE",
    "INLINE_CODE",
    "digit_tokens",
    "identifier_tokens",
    "identifiers",
    "values",
    "written_values",
]

INLINE_CODE = re.compile(r"`([^`\n]{1,160})`")

# (pattern, a character the text must contain for the pattern to match at all): the guard
# skips most regex scans, which keeps 180 messages well under the 50 ms budget. Compiled so that a
# search skips, in C, the characters no match can start with (see :mod:`.alternation`).
_ID_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (_fast(r"https?://[^\s`'\"<>)，。；：、）」』！？]+"), "://"),  # a URL ends at CJK punctuation too
    (_fast(r"(?<![\w/])(?:~|\.{1,2})?/[\w.\-]+(?:/[\w.\-<>]*)+"), "/"),  # /etc/x, ~/.openclaw/x
    (_fast(r"(?<![\w/.])[\w\-]+(?:/[\w.\-]+)+"), "/"),  # reports/db.py, sites-enabled/files.conf
    (
        _fast(
            r"(?<![\w-])[\w-]+\.(?:conf|py|js|ts|json5?|ya?ml|toml|md|sh|service|timer|env|txt|ini|cfg|sql|log)\b"
        ),
        ".",
    ),
    (_fast(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![A-Za-z0-9_])"), "_"),  # ENV_VARS
    (_fast(r"(?<![\w.])[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+(?![\w])"), "."),  # gateway.auth.token
    (_fast(r"(?<![\w.])-?\d{4,}(?!\w|\.\w)"), ""),  # chat ids, ports, long numbers
    (_fast(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?:/\d{1,2}|:\d+)?"), "."),  # IPv4, CIDR
    (_fast(r"(?<![\w.])v?\d+\.\d+(?:\.\d+|\.[A-Z]+)*(?!\w|\.\w)"), "."),  # versions
    (_fast(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:[KMGT]B|[kmg]b?|GiB|MiB)(?![A-Za-z])"), ""),  # sizes
    (
        _fast(r"(?<![\w-])[A-Za-z][a-z0-9]*(?:-[A-Za-z0-9]+)+(?![\w-])"),
        "-",
    ),  # kebab: billing-svc, edge-1
    (_fast(r"(?<![\w])[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+(?![\w])"), ""),  # CamelCase: ExecStart
    (
        _fast(r"(?<![\w-])[A-Z]{2,}[0-9]*(?:-[A-Z0-9]+)+(?![\w-])"),
        "-",
    ),  # RE-YYYY-NNN, DNS-01, TLS-ALPN-01
    (_fast(r"(?<![\w])[A-Z][a-z]+(?:-[A-Z][a-z]+)+(?![\w])"), "-"),  # Header-Case: Retry-After
    (_fast(r"(?<!\w)@\w{3,}"), "@"),
    (_fast(r"(?<![\w.-])[a-z]+[0-9]+[a-z0-9]*(?![\w.-])"), ""),  # fsn1, qwen2, g5
    (_fast(r"(?<![\w])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w])"), "_"),  # snake_case keys
]
_DIGIT = re.compile(r"\d")
_NEEDS_DIGIT = {6, 7, 8, 9, 15}  # indexes of the patterns above that need a digit
# Everyday hyphenated words and dotted abbreviations are not identifiers.
_NOT_IDS = frozenset(
    {
        "e.g",
        "i.e",
        "etc",
        "vs",
        "re-run",
        "re-ran",
        "long-lived",
        "built-in",
        "follow-up",
        "set-up",
        "e-mail",
        "one-off",
        "off-by-one",
        "up-to-date",
        "opt-in",
        "opt-out",
        "read-only",
        "so-called",
        "self-hosted",
        "dns-only",
        "per-bot",
        "plug-in",
        "co-worker",
        "day-to-day",
        "check-in",
        "sign-in",
        "log-in",
        "non-zero",
        "pre-commit",
        "x-ray",
        "t-shirt",
    }
)


def identifiers(text: str) -> set[str]:
    """Distinctive tokens, case-folded: code spans and what they contain, paths, hosts, IDs, keys."""
    return set(_identifiers(text))


@lru_cache(maxsize=8192)
def _identifiers(text: str) -> frozenset[str]:
    found: set[str] = set()
    has_digit = _DIGIT.search(text) is not None
    for span in INLINE_CODE.findall(text):
        stripped = span.strip()
        if 2 <= len(stripped) <= 80:
            found.add(stripped.casefold())
    for number, (pattern, guard) in enumerate(_ID_PATTERNS):
        if (guard and guard not in text) or (number in _NEEDS_DIGIT and not has_digit):
            continue
        for match in pattern.findall(text):
            token = match.strip().rstrip(".,:;)")
            key = token.casefold()
            if (
                len(key) >= 3
                and key not in _NOT_IDS
                and (not key.replace(".", "").isdigit() or key.count(".") == 3)
                or _long_number(key)
            ):
                found.add(key)
    return frozenset(found)


def _long_number(key: str) -> bool:
    return key.lstrip("-").isdigit() and len(key.lstrip("-")) >= 4


# Whitespace / punctuation tokens that look like identifiers (digits, separators, camelCase, ACRONYMS).
_TOKEN_SPLIT = re.compile(r"[\s`'\"()\[\]{}<>,;=|，。：；、（）“”‘’！？]+")
_IDENTIFIER_TOKEN = re.compile(r"(?=.*(?:[0-9_./\-:@]|[a-z][A-Z]|^[A-Z]{3,}$))[\w./\-:@]{3,}")


def identifier_tokens(lines: Iterable[str]) -> set[str]:
    """The tokens of ``lines`` that look like identifiers, lower-cased (``gateway.cmd``, ``E2BIG``)."""
    found: set[str] = set()
    for line in lines:
        for token in _TOKEN_SPLIT.split(line):
            token = token.strip(".:-/")
            if _IDENTIFIER_TOKEN.fullmatch(token):
                found.add(token.lower())
    return found


# --------------------------------------------------------------------------- values

# Numbers as a fact states them: ports, counts, amounts, times, dates ("6380", "17:30", "10,000", "0.5").
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.:,/]\d+)*(?![\w])")
# A capitalized word inside a sentence is a name (a person, a product): "Alice owns …", "找 Kenji".
_NAME = re.compile(r"(?<![\w'])[A-Z][a-z]+(?:[A-Z][a-z]+)*(?![\w'])")
_SENTENCE_START = re.compile(r"(?:^|[.!?。！？:：;；\n]\s*|[-*>]\s+)$")
# Capitalized words that start clauses or name weekdays and months: they identify nothing.
_NOT_NAMES = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "i",
        "we",
        "you",
        "he",
        "she",
        "they",
        "my",
        "our",
        "your",
        "his",
        "her",
        "their",
        "if",
        "when",
        "then",
        "so",
        "but",
        "and",
        "or",
        "not",
        "no",
        "yes",
        "ok",
        "fix",
        "cause",
        "note",
        "rule",
        "set",
        "use",
        "run",
        "see",
        "also",
        "now",
        "new",
        "old",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)


def values(text: str) -> set[str]:
    """What a fact asserts, case-folded: its :func:`identifiers`, every number (a port, an amount,
    a time) and every name (a capitalized word inside a sentence, a Latin name in Chinese text).

    Two notes whose values differ say different things, however alike their words:
    ``server 1 is 10.0.0.1`` / ``server 2 is 10.0.0.2``, ``Redis on 6379`` / ``Redis on 6380``.
    """
    return set(_values(text))


@lru_cache(maxsize=8192)
def _values(text: str) -> frozenset[str]:
    found = set(_identifiers(text))
    for match in _NUMBER.finditer(text):
        number = match.group(0)
        if re.fullmatch(r"\d{1,3}(?:,\d{3})+", number):
            number = number.replace(",", "")  # 10,000 and 10000 are one amount
        found.add(number.rstrip(".,:/"))
    for match in _NAME.finditer(text):
        word = match.group(0)
        if word.casefold() in _NOT_NAMES or len(word) < 3:
            continue
        if _SENTENCE_START.search(text[: match.start()]) and not _cjk_before(text, match.start()):
            continue  # "Restart nginx" starts a sentence; "找 Kenji" names someone
        found.add(word.casefold())
    return frozenset(found)


def _cjk_before(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return bool(before) and ord(before[-1]) >= 0x3000 and before[-1] not in "。！？：；"


# -- digit-bearing tokens (an address, a code, a number with separators) --------------------------

_DIGIT_TOKEN = re.compile(r"[\w.:/+-]*\d[\w.:/+-]*")
_YEAR = re.compile(r"(?:19|20)\d\d")


def digit_tokens(text: str, *, min_length: int = 0, years: bool = True) -> set[str]:
    """Every run of word characters and ``.:/+-`` that holds a digit, its edge separators stripped:
    ``Flat 3B, 221-B Baker St`` → {"3B", "221-B"}. ``min_length`` and ``years=False`` (no bare 19xx/20xx)
    keep only the distinctive ones."""
    found = {m.strip(".:/+-") for m in _DIGIT_TOKEN.findall(text)}
    return {m for m in found if len(m) >= min_length and (years or not _YEAR.fullmatch(m))}


# -- values as written (the compaction summary's) ------------------------------------------------

_A = r"(?<![A-Za-z0-9])"  # \b fails next to a Han character (both are word characters)
_Z = r"(?![A-Za-z0-9])"
_CURRENCIES = ("CAD", "USD", "AUD", "NZD", "EUR", "GBP", "HKD", "SGD", "CNY", "RMB", "JPY", "CHF")
CURRENCY_CODE = "(?:" + "|".join(_CURRENCIES) + r"|US\$|A\$|C\$|HK\$|NT\$)"
_VALUES_BEFORE_EMAIL = (
    r"[£$¥€]\s?\d[\d,]*(?:\.\d+)?"
    r"|(?<![A-Za-z0-9.])\d[\d,]*(?:\.\d+)?(?:\s?(?:元|块|万|%|％|[KMGT]i?B|天|小时|分钟|度|个月|号|日|点)|(?:h|m|s|d|ms)(?![A-Za-z]))"
    rf"|{_A}\d{{1,2}}:\d{{2}}{_Z}|#\d+"
)
_EMAIL_VALUE = rf"|{_A}[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_VALUES_AFTER_EMAIL = (
    rf"|{_A}[A-Z]{{1,4}}-?\d{{2,}}[A-Z0-9-]*{_Z}"
    rf"|{_A}(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{{6,}}{_Z}"  # tax ids, order codes: 91330106MA2H7K3L5Q
    rf"|{_A}(?=[a-f0-9]*\d)(?=[a-f0-9]*[a-f])[a-f0-9]{{7,40}}{_Z}"  # commits, key ids: 4e7a1c9
    rf"|(?<![A-Za-z0-9.,])\d{{3,}}(?![\d.,]?\d)"
)
_VALUE = re.compile("(?:" + _VALUES_BEFORE_EMAIL + _EMAIL_VALUE + _VALUES_AFTER_EMAIL + ")")
# The same alternatives for a text without "@" (no address to find), behind a lookahead on the
# characters they can begin with (read off by quick_start, so it follows when one is added): re
# tries every alternative at every character otherwise, and the lookahead turns most characters
# (spaces, Han, most letters) away at once. Same matches.
_VALUE_NO_EMAIL = quick_start(re.compile("(?:" + _VALUES_BEFORE_EMAIL + _VALUES_AFTER_EMAIL + ")"))
# More kinds of value, each run only when a cheap test says the text may hold one (speed: the
# alternation above is tried at every character).
_MORE_VALUES: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    (  # an amount with its currency: CAD 14,500
        (*_CURRENCIES, "$"),
        re.compile(rf"{_A}{CURRENCY_CODE} ?\d[\d,]*(?:\.\d+)?"),
    ),
    (  # thousands separators: 14,500 (a count or an amount)
        (",",),
        re.compile(
            r"\d(?<![\d.,]\d)\d{0,2}(?:,\d{3})+(?:\.\d+)?(?:\s?(?:yen|dollars?|euros?|円|元|块))?(?![\d,]?\d)"
        ),
    ),
    (  # an option with its value (--keep-daily 7, --jobs=3), an option of several parts (--dry-run)
        ("--",),
        re.compile(
            r"-(?<![\w-]-)-[a-z][a-z0-9-]*(?:=[^\s,，。；;]+| \d[\w.]*)|-(?<![\w-]-)-[a-z][a-z0-9]*(?:-[a-z0-9]+)+"
        ),
    ),
    (  # an environment setting: FEATURE_X=0
        ("=",),
        re.compile(r"[A-Z](?<![\w-][A-Z])[A-Z0-9_]{2,}=[^\s,，。；;'\"`]+"),
    ),
)


def written_values(text: str) -> list[str]:
    """The values in ``text`` (amounts, times, codes, options …) as written, in no particular order.

    Unlike :func:`values` (case-folded, normalized, for comparing two facts), these are the spans
    themselves, repeats included: what the compaction summary keeps verbatim.
    """
    found = [m.group(0) for m in (_VALUE if "@" in text else _VALUE_NO_EMAIL).finditer(text)]
    for hints, pattern in _MORE_VALUES:
        if any(hint in text for hint in hints):
            found += [m.group(0) for m in pattern.finditer(text)]
    return found
