"""Notes: statements grouped around the strongest ones into one durable fact each (step 2)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...models import ChatMessage
from ...text.normalize import compact_similarity, dice
from ...text.sentences import is_question
from ...vocabulary import NoteKind
from . import rules
from .interviews import Exchange, interview_subjects
from .rules import (
    BULLET_RATIO,
    CAUSE_FIX_SAME_TEXT,
    DETAIL_DISTANCE,
    FAR_SAME_TEXT,
    FOLLOW_UP_DISTANCE,
    INCIDENT,
    INCIDENT_WINDOW,
    INTERVIEW_BULLETS,
    MAX_BULLETS,
    MEMBER_MIN,
    SAME_TEXT,
    SEED_MIN,
    STANDING,
)
from .signals import LEX, prose, sentences
from .statements import PERSON, PERSON_PRONOUN, Statement, keywords, shares_subject, statements
from .words import quantities, text_words


@dataclass
class Note:
    """A group of statements about one durable fact."""

    seed: Statement
    members: list[Statement] = field(default_factory=list)
    companions: list[Statement] = field(default_factory=list)  # seeds of notes joined to this one
    # an interview subject's bullets, in the order they were asked about (:mod:`.interviews`)
    interview: list[Statement] | None = None

    @property
    def score(self) -> float:
        support = sum(1 for m in self.members if m is not self.seed and m.score >= 2.0)
        roles = {m.role for m in self.members}
        return self.seed.score + 0.5 * min(support, 2) + (0.5 if len(roles) == 2 else 0.0)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset().union(*(m.ids for m in self.members))

    @property
    def kinds(self) -> set[str]:
        return set().union(*(m.kinds for m in self.bullets()))

    def bullets(self) -> list[Statement]:
        if self.interview is not None:
            return self.interview
        incident = self._incident_bullets()
        chosen: list[Statement] = incident or [self._named_lead()]
        for companion in self.companions:
            if len(chosen) < MAX_BULLETS and not any(_same_fact(companion, other) for other in chosen):
                chosen.append(companion)
        if self.companions and not incident:
            chosen.sort(key=lambda m: m.message)  # details read in the order they were handed over
        ranked = sorted(self.members, key=lambda m: (-m.score, m.message))
        for member in ranked:
            if len(chosen) == MAX_BULLETS:
                break
            if member in chosen or member.machine or member.symptom:
                continue
            if incident and NoteKind.ROOT_CAUSE in member.kinds:
                continue  # the earlier "found the cause" is superseded by the confirmed one
            if member.score < self.seed.score * BULLET_RATIO:
                continue
            if any(_same_fact(member, other) for other in chosen):
                continue
            chosen.append(member)
        return chosen

    def _named_lead(self) -> Statement:
        """An owner note must say who: "以后 hm-common 的问题都找他" gives way to the acknowledgement
        "`hm-common` 由 Wen Jie 维护" when only that one names the person."""
        seed = self.seed
        if not (NoteKind.OWNER in seed.kinds or PERSON_PRONOUN.search(seed.bullet)) or PERSON.search(
            seed.bullet
        ):
            return seed
        named = [
            m
            for m in [*self.members, *self.companions]
            if PERSON.search(m.bullet)
            and not (m.machine or m.symptom)
            and m.score >= seed.score * BULLET_RATIO
            and (m.kinds & STANDING or m.ids & seed.ids)
        ]
        return max(named, key=lambda m: (m.score, m.message)) if named else seed

    def _incident_bullets(self) -> list[Statement]:
        """An incident note leads with its root cause and its fix: the cause that names the
        decisive identifier (not the earlier "found the cause" without one), and the fix that
        carries the command or config key."""
        if not (self.seed.kinds & INCIDENT) or self.seed.kinds & STANDING or self.seed.kinds >= INCIDENT:
            return []  # not an incident, or its lead sentence already says both cause and fix
        usable = [m for m in self.members if not (m.machine or m.symptom) and m.score > 0]
        causes = [m for m in usable if NoteKind.ROOT_CAUSE in m.kinds and NoteKind.FIX not in m.kinds]
        fixes = [m for m in usable if NoteKind.FIX in m.kinds and m.kinds & STANDING == set()]
        if not causes or not fixes:
            return []
        fix = max(
            fixes,
            key=lambda m: (
                bool(LEX.PERMANENT.search(m.text)),
                "`" in m.text,
                bool(m.ids),
                m.score,
                m.message,
            ),
        )
        cause = max(causes, key=lambda m: (bool(m.ids - fix.ids), bool(m.ids), m.score, m.message))
        return [cause] if cause is fix else [cause, fix]


def _same_fact(a: Statement, b: Statement) -> bool:
    alike = _alike(a, b)
    if (NoteKind.FIX in a.kinds) != (NoteKind.FIX in b.kinds) and NoteKind.ROOT_CAUSE in a.kinds | b.kinds:
        return (
            alike >= CAUSE_FIX_SAME_TEXT
        )  # the cause and the fix are two bullets, even with the same identifiers
    return alike >= SAME_TEXT or (bool(a.ids) and a.ids <= b.ids and alike >= 0.3)


def _related(seed: Statement, other: Statement) -> bool:
    if seed.prior != other.prior:
        return False
    distance = abs(seed.message - other.message)
    if distance > _NEAR:
        # Most pairs grouping asks about: far apart, so only a shared identifier, one incident or
        # near-identical wording can join them (the tests below all need the same or a nearby message).
        return (
            not seed.ids.isdisjoint(other.ids)
            or _same_incident(seed, other)
            or _alike_at_least(seed, other, FAR_SAME_TEXT)
        )
    if seed.message == other.message and seed.part != other.part:
        return False  # two items of one list are two facts, even about one machine
    if seed.message == other.message and seed.part is not None and seed.part == other.part:
        return True  # the sentences of one list item are one fact
    if seed.message == other.message and seed.step and other.step:
        return True  # "迁移建议：1. … 2. … 3. …": the steps of one procedure are one note
    if not seed.ids.isdisjoint(other.ids) or _same_incident(seed, other):
        return True
    if seed.message == other.message and seed.kinds & _EPISODE and other.kinds & _EPISODE:
        return True
    if seed.message == other.message and seed.noted and other.noted:
        return True  # one "rule:" sentence split at a semicolon
    if _records(seed, other) or _records(other, seed):
        return True  # the user's rule and the assistant's "Noted: …" of it
    if distance == 1 and (seed.restates or other.restates) and _alike(seed, other) >= 0.25:
        return True  # the user's words and the assistant's acknowledgement of them
    if 0 < distance <= 2 and seed.role != other.role and keywords(seed) & keywords(other):
        return True
    if _takes_down_amount(seed, other) or _takes_down_amount(other, seed):
        return True  # "医生说优甲乐减到 62.5 微克" and the reply's "好的，每天 62.5 微克。"
    # Far apart and with no identifier in common, only near-identical wording is the same fact:
    # two English rules about the same subject share many letters without being one note.
    return _alike_at_least(seed, other, SAME_TEXT if distance <= 2 else FAR_SAME_TEXT)


# Messages apart beyond which only identifiers, an incident or the wording can relate two statements
# (an acknowledgement, a reply's keywords or amount are at most two messages away).
_NEAR = 2


_EPISODE = frozenset({NoteKind.ROOT_CAUSE, NoteKind.FIX})


def _takes_down_amount(said: Statement, reply: Statement) -> bool:
    """The assistant's reply right after the user's statement repeats one of its amounts or times
    (`$12,000` for `12000`): it takes that fact down, so the two are one note, not two."""
    if said.role != "user" or reply.role != "assistant" or reply.message != said.message + 1:
        return False
    return bool(_amounts(said.bullet) & _amounts(reply.bullet))


def _amounts(text: str) -> frozenset[str]:
    return frozenset(q.replace(",", "") for q in quantities(text))


def _standing_rule(statement: Statement) -> bool:
    """A rule, owner or preference the user set and the assistant acknowledged (or the acknowledgement)."""
    if not statement.kinds & STANDING or statement.kinds & INCIDENT:
        return False
    return statement.acknowledged if statement.role == "user" else statement.restates


def _different_kinds(a: Statement, b: Statement) -> bool:
    """A standing rule born from an incident is its own note, even with the incident's identifiers:
    "以后轮换 token 时两处必须一起改" is not the root cause of today's outage."""
    return (_standing_rule(a) and _incident(b)) or (_standing_rule(b) and _incident(a))


