"""Where a proposed note goes in today's memory: skip, merge under a section, or add.

* **skip** — the chat restates something today's file already says: the note
  refers to earlier notes ("as we saved", 按之前的约定) and matches a bullet, or
  its wording nearly duplicates one.
* **merge** — the note extends a section's topic: it shares identifiers with
  the section, names the section's subject, opens on someone or something the
  section's bullets list (a client, a person), or is the same kind of fact
  (an owner under a team/owners section, a preference under a preferences one).
* **topic home** — a section whose distinctive terms (heading words,
  identifiers and names in its bullets) recur in the conversation, clearly more
  than any other section's (on less evidence when the chat uses no other
  section's terms at all), is what the chat is about: a note of that chat
  merges under it unless it names a product or host the section never does
  (then it must share a term with it). Owners, reply styles and notes closer
  to another section keep their own place. A **faint home** — the only section
  the chat touches at all, on little evidence — takes details the same way,
  but not a new party (someone reached by a phone, e-mail or WeChat the
  section never lists), and a section of preferences is never one. A **contested
  home** — two sections sharing the chat, close in score — sends a note under
  the one it shares a term with (a heading word, an identifier, two names) when
  it shares nothing with the other.
* **local topic** — the section the few messages before a note were about: a
  user's standing rule that names no system of its own merges there, and when
  the chat covers two sections in different parts, a word-only link to the
  other one gives way to it.
* **add** — everything else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from ...models import MemorySection
from ...text.cjk import HAN, han_ngrams, han_runs, has_cjk, is_cjk
from ...text.concepts import ancestors, concepts_in, get_concept
from ...text.identifiers import identifiers, values
from ...text.normalize import compact
from ...text.stopwords import EN_HEADING_FILLER, EN_LONG_COMMON_WORDS, EN_SMALL_WORDS, ZH_FUNCTION_HAN
from ...vocabulary import NoteKind
from . import factkinds, signals
from .cache import text_cache
from .signals import LEX
from .titles import KIND_LABEL, about_replies
from .words import fact_terms, quantities

MERGE_MIN = 2.0
USER_RULE = "user_rule"  # pseudo-kind: the note holds a standing rule the user stated
USER_STANDING = "user_standing"  # pseudo-kind: … a standing rule the user stated, whatever its topic
OPENING_TOPIC = "opening_topic"  # pseudo-kind: the chat opened on the home section's subject
OPENING_SUBJECT = "opening_subject"  # pseudo-kind: the note is about what the chat opened with
PEOPLE_SECTION = "people_section"  # pseudo-kind: today's file has a section that lists people
SKIP_SIMILARITY = 0.6  # wording this close to an existing bullet is a duplicate on its own
PRIOR_SIMILARITY = 0.25  # … or this close when the chat says it was saved before

_OWNER_SECTION = re.compile(r"team|owner|people|contact|who|分工|负责|团队|人员|联系人", re.IGNORECASE)
_PREFERENCE_SECTION = re.compile(
    r"prefer|style|habit|convention|guideline|偏好|习惯|风格|约定|规范", re.IGNORECASE
)


class _Bullet(Protocol):
    bullet: str
    ids: frozenset[str]


@dataclass(frozen=True)
class Placement:
    action: Literal["add", "merge", "skip"]
    section_title: str | None
    matched_bullet: str | None
    reason: str


def place(
    bullets: Sequence[_Bullet],
    ids: frozenset[str],
    kinds: set[str],
    prior: bool,
    sections: Sequence[MemorySection],
    home: MemorySection | None = None,
    local: LocalTopic | None = None,
) -> Placement | None:
    """The placement of a note; None for a "we already saved this" note today's file lacks."""
    # A prior-reference note is a duplicate when any sentence matches; a new note only by its lead sentence.
    duplicate = _duplicate(bullets if prior else bullets[:1], prior, sections)
    if duplicate is not None:
        section, bullet = duplicate
        return Placement(
            "skip", section.title, bullet, f'Already in today\'s memory under "{section.title}".'
        )
    if prior:
        return None
    restated = _restated(bullets, kinds, sections)
    if restated is not None:
        section, bullet = restated
        return Placement(
            "skip",
            section.title,
            bullet,
            f'Already in today\'s memory under "{section.title}" (same values).',
        )
    sentences = tuple(b.bullet for b in bullets)
    text = " ".join(sentences)
    if (
        sentences
        and NoteKind.FUTURE not in kinds  # "New ignore patterns always go …": a rule about any new one
        and _introduces_new(sentences[0])
        and not any(_changes_introduced(sentences[0], text, s.bullets) for s in sections)
    ):
        return Placement(
            "add", None, None, "New durable fact."
        )  # "新客户 …", "New category …": a thing of its own
    note_ids = frozenset().union(*(b.ids for b in bullets)) if bullets else ids
    if _to_the_user(text) and not any(_changes_bullet(text, s.bullets) for s in sections):
        # How the assistant answers or tells the user ("No more emojis", "涨了就告诉我"): a rule about the
        # assistant, not a detail of the subject the chat is on, so only sections of preferences stay
        # candidates; one whose own bullets are rules for the assistant takes it outright (a team's
        # conventions are the team's). A new value of a saved bullet is that bullet's fact, told or not.
        sections = [s for s in sections if _PREFERENCE_SECTION.search(s.title)]
        home = local = None
        for section in sections:
            if any(_to_the_user(b) for b in section.bullets):
                return Placement(
                    "merge", section.title, None, f'Extends the existing section "{section.title}".'
                )
    best: tuple[float, MemorySection] | None = None
    for section in sections:
        lead_ids = bullets[0].ids if bullets else frozenset()
        affinity = _affinity(text, note_ids, kinds, section, lead_ids, sentences)
        if affinity >= MERGE_MIN and (best is None or affinity > best[0]):
            best = (affinity, section)
    if (
        best is not None
        and local is not None
        and local.section is not best[1]
        and not _is(best[1], home)
        and local.discusses(best[1])
        and not kinds & {NoteKind.OWNER, NoteKind.PREFERENCE}
        and not note_ids & identifiers(" ".join([best[1].title, *best[1].bullets]))
        and not _changes_bullet(
            text, best[1].bullets
        )  # a new value of one of its bullets is no word-only link
        and not _names_heading(text, best[1])  # "以后升级 Immich …" names the section's subject itself
        and not _opens_on_a_name_of(sentences, best[1])  # "蓝鲸法务的对接人换了" under the section listing it
    ):
        # The chat covers both sections in different parts and only a word links the note to the
        # other one ("a 45-minute travel block" in the calendar part): the part it came from decides.
        # Not when the other section is what the whole chat is about ("以后升级 Immich …" after a
        # few messages on the GPU): a component mentioned in passing does not outweigh the system.
        return _local_merge(local.section)
    if best is not None:
        return Placement("merge", best[1].title, None, f'Extends the existing section "{best[1].title}".')
    if isinstance(home, ContestedHome):
        pick = _contested_pick(text, note_ids, kinds, home)
        if pick is not None:
            return Placement("merge", pick.title, None, f'Part of the conversation\'s topic "{pick.title}".')
    elif home is not None and _belongs_home(text, note_ids, kinds, home):
        return Placement("merge", home.title, None, f'Part of the conversation\'s topic "{home.title}".')
    if (
        local is not None
        and USER_STANDING in kinds
        and not kinds & {NoteKind.OWNER, NoteKind.PREFERENCE}
        and not own_names(text, local.section)
    ):
        # A user's rule that names no system of its own ("never book Sunday mornings") is about
        # what the chat was on when it was said; one naming another tool or service is added.
        return _local_merge(local.section)
    return Placement("add", None, None, "New durable fact.")


