"""What KIND of fact a note or a section holds: a schedule, a rule / convention.

A section's heading often names a kind rather than a subject ("家庭日程", "Reminder rules",
"文档归档规则", "Team conventions"), and its bullets are facts of that kind (weekday + time
slots; "always / 默认 / 统一 …"). A note of the same kind extends that section even when it
shares no word with it: a new weekly lesson belongs in the family schedule, an exception
to the reminder lead time in the reminder rules. Kinds are compared, not words.
"""

from __future__ import annotations

import re

from ...vocabulary import NoteKind
from .cache import text_cache
from .signals import LEX

SCHEDULE = "schedule"
RULE = "rule"

_HEADING_KINDS = {
    SCHEDULE: re.compile(
        r"日程|日历|课表|时间表|作息|安排|schedule|calendar|timetable|agenda|routine", re.IGNORECASE
    ),
    RULE: re.compile(
        r"规则|规矩|约定|规范|制度|策略|守则|rules?\b|polic(?:y|ies)|conventions?|guidelines?",
        re.IGNORECASE,
    ),
}

_WEEKDAY = re.compile(
    r"(?:每|下|这|本)?(?:周|星期|礼拜)[一二三四五六日天1-7]|每周|每天|工作日|周末"
    r"|(?<![A-Za-z])(?:mon|tue|wed|thu|fri|sat|sun)(?:day|s|\.)?(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?"
    r"|weekdays?|weekends?|daily|weekly|every (?:day|week|morning|evening))(?![A-Za-z])",
    re.IGNORECASE,
)
_CLOCK = re.compile(
    r"\d{1,2}[:：]\d{2}|\d{1,2}\s*(?:am|pm)(?![A-Za-z])|[上下]午|早上|晚上|\d{1,2}\s*点"
    r"|(?<![A-Za-z])(?:morning|afternoon|evening)s?(?![A-Za-z])",
    re.IGNORECASE,
)
# A bullet that states how things are always done. LEX.FUTURE already knows the standing-rule
# markers (always/never/must/by default, 以后/一律/统一/必须/只能/只用); a saved bullet also reads as a
# rule through the plain prohibitions and "only" below, and through a bare "默认".
_RULE_WORDS = re.compile(r"默认|别|不要|不得|都[要用发走]|only|don't|do not", re.IGNORECASE)


@text_cache
def heading_kinds(title: str) -> frozenset[str]:
    """The kinds a heading names ("家庭日程" → schedule, "提醒规则" → rule)."""
    return frozenset(kind for kind, pattern in _HEADING_KINDS.items() if pattern.search(title))


@text_cache  # placement asks about each note once per section
def is_schedule(text: str) -> bool:
    """A recurring slot: a weekday (or every day / weekends) together with a time of day."""
    return bool(_WEEKDAY.search(text)) and bool(_CLOCK.search(text))


def is_rule_text(text: str) -> bool:
    return bool(_RULE_WORDS.search(text) or LEX.FUTURE.search(text))


def note_kinds(text: str, kinds: set[str]) -> frozenset[str]:
    """The kinds of fact a note is: a standing rule (its sentences carry a rule marker) or a schedule."""
    found = set()
    if kinds & {NoteKind.FUTURE, NoteKind.PREFERENCE}:
        found.add(RULE)
    if is_schedule(text) and not kinds & {NoteKind.ROOT_CAUSE, NoteKind.FIX}:
        found.add(SCHEDULE)
    return frozenset(found)


@text_cache
def bullets_kinds(bullets: tuple[str, ...]) -> frozenset[str]:
    """The kinds most (at least half) of a section's bullets are."""
    if not bullets:
        return frozenset()
    found = set()
    if 2 * sum(1 for b in bullets if is_schedule(b)) >= len(bullets):
        found.add(SCHEDULE)
    if 2 * sum(1 for b in bullets if is_rule_text(b)) >= len(bullets):
        found.add(RULE)
    return frozenset(found)


def kind_affinity(note: frozenset[str], title: str, bullets: tuple[str, ...]) -> float:
    """How strongly a section is the home of a note by kind: its heading names the note's kind
    (1.0), and its bullets are facts of that kind too (2.0)."""
    shared = note & heading_kinds(title)
    if not shared:
        return 0.0  # bullets alone do not make a section one of a kind: "nginx" may hold a rule or two
    return 2.0 if shared & bullets_kinds(bullets) else 1.0