def _incident(statement: Statement) -> bool:
    """A root cause or fix of what happened (a "以后改用…" sentence is a rule, not an incident)."""
    return bool(statement.kinds & INCIDENT) and not statement.kinds & STANDING


def _same_incident(a: Statement, b: Statement) -> bool:
    """Cause found → cause confirmed → fix applied, a few messages apart, about the same thing
    (a path and its file name, a bare word of an identifier, a shared Chinese phrase)."""
    if not (_incident(a) and _incident(b)) or abs(a.message - b.message) > INCIDENT_WINDOW:
        return False
    return shares_subject(a, b)


def _records(said: Statement, ack: Statement) -> bool:
    """``ack`` is the assistant's acknowledgement, in the very next message, of the user's ``said``."""
    return (
        said.acknowledged
        and said.score > 0
        and ack.message == said.message + 1
        and ack.restates
        and bool(text_words(said.bullet) & text_words(ack.bullet))
    )


def _alike(a: Statement, b: Statement) -> float:
    """Text similarity, skipping the exact score when too few character bigrams are shared.

    Grouping and bullet choice ask about the same pair many times, so the answer is kept
    on the statement (the bullet text is settled before notes are formed)."""
    remembered = a._alike.get(id(b))
    if remembered is not None and remembered[0] is b:
        return remembered[1]
    value = compact_similarity(a.compact, b.compact) if _alike_bound(a, b) is not None else 0.0
    _remember(a, b, value)
    return value