# The assistant telling the user something, in the user's words or the assistant's: "tell me",
# "告诉我", "给我发消息", "not my DMs", "I'll let you know", "不发你私信".
_TELL_ME = re.compile(
    r"(?:告诉|通知|提醒|私信|私聊)[我你]|给[我你]发|发给[我你]|"
    r"(?<![\w'])(?:(?:tell|notify|ping|message|text|alert) (?:me|you)|let (?:me|you) know|(?:my|your) DMs?)(?![\w'])",
    re.IGNORECASE,
)
# Said to the assistant wherever it stands in its clause: "let me know", "tell me when", "not my DMs".
_TELL_ME_ANYWHERE = re.compile(
    r"let (?:me|you) know|tell (?:me|you) (?:when|if|whenever)|(?:my|your) DMs?", re.IGNORECASE
)
# What may stand before a request that opens its clause ("From now on, tell me", "以后告诉我"), and
# the words that make one an imperative mid-clause ("涨了就告诉我", "记得通知我", "if it fails, then ping me").
_REQUEST_OPENER = re.compile(
    r"(?:(?:and|also|then|so|just|please|pls|always|only|from now on|以后|今后|然后|也|还|另外|麻烦)\s*)*$",
    re.IGNORECASE,
)
_IMPERATIVE_BEFORE = re.compile(
    r"(?:就|请|记得|麻烦|务必|及时|马上|立刻|第一时间|(?<![\w'])(?:please|just|then|always|also))$",
    re.IGNORECASE,
)
# Someone else doing the telling: he/she/they or a name as the clause's subject ("she'll text me",
# "Dr. Hale will let me know", "他会告诉我").
_THIRD_PERSON_SUBJECT = re.compile(
    r"(?:(?<![\w'])(?:he|she|they)|(?<![\w'])[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*)(?:'ll|'d|'s)?\s+"
    r"(?:(?:will|would|can|could|should|may|might|is|are|going|gonna|to|promised|agreed|always|usually|then)\s+)*$"
    r"|(?:他|她|他们|她们)(?:会|要|说|答应|再|就)*$"
)
_CLAUSE_SPLIT = re.compile(r"[，,;；。！!？?：:\n]|\.(?:\s|$)")


def _to_the_user(text: str) -> bool:
    """A rule about how the assistant answers (``titles``' reply detector) or when it tells the user:
    a telling said to the assistant (it opens its clause, or an imperative "就告诉我", "let me know"),
    never one whose subject is someone else ("房东通知我…", "she'll text me the results")."""
    return about_replies(text) or any(_told_to_the_assistant(c) for c in _CLAUSE_SPLIT.split(text))


def _told_to_the_assistant(clause: str) -> bool:
    for match in _TELL_ME.finditer(clause):
        before = clause[: match.start()]
        if _THIRD_PERSON_SUBJECT.search(before) and not _REQUEST_OPENER.fullmatch(before.strip()):
            continue
        if (
            _REQUEST_OPENER.fullmatch(before.strip())
            or _IMPERATIVE_BEFORE.search(before.rstrip())
            or _TELL_ME_ANYWHERE.match(clause[match.start() :].rstrip())
        ):
            return True
    return False


HOME_MIN = 4.0  # how much of a section's vocabulary the chat must use to be about it
HOME_LEAD = 2.0  # … and how many times more than the next section's
HOME_ALONE_MIN = 3.0  # … or this much when the chat touches no other section at all
HOME_FAINT_MIN = 1.0  # … or, as a faint home, this much (one heading word's half, a couple of its words)
_EPISODE = frozenset({NoteKind.FIX, NoteKind.ROOT_CAUSE, NoteKind.CHANGE})
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]{4,}")


def topic_home(texts: Iterable[str], sections: Sequence[MemorySection]) -> MemorySection | None:
    """The section the conversation is about, when one clearly stands out (see the module doc)."""
    if not sections:
        return None
    chat = " ".join(texts).casefold()
    common = _common_terms(sections)
    scored = sorted(
        (
            (_home_score(chat, _unlabelled(section), common), number)
            for number, section in enumerate(sections)
        ),
        reverse=True,
    )
    best, number = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    if best >= (HOME_MIN if runner_up else HOME_ALONE_MIN) and best >= HOME_LEAD * runner_up:
        return sections[number]
    if best >= HOME_FAINT_MIN and not runner_up and not _PREFERENCE_SECTION.search(sections[number].title):
        # The chat touches this section only, if faintly: people rarely write the heading's words
        # ("Knee rehab" for a physio's exercise plan, "妈妈的药" in an English chat) yet the chat is
        # about it. A faint home takes details, not a new party (see :func:`_new_party`).
        section = sections[number]
        return FaintHome(section.title, section.bullets, section.time)
    third = scored[2][0] if len(scored) > 2 else 0.0
    if best >= HOME_ALONE_MIN and runner_up >= HOME_FAINT_MIN and third * HOME_LEAD <= runner_up:
        # Two sections share the chat ("Clients" beside "Invoicing", "Synology NAS" beside "路由器"):
        # neither is the home, but each note goes under the one whose bullets it shares a term with.
        section, rival = sections[number], sections[scored[1][1]]
        return ContestedHome(section.title, section.bullets, section.time, rival=rival)
    return None


def _unlabelled(section: MemorySection) -> MemorySection:
    """The section without the kind labels savenow opens bullets with ("根因：", "Fix:"): any
    incident's chat writes those words, so they tell nothing about which section it is about."""
    bullets = tuple(_LEADING_LABEL.sub(_drop_kind_label, b) for b in section.bullets)
    return MemorySection(section.title, bullets, section.time)


_LEADING_LABEL = re.compile(r"^\s*([^:：]{1,20})[:：]\s*")


def _drop_kind_label(match: re.Match[str]) -> str:
    return "" if KIND_LABEL.fullmatch(f": {match.group(1)}") else match.group(0)


@dataclass(frozen=True)
class FaintHome(MemorySection):
    """A topic home found on little evidence: the only section the chat touches at all."""


@dataclass(frozen=True)
class ContestedHome(MemorySection):
    """The chat is about two sections, close in score: no home of its own (the pipeline's opening and
    rule checks see none), but a note sharing a term with one of them only goes there."""

    rival: MemorySection | None = None


def _is(section: MemorySection, home: MemorySection | None) -> bool:
    """``section`` is the home (a faint home is a copy of its section; a contested one is none)."""
    return (
        home is not None
        and not isinstance(home, ContestedHome)
        and (section.title, section.bullets) == (home.title, home.bullets)
    )


def _contested_pick(
    text: str, note_ids: frozenset[str], kinds: set[str], home: ContestedHome
) -> MemorySection | None:
    """Of the two sections a chat shares, the one the note shares a term with (a heading word, an
    identifier, two names, a Chinese phrase of its bullets) while it shares nothing at all with the
    other; owners and preferences keep their own place, and a new party (a contact the section never
    lists) is added."""
    if kinds & {NoteKind.OWNER, NoteKind.PREFERENCE} or home.rival is None:
        return None
    section = MemorySection(home.title, home.bullets, home.time)
    pair = (section, home.rival)
    touched = [s for s in pair if _shares_section_term(text, note_ids, s)]
    if len(touched) != 1 or not _shares_section_term(text, note_ids, touched[0], words=2):
        return None  # both, or neither, or only by the one name the whole chat uses
    return None if _new_party(text, touched[0]) else touched[0]


def _home_score(chat: str, section: MemorySection, common: frozenset[str] = frozenset()) -> float:
    score = 0.0
    for term in _heading_words(section.title):
        if _mentions(chat, term):
            score += 2.0
        elif _mentions_head_or_tail(chat, term):
            score += 1.5
    bullets = " ".join(section.bullets)
    for identifier in _section_ids(bullets) - common:
        if identifier in chat:
            score += 1.0
    names = {w.casefold() for w in _LATIN_WORD.findall(bullets)} - EN_LONG_COMMON_WORDS - common
    score += min(1.5, 0.5 * sum(1 for name in names if _mentions(chat, name)))
    # Chinese words of the bullets ("悦音琴行", "租客", "包邮") the chat uses: what its words are about.
    # A Chinese section has no identifiers or capitalized names to be recognized by, so they count more.
    return score + min(HOME_ZH_MAX, HOME_ZH_WORD * len(_zh_words_used(bullets, chat, common)))


HOME_ZH_WORD = 0.5  # a Chinese word of a section's bullets the chat uses …
HOME_ZH_MAX = 3.0  # … and the most they add together


def _zh_words_used(text: str, chat: str, common: frozenset[str]) -> set[str]:
    """The Chinese words of ``text`` the chat uses: runs of character pairs the chat holds ("路由" +
    "由器" is one word, 路由器), without particles and pairs other sections share."""
    words: set[str] = set()
    for run in han_runs(text, 2):
        start = None
        for i in range(len(run)):
            gram = run[i : i + 2]
            hit = len(gram) == 2 and gram in chat and gram not in common and not set(gram) & ZH_FUNCTION_HAN
            if hit and start is None:
                start = i
            elif not hit and start is not None:
                words.add(run[start : i + 1])
                start = None
    return words


@text_cache
def _zh_terms(text: str, n: int) -> frozenset[str]:
    """Chinese runs of ``n`` characters without a particle or pronoun in them: a segmenter-free view of
    the words (n=2) or phrases (n=3) of ``text``."""
    return frozenset(g for g in han_ngrams(text, n) if not set(g) & ZH_FUNCTION_HAN)