def _shares_bigrams(a: Statement, b: Statement) -> bool:
    """Enough character bigrams in common for the exact score to count (else it is 0)."""
    grams_a, grams_b = a.grams, b.grams
    smaller = min(len(grams_a), len(grams_b))
    return bool(smaller) and len(grams_a & grams_b) >= 0.3 * smaller


def _remember(a: Statement, b: Statement, value: float) -> None:
    a._alike[id(b)] = (b, value)
    b._alike[id(a)] = (a, value)


def _alike_at_least(a: Statement, b: Statement, threshold: float) -> bool:
    """``_alike(a, b) >= threshold``, without the exact score when it cannot reach the threshold:
    the Indel ratio is at most 2·min/(sum) of the two lengths, and the bigram Dice is cheap. Most
    pairs grouping asks about are unrelated sentences, so the ratio is rarely needed."""
    remembered = a._alike.get(id(b))
    if remembered is not None and remembered[0] is b:
        return remembered[1] >= threshold
    bound = _alike_bound(a, b)
    if bound is None:
        return 0.0 >= threshold  # (not remembered on the statement: the bound is, per process)
    if bound < threshold:
        return False
    return _alike(a, b) >= threshold


def _alike_bound(a: Statement, b: Statement) -> float | None:
    """None when the two share too few bigrams (their similarity counts as 0), else a bound the
    similarity cannot exceed. A pure function of the two compact texts, remembered per process:
    every preview of a chat groups the same sentences, pair by pair (about 5,000 pairs in 180
    messages), and the set intersections are most of what that costs."""
    key = (a.compact, b.compact)
    bound = _BOUNDS.get(key, _UNKNOWN)
    if bound is _UNKNOWN:
        if len(_BOUNDS) >= _PAIRS:
            _BOUNDS.clear()
        bound = _BOUNDS[key] = _bound(a, b)
    return bound  # type: ignore[return-value]