def _names_heading(text: str, section: MemorySection) -> bool:
    """The note names the section's subject by name: a Latin word of its heading written as a name in
    the note ("Immich", "Proxmox"), not a common word both use ("a 45-minute travel block")."""
    names = {w.casefold() for w in re.findall(r"(?<![A-Za-z])[A-Z][A-Za-z0-9]{3,}", text)}
    return any(t in names for t in _heading_words(section.title))


def _mentions_head_or_tail(chat: str, term: str) -> bool:
    """A Chinese heading run of three or more characters, named by its first or last two ("大阪行程" →
    "大阪", "毕业论文" → "论文"): people write "大阪的酒店", not the heading's whole compound."""
    if not has_cjk(term) or len(term) < 3 or not all(is_cjk(c) for c in term):
        return False
    return any(part in chat for part in (term[:2], term[-2:]) if not set(part) & ZH_FUNCTION_HAN)


def _common_terms(sections: Sequence[MemorySection]) -> frozenset[str]:
    """Identifiers and names the bullets of two or more sections share (hosts both list): they
    tell nothing about which of them the chat is about."""
    seen: set[str] = set()
    common: set[str] = set()
    for section in sections:
        bullets = " ".join(section.bullets)
        terms = _section_ids(bullets) | (
            {w.casefold() for w in _LATIN_WORD.findall(bullets)} - EN_LONG_COMMON_WORDS
        )
        terms |= _zh_terms(bullets, 2)
        common |= terms & seen
        seen |= terms
    return frozenset(common)


@text_cache
def _heading_words(title: str) -> tuple[str, ...]:
    """Whole words of a heading: "k8s", "ci", "python", "照片备份" (CJK runs whole, not bigrams)."""
    return tuple(
        w
        for w in re.split(r"[^\w" + HAN + r"]+", title.casefold())
        if len(w) >= 2 and w not in EN_HEADING_FILLER
    )


def _section_ids(text: str) -> set[str]:
    """Identifiers of a section's bullets, plus the file name of each path ("ci.yml")."""
    found = identifiers(text)
    for identifier in list(found):
        name = identifier.rstrip("/").rsplit("/", 1)[-1]
        if "/" in identifier and len(name) >= 4:
            found.add(name)
    return found


def _mentions(text: str, term: str) -> bool:
    if has_cjk(term) or len(term) >= 4:
        return term in text
    return re.search(rf"(?<![a-z0-9]){re.escape(term)}(?![a-z0-9])", text) is not None


def _local_merge(section: MemorySection) -> Placement:
    return Placement("merge", section.title, None, f'Said while the chat was on "{section.title}".')


@dataclass(frozen=True)
class LocalTopic:
    """The section the chat was on just before a note; and the chat without the note's messages."""

    section: MemorySection
    texts: Sequence[str]  # the chat's messages
    own: frozenset[int]  # the note's own messages (by index)

    @property
    def rest(self) -> tuple[str, ...]:
        """The chat without the note's messages (only :meth:`discusses` asks, rarely: built then)."""
        return tuple(t for n, t in enumerate(self.texts) if n not in self.own)

    def discusses(self, section: MemorySection) -> bool:
        """The chat's other messages talk about ``section`` too (a heading word, two of its terms)."""
        return _home_score(" ".join(self.rest).casefold(), section) >= LOCAL_MIN


LOCAL_WINDOW = 6  # messages before a note that show what the chat was talking about then
LOCAL_MIN = 2.0  # a heading word, or two of the section's identifiers / names


def local_topic(
    texts: Sequence[str], own: Iterable[int], sections: Sequence[MemorySection]
) -> LocalTopic | None:
    """The section the chat was on just before the note came up: the home score over the few
    messages before the note's first one (its own messages do not vote), clearly ahead of the rest."""
    own = set(own)
    if not sections or not own:
        return None
    start = min(own)
    window = " ".join(texts[max(0, start - LOCAL_WINDOW) : start]).casefold()
    if not window:
        return None
    scored = sorted(((_home_score(window, s), n) for n, s in enumerate(sections)), reverse=True)
    best, number = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    if best < LOCAL_MIN or best < HOME_LEAD * runner_up:
        return None
    return LocalTopic(sections[number], texts, frozenset(own))


_WEEK_AND_MONTH = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"
    r"|january|february|march|april|june|july|august|september|october|november|december",
    re.IGNORECASE,
)
_CAPITALIZED = re.compile(r"(?<=[A-Za-z0-9,;)\]] )[A-Z][A-Za-z0-9.+-]+")
_LATIN_IN_CJK = re.compile(r"(?<![A-Za-z])[A-Za-z][A-Za-z0-9.+-]{2,}")


def own_names(text: str, section: MemorySection) -> set[str]:
    """Systems the note names that the section does not: identifiers, a capitalized name inside
    an English sentence ("a Healthchecks heartbeat"), a Latin word inside a Chinese one ("用 launchd")."""
    names = set(identifiers(text))
    if has_cjk(text):
        # a short lower-case word ("prod", "env") is a label of the system, not another system
        names |= {w.casefold() for w in _LATIN_IN_CJK.findall(text) if len(w) >= 5 or not w.islower()}
    names |= {w.casefold() for w in _CAPITALIZED.findall(text) if not _WEEK_AND_MONTH.fullmatch(w)}
    section_text = " ".join([section.title, *section.bullets]).casefold()
    return {name for name in names if name not in section_text}


def lists_people(sections: Sequence[MemorySection]) -> bool:
    """A section named for a team or its people, or whose bullets say who owns what."""
    return any(_OWNER_SECTION.search(s.title) or _owner_bullets(s.bullets) for s in sections)


def opens_on(user_texts: Sequence[str], section: MemorySection, first: int = 2) -> bool:
    """The user's first messages name the section's subject (a heading word): the problem the chat is about."""
    if isinstance(section, ContestedHome):
        return False  # two sections share the chat: it opened on neither as its home
    opening = " ".join(user_texts[:first]).casefold()
    return any(_mentions(opening, term) for term in _heading_words(section.title))