def _bound(a: Statement, b: Statement) -> float | None:
    if not _shares_bigrams(a, b):
        return None
    short, long = sorted((len(a.compact), len(b.compact)))
    if short and a.compact != b.compact:
        indel_bound = 2 * short / (short + long)
        return (indel_bound + dice(a.compact, b.compact)) / 2 + _ROUNDING
    return math.inf


_PAIRS = 1 << 15  # text pairs whose bound is remembered (a few chats of 180 messages)
_BOUNDS: dict[tuple[str, str], float | None] = {}
_UNKNOWN = object()
_ROUNDING = 1e-4  # compact_similarity rounds to four places: the bound keeps a margin for it


def find_notes(messages: Sequence[ChatMessage], scored: list[Statement] | None = None) -> list[Note]:
    """Group the scored statements into notes, strongest first.

    Single-link over shared identifiers or near-identical wording; a weak
    statement only attaches to a note's seed or strong members, so weak
    sentences never chain two facts together. A note is kept when its score
    (its seed plus support from other sentences and from both speakers)
    reaches ``SEED_MIN``.
    """
    every = statements(messages) if scored is None else scored
    ranked = sorted(
        (s for s in every if s.score >= MEMBER_MIN or (s.prior and s.score > 0)),
        key=lambda s: (-s.score, s.message),
    )
    notes: list[Note] = []
    for statement in ranked:
        strong = statement.score >= SEED_MIN
        homes = [
            note
            for note in notes
            if not (strong and _different_kinds(statement, note.seed))
            and any(
                _related(member, statement)
                for member in note.members
                if strong or member is note.seed or member.score >= SEED_MIN
            )
        ]
        if homes:
            home = homes[0]
            home.members.append(statement)
            # Two notes joined by a strong statement are one fact; weak ones never chain notes.
            for other in homes[1:] if strong else []:
                if _other_items(home.seed, other.seed):
                    continue
                home.members.extend(other.members)
                notes.remove(other)
        elif statement.machine or statement.symptom:
            continue  # a pasted log line, a URL or a problem report may support a note, never start one
        elif statement.score >= MEMBER_MIN or (statement.prior and statement.score >= 1.0):
            notes.append(Note(seed=statement, members=[statement]))
    # A user fact the assistant acknowledged can carry a note together; a lone weak sentence cannot.
    kept = [note for note in notes if note.score >= SEED_MIN or (note.seed.prior and note.seed.score >= 1.0)]
    kept.sort(key=lambda note: -note.score)
    joined = _join_details(kept, follow_up_questions(messages))
    return _with_interviews(joined, interview_subjects(messages, every))


def _says_again(ack: Statement, answer: Statement) -> bool:
    """The assistant's "记下了：跑步单次不超过 5 公里。" right after the answer it says back."""
    return ack.role == "assistant" and ack.message == answer.message + 1 and _alike(ack, answer) >= SAME_TEXT


def _with_interviews(notes: list[Note], subjects: list[list[Exchange]]) -> list[Note]:
    """One note per interview subject: it takes in the notes started inside it (an acknowledgement
    of one of its answers is that answer's note) and keeps its place among the others by score."""
    result = list(notes)
    for subject in subjects:
        bullets: list[Statement] = []
        for exchange in subject:
            for statement in exchange.bullets:
                if len(bullets) < INTERVIEW_BULLETS and not any(_same_fact(statement, b) for b in bullets):
                    bullets.append(statement)
        if not bullets:
            continue
        inside = {s.message for e in subject for s in [*e.answers, *e.restated]}
        answers = [a for e in subject for a in e.answers]
        taken = [
            n
            for n in result
            if n.interview is None
            and (n.seed.message in inside or any(_says_again(n.seed, a) for a in answers))
        ]
        members = list(bullets)
        near = inside | {e.reply for e in subject}
        released: list[Statement] = []
        for note in taken:
            for member in note.members:
                if member.message in near:
                    members.append(member)
                elif member.score >= SEED_MIN:
                    released.append(member)  # a strong fact said after the interview, grouped in by a word
            result.remove(note)
        if released:
            lead = max(released, key=lambda m: (m.score, -m.message))
            result.append(Note(seed=lead, members=released))
        seed = bullets[0]
        seed.score = max(seed.score, rules.INTERVIEW_ANSWER.weight)
        interview = Note(seed=seed, members=members, interview=bullets)
        at = next((i for i, n in enumerate(result) if n.score < interview.score), len(result))
        result.insert(at, interview)
    return result