_DOMAIN = re.compile(
    r"(?<![\w.-])[a-z0-9-]+(?:\.[a-z0-9-]+)+\.(?:com|org|net|dev|io|app|cloud|lan|local|home)(?![\w.-])"
)


# A person's title around a name: the name is someone's ("Yuki 老师", "Tan 医生", "Dr. Hale"), not a system's.
_PERSON_TITLE_AFTER = re.compile(r"\s?(?:老师|医生|大夫|教练|先生|女士|师傅|主任|律师)")
_PERSON_TITLE_BEFORE = re.compile(r"(?<![A-Za-z])(?:Dr|Mr|Mrs|Ms|Prof)\.?\s$")


def _person(text: str, start: int, end: int) -> bool:
    """The capitalized word at ``text[start:end]`` is a person's name: a title stands before or after it."""
    return bool(
        _PERSON_TITLE_AFTER.match(text, end) or _PERSON_TITLE_BEFORE.search(text[max(0, start - 6) : start])
    )


def _other_system(text: str, section: MemorySection, names: bool = True) -> bool:
    """The note names a product or host the section never does ("Cloudflare's proxy", "cdn.example.com"):
    it is about that system, not the section's. ``names=False`` looks at hosts and kebab-case
    service names only (the capitalized name is the owner's)."""
    found = set(_DOMAIN.findall(text.casefold()))
    if not names:  # who owns what: a service named the way systems are (billing-service) is another system
        found |= {i for i in identifiers(text) if "-" in i and i[:1].isalpha() and not set(i) & set("/.:@ ")}
    if names:
        found |= {
            m.group(0).rstrip(".").casefold()  # "Thursday." ends a sentence: a day, not a product
            for m in _CAPITALIZED.finditer(text)
            if not _WEEK_AND_MONTH.fullmatch(m.group(0).rstrip("."))
            and re.match(r"[A-Z][a-z]{2}", m.group(0))  # a name, not an acronym
            and not _person(text, m.start(), m.end())
        }
    section_text = " ".join([section.title, *section.bullets]).casefold()
    return any(name not in section_text for name in found if len(name) >= 3)


def about_opening(note_text: str, user_texts: Sequence[str], first: int = 3) -> bool:
    """The note names a term of the problem the user opened the chat with (an identifier, a word)."""
    opening = " ".join(user_texts[:first]).casefold()
    return bool(_topic_terms(note_text.casefold()) & _topic_terms(opening))


def on_topic(note_text: str, own: set[int], texts: Sequence[str], home: MemorySection) -> bool:
    """The note shares a term with the chat's *other* messages that talk about the home section:
    a rule about the alerts the chat was routing, not a new subject raised at the end."""
    if isinstance(home, ContestedHome):
        return False  # no home: a user's rule is placed by its own words
    terms = _heading_words(home.title)
    section_ids = _section_ids(" ".join(home.bullets))
    vocabulary: set[str] = set()
    for number, text in enumerate(texts):
        folded = text.casefold()
        if number in own or not (
            any(_mentions(folded, t) for t in terms) or any(i in folded for i in section_ids)
        ):
            continue
        vocabulary |= _topic_terms(folded)
    return bool(_topic_terms(note_text.casefold()) & vocabulary)


def _topic_terms(folded: str) -> set[str]:
    words = {w for w in _LATIN_WORD.findall(folded)} - EN_LONG_COMMON_WORDS
    return words | set(identifiers(folded)) | han_ngrams(folded, 3)


def _belongs_home(text: str, note_ids: frozenset[str], kinds: set[str], home: MemorySection) -> bool:
    """A note of the home conversation merges there when it shares a term with the section
    (a heading word, an identifier, a name, a Chinese phrase) and is not about a person or a reply style."""
    if (
        NoteKind.OWNER in kinds
        and OPENING_TOPIC in kinds
        and not _other_system(text, home, names=False)  # the capitalized name is the owner's
        and PEOPLE_SECTION not in kinds
    ):
        return True  # who owns a part of the system the chat is about, when no section lists people
    if kinds & {NoteKind.OWNER, NoteKind.PREFERENCE}:
        return False
    if isinstance(home, FaintHome) and _new_party(text, home):
        return False  # how to reach someone the section never lists: a new supplier, doctor, class
    if USER_RULE in kinds:
        return True  # a rule the user set while the chat is about this section's subject belongs to it
    if not _other_system(text, home):
        # The chat is about this section's subject and the note names nothing else: it is a detail
        # of that subject (its key, its port, a step, a fee) however few words it shares with the
        # saved bullets ("timestamp 用秒" under the alert bot the whole chat was fixing).
        return True
    if NoteKind.FUTURE in kinds and not kinds & _EPISODE and _PREFERENCE_SECTION.search(home.title):
        return True  # the chat is about a section of conventions, and this is one more convention
    return _shares_section_term(text, note_ids, home)


def _shares_section_term(text: str, note_ids: frozenset[str], section: MemorySection, words: int = 1) -> bool:
    """The note names a heading word, an identifier, ``words`` names or a Chinese phrase of the
    section. Between two contested sections one shared name is no link (``words=2``): the product the
    whole chat is about ("openclaw", "postgresql") is in most of its notes."""
    folded = text.casefold()
    bullets = " ".join(section.bullets)
    shared_words = {w.casefold() for w in _LATIN_WORD.findall(bullets)} - EN_LONG_COMMON_WORDS
    return (
        any(_mentions(folded, term) for term in _heading_words(section.title))
        or bool(note_ids & _section_ids(bullets))
        or sum(1 for word in shared_words if _mentions(folded, word)) >= words
        or bool(han_ngrams(folded, 3) & han_ngrams(bullets, 3))
    )


# How a person or business is reached: a phone number (7+ digits in groups, or +country), an e-mail
# address, or the word for a contact channel. General language, both languages.
_CONTACT = re.compile(
    r"(?<![\w.])\+?\d{2,4}(?:[ -]?\d{3,4}){1,3}(?![\w.])|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|微信|电话|手机|邮箱|联系方式|(?<![A-Za-z])(?:phone|tel|e-?mail|whatsapp|wechat|signal)(?![A-Za-z])",
    re.IGNORECASE,
)


def _new_party(text: str, section: MemorySection) -> bool:
    """The note tells how to reach someone (a phone, an e-mail, a WeChat) and the section lists no
    contact at all: a party of its own (a new supplier, a family doctor, a swimming class), not a
    detail of the section's subject, however much the chat is about that subject."""
    if not any(sum(c.isdigit() for c in m) >= 7 or not m[:1].isdigit() for m in _contact_marks(text)):
        return False
    return not _contact_marks(" ".join([section.title, *section.bullets]))


def _contact_marks(text: str) -> list[str]:
    return [m.group(0) for m in _CONTACT.finditer(text)]


# A note that opens by introducing a new thing: "新增…", "新客户…", "New YNAB category …". Not a new
# value of a known thing ("new port", "新的端口"): that is a change of a saved bullet.
_INTRODUCES = re.compile(
    r"^\s*(?:新增|新加了?|新开了?|新[客供][户应]|(?:a |an )?new (?!(?:one|number|value|address|time|price|rate|port|version|ip)\b)[A-Za-z])",
    re.IGNORECASE,
)


# What a note introduces: the introducer and the words after it, up to the first comma or full stop.
_INTRODUCED_PHRASE = re.compile(r"\s*([^，,。.；;：:]{2,40})")


def _introduces_new(sentence: str) -> bool:
    return _INTRODUCES.search(sentence) is not None


def _changes_introduced(lead: str, text: str, bullets: Sequence[str]) -> bool:
    """The note gives a saved bullet's value a new one, and that bullet is about the thing the note
    introduces ("新增" + the words after it): "新增赡养老人，每月 3000 元" beside "子女教育扣除每月 2000 元"
    shares the bullet's "每月" but introduces another deduction, a thing of its own."""
    introduced = _INTRODUCED_PHRASE.match(lead)
    if introduced is None:
        return False
    return any(
        _changes_bullet(text, (bullet,)) and _shares_term(introduced.group(1), bullet) for bullet in bullets
    )


def _duplicate(
    bullets: Sequence[_Bullet], prior: bool, sections: Sequence[MemorySection]
) -> tuple[MemorySection, str] | None:
    best: tuple[float, MemorySection, str] | None = None
    for section in sections:
        for existing in section.bullets:
            existing_ids = identifiers(existing)
            for bullet in bullets:
                score = signals.alike(bullet.bullet, existing)
                shared = len(bullet.ids & existing_ids)
                covered = bool(bullet.ids) and bullet.ids <= existing_ids
                if prior and (score >= PRIOR_SIMILARITY or shared):
                    score += 1.0
                elif covered and score >= PRIOR_SIMILARITY and not _adds_words(bullet.bullet, existing):
                    score += 0.5
                elif score < SKIP_SIMILARITY or (bullet.ids - existing_ids and not prior):
                    continue  # new identifiers mean new information, however alike the wording
                if not prior and quantities(bullet.bullet) - quantities(existing):
                    continue  # … and so do new amounts and times ("850mg" beside "500mg", "now 09:40")
                if not prior and _new_names(bullet.bullet, existing):
                    continue  # … and new names ("via Boots" beside "via Lloyds pharmacy"): DESIGN §7
                if best is None or score > best[0]:
                    best = (score, section, existing)
    return None if best is None else (best[1], best[2])


def _new_names(text: str, saved: str) -> bool:
    """The sentence names someone or something the saved bullet does not (a capitalized word inside a
    sentence, a Latin name in Chinese text, as :func:`values` finds them): another pharmacy, another
    contact — a fact of its own however alike the wording."""
    folded = saved.casefold()
    return any(value.isalpha() and value not in folded for value in values(text))


# "不是 8080" / "not 8080" / "instead of 8080": a value named only to be denied is not part of the fact.
_DENIED = re.compile(
    r"(?:而?不是|并非|而非|(?<![A-Za-z])(?:not|instead of|rather than)(?![A-Za-z]))\s*`?[^\s，,。;；`]+`?",
    re.IGNORECASE,
)
_VALUE = re.compile(r"[\d/._-]")
RESTATED_SIMILARITY = 0.15


def _restated(
    bullets: Sequence[_Bullet], kinds: set[str], sections: Sequence[MemorySection]
) -> tuple[MemorySection, str] | None:
    """The chat states again a fact one saved bullet already holds: every value it asserts (a port,
    a path, a host) is in that bullet and it adds none. One value is enough for a plain fact
    ("staging listens on 8443"); an incident (cause, fix) needs two, since it may be new about a known host."""
    asserted: set[str] = set()
    for bullet in bullets:
        asserted |= identifiers(_DENIED.sub(" ", bullet.bullet))
    values = {i for i in asserted if _VALUE.search(i)}
    if not values or len(values) < (2 if kinds & _EPISODE else 1):
        return None
    text = " ".join(b.bullet for b in bullets)
    said = _DENIED.sub(" ", text)
    for section in sections:
        for existing in section.bullets:
            existing_ids = identifiers(existing)
            folded = existing.casefold()
            if (
                all(i in existing_ids or i in folded for i in asserted)
                and not quantities(said) - quantities(existing)  # "now 09:40" beside a saved 07:05
                and (len(values) >= 2 or signals.alike(text, existing) >= RESTATED_SIMILARITY)
                and not _adds_words(text, f"{section.title} {existing}")
            ):
                return section, existing
    return None