def follow_up_questions(messages: Sequence[ChatMessage]) -> frozenset[int]:
    """The assistant messages that go on to ask the user a question after what they say ("…。价格多少？"),
    with the user's answer right after: what that answer hands over is about the same subject. A
    question asking for one more item ("Any new exercises?", "还有别的吗？") starts another subject."""
    asked = set()
    for index, message in enumerate(messages[:-1]):
        if message.role != "assistant" or messages[index + 1].role != "user":
            continue
        said = sentences(prose(message.text or ""))
        if any(is_question(sentence) and not LEX.ANOTHER_ITEM.search(sentence) for sentence in said[1:]):
            asked.add(index)
    return frozenset(asked)


def _other_items(a: Statement, b: Statement) -> bool:
    """Two items of one user's numbered list: never one note."""
    return a.message == b.message and a.part is not None and b.part is not None and a.part != b.part


_PLAIN = frozenset({NoteKind.NOTE})  # a plain fact: no rule, incident, owner, decision or change


def _join_details(notes: list[Note], asked: frozenset[int] = frozenset()) -> list[Note]:
    """ "好：钢琴课每周四 17:30，林老师家" then "记下了：280 元/节，转给林老师": details the user hands
    over one after another about one subject (a lesson's slot, place and fee) are one note, not two."""
    result: list[Note] = []
    for note in notes:
        if note.interview is not None:
            result.append(note)
            continue
        host = next(
            (
                kept
                for kept in result
                if any(_details_of_one_subject(member, note.seed, asked) for member in _acks(kept))
            ),
            None,
        )
        if host is None:
            result.append(note)
            continue
        host.members.extend(note.members)
        host.companions.append(note.seed)
    return result


def _acks(note: Note) -> list[Statement]:
    """The acknowledgements a note already holds as its lead facts: its seed and joined seeds."""
    return [note.seed, *note.companions]


def _details_of_one_subject(a: Statement, b: Statement, asked: frozenset[int] = frozenset()) -> bool:
    if a.part is not None or b.part is not None:
        return False  # items of a list in one message are each their own note
    if a.item is not None or b.item is not None:
        return a.item == b.item  # in a numbered dump, each item is one subject and only one
    if not (
        a.role == b.role == "assistant"
        and not a.prior
        and not b.prior
        and a.kinds <= _PLAIN
        and b.kinds <= _PLAIN
    ):
        return False
    near = a.restates and b.restates and 0 < abs(a.message - b.message) <= DETAIL_DISTANCE
    return (near and shares_subject(a, b)) or _answers_follow_up(a, b, asked)


def _answers_follow_up(a: Statement, b: Statement, asked: frozenset[int]) -> bool:
    """ "好：面粉找老周，电话 …。价格多少？" — "145 一袋" — "明白了：25kg 一袋 145 元": the later
    statement records the user's answer to the question the earlier acknowledgement ended with
    (the answer may take the user two messages, so the later one need not echo a single one)."""
    first, second = sorted((a, b), key=lambda s: s.message)
    return (
        first.restates and first.message in asked and 0 < second.message - first.message <= FOLLOW_UP_DISTANCE
    )