RESTATED_NEW_WORDS = 0.5  # a note whose content words are more than half new says something new


def _adds_words(text: str, saved: str) -> bool:
    """Most of the note's content words are not in the saved bullet: the same hosts, a new fact."""
    # Latin words only: a Chinese rewording shares few character pairs with the saved bullet
    said = {t for t in fact_terms(text) - identifiers(text) if t.isascii() and t.isalpha() and len(t) >= 4}
    new = said - fact_terms(saved)
    return len(new) > 2 and len(new) > RESTATED_NEW_WORDS * len(said)


def _affinity(
    text: str,
    note_ids: frozenset[str],
    kinds: set[str],
    section: MemorySection,
    lead_ids: frozenset[str],
    sentences: Sequence[str] = (),
) -> float:
    section_text = " ".join([section.title, *section.bullets])
    section_ids = identifiers(section_text)
    score = min(2.0, 1.0 * len(note_ids & section_ids))
    if kinds & {NoteKind.ROOT_CAUSE, NoteKind.FIX} and lead_ids & section_ids:
        score = 2.0  # the incident's lead sentence names a system the section describes (its host, its file)
    compact_text = signals.compacted(text)
    terms = [term for term in _title_terms(section.title) if term in compact_text]
    heading = 0.0
    if terms:
        # A long word of the heading ("digest", "ollama") names the subject; a short one only hints.
        heading = 2.0 if any(len(term) >= 5 or has_cjk(term) and len(term) >= 3 for term in terms) else 1.5
    if heading < 2.0 and (concepts := _heading_concepts(section.title)) and concepts & _narrow_concepts(text):
        heading = 2.0  # "Cross Hotel Osaka" under "大阪行程": the heading's subject in the other language
    score += heading
    if NoteKind.OWNER in kinds and (_OWNER_SECTION.search(section.title) or _owner_bullets(section.bullets)):
        score += 2.0
    if NoteKind.PREFERENCE in kinds and _PREFERENCE_SECTION.search(section.title):
        score += 2.0
    if signals.alike(text, section_text) >= 0.3:
        score += 1.0
    if (
        score < MERGE_MIN
        and NoteKind.OWNER not in kinds  # who owns a system the section names is a fact of its own
        and _opens_on_a_name_of(sentences, section)
    ):
        score += 2.0  # the note opens on someone or something the section's bullets name ("王师傅说…")
    if _changes_bullet(text, section.bullets):
        score += 2.0  # "包邮门槛从满 99 调到满 129" under "满 99 包邮": the note updates that bullet's value
    elif _siblings(note_ids - section_ids, section_ids):
        score += (
            2.0  # "v0.9.3" beside a saved "v0.9.2", "db-2" beside "db-1": one more of that section's kind
        )
    score += factkinds.kind_affinity(factkinds.note_kinds(text, kinds), section.title, tuple(section.bullets))
    return score


def _siblings(new_ids: Iterable[str], saved_ids: Iterable[str]) -> bool:
    """A new identifier written like a saved one but for its numbers ("v0.9.3" and "v0.9.2", "gpu-02"
    and "gpu-01"): the next release, host or account of the same series. Only names with letters in
    them: bare numbers, dates and addresses all look alike, and so do sizes ("2tb" and "4tb", "16gb"
    and "32gb" are amounts of anything, the :data:`_MEASURE` reading)."""
    saved_shapes = {_shape(i) for i in saved_ids if _in_a_series(i)}
    return any(_shape(i) in saved_shapes for i in new_ids if _in_a_series(i))


def _in_a_series(identifier: str) -> bool:
    return _SERIES.fullmatch(identifier) is not None and _MEASURE.fullmatch(identifier) is None


_SERIES = re.compile(
    r"(?=.*\d)(?=.*[a-z])[a-z0-9][a-z0-9._-]{1,30}", re.IGNORECASE
)  # a name with a number in it


def _shape(identifier: str) -> str:
    return re.sub(r"\d+", "0", identifier.casefold())


def _changes_bullet(text: str, bullets: Sequence[str]) -> bool:
    """The note states a saved bullet's fact with a new value: it names the bullet's quantity and a
    new one ("from 500mg to 850mg", "从满 99 调到满 129") and shares a word with it, or it gives a new
    time of day where the bullet has one and shares a phrase with it ("每周四 17:00，少年宫三楼"
    beside "每周三 16:30，少年宫三楼")."""
    said = quantities(text)
    if not said and not _MEASURE.search(text):
        return False
    said_times = {q for q in said if _TIME.fullmatch(q)}
    measured = _measures(text)
    for bullet in bullets:
        saved_measures = _measures(bullet)
        if (
            any(
                unit == saved_unit and number != saved_number
                for number, unit in measured
                for saved_number, saved_unit in saved_measures
            )
            and not measured & saved_measures
            and _shares_term(text, bullet, pairs=2)
        ):
            return True  # "long run max 8 km" beside "long run … building to 16 km"
        saved = quantities(bullet)
        if len(said) >= 2 and said & saved and said - saved and _shares_term(text, bullet):
            return True
        saved_times = {q for q in saved if _TIME.fullmatch(q)}
        if said_times and saved_times and not said_times & saved_times and _shares_phrase(text, bullet):
            return True
    return False


_TIME = re.compile(r"\d{1,2}:\d{2}")
# A number with its unit: "8 km", "850mg", "3.55%", "129 元".
_MEASURE = re.compile(
    r"(?<![\w.])(\d+(?:[.,]\d+)?)\s?(km|kg|mg|g|ml|l|gb|mb|tb|%|元|块|公里|斤|克|小时|分钟|min|h)(?![A-Za-z])",
    re.IGNORECASE,
)


# A count of things: a number and the English noun it counts ("97,000 words", "60 bags") or the Chinese
# measure word after it ("20 张", "10 桌"; not a date's or a clock's 年/月/日/号/点/时/分). The same noun
# after another number in a saved bullet is that bullet's count changed, whatever the noun.
_COUNTED = re.compile(
    r"(?<![\w.:,])(\d+(?:,\d{3})*(?:\.\d+)?)(?:\s([A-Za-z]{3,})(?![\w-])|\s?([" + HAN + r"]))"
)
_DATE_HAN = frozenset("年月日号点时分秒周")


@text_cache  # each saved bullet's, asked about once per note
def _measures(text: str) -> frozenset[tuple[str, str]]:
    """A text's numbers with their units (``_MEASURE``) or the English noun they count (``_COUNTED``)."""
    found = {(m.group(1), m.group(2).casefold()) for m in _MEASURE.finditer(text)}
    for m in _COUNTED.finditer(text):
        noun = (m.group(2) or m.group(3)).casefold()
        if noun not in EN_SMALL_WORDS and noun not in _DATE_HAN:
            found.add((m.group(1), noun))
    return frozenset(found)


def _shares_phrase(text: str, bullet: str) -> bool:
    """Two Chinese three-character phrases, or two long Latin words, in common: the same subject."""
    grams = _zh_terms(text, 3)
    latin = _long_content_words(text)
    return len(grams & han_ngrams(bullet, 3)) >= 2 or len(latin & _long_latin_words(bullet)) >= 2


@text_cache
def _long_latin_words(text: str) -> frozenset[str]:
    """Latin words of four letters or more, case-folded (a note's, a saved bullet's: asked about often)."""
    return frozenset(w.casefold() for w in _LONG_LATIN.findall(text))


_LONG_LATIN = re.compile(r"[A-Za-z]{4,}")


@text_cache
def _long_content_words(text: str) -> frozenset[str]:
    """The long Latin words of ``text`` that are not common English words (a note's: asked about per bullet)."""
    return _long_latin_words(text) - EN_LONG_COMMON_WORDS


def _shares_term(text: str, bullet: str, pairs: int = 1) -> bool:
    """A content word both name: a Latin word of four letters or more, or ``pairs`` Chinese character
    pairs without a particle ("扣款" alone is any payment; "包邮" is the threshold's subject)."""
    if _long_content_words(text) & _long_latin_words(bullet):
        return True
    return len(_zh_terms(text, 2) & han_ngrams(bullet, 2)) >= pairs


@signals.per_chat
def _narrow_concepts(text: str) -> frozenset[str]:
    """The specific concept groups a text names (:mod:`savenow.text.concepts`): groups with no
    narrower ones, two levels or more down ("osaka" under japan under country …). A broad group
    ("server", "backup", "alerting") names a whole domain, and two sections of one file share it."""
    found = set()
    for concept in concepts_in(text):
        group = get_concept(concept)
        if group is not None and not group.children and len(ancestors(concept)) >= 2:
            found.add(concept)
    return frozenset(found)


@text_cache
def _heading_concepts(title: str) -> frozenset[str]:
    return _narrow_concepts(title)


@text_cache  # a note's opening words, asked about once per section
def _names_in(text: str) -> frozenset[str]:
    """Names a text holds: capitalized Latin words (Kenji, Metabase), Chinese three-character runs
    without a particle or pronoun in them (王师傅, 林老师, 全合成)."""
    words = {w.casefold() for w in _LATIN_WORD.findall(text) if w[:1].isupper() and not w.isupper()}
    return frozenset(words - EN_LONG_COMMON_WORDS) | _zh_terms(text, 3)


def _opens_on_a_name_of(sentences: Sequence[str], section: MemorySection) -> bool:
    """A bullet of the note opens on someone or something the section's bullets name ("蓝鲸法务月结…"
    under a section listing 蓝鲸法务): what the bullet is about is one of that section's things."""
    names = _names_of_bullets(tuple(section.bullets))
    return bool(names) and any(names & _names_in(_opening_words(s)) for s in sentences)


def _opening_words(text: str) -> str:
    """Where a sentence names its subject: its first three words, or first eight Chinese characters."""
    if has_cjk(text[:8]):
        return text[:8]
    return " ".join(text.split()[:3])


@text_cache
def _names_of_bullets(bullets: tuple[str, ...]) -> frozenset[str]:
    return _names_in(" ".join(bullets))


def _owner_bullets(bullets: Iterable[str]) -> bool:
    return sum(1 for b in bullets if LEX.OWNER.search(b)) >= 1


@text_cache
def _title_terms(title: str) -> tuple[str, ...]:
    """The words of a heading that name its subject (compact form), e.g. "nginx", "edge-1", "备份"."""
    terms: list[str] = []
    for word in compact(title).split(" "):
        if has_cjk(word):
            terms.extend(word[i : i + 2] for i in range(0, max(len(word) - 1, 1), 2))
        elif len(word) >= 3 and word not in EN_HEADING_FILLER:
            terms.append(word)
    return tuple(terms)


# A sentence saying its fact holds as before: "Marta still opens Tue-Thu", "backup stays the Z6 II",
# "测试还是 uv run pytest", "仍然是三个月复查". Words of the language, not of a case; a question
# ("A 还是 B？") never comes this far (restated skips read statements, not questions).
_STILL_STANDS = re.compile(
    r"\b(?:still|already|stays|stayed|as usual|as always)\b|还是|仍然|依然|照样|照旧|没变|不变", re.IGNORECASE
)


def still_stands(text: str) -> bool:
    return bool(_STILL_STANDS.search(text))


def shared_fact_terms(sentence: str, bullet: str) -> int:
    """How many content words and Chinese bigrams of the sentence the bullet also holds."""
    return len(fact_terms(sentence) & fact_terms(bullet))
